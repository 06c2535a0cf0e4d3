"""Making voice packs: rendering every line with text-to-speech, or recording a person."""

import os
import shutil
import tempfile
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from types import MappingProxyType

from narrator.core.errors import NarratorError
from narrator.core.game import Game
from narrator.core.i18n import msg
from narrator.core.script import COUNT_WORD_SECONDS, count_line_keys, every_line
from narrator.shell.audio.clip import Clip, trim_silence, write_clip
from narrator.shell.audio.tts import SpeechEngine, choose_voice, said_within
from narrator.shell.files import folder_mode
from narrator.shell.translation import _
from narrator.shell.voicepacks import MANIFEST, PackClip, VoicePack, load_pack, save_pack

PACK_FORMAT = ".ogg"  # Vorbis: small enough to ship every line of two languages in the wheel


def render_pack(game: Game, lang: str, folder: Path, engine: SpeechEngine, voice_name: str | None, rate: int,
                name: str | None, licence: str, overwrite: bool,
                progress: Callable[[int, int, str], None] = lambda done, total, key: None) -> VoicePack:
    """Speak every line of ``game`` in ``lang`` into ``folder`` as a voice pack.

    The pack is made in a hidden folder beside ``folder`` and swapped in whole at the end: an
    interrupted render leaves the old pack, or nothing, and the same command can simply run again.
    """
    _check_target(folder, overwrite)
    voice = choose_voice(engine, lang, voice_name)
    folder.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(dir=folder.parent, prefix=f".{folder.name}.rendering-"))
    try:
        os.chmod(staging, folder_mode())
        pack = VoicePack(staging, name or f"{game.languages[lang].name} ({engine.name}: {voice.name})", lang,
                         game.id, licence, "tts")
        lines = every_line(game, lang)
        counts = set(count_line_keys(game))
        clips: dict[str, PackClip] = {}
        for index, (key, text) in enumerate(lines):
            clip = trim_silence(engine.synthesize(text, voice, rate))
            if key in counts:
                clip = said_within(COUNT_WORD_SECONDS, engine, text, voice, rate, clip)
            write_clip(clip, staging / f"{key}{PACK_FORMAT}")
            clips[key] = PackClip(text, clip.seconds)
            progress(index + 1, len(lines), key)
        save_pack(replace(pack, clips=MappingProxyType(clips)))
        _swap_in(staging, folder)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return replace(pack, folder=folder, clips=MappingProxyType(clips))


def _swap_in(staging: Path, folder: Path) -> None:
    """Put the finished pack in ``staging`` where ``folder`` is, replacing what was there."""
    if not folder.exists():
        os.replace(staging, folder)
        return
    retired = Path(tempfile.mkdtemp(dir=folder.parent, prefix=f".{folder.name}.replaced-"))
    os.replace(folder, retired / "pack")
    os.replace(staging, folder)
    shutil.rmtree(retired, ignore_errors=True)


def add_recording(pack: VoicePack, key: str, text: str, clip: Clip) -> VoicePack:
    """Keep one recorded line, as processed (``studio.process_take``): the audio first, then the
    manifest, each written atomically."""
    if len(trim_silence(clip).samples) == 0:
        raise NarratorError(msg("the recording of '{key}' is silent: check the microphone and record it again",
                                key=key))
    write_clip(clip, pack.folder / f"{key}{PACK_FORMAT}")
    updated = replace(pack, clips=MappingProxyType({**pack.clips, key: PackClip(text, clip.seconds)}))
    save_pack(updated)
    return updated


def open_or_start_pack(game: Game, lang: str, folder: Path, name: str | None, licence: str) -> VoicePack:
    """The pack being recorded in ``folder``: resumed if it exists, started if the folder is new or empty."""
    if (folder / MANIFEST).exists():
        pack = load_pack(folder)
        if pack.language != lang or pack.game != game.id:
            raise NarratorError(msg("{folder} holds a '{language}' pack for {pack_game}, not '{lang}' for {game}",
                                    folder=folder, language=pack.language, pack_game=pack.game, lang=lang,
                                    game=game.id))
        return pack
    if folder.exists() and any(folder.iterdir()):
        raise NarratorError(msg("{folder} is not empty and is not a voice pack: choose a new folder", folder=folder))
    pack = VoicePack(folder, name or _("{language} (recorded)").format(language=game.languages[lang].name), lang,
                     game.id, licence, "recorded")
    save_pack(pack)
    return pack


def _check_target(folder: Path, overwrite: bool) -> None:
    if (folder / MANIFEST).exists():
        if load_pack(folder).source == "recorded":
            raise NarratorError(msg("{folder} holds recorded voices; rendering would replace them: choose another "
                                    "folder", folder=folder))
        if not overwrite:
            raise NarratorError(msg("{folder} is already a voice pack: add --overwrite to render it again",
                                    folder=folder))
    elif folder.exists() and any(folder.iterdir()):
        raise NarratorError(msg("{folder} is not empty and is not a voice pack: choose a new folder", folder=folder))
