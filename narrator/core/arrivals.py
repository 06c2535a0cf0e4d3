"""When each tablet's signal was heard, and the speaker delay that puts it in step (issue 41).

A tablet's page can see its own output's latency only as far as the browser reports it; a slow
speaker (Bluetooth, a long cable, a sound system) adds what no page can see. The laptop hears
them all through one microphone: each tablet plays a code of its own at a moment the box names,
and where each code is found in the recording says how late that tablet sounds. The microphone's
own latency is the same for every code, so only the differences between tablets count: the
tablet heard earliest is the reference and every other one is set that much earlier.

Pure: the recording, the codes and the moments are arguments; nothing here records or plays.
"""

from dataclasses import dataclass

import numpy as np

CODE_SECONDS = 0.25  # how long each tablet's code sounds: a short hiss, before the night
CODE_PEAK = 0.5  # its loudest sample (full scale 1): well above a room, never clipping
APART = 1.2  # ...to the next play of its code, at least this long after (a speaker up to 0.9 s late)
EARLY = 0.3  # a play is looked for from this long before its moment (a page's clock a little off)...
PLACES = 1  # decimal places of a ms a speaker's delay is kept to: a round hears each play to a sample, and
# a delay in whole ms would leave a tablet up to half a ms off, two of them a ms apart, for nothing
LIKE = 0.2  # how alike (normalised correlation) the recording must be to a code where it is found
LOWEST, HIGHEST = 300.0, 6000.0  # Hz: what any tablet's speaker and any laptop's microphone pass


