"""Loudness as people hear it (EBU R128 / ITU-R BS.1770, measured with pyloudnorm), true peak,
and the short fades that keep a clip's edges from clicking.

Every spoken line is brought to one loudness (``LINE_LUFS``), so that a count word sounds as loud
as an instruction, under a true-peak ceiling (``TRUE_PEAK_DBTP``) that leaves room for the bed
and for the inter-sample peaks a laptop's converter would clip. A voice with sharp peaks (eSpeak,
Piper, a recorded plosive) would be held under its target by the ceiling: a limiter lowers those
peaks alone, by a gain that eases down over 5 ms before them and back after, at most
``LIMIT_MOST_DB``. The figures are measured on rendered nights by ``benchmarks/voice.py``.
"""

import numpy as np

from narrator.shell.audio.clip import Clip

LINE_LUFS = -15.0  # every spoken line: with the pauses and counts between them, the night sits near -16 LUFS
TRUE_PEAK_DBTP = -1.0  # the ceiling no line crosses, inter-sample peaks included
EDGE_FADE_SECONDS = 0.003  # 3 ms raised-cosine fades at every clip edge
SILENT_LUFS = -70.0  # BS.1770's absolute gate: quieter than this is no sound to level
LIMIT_MOST_DB = 12.0  # a line's peaks are held down by at most this (Piper's sharpest lines need it); a peakier line stays under its target
LIMIT_MARGIN_DB = 0.5  # the limiter works on samples: this much under the ceiling leaves room between them
LIMIT_BLOCK_SECONDS = 0.005  # the limiter's gain eases down and back over this
LIMIT_CHUNK = 65536  # samples the limiter works on at once
# Names the targets above: a kept gain is used only while they stay the same.
PREPARATION = (f"bs1770 {LINE_LUFS} {TRUE_PEAK_DBTP} {EDGE_FADE_SECONDS} "
               f"limit {LIMIT_MOST_DB} {LIMIT_MARGIN_DB} {LIMIT_BLOCK_SECONDS}")


def loudness(samples: np.ndarray, rate: int) -> float:
    """Integrated loudness in LUFS. A clip shorter than BS.1770's 400 ms block (a count word) is
    measured with blocks as long as it allows, so that short and long lines compare."""
    pyloudnorm = _pyloudnorm()
    seconds = len(samples) / rate
    if seconds < 0.02:
        return float("-inf")
    meter = pyloudnorm.Meter(rate, block_size=min(0.4, seconds * 0.9))
    return float(meter.integrated_loudness(np.asarray(samples, dtype=np.float64)))


def _pyloudnorm():
    """pyloudnorm, imported with Ctrl-C held: it brings scipy, a second or more of importing (far
    more without compiled bytecode), and a KeyboardInterrupt raised inside an import can be
    printed as "ignored" and lost, leaving narrate running. Held, it stops narrate right after."""
    from narrator.shell.signals import signals_held

    with signals_held():
        import pyloudnorm
    return pyloudnorm


def true_peak_dbtp(samples: np.ndarray, rate: int) -> float:
    """The peak in dB true peak: the highest sample after 4× oversampling (as BS.1770-4 annex 2)."""
    import soxr

    if len(samples) == 0:
        return float("-inf")
    oversampled = soxr.resample(np.asarray(samples, dtype=np.float32), rate, rate * 4, quality="HQ")
    peak = float(np.max(np.abs(oversampled)))
    return 20 * np.log10(peak) if peak > 0 else float("-inf")


def normalising_gain_db(clip: Clip, target_lufs: float = LINE_LUFS, ceiling_dbtp: float = TRUE_PEAK_DBTP) -> float:
    """The gain that, with ``levelled``'s limiter, brings the clip to ``target_lufs`` under the
    ceiling; less where that would take more than ``LIMIT_MOST_DB`` of limiting; 0 for a clip too
    quiet to measure (silence stays silence)."""
    measured = loudness(clip.samples, clip.rate)
    if not np.isfinite(measured) or measured < SILENT_LUFS:
        return 0.0
    most = most_gain_db(clip, ceiling_dbtp)
    gain = min(target_lufs - measured, most)
    for _ in range(8):  # limiting takes some loudness away, the more the louder: give it back until level
        missing = target_lufs - loudness(levelled(clip, gain, ceiling_dbtp).samples, clip.rate)
        if abs(missing) < 0.05 or (missing > 0 and gain >= most):
            break
        gain = min(gain + missing, most)
    for _ in range(24):  # a peak between samples the limiter could not see: less gain until none is over
        over = true_peak_dbtp(levelled(clip, gain, ceiling_dbtp).samples, clip.rate) - ceiling_dbtp
        if over <= 0:
            break
        gain -= max(over, 0.25)
    return float(gain)


