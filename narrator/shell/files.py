"""Writing files so that nothing the user has is ever half-written, lost or replaced by surprise.

Everything narrate writes (a night, a clip, a voice pack's manifest, the players' names, a card)
goes to a temporary file beside its target, is flushed to the disk, and is renamed into place
only when complete: a crash, a signal or a full disk leaves the old file, or none, never half of
one. The target is the user's: a link is written through to the file it points at, an existing
file keeps its mode and owner, and a device, a pipe or a read-only file is refused, not replaced.
"""

import errno
import os
import stat
from collections.abc import Callable
from pathlib import Path

from narrator.core.errors import NarratorError
from narrator.core.i18n import Text, msg, os_reason
from narrator.shell.platform.files import HeldOpen, replace, sync_folder
from narrator.shell.platform.files import private as keep_private
from narrator.shell.signals import signals_held


def _umask() -> int:
    umask = os.umask(0)
    os.umask(umask)
    return umask


def file_mode() -> int:
    """The mode a new file gets from the user's umask (mkstemp's own 0600 would hide it)."""
    return 0o666 & ~_umask()


def folder_mode() -> int:
    """The mode a new folder gets from the user's umask (mkdtemp's own 0700 would hide it)."""
    return 0o777 & ~_umask()


class HeldOpenError(NarratorError):
    """Another program holds the file open, and Windows will not replace it until it lets go."""

    def __init__(self, path: Path, programs: list[str]):
        self.held = (msg("{file} is open in {programs}", file=path, programs=", ".join(programs)) if programs else
                     msg("{file} is open in another program (a PDF reader, a music player?)", file=path))
        super().__init__(msg("{held}: close it there, then try again; nothing was changed", held=self.held))
        self.path, self.programs = path, programs


def write_atomically(path: Path, write: Callable[[Path], object], private: bool = False) -> None:
    """Call ``write`` on a temporary path beside ``path``, then rename the result into place;
    ``private``: readable by the user alone (a saved game holds every card and the pages' tokens)."""
    target = Path(os.path.realpath(path))  # through any links, to the file the user means
    if not target.parent.is_dir():
        raise NarratorError(msg("{file}: the folder {folder} does not exist", file=path, folder=target.parent))
    existing = _existing(target, path)
    temporary = None
    try:
        with signals_held():  # a signal noted while the file is made is raised after, where it is removed
            temporary = _temporary(target, path)
        write(Path(temporary))
        _settle(Path(temporary), existing, private)
        replace(temporary, target)
        sync_folder(target.parent)
    except BaseException as error:
        if temporary is not None:
            Path(temporary).unlink(missing_ok=True)
        if isinstance(error, HeldOpen):
            raise HeldOpenError(path, error.programs) from None
        if isinstance(error, (OSError, RuntimeError)):  # RuntimeError: libsndfile's errors, a full disk among them
            raise NarratorError(msg("{file}: cannot write it ({reason}); nothing was changed", file=path,
                                    reason=_reason(error, target.parent))) from None
        raise


def _temporary(target: Path, given: Path) -> str:
    """A new empty file beside ``target``, hidden, with the target's suffix (formats go by it)."""
    import tempfile  # with random and shutil: only when something is written

    try:
        descriptor, temporary = tempfile.mkstemp(dir=target.parent, prefix=f".{target.stem}.", suffix=target.suffix)
    except OSError as error:
        raise NarratorError(msg("{file}: cannot write here ({reason})", file=given, reason=os_reason(error))) from None
    os.close(descriptor)
    return temporary


def _reason(error: BaseException, folder: Path) -> Text:
    """What went wrong in words: libsndfile reports a full disk only as 'System error.'."""
    if isinstance(error, OSError) and error.strerror:
        return os_reason(error)
    try:
        room = os.statvfs(folder)
        if room.f_bavail * room.f_frsize < 1 << 20:
            return os_reason(OSError(errno.ENOSPC, os.strerror(errno.ENOSPC)))
    except (OSError, AttributeError):  # AttributeError: no statvfs on Windows
        pass
    return msg("the system refused the data: {error}", error=error)


def _existing(target: Path, given: Path) -> os.stat_result | None:
    """The file being replaced, if any, after checking that replacing it is what the user wants."""
    try:
        status = target.stat()
    except FileNotFoundError:
        return None
    except OSError as error:
        raise NarratorError(msg("{file}: cannot write it ({reason})", file=given, reason=os_reason(error))) from None
    if stat.S_ISDIR(status.st_mode):
        raise NarratorError(msg("{file} is a folder: give a file name", file=given))
    if not stat.S_ISREG(status.st_mode):
        raise NarratorError(msg("{file} is not a regular file (a device or a pipe): give a file name", file=given))
    if not status.st_mode & 0o222:
        raise NarratorError(msg("{file} is read-only: choose another name, or make it writable first", file=given))
    return status


def _settle(temporary: Path, existing: os.stat_result | None, private: bool = False) -> None:
    """Give the new file the old one's mode and owner (or the umask's mode; a private file the
    user's alone, whatever the old one's was) and flush it to disk."""
    if private:
        keep_private(temporary)
    elif existing is None:
        os.chmod(temporary, file_mode())
    else:
        os.chmod(temporary, stat.S_IMODE(existing.st_mode))
    if existing is not None:
        if hasattr(os, "chown") and (existing.st_uid, existing.st_gid) != (os.geteuid(), os.getegid()):
            try:
                os.chown(temporary, existing.st_uid, existing.st_gid)
            except PermissionError:
                pass  # only root can give a file away; the file is the writer's then, as any editor leaves it
    with open(temporary, "rb+") as file:
        os.fsync(file.fileno())

