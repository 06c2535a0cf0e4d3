"""Piper, a neural text-to-speech engine, speaking with a voice model file the user has.

Optional (the ``piper`` extra: ``python -m pip install 'werewolf-narrator[piper]'``): the ``piper-tts`` package is GPL-3.0 and brings
onnxruntime, so narrate never needs it. A Piper voice is two files: the model
(``it_IT-paola-medium.onnx``) and its configuration beside it (the same name plus ``.json``),
which says the voice's language and sample rate. Each voice has a licence of its own, named in
its model card: a pack rendered with it says so in its manifest.

Piper speaks a line sentence by sentence with no pause between them; narrate puts a short one
there, as a reader would. Its pace is a length scale, which narrate maps from words per minute.
"""

import json
import threading
from pathlib import Path
from typing import Any

import numpy as np

from narrator.core.errors import NarratorError
from narrator.core.i18n import msg
from narrator.shell.audio.clip import Clip
from narrator.shell.audio.tts import DEFAULT_RATE, EngineUnavailable, Voice
from narrator.shell.platform.hints import pip_install
from narrator.shell.resources import DISTRIBUTION

SENTENCE_PAUSE_SECONDS = 0.35


class PiperEngine:
    name = "piper"

    def __init__(self, model: Path) -> None:
        self.model = Path(model)
        if not self.model.is_file():  # before anything is made of its name ('.', '' or a folder)
            raise NarratorError(msg("{file}: no such voice model: give the .onnx file of a Piper voice",
                                    file=self.model))
        self.config_file = self.model.with_name(self.model.name + ".json")
        self.config = _read_config(self.model, self.config_file)
        self.voice_licence = f"spoken by the Piper voice '{self.model.stem}', under the licence of its model card"
        self._voice: Any = None  # piper's PiperVoice, loaded when first needed
        self._lock = threading.Lock()

    def voices(self) -> list[Voice]:
        language = self.config.get("language")
        code = language.get("code") if isinstance(language, dict) else None
        dataset = self.config.get("dataset") or self.model.stem
        return [Voice(f"piper/{self.model.stem}", str(dataset), (str(code),) if code else ())]

    def synthesize(self, text: str, voice: Voice, rate: int) -> Clip:
        piper_voice = self._load()
        from piper import SynthesisConfig

        with self._lock:
            sentences = [chunk.audio_float_array for chunk in
                         piper_voice.synthesize(text, syn_config=SynthesisConfig(length_scale=DEFAULT_RATE / rate))]
        sample_rate = int(piper_voice.config.sample_rate)
        pause = np.zeros(int(SENTENCE_PAUSE_SECONDS * sample_rate), dtype=np.float32)
        pieces = [piece for sentence in sentences for piece in (pause, sentence)][1:]
        samples = np.concatenate(pieces).astype(np.float32) if pieces else np.zeros(0, dtype=np.float32)
        return Clip(samples, sample_rate)

    def _load(self):
        if self._voice is None:
            try:
                from piper import PiperVoice
            except ImportError:
                raise EngineUnavailable(msg("Piper is not installed here: {command} (piper-tts, GPL-3.0)",
                                            command=pip_install(f"{DISTRIBUTION}[piper]"))) from None
            try:
                self._voice = PiperVoice.load(self.model, config_path=self.config_file)
            except Exception as error:  # onnxruntime's own failure for a file that is no model, whatever its type
                raise NarratorError(msg("{file}: not a Piper voice model ({error})", file=self.model,
                                        error=str(error).splitlines()[0] if str(error) else type(error).__name__)
                                    ) from None
        return self._voice


def _read_config(model: Path, config_file: Path) -> dict:
    """The voice's configuration, read before anything is loaded, so that a wrong path is one line."""
    try:
        config = json.loads(config_file.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise NarratorError(msg("{file}: a Piper voice needs its configuration beside it, {config}: download both "
                                "files of the voice", file=model, config=config_file.name)) from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise NarratorError(msg("{file}: cannot read this Piper voice configuration ({error})", file=config_file,
                                error=error)) from None
    audio = config.get("audio") if isinstance(config, dict) else None
    if not isinstance(audio, dict) or not isinstance(audio.get("sample_rate"), int):
        raise NarratorError(msg("{file}: not a Piper voice configuration (no audio sample_rate)", file=config_file))
    return config
