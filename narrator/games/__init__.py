"""The games narrator plays: one folder each, beside this file, found by id.

A game is its data (``game.yaml`` and one ``<lang>.yaml`` per language, see README.md here) and,
only where data cannot say it, a ``rules.py`` beside them (see ``narrator.games.rules``).
``narrator.games.loader`` reads and validates a folder once.
"""

from pathlib import Path

GAMES_DIR = Path(__file__).resolve().parent  # the games shipped with narrator
