"""The moderator's console: the secret table and the game's questions on a phone.

A game of many nights with a moderator asks one question at a time. Served to the moderator's
phone as well, each question is asked in two places at once: the terminal's prompt and the
phone's buttons race, and the first answer is the answer. The game stays in the main thread: the
server's thread only queues what the phone sent and wakes the main thread, which checks it and
takes it as if it had been typed (``Console.ask``).

A question is numbered (its ``version``); an answer names the question it answers, so an answer
to a question already answered (at the laptop, or from another phone) is refused and the phone is
shown the question asked now. What is shown is a plain JSON view built by the game's table
(``narrator.shell.cli.rounds``): a title, the lines the terminal printed, the cards, and the
question's ``form`` (``narrator.shell.speakerbox.forms``), never anything about a game's own rules.
"""

import queue
import sys
import threading
from collections.abc import Callable
from typing import Any

from narrator.shell.platform.keyboard import Lines
from narrator.shell.speakerbox.forms import fault

UNDO = "undo"  # what the phone sends to take the last answer back
_NOTHING = object()


class _Arrived(Exception):
    """An answer came from the phone while the terminal's prompt waited."""


class Console:
    """The questions of one game, shown to every moderator's page that gave the token.

    ``undo`` is what an undo from the phone raises (the terminal's own), ``ended`` what a prompt
    raises when the laptop's input has ended; the terminal's prompts read lines by ``prompt``."""

    def __init__(self, undo: type[Exception], ended: tuple[type[BaseException], ...] = (EOFError,)) -> None:
        self.undo, self.ended = undo, ended
        self.version = 0
        self.view: dict = {"type": "step", "version": 0, "title": "", "lines": [], "table": [], "form": None}
        self.send: Callable[[dict], None] = lambda message: None  # to every console page (the server's)
        self.seen = False  # a console page has connected: a closed terminal then waits for it
        self._answers: queue.Queue = queue.Queue()
        self._check: Callable[[Any], str | None] | None = None
        self._lines = Lines()
        self._prompted: str | None = None  # the terminal's question on the screen, waiting for its line

    # --- the main thread --------------------------------------------------------------------------

    def show(self, view: dict) -> None:
        """Show ``view`` (title, lines, table, form) as the game's step now: a new question."""
        self.version += 1
        self._check = None
        self.view = {"type": "step", "form": None, **view, "version": self.version}
        self.send(self.view)

    def ask(self, view: dict, terminal: Callable[[], Any], check: Callable[[Any], str | None] | None = None,
            tapped: Callable[[Any, bool], None] = lambda value, prompted: None):
        """The answer to the question ``view`` shows (its ``form``), from whichever comes first: the
        terminal (``terminal()`` asks there) or a phone (checked by the form and by ``check``, which
        gives why a value is not an answer; ``tapped(value, prompted)`` then shows it at the laptop,
        ``prompted`` if the terminal's question is on the screen). The phone's undo raises ``Undo``,
        as typing it does."""
        self.show(view)
        self._check, self._prompted = check, None
        prompted = False
        while True:
            try:
                value = self._take()
            except self.undo:
                tapped(UNDO, prompted)
                raise
            if value is not _NOTHING:
                tapped(value, prompted)
                return value
            prompted = True
            try:
                return terminal()
            except _Arrived:
                continue
            except self.ended:
                if not self.seen:
                    raise
                self._wait_for_the_phone()

    def prompt(self, text: str) -> str:
        """A line typed at the terminal after ``text`` (as ``input`` reads one), while watching
        for the phone's answer: one that comes ends the terminal's question (``ask`` takes it).
        The question is printed once: asked again after a phone's answer was refused, it is still
        there, waiting for its line (and what was typed of it is kept)."""
        if text != self._prompted:
            sys.stdout.write(text)
            sys.stdout.flush()
            self._prompted = text
        with self._lines.editing(text):  # typed key by key: Tab completes a name, the phone is watched
            while True:
                if not self._answers.empty():
                    raise _Arrived
                line = self._lines.poll(0.1)
                if line is not None:
                    self._prompted = None
                    return line

    def _wait_for_the_phone(self) -> None:
        """The laptop's input is closed: the phone answers alone."""
        while self._answers.empty():
            threading.Event().wait(0.1)

    def _take(self):
        """An answer the phone gave to the question asked now (``_NOTHING`` if none); answers to
        other questions are refused, and the phone is shown the question asked now."""
        while True:
            try:
                version, value, reply = self._answers.get_nowait()
            except queue.Empty:
                return _NOTHING
            if version != self.version:
                reply({"type": "not-taken", "version": version, "reason": "answered"})
                reply(self.view)
                continue
            if value == UNDO:
                raise self.undo
            why = fault(self.view.get("form"), value)
            if why is None and self._check is not None:
                why = self._check(value)
            if why is not None:
                reply({"type": "not-taken", "version": version, "reason": "wrong", "message": str(why)})
                continue
            reply({"type": "taken", "version": version})
            return value

    # --- the server's thread ------------------------------------------------------------------------

    def offer(self, version: Any, value: Any, reply: Callable[[dict], None]) -> None:
        """A phone's answer to question ``version`` (or ``UNDO``): queued for the game, whose
        prompt sees it within a tenth of a second; ``reply`` tells that phone what became of it."""
        self._answers.put((version, value, reply))
