"""Each tablet's signature: a faint noise of its own under the night it plays, by which the
laptop's ear tells the tablets apart while the night plays (issue 41, point 2).

Every tablet plays the same night, so what the microphone hears of the night itself says where
the tablets are as copies, not which tablet is which (``narrator.core.drift``). Under its night
each tablet also plays a noise of its own, far fainter than the night (``LEVEL`` under its
loudness, following it, so that it is never louder than what it hides under), in a band small
speakers play and speech leaves room in. A second of the microphone, correlated with one tablet's
signature, places that tablet alone, to a fraction of a ms, during speech: no quiet moment and
no code to wait for. Measured through Chromium and PulseAudio (benchmarks/marks.py): 32 dB under
the night, every one-second read within 0.05 ms of the truth but for a rare one far off, alone;
a read is believed only when the one before it agrees (``nudges``).

Pure: the night, the recording and the reads are arguments; nothing here records or plays.
"""

import numpy as np

from narrator.core import arrivals, drift

BAND = (1000.0, 6000.0)  # Hz: where the signatures sound, and where they are read
LEVEL = -32.0  # dB: a signature under the night's own loudness
RATE = 16000  # Hz: what is read (the recording and the signature brought to it)
SHORT, SMOOTH = 0.05, 0.2  # seconds: the night's loudness is its power over SHORT, smoothed over SMOOTH more
SOONEST, LATEST = drift.SOONEST, drift.LATEST  # seconds: the lags looked at (a speaker up to 0.9 s late)
CLEAR = 10.0  # a read counts where its peak is this many times the correlation's median magnitude (a tablet
# that plays no signature: 6.4 times, and 8.6 at most in a hundred stretches of a made-up night)
AGREE = 0.001  # seconds: a read is believed when the one before it, of the same tablet, is this close...
NUDGE = 0.001  # ...and a tablet believed this far from the others is moved to them
SKEW_STEP = 25e-6  # the microphone's clock against the laptop's is looked for in steps this fine (a read holds to 50)...
SKEWS = tuple(step * SKEW_STEP for step in range(-12, 13))  # ...within 300 parts per million either way


def signature(number: int, night: np.ndarray, rate: int, level: float = LEVEL) -> np.ndarray:
    """Tablet ``number``'s signature under ``night`` (mono samples at ``rate``): noise of its own
    in BAND, as loud as the night less ``level`` dB, moment by moment. The same number and night
    give the same samples (the laptop makes it to serve and again to read)."""
    length = len(night)
    if length == 0:
        return np.zeros(0, dtype=np.float32)
    noise = np.random.default_rng(52_000 + number).standard_normal(length)
    spectrum = np.fft.rfft(noise)
    frequencies = np.fft.rfftfreq(length, 1 / rate)
    spectrum[(frequencies < BAND[0]) | (frequencies > min(BAND[1], rate / 2))] = 0
    shaped = np.fft.irfft(spectrum, length)
    shaped /= float(np.std(shaped)) + 1e-12
    power = average(night.astype(np.float64) ** 2, max(1, int(SHORT * rate)))
    loudness = np.sqrt(np.maximum(average(power, max(1, int(SMOOTH * rate))), 0.0))
    return (shaped * loudness * 10 ** (level / 20)).astype(np.float32)


def average(values: np.ndarray, width: int) -> np.ndarray:
    """``values`` averaged over ``width`` samples centred on each (running sums: a night is
    millions of samples, and a convolution that long would take minutes)."""
    sums = np.concatenate([[0.0], np.cumsum(values)])
    index = np.arange(len(values))
    low = np.clip(index - width // 2, 0, len(values))
    high = np.clip(index - width // 2 + width, 0, len(values))
    return (sums[high] - sums[low]) / width


def late(heard: np.ndarray, signed: np.ndarray, position: float) -> tuple[float, float] | None:
    """How late (seconds) the tablet whose signature is ``signed`` sounds in ``heard``, where
    ``heard``'s first sample would be the night at ``position`` (seconds) heard with no delay;
    both at RATE; and how clearly (its peak over the correlation's median magnitude). None where
    it cannot be told: outside the night, or no peak standing CLEAR over the rest (the night
    silent there, the tablet silent, a read drowned).

    ``heard`` must be on the laptop's clock, as the tablets play: a microphone whose own clock is
    off by 100 parts per million (``SKEWS``) smears 1.5 s of it by 0.15 ms, most of a period in
    the band, and nothing is read (measured: 3 reads of 30 where 27 were, made-up night)."""
    length = len(heard)
    low = round((position - LATEST) * RATE)
    high = round((position - SOONEST) * RATE) + length
    if low < 0 or high > len(signed) or length == 0:
        return None
    span = signed[low:high].astype(np.float64)
    size = 1 << int(np.ceil(np.log2(len(span) + length)))
    mix, own = np.fft.rfft(heard.astype(np.float64), size), np.fft.rfft(span, size)
    frequencies = np.fft.rfftfreq(size, 1 / RATE)
    keep = (frequencies >= BAND[0]) & (frequencies <= BAND[1])
    magnitude = np.abs(mix)
    # Each frequency divided by the mix's own magnitude there (the night, the other tablets'
    # signatures and the room are all in it): the tablet's signature is then a sharp peak.
    weighted = np.where(keep, own * np.conj(mix) / (magnitude + 1e-9 * (magnitude.max() + 1e-30)), 0)
    found = np.fft.irfft(weighted, size)[: len(span) - length + 1]
    best = int(np.argmax(found))
    clarity = float(found[best] / (float(np.median(np.abs(found))) + 1e-18))
    if clarity < CLEAR:
        return None
    return LATEST - (best + arrivals.between(found, best)) / RATE, clarity


def skews(known: float | None) -> tuple[float, ...]:
    """The microphone clock's errors to try (a fraction: 1e-4 is 100 parts per million fast): all
    of SKEWS until it is known, then ``known`` and a step either side (it wanders a little)."""
    if known is None:
        return SKEWS
    return (known - SKEW_STEP, known, known + SKEW_STEP)


def nudges(before: dict[int, float], now: dict[int, float], *anchors: frozenset[int]) -> dict[int, float]:
    """Seconds to add to each tablet's speaker delay, from two reads in a row (``before`` and
    ``now``: how late each tablet was heard, seconds, those read clearly). A read is believed when
    the one before it agrees (within AGREE): a wrong read comes alone, 0.1 s or more off (measured),
    and one that moved (a glitch, a delay still moving) waits a read. The others are where the
    lower median of the believed tablets of the first of ``anchors`` that has any is (in order of
    trust: for instance those set by a round whose page steered all along, then those set by a
    round), or of all believed ones when none has: a tablet that drifted later is moved alone, not
    the group towards it. A tablet believed NUDGE or more from there is moved by what it is off
    (later: a greater delay, so that it plays earlier)."""
    believed = {number: value for number, value in now.items()
                if number in before and abs(value - before[number]) <= AGREE}
    if len(believed) < 2:
        return {}
    groups = [sorted(value for number, value in believed.items() if number in anchored) for anchored in anchors]
    held = next((group for group in groups if group), sorted(believed.values()))
    reference = held[(len(held) - 1) // 2]
    return {number: value - reference for number, value in believed.items() if abs(value - reference) >= NUDGE}
