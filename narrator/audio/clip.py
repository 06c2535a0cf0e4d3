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


MIN_RATE, MAX_RATE = 8000, 384000  # Hz: from telephone speech to the highest studio rates
MAX_SECONDS = 600.0  # no line, take or bed narrate uses is longer; beyond it a file is read only this far


def read_clip(path: Path, max_seconds: float = MAX_SECONDS) -> Clip:
    """Read any format libsndfile knows (WAV, FLAC, OGG, AIFF); the format comes from the file.

    At most ``max_seconds`` are read, so an hour-long file costs no more memory than that; a
    file at an absurd sample rate, or holding samples that are not numbers, is refused.
    """
    import soundfile

    try:
        info = soundfile.info(str(path))
        if not MIN_RATE <= info.samplerate <= MAX_RATE:
            raise NarratorError(f"{path}: sampled at {info.samplerate} Hz; narrate reads audio at 8 to 384 kHz: "
                                "convert it (44100 or 48000 Hz)")
        frames = min(info.frames, int(max_seconds * info.samplerate))
        samples, rate = soundfile.read(str(path), frames=frames, dtype="float32", always_2d=True)
    except (RuntimeError, soundfile.LibsndfileError, OSError) as error:
        raise NarratorError(f"{path}: cannot read this audio file ({error})") from None
    mono = np.ascontiguousarray(samples.mean(axis=1), dtype=np.float32)
    if not np.isfinite(mono).all():
        raise NarratorError(f"{path}: holds samples that are not numbers (NaN or infinity): the file is damaged")
    return Clip(mono, int(rate))


def write_clip(clip: Clip, path: Path, subtype: str | None = None) -> None:
    """Write ``clip`` (format from the extension), atomically: see ``narrator.files``."""
    file_format = _format(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomically(path, lambda temporary: write_samples(temporary, clip.samples, clip.rate, file_format, subtype))


WRITE_BLOCK = 65536  # frames: libsndfile's Vorbis encoder crashes on one write of a minute or more


def write_samples(path: Path, samples: np.ndarray, rate: int, file_format: str, subtype: str | None = None) -> None:
    """Write mono samples block by block (see ``WRITE_BLOCK``), whatever their length."""
    import soundfile

    with soundfile.SoundFile(str(path), "w", samplerate=rate, channels=1, format=file_format,
                             subtype=subtype) as out:
        for start in range(0, len(samples), WRITE_BLOCK):
            out.write(samples[start:start + WRITE_BLOCK])


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
