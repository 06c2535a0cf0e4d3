"""SVOX Pico, through the ``py-nanotts`` wheel: a far more natural voice than eSpeak's, Italian
and English included, with nothing to install beside the wheel (Apache-2.0, like its voice data).

py-nanotts returns 16 kHz mono 16-bit PCM for a line of text; its pace is a multiplier, which
narrate maps from words per minute (the default rate is Pico's own pace). The engine is in
process and not re-entrant, so one line is spoken at a time.
"""

import threading

import numpy as np

from narrator.core.i18n import msg
from narrator.shell.audio.clip import Clip
from narrator.shell.audio.tts import DEFAULT_RATE, EngineUnavailable, Voice
from narrator.shell.resources import pip_install

PICO_RATE = 16000  # what py-nanotts always returns
# Pico's voices, in the order a language prefers them (British English before American).
PICO_VOICES = (("it-IT", "Italiano (SVOX Pico)"), ("en-GB", "English, British (SVOX Pico)"),
               ("en-US", "English, American (SVOX Pico)"), ("de-DE", "Deutsch (SVOX Pico)"),
               ("es-ES", "Español (SVOX Pico)"), ("fr-FR", "Français (SVOX Pico)"))


class PicoEngine:
    name = "pico"
    voice_licence = "spoken by SVOX Pico (Apache-2.0)"

    def __init__(self) -> None:
        self._tts = None
        self._lock = threading.Lock()

    def voices(self) -> list[Voice]:
        self._engine()
        return [Voice(f"pico/{code}", name, (code,)) for code, name in PICO_VOICES]

    def synthesize(self, text: str, voice: Voice, rate: int) -> Clip:
        engine = self._engine()
        code = voice.id.removeprefix("pico/")
        with self._lock:
            pcm = engine.speak(text, voice=code, speed=rate / DEFAULT_RATE)
        samples = np.frombuffer(pcm, dtype="<i2").astype(np.float32) / 32768.0
        return Clip(samples, PICO_RATE)

    def _engine(self):
        if self._tts is None:
            try:
                from py_nanotts import NanoTTS
            except ImportError:  # no wheel for this platform, or not installed
                raise EngineUnavailable(msg("SVOX Pico is not installed here ({command}; it has wheels for Linux and "
                                            "Windows): use --engine pyttsx3 for the system's voices",
                                            command=pip_install("py-nanotts"))
                                        ) from None
            self._tts = NanoTTS()
        return self._tts
