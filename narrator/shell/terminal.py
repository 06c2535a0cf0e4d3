"""What a terminal can show: its size now, and text fitted to it.

The night's status line and the day's countdown are redrawn in place; both ask for the size at
every redraw, so a window made narrower or wider is followed at once, and both fit every row to
the width, because a row that wraps breaks redrawing in place (each update would scroll).
"""

import os
from collections.abc import Callable
from typing import TextIO

Size = tuple[int, int]  # columns, lines
FALLBACK: Size = (80, 24)


def size_of(out: TextIO) -> Callable[[], Size]:
    """A function giving ``out``'s size now (the fallback when it is not a terminal)."""

    def size() -> Size:
        try:
            columns, lines = os.get_terminal_size(out.fileno())
        except (AttributeError, ValueError, OSError):
            return FALLBACK
        return (columns or FALLBACK[0], lines or FALLBACK[1])

    return size


def fit(text: str, width: int) -> str:
    """``text`` cut to ``width`` characters, with an ellipsis where it was cut."""
    if width <= 0:
        return ""
    return text if len(text) <= width else text[:width - 1] + "…"


def rows_taken(lengths: list[int], width: int) -> int:
    """How many screen rows lines of these lengths take at ``width`` (a terminal reflows long ones)."""
    return sum(max(1, -(-length // max(1, width))) for length in lengths)
