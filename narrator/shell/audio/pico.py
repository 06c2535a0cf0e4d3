"""SVOX Pico, through the ``py-nanotts`` wheel: a far more natural voice than eSpeak's, Italian
and English included, with nothing to install beside the wheel (Apache-2.0, like its voice data).

py-nanotts returns 16 kHz mono 16-bit PCM for a line of text; its pace is a multiplier, which
narrate maps from words per minute (the default rate is Pico's own pace). The engine is in
process and not re-entrant, so one line is spoken at a time.

Pico opens its voice data with C's ``fopen``, which on Windows reads the folder's name in the
ANSI code page: installed under ``C:\\Users\\Niccolò``, it would find nothing. There narrate hands
it a plain name for the same folder (``narrator.shell.platform.files.plain_path``).
"""

import threading
from importlib import resources
from pathlib import Path

import numpy as np

from narrator.core.errors import NarratorError
from narrator.core.i18n import msg
from narrator.shell import platform
from narrator.shell.audio.clip import Clip
from narrator.shell.audio.tts import DEFAULT_RATE, EngineUnavailable, Voice
from narrator.shell.platform.files import plain_path
from narrator.shell.platform.hints import pip_install

PICO_RATE = 16000  # what py-nanotts always returns
# Pico's voices, in the order a language prefers them (British English before American).
PICO_VOICES = (("it-IT", "Italiano (SVOX Pico)"), ("en-GB", "English, British (SVOX Pico)"),
               ("en-US", "English, American (SVOX Pico)"), ("de-DE", "Deutsch (SVOX Pico)"),
               ("es-ES", "Español (SVOX Pico)"), ("fr-FR", "Français (SVOX Pico)"))


class PicoEngine:
    name = "pico"
    voice_licence = "spoken by SVOX Pico (Apache-2.0)"

    def __init__(self) -> None:
        self._speak = None
        self._lock = threading.Lock()

    def voices(self) -> list[Voice]:
        self._engine()
        return [Voice(f"pico/{code}", name, (code,)) for code, name in PICO_VOICES]

    def synthesize(self, text: str, voice: Voice, rate: int) -> Clip:
        speak = self._engine()
        code = voice.id.removeprefix("pico/")
        with self._lock:
            try:
                pcm = speak(text, voice=code, speed=rate / DEFAULT_RATE)
            except RuntimeError as error:  # the engine's own failure: its voice data unreadable, say
                raise NarratorError(msg("SVOX Pico could not speak ({error}); use --engine pyttsx3 for the "
                                        "system's voices", error=error)) from None
        samples = np.frombuffer(pcm, dtype="<i2").astype(np.float32) / 32768.0
        return Clip(samples, PICO_RATE)

    def _engine(self):
        if self._speak is None:
            try:
                import py_nanotts
            except ImportError:  # no wheel for this platform, or not installed
                if platform.macos():
                    raise EngineUnavailable(msg("SVOX Pico has no wheel for macOS: use --engine say, the system's "
                                                "own voices")) from None
                raise EngineUnavailable(msg("SVOX Pico is not installed here ({command}; it has wheels for Linux and "
                                            "64-bit Windows): use --engine pyttsx3 for the system's voices",
                                            command=pip_install("py-nanotts"))
                                        ) from None
            data = Path(str(resources.files("py_nanotts") / "lang"))
            plain = plain_path(data)
            if plain is None:
                raise EngineUnavailable(msg("SVOX Pico cannot open its voices in {folder} (Windows gives it no plain "
                                            "name for it): install narrate in a folder whose name has only English "
                                            "letters, or use --engine pyttsx3", folder=data))
            self._speak = py_nanotts.NanoTTS().speak if plain == data else _speaking_from(py_nanotts, plain)
        return self._speak


def _speaking_from(py_nanotts, data: Path):
    """Pico's ``speak`` reading its voices from ``data``: py-nanotts 0.1's public ``speak`` takes no
    folder, its module's ``_speak`` (which that ``speak`` calls) does."""
    speak = getattr(py_nanotts, "_speak", None)
    if speak is None:
        raise EngineUnavailable(msg("SVOX Pico cannot open its voices in this folder; use --engine pyttsx3"))

    def speaking(text: str, voice: str, speed: float) -> bytes:
        speed = max(py_nanotts.MIN_SPEED, min(py_nanotts.MAX_SPEED, speed))  # as the public speak clamps it
        return speak(text=text, voice=voice, speed=speed, pitch=None, volume=None, lingware_path=str(data))

    return speaking
