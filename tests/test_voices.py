"""Voices: text-to-speech for real where the engine exists, the cache, packs, and their commands."""

import shutil
import threading

import numpy as np
import pytest
import soundfile

from narrator.core.deck import recommended_deck
from narrator.core.errors import NarratorError
from narrator.core.script import every_line, generate_script, settings_for
from narrator.shell.audio.cache import ClipCache
from narrator.shell.audio.clip import Clip, read_clip, write_clip
from narrator.shell.audio.tts import EngineUnavailable, Pyttsx3Engine, Voice, choose_voice
from narrator.shell.audio.voices import VoiceSource
from narrator.shell.files import write_atomically
from narrator.shell.voicepacks import load_pack
from tests.conftest import REPO, RecordingPlayer, make_env


def engine_problem():
    try:
        Pyttsx3Engine().voices()
    except EngineUnavailable as error:
        return str(error)
    return None


LINES = len(every_line(make_env().game, "it"))  # every line a pack holds: night, day, count

needs_tts = pytest.mark.skipif(engine_problem() is not None, reason=f"no text-to-speech here: {engine_problem()}")


@pytest.fixture(scope="module")
def engine():
    engine = Pyttsx3Engine()
    yield engine
    engine.close()


@needs_tts
def test_real_engine_has_italian_and_english_voices(engine):
    assert choose_voice(engine, "it").speaks("it")
    assert choose_voice(engine, "en").speaks("en")


@needs_tts
def test_real_engine_speaks_a_line_and_the_format_comes_from_the_file(engine):
    clip = engine.synthesize("Veggente, apri gli occhi.", choose_voice(engine, "it"), 150)
    assert clip.rate == 22050  # espeak's own rate, read from the file
    assert clip.seconds > 0.8 and np.abs(clip.samples).max() > 0.1


@needs_tts
def test_real_engine_honours_the_rate_every_time(engine):
    italian, english = choose_voice(engine, "it"), choose_voice(engine, "en")
    text = "Uno, due, tre, quattro, cinque, sei, sette."
    slow, fast = (engine.synthesize(text, italian, rate).seconds for rate in (80, 300))
    assert slow > 2.5 * fast
    engine.synthesize("One two three.", english, 200)  # switching voice and rate in between...
    assert engine.synthesize(text, italian, 80).seconds == pytest.approx(slow, rel=0.02)  # ...changes nothing


@needs_tts
def test_a_voice_that_does_not_exist_is_an_error_not_silence(engine):
    with pytest.raises(NarratorError, match="did not take the voice 'no-such-voice'"):
        engine.synthesize("Ciao.", Voice("no-such-voice", "Nobody", ("it",)), 150)
    with pytest.raises(NarratorError, match="no voice 'nobody-at-all' in pyttsx3: 'narrate doctor' lists the voices"):
        choose_voice(engine, "it", "nobody-at-all")  # (not 'klingon': espeak has that one)


class CountingEngine:
    """A stand-in engine that makes a tone per line and counts what it was asked."""

    name = "counting"
    voice_licence = "spoken by a test tone"

    def __init__(self):
        self.spoken = []

    def voices(self):
        return [Voice("v-it", "Tono", ("it",)), Voice("v-en", "Tone", ("en",))]

    def synthesize(self, text, voice, rate):
        self.spoken.append(text)
        samples = 0.3 * np.sin(np.arange(int(22050 * (0.3 + len(text) / 60))) * 0.05)
        return Clip(samples.astype(np.float32), 22050)


def test_tts_clips_are_cached_and_reused(tmp_path):
    engine = CountingEngine()
    cache = ClipCache(tmp_path / "clips")
    first = VoiceSource("it", None, lambda: engine, cache, None, 150)
    clip = first.raw_clip("veggente.open", "Veggente, apri gli occhi.")
    second = VoiceSource("it", None, lambda: CountingEngine(), cache, None, 150)
    again = second.raw_clip("veggente.open", "Veggente, apri gli occhi.")
    assert engine.spoken == ["Veggente, apri gli occhi."]
    assert (first.used["tts"], second.used["cache"]) == (1, 1)
    assert np.array_equal(clip.samples, again.samples)
    other_rate = VoiceSource("it", None, lambda: engine, cache, None, 120)
    other_rate.raw_clip("veggente.open", "Veggente, apri gli occhi.")
    assert len(engine.spoken) == 2  # rate is part of the key


