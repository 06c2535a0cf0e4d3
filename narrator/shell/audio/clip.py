"""Audio clips: mono float32 samples at a known rate, read, written, trimmed and resampled."""

import errno
import os
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from narrator.core.errors import NarratorError
from narrator.core.i18n import msg
from narrator.shell.files import write_atomically
from narrator.shell.signals import signals_held

SILENCE_THRESHOLD = 10 ** (-45 / 20)  # -45 dBFS: quieter than this at a clip's edges is silence


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

    try:  # through a Python file: soundfile cannot name a file whose name is not UTF-8
        with open(path, "rb") as raw, soundfile.SoundFile(raw) as audio:
            rate = audio.samplerate
            if not MIN_RATE <= rate <= MAX_RATE:
                raise NarratorError(msg("{file}: sampled at {rate} Hz; narrate reads audio at 8 to 384 kHz: "
                                        "convert it (44100 or 48000 Hz)", file=path, rate=rate))
            samples = audio.read(min(audio.frames, int(max_seconds * rate)), dtype="float32", always_2d=True)
    except (RuntimeError, soundfile.LibsndfileError, OSError) as error:
        raise NarratorError(msg("{file}: cannot read this audio file ({error})", file=path, error=error)) from None
    mono = np.ascontiguousarray(samples.mean(axis=1), dtype=np.float32)
    if not np.isfinite(mono).all():
        raise NarratorError(msg("{file}: holds samples that are not numbers (NaN or infinity): the file is damaged",
                                file=path))
    return Clip(mono, int(rate))


def write_clip(clip: Clip, path: Path, subtype: str | None = None) -> None:
    """Write ``clip`` (format from the extension), atomically: see ``narrator.shell.files``."""
    file_format = _format(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomically(path, lambda temporary: write_samples(temporary, clip.samples, clip.rate, file_format, subtype))


WRITE_BLOCK = 65536  # frames: libsndfile's Vorbis encoder crashes on one write of a minute or more


def write_samples(path: Path, samples: np.ndarray, rate: int, file_format: str, subtype: str | None = None) -> None:
    """Write mono samples block by block (see ``WRITE_BLOCK``), whatever their length."""
    with audio_writer(path, rate, file_format, subtype) as out:
        for start in range(0, len(samples), WRITE_BLOCK):
            out.write(samples[start:start + WRITE_BLOCK])


@contextmanager
def audio_writer(path: Path, rate: int, file_format: str, subtype: str | None = None) -> Iterator:
    """A mono sound file open for writing, through a Python file (any name the system allows)."""
    import soundfile

    with open(path, "wb", buffering=0) as raw:  # unbuffered: a failed write fails in write, not in a later seek
        careful = _CarefulFile(raw)
        writes = None
        try:
            out = None
            try:
                with signals_held():  # a signal noted here is raised once out is set, so it is closed below
                    out = soundfile.SoundFile(careful, "w", samplerate=rate, channels=1, format=file_format,
                                              subtype=subtype)
                writes = _HeldWrites(out)
                yield writes
            finally:
                if out is not None:  # closed while raw is open: left to the collector, it would write to a closed file
                    with signals_held():
                        out.close()
        except (RuntimeError, AssertionError):  # soundfile asserts on a short write rather than raising
            if careful.error is not None:
                raise careful.error from None  # the real reason (a full disk), which libsndfile cannot pass on
            raise
        if careful.error is not None:  # libsndfile's Ogg writer goes on past a failed write and reports nothing
            raise careful.error
    _check_complete(path, file_format, writes.frames)


def _check_complete(path: Path, file_format: str, frames: int) -> None:
    """The file just written holds every frame given to it, read back as a player reads it: data
    lost without an error (libsndfile's Ogg encoder drops the system's) is an error. A compressed
    file is decoded to its end (FLAC's header gives the count it was given, written last, not what
    was kept; about 0.2 s for a whole night); a WAV's count is its data's length on the disk."""
    import soundfile

    try:
        with open(path, "rb") as raw, soundfile.SoundFile(raw) as audio:
            if file_format == "WAV":  # samples as stored: libsndfile counts them by the file's length
                found = audio.frames
            else:  # decoded to the end
                found = sum(len(block) for block in audio.blocks(WRITE_BLOCK, dtype="float32"))
    except (RuntimeError, soundfile.LibsndfileError):
        found = None
    if found != frames:
        raise OSError(errno.EIO, os.strerror(errno.EIO))


class _HeldWrites:
    """A sound file whose writes hold the signals while libsndfile runs (see ``signals_held``)."""

    def __init__(self, out):
        self.out = out
        self.frames = 0  # how many were given, to check the file against once it is closed

    def write(self, samples) -> None:
        with signals_held():
            self.out.write(samples)
        self.frames += len(samples)


class _CarefulFile:
    """A file for libsndfile's write callback: an OSError there is kept, not raised into C.

    Raised inside the callback, it would be printed as an ignored exception and lost; kept, it
    is raised once libsndfile has given up on the short write.
    """

    def __init__(self, raw):
        self.raw = raw
        self.error: OSError | None = None

    def _guarded(self, action, failed):
        if self.error is not None:
            return failed
        try:
            return action()
        except OSError as error:
            self.error = error
            return failed

    def write(self, data) -> int:
        return self._guarded(lambda: self._write_all(memoryview(data)), 0)

    def _write_all(self, data: memoryview) -> int:
        """All of ``data``, or the error that stopped it (a raw file may write part and say so)."""
        done = 0
        while done < len(data):
            written = self.raw.write(data[done:])
            if not written:
                raise OSError(errno.EIO, "the disk accepted no more data")
            done += written
        return done

    def read(self, *size):
        return self._guarded(lambda: self.raw.read(*size), b"")

    def seek(self, *position):
        return self._guarded(lambda: self.raw.seek(*position), -1)

    def tell(self) -> int:
        return self._guarded(self.raw.tell, -1)


def _format(path: Path) -> str:
    formats = {".wav": "WAV", ".flac": "FLAC", ".ogg": "OGG"}
    if path.suffix.lower() not in formats:
        raise NarratorError(msg("{file}: cannot write '{suffix}' audio: use .wav, .flac or .ogg", file=path,
                                suffix=path.suffix))
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


def shape_voice(clip: Clip, rate: int) -> Clip:
    """A spoken line trimmed, at the output rate and faded at its edges: what is then levelled."""
    from narrator.shell.audio import loudness

    return loudness.fade_edges(resample(trim_silence(clip), rate))


def prepare_voice(clip: Clip, rate: int, gains=None) -> Clip:
    """A spoken line ready to mix: trimmed, at the output rate, faded at its edges and brought to
    the lines' loudness under the true-peak ceiling, its sharpest peaks limited (see ``narrator.shell.audio.loudness``).

    ``gains`` (a ``ClipCache``) keeps each line's gain, so that a line measured once is never
    measured again.
    """
    import hashlib

    from narrator.shell.audio import loudness

    shaped = shape_voice(clip, rate)
    key = None
    if gains is not None:
        digest = hashlib.sha256(shaped.samples.tobytes()).hexdigest()
        key = gains.key("gain", loudness.PREPARATION, rate, digest)
        if (gain := gains.gain(key)) is not None:
            return loudness.levelled(shaped, gain)
    gain = loudness.normalising_gain_db(shaped)
    if key is not None:
        gains.put_gain(key, gain)
    return loudness.levelled(shaped, gain)
