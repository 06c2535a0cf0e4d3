"""Start times for a night script, given how long each spoken cue lasts.

The same function serves the estimate shown before any audio exists (seconds, floats) and the
audio layer's sample-accurate timeline (integer samples): pass ``units_per_second=48000`` and
durations in samples, and every count tick lands exactly on its sample.
"""

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from narrator.core.script import Cue, Line, NightScript

DEFAULT_WORDS_PER_MINUTE = 150
PRE_ROLL_SECONDS = 2.0  # the background alone before the first line; the audio starts with it


@dataclass(frozen=True)
class Placed:
    cue: Cue
    start: float
    duration: float


@dataclass(frozen=True)
class PlacedCount:
    phase: str
    start: float
    seconds: int


@dataclass(frozen=True)
class Timeline:
    cues: tuple[Placed, ...]
    counts: tuple[PlacedCount, ...]
    length: float


def layout(script: NightScript, duration_of: Callable[[Cue], float], units_per_second: float = 1.0,
           start: float = 0, onset_of: Callable[[Cue], float] | None = None) -> Timeline:
    """Place every cue from ``start``: lines one after another with their pauses, ticks on the count's grid.

    ``onset_of`` gives, in the same units, how far into a tick's sound it is heard to start: the
    tick is placed that much earlier, so that what is heard falls on its second.
    """
    whole = isinstance(units_per_second, int)

    def units(seconds: float) -> float:
        value = seconds * units_per_second
        return round(value) if whole else value

    placed: list[Placed] = []
    counts: list[PlacedCount] = []
    cursor = start
    for segment in script.segments:
        if isinstance(segment, Line):
            duration = duration_of(segment)
            placed.append(Placed(segment, cursor, duration))
            cursor += duration + units(segment.pause_after)
        else:
            counts.append(PlacedCount(segment.phase, cursor, segment.seconds))
            placed += [Placed(tick, cursor + (tick.second - 1) * units_per_second - (onset_of(tick) if onset_of else 0),
                              duration_of(tick)) for tick in segment.ticks]
            cursor += segment.seconds * units_per_second
    return Timeline(tuple(placed), tuple(counts), cursor)


def estimate_seconds(cue: Cue, words_per_minute: int = DEFAULT_WORDS_PER_MINUTE) -> float:
    """A rough speaking time for a cue, before any audio exists: its words at a calm pace."""
    words = len(cue.text.split())
    return round(0.3 + words * 60 / words_per_minute, 1)


def script_timeline(script: NightScript, measured: Mapping[str, float] | None = None) -> tuple[Timeline, bool]:
    """Times as the audio will have them: measured lengths where known (a voice pack's), else
    estimates. Returns the timeline and whether every line was measured."""
    measured = measured or {}
    complete = all(cue.key in measured for cue in script.cues())
    timeline = layout(script, lambda cue: measured.get(cue.key) or estimate_seconds(cue), start=PRE_ROLL_SECONDS)
    return timeline, complete
