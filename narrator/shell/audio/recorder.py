"""Recording the group's own narrator: the microphone through sounddevice."""

import threading
from typing import Protocol

import numpy as np

from narrator.core.errors import NarratorError
from narrator.core.i18n import msg
from narrator.shell.audio.clip import Clip

RECORD_RATE = 48000


class Recorder(Protocol):
    def record(self, stop: threading.Event) -> Clip:
        """Record from now until ``stop`` is set."""

    def play(self, clip: Clip) -> None:
        """Play a recording back, to hear whether to keep it."""


class MicrophoneRecorder:
    def record(self, stop: threading.Event) -> Clip:
        sounddevice = _sounddevice()
        blocks: list[np.ndarray] = []
        try:
            with sounddevice.InputStream(samplerate=RECORD_RATE, channels=1, dtype="float32",
                                         callback=lambda data, frames, time, status: blocks.append(data[:, 0].copy())):
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
        raise NarratorError(msg("cannot record: PortAudio is missing; on Debian/Ubuntu, sudo apt-get install "
                                "libportaudio2")) from None
    return sounddevice
