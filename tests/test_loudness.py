"""Loudness, not peak: every spoken line at one loudness (BS.1770, measured by pyloudnorm) under a
true-peak ceiling, count words level with instructions, faded edges, and a night that never clips."""

from pathlib import Path

import numpy as np
import pytest

from narrator.shell.audio.clip import Clip, prepare_voice, read_clip
from narrator.shell.audio.loudness import (
    LIMIT_MOST_DB,
    LINE_LUFS,
    TRUE_PEAK_DBTP,
    fade_edges,
    levelled,
    limited,
    loudness,
    normalising_gain_db,
    true_peak_dbtp,
)
from narrator.shell.voicepacks import load_pack
from tests.conftest import REPO

RATE = 48000
PACKS = sorted(path.name for path in (REPO / "voices").iterdir() if (path / "pack.yaml").exists())


def tone(frequency, seconds, amplitude, rate=RATE):
    t = np.arange(int(seconds * rate)) / rate
    return Clip((amplitude * np.sin(2 * np.pi * frequency * t)).astype(np.float32), rate)


def prepared(pack):
    return {path.stem: prepare_voice(read_clip(path), RATE) for path in sorted((REPO / "voices" / pack).glob("*.ogg"))}


@pytest.mark.parametrize("pack", PACKS)
def test_every_shipped_line_is_at_the_line_loudness_under_the_ceiling(pack):
    lines = prepared(pack)
    assert len(lines) == len(load_pack(REPO / "voices" / pack).clips)
    levels = {key: loudness(clip.samples, RATE) for key, clip in lines.items()}
    off = {key: round(level - LINE_LUFS, 2) for key, level in levels.items() if abs(level - LINE_LUFS) > 1.0}
    assert off == {}
    peaks = {key: round(true_peak_dbtp(clip.samples, RATE), 2) for key, clip in lines.items()}
    assert max(peaks.values()) <= TRUE_PEAK_DBTP + 0.1
    counts = [level for key, level in levels.items() if key.startswith("count.")]
    others = [level for key, level in levels.items() if not key.startswith("count.")]
    assert abs(np.median(counts) - np.median(others)) < 0.5  # count words as loud as instructions


