"""Whether the tablets still sound as one, from what the laptop hears of the night (issue 41, point 2).

After a round of listening (``arrivals``) every tablet sounds at the same moment, so the
microphone hears the night once, late by a delay common to all. A tablet that drifts later (its
speaker's own latency changed: a Bluetooth speaker that reconnected, a sound server that caught
up after a stall) is a second copy of the night, tens of milliseconds from the first. Which
tablet it is cannot be told from the mix, since they all play the same night: a copy heard apart
asks for another round of codes, which can.

Where the copies are is read by correlating what was heard with the night itself, each frequency
divided by the night's own power there (the night whitened, a cousin of the phase transform,
"GCC-PHAT"): every copy is a sharp peak, whatever the night's spectrum, and two copies close
together make no third between them (as the phase transform's division by the product of both
does). A stretch of the night that repeats itself within the delays looked at (the drums' loop)
would show copies that are only the loop: such a stretch is not read at all.

Pure: the recording and the night are arguments, at one rate (``RATE``); nothing here records.
"""

import numpy as np

RATE = 8000  # Hz: what is compared (the recording and the night brought to it): 0.125 ms a sample
LOWEST, HIGHEST = 300.0, 3400.0  # Hz: the band compared, what any tablet's speaker and any microphone pass
SOONEST, LATEST = -0.3, 1.0  # seconds: the delays looked at (a page's clock a little off; a speaker up to 0.9 s late)
SPLIT = 0.015  # two copies this far apart (seconds) are two groups of tablets out of step with each other
FAINTEST = 0.12  # a copy counts when its peak is at least this share of the strongest one's...
CLEAR = 6.0  # ...and this many times the correlation's median magnitude (a peak, not the noise)
SAME = 0.001  # seconds: the same distance between copies, heard in two stretches
ALONE = 0.15  # a stretch of the night whose correlation with itself peaks elsewhere this high repeats itself
GUARD = 0.002  # seconds either side of a peak that belong to it


def correlation(heard: np.ndarray, span: np.ndarray) -> np.ndarray:
    """How ``heard`` lines up with ``span`` (longer) from each start in it, each frequency in the
    band divided by the span's power there (with a floor of a hundredth of its mean, so that a
    band the night hardly has does not amplify the room's noise): a copy of the span in ``heard``
    is a sharp peak, as tall as that copy is loud."""
    size = 1 << int(np.ceil(np.log2(len(span) + len(heard))))
    night = np.fft.rfft(span.astype(np.float64), size)
    product = night * np.conj(np.fft.rfft(heard.astype(np.float64), size))
    power = np.abs(night) ** 2
    frequencies = np.fft.rfftfreq(size, 1 / RATE)
    keep = (frequencies >= LOWEST) & (frequencies <= HIGHEST)
    floor = 1e-2 * float(np.mean(power[keep]) if keep.any() else 0.0) + 1e-18  # (none kept: a few samples)
    weighted = np.where(keep, product / (power + floor), 0)
    return np.fft.irfft(weighted, size)[: len(span) - len(heard) + 1]


def peaks(found: np.ndarray) -> list[tuple[int, float]]:
    """The peaks of ``found`` that count (index, share of the strongest), strongest first; none
    when even the strongest does not stand out of the noise."""
    scores = found.copy()
    noise = float(np.median(np.abs(scores))) + 1e-12
    top = float(np.max(scores)) if len(scores) else 0.0
    if top < CLEAR * noise:
        return []
    guard = round(GUARD * RATE)
    out: list[tuple[int, float]] = []
    while len(out) < 6:
        best = int(np.argmax(scores))
        value = float(scores[best])
        if value < max(FAINTEST * top, CLEAR * noise):
            break
        out.append((best, value / top))
        scores[max(0, best - guard): best + guard + 1] = -np.inf
    return out


def copies(heard: np.ndarray, night: np.ndarray, position: float) -> tuple[float, ...] | None:
    """How late (seconds, strongest first) each copy of the night in ``heard`` is, where ``heard``'s
    first sample would be the night at ``position`` (seconds) heard with no delay. None when this
    stretch cannot tell: outside the night, silent, or a stretch that repeats itself within the
    delays looked at."""
    length = len(heard)
    low = round((position - LATEST) * RATE)
    high = round((position - SOONEST) * RATE) + length
    if low < 0 or high > len(night) or length == 0:
        return None
    span = night[low:high]
    itself = round(LATEST * RATE)  # where the stretch's own start is in the span
    alone = peaks(correlation(span[itself: itself + length], span))
    if not alone or any(abs(index - itself) > round(SPLIT * RATE) and share >= ALONE for index, share in alone):
        return None  # silent, or it repeats: a copy found there could be the loop
    found = peaks(correlation(heard, span))
    return tuple(LATEST - index / RATE for index, _ in found) or None


def apart(found: tuple[float, ...]) -> tuple[float, ...]:
    """How far (seconds) each copy is from the strongest one, for those SPLIT or more away."""
    return tuple(abs(late - found[0]) for late in found[1:] if abs(late - found[0]) >= SPLIT)


def drifted(history: list[tuple[float, ...]]) -> float | None:
    """The distance (seconds) between copies heard in two of the last three stretches read (each
    what ``apart`` found there), or None. One stretch alone is not believed: noise and the night's
    own likeness to itself make stray peaks, at a different distance each time."""
    recent = history[-3:]
    for index, distances in enumerate(recent):
        for distance in distances:
            if any(abs(distance - other) <= SAME for later in recent[index + 1:] for other in later):
                return distance
    return None
