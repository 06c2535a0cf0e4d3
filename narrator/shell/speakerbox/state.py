"""What every tablet must know to play and show the game in step: pure state, no I/O.

Times are seconds on the server's monotonic clock. The night is a playhead: at server time
``anchor_time`` the night was (or will be) at ``anchor_offset`` seconds, and it moves on from
there while ``running``. A tablet that joins late, reloads or wakes up computes where the night
is from these three numbers alone.
"""

import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

START_LEAD = 0.5  # seconds between "start" and the first sample: time for every tablet to schedule it


@dataclass
class Playhead:
    anchor_time: float = 0.0
    anchor_offset: float = 0.0
    running: bool = False

    def position(self, now: float) -> float:
        return self.anchor_offset + (now - self.anchor_time if self.running else 0.0)

    def start_at(self, when: float, offset: float) -> None:
        self.anchor_time, self.anchor_offset, self.running = when, offset, True

    def hold(self, now: float) -> None:
        self.anchor_offset, self.anchor_time, self.running = max(0.0, self.position(now)), now, False


@dataclass
class Box:
    """The game as the tablets see it. Changed only through its methods, under one lock."""

    night_length: float
    phases: list[tuple[float, str]]  # (seconds into the night, what to show)
    clock: Callable[[], float]
    on_change: Callable[[], None] = lambda: None
    stage: str = "waiting"
    playhead: Playhead = field(default_factory=Playhead)
    day_deadline: float | None = None
    day_paused_left: float | None = None
    voting: bool = False
    result: list[str] | None = None
    lock: threading.RLock = field(default_factory=threading.RLock)

    # --- the night -----------------------------------------------------------------------

    def new_night(self, night_length: float, phases: list[tuple[float, str]]) -> None:
        """Another night (or another part of one) to play: back to waiting for Start, nothing
        of the last one kept (a game of many nights)."""
        with self.lock:
            self.night_length, self.phases = night_length, phases
            self.stage, self.playhead = "waiting", Playhead()
            self.day_deadline, self.day_paused_left, self.voting, self.result = None, None, False, None
        self.on_change()

    def start_night(self, lead: float = START_LEAD) -> None:
        with self.lock:
            if self.stage != "waiting":
                return
            self.stage = "night"
            self.playhead.start_at(self.clock() + lead, 0.0)
        self.on_change()

    def toggle_pause(self, lead: float = 0.3) -> None:
        with self.lock:
            if self.stage != "night":
                return
            now = self.clock()
            if self.playhead.running:
                self.playhead.hold(now)
            else:
                self.playhead.start_at(now + lead, self.playhead.anchor_offset)
        self.on_change()

    def skip_night(self) -> None:
        """On to dawn at once (the laptop's "next")."""
        with self.lock:
            if self.stage != "night":
                return
            self.playhead.hold(self.clock())
            self.playhead.anchor_offset = self.night_length
        self.on_change()

    def night_position(self) -> float:
        with self.lock:
            return self.playhead.position(self.clock())

    def night_over(self) -> bool:
        with self.lock:
            return self.stage != "waiting" and (self.stage != "night" or self.night_position() >= self.night_length)

    # --- the day -------------------------------------------------------------------------

    def show_day(self, deadline: float | None, paused_left: float | None, voting: bool) -> None:
        with self.lock:
            changed = (self.stage, self.day_deadline, self.day_paused_left, self.voting) != (
                "day", deadline, paused_left, voting)
            self.stage, self.day_deadline, self.day_paused_left, self.voting = "day", deadline, paused_left, voting
            self.playhead.running = False
        if changed:
            self.on_change()

    def show_result(self, lines: list[str]) -> None:
        with self.lock:
            self.stage, self.result = "result", list(lines)
        self.on_change()

    # --- what a tablet is told -------------------------------------------------------------

    def snapshot(self) -> dict[str, Any]:
        with self.lock:
            return {
                "type": "state",
                "stage": self.stage,
                "now": self.clock(),
                "night": {"anchor_time": self.playhead.anchor_time, "anchor_offset": self.playhead.anchor_offset,
                          "running": self.playhead.running, "length": self.night_length,
                          "phases": [{"start": start, "label": label} for start, label in self.phases]},
                "day": None if self.stage != "day" else {"deadline": self.day_deadline,
                                                          "paused_left": self.day_paused_left,
                                                          "voting": self.voting},
                "result": self.result,
            }