def most_gain_db(clip: Clip, ceiling_dbtp: float = TRUE_PEAK_DBTP) -> float:
    """The most gain a line is given: its sample peak brought to the limiter's threshold, then
    ``LIMIT_MOST_DB`` of limiting. A line that needs more to reach its target stays under it."""
    peak = float(np.max(np.abs(clip.samples)))
    return (ceiling_dbtp - LIMIT_MARGIN_DB) - 20 * np.log10(peak) + LIMIT_MOST_DB


def levelled(clip: Clip, gain_db: float, ceiling_dbtp: float = TRUE_PEAK_DBTP) -> Clip:
    """The clip amplified by ``gain_db``, its peaks over the ceiling (less the margin) limited."""
    louder = (clip.samples * np.float32(10 ** (gain_db / 20))).astype(np.float32, copy=False)
    _limit(louder, clip.rate, 10 ** ((ceiling_dbtp - LIMIT_MARGIN_DB) / 20))
    return Clip(louder, clip.rate)


def limited(samples: np.ndarray, rate: int, ceiling: float) -> np.ndarray:
    """No sample over ``ceiling``: a gain that is, at every sample, at most what its 5 ms block and
    both neighbours need, drawn straight between block centres (so it eases, never jumps)."""
    out = np.array(samples, dtype=np.float32)
    _limit(out, rate, ceiling)
    return out


def _limit(samples: np.ndarray, rate: int, ceiling: float) -> None:
    """``limited``, in place (a night's lines are levelled at every start: no copy spared is wasted)."""
    if len(samples) == 0:
        return
    block = max(1, int(rate * LIMIT_BLOCK_SECONDS))
    whole = len(samples) // block
    blocks = samples[:whole * block].reshape(whole, block)  # a view: nothing copied
    peaks = np.maximum(blocks.max(axis=1), -blocks.min(axis=1))
    if whole * block < len(samples):
        rest = samples[whole * block:]
        peaks = np.append(peaks, max(float(rest.max()), -float(rest.min())))
    if len(peaks) == 0 or float(peaks.max()) <= ceiling:
        return
    count = len(peaks)
    need = np.minimum(1.0, ceiling / np.maximum(peaks, 1e-12))
    around = np.minimum(need, np.minimum(np.append(need[1:], 1.0), np.insert(need[:-1], 0, 1.0)))
    centres = (np.arange(count) + 0.5) * block
    # The gain is 1 between two blocks that need nothing: only the stretches around the peaks are
    # worked out (a line's peaks are few, so this is a small part of it).
    for first, last in _stretches(np.flatnonzero(around < 1.0)):
        low = 0 if first == 0 else int(centres[first - 1])
        high = len(samples) if last == count - 1 else min(len(samples), int(np.ceil(centres[last + 1])) + 1)
        for start in range(low, high, LIMIT_CHUNK):  # a piece at a time: a long bed stays small in memory
            stop = min(high, start + LIMIT_CHUNK)
            gain = np.interp(np.arange(start, stop), centres, around).astype(np.float32)
            np.clip(samples[start:stop] * gain, -ceiling, ceiling, out=samples[start:stop])


def _stretches(blocks: np.ndarray) -> list[tuple[int, int]]:
    """Runs of block indices that touch or overlap once widened by a block either side."""
    runs: list[tuple[int, int]] = []
    for index in blocks.tolist():
        if runs and index - runs[-1][1] <= 2:
            runs[-1] = (runs[-1][0], index)
        else:
            runs.append((index, index))
    return runs


def fade_edges(clip: Clip, seconds: float = EDGE_FADE_SECONDS) -> Clip:
    """Raised-cosine fades in and out, so a clip never starts or stops on a click."""
    frames = min(int(round(seconds * clip.rate)), len(clip.samples) // 2)
    if frames < 2:
        return clip
    ramp = (0.5 - 0.5 * np.cos(np.linspace(0, np.pi, frames, dtype=np.float64))).astype(np.float32)
    samples = clip.samples.copy()
    samples[:frames] *= ramp
    samples[-frames:] *= ramp[::-1]
    return Clip(samples, clip.rate)
