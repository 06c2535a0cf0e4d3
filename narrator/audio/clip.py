"""Audio clips: mono float32 samples at a known rate, read, trimmed, resampled and levelled."""

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from narrator.errors import NarratorError
from narrator.files import write_atomically

SILENCE_THRESHOLD = 10 ** (-45 / 20)  # -45 dBFS: quieter than this at a clip's edges is silence
VOICE_PEAK = 0.7  # speech never peaks above this; with the bed's ceiling the mix cannot clip
VOICE_RMS = 10 ** (-18 / 20)  # spoken lines are levelled to this loudness


@dataclass(frozen=True)
class Clip:
    samples: np.ndarray  # mono float32
    rate: int

    @property
    def seconds(self) -> float:
        return len(self.samples) / self.rate


def read_clip(path: Path) -> Clip:
    """Read any format libsndfile knows (WAV, FLAC, OGG, AIFF); the format comes from the file."""
    import soundfile

    try:
        samples, rate = soundfile.read(str(path), dtype="float32", always_2d=True)
    except (RuntimeError, soundfile.LibsndfileError, OSError) as error:
        raise NarratorError(f"{path}: cannot read this audio file ({error})") from None
    return Clip(np.ascontiguousarray(samples.mean(axis=1), dtype=np.float32), int(rate))


def write_clip(clip: Clip, path: Path, subtype: str | None = None) -> None:
    """Write ``clip`` (format from the extension), atomically: see ``narrator.files``."""
    import soundfile

    file_format = _format(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomically(path, lambda temporary: soundfile.write(temporary, clip.samples, clip.rate, subtype=subtype,
                                                              format=file_format))


def _format(path: Path) -> str:
    formats = {".wav": "WAV", ".flac": "FLAC", ".ogg": "OGG"}
    if path.suffix.lower() not in formats:
        raise NarratorError(f"{path}: cannot write '{path.suffix}' audio: use .wav, .flac or .ogg")
    return formats[path.suffix.lower()]


def trim_silence(clip: Clip, threshold: float = SILENCE_THRESHOLD) -> Clip:
    """Cut the silence before and after the sound, so a line starts exactly where it is placed."""
    loud = np.flatnonzero(np.abs(clip.samples) > threshold)
    if loud.size == 0:
        return Clip(clip.samples[:0], clip.rate)
    return Clip(clip.samples[loud[0]:loud[-1] + 1], clip.rate)


def resample(clip: Clip, rate: int) -> Clip:
    if clip.rate == rate or len(clip.samples) == 0:
        return Clip(clip.samples, rate)
    import soxr

    return Clip(soxr.resample(clip.samples, clip.rate, rate, quality="HQ").astype(np.float32), rate)


def level(clip: Clip, rms: float = VOICE_RMS, peak: float = VOICE_PEAK) -> Clip:
    """Bring a clip to the target loudness, but never above the peak ceiling."""
    if len(clip.samples) == 0:
        return clip
    current_rms = float(np.sqrt(np.mean(np.square(clip.samples, dtype=np.float64))))
    current_peak = float(np.max(np.abs(clip.samples)))
    if current_peak == 0:
        return clip
    gain = min(rms / current_rms, peak / current_peak)
    return Clip((clip.samples * gain).astype(np.float32), clip.rate)


def prepare_voice(clip: Clip, rate: int) -> Clip:
    """A spoken line ready to mix: trimmed, levelled, at the output rate."""
    return level(resample(trim_silence(clip), rate))
