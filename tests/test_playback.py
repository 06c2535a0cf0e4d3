"""Playback: pause, resume and stop on the transport; the players and their fallbacks."""

import os
import shutil
import subprocess
import sys
import threading

import numpy as np
import pytest

from narrator.core.deck import recommended_deck
from narrator.core.script import generate_script, settings_for
from narrator.shell.audio.clip import Clip
from narrator.shell.audio.mix import MixSettings, build_night
from narrator.shell.audio.player import (
    BLOCK,
    CommandPlayer,
    FilePlayer,
    PlayerFailed,
    Session,
    SounddevicePlayer,
    Transport,
    choose_players,
    command_player_works,
    follow_night,
    plan,
    play_night,
)
from tests.conftest import make_env

RATE = 48000


@pytest.fixture(scope="module")
def night():
    """A real 3-player night whose every line is a steady tone: easy to reason about its level."""
    env = make_env()
    script = generate_script(env.game, recommended_deck(env.game, 3), settings_for(env.game, "it"))
    tone = Clip((0.5 * np.sin(2 * np.pi * 440 * np.arange(RATE // 2) / RATE)).astype(np.float32), RATE)
    clips = {cue.key: tone for cue in script.cues()}
    bed = Clip(np.full(RATE, 0.1, dtype=np.float32), RATE)
    return build_night(script, clips, bed, MixSettings(rate=RATE))


def play_blocks(transport, count, frames=BLOCK):
    return np.concatenate([transport.next_block(frames) for _ in range(count)])


def test_transport_plays_the_night_sample_for_sample(night):
    transport = Transport(night)
    assert np.array_equal(play_blocks(transport, 50), night.block(0, 50 * BLOCK))


def test_pause_fades_out_quickly_and_holds_the_position(night):
    transport = Transport(night)
    play_blocks(transport, 200)
    transport.toggle_pause()
    fading = play_blocks(transport, 2)  # 2 blocks = 42 ms, longer than the 20 ms fade
    held_at = transport.position
    silence = play_blocks(transport, 20)
    assert transport.paused and transport.position == held_at
    assert np.abs(fading[int(0.02 * RATE) + 1:]).max() == 0
    assert np.abs(silence).max() == 0
    assert np.all(np.abs(np.diff(fading)) < 0.05)  # a ramp, not a click


def test_resume_continues_where_it_paused(night):
    transport = Transport(night)
    play_blocks(transport, 200)
    transport.toggle_pause()
    play_blocks(transport, 30)
    resumed_at = transport.position
    transport.toggle_pause()
    after = play_blocks(transport, 10)
    expected = night.block(resumed_at, 10 * BLOCK)
    ramp_end = int(0.02 * RATE)
    assert np.allclose(after[ramp_end:], expected[ramp_end:])
    assert np.abs(after[:ramp_end]).max() <= np.abs(expected[:ramp_end]).max()


def test_stop_is_silent_within_100_ms(night):
    transport = Transport(night)
    play_blocks(transport, 300)
    transport.stop()
    frames_until_finished = 0
    while not transport.finished:
        transport.next_block(BLOCK)
        frames_until_finished += BLOCK
        assert frames_until_finished < RATE  # it does finish
    assert frames_until_finished / RATE <= 0.1
    assert transport.stopping and transport.finished


def test_the_night_ends_on_its_own(night):
    transport = Transport(night)
    blocks = 0
    while not transport.finished:
        transport.next_block(8192)
        blocks += 1
    assert blocks == -(-night.length // 8192)


class FakeStream:
    """Stands in for sounddevice.OutputStream: calls the callback as fast as it is answered."""

    instances: list["FakeStream"] = []

    def __init__(self, samplerate, channels, dtype, blocksize, callback, finished_callback):
        self.rate, self.blocksize, self.callback, self.finished = samplerate, blocksize, callback, finished_callback
        self.played = []
        self.closed = False
        self.blocks_done = threading.Event()
        FakeStream.instances.append(self)

    def start(self):
        def pump():
            while True:
                out = np.zeros((self.blocksize, 1), dtype=np.float32)
                try:
                    self.callback(out, self.blocksize, None, None)
                except BaseException:  # CallbackStop: the stream ends
                    self.played.append(out[:, 0].copy())
                    break
                self.played.append(out[:, 0].copy())
                if len(self.played) % 100 == 0:
                    self.blocks_done.set()
                    threading.Event().wait(0.001)
            self.finished()

        threading.Thread(target=pump, daemon=True).start()

    def close(self):
        self.closed = True


def scripted_session(keys):
    """Keys pressed one per poll, then none; progress shown is counted."""
    pending = list(keys)
    shown = []

    def read_key(timeout):
        threading.Event().wait(min(timeout, 0.01))
        return pending.pop(0) if pending else None

    return Session(read_key=read_key, show=shown.append, say=shown.append), shown


def test_sounddevice_player_plays_to_the_end(night):
    session, shown = scripted_session([])
    assert SounddevicePlayer(open_stream=FakeStream).play(night, session) is True
    stream = FakeStream.instances[-1]
    assert stream.closed
    played = np.concatenate(stream.played)
    assert np.array_equal(played[:night.length], night.render())
    assert shown  # progress was shown


def test_sounddevice_player_q_stops_and_reports_it(night):
    session, _ = scripted_session([None, None, "q"])
    assert SounddevicePlayer(open_stream=FakeStream).play(night, session) is False
    assert FakeStream.instances[-1].closed


def test_sounddevice_player_ctrl_c_fades_and_stops(night):
    calls = []

    def read_key(timeout):
        calls.append(timeout)
        threading.Event().wait(0.01)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return None

    session = Session(read_key=read_key, show=lambda t: None, say=lambda m: None)
    assert SounddevicePlayer(open_stream=FakeStream).play(night, session) is False
    stream = FakeStream.instances[-1]
    assert stream.closed
    last = stream.played[-1]
    assert np.abs(last).max() < 0.1  # the last block heard is the tail of a fade, not full level


def test_file_player_writes_the_one_night_file_it_names(night, tmp_path):
    written = []
    player = FilePlayer(tmp_path / "nights" / "night.wav", lambda n, path: (written.append(path),
                                                                             path.write_bytes(b"night")))
    assert player.play(night, None) is True
    assert written == [tmp_path / "nights" / "night.wav"]
    assert str(plan(player, "no sound output device")) == (
        f"no sound output device; the night will be written to {tmp_path / 'nights' / 'night.wav'} instead of played")


def test_a_night_playing_elsewhere_is_followed_by_the_clock_with_pause_and_stop(night):
    """The file plays on a phone; the laptop shows where it is, second by second, and holds still
    while paused (space), as the phone is."""
    now = [0.0]
    keys = {10.0: " ", 15.0: " "}  # paused from 10 s to 15 s of the clock
    seen = []

    def read_key(timeout):
        now[0] = round(now[0] + timeout, 6)
        return keys.pop(now[0], None)

    session = Session(read_key=read_key, show=lambda t: seen.append((now[0], t.position, t.paused)), say=print)
    assert follow_night(night, session, lambda: now[0]) is True
    position = {at: where for at, where, _ in seen}
    assert position[5.0] == 5 * RATE and position[10.0] == 10 * RATE
    assert position[12.0] == 10 * RATE and position[15.0] == 10 * RATE  # paused: the night stands still
    assert position[20.0] == 15 * RATE
    assert seen[-1][1] == night.length and now[0] == pytest.approx(night.seconds + 5, abs=0.2)

    now[0], keys = 0.0, {3.0: "q"}
    assert follow_night(night, session, lambda: now[0]) is False  # q: no longer followed
    assert now[0] == 3.0


def test_without_portaudio_the_command_players_that_work_then_a_file(tmp_path):
    aplay_only = {"which": lambda program: f"/usr/bin/{program}" if program == "aplay" else None}
    players, reason = choose_players(lambda n, p: None, tmp_path / "n.wav", problem=lambda: "PortAudio is missing",
                                     works=lambda program, which: True, **aplay_only)
    assert reason == "PortAudio is missing"
    assert [player.name for player in players] == ["aplay", "file"]
    assert str(plan(players[0], reason)) == "PortAudio is missing; the night plays through aplay (no pause)"
    players, _ = choose_players(lambda n, p: None, tmp_path / "n.wav", problem=lambda: "no device",
                                works=lambda program, which: False, **aplay_only)
    assert [player.name for player in players] == ["file"]
    players, _ = choose_players(lambda n, p: None, tmp_path / "n.wav", problem=lambda: "no device", which=lambda p: None)
    assert [player.name for player in players] == ["file"]
    players, reason = choose_players(lambda n, p: None, tmp_path / "n.wav", problem=lambda: None)
    assert [player.name for player in players] == ["sounddevice"] and reason is None


@pytest.mark.skipif(not shutil.which("true") or not shutil.which("false"), reason="needs POSIX true and false")
def test_a_command_player_is_tried_on_silence_before_it_is_chosen(monkeypatch):
    from narrator.shell.audio import player as player_module

    monkeypatch.setitem(player_module.COMMAND_PLAYERS, "true", [])
    monkeypatch.setitem(player_module.COMMAND_PLAYERS, "false", [])
    assert command_player_works("true") is True
    assert command_player_works("false") is False
    assert command_player_works("true", which=lambda program: "/no/such/program") is False


def test_a_failing_command_player_falls_back_to_a_file(night, tmp_path):
    class Broken:
        name = "aplay"

        def play(self, night, session):
            raise PlayerFailed("aplay could not play (audio open error)")

    said = []
    session = Session(read_key=lambda t: None, show=lambda t: None, say=said.append)
    writes = []
    file_player = FilePlayer(tmp_path / "night.wav", lambda n, path: writes.append(path))
    assert play_night([Broken(), file_player], night, session) is True
    assert said == [f"narrate: aplay could not play (audio open error); the night will be written to "
                    f"{tmp_path / 'night.wav'} instead of played"]
    assert writes == [tmp_path / "night.wav"]


@pytest.mark.skipif(not shutil.which("true"), reason="needs a POSIX 'true' command")
def test_command_player_runs_the_program(night, tmp_path, monkeypatch):
    from narrator.shell.audio import player as player_module

    monkeypatch.setitem(player_module.COMMAND_PLAYERS, "true", [])
    written = []
    session = Session(read_key=lambda t: None, show=lambda t: None, say=lambda m: None)
    assert CommandPlayer("true", lambda n, path: written.append(path)).play(night, session) is True
    monkeypatch.setitem(player_module.COMMAND_PLAYERS, "false", [])
    with pytest.raises(PlayerFailed, match="false could not play"):
        CommandPlayer("false", lambda n, path: None).play(night, session)


def portaudio_missing():
    try:
        import sounddevice  # noqa: F401
    except OSError:
        return True
    return False


@pytest.mark.skipif(portaudio_missing(), reason="PortAudio (libportaudio2) is not installed")
def test_real_sounddevice_path_on_a_null_alsa_device(tmp_path):
    """The real PortAudio stream, fed by the real transport, into ALSA's null device."""
    config = tmp_path / "asound.conf"
    config.write_text("pcm.!default { type null }\nctl.!default { type hw card 0 }\n")
    environ = {**os.environ, "ALSA_CONFIG_PATH": str(config), "LANG": "C.UTF-8",
               "XDG_CACHE_HOME": str(tmp_path / "cache")}
    process = subprocess.run([sys.executable, "-m", "narrator", "--players", "3", "--no-ambience", "--no-day"],
                             capture_output=True, text=True, env=environ, cwd=tmp_path, input="\n",  # dealt
                             timeout=120)
    assert process.returncode == 0, process.stderr
    log = process.stderr.splitlines()
    assert [line.split("  ", 1)[1] for line in log] == ["Cala la notte", "Lupi Mannari", "Veggente", "Guastafeste",
                                                      "Truffatore", "L'alba"]
    assert not list(tmp_path.glob("narrate-night*.wav"))  # it played; nothing fell back to a file


@pytest.mark.skipif(portaudio_missing(), reason="PortAudio (libportaudio2) is not installed")
def test_no_output_device_is_reported_with_the_fix(tmp_path):
    config = tmp_path / "asound.conf"
    config.write_text("pcm.!default { type hw card 7 }\nctl.!default { type hw card 7 }\n")  # no such card
    process = subprocess.run([sys.executable, "-c", "from narrator.shell.audio.player import sounddevice_problem as p; "
                              "print(p())"], capture_output=True, text=True,
                             env={**os.environ, "ALSA_CONFIG_PATH": str(config)}, timeout=60)
    assert process.stdout.startswith("no sound output device: connect speakers or headphones")
    assert "-1" not in process.stdout  # PortAudio's "Error querying device -1" is no help to a player
