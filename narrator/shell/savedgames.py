"""Games of many nights on disk: one JSON file per game in the data folder, rewritten whole and
atomically after every entry, so that a crash, a closed lid or Ctrl-C loses nothing entered.

A file holds the game's id, the narration's language, the options the game was started with
(so that a resumed game sounds the same), its setup and its entries (``narrator.core.rounds``),
and, for a game served to tablets, the tokens of its pages (``tokens``: the laptop's controls and
the moderator's console), so that a phone or a controls page open when narrate stopped comes back
to the resumed game by itself.
"""

import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from narrator.core.errors import NarratorError
from narrator.core.i18n import Text, msg, os_reason
from narrator.core.rounds import Setup, setup_as_dict, setup_from_dict
from narrator.shell.files import HeldOpenError, write_atomically
from narrator.shell.platform.files import private as keep_private
from narrator.shell.platform.hints import read_only as read_only_hint

FORMAT = 1
RETRY_WAITS = (0.1, 0.5)  # seconds between the tries of a save during play (a moment frees files, say)
FOLDER = "games"
TOKENS = ("controls", "moderator")  # the pages of the speaker box that need a token


@dataclass
class SavedGame:
    path: Path
    game_id: str
    lang: str
    options: dict  # the command line's options that shape the narration (see shell/cli/rounds.py)
    setup: Setup
    entries: list = field(default_factory=list)
    over: bool = False
    tokens: dict | None = None  # {page: token} once the game has been served to tablets

    def save(self) -> None:
        data = {"format": FORMAT, "game": self.game_id, "lang": self.lang, "options": self.options,
                "setup": setup_as_dict(self.setup), "entries": self.entries, "over": self.over}
        if self.tokens is not None:
            data["tokens"] = self.tokens
        text = json.dumps(data, ensure_ascii=False, indent=1)
        self.check_writable()
        new = [folder for folder in (self.path.parent, *self.path.parent.parents) if not folder.exists()]
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            for folder in new:  # the folders made for the games (the data folder, its games): the user's alone
                keep_private(folder, folder=True)
        except OSError as error:
            raise NarratorError(msg("cannot keep the game in {folder} ({reason})", folder=self.path.parent,
                                    reason=os_reason(error))) from None
        # every card and the pages' tokens: the file is the user's alone
        write_atomically(self.path, lambda temporary: temporary.write_text(text, encoding="utf-8"), private=True)
        self._sweep_stale()

    def _sweep_stale(self) -> None:
        """Remove the writes a killed narrate cut short (this game has one writer). The game is
        saved whole already: a folder that cannot be listed now (out of files, say) is swept by the
        next save."""
        try:
            for stale in self.path.parent.glob(f".{self.path.stem}.*{self.path.suffix}"):
                stale.unlink(missing_ok=True)
        except OSError:
            pass

    def keep(self, warn: Callable[[NarratorError], object], sleep: Callable[[float], None] = time.sleep) -> bool:
        """Save during play, never at the cost of the game: a save that fails is tried again a
        moment later (the laptop short of open files, say, frees some), then ``warn``-ed about, and
        the game goes on; the next answer saves it all again. A file held open on Windows was waited
        for already, and is not tried again here. False when this one failed."""
        for wait in (*RETRY_WAITS, None):
            try:
                self.save()
                return True
            except NarratorError as error:
                failed = error
            except OSError as error:  # whatever the save met that write_atomically does not word
                failed = NarratorError(msg("cannot keep the game in {folder} ({reason})", folder=self.path.parent,
                                           reason=os_reason(error)))
            if wait is None or isinstance(failed, HeldOpenError):
                break
            sleep(wait)
        warn(failed)
        return False

    def check_writable(self) -> None:
        """A game whose file is read-only cannot go on: said before anything is asked."""
        try:
            read_only = not self.path.stat().st_mode & 0o222
        except OSError:
            read_only = False  # a new game, or one the write will name
        if read_only:
            raise NarratorError(read_only_hint(self.path))


def new_game_path(folder: Path, game_id: str, now: float) -> Path:
    """A file of its own for a game started at ``now`` (never one already there)."""
    stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(now))
    path = folder / f"{game_id}-{stamp}.json"
    number = 2
    while path.exists():
        path = folder / f"{game_id}-{stamp}-{number}.json"
        number += 1
    return path


def load(path: Path) -> SavedGame:
    """A saved game; one line naming the file when it cannot be read or is not a game."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as error:
        raise NarratorError(msg("{file}: cannot read it ({reason})", file=path, reason=os_reason(error))) from None
    except (ValueError, RecursionError):
        raise NarratorError(msg("{file}: not a saved game (it is not JSON)", file=path)) from None
    keys = {"format", "game", "lang", "options", "setup", "entries", "over"}
    if not isinstance(data, dict) or set(data) - {"tokens"} != keys or data["format"] != FORMAT:
        raise NarratorError(msg("{file}: not a game saved by this narrate", file=path))
    tokens = data.get("tokens")
    if not (isinstance(data["game"], str) and isinstance(data["lang"], str) and isinstance(data["options"], dict)
            and isinstance(data["entries"], list) and isinstance(data["over"], bool)
            and (tokens is None or isinstance(tokens, dict) and sorted(tokens) == sorted(TOKENS)
                 and all(isinstance(token, str) and token for token in tokens.values()))):
        raise NarratorError(msg("{file}: not a game saved by this narrate", file=path))
    try:
        setup = setup_from_dict(data["setup"])
    except NarratorError as error:
        raise NarratorError(msg("{file}: {error}", file=path, error=error.message)) from None
    return SavedGame(path, data["game"], data["lang"], data["options"], setup, data["entries"], data["over"], tokens)


def unfinished(folder: Path) -> list[Path]:
    """The saved games not yet over, newest first (by when each was last saved)."""
    return [path for path, problem in saved_games(folder) if problem is None]


def saved_games(folder: Path) -> list[tuple[Path, Text | None]]:
    """Every file of the games folder but the finished games, newest first, each with why it
    cannot be resumed (None: it can): a file that cannot be read or is not a game is kept in the
    list, so that it is named rather than passed over in silence."""
    found = []
    for path in folder.glob("*.json") if folder.is_dir() else ():
        if path.name.startswith("."):  # a save being written, or one a killed narrate left unfinished
            continue
        problem = None
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            if not isinstance(data, dict) or data.get("format") != FORMAT:
                problem = msg("not a game saved by this narrate")
            elif data.get("over") is not False:
                continue
        except OSError as error:
            problem = msg("cannot read it ({reason})", reason=os_reason(error))
        except (ValueError, RecursionError):
            problem = msg("not a saved game (it is not JSON)")
        try:
            when = path.stat().st_mtime_ns
        except OSError:
            when = 0
        found.append((when, path.name, path, problem))
    return [(path, problem) for _mtime, _name, path, problem in sorted(found, reverse=True)]
