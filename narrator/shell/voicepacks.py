"""Voice packs: a folder of recorded lines, one audio file per line key, and a manifest.

``pack.yaml`` says the pack's name, language, game and licence, and for every clip the text it
speaks and how long its sound lasts. The durations let ``narrate script`` show real start times
without loading any audio library; the texts tell when a pack no longer matches the script.
This module reads and writes manifests only; audio is in ``narrator.shell.audio.packs``.
"""

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType

from narrator.core.errors import DataError, NarratorError
from narrator.core.fields import Field
from narrator.core.i18n import N_, msg
from narrator.games.yamlfile import read_yaml
from narrator.shell.files import write_atomically

MANIFEST = "pack.yaml"
AUDIO_SUFFIXES = (".ogg", ".flac", ".wav")
SOURCES = ("tts", "recorded")
SOURCE_NAMES = {"tts": N_("text-to-speech"), "recorded": N_("recorded")}  # as people read them


@dataclass(frozen=True)
class PackClip:
    text: str
    seconds: float


@dataclass(frozen=True)
class VoicePack:
    folder: Path
    name: str
    language: str
    game: str
    licence: str
    source: str
    clips: Mapping[str, PackClip] = field(default_factory=lambda: MappingProxyType({}))

    def file(self, key: str) -> Path | None:
        """The audio file of line ``key``, if the pack has it."""
        if key not in self.clips:
            return None
        for suffix in AUDIO_SUFFIXES:
            path = self.folder / f"{key}{suffix}"
            if path.exists():
                return path
        return None


def load_pack(folder: Path) -> VoicePack:
    path = folder / MANIFEST
    if not path.exists():
        raise NarratorError(msg("{folder}: not a voice pack (no {manifest}); make one with 'narrate voices render' "
                                "or 'narrate voices record'", folder=folder, manifest=MANIFEST))
    root = Field(str(path), "", read_yaml(path))
    root.keys_within({"name", "language", "game", "licence", "source", "clips"})
    clips = {}
    for key, entry in root.get("clips", {}).items():
        entry.keys_within({"text", "seconds"})
        clips[key] = PackClip(entry.get("text").text(), entry.get("seconds").number())
    return VoicePack(
        folder=folder,
        name=root.get("name").text(),
        language=root.get("language").text(),
        game=root.get("game").text(),
        licence=root.get("licence").text(),
        source=root.get("source").choice(SOURCES),
        clips=MappingProxyType(clips),
    )


def save_pack(pack: VoicePack) -> None:
    """Write the manifest, atomically (never half-written)."""
    import yaml

    data = {
        "name": pack.name, "language": pack.language, "game": pack.game, "licence": pack.licence,
        "source": pack.source,
        "clips": {key: {"text": clip.text, "seconds": round(clip.seconds, 3)} for key, clip in pack.clips.items()},
    }
    pack.folder.mkdir(parents=True, exist_ok=True)
    write_atomically(pack.folder / MANIFEST, lambda temporary: temporary.write_text(
        yaml.safe_dump(data, allow_unicode=True, sort_keys=False, width=200), encoding="utf-8"))


def find_packs(folders: list[Path]) -> list[VoicePack]:
    """Every readable pack directly inside ``folders`` (a broken one is skipped, not fatal)."""
    return list(_each_pack(folders))


def _each_pack(folders: list[Path]) -> Iterator[VoicePack]:
    """The packs of ``find_packs``, read one at a time as they are asked for."""
    for folder in folders:
        if not folder.is_dir():
            continue
        for manifest in sorted(folder.glob(f"*/{MANIFEST}")):
            try:
                yield load_pack(manifest.parent)
            except (DataError, NarratorError):
                continue


def resolve_pack(choice: str, folders: list[Path], game_id: str) -> VoicePack:
    """A pack of the game ``game_id`` by folder path, or by the name of its folder inside one of ``folders``."""
    path = Path(choice).expanduser()
    for candidate in (path, *(folder / choice for folder in folders)):
        if _has_manifest(candidate):
            pack = load_pack(candidate)
            if pack.game != game_id:
                raise NarratorError(msg("voice pack '{pack}' speaks the lines of '{pack_game}', not of '{game}': "
                                        "add --game {pack_game} or choose another pack", pack=pack.name,
                                        pack_game=pack.game, game=game_id))
            return pack
    known = ", ".join(pack.folder.name for pack in find_packs(folders) if pack.game == game_id)
    if not known:
        raise NarratorError(msg("no voice pack '{pack}' (none made yet); 'narrate voices render' or 'narrate voices "
                                "record' makes one", pack=choice))
    raise NarratorError(msg("no voice pack '{pack}' (known: {known}); 'narrate voices list' shows them", pack=choice,
                            known=known))


def _has_manifest(folder: Path) -> bool:
    try:
        return (folder / MANIFEST).exists()
    except (OSError, ValueError):  # a name longer than the system allows, or with a NUL in it
        return False


def default_pack(lang: str, game_id: str, folders: list[Path]) -> VoicePack | None:
    """The first pack (shipped packs come first) for this language and game."""
    return next((pack for pack in _each_pack(folders) if pack.language == lang and pack.game == game_id), None)