def test_a_damaged_cache_entry_is_made_again(tmp_path):
    engine = CountingEngine()
    cache = ClipCache(tmp_path / "clips")
    source = VoiceSource("it", None, lambda: engine, cache, None, 150)
    source.raw_clip("day.start", "Sorge il sole!")
    (path,) = (tmp_path / "clips").glob("*/*.wav")
    path.write_bytes(b"RIFF garbage")  # a crash, a full disk, a bad sector
    VoiceSource("it", None, lambda: engine, cache, None, 150).raw_clip("day.start", "Sorge il sole!")
    assert len(engine.spoken) == 2
    assert read_clip(path).seconds > 0


def test_a_write_that_fails_half_way_leaves_the_old_file_and_no_debris(tmp_path):
    path = tmp_path / "line.wav"
    write_clip(Clip(np.full(100, 0.1, dtype=np.float32), 22050), path)

    def half_then_disk_full(temporary):
        temporary.write_bytes(b"half a file")
        raise OSError(28, "No space left on device")

    with pytest.raises(NarratorError, match=r"line.wav: cannot write it \(No space left on device\); nothing was"):
        write_atomically(path, half_then_disk_full)
    assert np.allclose(read_clip(path).samples, 0.1, atol=1e-3)
    assert [p.name for p in tmp_path.iterdir()] == ["line.wav"]


def no_engine():
    raise EngineUnavailable("the text-to-speech engine did not start (test); on Debian/Ubuntu: "
                            "sudo apt-get install libespeak-ng1")


def test_shipped_pack_speaks_the_whole_night_with_no_engine_at_all(tmp_path):
    player = RecordingPlayer()
    env = make_env(speech_engine=no_engine, player=lambda: player, cache_dir=tmp_path)
    from click.testing import CliRunner

    from narrator.shell.cli import cli

    result = CliRunner().invoke(cli, ["--players", "10", "--lang", "en", "--no-day"], obj=env)
    assert result.exit_code == 0, result.output
    assert len(player.nights) == 1


def test_a_line_missing_from_the_pack_falls_back_to_tts(tmp_path):
    pack_dir = tmp_path / "partial"
    shutil.copytree(REPO / "voices" / "it-pico", pack_dir)
    manifest = pack_dir / "pack.yaml"
    manifest.write_text(manifest.read_text(encoding="utf-8").replace("  veggente.open:\n", "  veggente.gone:\n", 1),
                        encoding="utf-8")
    env = make_env(cache_dir=tmp_path / "cache")
    game = env.game
    script = generate_script(game, recommended_deck(game, 5), settings_for(game, "it"))
    engine = CountingEngine()
    source = VoiceSource("it", load_pack(pack_dir), lambda: engine, ClipCache(tmp_path / "cache"), None, 150)
    source.clips_for(script, 48000)
    assert engine.spoken == [game.languages["it"].line("veggente.open")]
    broken = VoiceSource("it", load_pack(pack_dir), no_engine, ClipCache(tmp_path / "cache2"), None, 150)
    with pytest.raises(EngineUnavailable, match="line 'veggente.open' is not in voice pack 'Italiano \\(SVOX Pico\\)' "
                                                "and text-to-speech is unavailable: .*apt-get install libespeak-ng1"):
        broken.clips_for(script, 48000)


SHIPPED_PACKS = sorted(path.parent.name for path in (REPO / "voices").glob("*/pack.yaml"))


def test_every_game_and_language_has_a_shipped_pack():
    from narrator.games import GAMES_DIR
    from narrator.games.loader import available_games, load_game

    shipped = {(pack.game, pack.language) for pack in map(load_pack, (REPO / "voices" / name for name in SHIPPED_PACKS))}
    wanted = {(game_id, lang) for game_id in available_games(GAMES_DIR) for lang in load_game(GAMES_DIR / game_id).languages}
    assert wanted - shipped == set()


