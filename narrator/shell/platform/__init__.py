"""The one place narrate asks which system it runs on.

Windows, macOS and Linux differ in how a key is read, whether the console draws escape codes,
where the user's language is kept, whether an open file can be replaced, what the network's
interfaces are called, which voice the system has and how a package is installed. The modules
of this package each hold one of those differences; the rest of narrate asks them and never
looks at ``os.name`` or ``sys.platform`` itself, and never imports a module only one system has
(``termios``, ``msvcrt``...). So the suite can run the Windows and macOS paths on Linux: its
foreign-platform run sets ``SYSTEM`` before narrate starts (tests/foreign/).
"""

import sys
import time

WINDOWS, MACOS, UNIX = "windows", "macos", "unix"  # unix: Linux and the other free Unixes


def _detect(platform: str = sys.platform) -> str:
    if platform in ("win32", "cygwin"):
        return WINDOWS
    return MACOS if platform == "darwin" else UNIX


SYSTEM = _detect()

# The clock of the speaker box and the day's timer: monotonic, and fine on every system. On
# Windows, time.monotonic ticks in steps of 15.6 ms before Python 3.13 (CPython gh-88494), too
# coarse to keep tablets within a few milliseconds; perf_counter reads the performance counter
# there, and is the same monotonic clock as time.monotonic on Linux and macOS.
clock = time.perf_counter


def windows() -> bool:
    return SYSTEM == WINDOWS


def macos() -> bool:
    return SYSTEM == MACOS


def name() -> str:
    """The system as the user calls it, for messages (Linux, FreeBSD...: as Python names it)."""
    import platform as system  # the standard library's

    return {WINDOWS: "Windows", MACOS: "macOS"}.get(SYSTEM) or system.system()
