"""Keys and lines from the keyboard, on every system.

Two ways of reading, both waiting at most a given time so that the night, the day and the
moderator's console can watch other things meanwhile:

- ``keys()``: single key presses, no Enter needed (space pauses the night, q stops). On a POSIX
  terminal the terminal is put in cbreak mode and polled with ``select``; on Windows the
  console is polled with ``msvcrt.kbhit`` and read with ``msvcrt.getwch``. A reader that
  blocks (``click.getchar``) would need a thread of its own, and a thread left waiting when the
  screen ends would take the first key of the next question. Keys pressed and not read by the
  time the screen ends are thrown away, so that they cannot answer the next question.
- ``Lines``: whole lines (the terminal's side of the moderator's console). A terminal's keys are
  gathered into a line here, echoed, with Backspace and Tab completing a name (``completion``):
  readline cannot be polled, and the console must watch the phone while the line is typed. A
  POSIX terminal is put in cbreak mode while a line is typed (``Lines.editing``) and polled with
  ``select``; a Windows console is polled with ``msvcrt`` (``select`` takes sockets only there);
  a pipe or a file is read by a thread of its own, since Python's buffer may hold lines no poll
  can see.
"""

import codecs
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


def _rearm_after_suspend(fd: int, saved, mode=None) -> Callable[[], None]:
    """Ctrl-Z gives the shell its terminal back as it was; ``fg`` takes single keys up again (in
    ``mode`` when given: the exact mode they were read in).

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
        if mode is None:
            tty.setcbreak(fd)
        else:  # the mode the keys were read in (a line edited here: cbreak, no echo)
            termios.tcsetattr(fd, termios.TCSANOW, mode)
        signal.signal(signal.SIGTSTP, suspend)

    previous = {number: signal.signal(number, handler)
                for number, handler in ((signal.SIGTSTP, suspend), (signal.SIGCONT, carry_on))}

    def restore() -> None:
        for number, handler in previous.items():
            signal.signal(number, handler)

    return restore


# The names Tab completes from at the prompt in hand (``completion``), innermost last.
_COMPLETING: list[list[str]] = []


def completed(typed: str, options: list[str]) -> tuple[str, list[str]]:
    """``typed`` with its last name (after the last comma) completed from ``options`` as far as
    the matches agree, and the matches when several remain and nothing more could be added."""
    head, comma, last = typed.rpartition(",")
    start = last[:len(last) - len(last.lstrip())]
    part = last.lstrip()
    matches = [option for option in options if option.casefold().startswith(part.casefold())]
    if not matches:
        return typed, []
    common = len(os.path.commonprefix([match.casefold() for match in matches]))
    done = matches[0] if len(matches) == 1 else matches[0][:common] if common > len(part) else part
    return head + comma + start + done, (matches if len(matches) > 1 and done == part else [])


class Lines:
    """The lines typed at the terminal, read without ever blocking for long (see the module)."""

    def __init__(self) -> None:
        self._queue: queue.Queue | None = None
        self._typed: list[str] = []  # a terminal's line so far
        self._ended = False
        self._prompt = ""  # the question the line answers, drawn again below a list of names
        self._fd: int | None = None  # a POSIX terminal in cbreak mode while a line is typed
        self._decoder: codecs.IncrementalDecoder | None = None

    @contextlib.contextmanager
    def editing(self, prompt: str) -> Iterator[None]:
        """While a line is typed after ``prompt``: a POSIX terminal gives its keys one by one
        (cbreak, no echo: this echoes them) and is given back as it was."""
        self._prompt = prompt
        stdin = sys.stdin
        if platform.windows() or not is_terminal(stdin):
            yield
            return
        import termios
        import tty

        fd = stdin.fileno()
        saved = termios.tcgetattr(fd)
        tty.setcbreak(fd, termios.TCSANOW)
        mode = termios.tcgetattr(fd)
        mode[3] &= ~termios.ECHO
        termios.tcsetattr(fd, termios.TCSANOW, mode)
        restore_handlers = _rearm_after_suspend(fd, saved, mode)  # Ctrl-Z and fg, as for single keys
        self._fd, self._decoder = fd, codecs.getincrementaldecoder(stdin.encoding or "utf-8")(errors="replace")
        try:
            yield
        finally:
            self._fd = None
            restore_handlers()
            termios.tcsetattr(fd, termios.TCSANOW, saved)

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

            if self._fd is not None:
                return self._keys_line(seconds)
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
        """A Windows console's keys gathered into a line (``_key``); Ctrl-Z at the start of a line
        ends the input, as Ctrl-Z then Enter does at a prompt there."""
        import msvcrt

        deadline = time.perf_counter() + seconds
        while True:
            key = _console_key(msvcrt)
            if key is None:
                left = deadline - time.perf_counter()
                if left <= 0:
                    return None
                time.sleep(min(POLL, left))
                continue
            line = self._key("\x04" if key == "\x1a" else "\x7f" if key == "\x08" else key,
                             lambda text: _echo(msvcrt, text))
            if line is not None:
                return line

    def _keys_line(self, seconds: float) -> str | None:
        """A POSIX terminal's keys (in cbreak mode) gathered into a line (``_key``); Ctrl-D at the
        start of a line ends the input; an arrow's or a function key's sequence is dropped."""
        import select

        assert self._fd is not None and self._decoder is not None
        ready, _, _ = select.select([self._fd], [], [], seconds)
        if not ready:
            return None
        text = self._decoder.decode(os.read(self._fd, 1024))
        if "\x1b" in text:
            text = text[:text.index("\x1b")]

        def echo(shown: str) -> None:
            sys.stdout.write(shown)
            sys.stdout.flush()

        for key in text:
            line = self._key(key, echo)
            if line is not None:
                return line
        return None

    def _key(self, key: str, echo: Callable[[str], None]) -> str | None:
        """One key of the line being typed: the line when Enter ends it, else None. Backspace takes a
        character back, Tab completes the last name (listing the names when several remain)."""
        if key in ("\r", "\n"):
            echo("\r\n")
            line, self._typed = "".join(self._typed), []
            return line
        if key == "\x04" and not self._typed:
            self._ended = True
            raise EOFError
        if key in ("\x7f", "\x08"):
            if self._typed:
                self._typed.pop()
                echo("\b \b")
        elif key == "\t" and _COMPLETING:
            typed = "".join(self._typed)
            done, matches = completed(typed, _COMPLETING[-1])
            if matches:
                echo("\r\n" + "  ".join(matches) + "\r\n" + self._prompt + done)
            else:
                echo(done[len(typed):])
            self._typed = list(done)
        elif key.isprintable():
            self._typed.append(key)
            echo(key)
        return None

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
    """Tab completes from ``options`` at the next prompt: readline's, where the terminal has it
    (Linux, macOS), and the moderator's console's own line (``Lines``) on every system."""
    _COMPLETING.append(options)
    try:
        with _readline_completion(options):
            yield
    finally:
        _COMPLETING.pop()


@contextlib.contextmanager
def _readline_completion(options: list[str]) -> Iterator[None]:
    try:
        import readline
    except ImportError:  # Windows' console: no readline
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