@pytest.mark.parametrize("folder", SHIPPED_PACKS)
def test_shipped_packs_match_the_script_line_for_line(folder):
    pack = load_pack(REPO / "voices" / folder)
    game_id, lang = pack.game, pack.language
    env = make_env()
    env.use_game(game_id)
    assert pack.game == game_id
    lines = dict(every_line(env.game, lang))
    assert {key: clip.text for key, clip in pack.clips.items()} == lines  # re-render the pack after editing lines
    for key in lines:
        path = pack.file(key)
        assert path is not None and path.suffix == ".ogg"
        assert read_clip(path).seconds == pytest.approx(pack.clips[key].seconds, abs=0.01)
    assert pack.language == lang and pack.source == "tts"
    assert pack.licence == "MIT, like narrator: text by the narrator developers; spoken by SVOX Pico (Apache-2.0)"


def test_render_writes_each_format_by_extension(run, tmp_path):
    for suffix, expected in ((".wav", "WAV"), (".flac", "FLAC"), (".ogg", "OGG")):
        path = tmp_path / f"notte{suffix}"
        result = run("render", "--players", "3", "--no-ambience", "--lang", "it", "-o", str(path))
        assert result.exit_code == 0, result.stderr
        assert result.stdout == f"narrate: scritto {path} (2:01, 48000 Hz mono)\n"
        info = soundfile.info(str(path))
        assert (info.format, info.samplerate, info.channels) == (expected, 48000, 1)


@pytest.mark.parametrize("args, message", [
    (["-o", "{tmp}/notte.mp3"], "narrate: {tmp}/notte.mp3: cannot write '.mp3' files: name the file .wav, .flac or .ogg"),
    (["-o", "{tmp}/notte"], "narrate: {tmp}/notte: no extension: name the file .wav, .flac or .ogg"),
    (["-o", "{tmp}/missing/notte.wav"], "narrate: {tmp}/missing/notte.wav: the folder {tmp}/missing does not exist"),
    (["-o", "{tmp}/n.wav", "--ambience", "thunder"],
     "narrate: no ambience 'thunder': name one of drums, rain, wind or give a WAV, FLAC or OGG file"),
    (["-o", "{tmp}/n.wav", "--voice-pack", "nonna"], "narrate: no voice pack 'nonna' (known: en-pico, it-pico); "
                                                     "'narrate voices list' shows them"),
    (["-o", "{tmp}/n.wav", "--voice-pack", "onuw-en-pico"],
     "narrate: voice pack 'English (SVOX Pico)' speaks the lines of 'one-night-ultimate-werewolf', not of "
     "'una-notte-da-lupi': add --game one-night-ultimate-werewolf or choose another pack"),
    (["-o", "{tmp}/n.wav", "--voice-pack", "it-pico"],
     "narrate: voice pack 'Italiano (SVOX Pico)' speaks 'it', the narration is in 'en': add --lang it or choose another "
     "pack"),
    (["-o", "{tmp}/n.wav", "--rate", "1000"],
     "narrate render: Invalid value for '--rate': 1000 words per minute is out of reach: choose 80 to 400"),
    (["-o", "{tmp}/n.wav", "--voice-pack", "it-pico", "--voice", "roa/it"],
     "narrate render: --voice-pack speaks recorded lines; --engine, --voice and --rate are for text-to-speech: choose one"),
])
def test_render_bad_input_is_one_line(run, tmp_path, args, message):
    args = [arg.replace("{tmp}", str(tmp_path)) for arg in args]
    result = run("render", "--players", "3", *args)
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr.startswith(message.replace("{tmp}", str(tmp_path)))
    assert result.stderr.count("\n") == 1
    assert not list(tmp_path.glob("**/*.wav"))  # nothing half-written


def test_render_with_an_unreadable_bed_file(run, tmp_path):
    bad = tmp_path / "bed.wav"
    bad.write_bytes(b"not audio at all")
    result = run("render", "--players", "3", "--ambience", str(bad), "-o", str(tmp_path / "n.wav"))
    assert result.exit_code == 2
    assert result.stderr.startswith(f"narrate: {bad}: cannot read this audio file (")


def test_tts_voice_with_no_engine_is_one_line(run, tmp_path):
    env = make_env(speech_engine=no_engine, cache_dir=tmp_path)
    result = run("render", "--players", "3", "--voice", "roa/it", "-o", str(tmp_path / "n.wav"), env=env)
    assert result.exit_code == 2
    assert result.stderr == ("narrate: the text-to-speech engine did not start (test); on Debian/Ubuntu: "
                             "sudo apt-get install libespeak-ng1\n")


