"""Running the day at the terminal: the big countdown, the keys, the spoken lines on time."""

from collections.abc import Callable
from typing import TextIO

from narrator.core.bigdigits import HEIGHT, big, big_width, clock_face
from narrator.core.day import DayTimer
from narrator.core.i18n import N_
from narrator.shell.platform.screen import redraw
from narrator.shell.terminal import fit, rows_taken, size_of
from narrator.shell.translation import _

HELP = N_("space: pause   +: 30 more seconds   Enter: vote now   q: stop")
SHORT_HELP = N_("space:pause +:30s Enter:vote q:stop")  # for terminals too narrow for the whole of it


class DayScreen:
    """A large countdown redrawn in place on a terminal; a line per spoken event in a log.

    Every row is fitted to the terminal's width at each redraw, and at a small terminal the
    blank rows, then the big digits, give way, so that the screen never scrolls. In a log,
    pausing and resuming are lines of their own too.
    """

    def __init__(self, out: TextIO, interactive: bool, size=None):
        self.out = out
        self.interactive = interactive
        self.size = size or size_of(out)
        self._drawn: list[int] = []  # the lengths of the rows on screen now
        self._last: tuple | None = None
        self._paused = False
        self._ended = False  # a log has said how the day ended
        self.caption = ""  # the last line said, shown under the digits

    def show(self, timer: DayTimer) -> None:
        face = clock_face(timer.shown_left())
        over = timer.voting or timer.finished
        state = end_of_day(timer) if over else (_("paused: space resumes") if timer.paused else _(HELP))
        if not self.interactive:
            if timer.paused != self._paused:
                self._paused = timer.paused
                self.out.write(f"{face}  {_('paused (space resumes)') if timer.paused else _('resumed')}\n")
                self.out.flush()
            if over and not self._ended:
                self._ended = True
                self.out.write(f"{face}  {state}\n")
                self.out.flush()
            return
        columns, lines = self.size()
        if (face, state, self.caption, columns, lines) == self._last:
            return
        self._last = (face, state, self.caption, columns, lines)
        if state == _(HELP) and len(state) > columns - 1:
            state = _(SHORT_HELP)
        rows = [fit(row, columns - 1) for row in layout(face, self.caption, state, columns - 1, lines - 1)]
        up = rows_taken(self._drawn, columns) if self._drawn else 0
        self.out.write(redraw(up) + "".join(f"{row}\n" for row in rows))
        self._drawn = [len(row) for row in rows]
        self.out.flush()

    def finish(self) -> None:
        """The screen stays as it is; what is written next starts below it."""
        self._drawn = []

    def said(self, text: str, left: float) -> None:
        self.caption = text
        if not self.interactive:
            self.out.write(f"{clock_face(left)}  {text}\n")
            self.out.flush()


def end_of_day(timer: DayTimer) -> str:
    """How the day ended: the time ran out, or the group called the vote with time left."""
    if timer.called_early and timer.left_at_call is not None:
        return _("Vote called with {time} left.").format(time=clock_face(timer.left_at_call))
    return _("Time is up.")


def layout(face: str, caption: str, state: str, width: int, height: int) -> list[str]:
    """The day's screen as rows for a terminal ``width`` by ``height``: the digits as large as the
    terminal allows (read from across the table), centred, with the last line said and the keys."""
    import textwrap

    for scale in range(max(1, min(width // big_width(face), height // HEIGHT)), 0, -1):
        digits = big(face, scale)
        if len(digits[0]) > width:
            continue
        pad = " " * ((width - len(digits[0])) // 2)
        big_rows = [pad + row for row in digits]
        state_row = _centred(state, width)
        caption_rows = [_centred(row, width) for row in textwrap.wrap(caption, max(10, width))] or [""]
        for rows in (["", *big_rows, "", *caption_rows, state_row],
                     [*big_rows, *caption_rows, state_row],
                     [*big_rows, caption_rows[0], state_row]):
            if len(rows) <= height:
                top = [""] * ((height - len(rows)) // 2) if scale > 1 else []  # large digits sit mid-screen
                return top + rows
    return [f"{face}  {caption}", state][:max(1, height)]


def _centred(text: str, width: int) -> str:
    return " " * max(0, (width - len(text)) // 2) + text


def run_day(timer: DayTimer, say: Callable[[str], None], read_key: Callable[[float], str | None],
            screen: DayScreen, texts: dict[str, str]) -> bool:
    """Until the call to vote: say each line as its mark comes, show the time, answer the keys.

    Returns True when the day reached the vote, False when q stopped it (as q stops the night).
    """
    while True:
        for event in timer.due():
            say(event.key)
            screen.said(texts.get(event.key, event.key), timer.shown_left())
        screen.show(timer)
        if timer.finished:
            screen.finish()
            return True
        wait = timer.next_mark()
        key = read_key(0.1 if timer.paused or wait is None else max(0.01, min(0.1, wait)))
        if key == " ":
            timer.toggle_pause()
        elif key == "+":
            timer.add_time()
        elif key in ("\n", "\r"):
            timer.vote_now()
        elif key in ("q", "Q"):
            screen.finish()
            return False