@pytest.mark.parametrize("pack", PACKS[:1])
def test_every_line_starts_and_ends_without_a_click(pack):
    for key, clip in prepared(pack).items():
        edge = int(0.003 * RATE)
        peak = np.abs(clip.samples).max()
        assert abs(clip.samples[0]) < 0.01 * peak and abs(clip.samples[-1]) < 0.01 * peak, key
        assert np.abs(clip.samples[:edge // 3]).max() < np.abs(clip.samples[:edge * 10]).max(), key


def normalise(clip, **targets):
    return levelled(clip, normalising_gain_db(clip, **targets), targets.get("ceiling_dbtp", TRUE_PEAK_DBTP))


def peaky(spike_db, rate=RATE):
    """A steady voice-like tone with a 3 ms spike ``spike_db`` over it every half second (a plosive,
    eSpeak's or Piper's sharp attacks)."""
    clip = tone(200, 3.0, 0.05, rate)
    samples = clip.samples.copy()
    for start in range(rate // 4, len(samples), rate // 2):
        spike = np.arange(int(0.003 * rate))
        samples[start:start + len(spike)] += 0.05 * 10 ** (spike_db / 20) * np.sin(2 * np.pi * 900 * spike / rate)
    return Clip(samples, rate)


def test_sharp_peaks_are_limited_so_the_line_reaches_its_target():
    line = peaky(14)
    assert loudness(amplified_to_ceiling(line).samples, RATE) < LINE_LUFS - 2.5  # what the ceiling alone allowed
    levelled_line = normalise(line)
    assert loudness(levelled_line.samples, RATE) == pytest.approx(LINE_LUFS, abs=0.3)
    assert true_peak_dbtp(levelled_line.samples, RATE) <= TRUE_PEAK_DBTP
    # Away from the spikes the line is only amplified: the limiter touched the peaks alone.
    gain = levelled_line.samples[RATE // 8:RATE // 8 + 480] / line.samples[RATE // 8:RATE // 8 + 480]
    assert np.ptp(gain) < 1e-3


def amplified_to_ceiling(clip):
    """The loudest a clip gets with no limiter: its true peak at the ceiling."""
    return Clip(clip.samples * 10 ** ((TRUE_PEAK_DBTP - true_peak_dbtp(clip.samples, RATE)) / 20), RATE)


def test_limiting_is_at_most_its_limit_and_eases_in():
    line = peaky(30)  # would need about 20 dB of limiting
    levelled_line = normalise(line)
    reached = loudness(levelled_line.samples, RATE)
    assert reached < LINE_LUFS - 3  # held under the target rather than squashed
    assert true_peak_dbtp(levelled_line.samples, RATE) <= TRUE_PEAK_DBTP
    spike_at = RATE // 4
    before = line.samples * 10 ** (normalising_gain_db(line) / 20)
    ratio = levelled_line.samples[spike_at - 480:spike_at + 480] / np.where(
        np.abs(before[spike_at - 480:spike_at + 480]) > 1e-6, before[spike_at - 480:spike_at + 480], np.nan)
    ratio = ratio[np.isfinite(ratio)]
    assert 20 * np.log10(ratio.min()) >= -LIMIT_MOST_DB - 0.6  # at most the limit (and the margin)
    assert np.nanmax(np.abs(np.diff(ratio))) < 0.05  # eased, not switched


def test_limited_never_passes_the_ceiling_and_leaves_quiet_samples_alone():
    rng = np.random.default_rng(0)
    samples = rng.normal(0, 0.3, RATE).astype(np.float32)
    out = limited(samples, RATE, 0.5)
    assert np.abs(out).max() <= 0.5
    quiet = samples * 0.1
    assert np.array_equal(limited(quiet, RATE, 0.5), quiet)


def test_normalise_brings_quiet_and_loud_to_the_target_and_respects_the_ceiling():
    quiet = normalise(tone(440, 2.0, 0.005))
    assert loudness(quiet.samples, RATE) == pytest.approx(LINE_LUFS, abs=0.2)
    square = Clip(np.sign(tone(220, 2.0, 1.0).samples).astype(np.float32) * 0.9, RATE)  # no headroom at all
    limited = normalise(square, target_lufs=-3.0)
    assert true_peak_dbtp(limited.samples, RATE) <= TRUE_PEAK_DBTP + 0.05
    assert loudness(limited.samples, RATE) < -3.0  # the ceiling won over the target
    silence = Clip(np.zeros(RATE, dtype=np.float32), RATE)
    assert np.array_equal(normalise(silence).samples, silence.samples)


def test_a_short_count_word_is_measured_and_levelled_like_a_long_line():
    short, long = tone(300, 0.3, 0.1), tone(300, 3.0, 0.1)
    assert loudness(short.samples, RATE) == pytest.approx(loudness(long.samples, RATE), abs=0.3)
    assert loudness(normalise(short).samples, RATE) == pytest.approx(LINE_LUFS, abs=0.3)


def test_fades_are_raised_cosines_of_three_milliseconds():
    faded = fade_edges(Clip(np.ones(RATE, dtype=np.float32), RATE))
    frames = int(0.003 * RATE)
    assert faded.samples[0] == 0 and faded.samples[-1] == 0
    assert np.all(np.diff(faded.samples[:frames]) >= 0) and faded.samples[frames] == 1
    assert faded.samples[frames // 2] == pytest.approx(0.5, abs=0.02)


@pytest.mark.parametrize("ambience", ["--no-ambience", "drums", "rain"])
def test_a_rendered_night_never_clips(run, tmp_path, ambience):
    path = tmp_path / "night.wav"
    args = ["--no-ambience"] if ambience == "--no-ambience" else ["--ambience", ambience]
    result = run("render", "-p", "10", "--lang", "it", *args, "-o", str(path))
    assert result.exit_code == 0, result.stderr
    samples = read_clip(Path(path)).samples
    assert np.abs(samples).max() < 0.99


def test_a_line_is_measured_once_then_its_gain_comes_from_the_cache(tmp_path, monkeypatch):
    from narrator.shell.audio import loudness as module
    from narrator.shell.audio.cache import ClipCache

    cache = ClipCache(tmp_path)
    raw = tone(330, 1.0, 0.02, rate=16000)
    first = prepare_voice(raw, RATE, cache)
    monkeypatch.setattr(module, "normalising_gain_db", lambda clip: pytest.fail("measured again"))
    again = prepare_voice(raw, RATE, cache)
    assert np.array_equal(first.samples, again.samples)
    assert loudness(again.samples, RATE) == pytest.approx(LINE_LUFS, abs=0.3)


@pytest.mark.parametrize("seed", range(6))
def test_limited_works_only_near_the_peaks_and_matches_the_whole_curve(seed):
    """The limiter works out its gain only around the blocks that need it: the result is the gain
    curve drawn over every sample, exactly."""
    from narrator.shell.audio.loudness import LIMIT_BLOCK_SECONDS

    rng = np.random.default_rng(seed)
    samples = (rng.normal(0, 0.05, RATE * 2) * (rng.random(RATE * 2) < 0.999)).astype(np.float32)
    for at in rng.integers(0, len(samples), 5 + seed):
        samples[at] = rng.choice([-1, 1]) * rng.uniform(0.5, 1.0)  # sharp, scattered peaks, some at the edges
    samples[0], samples[-1] = 0.9, -0.9
    ceiling = 0.4
    block = int(RATE * LIMIT_BLOCK_SECONDS)
    count = -(-len(samples) // block)
    padded = np.zeros(count * block, dtype=np.float32)
    padded[:len(samples)] = np.abs(samples)
    need = np.minimum(1.0, ceiling / np.maximum(padded.reshape(count, block).max(axis=1), 1e-12))
    around = np.minimum(need, np.minimum(np.append(need[1:], 1.0), np.insert(need[:-1], 0, 1.0)))
    whole = np.interp(np.arange(len(samples)), (np.arange(count) + 0.5) * block, around).astype(np.float32)
    expected = np.clip(samples * whole, -ceiling, ceiling)
    assert np.array_equal(limited(samples, RATE, ceiling), expected)
