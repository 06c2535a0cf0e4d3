"""Rendered speech kept on disk, so that the second game starts at once.

Keyed by engine, voice, rate and text; written to a temporary file and renamed, so a crash
half-way never leaves a broken clip behind. A clip that cannot be read is dropped and rendered again.
"""

import hashlib
import json
from pathlib import Path

from narrator.core.errors import NarratorError
from narrator.shell.audio.clip import Clip, read_clip, write_clip


class ClipCache:
    def __init__(self, folder: Path):
        self.folder = folder

    @staticmethod
    def key(*parts: object) -> str:
        return hashlib.sha256(json.dumps(parts, ensure_ascii=False).encode()).hexdigest()[:32]

    def path(self, key: str) -> Path:
        return self.folder / key[:2] / f"{key}.wav"

    def get(self, key: str) -> Clip | None:
        path = self.path(key)
        if not path.exists():
            return None
        try:
            return read_clip(path)
        except NarratorError:
            path.unlink(missing_ok=True)
            return None

    def put(self, key: str, clip: Clip) -> None:
        """Keep ``clip``; if the disk is full or the folder unwritable, go on without keeping it.

        The cache only saves time: failing to fill it costs the next game its head start, never this one.
        """
        try:
            write_clip(clip, self.path(key), subtype="FLOAT")
        except (NarratorError, OSError):
            pass
