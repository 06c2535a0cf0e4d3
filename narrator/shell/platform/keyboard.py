"""Keys and lines from the keyboard, on every system.

Two ways of reading, both waiting at most a given time so that the night, the day and the
moderator's console can watch other things meanwhile:

- ``keys()``: single key presses, no Enter needed (space pauses the night, q stops). On a POSIX
  terminal the terminal is put in cbreak mode and polled with ``select``; on Windows the
  console is polled with ``msvcrt.kbhit`` and read with ``msvcrt.getwch``. A reader that
  blocks (``click.getchar``) would need a thread of its own, and a thread left waiting when the
  screen ends would take the first key of the next question. Keys pressed and not read by the
  time the screen ends are thrown away, so that they cannot answer the next question.
- ``Lines``: whole lines (the terminal's side of the moderator's console). A POSIX terminal is
  polled with ``select``; a Windows console cannot be (``select`` takes sockets only there), so
  its keys are gathered into a line here, echoed, with Backspace; a pipe or a file is read by a
  thread of its own, since Python's buffer may hold lines no poll can see.
"""

import contextlib
import os
import queue
import sys
import threading
import time
from collections.abc import Callable, Iterator
from typing import TextIO

from narrator.shell import platform

POLL = 0.01  # seconds between looks at a Windows console, which cannot be waited on
SPECIAL = ("\x00", "\xe0")  # a Windows console's arrow and function keys: two characters, both dropped
ReadKey = Callable[[float], "str | None"]


def is_terminal(stream) -> bool:
    """Whether ``stream`` is a terminal (a console on Windows) rather than a pipe, a file or memory."""
    try:
        return os.isatty(stream.fileno())
    except (AttributeError, ValueError, OSError):
        return False


@contextlib.contextmanager
def keys(stdin: TextIO | None = None, sleep: Callable[[float], None] = time.sleep) -> Iterator[ReadKey]:
    """Single key presses from the terminal, for as long as the block runs.

    Yields ``read_key(timeout) -> str | None``. Where the input is not a terminal (a pipe, a
    test), keys are simply never pressed and ``sleep`` passes the wait; Ctrl-C works everywhere.
    A terminal whose single keys cannot be read takes each key followed by Enter, and says so.
    """
    stdin = stdin if stdin is not None else sys.stdin
    if not is_terminal(stdin):
        yield lambda timeout: sleep(timeout)
        return
    with contextlib.ExitStack() as stack:
        try:
            read_key = stack.enter_context(_console_keys() if platform.windows() else _terminal_keys(stdin.fileno()))
        except Exception as error:  # noqa: BLE001 - termios.error, a console msvcrt cannot read: any is the same
            read_key = _keys_by_line(error)
        yield read_key


def _keys_by_line(error: BaseException) -> ReadKey:
    """A terminal whose single keys cannot be read (``error``): each key is typed and followed by
    Enter instead, and the screen says so once."""
    from narrator.shell.translation import _

    sys.stderr.write("\n" + _("narrate: this terminal gives no single keys ({error}): type the key, then "
                               "Enter").format(error=error) + "\n")
    sys.stderr.flush()
    lines = Lines()

    def read_key(timeout: float) -> str | None:
        try:
            line = lines.poll(timeout)
        except EOFError:
            time.sleep(timeout)
            return None
        return None if line is None else (line[:1] or "\n")

    return read_key


@contextlib.contextmanager
def _console_keys() -> Iterator[ReadKey]:
    import msvcrt

    def read_key(timeout: float) -> str | None:
        deadline = time.perf_counter() + timeout
        while True:
            key = _console_key(msvcrt)
            if key is not None:
                return key
            left = deadline - time.perf_counter()
            if left <= 0:
                return None
            time.sleep(min(POLL, left))

    try:
        yield read_key
    finally:
        while msvcrt.kbhit():  # type: ignore[attr-defined]  # (Windows only) keys pressed during the screen: not for the next question
            msvcrt.getwch()  # type: ignore[attr-defined]  # Windows only: the checker reads Linux's stubs


def _console_key(msvcrt) -> str | None:
    """The next key pressed at a Windows console, or None. ``getwch`` reads the console raw, so
    Ctrl-C comes as a character there: it interrupts, as it does everywhere else."""
    while msvcrt.kbhit():
        key = msvcrt.getwch()
        if key in SPECIAL:
            msvcrt.getwch()
            continue
        if key == "\x03":
            raise KeyboardInterrupt
        return key
    return None


@contextlib.contextmanager
def _terminal_keys(fd: int) -> Iterator[ReadKey]:
    import select
    import termios
    import tty

    saved = termios.tcgetattr(fd)
    tty.setcbreak(fd)
    restore_handlers = _rearm_after_suspend(fd, saved)
    try:
        def read_key(timeout: float) -> str | None:
            ready, _, _ = select.select([fd], [], [], timeout)
            return os.read(fd, 1).decode(errors="ignore") if ready else None

        yield read_key
    finally:
        restore_handlers()
        termios.tcsetattr(fd, termios.TCSAFLUSH, saved)  # FLUSH: keys not read are not for the next question


