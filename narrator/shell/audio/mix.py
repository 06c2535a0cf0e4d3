"""The whole night as one audio timeline, readable block by block from any sample.

Clips are placed by ``narrator.core.timeline.layout`` in whole samples, so every count tick sits on
its sample exactly; nothing here sleeps or measures time. The bed under the voice is ducked by an
envelope computed from the speech regions themselves (not from a follower reacting to the
signal), which makes the mix the same whichever block is read first: playback, pause and resume,
and rendering to a file all read the same samples.
"""

import bisect
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, replace

import numpy as np

from narrator.core.script import Cue, NightScript, Tick
from narrator.core.timeline import PRE_ROLL_SECONDS, layout
from narrator.shell.audio.clip import Clip
from narrator.shell.audio.onset import perceived_onset


@dataclass(frozen=True)
class MixSettings:
    rate: int = 48000
    duck_db: float = -12.0  # the bed under speech
    count_duck_db: float = -6.0  # ...and under the count's words alone: the pulse carries on beneath them
    attack: float = 0.15  # seconds the bed takes to dip before a line
    release: float = 0.4  # ...and to come back after it
    hold: float = 1.3  # speech closer than this stays one region: counted seconds do not pump the bed
    pre_roll: float = PRE_ROLL_SECONDS  # the bed alone before the first line
    fade_in: float = 2.0
    fade_out: float = 3.0  # from the start of the last line (daybreak)
    tail: float = 1.0  # after the last line and the fade

    def carrying_on(self) -> "MixSettings":
        """For a part of a night that carries on from the one before (a moderator's night is
        spoken a turn at a time): the bed comes back at once instead of opening the night again,
        which put two seconds of it before every turn's first word."""
        return replace(self, pre_roll=CARRY_ON_SECONDS, fade_in=CARRY_ON_SECONDS)


CARRY_ON_SECONDS = 0.5


@dataclass(frozen=True)
class PlacedClip:
    start: int
    samples: np.ndarray
    cue: Cue

    @property
    def end(self) -> int:
        return self.start + len(self.samples)


@dataclass(frozen=True)
class CountWindow:
    phase: str
    start: int
    seconds: int


class NightAudio:
    """The night mixed on demand: ``block(start, frames)`` gives those samples, float32 mono."""

    def __init__(self, clips: list[PlacedClip], counts: list[CountWindow], bed: Clip | None,
                 settings: MixSettings, length: int):
        self.clips = sorted(clips, key=lambda c: c.start)
        self.counts = counts
        self.settings = settings
        self.rate = settings.rate
        self.length = length
        self._starts = [clip.start for clip in self.clips]
        self._longest = max((len(clip.samples) for clip in self.clips), default=0)
        self._bed = None if bed is None else bed.samples
        hold = round(settings.hold * self.rate)
        counted = [isinstance(clip.cue, Tick) for clip in self.clips]
        depth = (1 - 10 ** (settings.count_duck_db / 20)) / (1 - 10 ** (settings.duck_db / 20))
        self.regions = ([(start, end, 1.0) for start, end in speech_regions(
            [(c.start, c.end) for c, tick in zip(self.clips, counted, strict=True) if not tick], hold)]
            + [(start, end, depth) for start, end in speech_regions(
                [(c.start, c.end) for c, tick in zip(self.clips, counted, strict=True) if tick], hold)])
        last = self.clips[-1].start if self.clips else 0
        self.fade_out_start = last

    @property
    def seconds(self) -> float:
        return self.length / self.rate

    def block(self, start: int, frames: int) -> np.ndarray:
        frames = max(0, min(frames, self.length - start))
        out = np.zeros(frames, dtype=np.float32)
        if frames == 0:
            return out
        if self._bed is not None:
            out += self.bed_block(start, frames)
        first = bisect.bisect_left(self._starts, start - self._longest)
        last = bisect.bisect_left(self._starts, start + frames)
        for clip in self.clips[first:last]:
            lo, hi = max(start, clip.start), min(start + frames, clip.end)
            if lo < hi:
                out[lo - start:hi - start] += clip.samples[lo - clip.start:hi - clip.start]
        return out

    def bed_block(self, start: int, frames: int) -> np.ndarray:
        """The bed alone, looped, ducked and faded, for these samples."""
        if self._bed is None:
            return np.zeros(frames, dtype=np.float32)
        positions = np.arange(start, start + frames)
        bed = self._bed[positions % len(self._bed)]
        return (bed * self.bed_gain(positions)).astype(np.float32)

    def bed_gain(self, positions: np.ndarray) -> np.ndarray:
        s = self.settings
        gain = 1 - (1 - 10 ** (s.duck_db / 20)) * duck_amount(
            positions, self.regions, round(s.attack * self.rate), round(s.release * self.rate))
        if positions[0] < s.fade_in * self.rate:
            gain *= _smooth(np.clip(positions / (s.fade_in * self.rate), 0, 1))
        if positions[-1] > self.fade_out_start:
            gain *= _smooth(np.clip(1 - (positions - self.fade_out_start) / (s.fade_out * self.rate), 0, 1))
        return gain

    def blocks(self, frames: int = 65536) -> Iterator[np.ndarray]:
        for start in range(0, self.length, frames):
            yield self.block(start, frames)

    def render(self) -> np.ndarray:
        return np.concatenate(list(self.blocks())) if self.length else np.zeros(0, dtype=np.float32)

    def cue_at(self, position: int) -> PlacedClip | None:
        """The last line or tick that started at or before ``position``."""
        index = bisect.bisect_right(self._starts, position) - 1
        return self.clips[index] if index >= 0 else None

    def phase_starts(self) -> list[tuple[str, int]]:
        """Each part of the night (nightfall, every role called, daybreak) and where it starts."""
        starts: list[tuple[str, int]] = []
        for clip in self.clips:
            if not starts or starts[-1][0] != clip.cue.phase:
                starts.append((clip.cue.phase, clip.start))
        return starts

    def count_at(self, position: int) -> tuple[CountWindow, int] | None:
        """The count window running at ``position`` and the second of it (1-based)."""
        for window in self.counts:
            if window.start <= position < window.start + window.seconds * self.rate:
                return window, (position - window.start) // self.rate + 1
        return None


