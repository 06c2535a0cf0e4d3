"""Text-to-speech engines behind one small protocol, chosen by name from a registry.

SVOX Pico (``narrator.shell.audio.pico``) is the default where its wheel is installed (Linux and
64-bit Windows); on macOS, the system's voices through ``say`` (``narrator.shell.audio.say``).
The pyttsx3 backend drives espeak-ng on Linux, SAPI5 on Windows and NSSpeechSynthesizer on
macOS (where it is not installed by default: see pyproject). Its traps, seen with pyttsx3 2.99
on Debian 12, and where they are handled:
``runAndWait()`` can return before the file is written, and only the last ``save_to_file``
before a ``runAndWait`` is written (the worker says one line per call and waits for
``finished-utterance`` and a complete file); voice and rate changes after the first utterance
are applied unreliably and a voice that does not exist is ignored silently (one worker process
per voice and rate, set before it speaks, and the voice checked after its first line); the
driver prints to stdout (the worker keeps its replies apart); the format is read from the file
(22050 Hz mono on espeak, AIFF inside a .wav on macOS).
"""

import functools
import json
import subprocess
import sys
import tempfile
import threading
import weakref
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from narrator.core.errors import NarratorError
from narrator.core.i18n import msg
from narrator.shell import platform
from narrator.shell.audio.clip import Clip, read_clip, trim_silence
from narrator.shell.platform.hints import language_voice_missing, pip_install, system_voice_missing
from narrator.shell.resources import DISTRIBUTION

DEFAULT_RATE = 150  # words per minute: calm enough to follow with eyes closed
REPLY_SECONDS = 60  # a pyttsx3 worker that has not answered a line within this is stuck: it is ended


class EngineUnavailable(NarratorError):
    """The engine cannot run on this machine; the message says how to fix it."""


@dataclass(frozen=True)
class Voice:
    id: str
    name: str
    languages: tuple[str, ...]

    def speaks(self, lang: str) -> bool:
        return any(code.replace("_", "-").lower().split("-")[0] == lang for code in self.languages)


class SpeechEngine(Protocol):
    name: str
    voice_licence: str  # what a pack it renders says of the voice, in its manifest's licence

    def voices(self) -> list[Voice]: ...

    def synthesize(self, text: str, voice: Voice, rate: int) -> Clip: ...


def choose_voice(engine: SpeechEngine, lang: str, wanted: str | None = None) -> Voice:
    """The voice ``wanted`` (id or name, any case), or the engine's first voice for ``lang``."""
    voices = engine.voices()
    if wanted:
        for voice in voices:
            if wanted.lower() in (voice.id.lower(), voice.name.lower()):
                return voice
        raise NarratorError(msg("no voice '{voice}' in {engine}: 'narrate doctor' lists the voices", voice=wanted,
                                engine=engine.name))
    speaking = [voice for voice in voices if voice.speaks(lang)]
    if not speaking:
        raise EngineUnavailable(msg("{engine} has no voice for '{lang}': {fix}, or use a voice pack",
                                    engine=engine.name, lang=lang, fix=language_voice_missing()))

    def rank(voice: Voice) -> int:
        """The language's own voice first: exactly 'it', or named for it (espeak's 'gmw/en')."""
        if any(code.lower() == lang for code in voice.languages):
            return 0
        return 1 if voice.id.lower().rsplit("/", 1)[-1] == lang else 2

    return min(speaking, key=rank)  # min keeps the engine's order among equals


