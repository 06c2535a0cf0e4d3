"""What a game folder says about itself, read without loading the game: the games there are, a
game's languages, its own language and its range of players.

Every command asks these at start (the interface's language) and ``--help`` shows the players;
``narrator.games.loader``, which reads and validates the whole game, is left to the command that
needs the game.
"""

from pathlib import Path

from narrator.core.errors import NarratorError
from narrator.games.yamlfile import read_yaml

GAME_FILE = "game.yaml"


def available_games(games_dir: Path) -> tuple[str, ...]:
    return tuple(sorted(p.parent.name for p in games_dir.glob(f"*/{GAME_FILE}")))


def language_ids(folder: Path) -> tuple[str, ...]:
    """The languages a game folder narrates in (one file each beside game.yaml), without reading them."""
    return tuple(sorted(path.stem for path in folder.glob("*.yaml") if path.name != GAME_FILE))


def default_language(folder: Path) -> str | None:
    """The language a game narrates in when the locale names none of its own (game.yaml's
    ``language``); None when it names none or cannot be read."""
    language = _game_file(folder).get("language")
    return language if isinstance(language, str) and language in language_ids(folder) else None


def players_range(folder: Path) -> tuple[int, int] | None:
    """The fewest and most players (game.yaml's ``players``); None when it cannot be read as
    two whole numbers (the loader says what is wrong, when the game is played)."""
    players = _game_file(folder).get("players")
    low, high = (players.get("min"), players.get("max")) if isinstance(players, dict) else (None, None)
    if type(low) is not int or type(high) is not int or not 1 <= low <= high:
        return None
    return low, high


def _game_file(folder: Path) -> dict:
    """game.yaml's data, read once for as long as the file is the same (every start asks twice)."""
    path = folder / GAME_FILE
    try:
        status = path.stat()
        key = (str(path), status.st_mtime_ns, status.st_size, status.st_ino)
    except (OSError, ValueError):
        return {}
    if key not in _READ:
        try:
            data = read_yaml(path)
        except NarratorError:
            data = None
        _READ[key] = data if isinstance(data, dict) else {}
    return _READ[key]


_READ: dict[tuple, dict] = {}
