"""The laptop listens to the tablets (``--listen``): each plays a short code of its own, the
laptop's microphone hears them all, and every tablet's speaker delay is set from when its code
was heard (``narrator.core.arrivals``). Nothing is kept: the recording lives for one round.

A round runs in a thread of its own while the box waits for a Start (before the night, tablets
that join together heard in one; in a game of many nights, before each night that waits for one);
in a game of many nights between two turns, before the next is called (``BoxTable.load``); and
in a night played whole (a one-night game) in a stretch where its voice is silent, over its bed
(``during``). The codes are a short hiss, never under the narration's voice. A round runs when a
tablet that was not listened to yet is in step (a first join, a late join, a reload), when the
controls page asks, and when the laptop, keeping an ear on the night between rounds (``watch``,
``narrator.core.drift``), hears the tablets come apart; the box plays on as before when it cannot
listen. With its ear on the night, each tablet also plays a faint signature of its own under the
night (``narrator.core.signatures``), by which the ear reads every tablet where it is, every
second and a half, and moves one heard off the others back to them, no round needed.
"""

import threading
from collections.abc import Callable, Iterable

import numpy as np

from narrator.core import arrivals, drift, signatures
from narrator.core.errors import NarratorError
from narrator.core.i18n import Text, msg, plural
from narrator.shell.audio.recorder import RECORD_RATE, MicrophoneRecorder, kept_from
from narrator.shell.platform.hints import microphone_refused
from narrator.shell.speakerbox import pace

RATE = RECORD_RATE  # the codes are served at this rate, and recorded at it
LEAD = 1.0  # seconds from telling the tablets to the first code: for the message to reach them, the microphone
# to open and the recording to run EARLY before it (a page has its code already: fetched as the laptop began to listen)
GAP = 0.15  # between one tablet's code and the next: in turn, so that none masks another in the room
PLAYS = 3  # each tablet sounds its code this many times: a page's clock off for a moment is outvoted
TAIL = 1.0  # recorded after the last code ends: a speaker up to 0.9 s late (arrivals.APART), and the microphone's delay
SETTLE = 2.0  # a tablet is listened to once it has been in step this long (its clock settled)
WATCH = 1.5  # seconds of the night recorded each time the laptop checks that the tablets sound as one...
EVERY = 3.0  # ...at most this often (the microphone is opened for each)
PATIENCE = 20.0  # seconds after a round the drift asked for before it may ask for another
GATHER = 4.0  # before the night, seconds a round that fell due waits for tablets still coming into step
SIGNED_EVERY = 1.5  # seconds between the ear's stretches where the nights are signed: each read tells which tablet
PAIRED = 2 * SIGNED_EVERY + WATCH  # seconds: a tablet's read is paired with an earlier one of it at most this long
# before (its stretch's start): the stretch before, or the one before that when one read between was missing
# or wrong (about one in ten: each cost a stretch before the next pair, measured); older, a pause or a round
# may lie between
LOUD = drift.SPLIT  # seconds: a tablet moved by the ear this far is named at the laptop (smaller moves are only logged)


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
    if kept_from(clip.samples):  # (a microphone that fails: the laptop stops listening until asked)
        raise NarratorError(msg("the microphone gave nothing but silence: {fix}, then press Listen to the tablets on "
                                "the controls page", fix=microphone_refused()))
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


def numbered(numbers: Iterable[int]) -> str:
    """Tablets' numbers as a line names them: in order, with commas."""
    return ", ".join(str(number) for number in sorted(numbers))


Recorder = Callable[[float, Callable[[], float]], tuple]
Playing = Callable[[], "tuple[np.ndarray, int, float] | None"]  # the playing night: its samples, rate, sample 0's box time


