"""The day: what the narrator says while the discussion runs out, and a timer that keeps exact time.

The schedule is measured in seconds *left*, not seconds gone, so that pausing and adding time
need no rescheduling: a line is said when the time left crosses its mark. Adding time can lift
the time left back above a mark, and then that warning is said again when it comes round: it is
true again. The timer reads a monotonic clock it is given; it never sleeps and never drifts.
"""

import re
from collections.abc import Callable
from dataclasses import dataclass

from narrator.core.errors import NarratorError
from narrator.core.game import DayRules
from narrator.core.i18n import msg

DISCUSS = "day.discuss"
VOTE = "day.vote"
ADD_SECONDS = 30


@dataclass(frozen=True)
class DayEvent:
    left: float  # said when this many seconds are left
    key: str


def day_line_keys(rules: DayRules) -> list[str]:
    return [DISCUSS, *(f"day.left-{seconds}" for seconds in rules.warnings), VOTE]


def day_spoken_keys(rules: DayRules) -> list[str]:
    """Every line a day can say: its own lines and the countdown's words."""
    return day_line_keys(rules) + [f"count.{n}" for n in range(1, rules.countdown + 1)]


def day_schedule(rules: DayRules, total: float) -> tuple[DayEvent, ...]:
    """Everything said during a discussion of ``total`` seconds, latest-left first."""
    events = [DayEvent(total, DISCUSS)]
    events += [DayEvent(seconds, f"day.left-{seconds}") for seconds in rules.warnings
               if seconds < total and seconds > rules.countdown]
    events += [DayEvent(n, f"count.{n}") for n in range(min(rules.countdown, int(total)), 0, -1) if n < total]
    events.append(DayEvent(0, VOTE))
    return tuple(events)


def parse_duration(text: str) -> int:
    """``5m``, ``90s``, ``2m30s``, ``1:30`` or a plain number of seconds → seconds."""
    value = text.strip().lower()
    if not value.isascii() or len(value) > 20:  # digits are ASCII ones: '²' or '٣' is not a duration
        raise _bad_duration(text)
    if match := re.fullmatch(r"(\d+):([0-5]\d)", value):
        seconds = int(match[1]) * 60 + int(match[2])
    elif match := re.fullmatch(r"(?:(\d+)\s*m(?:in)?)?\s*(?:(\d+)\s*s(?:ec)?)?", value):
        if not (match[1] or match[2]):
            raise _bad_duration(text)
        seconds = int(match[1] or 0) * 60 + int(match[2] or 0)
    elif value.isdigit():
        seconds = int(value)
    else:
        raise _bad_duration(text)
    if not 1 <= seconds <= 3600:
        raise NarratorError(msg("a day of '{duration}' is out of reach: choose from 1 second to 60 minutes",
                                duration=text.strip()))
    return seconds


def _bad_duration(text: str) -> NarratorError:
    return NarratorError(msg("'{duration}' is not a duration: write it like 5m, 90s, 2m30s or 1:30",
                             duration=text.strip()))


class DayTimer:
    """Time left in the discussion, on a monotonic clock; pause, add time, vote now."""

    def __init__(self, rules: DayRules, total: float, clock: Callable[[], float]):
        self.rules = rules
        self.clock = clock
        self.events = day_schedule(rules, total)
        self._deadline = clock() + total
        self._paused_left: float | None = None
        self._said_above = total + 1  # every event with left >= this has been said
        self.voting = False
        self.left_at_call: float | None = None  # the time left when the group called the vote early

    def left(self) -> float:
        if self.voting:
            return 0.0
        if self._paused_left is not None:
            return self._paused_left
        return max(0.0, self._deadline - self.clock())

    @property
    def paused(self) -> bool:
        return self._paused_left is not None

    @property
    def deadline(self) -> float | None:
        """When the time runs out on the clock, while it runs (None while paused or voting): one
        number until a pause or more time changes it, so that screens elsewhere need hearing of it once."""
        return None if self.paused or self.voting else self._deadline

    @property
    def paused_left(self) -> float | None:
        return None if self.voting else self._paused_left

    @property
    def finished(self) -> bool:
        return self._said_above <= 0

    def toggle_pause(self) -> None:
        if self._paused_left is None:
            self._paused_left = self.left()
        else:
            self._deadline = self.clock() + self._paused_left
            self._paused_left = None

    def add_time(self, seconds: float = ADD_SECONDS) -> None:
        if self.voting:
            return
        if self._paused_left is not None:
            self._paused_left += seconds
        else:
            self._deadline += seconds
        self._said_above = max(self._said_above, self.left() + 1e-9)  # marks above the new time left come round again

    def vote_now(self) -> None:
        if not self.voting:
            self.left_at_call = self.left()
        self.voting = True

    @property
    def called_early(self) -> bool:
        """The group called the vote with time left (Enter), rather than the time running out."""
        return self.voting and (self.left_at_call or 0.0) > 0.0

    def shown_left(self) -> float:
        """The time the clock shows: what is left, or, once the vote was called early, what was left then."""
        return self.left_at_call if self.called_early and self.left_at_call is not None else self.left()

    def due(self) -> list[DayEvent]:
        """The events whose mark the time left has reached since the last call, in order."""
        left = self.left()
        if self.voting and self._said_above > 0:
            self._said_above = 0
            return [event for event in self.events if event.key == VOTE]
        due = [event for event in self.events if left <= event.left < self._said_above]
        if due:
            self._said_above = min(event.left for event in due)
        if len([event for event in due if event.key.startswith("count.")]) > 1:
            due = [event for event in due if not event.key.startswith("count.")] + [
                min((event for event in due if event.key.startswith("count.")), key=lambda e: e.left)]
        return due

    def next_mark(self) -> float | None:
        """Seconds until the next event, if the clock runs (for how long to wait)."""
        pending = [event.left for event in self.events if event.left < self._said_above]
        return None if not pending else max(0.0, self.left() - max(pending))
