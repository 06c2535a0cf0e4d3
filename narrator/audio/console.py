"""The terminal while the night plays: one status line, and single keys (space, q) without Enter."""

import contextlib
import os
import select
import sys
import time
from collections.abc import Iterator, Mapping
from typing import TextIO

from narrator.audio.player import Session, Transport
from narrator.script import INTRO_PHASE
from narrator.views import minutes

BAR = 24


def status_line(transport: Transport, labels: Mapping[str, str]) -> str:
    """``▶ 1:23 / 3:05 [######------] Veggente  3/10``: where the night is, for one glance."""
    night = transport.night
    position = min(transport.position, night.length)
    done = round(BAR * position / night.length) if night.length else BAR
    cue = night.cue_at(position)
    phase = labels.get(cue.cue.phase, cue.cue.phase) if cue else labels.get(INTRO_PHASE, "")
    count = night.count_at(position)
    counting = f"  {count[1]}/{count[0].seconds}" if count else ""
    state = "stopping" if transport.stopping else ("paused: space resumes" if transport.paused else "")
    mark = "■" if transport.stopping else ("❚❚" if transport.paused else "▶")
    return (f"{mark} {minutes(position / night.rate)} / {minutes(night.seconds)} [{'#' * done}{'-' * (BAR - done)}] "
            f"{phase}{counting}{'  ' + state if state else ''}")


class Console:
    """Shows progress on a terminal (one line redrawn) or in a log (a line per phase)."""

    def __init__(self, out: TextIO, labels: Mapping[str, str], interactive: bool):
        self.out = out
        self.labels = labels
        self.interactive = interactive
        self._logged = 0  # how many phases the log has shown
        self._width = 0

    def show(self, transport: Transport) -> None:
        if self.interactive:
            line = status_line(transport, self.labels)
            self.out.write("\r" + line.ljust(self._width))
            self._width = len(line)
            self.out.flush()
            return
        night = transport.night
        phases = night.phase_starts()
        while self._logged < len(phases) and (phases[self._logged][1] <= transport.position or self._logged == 0):
            phase, start = phases[self._logged]  # every phase begun since the last look, none skipped
            self.out.write(f"{minutes(start / night.rate)}  {self.labels.get(phase, phase)}\n")
            self._logged += 1
        self.out.flush()

    def say(self, message: str) -> None:
        if self.interactive and self._width:
            self.out.write("\n")
            self._width = 0
        self.out.write(message + "\n")
        self.out.flush()

    def finish(self) -> None:
        if self.interactive and self._width:
            self.out.write("\n")
            self.out.flush()


@contextlib.contextmanager
def keys(stdin: TextIO = sys.stdin, sleep=time.sleep) -> Iterator:
    """Single key presses from a terminal (cbreak mode, restored on the way out).

    Yields ``read_key(timeout) -> str | None``. Where the input is not a terminal (a pipe, a
    test, Windows), keys are simply never pressed; Ctrl-C works everywhere.
    """
    try:
        fd = stdin.fileno()
        interactive = os.isatty(fd)
    except (AttributeError, ValueError, OSError):
        interactive = False
    if not interactive or os.name == "nt":
        yield lambda timeout: sleep(timeout)
        return
    import termios
    import tty

    saved = termios.tcgetattr(fd)
    try:
        tty.setcbreak(fd)

        def read_key(timeout: float) -> str | None:
            ready, _, _ = select.select([fd], [], [], timeout)
            return os.read(fd, 1).decode(errors="ignore") if ready else None

        yield read_key
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, saved)


@contextlib.contextmanager
def terminal_session(labels: Mapping[str, str], out: TextIO = sys.stderr, stdin: TextIO = sys.stdin):
    """A ``Session`` on the real terminal, restored however playback ends."""
    console = Console(out, labels, interactive=out.isatty())
    with keys(stdin) as read_key:
        try:
            yield Session(read_key=read_key, show=console.show, say=console.say)
        finally:
            console.finish()