class Listener:
    """Rounds of listening for one speaker box. ``tell`` says a line at the laptop, ``warn`` a problem."""

    def __init__(self, server, clock: Callable[[], float], tell: Callable[[Text], None], warn: Callable[[Text], None],
                 recorder: Recorder = record, sleep: Callable[[float], object] | None = None, keep_an_ear: bool = True):
        self.server, self.clock, self.tell, self.warn, self.recorder = server, clock, tell, warn, recorder
        self.keeps_an_ear = keep_an_ear  # on the night between rounds (``watch``; without: rounds alone, for a benchmark)
        self._stopping = threading.Event()  # the game is over (``stop``)
        self.sleep = sleep or self._stopping.wait  # (a wait that ``stop`` ends)
        self.sounding = 0.0  # (box time) when the last round's codes are over on the tablets
        self.listened: set[tuple[int, int]] = set()  # (tablet, connection) already listened to
        self.set: set[int] = set()  # tablets whose delay a round set (kept through a reload, as the delay is)
        self.excused: set[tuple[int, int]] = set()  # (tablet, connection) that left out its code once: tried again
        self.doubted: set[tuple[int, int]] = set()  # (tablet, connection) set once by plays in doubt: heard again
        self.ear: list[tuple[float, tuple[float, ...] | None]] = []  # what the watch heard: (box time, copies)
        self.asked = False  # the controls page asked for a round
        self.broken = False  # the microphone failed (or gave only zeros): not tried again unless asked
        self.apart: list[tuple[float, ...]] = []  # what the watch found apart in each stretch since the last round
        self.patient_until = 0.0  # (box time) the watch does not ask for another round before this
        self.watching = False  # the watch has begun (and said so)
        self._next_watch = 0.0
        self._due_since: float | None = None  # (box time) a round fell due while others were coming (``tick``)
        self._night: tuple[object, np.ndarray] | None = None  # (the night's samples as given, at drift.RATE)
        self._signatures: dict[tuple[str, int], np.ndarray] = {}  # (night id, tablet): its signature at signatures.RATE
        self.reads: dict[tuple[int, int], list[tuple[float, float]]] = {}  # each (tablet, connection)'s last two
        # reads by its signature: (box time of the stretch, how late it was heard), the latest last
        self.moved: dict[int, tuple[float, float, bool]] = {}  # tablets the ear moved, until read where they went:
        # (box time until when each is left to get there, how far off the others it was then in seconds, whether
        # by its speaker's delay: else its page's course, moved while it held it)
        self.nudged: list[tuple[float, int, float, bool]] = []  # what the ear moved: (box time, tablet, seconds, by
        # its delay)
        self.signed_ear: list[tuple[float, dict[int, float]]] = []  # what it read: (box time, {tablet: seconds late})
        self.skew: float | None = None  # the microphone's clock against the laptop's, once known (``_read``)
        self.read_all = 0  # stretches in a row in which every tablet connected was read by its signature (or is
        # on its way where the ear moved it: a page that moves is not read)
        self._skews: list[float] = []  # (as found in the last stretches read)
        self._thread: threading.Thread | None = None  # a round's
        self._watcher: threading.Thread | None = None  # a stretch the ear hears (``watch``)
        self._recording_from: float | None = None  # (box time) when the round under way begins to record
        server.listening(self.ask)  # (a tablet that joins plays the night silent until it is heard)
        if keep_an_ear:
            server.sign_nights()  # each tablet's night with a signature of its own, for the ear to tell them apart

    def stop(self) -> None:
        """The game is over: no round or watch begins, a round waiting for its moment gives up, and
        a recording under way ends (an input stream still open when narrate exits makes PortAudio's
        shutdown wait for ever)."""
        self._stopping.set()
        for thread in (self._thread, self._watcher):
            if thread is not None:
                thread.join()

    def ask(self) -> None:
        """The controls page's Listen: a round at the next quiet moment, every tablet in it (and,
        with the ear, the nights signed again: ``_cannot``)."""
        self.asked, self.broken = True, False
        if self.keeps_an_ear:
            self.server.sign_nights()

    def due(self) -> bool:
        """A round is wanted: asked for, or a tablet in step that was not listened to as it is now."""
        if self.busy() or self._stopping.is_set():
            return False
        ready = self.server.ready_tablets(SETTLE)
        if not ready:
            return False
        unsteady = self.server.still_in_doubt()
        return self.asked or (not self.broken and any(
            tablet not in self.listened and not (tablet in self.doubted and tablet[0] in unsteady)
            for tablet in ready.items()))

    def busy(self) -> bool:
        """A round is under way (waiting for its moment, too), or the ear is hearing a stretch."""
        return self._rounding() or (self._watcher is not None and self._watcher.is_alive())

    def _rounding(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def awaiting_steady(self) -> set[tuple[int, int]]:
        """Tablets connected that a round set by plays in doubt, not heard again yet: they are,
        once their page says its timestamps hold still (``due``)."""
        return (self.doubted - self.listened) & set(self.server.connected_tablets().items())

    def tick(self, gather: bool = True) -> None:
        """Called while the box waits for its Start: begins a round when one is due. With
        ``gather``, one that falls due while another tablet is still coming into step waits for it,
        GATHER at most (``coming``)."""
        if not self.due():
            self._due_since = None
            return
        if gather and self.coming():
            if self._due_since is None:
                self._due_since = self.clock()
            if self.clock() - self._due_since < GATHER:
                return
        self._due_since = None
        self.asked = False
        self._recording_from = None
        self._thread = threading.Thread(target=self.round, name="listening", daemon=True)
        self._thread.start()

    def coming(self) -> bool:
        """A tablet is connected, not listened to yet and not in step long enough to be: tablets that
        join together (tapped within seconds of each other) are then heard in one round. A round
        each would cost the last of them the round before its own (5 s) of the 10 s issue 41 gives
        a calibration. Not for the Listen of the controls page."""
        if self.asked:
            return False
        ready = self.server.ready_tablets(SETTLE)
        heard = {number for number, _ in self.listened}  # (every tablet a round set is among them)
        return bool(set(self.server.connected_tablets()) - set(ready) - heard)

    def playing(self, night: Playing, quiet: Callable[[float, float], float | None] | None) -> None:
        """Called every tenth of a second while a night plays: a round when one is due and the
        night leaves room for it (``quiet``; None: a night sent in parts, whose rounds come between
        two turns), else an ear on the night (``watch``)."""
        if not (quiet is not None and self.during(quiet)):
            self.watch(night)

    def during(self, quiet: Callable[[float, float], float | None]) -> bool:
        """While a night plays: a round when one is due, its codes in a stretch the night's voice
        leaves silent. ``quiet(seconds, earliest)`` is the box time, at ``earliest`` or later,
        from which that many seconds of the night go by without its voice (None: none left).
        Whether a round began."""
        if not self.due():
            return False
        # Every tablet connected is given its plays, and those in step as the round begins play
        # (``round``): the stretch may be many seconds ahead, and a tablet that comes in step
        # meanwhile (one that just joined, while the laptop's ear asked for the round) was left
        # out, silent until the stretch after (38 s after joining, in a benchmark night).
        connected = self.server.connected_tablets()
        first = quiet(stretch(len(connected)), self.clock() + LEAD + arrivals.EARLY)
        if first is None:
            return False
        self.asked = False
        self._recording_from = first + arrivals.EARLY - LEAD
        self._thread = threading.Thread(target=self.round, args=(first + arrivals.EARLY, connected), name="listening",
                                        daemon=True)
        self._thread.start()
        return True

    def watch(self, night: Playing) -> None:
        """Between rounds, while a night plays: every EVERY seconds the laptop hears WATCH seconds
        of it, and when two stretches hear the night twice, SPLIT or more apart, a tablet has
        drifted from the others (``narrator.core.drift``): a round is asked for, at the next quiet
        moment. Nothing is kept. ``night()``: the playing night, or None (paused, or none).

        A round waiting for its stretch (seconds, in a night with long lines) does not stop the
        ear: it goes on hearing the night until the round is about to record (the microphone is
        opened by one at a time), and may meanwhile bring back by their signatures the tablets
        the round was asked for."""
        if not self.keeps_an_ear or (self._watcher is not None and self._watcher.is_alive()) or self.broken or \
                self._stopping.is_set() or self.clock() < self._next_watch or not self.server.ready_tablets(SETTLE):
            return
        if self._rounding() and (self._recording_from is None or self._recording_from - self.clock() < WATCH + 0.5):
            return
        self._next_watch = self.clock() + (SIGNED_EVERY if self.server.signed is not None else EVERY)
        if not self.watching:
            self.watching = True
            self.tell(msg("While the night plays the laptop keeps listening to the tablets, to hear one that drifts "
                          "(nothing is kept)."))
        self._watcher = threading.Thread(target=self._watch, args=(night,), name="watching", daemon=True)
        self._watcher.start()

    def _watch(self, night: Playing) -> None:
        if (playing := night()) is None:
            return
        samples, rate, began = playing
        night_id = self.server.night_id
        try:
            recording, start = self.recorder(WATCH, self.clock)
        except NarratorError as error:
            self._cannot(error)
            return
        still = night()
        if still is None or abs(still[2] - began) > 1e-3 or self.server.night_id != night_id:
            return  # paused, moved or ended while it was heard: where it was is not known
        import soxr

        if self.server.signed is not None:
            self._by_signature(recording, start, start - began, night_id)

        if self._night is None or self._night[0] is not samples:
            self._night = (samples, soxr.resample(samples, rate, drift.RATE))
        heard = soxr.resample(recording, RATE * (1 + (self.skew or 0.0)), drift.RATE)  # (on the laptop's clock)
        found = drift.copies(heard, self._night[1], start - began)
        self.ear = [*self.ear[-99:], (start, found)]  # (for a benchmark to show what was heard)
        if found is None:
            return
        self.apart = [*self.apart[-2:], drift.apart(found)]
        distance = drift.drifted(self.apart)
        if distance is None or self.asked or self.clock() < self.patient_until:
            return
        if self.server.signed is not None and self.read_all >= 2:
            return  # (every tablet is read by its signature: the one apart is brought back by it, no round needed)
        self.asked = True
        self.patient_until = self.clock() + PATIENCE
        self.tell(msg("The laptop hears the tablets {ms} ms apart: it listens to them again at the next quiet "
                      "moment.", ms=round(distance * 1000)))

    def _by_signature(self, recording: np.ndarray, start: float, position: float, night_id: str) -> None:
        """Each tablet read by its signature in a stretch of the night (``recording``, at RATE, its
        first sample at box time ``start``, the night at ``position`` seconds as the laptop plays
        it), and one heard off the others (two reads agreeing: a read missing or wrong between them
        is passed over, ``_pair``) moved to them: its speaker delay changed by what it is off, which
        its page takes slowly or where its night is silent, or its page's course where the page
        holds it. A tablet moved is left to get there before it is moved again."""
        connected = self.server.connected_tablets()
        signed: dict[int, np.ndarray] = {}
        for number in connected:
            if (found := self._signature(night_id, number)) is None:
                return  # (another night came in the meantime)
            signed[number] = found
        now = {(number, connected[number]): late for number, late in self._read(recording, position, signed).items()}
        moving = {number for number, (until, *_) in self.moved.items() if until > start}  # (left to get there)
        unread = {number for number in moving if (number, connected.get(number)) not in now}
        self.read_all = self.read_all + 1 if len(now) + len(unread & set(connected)) == len(connected) else 0
        self.signed_ear = [*self.signed_ear[-99:], (start, {number: late for (number, _), late in now.items()})]
        paired = self._pair(now, start)  # {tablet: (box time, how late)}: the earlier read each is paired with
        self.reads = {key: [*self.reads.get(key, [])[-1:], (start, late)] for key, late in now.items()} | \
            {key: kept for key, kept in self.reads.items() if key not in now and start - kept[-1][0] <= PAIRED}
        current = {number: late for (number, socket), late in now.items()}
        last = {number: late for number, (_, late) in paired.items()}
        # Held by the tablets a round set whose page steered by its timestamps since the pair's first
        # read, else by those a round set: a page that has just come to believe its timestamps may
        # move by them (measured: one took its tablet 3 ms ahead for 5 s, and the other tablet set was
        # moved to follow it, then back)
        steered = {number for number, (then, _) in paired.items()
                   if number in self.server.steady_tablets(self.clock() - then)}
        anchored = frozenset(self.set) - moving
        moves = signatures.nudges(last, current, anchored & steered, anchored)
        for number in set(self.moved) - set(moves):  # (believed where it went: free again)
            if number in last and abs(current.get(number, np.inf) - last[number]) <= signatures.AGREE:
                self.moved.pop(number)
                moving.discard(number)
        delays = self.server.delays()
        # A speaker delay is set by two reads heard while its page believed its timestamps and
        # steered by them (counted from the first read's start: a tablet that has just joined is
        # moved as soon as its two reads allow), or by reads from before it came to believe them
        # where they then found it in step (it does not move by itself: what is heard is theirs, or
        # its delay's, to mend; measured, a reloaded page's belief wavered for a moment and held a
        # tablet heard 2 ms off for 9 s). A page that holds its course, its timestamps in doubt,
        # takes a delay only once it believes them again, on top of its own correction then (moved
        # so, it went both ways, measured 2026-12-01): its course is moved instead, by what is heard
        # (``BoxServer.heard_off``), and its timestamps take it from there once believed. One that
        # has come to believe them since the first read and finds itself off by them is left to
        # them, and read again.
        believing = self.server.steady_tablets(0.0)
        for number, seconds in moves.items():
            by_delay = number in steered or (number in believing and
                                             abs(self.server.reckoned(paired[number][0]).get(number, np.inf))
                                             <= signatures.NUDGE)
            if number in moving or (number in believing and not by_delay) or self._stopping.is_set():
                continue  # (moving there; or steering by its timestamps since a moment: they take it where they say)
            if number in self.moved and self.moved[number][2] and by_delay and \
                    abs(seconds - self.moved[number][1]) <= signatures.NUDGE:
                continue  # (still where it was when its delay was set: its page has not taken it; set again, it would go twice as far)
            self.moved[number] = (start + pace.settling(seconds, by_delay) + WATCH + SIGNED_EVERY, seconds, by_delay)
            self.nudged = [*self.nudged[-99:], (start, number, seconds, by_delay)]
            if by_delay:
                self.server.set_delay(number, delays.get(number, 0.0) + seconds * 1000)
            else:
                self.server.heard_off(number, seconds)
            self.reads.pop((number, connected[number]), None)  # (its next read is from where it goes)
            if abs(seconds) >= LOUD:
                self.tell(msg("The laptop hears tablet {tablet} {ms} ms off the others: it brings it back.",
                              tablet=number, ms=round(abs(seconds) * 1000)))

    def _pair(self, now: dict[tuple[int, int], float], start: float) -> dict[int, tuple[float, float]]:
        """The earlier read each tablet read ``now`` (by (tablet, connection), in the stretch from
        box time ``start``) is paired with: of its last two within PAIRED, the latest that agrees
        with this one (a wrong read between two that agree is passed over), else the latest (it
        does not agree: nothing is believed of that tablet yet)."""
        paired = {}
        for (number, socket), late in now.items():
            earlier = [read for read in self.reads.get((number, socket), []) if start - read[0] <= PAIRED]
            agreeing = [read for read in earlier if abs(late - read[1]) <= signatures.AGREE]
            if agreeing or earlier:
                paired[number] = (agreeing or earlier)[-1]
        return paired

    def _signature(self, night_id: str, number: int) -> np.ndarray | None:
        """Tablet ``number``'s signature under the night ``night_id`` at signatures.RATE (made once
        per night), or None when the server plays another night now."""
        import soxr

        if (night_id, number) not in self._signatures:
            found = self.server.signature(number)
            if found is None or found[0] != night_id:
                return None
            self._signatures = {key: value for key, value in self._signatures.items() if key[0] == night_id}
            self._signatures[night_id, number] = soxr.resample(found[1], found[2], signatures.RATE)
        return self._signatures[night_id, number]

    def _read(self, recording: np.ndarray, position: float, signed: dict[int, np.ndarray]) -> dict[int, float]:
        """How late each tablet was heard (seconds, those read clearly), the recording brought to
        the laptop's clock: the microphone keeps its own, a little off (``signatures.skews``),
        found as the one at which the signatures stand out clearest, and kept as the median of the
        last stretches' (``skew``)."""
        import soxr

        best: tuple[float, float, dict[int, float]] = (0.0, 0.0, {})  # (clarity in all, skew, reads)
        for skew in signatures.skews(self.skew):
            heard = soxr.resample(recording, RATE * (1 + skew), signatures.RATE)
            found = {number: read for number, own in signed.items()
                     if (read := signatures.late(heard, own, position)) is not None}
            clarity = sum(read[1] for read in found.values())
            if clarity > best[0]:
                best = (clarity, skew, {number: read[0] for number, read in found.items()})
        if best[2]:
            self._skews = [*self._skews[-8:], best[1]]
            if len(self._skews) >= 3:
                self.skew = float(np.median(self._skews))
        return best[2]

    def _cannot(self, error: NarratorError) -> None:
        """The microphone failed, or the system keeps it from narrate: not tried again unless the
        controls page asks, and every tablet, one waiting to be heard too, plays as it is (none is
        named as not heard: the microphone's silence says nothing of their sound). The nights
        are served without signatures from then on: a hiss nobody reads."""
        self.broken = True
        self.server.unsign_nights()
        self.server.play_unheard()
        self.warn(msg("narrate: {problem}; the tablets play as they are", problem=error))

    def now(self) -> None:
        """A quiet moment between two turns, or the Start: a round when one is due (not waiting for
        tablets still coming), over before the night goes on."""
        self.tick(gather=False)
        self.wait()

    def wait(self) -> None:
        """Let a round in progress finish, and its codes end (they are on their way to the tablets,
        and an input that is not real time, such as ALSA's null device, is read long before)."""
        for thread in (self._thread, self._watcher):
            if thread is not None:
                thread.join()
        if (left := self.sounding - self.clock()) > 0:
            self.sleep(left)

    def _unplaced(self, heard: arrivals.Heard) -> list[int]:
        """The tablets new to the rounds that ``heard`` cannot place. Only differences are heard: a
        new tablet is placed against one a round set before. With every such tablet still playing
        left out of the round (out of step, reloading) or not heard, where the group plays is not
        known: set against the other new ones alone, a late tablet would stay as far from the group
        as its own speaker is (measured: 40 ms, until the next round). It waits, still silent, for
        a round with them."""
        group = self.set and self.set & set(self.server.connected_tablets())
        if not group or group & set(heard.late):
            return []
        return sorted(set(heard.late) - self.set)

    def _gone(self, heard: arrivals.Heard, ready: dict[int, int]) -> arrivals.Heard:
        """``heard`` without the tablets not heard whose page reloaded or went while the round
        played (another connection now, or none): their silence says nothing of their sound, and
        named as missed, a reloaded tablet was said to have its sound down (the benchmark's night
        reloads a tablet in the middle of a round). A reloaded page is a tablet new to the rounds
        on its connection, listened to once it is in step."""
        now = self.server.connected_tablets()
        still = tuple(number for number in heard.missing if now.get(number) == ready[number])
        return arrivals.Heard(heard.late, still)

    def _excuse(self, heard: arrivals.Heard, ready: dict[int, int],
                told: float) -> tuple[arrivals.Heard, set[tuple[int, int]]]:
        """``heard`` without the tablets whose page said it left out its code (its timestamps fell in
        doubt as the code was due): silence from them says nothing of their sound. Such a tablet is
        not named as missed; it stays silent and is listened to at the next quiet moment. Once per
        connection: a page that leaves out its code again is missed as any other, and plays as it is
        (a round is not asked for ever). Also which tablets (with their connection) it left out."""
        if not heard.missing:
            return heard, set()
        left = self.server.codes_left_out(told)
        excused = {(number, ready[number]) for number in heard.missing
                   if number in left and (number, ready[number]) not in self.excused}
        if not excused:
            return heard, set()
        self.excused |= excused
        numbers = [number for number, _ in excused]
        self.tell(plural("Tablet {tablets} could not place its hiss (its sound was not steady yet): the laptop "
                         "listens to it again at the next quiet moment.",
                         "Tablets {tablets} could not place their hiss (their sound was not steady yet): the laptop "
                         "listens to them again at the next quiet moment.", len(numbers),
                         tablets=numbered(numbers)))
        return arrivals.Heard(heard.late, tuple(number for number in heard.missing if number not in numbers)), excused

    def _doubt(self, heard: arrivals.Heard, ready: dict[int, int], told: float) -> None:
        """The tablets set by plays their page placed with its timestamps in doubt (by a little) are
        listened to again once their page says its timestamps hold still: a page that has just
        joined steps a few ms one way for seconds, so such a tablet was set up to 16.5 ms off
        (measured), by the steps still to come. Meanwhile it plays, set as it is. Once per
        connection: a page in doubt again at that round is taken as heard (a round is not asked
        for ever)."""
        doubted = {(number, ready[number]) for number in self.server.codes_in_doubt(told) & set(heard.late)} \
            - self.doubted
        if not doubted:
            return
        self.doubted |= doubted
        self.listened -= doubted
        numbers = [number for number, _ in doubted]
        self.tell(plural("Tablet {tablets} was set while its sound was still settling: the laptop listens to it "
                         "again once its sound holds still.",
                         "Tablets {tablets} were set while their sound was still settling: the laptop listens to "
                         "them again once their sound holds still.", len(numbers),
                         tablets=numbered(numbers)))

    def players(self, settled: float) -> dict[int, int]:
        """The tablets a round would have play now, {number: connection}: one new to the rounds
        once it has been in step ``settled`` seconds; one set by a round before (reloaded since)
        once it is in step; one listened to on this connection while it is connected, in step now
        or not. A page's timestamps fall in doubt for a moment now and then while it plays, and the
        page, placing each play of its code a moment before it, knows better than its last report
        whether it can (it leaves out one it cannot: ``_excuse``). Left out for a doubt as a round
        began, a tablet the round was asked to hear (it drifted) was never heard again: it counted
        as listened to (the --listen rig test, once)."""
        now, settled_ones = self.server.ready_tablets(0.0), self.server.ready_tablets(settled)
        return {number: socket for number, socket in self.server.connected_tablets().items()
                if (number, socket) in self.listened
                or (now if number in self.set else settled_ones).get(number) == socket}

    def round(self, first: float | None = None, ready: dict[int, int] | None = None) -> arrivals.Heard | None:
        """Every tablet in step (``ready``: those the stretch from ``first`` was found for) plays its
        code in turn, from box time ``first`` (LEAD from now when None); each one heard gets its
        delay. The tablets are told LEAD before the first code, when the recording begins; one
        that reloaded since, or that is new to the rounds and out of step then, is left out. A
        page places each play of its code by its clock a moment before it, and leaves out a play
        it cannot place (``_excuse``)."""
        if ready is None:
            ready = self.players(SETTLE)
        if not ready:
            return None
        moments = schedule(sorted(ready), self.clock() + LEAD if first is None else first)
        self.sounding = max(max(plays) for plays in moments.values()) + arrivals.CODE_SECONDS
        begins = min(min(plays) for plays in moments.values()) - LEAD  # the recording (later in a night)
        self._recording_from = begins  # (the ear hears the night until shortly before: ``watch``)
        self.tell(msg("Listening for the tablets: each plays a short hiss while the laptop records {seconds} seconds "
                      "to set it (nothing is kept).", seconds=round(self.sounding + TAIL - begins)))
        if (idle := begins - self.clock()) > 0:
            self.sleep(idle)
        if self._stopping.is_set():
            return None
        players = self.players(SETTLE)  # (as they are now: on the same connection)
        ready = {number: socket for number, socket in ready.items() if players.get(number) == socket}
        moments = {number: plays for number, plays in moments.items() if number in ready}
        if not moments:
            return None
        told = self.clock()
        self.server.play_codes(moments)
        seconds = self.sounding - self.clock() + TAIL
        try:
            recording, start = self.recorder(seconds, self.clock)
        except NarratorError as error:
            self._cannot(error)
            return None
        self.server.hush_unheard = True  # (it can listen: again, after a microphone that failed)
        self.apart = []  # what the watch heard was before these delays
        self.reads, self.moved = {}, {}
        heard = self._gone(arrivals.listen(recording, RATE, start, moments), ready)
        heard, excused = self._excuse(heard, ready, told)
        waiting = self._unplaced(heard)
        self.listened.update(item for item in ready.items() if item[0] not in waiting and item not in excused)
        self.listened -= excused  # (one listened to before, too, is heard again at the next quiet moment)
        self.server.mark_missed(heard.missing)
        if not heard.late and not heard.missing:  # (every tablet left out its code: nothing was learnt)
            return heard
        if waiting:  # (then no tablet set before was heard: none is set)
            self.tell(plural("The laptop heard tablet {tablets} but none of the tablets it had set: it listens "
                             "again at the next quiet moment.",
                             "The laptop heard tablets {tablets} but none of the tablets it had set: it listens "
                             "again at the next quiet moment.", len(waiting),
                             tablets=numbered(waiting)))
            return arrivals.Heard({}, heard.missing)
        if not heard.late:
            self.warn(msg("narrate: the laptop heard none of the tablets (is its microphone on, and their sound "
                          "up?); the tablets play as they are"))
            return heard
        current = self.server.delays()
        for number, delay in arrivals.delays(heard, current, self.server.most_delay_ms, frozenset(self.set)).items():
            self.server.set_delay(number, delay)
        self.set.update(heard.late)
        self.tell(msg("Tablets set by what the laptop heard: {tablets}.", tablets=", ".join(
            f"{number}: {round(late * 1000):+d} ms" for number, late in sorted(heard.late.items()))))
        self._doubt(heard, ready, told)
        if heard.missing:
            self.warn(plural("narrate: the laptop did not hear tablet {tablets}: is its sound up? It plays as it is.",
                             "narrate: the laptop did not hear tablets {tablets}: is their sound up? They play as "
                             "they are.", len(heard.missing),
                             tablets=numbered(heard.missing)))
        return heard
