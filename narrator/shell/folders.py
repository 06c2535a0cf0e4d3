"""The user's own folders for narrator: cache, data and configuration.

On Linux and the other free Unixes these are the XDG base directories, read here directly: the
rule is three environment variables and their defaults, and importing platformdirs (with
pathlib's and tempfile's share) cost a quick command a tenth of its start-up. Elsewhere
(macOS, Windows) platformdirs knows the system's conventions.
"""

import os
from collections.abc import Mapping
from pathlib import Path

from narrator.shell import platform
from narrator.shell.platform.files import home

APP = "narrator"
XDG = {"cache": ("XDG_CACHE_HOME", ".cache"), "data": ("XDG_DATA_HOME", ".local/share"),
       "config": ("XDG_CONFIG_HOME", ".config"), "state": ("XDG_STATE_HOME", ".local/state")}


def user_dir(kind: str, environ: Mapping[str, str] = os.environ) -> Path:
    """The folder of ``kind`` ("cache", "data", "config" or "state") that narrator keeps for the user."""
    if platform.windows() or platform.macos():
        import platformdirs

        # appauthor=False: on Windows the folder is AppData\Local\narrator, not narrator\narrator
        return Path(getattr(platformdirs, f"user_{kind}_dir")(APP, appauthor=False))
    variable, default = XDG[kind]
    base = environ.get(variable, "")
    if not os.path.isabs(base):  # unset, blank or relative: the default, as the XDG rule says
        base = os.path.join(home(environ), default)
    return Path(base) / APP