def test_voices_list_shows_shipped_and_own_packs(run, tmp_path):
    own = tmp_path / "data" / "voices" / "nonna"
    shutil.copytree(REPO / "voices" / "it-pico", own)
    result = run("voices", "list", env=make_env(data_home=tmp_path / "data"))
    lines = result.stdout.splitlines()
    assert lines[0].split() == ["pack", "lang", "lines", "source", "name", "where"]
    assert lines[1].split()[:4] == ["en-pico", "en", f"{LINES}/{LINES}", "text-to-speech"] and lines[1].endswith("shipped")
    assert lines[3].split()[:3] == ["nonna", "it", f"{LINES}/{LINES}"] and lines[3].endswith(str(own))
    assert lines[-1] == f"Your packs live in {tmp_path / 'data' / 'voices'}"


def test_voices_render_builds_a_pack_that_plays(run, tmp_path):
    engine = CountingEngine()
    env = make_env(speech_engine=lambda: engine, data_home=tmp_path / "data")
    result = run("voices", "render", "--lang", "en", "robot", env=env)
    assert result.exit_code == 0, result.stderr
    folder = tmp_path / "data" / "voices" / "robot"
    assert result.stdout == f"narrate: {LINES} lines in {folder}; play with --voice-pack robot\n"
    pack = load_pack(folder)
    assert pack.language == "en" and len(pack.clips) == LINES and len(engine.spoken) == LINES
    assert pack.licence == "MIT, like narrator: text by the narrator developers; spoken by a test tone"
    again = run("voices", "render", "--lang", "en", "robot", env=env)
    assert again.stderr == f"narrate: {folder} is already a voice pack: add --overwrite to render it again\n"
    out = tmp_path / "n.wav"
    played = run("render", "--players", "4", "--lang", "en", "--voice-pack", "robot", "-o", str(out), env=env)
    assert played.exit_code == 0 and out.exists()


class FakeMicrophone:
    """A laptop's microphone in a room with a fan: each take is Enter's click, the line (half a
    second longer each take), the reach for Enter and its click. Remembers what it played back."""

    def __init__(self, loud=False):
        self.takes = 0
        self.played = []
        self.loud = loud
        self.levels_heard = 0

    def record(self, stop: threading.Event, levels=None):
        from tests.test_studio import noisy_take

        stop.wait(5)
        self.takes += 1
        take, start = noisy_take(np.random.default_rng(self.takes), voice_seconds=0.5 * self.takes)
        samples = take.samples
        if self.loud:
            samples = np.clip(samples * 12, -1, 1)
        if levels is not None:
            for block in range(0, len(samples), 1024):
                levels(float(np.abs(samples[block:block + 1024]).max()))
                self.levels_heard += 1
        return Clip(samples, take.rate)

    def play(self, clip):
        self.played.append(clip)


def test_voices_record_keeps_redoes_skips_and_resumes(run, tmp_path):
    from narrator.shell.audio import loudness

    microphone = FakeMicrophone()
    env = make_env(recorder=lambda: microphone, data_home=tmp_path / "data")
    from click.testing import CliRunner

    from narrator.shell.cli import cli

    answers = ["", "", "r",  # night.start: record, stop, record again...
               "", "",  # ...stop, keep
               "s",  # night.tips: skip
               "", "", "",  # lupo-mannaro.open: record, stop, keep
               "q"]  # stop here
    keys = "\n".join(answers) + "\n"
    result = CliRunner().invoke(cli, ["voices", "record", "--lang", "it", "nonna"], obj=env, input=keys)
    assert result.exit_code == 0, result.output
    pack = load_pack(tmp_path / "data" / "voices" / "nonna")
    assert set(pack.clips) == {"night.start", "lupo-mannaro.open"}
    assert pack.source == "recorded" and pack.language == "it"
    # The voice only: the clicks, the fan before and after and the reach for Enter are cut.
    assert 1.0 <= pack.clips["night.start"].seconds <= 1.15  # the second take
    assert 1.5 <= pack.clips["lupo-mannaro.open"].seconds <= 1.65
    # Every take is heard back as the game will play it: trimmed and at the lines' loudness.
    assert [round(clip.seconds, 1) for clip in microphone.played] == [0.6, 1.1, 1.6]
    kept = read_clip(pack.file("lupo-mannaro.open"))
    assert len(kept.samples) == len(microphone.played[-1].samples)
    assert loudness.loudness(kept.samples, kept.rate) == pytest.approx(loudness.LINE_LUFS, abs=0.5)
    assert microphone.levels_heard > 0
    # Recording in Italian, the reader is asked in Italian and told what was kept of each take.
    assert f"fatte 0 battute su {LINES}" in result.output and f"2 battute su {LINES} registrate" in result.output
    assert "Invio: registra, s: salta, q: esci" in result.output and "Invio: tieni, r: registra di nuovo" in result.output
    assert "1.6 s di voce da una ripresa di 2.8 s; rumore della stanza -42 dBFS" in result.output
    assert pack.name == "Italiano (registrato)"
    resumed = CliRunner().invoke(cli, ["voices", "record", "--lang", "it", "nonna"], obj=env, input="q\n")
    assert f"fatte 2 battute su {LINES}" in resumed.output
    assert f"[2/{LINES}] night.tips" in resumed.output  # a skipped line comes back first, numbered as in the pack
    wrong_lang = CliRunner().invoke(cli, ["voices", "record", "--lang", "en", "nonna"], obj=env, input="q\n")
    assert wrong_lang.exit_code == 2
    assert wrong_lang.output.endswith("holds a 'it' pack for una-notte-da-lupi, not 'en' for una-notte-da-lupi\n")


