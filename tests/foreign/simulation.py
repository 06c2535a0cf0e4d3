"""Windows or macOS, as far as narrate can tell, on Linux: the suite's foreign-platform run.

A narrate started with ``environ(system)`` imports this through ``sitecustomize`` before anything
else, and ``install`` makes the process behave as the other system does where narrate could meet
it, so that narrate's own Windows and macOS paths run here:

- narrate's seam (``narrator.shell.platform``) answers "windows" or "macos";
- Windows: ``termios``, ``tty``, ``fcntl``, ``pwd``, ``grp``, ``resource``, ``readline`` and
  ``pty`` cannot be imported by narrate's modules (the standard library's own Linux paths still
  use them, as they would not exist on Windows), the POSIX-only signals are gone and SIGBREAK is
  there, ``select`` takes sockets only, ``time.monotonic`` ticks in 15.625 ms steps (CPython
  gh-88494), and the Windows functions narrate calls answer as Windows does:
  ``msvcrt`` reads the pseudo-terminal as the console's keys, ``kernel32`` turns escape codes on
  (or refuses, as a legacy console does), says the display's languages and short names, and
  takes a console handler; the Restart Manager names the program holding a file; ``os.replace``
  refuses a file held open; closing the console window is SIGUSR1; Pico's data path goes
  through the ANSI code page as C's ``fopen`` takes it;
- macOS: ``defaults`` and ``say`` are this folder's stand-ins (bin/), on PATH first; py-nanotts and
  pyttsx3 are not installed (pyproject's markers leave them out there).

The environment has no LANG or LC_*. On Windows a standard stream that is no console (a pipe,
a file) is in the ANSI code page, cp1252, as PYTHONIOENCODING=cp1252 would make it; a console
stays UTF-8 (Python ignores PYTHONIOENCODING for the console there, PEP 528).
Knobs, all environment variables: NARRATOR_FOREIGN (the system), NARRATOR_FOREIGN_LANGUAGES (the
display's, ";" between), NARRATOR_FOREIGN_CONSOLE=legacy, NARRATOR_FOREIGN_SHORT_NAMES ("long=short",
";" between), NARRATOR_FOREIGN_HELD ("path=program": held open for good; "path*N=program": for N
tries).
"""

import builtins
import math
import os
import select
import signal
import stat
import sys
import threading
import time
import types
from pathlib import Path

HERE = Path(__file__).resolve().parent
POSIX_ONLY = ("termios", "tty", "fcntl", "pwd", "grp", "resource", "readline", "pty", "posix")
WINDOWS_ONLY = ("msvcrt", "winreg", "_winapi", "winsound")
POSIX_SIGNALS = ("SIGHUP", "SIGQUIT", "SIGTSTP", "SIGCONT", "SIGWINCH", "SIGUSR1", "SIGUSR2", "SIGALRM", "SIGPIPE",
                 "SIGTTIN", "SIGTTOU", "SIGVTALRM", "SIGPROF", "SIGIO", "SIGPOLL", "SIGURG", "SIGXCPU", "SIGXFSZ",
                 "SIGSYS", "SIGTRAP", "SIGBUS", "SIGPWR", "SIGSTKFLT", "SIGRTMIN", "SIGRTMAX", "SIGIOT",
                 "pthread_sigmask", "pthread_kill", "sigwait", "sigwaitinfo", "sigtimedwait", "sigpending",
                 "setitimer", "getitimer", "siginterrupt", "pause", "alarm")
SIGBREAK = 21  # Windows' number for it (on Linux the same number is SIGTTIN: the test sends that)
TICK = 0.015625  # Windows' timer tick before Python 3.13: time.monotonic moves by this much at a time
NOT_A_SOCKET = 10038
SHARING_VIOLATION = 32


def environ(system: str, base: dict | None = None, **knobs: str) -> dict:
    """The environment of a narrate that believes it runs on ``system`` ("windows" or "macos")."""
    env = {key: value for key, value in (base if base is not None else os.environ).items()
           if key not in ("LANG", "LANGUAGE") and not key.startswith("LC_")}
    env["NARRATOR_FOREIGN"] = system
    if system != "windows":
        env["PATH"] = os.pathsep.join([str(HERE / "bin"), env.get("PATH", "")])
    env.setdefault("NARRATOR_FOREIGN_LANGUAGES", "en-US")
    env.update(knobs)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(HERE), env.get("PYTHONPATH", "")]))  # this folder first
    return env


def install(system: str) -> None:
    try:
        import narrator.shell.platform as seam
    except ImportError:  # a narrate from before the seam: the rest still holds it to the other system
        pass
    else:
        seam.SYSTEM = {"windows": seam.WINDOWS, "macos": seam.MACOS}[system]
    if system == "windows":
        _windows()
    else:
        for absent in ("py_nanotts", "pyttsx3"):  # no Pico wheel for macOS, and pyttsx3 not asked for there
            sys.modules[absent] = None


