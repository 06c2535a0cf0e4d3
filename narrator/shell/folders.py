"""The user's own folders for narrator: cache, data and configuration.

On Linux and the other free Unixes these are the XDG base directories, read here directly: the
rule is three environment variables and their defaults, and importing platformdirs (with
pathlib's and tempfile's share) cost a quick command a tenth of its start-up. Elsewhere
(macOS, Windows) platformdirs knows the system's conventions.
"""

import os
import sys
from collections.abc import Mapping
from pathlib import Path

APP = "narrator"
XDG = {"cache": ("XDG_CACHE_HOME", ".cache"), "data": ("XDG_DATA_HOME", ".local/share"),
       "config": ("XDG_CONFIG_HOME", ".config"), "state": ("XDG_STATE_HOME", ".local/state")}


def user_dir(kind: str, environ: Mapping[str, str] = os.environ, platform: str = sys.platform) -> Path:
    """The folder of ``kind`` ("cache", "data", "config" or "state") that narrator keeps for the user."""
    if platform in ("darwin", "win32", "cygwin") or platform.startswith("android"):
        import platformdirs

        return Path(getattr(platformdirs, f"user_{kind}_dir")(APP))
    variable, default = XDG[kind]
    base = environ.get(variable, "")
    if not os.path.isabs(base):  # unset, blank or relative: the default, as the XDG rule says
        base = os.path.join(_home(environ), default)
    return Path(base) / APP


def _home(environ: Mapping[str, str]) -> str:
    """$HOME when it is an absolute path, else the home the password database gives."""
    home = environ.get("HOME", "")
    if os.path.isabs(home):
        return home
    import pwd

    return pwd.getpwuid(os.getuid()).pw_dir
