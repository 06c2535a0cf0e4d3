"""Background beds under the night: synthesized here (so their licence is ours) or the user's file.

Every bed is a seamless loop levelled to ``BED_PEAK``: with speech under its true-peak ceiling
(``narrator.shell.audio.loudness``) and the bed ducked beneath it, the mix stays below full scale
without a limiter. Synthesis is seeded, so a bed is the same every night.
"""

from collections.abc import Callable
from pathlib import Path

import numpy as np

from narrator.core.errors import NarratorError
from narrator.core.i18n import msg
from narrator.shell.audio.clip import Clip, read_clip, resample
from narrator.shell.audio.loudness import LINE_LUFS

BED_PEAK = 0.25
BED_MAX_SECONDS = 60  # of a user's file: a longer one is looped from its first minute (memory stays small)
BED_LUFS = LINE_LUFS - 10  # ten LU under the spoken lines, before ducking
BED_LIMIT_DB = 6.0  # a bed's hits are held down by at most this: the drums keep their attack
# Names how a bed is levelled: a cached bed is used only while these stay the same.
LEVELLING = f"lufs {BED_LUFS} peak {BED_PEAK} limit {BED_LIMIT_DB}"


def drums(rate: int, seed: int = 7) -> Clip:
    """A frame drum and a tom at 60 bpm, the count's own pulse, two bars of 4/4 with a small human wobble.

    Each hit is a pitched membrane (a tone gliding down, with the overtones of a drum skin) plus a
    short slap of band-limited noise, tuned high enough for a laptop's small speakers to play
    (little of it below 200 Hz); timing moves by a few milliseconds and loudness by a few per cent,
    drawn from ``seed``. Tails that run past the end of the loop are folded back onto its start, so
    the loop is seamless.
    """
    rng = np.random.default_rng(seed)
    beat = 60 / 60
    length = int(round(8 * beat * rate))
    loop = np.zeros(length, dtype=np.float64)
    #          (beat, drum, loudness): frame drum on the beats, low tom answering on the offbeats
    pattern = [(0, "frame", 1.0), (1, "frame", 0.55), (1.5, "tom", 0.5), (2, "frame", 0.8), (3, "frame", 0.55),
               (4, "frame", 0.95), (5, "frame", 0.55), (5.5, "tom", 0.5), (6, "frame", 0.8), (6.75, "tom", 0.45),
               (7, "tom", 0.6), (7.5, "tom", 0.4)]
    for position, drum, loudness in pattern:
        start = int(round((position * beat + rng.normal(0, 0.006)) * rate)) % length
        hit = _hit(rate, *(_FRAME if drum == "frame" else _TOM), rng) * loudness * rng.uniform(0.9, 1.1)
        _fold_in(loop, hit, start)
    return _as_bed(loop, rate)


_FRAME = (260.0, 190.0, 0.3, 0.6)  # start pitch Hz, end pitch Hz, decay seconds, slap level
_TOM = (330.0, 250.0, 0.22, 0.45)
_SKIN = ((1.0, 1.0), (1.59, 0.55), (2.14, 0.35), (2.65, 0.2))  # a membrane's overtones: ratio, level


def _hit(rate: int, pitch_start: float, pitch_end: float, decay: float, slap: float, rng) -> np.ndarray:
    t = np.arange(int(rate * decay * 5)) / rate
    pitch = pitch_end + (pitch_start - pitch_end) * np.exp(-t / 0.04)
    phase = 2 * np.pi * np.cumsum(pitch) / rate
    body = sum(level * np.sin(ratio * phase) * np.exp(-t * ratio / decay) for ratio, level in _SKIN)
    noise = rng.standard_normal(len(t))
    noise = (_lowpass(noise, 5000, rate) - _lowpass(noise, 900, rate)) * np.exp(-t / 0.012) * slap * 4
    attack = np.minimum(1.0, t / 0.002)  # 2 ms, so the hit does not click
    return (body + noise) * attack


def rain(rate: int, seed: int = 11, seconds: float = 12.0) -> Clip:
    """Steady rain: soft filtered noise with scattered drops."""
    rng = np.random.default_rng(seed)
    n = int(seconds * rate)
    hiss = _lowpass(rng.standard_normal(n), 3000, rate) * 0.3
    drops = np.zeros(n)
    drops[rng.integers(0, n, size=int(seconds * 40))] = rng.uniform(0.2, 1.0, size=int(seconds * 40))
    drops = _lowpass(drops, 5000, rate)
    return _as_bed(_seamless(hiss + drops, rate), rate)


