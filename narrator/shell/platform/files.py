"""Files as each system treats them: replacing one, making a rename durable, the home folder.

On Windows a file another program holds open (a card open in a PDF reader, a night open in a
player, a save an antivirus is scanning) cannot be replaced for as long as it is held: the
rename is tried again for a couple of seconds, and then the user is told which program to close.
"""

import os
import time
from collections.abc import Callable
from pathlib import Path

from narrator.shell import platform

WAITS = (0.05, 0.1, 0.2, 0.4, 0.6, 0.8)  # seconds between tries: about two seconds in all
SHARING_VIOLATION, LOCK_VIOLATION, ACCESS_DENIED = 32, 33, 5


class HeldOpen(OSError):
    """Windows refused to replace a file another program holds open; ``programs`` names them
    where Windows can tell."""

    def __init__(self, error: OSError, programs: list[str]):
        super().__init__(error.errno, error.strerror, error.filename)
        self.programs = programs


def private(path: str | Path, folder: bool = False) -> None:
    """Only the user may read or change ``path``: 0600 for a file, 0700 for a folder on POSIX. On
    Windows a user's profile folders (where narrate keeps its data) are the user's alone already,
    and a mode there sets only the read-only flag: nothing is done."""
    if not platform.windows():
        os.chmod(path, 0o700 if folder else 0o600)


def replace(source: str | Path, target: str | Path, sleep: Callable[[float], None] = time.sleep) -> None:
    """``os.replace``, patient where another program may hold ``target`` open (Windows); then
    ``HeldOpen``, with the programs that hold it."""
    if not platform.windows():
        os.replace(source, target)
        return
    for wait in (*WAITS, None):
        try:
            os.replace(source, target)
            return
        except PermissionError as error:
            if getattr(error, "winerror", None) not in (SHARING_VIOLATION, LOCK_VIOLATION, ACCESS_DENIED):
                raise
            if wait is None:
                from narrator.shell.platform import win32

                raise HeldOpen(error, win32.holders(str(target))) from None
            sleep(wait)


def sync_folder(folder: Path) -> None:
    """Make a rename in ``folder`` durable (POSIX); Windows has no folder handles to sync."""
    if platform.windows():
        return
    descriptor = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)


def home(environ) -> str:
    """The user's home folder: $HOME when it is an absolute path, else the system's own record."""
    given = environ.get("HOME", "")
    if os.path.isabs(given):
        return given
    if platform.windows():
        return os.path.expanduser("~")
    import pwd

    return pwd.getpwuid(os.getuid()).pw_dir


def plain_path(path: Path, environ=os.environ) -> Path | None:
    """``path``, or another name for the same folder made of ASCII only, for a library that opens
    its files with the C library's ``fopen``: on Windows that reads a name in the ANSI code page,
    and a user folder such as ``C:\\Users\\Niccolò`` does not survive it. The 8.3 short name first;
    where the volume keeps none, a copy in ProgramData. None when there is no such name."""
    if not platform.windows() or str(path).isascii():
        return path
    from narrator.shell.platform import win32

    short = win32.short_path(str(path))
    if short and short.isascii():
        return Path(short)
    shared = environ.get("ProgramData", "")
    if not shared or not shared.isascii():
        return None
    import hashlib
    import shutil

    copy = Path(shared) / "narrator" / hashlib.sha256(str(path).encode()).hexdigest()[:12] / path.name
    try:
        if not copy.is_dir():
            staging = copy.with_name(copy.name + ".partial")
            shutil.rmtree(staging, ignore_errors=True)
            shutil.copytree(path, staging)
            os.replace(staging, copy)
    except OSError:
        return None
    return copy
