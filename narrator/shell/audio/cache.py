"""Rendered speech kept on disk, so that the second game starts at once.

Clips are keyed by engine, voice, rate and text; the loudness gain of a prepared line by its
samples (measuring loudness means importing scipy, a second's work this keeps out of every game
after the first). Everything is written to a temporary file and renamed, so a crash
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

    def gain(self, key: str) -> float | None:
        """A number kept under ``key`` (a line's loudness gain), or None."""
        try:
            value = json.loads(self._number_path(key).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None

    def put_gain(self, key: str, value: float) -> None:
        """Keep a number; like ``put``, a cache that cannot be written costs time, never the game."""
        from narrator.shell.files import write_atomically

        path = self._number_path(key)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            write_atomically(path, lambda temporary: temporary.write_text(json.dumps(value), encoding="utf-8"))
        except (NarratorError, OSError):
            pass

    def _number_path(self, key: str) -> Path:
        return self.folder / "gains" / key[:2] / f"{key}.json"

    def put(self, key: str, clip: Clip) -> None:
        """Keep ``clip``; if the disk is full or the folder unwritable, go on without keeping it.

        The cache only saves time: failing to fill it costs the next game its head start, never this one.
        """
        try:
            write_clip(clip, self.path(key), subtype="FLOAT")
        except (NarratorError, OSError):
            pass
