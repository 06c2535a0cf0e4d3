"""Writing files so that nothing the user has is ever half-written or lost.

Everything narrate writes (a night, a clip, a voice pack's manifest, the players' names, a card)
goes to a temporary file beside its target and is renamed into place only when complete: a crash
or a full disk leaves the old file, or none, never half of one.
"""

import os
import tempfile
from collections.abc import Callable
from pathlib import Path

from narrator.errors import NarratorError


def file_mode() -> int:
    """The mode a new file gets from the user's umask (mkstemp's own 0600 would hide it)."""
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


def write_atomically(path: Path, write: Callable[[Path], None]) -> None:
    """Call ``write`` on a temporary path beside ``path``, then rename the result into place."""
    if not path.parent.is_dir():
        raise NarratorError(f"{path}: the folder {path.parent} does not exist")
    try:
        descriptor, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.stem}.", suffix=path.suffix)
    except OSError as error:
        raise NarratorError(f"{path}: cannot write here ({error.strerror})") from None
    os.close(descriptor)
    try:
        write(Path(temporary))
        os.chmod(temporary, file_mode())
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
