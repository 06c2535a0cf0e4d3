"""From a night script to the night's audio: voices, background bed and mix; and to a file."""

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from narrator.core.errors import NarratorError
from narrator.core.i18n import msg
from narrator.core.script import NightScript
from narrator.shell.audio.beds import BUILT_IN, LEVELLING, load_bed
from narrator.shell.audio.cache import ClipCache
from narrator.shell.audio.clip import Clip, audio_writer
from narrator.shell.audio.mix import DEFAULT_MIX, MixSettings, NightAudio, build_night
from narrator.shell.audio.tts import DEFAULT_RATE, engine_factory
from narrator.shell.audio.voices import VoiceSource
from narrator.shell.files import write_atomically
from narrator.shell.voicepacks import default_pack, resolve_pack

BED_VERSION = 3  # bump when the built-in beds are synthesized differently (their levelling is in the key)
FILE_FORMATS = {".wav": ("WAV", "PCM_16"), ".flac": ("FLAC", "PCM_16"), ".ogg": ("OGG", "VORBIS")}


class Sources(Protocol):
    """What a night's sound needs of the machine it is made on (the shell's Environment has it):
    where the voice packs are, which game, the default text-to-speech engine, the cache."""

    game_id: str
    cache_dir: Path
    speech_engine: Callable[[], Any] | None

    def voice_pack_folders(self) -> list[Path]: ...


@dataclass(frozen=True)
class AudioChoice:
    engine: str | None = None  # a text-to-speech engine by name: speak every line with it
    voice: str | None = None  # a text-to-speech voice: speak every line with it
    rate: int | None = None  # text-to-speech words per minute: speak every line at it
    voice_pack: str | None = None  # a pack folder or name; default: the shipped pack of the language
    ambience: str | None = "drums"  # a built-in bed, a file, or None for silence


def voice_source(env: Sources, lang: str, choice: AudioChoice) -> VoiceSource:
    """The pack (unless a TTS voice or rate was asked for), with text-to-speech for what it lacks."""
    if choice.voice_pack:
        pack = resolve_pack(choice.voice_pack, env.voice_pack_folders(), env.game_id)
        if pack.language != lang:
            raise NarratorError(msg("voice pack '{pack}' speaks '{language}', the narration is in '{lang}': add "
                                    "--lang {language} or choose another pack", pack=pack.name,
                                    language=pack.language, lang=lang))
    elif choice.engine or choice.voice or choice.rate:
        pack = None
    else:
        pack = default_pack(lang, env.game_id, env.voice_pack_folders())
    engine = engine_factory(choice.engine) if choice.engine else env.speech_engine
    return VoiceSource(lang, pack, engine, ClipCache(env.cache_dir / "clips"), choice.voice,
                       choice.rate or DEFAULT_RATE)


def night_audio(env: Sources, script: NightScript, choice: AudioChoice,
                settings: MixSettings = DEFAULT_MIX) -> NightAudio:
    clips = voice_source(env, script.settings.lang, choice).clips_for(script, settings.rate)
    bed = None if choice.ambience is None else cached_bed(env, choice.ambience, settings.rate)
    return build_night(script, clips, bed, settings)


def cached_bed(env: Sources, choice: str, rate: int) -> Clip:
    """Beds are made once and kept in the cache: a built-in one synthesized, a user's file read,
    looped and set by loudness (measuring imports scipy: once per file and change, not every game)."""
    cache = ClipCache(env.cache_dir / "beds")
    if choice in BUILT_IN:
        key = ClipCache.key("bed", choice, rate, BED_VERSION, LEVELLING)
    else:
        path = Path(choice).expanduser()
        try:
            stat = path.resolve().stat()
        except (OSError, ValueError, RuntimeError):
            return load_bed(choice, rate)  # which says what is wrong with it
        key = ClipCache.key("bed-file", str(path.resolve()), stat.st_size, stat.st_mtime_ns, rate, LEVELLING)
    bed = cache.get(key)
    if bed is None or bed.rate != rate:
        bed = load_bed(choice, rate)
        cache.put(key, bed)
    return bed


def write_night(night: NightAudio, path: Path) -> None:
    """Write the night block by block, atomically (see ``narrator.shell.files``)."""
    suffix = path.suffix.lower()
    if suffix not in FILE_FORMATS:
        raise NarratorError(msg("{file}: cannot write '{suffix}' files: name the file .wav, .flac or .ogg", file=path,
                                suffix=path.suffix) if path.suffix else
                            msg("{file}: no extension: name the file .wav, .flac or .ogg", file=path))
    file_format, subtype = FILE_FORMATS[suffix]

    def write(temporary: Path) -> None:
        with audio_writer(temporary, night.rate, file_format, subtype) as out:
            for block in night.blocks():
                out.write(block)

    write_atomically(path, write)
