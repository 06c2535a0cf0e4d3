"""The laptop listens to the tablets (``--listen``): each plays a short code of its own, the
laptop's microphone hears them all, and every tablet's speaker delay is set from when its code
was heard (``narrator.core.arrivals``). Nothing is kept: the recording lives for one round.

A round runs in a thread of its own while the box waits for a Start (before the night; in a game
of many nights, before each night that waits for one); in a game of many nights between two turns,
before the next is called (``BoxTable.load``); and in a night played whole (a one-night game) in
a stretch where its voice is silent, over its bed (``during``). The codes are a short hiss, never
under the narration's voice. A round runs when a tablet that was not listened to yet is in step
(a first join, a late join, a reload), and when the controls page asks; the box plays on as
before when it cannot listen.
"""

import threading
import time
from collections.abc import Callable

from narrator.core import arrivals
from narrator.core.errors import NarratorError
from narrator.core.i18n import Text, msg, plural
from narrator.shell.audio.recorder import RECORD_RATE, MicrophoneRecorder

RATE = RECORD_RATE  # the codes are served at this rate, and recorded at it
LEAD = 1.5  # seconds from telling the tablets to the first code: time to fetch and decode it
GAP = 0.15  # between one tablet's code and the next: in turn, so that none masks another in the room
PLAYS = 3  # each tablet sounds its code this many times: a page's clock off for a moment is outvoted
TAIL = 1.0  # recorded after the last code ends: a speaker up to 0.9 s late (arrivals.APART), and the microphone's delay
SETTLE = 2.0  # a tablet is listened to once it has been in step this long (its clock settled)


def record(seconds: float, clock: Callable[[], float]):
    """``seconds`` of the default input (mono, RATE) and the box time of its first sample: the
    earliest of (when a block arrived − what had been recorded by then), which a block delayed on
    its way only makes later. The microphone is the one the group records its own voice with."""
    wanted = int(seconds * RATE)
    stop = threading.Event()
    starts: list[float] = []
    recorded = 0

    def arrived(frames: int, lost: bool) -> None:
        nonlocal recorded
        recorded += frames
        starts.append(clock() - recorded / RATE)
        if recorded >= wanted:
            stop.set()  # (a device that is not real time, such as ALSA's null one, gives it at once)

    stalled = threading.Timer(seconds + 2.0, stop.set)  # an input that stalls gives what it gave
    stalled.start()
    try:
        clip = MicrophoneRecorder().record(stop, arrived=arrived)
    finally:
        stalled.cancel()
    return clip.samples[:wanted], (min(starts) if starts else clock())


def schedule(tablets: list[int], first: float) -> dict[int, tuple[float, ...]]:
    """When each tablet sounds its code (box time): in turn, PLAYS times over, each code again
    only arrivals.APART after its last play."""
    slot = arrivals.CODE_SECONDS + GAP
    again = max(arrivals.APART, len(tablets) * slot)
    return {number: tuple(first + play * again + index * slot for play in range(PLAYS))
            for index, number in enumerate(tablets)}


def stretch(tablets: int) -> float:
    """The seconds of a night without its voice that a round of ``tablets`` needs while the night
    plays: each play is looked for from arrivals.EARLY before its moment to arrivals.APART after
    it, and nothing but the codes and the bed should sound there."""
    plays = schedule(list(range(tablets)), 0.0)
    return max(max(moments) for moments in plays.values()) + arrivals.APART


Recorder = Callable[[float, Callable[[], float]], tuple]