class Pyttsx3Engine:
    """pyttsx3, with one worker process per voice and rate (see ``narrator.shell.audio.tts_worker``)."""

    name = "pyttsx3"
    voice_licence = "spoken by the system's own text-to-speech voice, under its licence"

    def __init__(self) -> None:
        self._voices: list[Voice] | None = None
        self._workers: dict[tuple[str, int], subprocess.Popen] = {}
        self._lock = threading.Lock()
        weakref.finalize(self, _stop_workers, self._workers)

    def voices(self) -> list[Voice]:
        if self._voices is None:
            try:
                import pyttsx3

                engine = pyttsx3.init()
                listed = engine.getProperty("voices")
            except ImportError:
                raise EngineUnavailable(msg("pyttsx3 is not installed: {command}", command=pip_install("pyttsx3"))) from None
            except Exception as error:  # the driver's own start-up failure, whatever its type
                raise EngineUnavailable(msg("the text-to-speech engine did not start ({error}); {fix}", error=error,
                                            fix=system_voice_missing())) from None
            self._voices = [Voice(str(v.id), str(v.name), tuple(str(code) for code in (v.languages or ())))
                            for v in listed]
        return self._voices

    def synthesize(self, text: str, voice: Voice, rate: int) -> Clip:
        with self._lock, tempfile.TemporaryDirectory(prefix="narrator-tts-") as folder:
            path = Path(folder) / "line.wav"
            reply = self._ask(voice, rate, {"text": text, "path": str(path)})
            if "error" in reply:
                raise NarratorError(msg("{engine}: {error}", engine=self.name, error=reply["error"]))
            return read_clip(path)

    def close(self) -> None:
        _stop_workers(self._workers)

    def _ask(self, voice: Voice, rate: int, request: dict) -> dict:
        worker = self._worker(voice, rate)
        assert worker.stdin is not None  # started with pipes
        worker.stdin.write(json.dumps(request) + "\n")
        worker.stdin.flush()
        line = _reply(worker, REPLY_SECONDS)
        if line is None:
            self._workers.pop((voice.id, rate), None)
            worker.kill()
            worker.wait()
            raise EngineUnavailable(msg("the text-to-speech engine did not answer within {seconds} s; {fix}",
                                        seconds=REPLY_SECONDS, fix=system_voice_missing()))
        if not line:
            self._workers.pop((voice.id, rate), None)
            raise EngineUnavailable(msg("the text-to-speech engine stopped (exit status {status}); {fix}",
                                        status=worker.wait(), fix=system_voice_missing()))
        return json.loads(line)

    def _worker(self, voice: Voice, rate: int) -> subprocess.Popen:
        key = (voice.id, rate)
        if key not in self._workers:
            self._workers[key] = subprocess.Popen(
                [sys.executable, "-m", "narrator.shell.audio.tts_worker", voice.id, str(rate)],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        return self._workers[key]


def _reply(worker: subprocess.Popen, seconds: float) -> str | None:
    """The worker's next line ("" once it has ended), or None if none came within ``seconds``: a
    thread reads it, since a pipe cannot be waited on with a timeout on every system."""
    read: list[str] = []
    stdout = worker.stdout
    assert stdout is not None  # started with pipes
    reader = threading.Thread(target=lambda: read.append(stdout.readline()), daemon=True)
    reader.start()
    reader.join(seconds)
    return read[0] if read else None


FASTEST_RATE = 400  # words per minute: as fast as a line is ever said to fit its time


def said_within(seconds: float, engine: SpeechEngine, text: str, voice: Voice, rate: int, clip: Clip) -> Clip:
    """``clip`` (``text`` said at ``rate``, silence trimmed), or the text said again a little faster
    until it lasts at most ``seconds`` (the long numbers of a count, 'ventiquattro', take a second
    at a calm pace)."""
    for _attempt in range(4):
        if clip.seconds <= seconds or rate >= FASTEST_RATE:
            break
        rate = min(FASTEST_RATE, int(rate * clip.seconds / seconds * 1.03) + 1)
        clip = trim_silence(engine.synthesize(text, voice, rate))
    return clip


def _stop_workers(workers: dict) -> None:
    """Close each worker's input; it finishes its line and exits."""
    for worker in workers.values():
        worker.stdin.close()
        try:
            worker.wait(timeout=5)
        except subprocess.TimeoutExpired:
            worker.kill()
    workers.clear()


def _pico() -> SpeechEngine:
    from narrator.shell.audio.pico import PicoEngine

    return PicoEngine()


def _say() -> SpeechEngine:
    from narrator.shell.audio.say import SayEngine

    return SayEngine()


def _piper(model: Path | None = None) -> SpeechEngine:
    from narrator.shell.audio.piper import PiperEngine

    if model is None:
        import importlib.util

        if importlib.util.find_spec("piper") is None:
            raise EngineUnavailable(msg("Piper is not installed here: {command} (piper-tts, GPL-3.0)",
                                        command=pip_install(f"{DISTRIBUTION}[piper]")))
        raise EngineUnavailable(msg("Piper speaks with a voice model you have: render a pack with 'narrate voices "
                                    "render --engine piper --model FILE.onnx', then play it with --voice-pack"))
    return PiperEngine(model)


# By name, for --engine. Pico is the default where its wheel is installed; pyttsx3 speaks with
# the system's own voices (espeak-ng on Linux, SAPI5 on Windows, NSSpeechSynthesizer on macOS);
# say with macOS' own voices; Piper, optional, with a neural voice model the user has (--model).
ENGINES: dict[str, Callable[..., SpeechEngine]] = {"pico": _pico, "pyttsx3": Pyttsx3Engine, "say": _say,
                                                  "piper": _piper}
MODEL_ENGINES = ("piper",)  # the engines that speak with a voice model file (--model)


def engines_here() -> dict[str, Callable[[], SpeechEngine]]:
    """The engines this system can have, by name: ``say`` is macOS' own."""
    return {name: engine for name, engine in ENGINES.items() if name != "say" or platform.macos()}


def default_engine() -> SpeechEngine:
    """SVOX Pico where its wheel is installed, else the system's voices: through ``say`` on macOS,
    through pyttsx3 elsewhere."""
    import importlib.util

    if importlib.util.find_spec("py_nanotts") is not None:
        return ENGINES["pico"]()
    return ENGINES["say" if platform.macos() else "pyttsx3"]()


def engine_factory(name: str, model: Path | None = None) -> Callable[[], SpeechEngine]:
    """The engine called ``name`` (``--engine``), speaking with ``model`` where it takes one (``--model``);
    a ``NarratorError`` with the list for any other."""
    if name not in engines_here():
        raise NarratorError(msg("no text-to-speech engine '{engine}': choose one of {engines}", engine=name,
                                engines=", ".join(engines_here())))
    if model is None:
        return ENGINES[name]
    if name not in MODEL_ENGINES:
        raise NarratorError(msg("--model is for an engine that speaks with a voice model file: --engine {engines}",
                                engines=" or ".join(MODEL_ENGINES)))
    return functools.partial(ENGINES[name], model)