# --- Windows ---------------------------------------------------------------------------------------

def _windows() -> None:
    for stream in (sys.stdin, sys.stdout, sys.stderr):
        if stream is not None and not stream.isatty():
            stream.reconfigure(encoding="cp1252")
    fakes = {"msvcrt": _Console(sys.stdin.fileno() if _has_fd(sys.stdin) else 0)}
    real_import = builtins.__import__

    def narrate_imports(name, globals=None, locals=None, fromlist=(), level=0):
        importer = (globals or {}).get("__name__") or ""
        if level == 0 and importer.split(".")[0] == "narrator":
            top = name.partition(".")[0]
            if top in POSIX_ONLY:
                raise ModuleNotFoundError(f"No module named {top!r} (on Windows)", name=top)
            if top in fakes:
                return fakes[top]
        return real_import(name, globals, locals, fromlist, level)

    builtins.__import__ = narrate_imports
    _signals()
    _select()
    real_monotonic = time.monotonic
    time.monotonic = lambda: math.floor(real_monotonic() / TICK) * TICK
    _ctypes()
    _replace()
    _pico()


def _has_fd(stream) -> bool:
    try:
        stream.fileno()
        return True
    except (AttributeError, OSError, ValueError):
        return False


def _signals() -> None:
    # The console's handler runs in a thread Windows makes, which Python does not wait for at exit.
    signal.signal(signal.SIGUSR1, lambda number, frame: threading.Thread(target=_close_console, daemon=True).start())
    for name in POSIX_SIGNALS:
        if hasattr(signal, name):
            delattr(signal, name)
    signal.SIGBREAK = SIGBREAK
    signal.CTRL_C_EVENT, signal.CTRL_BREAK_EVENT = 0, 1


def _select() -> None:
    real = select.select

    def sockets_only(rlist, wlist, xlist, timeout=None):
        for each in (*rlist, *wlist, *xlist):
            descriptor = each if isinstance(each, int) else each.fileno()
            if not stat.S_ISSOCK(os.fstat(descriptor).st_mode):
                error = OSError(NOT_A_SOCKET, "An operation was attempted on something that is not a socket")
                error.winerror = NOT_A_SOCKET
                raise error
        return real(rlist, wlist, xlist, timeout)

    select.select = sockets_only


class _Console:
    """``msvcrt`` over the pseudo-terminal: its keys one at a time, unechoed and raw (Ctrl-C a
    character, Enter a carriage return), as the console gives them to ``getwch``."""

    def __init__(self, descriptor: int):
        import termios

        self._termios = termios
        self._fd = descriptor
        self._select = select.select  # the real one: this is the console, not narrate

    def _raw(self):
        termios = self._termios
        saved = termios.tcgetattr(self._fd)
        raw = [*saved[:6], list(saved[6])]
        raw[0] &= ~termios.ICRNL
        raw[3] &= ~(termios.ICANON | termios.ECHO | termios.ISIG)
        raw[6][termios.VMIN], raw[6][termios.VTIME] = 1, 0
        termios.tcsetattr(self._fd, termios.TCSANOW, raw)
        return saved

    def _restore(self, saved) -> None:
        self._termios.tcsetattr(self._fd, self._termios.TCSANOW, saved)

    def kbhit(self) -> bool:
        saved = self._raw()
        try:
            return bool(self._select([self._fd], [], [], 0)[0])
        finally:
            self._restore(saved)

    def getwch(self) -> str:
        saved = self._raw()
        try:
            data = os.read(self._fd, 1)
            while True:
                try:
                    return data.decode("utf-8")
                except UnicodeDecodeError:
                    data += os.read(self._fd, 1)
        finally:
            self._restore(saved)

    def putwch(self, character: str) -> None:
        os.write(sys.stdout.fileno(), character.encode("utf-8"))

    def get_osfhandle(self, descriptor: int) -> int:
        os.fstat(descriptor)  # OSError for a closed one, as on Windows
        return descriptor


_console_handlers: list = []


def _close_console() -> None:
    """The console window closed: Windows calls each handler in a thread of its own, then ends the process."""
    for handler in reversed(_console_handlers):
        if handler(2):  # CTRL_CLOSE_EVENT
            break
    os._exit(0x3A)  # STATUS_CONTROL_C_EXIT's low byte


def _ctypes() -> None:
    import ctypes

    libraries = {"kernel32": _kernel32(), "rstrtmgr": _restart_manager()}

    def windll(name, *args, **kwargs):
        return libraries[name.lower().removesuffix(".dll")]

    ctypes.WinDLL = windll
    ctypes.WINFUNCTYPE = ctypes.CFUNCTYPE


def _written(reference, value) -> None:
    """Write ``value`` through ``ctypes.byref(x)`` as the Windows function would."""
    reference._obj.value = value