def test_recording_warns_of_clipping_and_of_a_long_count_word(tmp_path):
    """The count's numbers come last; the second take of 'uno' lasts a second: too long for its
    second. The microphone is turned up too far: every take clipped."""
    from click.testing import CliRunner

    from narrator.core.script import count_line_keys
    from narrator.shell.cli import cli

    microphone = FakeMicrophone(loud=True)
    env = make_env(recorder=lambda: microphone, data_home=tmp_path / "data")
    before_count = LINES - len(count_line_keys(env.game))
    keys = "s\n" * before_count + "\n\nr\n\n\nq\n"  # count.1: take 1, again, take 2, keep; quit at count.2
    result = CliRunner().invoke(cli, ["voices", "record", "--lang", "en", "loud"], obj=env, input=keys)
    assert result.exit_code == 0, result.output
    assert f"[{before_count + 1}/{LINES}] count.1\n  One" in result.output
    clipping = ("  warning: the take clipped ({count} samples at full scale): move back from the microphone or turn its "
                "input down, then record it again")
    assert result.output.count("samples at full scale") == 2
    long_number = [line for line in result.output.splitlines() if "this number lasts" in line]
    assert len(long_number) == 1 and 1.0 <= float(long_number[0].split("lasts ")[1].split(" s")[0]) <= 1.15
    assert clipping.split("{count}")[1] in result.output
    assert 1.0 <= load_pack(tmp_path / "data" / "voices" / "loud").clips["count.1"].seconds <= 1.15


def test_record_refuses_a_folder_with_other_things(run, tmp_path):
    folder = tmp_path / "photos"
    folder.mkdir()
    (folder / "holiday.jpg").write_bytes(b"\xff\xd8")
    result = run("voices", "record", "--lang", "it", str(folder), env=make_env(recorder=FakeMicrophone))
    assert result.stderr == f"narrate: {folder} non è vuota e non è un pacchetto di voci: scegli una cartella nuova\n"
    assert (folder / "holiday.jpg").read_bytes() == b"\xff\xd8"


def test_rendering_over_a_recorded_pack_is_refused(run, tmp_path):
    microphone = FakeMicrophone()
    env = make_env(recorder=lambda: microphone, speech_engine=CountingEngine, data_home=tmp_path / "data")
    from click.testing import CliRunner

    from narrator.shell.cli import cli

    CliRunner().invoke(cli, ["voices", "record", "--lang", "it", "nonna"], obj=env, input="\n\n\nq\n")
    result = run("voices", "render", "--lang", "it", "--overwrite", "nonna", env=env)
    folder = tmp_path / "data" / "voices" / "nonna"
    assert result.stderr == (f"narrate: {folder} contiene voci registrate; la sintesi le sostituirebbe: "
                             "scegli un'altra cartella\n")
    assert len(load_pack(folder).clips) == 1