DEFAULT_MIX = MixSettings()


def build_night(script: NightScript, clips: Mapping[str, Clip], bed: Clip | None,
                settings: MixSettings = DEFAULT_MIX) -> NightAudio:
    """Place the clip of every cue (by key, already at ``settings.rate``) on the script's timeline."""
    rate = settings.rate
    for key, clip in clips.items():
        if clip.rate != rate:
            raise ValueError(f"clip '{key}' is at {clip.rate} Hz, the mix at {rate} Hz")
    onsets = {cue.key: perceived_onset(clips[cue.key].samples, rate) for cue in script.cues() if isinstance(cue, Tick)}
    timeline = layout(script, lambda cue: len(clips[cue.key].samples), units_per_second=rate,
                      onset_of=lambda cue: onsets[cue.key])
    offset = round(settings.pre_roll * rate)
    # a whole number of units per second places every cue on a whole sample
    placed = [PlacedClip(offset + int(p.start), clips[p.cue.key].samples, p.cue) for p in timeline.cues]
    counts = [CountWindow(c.phase, offset + int(c.start), c.seconds) for c in timeline.counts]
    end_of_speech = max((clip.end for clip in placed), default=offset)
    last_start = placed[-1].start if placed else offset
    length = max(end_of_speech, last_start + round(settings.fade_out * rate)) + round(settings.tail * rate)
    return NightAudio(placed, counts, bed, settings, length)


def speech_regions(spans: list[tuple[int, int]], hold: int) -> list[tuple[int, int]]:
    """Merge spans of speech closer than ``hold`` samples into regions where the bed stays down."""
    regions: list[list[int]] = []
    for start, end in sorted(spans):
        if regions and start - regions[-1][1] < hold:
            regions[-1][1] = max(regions[-1][1], end)
        else:
            regions.append([start, end])
    return [(start, end) for start, end in regions]


def duck_amount(positions: np.ndarray, regions: list[tuple[int, int, float]], attack: int, release: int) -> np.ndarray:
    """0 where the bed plays full, a region's depth inside it (1 under lines, less under count
    words), smooth ramps before (attack) and after (release); overlapping regions take the deeper."""
    amount = np.zeros(len(positions))
    if not len(positions):
        return amount
    lo, hi = positions[0], positions[-1]
    for start, end, depth in regions:
        if end + release < lo or start - attack > hi:
            continue
        rise = np.clip((positions - (start - attack)) / max(attack, 1), 0, 1)
        fall = np.clip(1 - (positions - end) / max(release, 1), 0, 1)
        amount = np.maximum(amount, depth * _smooth(np.minimum(rise, fall)))
    return amount


def _smooth(ramp: np.ndarray) -> np.ndarray:
    """A linear 0..1 ramp made into a raised-cosine curve: no corners, so no clicks.

    Only the samples inside a ramp need the cosine; 0 and 1 stay as they are."""
    out = ramp.astype(np.float64, copy=True)
    moving = (ramp > 0) & (ramp < 1)
    if moving.any():
        out[moving] = 0.5 - 0.5 * np.cos(np.pi * ramp[moving])
    return out
