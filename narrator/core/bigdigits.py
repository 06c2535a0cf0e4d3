"""Large digits for a countdown readable from across the table."""

_FONT = {
    "0": ["█████", "█   █", "█   █", "█   █", "█████"],
    "1": ["   █ ", "  ██ ", "   █ ", "   █ ", "  ███"],
    "2": ["█████", "    █", "█████", "█    ", "█████"],
    "3": ["█████", "    █", " ████", "    █", "█████"],
    "4": ["█   █", "█   █", "█████", "    █", "    █"],
    "5": ["█████", "█    ", "█████", "    █", "█████"],
    "6": ["█████", "█    ", "█████", "█   █", "█████"],
    "7": ["█████", "    █", "   █ ", "  █  ", "  █  "],
    "8": ["█████", "█   █", "█████", "█   █", "█████"],
    "9": ["█████", "█   █", "█████", "    █", "█████"],
    ":": ["  ", "██", "  ", "██", "  "],
}


HEIGHT = 5  # rows of a digit at scale 1


def big(text: str, scale: int = 1) -> list[str]:
    """``"4:59"`` as rows of block characters: five at scale 1, each dot ``scale`` wide and high."""
    rows = ["  ".join(_FONT[char][row] for char in text) for row in range(HEIGHT)]
    wide = ["".join(dot * scale for dot in row) for row in rows]
    return [row for row in wide for _copy in range(scale)]


def big_width(text: str, scale: int = 1) -> int:
    """How many columns ``big(text, scale)`` takes."""
    return (sum(len(_FONT[char][0]) for char in text) + 2 * (len(text) - 1)) * scale


def clock_face(seconds: float) -> str:
    """Whole seconds left, rounded up, as ``M:SS``: a timer at 0.2 s left still shows 0:01."""
    from narrator.core.views import minutes

    return minutes(-(-seconds // 1))
