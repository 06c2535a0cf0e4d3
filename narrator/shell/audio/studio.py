"""A recorded take made into a line the game can play: what a small studio would do to it.

A take from ``narrate voices record`` starts with the click of the Enter key that started it and
ends with the reach for Enter and its click; under it all lies the room's noise (a fan, a
fridge, a laptop's own). The take is cleaned in this order:

1. an 80 Hz high-pass (fourth-order Butterworth) takes out rumble and handling thumps, which
   laptop speakers cannot play and which would count in the loudness;
2. the room's noise floor is measured (the quiet end of the take's 10 ms levels), and the
   voice is what stands well above it: short bursts apart from the voice (a key click) and the
   noise before and after are cut, keeping a little room around the words;
3. 3 ms fades at the edges, and the loudness every line has (``loudness.LINE_LUFS``) under the
   true-peak ceiling.

What is kept is what the game plays, and the reader hears exactly that before keeping it. A
take is also checked for what the reader can fix: clipping (the input was too loud), nothing
above the noise, and a count word too long to fit its second.
"""

from dataclasses import dataclass

import numpy as np

from narrator.shell.audio import loudness
from narrator.shell.audio.clip import Clip

HIGH_PASS_HZ = 80.0
WINDOW_SECONDS = 0.010  # the level is followed in 10 ms windows
FLOOR_PERCENTILE = 10  # the room's noise: the level the quietest tenth of the take stays under
VOICE_OVER_FLOOR_DB = 12.0  # a window this far above the noise floor holds the voice...
VOICE_UNDER_PEAK_DB = 40.0  # ...and so does one within this of the loudest (a take with no noise at all)
EDGE_OVER_FLOOR_DB = 6.0  # from there, the voice's soft onset and decay are followed down to this
CLICK_SECONDS = 0.060  # a burst this short, standing apart from the voice, is a click, not a word
APART_SECONDS = 0.150  # how far from the voice a burst must stand to be taken for a click
LEAD_SECONDS = 0.030  # room kept before the first word (its soft onset)...
TAIL_SECONDS = 0.080  # ...and after the last (its decay)
CLIPPED_LEVEL = 0.999  # a sample this close to full scale was clipped by the input


@dataclass(frozen=True)
class Take:
    """A processed take and what the reader should hear about it."""

    clip: Clip  # what the game will play
    clipped_samples: int  # samples of the raw take at full scale
    noise_floor_db: float  # the room's level in dBFS (RMS of a 10 ms window)

    @property
    def silent(self) -> bool:
        return len(self.clip.samples) == 0


def process_take(raw: Clip, target_lufs: float = loudness.LINE_LUFS) -> Take:
    """The take as the game will play it: high-passed, trimmed to the voice, levelled."""
    samples = np.asarray(raw.samples, dtype=np.float32)  # finite: the recorder hands on nothing else
    clipped = int(np.count_nonzero(np.abs(samples) >= CLIPPED_LEVEL))
    filtered = high_pass(samples, raw.rate)
    levels = window_levels_db(filtered, raw.rate)
    floor = noise_floor_db(levels)
    start, end = voice_span(levels, floor, raw.rate)
    if start >= end:
        return Take(Clip(filtered[:0], raw.rate), clipped, floor)
    voice = loudness.fade_edges(Clip(filtered[start:end].astype(np.float32), raw.rate))
    gain = loudness.normalising_gain_db(voice, target_lufs)
    return Take(loudness.levelled(voice, gain), clipped, floor)


CHUNK = 1 << 20  # samples filtered and measured at once: a take of any length costs two copies of itself


def high_pass(samples: np.ndarray, rate: int, cutoff: float = HIGH_PASS_HZ) -> np.ndarray:
    """Fourth-order Butterworth high-pass at ``cutoff`` Hz (24 dB per octave below it)."""
    out = np.empty(len(samples), dtype=np.float32)
    if len(samples) == 0:
        return out
    from scipy import signal  # already loaded with pyloudnorm, which every take needs

    sections = signal.butter(4, cutoff, btype="highpass", fs=rate, output="sos")
    state = np.zeros((sections.shape[0], 2))
    for start in range(0, len(samples), CHUNK):
        filtered, state = signal.sosfilt(sections, samples[start:start + CHUNK].astype(np.float64), zi=state)
        out[start:start + len(filtered)] = filtered
    return out


def window_levels_db(samples: np.ndarray, rate: int) -> np.ndarray:
    """The RMS level of each 10 ms window, in dBFS."""
    size = max(1, int(rate * WINDOW_SECONDS))
    count = len(samples) // size
    power = np.empty(count)
    step = max(1, CHUNK // size)  # whole windows at a time
    for first in range(0, count, step):
        last = min(count, first + step)
        piece = samples[first * size:last * size].astype(np.float64).reshape(last - first, size)
        power[first:last] = np.mean(np.square(piece), axis=1)
    return 10 * np.log10(np.maximum(power, 1e-12))


def noise_floor_db(levels: np.ndarray) -> float:
    """The room's level: what the quietest tenth of the windows stays under."""
    if len(levels) == 0:
        return -120.0
    return float(np.percentile(levels, FLOOR_PERCENTILE))


def voice_span(levels: np.ndarray, floor_db: float, rate: int) -> tuple[int, int]:
    """First and last sample (end excluded) of the voice: from the first to the last burst that is
    not a click, with a little room either side. (0, 0) when nothing stands above the noise."""
    if len(levels) == 0:
        return 0, 0
    threshold = max(floor_db + VOICE_OVER_FLOOR_DB, float(levels.max()) - VOICE_UNDER_PEAK_DB)
    bursts = _runs(levels > threshold)
    if not bursts:
        return 0, 0
    merged = _merge(bursts, gap=int(round(APART_SECONDS / WINDOW_SECONDS)))
    shortest = int(round(CLICK_SECONDS / WINDOW_SECONDS))
    words = [(first, last) for first, last in merged if last - first >= shortest]
    if not words:
        return 0, 0
    window = int(rate * WINDOW_SECONDS)
    first, last = words[0][0], words[-1][1]
    edge = max(floor_db + EDGE_OVER_FLOOR_DB, float(levels.max()) - VOICE_UNDER_PEAK_DB)
    while first > 0 and levels[first - 1] > edge:
        first -= 1
    while last < len(levels) and levels[last] > edge:
        last += 1
    start = max(0, first * window - int(rate * LEAD_SECONDS))
    end = min(len(levels) * window, last * window + int(rate * TAIL_SECONDS))
    # The room kept around the words never reaches into a click beside them.
    before = [burst for burst in merged if burst[1] <= first]
    after = [burst for burst in merged if burst[0] >= last]
    if before:
        start = max(start, before[-1][1] * window)
    if after:
        end = min(end, after[0][0] * window)
    return start, end


def _runs(loud: np.ndarray) -> list[tuple[int, int]]:
    """The runs of True as (first, last + 1) window indices."""
    edges = np.diff(np.concatenate([[0], loud.astype(np.int8), [0]]))
    return list(zip(np.flatnonzero(edges == 1).tolist(), np.flatnonzero(edges == -1).tolist(), strict=True))


def _merge(runs: list[tuple[int, int]], gap: int) -> list[tuple[int, int]]:
    """Runs less than ``gap`` windows apart joined: the syllables of one line are one burst."""
    merged = [runs[0]]
    for first, last in runs[1:]:
        if first - merged[-1][1] < gap:
            merged[-1] = (merged[-1][0], last)
        else:
            merged.append((first, last))
    return merged
