"""What a terminal draws: the escape codes narrate writes (only here), and whether it may.

The night's status line, the day's countdown and the recording meter are redrawn in place with
ANSI escape codes. Every terminal on Linux and macOS draws them, and so do Windows Terminal and
the console of Windows 10 and later once asked (``SetConsoleMode``); an older console, or one
that refuses, would print them as text (``←[J``) and scroll a screen a second, so there the
screens write a plain line per event, as they do into a file.
"""

from narrator.shell import platform
from narrator.shell.platform.keyboard import is_terminal

CLEAR_TO_END_OF_LINE = "\x1b[K"
_drawing: dict[int, bool] = {}  # by file descriptor: asked once


def draws(stream) -> bool:
    """Whether ``stream`` is a terminal that draws escape codes (on Windows: turned on now)."""
    if not is_terminal(stream):
        return False
    if not platform.windows():
        return True
    descriptor = stream.fileno()
    if descriptor not in _drawing:
        from narrator.shell.platform import win32

        _drawing[descriptor] = win32.escape_codes_on(descriptor)
    return _drawing[descriptor]


def redraw(rows_up: int) -> str:
    """Back to the first row of what was drawn ``rows_up`` rows above, and everything below it cleared."""
    return (f"\x1b[{rows_up}A" if rows_up else "") + "\r\x1b[J"


def erase_line() -> str:
    """Back to the start of the row, cleared."""
    return "\r" + CLEAR_TO_END_OF_LINE


def marks() -> tuple[str, str, str]:
    """Playing, paused, stopping: characters the console's font has. Windows' console fonts
    (Consolas, Lucida Console) have no ▶ or ❚ and show a box; they have ► and ■."""
    return ("►", "||", "■") if platform.windows() else ("▶", "❚❚", "■")


DARK, LIGHT = 16, 231  # the 256-colour palette's own black and white, which no theme recolours


def qr_code(modules: list[list[bool]], stream) -> str:
    """A QR code's rows of modules (True: dark) as text for ``stream``, two rows a line.

    Where the terminal draws colours, each half block gets both of its colours explicitly, so
    the code reads the same on a dark terminal and on a light one (a light one, Terminal.app's
    default, shows a plain code inverted, and phones may not read it). Elsewhere (a file, an old
    Windows console) the plain half blocks, which assume light text on a dark background.
    """
    pairs = [(modules[row], modules[row + 1] if row + 1 < len(modules) else [False] * len(modules[row]))
             for row in range(0, len(modules), 2)]
    if not draws(stream):
        blocks = {(False, False): "█", (False, True): "▀", (True, False): "▄", (True, True): " "}
        return "\n".join("".join(blocks[pair] for pair in zip(top, bottom, strict=True)) for top, bottom in pairs)
    lines = []
    for top, bottom in pairs:
        line, last = [], None
        for upper, lower in zip(top, bottom, strict=True):
            colours = (DARK if upper else LIGHT, DARK if lower else LIGHT)
            if colours != last:
                line.append(f"\x1b[38;5;{colours[0]};48;5;{colours[1]}m")
                last = colours
            line.append("▀")
        lines.append("".join(line) + "\x1b[0m")
    return "\n".join(lines)
