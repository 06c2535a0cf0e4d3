"""What every tablet must know to play and show the game in step: pure state, no I/O.

Times are seconds on the server's monotonic clock. The night is a playhead: at server time
``anchor_time`` the night was (or will be) at ``anchor_offset`` seconds, and it moves on from
there while ``running``, until ``stop_time`` when a pause has been set. A tablet that joins late,
reloads or wakes up computes where the night is from these numbers alone. A start, a pause and a
resume are all set a little ahead (``START_LEAD``, ``PAUSE_LEAD``), so that every tablet has them
in time to act on the same sample.
"""

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

START_LEAD = 0.5  # seconds between "start" and the first sample: time for every tablet to schedule it
PAUSE_LEAD = 0.4  # ...and between "pause" (or "resume") and the sample where it stops (or goes on)


@dataclass
class Playhead:
    anchor_time: float = 0.0
    anchor_offset: float = 0.0
    running: bool = False
    stop_time: float | None = None  # a pause set ahead: the playhead stands still from then on

    def position(self, now: float) -> float:
        if not self.running:
            return self.anchor_offset
        if self.stop_time is not None:
            now = min(now, self.stop_time)
        return self.anchor_offset + now - self.anchor_time

    def start_at(self, when: float, offset: float) -> None:
        self.anchor_time, self.anchor_offset, self.running, self.stop_time = when, offset, True, None

    def stop_at(self, when: float) -> None:
        """Stand still from ``when`` on (not before the start it follows)."""
        if self.running:
            self.stop_time = max(when, self.anchor_time)

    def hold(self, now: float) -> None:
        self.anchor_offset, self.anchor_time = max(0.0, self.position(now)), now
        self.running, self.stop_time = False, None

    @property
    def paused(self) -> bool:
        """A pause has been asked for (whether or not its moment has come)."""
        return not self.running or self.stop_time is not None


