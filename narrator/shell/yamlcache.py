"""Parsed YAML kept in the user's cache between runs (see ``narrator.games.yamlfile``).

A game is a few YAML files and each voice pack has a manifest: parsing them (and importing
PyYAML) was most of a quick command's time. Each file's data is kept under the digest of its
bytes, in the standard library's ``marshal`` form; a cache that cannot be written or read only
means parsing again.
"""

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from narrator.games import yamlfile


class FolderStore:
    """Blobs by key, one file each in ``folder``."""

    def __init__(self, folder: Path):
        self.folder = folder

    def get(self, key: str) -> bytes | None:
        try:
            return (self.folder / key).read_bytes()
        except OSError:
            return None

    def put(self, key: str, blob: bytes) -> None:
        from narrator.shell.files import write_atomically

        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            write_atomically(self.folder / key, lambda temporary: temporary.write_bytes(blob))
        except Exception:  # a full or read-only cache costs time, never the game
            pass


@contextmanager
def parsed_yaml_kept(cache_dir: Path) -> Iterator[None]:
    """YAML files kept parsed in ``cache_dir`` while a run lasts; as before afterwards."""
    previous = yamlfile.keep_parsed(FolderStore(cache_dir / "yaml"))
    try:
        yield
    finally:
        yamlfile.keep_parsed(previous)
