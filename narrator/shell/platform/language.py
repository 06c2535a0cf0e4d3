"""The user's languages as the system keeps them, for when no locale variable names one.

On Linux the locale variables (LANG and the rest) are the user's choice, and nothing else is. A
Windows terminal has none, and a macOS terminal may have none: there the system is asked, for
the languages of its display, best first.
"""

import re
import subprocess

from narrator.shell import platform

_MACOS_LANGUAGE = re.compile(r"[A-Za-z]{2,3}(?:[-_][A-Za-z0-9]+)*")


def system_languages() -> list[str]:
    """Language tags ("it-IT", "en") the system's display is set to, best first; empty when unknown."""
    if platform.windows():
        from narrator.shell.platform import win32

        return win32.ui_languages()
    if platform.macos():
        return macos_languages()
    return []


def macos_languages() -> list[str]:
    """macOS' preferred languages (System Settings › General › Language & Region), by ``defaults``."""
    try:
        result = subprocess.run(["defaults", "read", "-g", "AppleLanguages"], capture_output=True, text=True,
                                timeout=5)
    except (OSError, subprocess.SubprocessError):
        return []
    if result.returncode != 0:
        return []
    return _MACOS_LANGUAGE.findall(result.stdout)
