"""The rendered night, measured as a listener's tools would: onsets, levels, fades, length.

Nights are rendered by the real command (``narrate render``) with the shipped voice packs, then
read back from the file.
"""

import json

import numpy as np
import pytest
import soundfile

from narrator.shell.audio.beds import BED_LUFS, BED_PEAK, BUILT_IN, load_bed
from narrator.shell.audio.loudness import EDGE_FADE_SECONDS
from narrator.shell.audio.mix import MixSettings
from tests.conftest import make_env

RATE = MixSettings().rate
SILENCE = 1e-4  # -80 dBFS: without a bed, the gaps between lines are digital silence


@pytest.fixture(scope="module")
def render(tmp_path_factory):
    from click.testing import CliRunner

    from narrator.shell.cli import cli

    folder = tmp_path_factory.mktemp("renders")
    made = {}

    def rendered(*args):
        if args not in made:
            path = folder / f"night-{len(made)}.wav"
            result = CliRunner().invoke(cli, ["render", *args, "-o", str(path)], obj=make_env())
            assert result.exit_code == 0, result.output
            samples, rate = soundfile.read(path, dtype="float32")
            assert rate == RATE
            made[args] = samples
        return made[args]

    return rendered


def onsets(samples, threshold=SILENCE, quiet=0.2):
    """Sample indices where sound starts after at least ``quiet`` seconds of silence."""
    loud = np.flatnonzero(np.abs(samples) > threshold)
    starts = loud[1:][np.diff(loud) > int(quiet * RATE)]
    return np.concatenate([loud[:1], starts])


def second_runs(points, tolerance=0.01):
    """Runs of onsets spaced about one second apart: the counted seconds."""
    runs = [[points[0]]]
    for a, b in zip(points, points[1:], strict=False):
        if abs((b - a) / RATE - 1) < tolerance:
            runs[-1].append(b)
        else:
            runs.append([b])
    return [run for run in runs if len(run) >= 8]


def test_count_ticks_are_heard_on_the_one_second_grid_within_a_millisecond(render):
    """Each number's perceived onset (not its first sample: a word starts with a breath) is on the grid."""
    from narrator.shell.audio.onset import perceived_onset

    night = render("--players", "10", "--count-style", "full", "--no-ambience", "--lang", "it")  # its onsets are sharp
    islands = onsets(night)
    heard = [start + perceived_onset(night[start:end], RATE)
             for start, end in zip(islands, list(islands[1:]) + [len(night)], strict=True)]
    runs = second_runs(heard)
    assert len(runs) == 7  # one count per waking role of the 10-player deck
    for run in runs:
        deviation_ms = np.abs(np.diff(run) - RATE) / RATE * 1000
        assert deviation_ms.max() < 1.0
    first_samples = second_runs(list(islands), tolerance=0.001)
    assert len(first_samples) < 7  # placed by first sample, the words would not be on the beat


def test_a_count_lasts_exactly_its_seconds_a_breath_after_the_opening_line(render):
    night = render("--players", "5", "--count-style", "silent", "--count-seconds", "7", "--no-ambience")
    breath = make_env().game.gap_before_count
    loud = np.flatnonzero(np.abs(night) > SILENCE)
    gaps = np.diff(loud) / RATE
    windows = gaps[np.abs(gaps - 7 - breath) < 0.01]  # from the line's last sound, a breath, the silent count
    assert len(windows) == 4  # lupi, veggente, guastafeste, truffatore
    # Measured from sound to sound: where a 3 ms edge fade crosses the threshold depends on the
    # line's level, so the edges are known to within the fades, no closer.
    assert np.abs(windows - 7 - breath).max() * 1000 < 2 * 1000 * EDGE_FADE_SECONDS


def test_bed_is_ducked_about_12_db_under_speech(render):
    voice = render("--players", "6", "--no-ambience")
    mixed = render("--players", "6", "--ambience", "drums")
    assert len(voice) == len(mixed)
    bed_part = mixed - voice  # the mix is a sum: what is left is the bed as it was played
    loop = load_bed("drums", RATE).samples
    raw = loop[np.arange(len(mixed)) % len(loop)]
    strong = np.abs(raw) > 0.05  # where the drum itself is loud enough to measure its gain
    speaking = np.abs(voice) > 0.01
    settled = np.zeros(len(voice), dtype=bool)
    settled[int(5 * RATE):-int(8 * RATE)] = True  # away from the fades
    gain_in_speech = np.median(bed_part[strong & speaking & settled] / raw[strong & speaking & settled])
    quiet = strong & settled & ~_near(speaking, int(1.0 * RATE))
    gain_in_silence = np.median(bed_part[quiet] / raw[quiet])
    assert 20 * np.log10(gain_in_speech) == pytest.approx(-12, abs=1.0)
    assert 20 * np.log10(gain_in_silence) == pytest.approx(0, abs=0.5)