def test_doctor_reports_each_part_in_a_line(run, tmp_path):
    result = run("doctor", env=make_env(speech_engine=CountingEngine, cache_dir=tmp_path))
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines[0].startswith("narrate 0.1.0, Python 3.")
    assert lines[1] == "Text-to-speech (counting): 2 voices"
    assert lines[2:4] == ["  en: v-en (Tone)", "  it: v-it (Tono)"]
    assert f"  it-pico: it, {LINES} lines, text-to-speech, shipped" in lines
    assert any(line.startswith("Sound output: ") for line in lines)
    assert any(line.startswith("Playback would use: ") for line in lines)
    assert lines[-1] == f"Cache: {tmp_path} (0 spoken lines)"


@pytest.mark.parametrize("device, said", [
    ('pcm.!default { type file slave.pcm { type null } file "/dev/null" infile "/dev/zero" format "raw" }\n',
     "Microfono (per --listen): ok: default"),
    ("pcm.!default { type hw card 9 }\nctl.!default { type hw card 9 }\n",
     "Microfono (per --listen): nessuno: collegane uno o scegli un ingresso nelle impostazioni audio del sistema"),
], ids=["an input", "none"])
def test_doctor_names_the_microphone_listen_would_record_from(tmp_path, device, said):
    """``narrate doctor`` names the default input, the one ``--listen`` records from (through
    PortAudio, as a round opens it), or says there is none and what to do; nothing is recorded."""
    import os
    import subprocess
    import sys

    from tests.test_playback import portaudio_missing

    if portaudio_missing():
        pytest.skip("PortAudio (libportaudio2) is not installed")
    config = tmp_path / "asound.conf"
    config.write_text(device)
    result = subprocess.run([sys.executable, "-m", "narrator", "doctor", "--lang", "it"], capture_output=True,
                            text=True, timeout=60, env={**os.environ, "ALSA_CONFIG_PATH": str(config)})
    assert result.returncode == 0, result.stderr
    assert said in result.stdout.splitlines(), result.stdout


@pytest.mark.parametrize("program, use", [("true", "aplay (no pause)"), ("false", "a file in {nights}, written instead "
                                                                                "of played")])
def test_doctor_says_what_a_game_would_play_through(run, tmp_path, program, use):
    """No PortAudio; aplay found, and it plays (true) or cannot (false) on the same probe a game uses."""
    path = shutil.which(program)
    if path is None:
        pytest.skip(f"needs a POSIX '{program}' command")
    env = make_env(speech_engine=CountingEngine, cache_dir=tmp_path, data_home=tmp_path / "data",
                   sound_problem=lambda: "no sound output device (none here)",
                   which=lambda name: path if name == "aplay" else None)
    lines = run("doctor", env=env).stdout.splitlines()
    assert "Sound output: no sound output device (none here)" in lines
    assert ("Command-line players: aplay" if program == "true" else "Command-line players: aplay (cannot play here)") \
        in lines
    assert f"Playback would use: {use.format(nights=tmp_path / 'data' / 'nights')}" in lines


def test_doctor_without_an_engine_says_how_to_fix_it(run, tmp_path):
    result = run("doctor", env=make_env(speech_engine=no_engine, cache_dir=tmp_path))
    assert result.stdout.splitlines()[1] == ("Text-to-speech: unavailable: the text-to-speech engine did not start "
                                             "(test); on Debian/Ubuntu: sudo apt-get install libespeak-ng1")


def test_the_real_microphone_path_on_a_null_alsa_device(tmp_path):
    """PortAudio's input stream for real. ALSA's null device captures garbage (it is no microphone):
    what the recorder hands on must still be finite samples within [-1, 1]. Stopped once the meter
    has had three blocks (a stop 50 ms after start, as before, came before the stream's first
    block on a loaded machine: nothing to look at)."""
    import subprocess
    import sys

    from tests.test_playback import portaudio_missing

    if portaudio_missing():
        pytest.skip("PortAudio (libportaudio2) is not installed")
    config = tmp_path / "asound.conf"
    config.write_text("pcm.!default { type null }\nctl.!default { type hw card 0 }\n")
    probe = (
        "import threading, numpy as np\n"
        "from narrator.shell.audio.recorder import MicrophoneRecorder\n"
        "stop = threading.Event(); timer = threading.Timer(20, stop.set); timer.daemon = True; timer.start()\n"
        "peaks = []\n"
        "def meter(peak):\n"
        "    peaks.append(peak)\n"
        "    if len(peaks) >= 3: stop.set()\n"
        "clip = MicrophoneRecorder().record(stop, meter)\n"
        "print(clip.rate, len(clip.samples) > 0, bool(np.isfinite(clip.samples).all()),"
        " float(np.abs(clip.samples).max()) <= 1.0, len(peaks) > 0 and all(0 <= p <= 1 for p in peaks))\n"
    )
    process = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60,
                             env={**__import__("os").environ, "ALSA_CONFIG_PATH": str(config)})
    assert process.returncode == 0, process.stderr
    assert process.stdout.split() == ["48000", "True", "True", "True", "True"]  # and the meter heard every block