@dataclass
class Box:
    """The game as the tablets see it. Changed only through its methods, under one lock."""

    night_length: float
    phases: list[tuple[float, str]]  # (seconds into the night, what to show)
    clock: Callable[[], float]
    on_change: Callable[[], None] = lambda: None
    counts: list[tuple[float, int]] = field(default_factory=list)  # (seconds into the night, its seconds)
    stage: str = "waiting"
    playhead: Playhead = field(default_factory=Playhead)
    day_deadline: float | None = None
    day_paused_left: float | None = None
    voting: bool = False
    result: list[str] | None = None
    final: bool = False  # the result is the game's end
    waiting_for: str | None = None  # before the first Start: "deal" (the cards), "go-on" (a resumed game), or None
    opens: str = "night"  # what Start opens: the night, or the day (a game resumed before its discussion)
    in_parts: bool = False  # the night is played a turn at a time (a moderator's): no part is the whole night
    lock: threading.RLock = field(default_factory=threading.RLock)

    # --- the night -----------------------------------------------------------------------

    def new_night(self, night_length: float, phases: list[tuple[float, str]],
                  counts: Sequence[tuple[float, int]] = ()) -> None:
        """Another night (or another part of one) to play: back to waiting for Start, nothing
        of the last one kept (a game of many nights)."""
        with self.lock:
            self.night_length, self.phases, self.counts = night_length, phases, list(counts)
            self.stage, self.playhead = "waiting", Playhead()
            self.day_deadline, self.day_paused_left, self.voting, self.result = None, None, False, None
            self.final = False
        self.on_change()

    def start_night(self, lead: float = START_LEAD) -> None:
        """Start: the night plays ``lead`` seconds from now (or the day opens, when Start opens it)."""
        with self.lock:
            if self.stage != "waiting":
                return
            if self.opens == "day":
                self.opens = "night"
                self.stage, self.day_deadline, self.day_paused_left, self.voting = "day", None, None, False
            else:
                self.stage = "night"
                self.playhead.start_at(self.clock() + lead, 0.0)
        self.on_change()

    def pause(self, lead: float = PAUSE_LEAD) -> None:
        """Stop the night ``lead`` seconds from now, on every tablet at the same sample."""
        with self.lock:
            if self.stage != "night" or self.playhead.paused:
                return
            self.playhead.stop_at(self.clock() + lead)
        self.on_change()

    def resume(self, lead: float = PAUSE_LEAD) -> None:
        """Go on from exactly where the pause stopped, ``lead`` seconds from now (or from when
        the pause would have stopped it, if that is later): nothing is played twice."""
        with self.lock:
            now = self.clock()
            head = self.playhead
            if self.stage != "night" or not head.paused:
                return
            if head.running and head.stop_time is not None:  # the pause was set: take it from its moment
                stopped_at = head.stop_time
                head.start_at(max(now + lead, stopped_at), head.position(stopped_at))
            else:
                head.start_at(now + lead, head.anchor_offset)
        self.on_change()

    def toggle_pause(self, lead: float = PAUSE_LEAD) -> None:
        with self.lock:
            paused = self.playhead.paused
        self.resume(lead) if paused else self.pause(lead)

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

    def night_moves(self) -> float | None:
        """While the night plays on (not paused, nor set to pause), the box time of its sample 0:
        a position in the night is this plus its seconds. None otherwise."""
        with self.lock:
            if self.stage != "night" or self.playhead.paused:
                return None
            return self.playhead.anchor_time - self.playhead.anchor_offset

    def voiceless(self, speech: list[tuple[float, float]], seconds: float, earliest: float) -> float | None:
        """The box time, at ``earliest`` or later, from which ``seconds`` of the playing night go by
        without its voice (``speech``: where it sounds, seconds into the night); None while paused,
        or when no such stretch is left (``narrator.core.arrivals.quiet``)."""
        from narrator.core.arrivals import quiet

        if (began := self.night_moves()) is None:
            return None
        offset = quiet(speech, self.night_length, earliest - began, seconds)
        return None if offset is None else began + offset

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

    def open_day(self) -> None:
        """A day off the clock: the discussion is on until the moderator calls the vote (from the
        question the console and the terminal ask), so there is nothing to pause or skip here."""
        self.show_day(None, None, False)

    def call_vote(self) -> None:
        """The day's vote is on (an untimed day's discussion is over)."""
        self.show_day(None, 0, True)

    def show_result(self, lines: list[str], final: bool = True) -> None:
        """What the vote (or a lynching) came to; ``final`` when the game ends with it."""
        with self.lock:
            self.stage, self.result, self.final = "result", list(lines), final
        self.on_change()

    # --- what the laptop's controls may do now -------------------------------------------------

    def actions(self) -> list[str]:
        """The control actions that apply at this stage: Start; Pause or Resume; Next."""
        with self.lock:
            if self.stage == "waiting":
                return ["start"]
            if self.stage == "night":
                if self.night_over():
                    return []
                return ["resume" if self.playhead.paused else "pause", "next"]
            if self.stage == "day" and self.day_deadline is None and self.day_paused_left is None:
                return []  # a day off the clock: the console's question calls the vote
            if self.stage == "day" and not self.voting:
                return ["resume" if self.day_paused_left is not None else "pause", "next"]
            return []

    # --- what a tablet is told -------------------------------------------------------------

    def snapshot(self) -> dict[str, Any]:
        with self.lock:
            return {
                "type": "state",
                "stage": self.stage,
                "now": self.clock(),
                "night": {"anchor_time": self.playhead.anchor_time, "anchor_offset": self.playhead.anchor_offset,
                          "running": self.playhead.running, "stop_time": self.playhead.stop_time,
                          "length": self.night_length,
                          "phases": [{"start": start, "label": label} for start, label in self.phases],
                          "counts": [{"start": start, "seconds": seconds} for start, seconds in self.counts]},
                "day": None if self.stage != "day" else {"deadline": self.day_deadline,
                                                          "paused_left": self.day_paused_left,
                                                          "voting": self.voting},
                "result": self.result,
                "final": self.final,
                "waiting_for": self.waiting_for,
                "opens": self.opens,
                "in_parts": self.in_parts,
                "actions": self.actions(),
            }