def _rearm_after_suspend(fd: int, saved) -> Callable[[], None]:
    """Ctrl-Z gives the shell its terminal back as it was; ``fg`` takes single keys up again.

    Returns the function that puts the previous signal handlers back. Handlers can only be
    set from the main thread; elsewhere (the speaker box's helpers) suspending is left as it is.
    """
    import signal
    import termios
    import tty

    if threading.current_thread() is not threading.main_thread() or not hasattr(signal, "SIGTSTP"):
        return lambda: None

    def suspend(signal_number, frame):
        termios.tcsetattr(fd, termios.TCSADRAIN, saved)
        signal.signal(signal.SIGTSTP, signal.SIG_DFL)
        os.kill(os.getpid(), signal.SIGTSTP)  # stop for real; execution goes on here after fg

    def carry_on(signal_number, frame):
        tty.setcbreak(fd)
        signal.signal(signal.SIGTSTP, suspend)

    previous = {number: signal.signal(number, handler)
                for number, handler in ((signal.SIGTSTP, suspend), (signal.SIGCONT, carry_on))}

    def restore() -> None:
        for number, handler in previous.items():
            signal.signal(number, handler)

    return restore


class Lines:
    """The lines typed at the terminal, read without ever blocking for long (see the module)."""

    def __init__(self) -> None:
        self._queue: queue.Queue | None = None
        self._typed: list[str] = []  # a Windows console's line so far
        self._ended = False

    def poll(self, seconds: float) -> str | None:
        """A line typed (without its newline), or None if none came within ``seconds``;
        EOFError once the input has ended."""
        if self._ended:
            raise EOFError
        stdin = sys.stdin
        try:
            stdin.fileno()
        except (AttributeError, OSError, ValueError):  # a stream in memory: it never waits
            return self._line(stdin.readline())
        if is_terminal(stdin):
            if platform.windows():
                return self._console_line(seconds)
            import select

            ready, _, _ = select.select([stdin], [], [], seconds)
            return self._line(stdin.readline()) if ready else None
        if self._queue is None:
            self._queue = queue.Queue()
            threading.Thread(target=self._read, args=(stdin, self._queue), name="terminal-lines", daemon=True).start()
        try:
            return self._line(self._queue.get(timeout=seconds))
        except queue.Empty:
            return None

    def _console_line(self, seconds: float) -> str | None:
        """A Windows console's keys gathered into a line, echoed as typed, Backspace taking one back;
        Ctrl-Z at the start of a line ends the input, as Ctrl-Z then Enter does at a prompt there."""
        import msvcrt

        deadline = time.perf_counter() + seconds
        while True:
            key = _console_key(msvcrt)
            if key is None:
                left = deadline - time.perf_counter()
                if left <= 0:
                    return None
                time.sleep(min(POLL, left))
            elif key in ("\r", "\n"):
                _echo(msvcrt, "\r\n")
                line, self._typed = "".join(self._typed), []
                return line
            elif key == "\x1a" and not self._typed:
                self._ended = True
                raise EOFError
            elif key == "\x08":
                if self._typed:
                    self._typed.pop()
                    _echo(msvcrt, "\b \b")
            elif key.isprintable():
                self._typed.append(key)
                _echo(msvcrt, key)

    @staticmethod
    def _read(stdin, lines: queue.Queue) -> None:
        while True:
            try:
                line = stdin.readline()
            except (OSError, ValueError):
                line = ""
            lines.put(line)
            if not line:
                return

    def _line(self, line: str) -> str:
        if not line:
            self._ended = True
            raise EOFError
        return line.rstrip("\r\n")


def _echo(msvcrt, text: str) -> None:
    for character in text:
        msvcrt.putwch(character)


@contextlib.contextmanager
def completion(options: list[str]) -> Iterator[None]:
    """Tab completes from ``options`` at the next prompt, where the terminal has readline (Linux,
    macOS; Windows' console has none, and its prompts are as they were)."""
    try:
        import readline
    except ImportError:
        yield
        return
    previous = readline.get_completer()
    matches: list[str] = []

    def complete(text: str, state: int):
        if state == 0:
            matches[:] = [option for option in options if option.casefold().startswith(text.casefold())]
        return matches[state] if state < len(matches) else None

    readline.set_completer(complete)
    readline.set_completer_delims(",")
    # macOS' Python may be built on libedit, which takes its own words for the same binding
    readline.parse_and_bind("bind ^I rl_complete" if "libedit" in (readline.__doc__ or "") else "tab: complete")
    try:
        yield
    finally:
        readline.set_completer(previous)