def test_counted_seconds_do_not_pump_the_bed():
    """Ticks a second apart keep the bed down; it comes back only in the long silent stretch."""
    from narrator.core.deck import recommended_deck
    from narrator.core.script import generate_script, settings_for
    from narrator.shell.audio.night import AudioChoice, night_audio

    env = make_env()
    for style in ("full", "edges"):
        script = generate_script(env.game, recommended_deck(env.game, 4), settings_for(env.game, "it", count_style=style))
        night = night_audio(env, script, AudioChoice(ambience="drums"))
        for window in night.counts:
            ticks = [clip for clip in night.clips if clip.cue.key.startswith("count.") and
                     window.start <= clip.start < window.start + window.seconds * RATE]
            for tick, following in zip(ticks, ticks[1:], strict=False):
                if following.cue.key == f"count.{int(tick.cue.key.split('.')[1]) + 1}":  # consecutive seconds
                    between = night.bed_gain(np.arange(tick.end, following.start))
                    assert 20 * np.log10(between.max()) < MixSettings().count_duck_db + 1  # stays ducked: no pumping
        if style == "edges":  # seconds 3-7 are silent: there the bed rises to full
            window = night.counts[0]
            middle = np.arange(window.start + int(4.5 * RATE), window.start + int(5.5 * RATE))
            assert night.bed_gain(middle).min() > 0.99


def _near(mask, distance):
    """True within ``distance`` samples of any True in ``mask``."""
    total = np.concatenate([[0], np.cumsum(mask)])
    index = np.arange(len(mask))
    return total[np.minimum(index + distance + 1, len(mask))] - total[np.maximum(index - distance, 0)] > 0


def test_bed_fades_in_at_nightfall_and_out_at_daybreak(render):
    voice = render("--players", "6", "--no-ambience")
    mixed = render("--players", "6", "--ambience", "rain")
    bed_part = mixed - voice
    loop = load_bed("rain", RATE).samples
    raw = loop[np.arange(len(mixed)) % len(loop)]

    def gain(start, end):
        """The bed's gain over a stretch of time, measured where the raw bed is not near zero."""
        span = slice(int(start * RATE), int(end * RATE))
        strong = np.abs(raw[span]) > 0.02
        return float(np.median(bed_part[span][strong] / raw[span][strong]))

    assert gain(0, 0.1) < 0.02  # nightfall: from silence...
    assert gain(0.2, 0.4) < gain(0.9, 1.1) < gain(1.6, 1.75)  # ...rising...
    assert gain(1.6, 1.75) > 0.85  # ...to full before the first line (at 2 s) dips it
    assert np.abs(mixed[:10]).max() < 1e-3  # no click at the start
    end = len(mixed) / RATE
    assert np.abs(bed_part[int((end - 0.5) * RATE):]).max() == 0  # gone after daybreak


@pytest.mark.parametrize("bed", sorted(BUILT_IN))
def test_nothing_clips(render, bed):
    mixed = render("--players", "10", "--ambience", bed, "--count-style", "full")
    assert np.abs(mixed).max() < 0.99


def test_a_loud_user_bed_is_levelled_and_does_not_clip(render, tmp_path_factory):
    path = tmp_path_factory.mktemp("beds") / "loud.flac"
    t = np.arange(3 * 44100) / 44100
    soundfile.write(path, 0.99 * np.sign(np.sin(2 * np.pi * 110 * t)), 44100)  # full-scale square wave
    mixed = render("--players", "4", "--ambience", str(path))
    assert np.abs(mixed).max() < 0.99
    assert np.abs(load_bed(str(path), RATE).samples).max() <= BED_PEAK + 1e-6


def test_length_and_times_agree_with_the_script(render, run):
    mixed = render("--players", "7", "--lang", "en", "--no-ambience")
    data = json.loads(run("script", "--players", "7", "--lang", "en", "--format", "json").stdout)
    assert data["timing"] == "measured"
    last = data["cues"][-1]
    settings = MixSettings()
    expected = last["start"] + max(last["duration"], settings.fade_out) + settings.tail
    assert len(mixed) / RATE == pytest.approx(expected, abs=0.05)
    starts = onsets(mixed, quiet=0.5) / RATE
    assert starts[0] == pytest.approx(data["cues"][0]["start"], abs=0.01)
    cue_starts = [cue["start"] for cue in data["cues"]]
    for start in starts:  # every onset after a pause is the start of a line or tick the script lists (a tick's
        # first sound comes up to a quarter second before the second it is heard on)
        assert any(-0.05 < cue - start < 0.25 for cue in cue_starts)


def test_rendering_does_not_depend_on_block_size():
    from narrator.core.deck import recommended_deck
    from narrator.core.script import generate_script, settings_for
    from narrator.shell.audio.night import AudioChoice, night_audio

    env = make_env()
    script = generate_script(env.game, recommended_deck(env.game, 5), settings_for(env.game, "it"))
    night = night_audio(env, script, AudioChoice(ambience="drums"))
    whole = night.render()
    pieces = np.concatenate([night.block(start, 777) for start in range(0, night.length, 777)])
    assert np.array_equal(whole, pieces)


