"""Everything the command line gets from the outside world, in one object.

Commands receive an ``Environment`` instead of reading ``os.environ``, the clock or the file
system themselves, so that tests hand them a made-up one (see tests/conftest.py).
"""

import os
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

from narrator.core.i18n import Text
from narrator.core.language import language_from_environ
from narrator.games import GAMES_DIR
from narrator.shell import platform
from narrator.shell.folders import user_dir
from narrator.shell.resources import data_dir

if TYPE_CHECKING:
    from narrator.core.game import Game

DEFAULT_GAME = "una-notte-da-lupi"


def _which(name: str) -> str | None:
    import shutil

    return shutil.which(name)


def _fresh_seed() -> int:
    import secrets  # only when a deck is drawn or cards dealt: it loads OpenSSL's hashes

    return secrets.randbelow(1_000_000)


def _sound_problem() -> Text | None:
    from narrator.shell.audio.player import sounddevice_problem

    return sounddevice_problem()


def _system_languages() -> list[str]:
    from narrator.shell.platform.language import system_languages

    return system_languages()


def _speech_engine():
    from narrator.shell.audio.tts import default_engine

    return default_engine()


def _speech_engines():
    from narrator.shell.audio.tts import engines_here

    return engines_here()


def _games_dir(environ: Mapping[str, str]) -> Path:
    """The shipped games, or the folder of game folders ``NARRATOR_GAMES`` names: a game being
    written is played from its own folder, without touching the installed ones."""
    given = environ.get("NARRATOR_GAMES", "").strip()
    return Path(given).expanduser() if given else GAMES_DIR


@dataclass
class Environment:
    environ: Mapping[str, str] = field(default_factory=lambda: dict(os.environ))
    games_dir: Path = field(default_factory=lambda: _games_dir(os.environ))  # where the games are found
    game_id: str = DEFAULT_GAME
    game_given: bool = False  # --game was on the command line (a votes file's game: must then agree)
    new_seed: Callable[[], int] = lambda: _fresh_seed()
    voices_dir: Path = field(default_factory=lambda: data_dir("voices"))  # the packs narrator ships
    cache_dir: Path = field(default_factory=lambda: user_dir("cache"))
    data_home: Path = field(default_factory=lambda: user_dir("data"))  # the user's own packs live here
    config_dir: Path = field(default_factory=lambda: user_dir("config"))  # remembered player names
    speech_engine: Callable[[], Any] | None = _speech_engine  # a factory; None means no text-to-speech
    speech_engines: Callable[[], Mapping[str, Callable[[], Any]]] = _speech_engines  # every engine, by name
    player: Callable[..., Any] | None = None  # a factory for tests; None means choose the best one
    sound_problem: Callable[[], Text | None] = _sound_problem  # why PortAudio cannot play here, or None
    which: Callable[[str], str | None] = _which  # finds the command-line players
    recorder: Callable[[], Any] | None = None  # a factory for tests; None means the microphone
    speaker: Callable[..., Any] | None = None  # a factory for tests; None means the best one here
    clock: Callable[[], float] = platform.clock  # the day's and the speaker box's clock: never the wall clock
    now: Callable[[], float] = time.time  # the wall clock: when a saved game was started, for its file's name
    sleep: Callable[[float], None] = time.sleep
    system_languages: Callable[[], list[str]] = _system_languages  # where no locale variable names a language

    @cached_property
    def game(self) -> "Game":
        """The game's catalog and scripts, loaded and validated once per run."""
        from narrator.games.loader import load_game

        return load_game(self.games_dir / self.game_id)

    def use_game(self, game_id: str) -> None:
        """Narrate another game from now on (``--game``)."""
        if game_id == self.game_id:
            return
        self.game_id = game_id
        for cached in ("game", "_default_language"):  # they were the other game's
            self.__dict__.pop(cached, None)

    def game_language_ids(self) -> tuple[str, ...]:
        """The languages the game narrates in, known without loading the game."""
        from narrator.games.summary import language_ids

        return language_ids(self.games_dir / self.game_id)

    def default_language(self) -> str:
        """The locale's language if the game speaks it, else the game's own, else its first."""
        return self._default_language

    @cached_property
    def _default_language(self) -> str:
        # Asked before the game is loaded (the interface's language), then by every command: the
        # game's file is read for it once, and not at all once the game is loaded.
        if "game" in self.__dict__:
            fallback = self.game.default_language
        else:
            from narrator.games.summary import default_language

            fallback = default_language(self.games_dir / self.game_id)
        ids = self.game_language_ids()
        return language_from_environ(self.environ, ids, fallback or (ids[0] if ids else ""), self.system_languages)

    def nights_dir(self) -> Path:
        """Where a night goes when nothing here can play it (never the working folder unasked)."""
        return self.data_home / "nights"

    def user_packs_dir(self) -> Path:
        return self.data_home / "voices"

    def voice_pack_folders(self) -> list[Path]:
        """Where voice packs are looked for: the shipped ones first, then the user's."""
        return [self.voices_dir, self.user_packs_dir()]
