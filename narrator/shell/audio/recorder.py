"""Recording the group's own narrator: the microphone through sounddevice."""

import threading
from collections.abc import Callable
from typing import Protocol

import numpy as np

from narrator.core.errors import NarratorError
from narrator.core.i18n import msg
from narrator.shell.audio.clip import Clip
from narrator.shell.platform.hints import portaudio_missing

RECORD_RATE = 48000


Levels = Callable[[float], None]  # told each block's peak (0 to 1) as it is recorded, for the meter


def kept_from(samples: np.ndarray) -> bool:
    """Whether the system keeps the microphone from narrate: a recording of nothing but zeros is not
    a quiet room (a microphone always hears some noise), and Windows and macOS hand an app that may
    not use the microphone zeros, not an error. (An input that gave nothing at all stalled.)"""
    return len(samples) > 0 and not np.any(samples)


class Recorder(Protocol):
    def record(self, stop: threading.Event, levels: Levels | None = None) -> Clip:
        """Record from now until ``stop`` is set; ``levels`` hears each block's peak as it comes."""

    def play(self, clip: Clip) -> None:
        """Play a recording back, to hear whether to keep it."""


class MicrophoneRecorder:
    def record(self, stop: threading.Event, levels: Levels | None = None,
               arrived: Callable[[int, bool], None] | None = None) -> Clip:
        """Record until ``stop`` is set; ``levels`` hears each block's peak, ``arrived`` each block's
        frames as it comes, and whether input was lost before it (when it came says when it was
        recorded: the laptop listening to the tablets, ``narrator.shell.speakerbox.listen``)."""
        sounddevice = _sounddevice()
        blocks: list[np.ndarray] = []

        def keep(data, frames, time, status) -> None:
            if arrived is not None:
                arrived(frames, bool(status and status.input_overflow))
            block = data[:, 0].copy()
            blocks.append(block)  # a list of blocks: a take of any length, joined once at the end
            if levels is not None and len(block):
                levels(min(1.0, float(np.max(np.abs(np.nan_to_num(block))))))  # a broken input's garbage too

        try:
            with sounddevice.InputStream(samplerate=RECORD_RATE, channels=1, dtype="float32", callback=keep):
                stop.wait()
        except sounddevice.PortAudioError as error:
            raise NarratorError(msg("cannot record: no microphone ({error}); connect one or pick an input in the "
                                    "system's sound settings", error=error)) from None
        samples = np.concatenate(blocks) if blocks else np.zeros(0, dtype=np.float32)
        # A sound card gives samples within [-1, 1]; whatever a broken input gives, keep it there.
        samples = np.clip(np.nan_to_num(samples, nan=0.0, posinf=0.0, neginf=0.0), -1.0, 1.0)
        return Clip(samples.astype(np.float32), RECORD_RATE)

    def play(self, clip: Clip) -> None:
        sounddevice = _sounddevice()
        try:
            sounddevice.play(clip.samples, clip.rate, blocking=True)
        except sounddevice.PortAudioError as error:
            raise NarratorError(msg("cannot play the recording back ({error})", error=error)) from None
        except BaseException:
            sounddevice.stop()  # a stream left running makes PortAudio's shutdown at exit wait for ever
            raise


def _sounddevice():
    try:
        import sounddevice
    except OSError:
        raise NarratorError(msg("cannot record: {reason}", reason=portaudio_missing())) from None
    return sounddevice