class Listener:
    """Rounds of listening for one speaker box. ``tell`` says a line at the laptop, ``warn`` a problem."""

    def __init__(self, server, clock: Callable[[], float], tell: Callable[[Text], None], warn: Callable[[Text], None],
                 recorder: Recorder = record, sleep: Callable[[float], None] = time.sleep):
        self.server, self.clock, self.tell, self.warn, self.recorder = server, clock, tell, warn, recorder
        self.sleep = sleep
        self.sounding = 0.0  # (box time) when the last round's codes are over on the tablets
        self.listened: set[tuple[int, int]] = set()  # (tablet, connection) already listened to
        self.asked = False  # the controls page asked for a round
        self.broken = False  # the microphone could not be opened: not tried again unless asked
        self._thread: threading.Thread | None = None

    def ask(self) -> None:
        """The controls page's Listen: a round at the next quiet moment, every tablet in it."""
        self.asked, self.broken = True, False

    def due(self) -> bool:
        """A round is wanted: asked for, or a tablet in step that was not listened to as it is now."""
        if self.busy():
            return False
        ready = self.server.ready_tablets(SETTLE)
        if not ready:
            return False
        return self.asked or (not self.broken and any(tablet not in self.listened for tablet in ready.items()))

    def busy(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def tick(self) -> None:
        """Called while the box waits (for its Start): begins a round when one is due."""
        if self.due():
            self.asked = False
            self._thread = threading.Thread(target=self.round, name="listening", daemon=True)
            self._thread.start()

    def during(self, quiet: Callable[[float, float], float | None]) -> None:
        """While a night plays: a round when one is due, its codes in a stretch the night's voice
        leaves silent. ``quiet(seconds, earliest)`` is the box time, at ``earliest`` or later,
        from which that many seconds of the night go by without its voice (None: none left)."""
        if not self.due():
            return
        ready = self.server.ready_tablets(SETTLE)
        first = quiet(stretch(len(ready)), self.clock() + LEAD + arrivals.EARLY)
        if first is None:
            return
        self.asked = False
        self._thread = threading.Thread(target=self.round, args=(first + arrivals.EARLY, ready), name="listening",
                                        daemon=True)
        self._thread.start()

    def now(self) -> None:
        """A quiet moment between two turns: a round when one is due, over before the night goes on."""
        self.tick()
        self.wait()

    def wait(self) -> None:
        """Let a round in progress finish, and its codes end (they are on their way to the tablets,
        and an input that is not real time, such as ALSA's null device, is read long before)."""
        if self._thread is not None:
            self._thread.join()
        if (left := self.sounding - self.clock()) > 0:
            self.sleep(left)

    def round(self, first: float | None = None, ready: dict[int, int] | None = None) -> arrivals.Heard | None:
        """Every tablet in step (``ready``: those the stretch from ``first`` was found for) plays its
        code in turn, from box time ``first`` (LEAD from now when None); each one heard gets its
        delay. The recording begins a little before the first code."""
        if ready is None:
            ready = self.server.ready_tablets(SETTLE)
        if not ready:
            return None
        moments = schedule(sorted(ready), self.clock() + LEAD if first is None else first)
        self.sounding = max(max(plays) for plays in moments.values()) + arrivals.CODE_SECONDS
        begins = min(min(plays) for plays in moments.values()) - LEAD  # the recording (later in a night)
        self.tell(msg("Listening for the tablets: each plays a short hiss while the laptop records {seconds} seconds "
                      "to set it (nothing is kept).", seconds=round(self.sounding + TAIL - begins)))
        self.server.play_codes(moments)
        if (idle := begins - self.clock()) > 0:
            self.sleep(idle)
        seconds = self.sounding - self.clock() + TAIL
        try:
            recording, start = self.recorder(seconds, self.clock)
        except NarratorError as error:
            self.broken = True
            self.warn(msg("narrate: {problem}; the tablets play as they are", problem=error))
            return None
        self.listened.update(ready.items())
        heard = arrivals.listen(recording, RATE, start, moments)
        if not heard.late:
            self.warn(msg("narrate: the laptop heard none of the tablets (is its microphone on, and their sound "
                          "up?); the tablets play as they are"))
            self.server.mark_missed(heard.missing)
            return heard
        current = self.server.delays()
        for number, delay in arrivals.delays(heard, current, self.server.most_delay_ms).items():
            self.server.set_delay(number, delay)
        self.server.mark_missed(heard.missing)
        self.tell(msg("Tablets set by what the laptop heard: {tablets}.", tablets=", ".join(
            f"{number}: {round(late * 1000):+d} ms" for number, late in sorted(heard.late.items()))))
        if heard.missing:
            self.warn(plural("narrate: the laptop did not hear tablet {tablets}: is its sound up? It plays as it is.",
                             "narrate: the laptop did not hear tablets {tablets}: is their sound up? They play as "
                             "they are.", len(heard.missing),
                             tablets=", ".join(str(number) for number in heard.missing)))
        return heard
