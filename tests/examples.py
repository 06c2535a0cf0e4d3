"""The example games of scripts/README.md ("The smallest game of one night", "The smallest game of
many nights"), read from its code blocks: a block whose first line is a comment naming FOLDER/FILE
is that file of that game. The tests load them as games, so that the README's examples stay
complete, and run the checks meant for every game on them too (a game's card may be short)."""

import re
import tempfile
from pathlib import Path

from narrator.games.loader import load_game

README = Path(__file__).resolve().parent.parent / "scripts" / "README.md"
_BLOCK = re.compile(r"^```(?:yaml|python)\n# ([a-z0-9-]+)/([a-z]+\.(?:yaml|py))\n(.*?)^```$", re.M | re.S)


def example_files() -> dict[str, dict[str, str]]:
    """Game id: {file name: its text}, as the README shows them."""
    games: dict[str, dict[str, str]] = {}
    for folder, name, body in _BLOCK.findall(README.read_text(encoding="utf-8")):
        games.setdefault(folder, {})[name] = f"# {folder}/{name}\n{body}"
    return games


def write_examples(target: Path) -> Path:
    """The example games written as folders in ``target`` (a scripts folder of their own)."""
    for folder, files in example_files().items():
        (target / folder).mkdir(parents=True, exist_ok=True)
        for name, text in files.items():
            (target / folder / name).write_text(text, encoding="utf-8")
    return target


def load_examples() -> dict:
    """Game id: the example game, loaded from a folder that is gone once they are (a loaded game
    reads no file again)."""
    with tempfile.TemporaryDirectory(prefix="readme-games-") as folder:
        written = write_examples(Path(folder))
        return {game_id: load_game(written / game_id) for game_id in example_files()}