def wind(rate: int, seed: int = 13, seconds: float = 16.0) -> Clip:
    """Wind: deep noise swelling and easing slowly."""
    rng = np.random.default_rng(seed)
    n = int(seconds * rate)
    rumble = _lowpass(_lowpass(rng.standard_normal(n), 400, rate), 400, rate)
    t = np.arange(n) / rate
    swell = 0.6 + 0.4 * np.sin(2 * np.pi * t / seconds) * np.sin(2 * np.pi * 3 * t / seconds)
    return _as_bed(_seamless(rumble * swell, rate), rate)


BUILT_IN: dict[str, Callable[[int], Clip]] = {"drums": drums, "rain": rain, "wind": wind}


def load_bed(choice: str, rate: int) -> Clip:
    """A built-in bed by name, or the user's WAV/FLAC/OGG file, as a levelled loop at ``rate``."""
    if choice in BUILT_IN:
        return BUILT_IN[choice](rate)
    path = Path(choice).expanduser()
    if not path.is_file():
        raise NarratorError(msg("no ambience '{ambience}': name one of {names} or give a WAV, FLAC or OGG file",
                                ambience=choice, names=", ".join(BUILT_IN)))
    clip = resample(read_clip(path, max_seconds=BED_MAX_SECONDS), rate)
    if len(clip.samples) < rate // 2:
        raise NarratorError(msg("{file}: too short for a background loop (at least half a second)", file=path))
    return _as_bed(_seamless(clip.samples.astype(np.float64), rate), rate)


def _as_bed(samples: np.ndarray, rate: int) -> Clip:
    """The loop at the beds' loudness (``BED_LUFS``), never peaking above ``BED_PEAK``: a bed
    with sharp hits (the drums) has them limited, by at most ``BED_LIMIT_DB``, to get there."""
    from narrator.shell.audio.loudness import limited, loudness

    samples = samples - samples.mean()
    peak = float(np.max(np.abs(samples)))
    if peak == 0:
        return Clip(samples.astype(np.float32), rate)
    measured = loudness(samples, rate)
    most = BED_PEAK / peak * 10 ** (BED_LIMIT_DB / 20)
    gain = BED_PEAK / peak if not np.isfinite(measured) else min(most, 10 ** ((BED_LUFS - measured) / 20))
    louder = (samples * gain).astype(np.float32)
    # Limited as it repeats (with a little of its tail before it and of its head after it, then
    # cut back), so that the limiter's gain crosses the seam as smoothly as anywhere else.
    edge = min(len(louder), int(rate * 0.05))
    around = limited(np.concatenate([louder[-edge:], louder, louder[:edge]]), rate, BED_PEAK)
    return Clip(np.ascontiguousarray(around[edge:edge + len(louder)], dtype=np.float32), rate)


def _seamless(samples: np.ndarray, rate: int, fade_seconds: float = 0.5) -> np.ndarray:
    """Crossfade the loop's tail into its head, so that it repeats without a seam.

    Equal-power: noise-like beds (rain, wind, most recordings) are uncorrelated across the seam,
    so the two gains' squares sum to one and the level does not dip while they cross.
    """
    fade = min(int(fade_seconds * rate), len(samples) // 4)
    if fade == 0:
        return samples
    angle = np.linspace(0, np.pi / 2, fade)
    body = samples[: len(samples) - fade].copy()
    body[:fade] = body[:fade] * np.sin(angle) + samples[len(samples) - fade:] * np.cos(angle)
    return body


def _fold_in(loop: np.ndarray, hit: np.ndarray, start: int) -> None:
    position = start
    remaining = hit
    while len(remaining):
        room = len(loop) - position
        loop[position:position + min(room, len(remaining))] += remaining[:room]
        remaining = remaining[room:]
        position = 0


def _lowpass(samples: np.ndarray, cutoff: float, rate: int) -> np.ndarray:
    """A one-pole low-pass, applied in the frequency domain.

    The filtering is circular: what rings past the end comes back at the start, which is what a
    loop needs, and is negligible for the short, fast-decaying noise of a drum hit.
    """
    alpha = 1 - np.exp(-2 * np.pi * cutoff / rate)
    spectrum = np.fft.rfft(samples)
    omega = 2 * np.pi * np.fft.rfftfreq(len(samples))
    response = alpha / (1 - (1 - alpha) * np.exp(-1j * omega))
    return np.fft.irfft(spectrum * response, n=len(samples))
