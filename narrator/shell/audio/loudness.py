"""Loudness as people hear it (EBU R128 / ITU-R BS.1770, measured with pyloudnorm), true peak,
and the short fades that keep a clip's edges from clicking.

Every spoken line is brought to one loudness (``LINE_LUFS``), so that a count word sounds as loud
as an instruction, under a true-peak ceiling (``TRUE_PEAK_DBTP``) that leaves room for the bed
and for the inter-sample peaks a laptop's converter would clip. The figures are measured on
rendered nights by ``benchmarks/audio.py``.
"""

import numpy as np

from narrator.shell.audio.clip import Clip

LINE_LUFS = -17.0  # every spoken line; with the bed under it the night sits near -16 LUFS
TRUE_PEAK_DBTP = -1.0  # the ceiling no line crosses, inter-sample peaks included
EDGE_FADE_SECONDS = 0.003  # 3 ms raised-cosine fades at every clip edge
SILENT_LUFS = -70.0  # BS.1770's absolute gate: quieter than this is no sound to level
# Names the targets above: a kept gain is used only while they stay the same.
PREPARATION = f"bs1770 {LINE_LUFS} {TRUE_PEAK_DBTP} {EDGE_FADE_SECONDS}"


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
    from narrator.shell.audio.clip import signals_held

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
    """The gain that brings the clip to ``target_lufs``, or less where its true peak would cross
    the ceiling; 0 for a clip too quiet to measure (silence stays silence)."""
    measured = loudness(clip.samples, clip.rate)
    if not np.isfinite(measured) or measured < SILENT_LUFS:
        return 0.0
    gain_db = target_lufs - measured
    headroom = ceiling_dbtp - (true_peak_dbtp(clip.samples, clip.rate) + gain_db)
    return gain_db + min(0.0, headroom)


def amplified(clip: Clip, gain_db: float) -> Clip:
    if gain_db == 0:
        return clip
    return Clip((clip.samples * 10 ** (gain_db / 20)).astype(np.float32), clip.rate)


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
