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


def big(text: str) -> list[str]:
    """``"4:59"`` as five rows of block characters."""
    return ["  ".join(_FONT[char][row] for char in text) for row in range(5)]


def clock_face(seconds: float) -> str:
    """Whole seconds left, rounded up, as ``M:SS``: a timer at 0.2 s left still shows 0:01."""
    from narrator.core.views import minutes

    return minutes(-(-seconds // 1))
