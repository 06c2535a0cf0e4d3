"""Where the sound of each line comes from: the voice pack first, then text-to-speech (cached)."""

from collections.abc import Callable
from dataclasses import dataclass, field

from narrator.core.errors import NarratorError
from narrator.core.i18n import msg
from narrator.core.script import COUNT_WORD_SECONDS, NightScript, Tick
from narrator.shell.audio.cache import ClipCache
from narrator.shell.audio.clip import Clip, prepare_voice, read_clip, trim_silence
from narrator.shell.audio.tts import EngineUnavailable, SpeechEngine, Voice, choose_voice, said_within
from narrator.shell.voicepacks import VoicePack


@dataclass
class VoiceSource:
    lang: str
    pack: VoicePack | None
    engine: Callable[[], SpeechEngine] | None
    cache: ClipCache
    voice_name: str | None = None
    rate: int = 150
    used: dict[str, int] = field(default_factory=lambda: {"pack": 0, "cache": 0, "tts": 0})
    _voice: Voice | None = None
    _engine: SpeechEngine | None = None

    def raw_clip(self, key: str, text: str, count_word: bool = False) -> Clip:
        """The recorded or synthesized line, as it was made (any rate, silence untrimmed); a
        synthesized count word said quickly enough to fit its second."""
        if self.pack is not None and (path := self.pack.file(key)) is not None:
            self.used["pack"] += 1
            return read_clip(path)
        engine, voice = self._speaker(key)
        fitted = ("fits its second",) if count_word else ()  # said faster than the pace where it must be
        cache_key = ClipCache.key(engine.name, voice.id, self.rate, text, *fitted)
        if (cached := self.cache.get(cache_key)) is not None:
            self.used["cache"] += 1
            return cached
        clip = engine.synthesize(text, voice, self.rate)
        if count_word:
            clip = said_within(COUNT_WORD_SECONDS, engine, text, voice, self.rate, trim_silence(clip))
        self.cache.put(cache_key, clip)
        self.used["tts"] += 1
        return clip

    def clips_for(self, script: NightScript, rate: int) -> dict[str, Clip]:
        """Every line of the script, ready to mix at ``rate``: trimmed, levelled, resampled."""
        clips: dict[str, Clip] = {}
        for cue in script.cues():
            if cue.key not in clips:
                raw = self.raw_clip(cue.key, cue.text, count_word=isinstance(cue, Tick))
                clips[cue.key] = prepare_voice(raw, rate, self.cache)
        return clips

    def _speaker(self, key: str) -> tuple[SpeechEngine, Voice]:
        if self._engine is None:
            if self.engine is None:
                if self.pack is None:
                    raise NarratorError(msg("no text-to-speech engine is configured to speak line '{key}'", key=key))
                raise NarratorError(msg("line '{key}' is not in voice pack '{pack}' and no text-to-speech engine is "
                                        "configured", key=key, pack=self.pack.name))
            try:
                engine = self.engine()
                self._voice = choose_voice(engine, self.lang, self.voice_name)
            except EngineUnavailable as error:
                if self.pack is None:
                    raise
                raise EngineUnavailable(msg("line '{key}' is not in voice pack '{pack}' and text-to-speech is "
                                            "unavailable: {error}", key=key, pack=self.pack.name,
                                            error=error)) from None
            self._engine = engine
        assert self._voice is not None  # chosen with the engine
        return self._engine, self._voice