@pytest.mark.parametrize("bed", sorted(BUILT_IN))
def test_built_in_beds_loop_without_a_seam(bed):
    loop = load_bed(bed, RATE).samples
    typical_step = np.median(np.abs(np.diff(loop)))
    seam = abs(float(loop[0]) - float(loop[-1]))
    assert seam < max(20 * typical_step, 1e-3)
    from narrator.shell.audio.loudness import loudness

    peak, level = float(np.abs(loop).max()), loudness(np.tile(loop, 2), RATE)
    assert peak <= BED_PEAK + 1e-6 and level <= BED_LUFS + 0.1  # never above either ceiling...
    assert peak == pytest.approx(BED_PEAK, rel=1e-3) or level == pytest.approx(BED_LUFS, abs=0.1)  # ...up to one


@pytest.mark.parametrize("bed", sorted(BUILT_IN))
def test_beds_a_laptop_can_play(bed):
    """A laptop's speaker is modelled by a 200 Hz high-pass: the drums lose under 6 LU through it,
    and every bed sits at least 8 LU under the spoken lines between them."""
    from scipy.signal import butter, sosfilt

    from narrator.shell.audio.loudness import LINE_LUFS, loudness

    loop = np.tile(load_bed(bed, RATE).samples.astype(np.float64), 2)
    level = loudness(loop, RATE)
    through_a_laptop = loudness(sosfilt(butter(2, 200, "highpass", fs=RATE, output="sos"), loop), RATE)
    assert level - through_a_laptop < 6
    assert LINE_LUFS - level >= 8


def test_the_drums_play_at_the_count_tempo():
    """60 bpm: the loop lasts whole seconds, and its pulse (the level's strongest repetition
    between half a second and a second and a half) comes every second."""
    loop = load_bed("drums", RATE).samples.astype(np.float64)
    assert len(loop) % RATE == 0
    hop = RATE // 100  # the level every 10 ms
    level = np.sqrt(np.square(loop[: len(loop) // hop * hop]).reshape(-1, hop).mean(axis=1))
    level -= level.mean()
    lags = np.arange(50, 151)  # 0.5 s to 1.5 s
    repetition = [float(np.dot(level, np.roll(level, lag))) for lag in lags]
    assert abs(lags[int(np.argmax(repetition))] / 100 - 1.0) <= 0.02


def test_drums_are_the_same_every_time():
    assert np.array_equal(load_bed("drums", RATE).samples, load_bed("drums", RATE).samples)


@pytest.mark.parametrize("bed", ["rain", "wind"])
def test_noise_beds_loop_without_a_dip(bed):
    """The seam is an equal-power crossfade: where head and tail cross, the level holds (an
    equal-gain crossfade of noise dips 3 dB there)."""
    loop = load_bed(bed, RATE).samples.astype(np.float64)
    window = RATE // 10
    levels = np.sqrt(np.convolve(loop ** 2, np.ones(window) / window, mode="valid"))
    at_the_seam = levels[RATE // 4 - window // 2]  # the middle of the 0.5 s crossfade at the loop's head
    around = np.median(levels[: 2 * RATE])
    assert abs(20 * np.log10(at_the_seam / around)) < 1.0


def test_a_user_bed_file_is_measured_once_until_it_changes(tmp_path, monkeypatch):
    from narrator.shell.audio import loudness as module
    from narrator.shell.audio.night import cached_bed

    path = tmp_path / "mine.wav"
    t = np.arange(2 * 44100) / 44100
    soundfile.write(path, 0.3 * np.sin(2 * np.pi * 330 * t), 44100)
    env = make_env(cache_dir=tmp_path / "cache")
    first = cached_bed(env, str(path), RATE)
    measured = []
    original = module.loudness
    monkeypatch.setattr(module, "loudness", lambda *args: measured.append(1) or original(*args))
    assert np.array_equal(cached_bed(env, str(path), RATE).samples, first.samples) and measured == []
    soundfile.write(path, 0.1 * np.sin(2 * np.pi * 220 * t[: 44100]), 44100)  # the user changed the file
    import os

    os.utime(path, ns=(path.stat().st_atime_ns, path.stat().st_mtime_ns + 10**9))
    assert len(cached_bed(env, str(path), RATE).samples) != len(first.samples) and measured


def test_a_cached_bed_is_made_again_when_the_levelling_changes(tmp_path, monkeypatch):
    from narrator.shell.audio import loudness as module
    from narrator.shell.audio import night
    from narrator.shell.audio.night import cached_bed

    env = make_env(cache_dir=tmp_path / "cache")
    cached_bed(env, "rain", RATE)
    measured = []
    original = module.loudness
    monkeypatch.setattr(module, "loudness", lambda *args: measured.append(1) or original(*args))
    cached_bed(env, "rain", RATE)
    assert measured == []  # kept
    monkeypatch.setattr(night, "LEVELLING", "lufs -20.0 peak 0.25 limit 6.0")  # say, a louder bed
    cached_bed(env, "rain", RATE)
    assert measured  # made and measured again, not the copy levelled for another target
