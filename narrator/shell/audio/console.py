"""The terminal while the night plays: one status line, and single keys (space, q) without Enter
(read by ``narrator.shell.platform.keyboard``)."""

import contextlib
import sys
import time
from collections.abc import Callable, Mapping
from typing import TextIO

from narrator.core.script import INTRO_PHASE
from narrator.core.views import minutes
from narrator.shell.audio.player import Session, Transport
from narrator.shell.platform.keyboard import keys
from narrator.shell.platform.screen import draws, marks, redraw
from narrator.shell.terminal import fit, rows_taken, size_of
from narrator.shell.translation import _

BAR = 24


def status_line(transport: Transport, labels: Mapping[str, str], width: int = 80) -> str:
    """``▶ 1:23 / 3:05 [######------] Veggente  3/10``: where the night is, for one glance.

    At most ``width`` characters: the bar goes first when space is short, then the label is cut.
    """
    night = transport.night
    position = min(transport.position, night.length)
    cue = night.cue_at(position)
    phase = labels.get(cue.cue.phase, cue.cue.phase) if cue else labels.get(INTRO_PHASE, "")
    count = night.count_at(position)
    counting = f"  {count[1]}/{count[0].seconds}" if count else ""
    state = _("stopping") if transport.stopping else (_("paused: space resumes") if transport.paused else "")
    playing, paused, stopping = marks()
    mark = stopping if transport.stopping else (paused if transport.paused else playing)
    clock = f"{mark} {minutes(position / night.rate)} / {minutes(night.seconds)}"
    tail = f"{counting}{'  ' + state if state else ''}"
    bar_size = min(BAR, width - len(clock) - len(phase) - len(tail) - 4)
    if bar_size >= 8:
        done = round(bar_size * position / night.length) if night.length else bar_size
        clock += f" [{'#' * done}{'-' * (bar_size - done)}]"
    return fit(f"{clock} {fit(phase, width - len(clock) - len(tail) - 1)}{tail}", width)


class Console:
    """Shows progress on a terminal (one line redrawn, fitted to its width) or in a log.

    The log has a line per phase, and says when the night is paused and resumed.
    """

    def __init__(self, out: TextIO, labels: Mapping[str, str], interactive: bool, size=None):
        self.out = out
        self.labels = labels
        self.interactive = interactive
        self.size = size or size_of(out)
        self._logged = 0  # how many phases the log has shown
        self._shown = 0  # characters of the line on screen now
        self._width = 0  # the terminal's width when it was drawn
        self._paused = False

    def show(self, transport: Transport) -> None:
        if self.interactive:
            width = self.size()[0]
            line = status_line(transport, self.labels, width - 1)
            up = rows_taken([self._shown], width) - 1 if self._shown and width != self._width else 0
            self.out.write(redraw(up) + line)
            self._shown, self._width = len(line), width
            self.out.flush()
            return
        night = transport.night
        phases = night.phase_starts()
        while self._logged < len(phases) and (phases[self._logged][1] <= transport.position or self._logged == 0):
            phase, start = phases[self._logged]  # every phase begun since the last look, none skipped
            self.out.write(f"{minutes(start / night.rate)}  {self.labels.get(phase, phase)}\n")
            self._logged += 1
        if transport.paused != self._paused:
            self._paused = transport.paused
            word = _("paused (space resumes)") if self._paused else _("resumed")
            self.out.write(f"{minutes(min(transport.position, night.length) / night.rate)}  {word}\n")
        self.out.flush()

    def say(self, message: str) -> None:
        self.finish()
        self.out.write(message + "\n")
        self.out.flush()

    def finish(self) -> None:
        """End the status line, so that whatever comes next has a line of its own."""
        if self.interactive and self._shown:
            self.out.write("\n")
            self.out.flush()
            self._shown = 0


@contextlib.contextmanager
def terminal_session(labels: Mapping[str, str], out: TextIO | None = None, stdin: TextIO | None = None,
                     sleep: Callable[[float], None] = time.sleep):
    """A ``Session`` on the real terminal, restored however playback ends (``sleep``: how a wait
    for a key passes where no key can come). The streams are the ones in use when it starts."""
    out = out or sys.stderr
    console = Console(out, labels, interactive=draws(out))
    with keys(stdin or sys.stdin, sleep) as read_key:
        try:
            yield Session(read_key=read_key, show=console.show, say=console.say)
        finally:
            console.finish()