class PacedEngine(CountingEngine):
    """Says a line in a time that follows its length and the pace: 0.08 s a letter at 150 words a minute."""

    def synthesize(self, text, voice, rate):
        self.spoken.append((text, rate))
        samples = 0.3 * np.sin(np.arange(int(22050 * len(text) * 0.08 * 150 / rate)) * 0.05)
        return Clip(samples.astype(np.float32), 22050)


def test_a_long_count_word_is_said_faster_until_it_fits_its_second(tmp_path):
    from narrator.core.script import COUNT_WORD_SECONDS
    from narrator.shell.audio.packs import render_pack

    engine = PacedEngine()
    game = make_env().game
    pack = render_pack(game, "it", tmp_path / "paced", engine, None, 150, None, "test", False)
    seconds = {key: clip.seconds for key, clip in pack.clips.items()}
    assert seconds["count.24"] <= COUNT_WORD_SECONDS  # 'Ventiquattro', 0.96 s at the pace asked
    assert [rate for text, rate in engine.spoken if text == "Ventiquattro"][0] == 150
    assert max(rate for text, rate in engine.spoken if text == "Ventiquattro") > 150
    assert seconds["count.3"] == pytest.approx(0.24, abs=0.01)  # 'Tre' fits: its pace is kept
    assert seconds["night.start"] > 1  # the lines are not counts: said at their pace however long
    # Text-to-speech during a game fits the count's words in the same way.
    source = VoiceSource("it", None, lambda: PacedEngine(), ClipCache(tmp_path / "clips"), None, 150)
    script = generate_script(game, recommended_deck(game, 3), settings_for(game, "it", count_style="full",
                                                                            count_seconds=30))
    clips = source.clips_for(script, 48000)
    assert clips["count.24"].seconds <= COUNT_WORD_SECONDS
    assert clips["night.start"].seconds > 1


@pytest.mark.parametrize("pack", sorted(path.name for path in (REPO / "voices").iterdir() if (path / "pack.yaml").exists()))
def test_every_shipped_count_word_fits_its_second(pack):
    from narrator.core.script import COUNT_WORD_SECONDS

    counts = {key: clip.seconds for key, clip in load_pack(REPO / "voices" / pack).clips.items() if key.startswith("count.")}
    assert len(counts) == 30 and max(counts.values()) <= COUNT_WORD_SECONDS


class LateEndingDriver:
    """pyttsx3 as seen once under load: a line ends with the late end of the line before it, which
    writes the file with no sound; ``silent`` lines in a row go that way, then the line is said."""

    def __init__(self, silent: int):
        self.silent, self.said = silent, 0

    def connect(self, _topic, callback):
        self.finished = callback

    def disconnect(self, _token):
        pass

    def save_to_file(self, text, path):
        self.path = path

    def runAndWait(self):  # noqa: N802 - pyttsx3's name
        import wave

        self.said += 1
        with wave.open(self.path, "wb") as file:
            file.setnchannels(1), file.setsampwidth(2), file.setframerate(22050)
            file.writeframes(b"" if self.said <= self.silent else b"\x10\x00" * 2205)
        self.finished("line", True)


def test_the_worker_says_a_line_again_when_the_driver_wrote_it_silent(tmp_path):
    from narrator.shell.audio import tts_worker

    driver, path = LateEndingDriver(silent=1), tmp_path / "line.wav"
    tts_worker.speak(driver, "Uno, due, tre.", str(path))
    assert driver.said == 2 and read_clip(path).seconds == pytest.approx(0.1)
    never = LateEndingDriver(silent=tts_worker.ATTEMPTS)
    with pytest.raises(RuntimeError, match="wrote no sound"):
        tts_worker.speak(never, "Uno, due, tre.", str(path))