def code(number: int, rate: int) -> np.ndarray:
    """Tablet ``number``'s code at ``rate``: noise of its own, band-limited to what small speakers
    play, faded at its ends. Noise codes of different seeds hardly correlate with each other, so
    codes that overlap in the air are still told apart; the same number gives the same samples."""
    length = int(CODE_SECONDS * rate)
    noise = np.random.default_rng(41_000 + number).standard_normal(length)
    spectrum = np.fft.rfft(noise)
    frequencies = np.fft.rfftfreq(length, 1 / rate)
    spectrum[(frequencies < LOWEST) | (frequencies > HIGHEST)] = 0
    shaped = np.fft.irfft(spectrum, length)
    fade = min(length // 2, int(0.01 * rate))
    ramp = np.linspace(0.0, 1.0, fade, endpoint=False)
    shaped[:fade] *= ramp
    shaped[length - fade:] *= ramp[::-1]
    return (shaped * (CODE_PEAK / (np.max(np.abs(shaped)) + 1e-12))).astype(np.float32)


def likeness(recording: np.ndarray, signal: np.ndarray) -> np.ndarray:
    """How alike ``recording`` is to ``signal`` from each start (normalised correlation: 1 where
    the recording is the signal itself, whatever its loudness). Another tablet's code scores about
    1/sqrt(samples of a code), a few hundredths; a silent input, a room's noise or a tablet that
    played nothing stay that low too; a code heard across a room, over noise and its own echoes,
    scores far above LIKE."""
    n, m = len(recording), len(signal)
    if n < m:
        return np.zeros(0)
    part = recording.astype(np.float64)
    size = 1 << int(np.ceil(np.log2(n + m)))
    product = np.fft.rfft(part, size) * np.conj(np.fft.rfft(signal.astype(np.float64), size))
    found = np.fft.irfft(product, size)[: n - m + 1]
    energy = np.concatenate([[0.0], np.cumsum(part * part)])
    norms = np.sqrt(np.maximum(energy[m:] - energy[:-m], 0.0)) * float(np.linalg.norm(signal))
    return np.divide(found, norms, out=np.zeros_like(found), where=norms > 1e-9)


def peak(scores: np.ndarray, low: int = 0, high: int | None = None) -> float | None:
    """Where in ``scores[low:high]`` the best start is (samples, to a fraction), or None when
    nothing there is alike enough."""
    low, high = max(0, low), len(scores) if high is None else min(len(scores), high)
    if high <= low:
        return None
    best = low + int(np.argmax(scores[low:high]))
    if scores[best] < LIKE:
        return None
    return best + between(scores, best)


def between(scores: np.ndarray, best: int) -> float:
    """How far (a fraction of a sample, either way) the true peak lies from ``scores[best]``: the
    top of a parabola through it and its two neighbours (none at either end, or where they do not
    curve down)."""
    if not 0 < best < len(scores) - 1:
        return 0.0
    left, middle, right = scores[best - 1: best + 2]
    curve = left - 2 * middle + right
    return float(0.5 * (left - right) / curve) if curve < 0 else 0.0


def arrival(recording: np.ndarray, signal: np.ndarray) -> float | None:
    """Where ``signal`` starts in ``recording`` (samples, to a fraction), or None when it is not there."""
    return peak(likeness(recording, signal))


@dataclass(frozen=True)
class Heard:
    """One round of listening: each tablet's lateness as heard (seconds, the earliest 0: the median
    of its plays), and the tablets not heard."""

    late: dict[int, float]
    missing: tuple[int, ...]


def listen(recording: np.ndarray, rate: int, start: float, moments: dict[int, tuple[float, ...]]) -> Heard:
    """How late each tablet sounds against the others. ``recording``: mono samples at ``rate``
    whose first was taken at box time ``start``; ``moments``: when each tablet was told to sound
    its code (box time), a few times each, at least APART from one another. A common error in
    ``start`` (the microphone's latency) cancels out.

    A page's clock can be off for a moment (a busy machine, a page just reloaded): each play is
    read on its own, the median of them counts, and a tablet heard fewer than twice is not heard."""
    late: dict[int, float] = {}
    missing: list[int] = []
    for number, plays in sorted(moments.items()):
        scores = likeness(recording, code(number, rate))  # (served at the rate it is recorded at)
        heard = []
        for moment in plays:  # each in its own stretch of the recording: from a little before its moment to the next
            expected = (moment - start) * rate
            found = peak(scores, int(expected - EARLY * rate), int(expected + (APART - EARLY) * rate))
            if found is not None:
                heard.append(start + found / rate - moment)
        if len(heard) < min(2, len(plays)):
            missing.append(number)
            continue
        late[number] = float(np.median(heard))
    earliest = min(late.values(), default=0.0)
    return Heard({number: value - earliest for number, value in late.items()}, tuple(missing))


def delays(heard: Heard, current: dict[int, float], most: int,
           anchored: frozenset[int] = frozenset()) -> dict[int, float]:
    """Each heard tablet's new speaker delay (ms, to PLACES), within ``most``: its current one plus
    how late it was heard, so that it plays that much earlier; a tablet not heard keeps its own.

    Only the differences between tablets are heard, so the group as a whole may move. Where this
    round heard tablets set by an earlier one (``anchored``), the group stays where they are (the
    lower median of them: of two, the earlier, so that one that drifted later is moved alone, not
    both halfway to each other, away from a tablet left out of the round): a tablet that joined
    late is brought to them, and the tablets this round did not hear, set with them before, stay
    in step with them. Otherwise it is held where its least delayed tablet was, or every round
    would push the others up by whatever the earliest one happened to be heard early by, and the
    delays would creep from round to round."""
    moved = {number: current.get(number, 0) + late * 1000 for number, late in heard.late.items()}
    if not moved:
        return {}
    held = sorted(late * 1000 for number, late in heard.late.items() if number in anchored)
    if held:
        shift = held[(len(held) - 1) // 2]
    else:
        shift = min(moved.values()) - min(current.get(number, 0) for number in moved)
    return {number: max(-most, min(most, round(value - shift, PLACES))) for number, value in moved.items()}


def quiet(speech: list[tuple[float, float]], length: float, after: float, seconds: float,
          margin: float = 0.1) -> float | None:
    """Where in a night (seconds from its start) ``seconds`` go by without its voice, ``margin``
    clear of any line, at ``after`` or later; None when the night has no such stretch left.
    ``speech``: where its voice sounds, in order (``mix.speech_regions``). A round of codes played
    while a night plays goes there: every play is looked for from EARLY before its moment to APART
    after it, and nothing but the codes and the bed should sound in those stretches."""
    for start in (after, *(end + margin for _, end in speech)):
        if start < after or start + seconds > length:
            continue
        if all(start + seconds <= begin - margin or start >= end + margin for begin, end in speech):
            return start
    return None