def _kernel32() -> types.SimpleNamespace:
    import ctypes

    modes: dict[int, int] = {}

    def GetConsoleMode(handle, mode):  # noqa: N802 - Windows' own names
        descriptor = handle.value if hasattr(handle, "value") else handle
        if not os.isatty(descriptor):
            return 0
        _written(mode, modes.get(descriptor, 0x3))
        return 1

    def SetConsoleMode(handle, mode):  # noqa: N802
        if mode & 0x4 and os.environ.get("NARRATOR_FOREIGN_CONSOLE") == "legacy":
            return 0  # ERROR_INVALID_PARAMETER: a console before Windows 10 has no escape codes
        modes[handle.value if hasattr(handle, "value") else handle] = mode
        return 1

    def GetUserPreferredUILanguages(flags, count, buffer, size):  # noqa: N802
        names = [name for name in os.environ.get("NARRATOR_FOREIGN_LANGUAGES", "").split(";") if name]
        text = "".join(name + "\0" for name in names) + "\0"
        _written(count, len(names))
        if buffer is None:
            _written(size, len(text))
            return 1
        ctypes.memmove(buffer, ctypes.create_unicode_buffer(text, len(text)), len(text) * ctypes.sizeof(ctypes.c_wchar))
        _written(size, len(text))
        return 1

    def GetShortPathNameW(long, buffer, length):  # noqa: N802
        for pair in filter(None, os.environ.get("NARRATOR_FOREIGN_SHORT_NAMES", "").split(";")):
            full, short = pair.split("=", 1)
            if long.startswith(full):
                buffer.value = short + long[len(full):]
                return len(buffer.value)
        return 0  # the volume keeps no 8.3 names

    def SetConsoleCtrlHandler(handler, add):  # noqa: N802
        _console_handlers.append(handler)
        return 1

    return types.SimpleNamespace(GetConsoleMode=GetConsoleMode, SetConsoleMode=SetConsoleMode,
                                 GetUserPreferredUILanguages=GetUserPreferredUILanguages,
                                 GetShortPathNameW=GetShortPathNameW, SetConsoleCtrlHandler=SetConsoleCtrlHandler)


def _held() -> dict[str, tuple[int | None, str]]:
    """Files another program holds open: path → (tries it refuses, None for all; the program)."""
    held = {}
    for pair in filter(None, os.environ.get("NARRATOR_FOREIGN_HELD", "").split(";")):
        path, program = pair.rsplit("=", 1)
        path, _, tries = path.partition("*")
        held[os.path.realpath(path)] = (int(tries) if tries else None, program)
    return held


def _restart_manager() -> types.SimpleNamespace:
    sessions: dict[int, list[str]] = {}

    def RmStartSession(session, flags, key):  # noqa: N802
        _written(session, len(sessions) + 1)
        sessions[len(sessions) + 1] = []
        return 0

    def RmRegisterResources(session, count, files, applications, unique, services, names):  # noqa: N802
        sessions[session.value].extend(files[index] for index in range(count))
        return 0

    def RmGetList(session, needed, count, found, reasons):  # noqa: N802
        held = _held()
        programs = [held[os.path.realpath(path)][1] for path in sessions[session.value]
                    if os.path.realpath(path) in held]
        for index, program in enumerate(programs):
            found[index].strAppName = program
        _written(needed, len(programs))
        _written(count, len(programs))
        return 0

    def RmEndSession(session):  # noqa: N802
        sessions.pop(session.value, None)
        return 0

    return types.SimpleNamespace(RmStartSession=RmStartSession, RmRegisterResources=RmRegisterResources,
                                 RmGetList=RmGetList, RmEndSession=RmEndSession)


def _replace() -> None:
    """Windows will not replace a file another program holds open (a sharing violation)."""
    real = os.replace
    refused: dict[str, int] = {}

    def replace(source, target, **kwargs):
        held = _held().get(os.path.realpath(target))
        if held is not None:
            tries, _program = held
            key = os.path.realpath(target)
            refused[key] = refused.get(key, 0) + 1
            if tries is None or refused[key] <= tries:
                error = PermissionError(13, "The process cannot access the file because it is being used by "
                                            "another process", str(target))
                error.winerror = SHARING_VIOLATION
                raise error
        return real(source, target, **kwargs)

    os.replace = replace


def _pico() -> None:
    """Pico's C library opens its voices with ``fopen``, which on Windows reads the name in the ANSI
    code page: the UTF-8 bytes py-nanotts hands it arrive as other letters."""
    try:
        import py_nanotts
    except ImportError:
        return
    real = py_nanotts._speak

    def speak(*args, lingware_path=None, **kwargs):
        if lingware_path is not None:
            lingware_path = lingware_path.encode("utf-8").decode("cp1252", errors="replace")
        return real(*args, lingware_path=lingware_path, **kwargs)

    py_nanotts._speak = speak
