"""Everything the command line gets from the outside world, in one object.

Commands receive an ``Environment`` instead of reading ``os.environ``, the clock or the file
system themselves, so that tests hand them a made-up one (see tests/conftest.py).
"""

import os
import secrets
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

from narrator.game import Game
from narrator.language import language_from_environ
from narrator.resources import data_dir

DEFAULT_GAME = "una-notte-da-lupi"


@dataclass
class Environment:
    environ: Mapping[str, str] = field(default_factory=lambda: dict(os.environ))
    scripts_dir: Path = field(default_factory=lambda: data_dir("scripts"))
    game_id: str = DEFAULT_GAME
    new_seed: Callable[[], int] = lambda: secrets.randbelow(1_000_000)

    @cached_property
    def game(self) -> Game:
        """The game's catalog and scripts, loaded and validated once per run."""
        from narrator.loader import load_game

        return load_game(self.scripts_dir / self.game_id)

    def default_language(self) -> str:
        return language_from_environ(self.environ, self.game.languages)
