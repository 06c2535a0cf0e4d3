"""Running the day at the terminal: the big countdown, the keys, the spoken lines on time."""

from collections.abc import Callable
from typing import TextIO

from narrator.bigdigits import big, clock_face
from narrator.day import DayTimer

HELP = "space: pause   +: 30 more seconds   Enter: vote now"


class DayScreen:
    """A large countdown redrawn in place on a terminal; a line per spoken event in a log."""

    def __init__(self, out: TextIO, interactive: bool):
        self.out = out
        self.interactive = interactive
        self._drawn = 0
        self._last = None
        self.caption = ""  # the last line said, shown under the digits
    def show(self, timer: DayTimer) -> None:
        face = clock_face(timer.left())
        over = timer.voting or timer.finished
        state = "" if over else ("paused" if timer.paused else HELP)
        if (face, state, self.caption) == self._last:
            return
        self._last = (face, state, self.caption)
        if not self.interactive:
            return
        rows = ["", *("   " + row for row in big(face)), "", f"   {self.caption}", f"   {state}"]
        if self._drawn:
            self.out.write(f"\x1b[{self._drawn}A")
        self.out.write("".join(f"\r\x1b[2K{row}\n" for row in rows))
        self._drawn = len(rows)
        self.out.flush()

    def said(self, text: str, left: float) -> None:
        self.caption = text
        if not self.interactive:
            self.out.write(f"{clock_face(left)}  {text}\n")
            self.out.flush()


def run_day(timer: DayTimer, say: Callable[[str], None], read_key: Callable[[float], str | None],
            screen: DayScreen, texts: dict[str, str]) -> None:
    """Until the call to vote: say each line as its mark comes, show the time, answer the keys."""
    while True:
        for event in timer.due():
            say(event.key)
            screen.said(texts.get(event.key, event.key), timer.left())
        screen.show(timer)
        if timer.finished:
            return
        wait = timer.next_mark()
        key = read_key(0.1 if timer.paused or wait is None else max(0.01, min(0.1, wait)))
        if key == " ":
            timer.toggle_pause()
        elif key == "+":
            timer.add_time()
        elif key in ("\n", "\r"):
            timer.vote_now()
