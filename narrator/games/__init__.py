"""The games narrator plays are folders, one per game id, in the top-level ``scripts/`` (beside
``voices/`` and ``ambience/``; inside a built wheel, ``narrator/_data/scripts``): the game's
narration script as data (``game.yaml`` and one ``<lang>.yaml`` per language) and its
``rules.py``. ``scripts/README.md`` says what a folder holds; ``narrator.games.loader`` reads and
validates one once.
"""

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent.parent  # narrator/
# The wheel's copy first, else the checkout's (an editable install or the source tree).
GAMES_DIR = next((folder for folder in (_PACKAGE / "_data" / "scripts", _PACKAGE.parent / "scripts")
                  if folder.is_dir()), _PACKAGE.parent / "scripts")
