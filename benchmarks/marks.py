"""Could the laptop tell each tablet apart by ear during the night? Each page plays the night with
a faint noise mark of its own under it; every tablet's lag is read from the room's mix by its mark
and compared with where its own channel says it is.

Usage:  .venv/bin/python benchmarks/marks.py [--level -26] [--window 1.0] [--tablets 3] [--slew]
        [--bursts N] [--json F]

Issue 41, point 2. The laptop's ear (``narrator.core.drift``) hears copies of one night and cannot
tell which tablet is which: a tablet heard apart asks for a round of codes at the next stretch
without voice, seconds later. A mark of each tablet's own (noise in 1-6 kHz, following the
night's loudness smoothed over a quarter second, ``--level`` dB under it) would let every
tablet's lag be read from a second of the microphone, during speech. Nothing in narrator plays
marks yet: this measures, through Chromium and PulseAudio, whether they can be read.

Each tablet is a Chromium page of its own (no box.js: nothing steers) that plays the first
``LENGTH`` seconds of `narrate render --players 10 --lang en` with its mark into its channel of
the PulseAudio room of ``tests/heard.py``, the pages started one after another, a few ms apart
(and ``APART`` more): copies closer than the ear today can part (``drift.SPLIT``, 15 ms). The truth is each
channel alone, read against the night (``heard.track``); the reading is the sum of the channels
(the room's mix, as the laptop's microphone would hear it), brought to 16 kHz, correlated with
each tablet's mark within 0.3 s either way of where the tablets are as a group (each frequency
in the band divided by the mix's own magnitude there), a read kept where its peak stands
``CLEAR`` times over the correlation's median. With ``--slew`` every page plays 0.05 % faster and
slower in turn every 0.2 s, as box.js's pages do while they steer; with ``--bursts N``, N CPU
bursts (``heard.burn``) 15 s apart glitch every page's output, and move the tablets against each
other: are they read where they went, at the first window after?

Needs PulseAudio (`apt-get install pulseaudio pulseaudio-utils`) and Debian's Chromium. Everything
runs in a temporary folder.
"""

import argparse
import io
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from narrator.core import arrivals

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from audiopath import render_night  # noqa: E402
from glitch import in_room  # noqa: E402
from heard import RATE, burn, can_run, track  # noqa: E402

LENGTH = 60.0  # seconds of the night played
BAND = (1000.0, 6000.0)  # Hz: where the marks are, and where they are read
ANALYSIS = 16000  # Hz: the mix is read at this rate
REACH = 0.3  # seconds either way of the group's lag a tablet's mark is looked for
CLEAR = 8.0  # a read counts where its peak is this many times the correlation's median magnitude
AGREE = 0.1  # ms: two reads in a row of one tablet this close agree (the summary's rule against a wrong read alone)
SLEW = 0.0005  # (--slew) faster and slower by this in turn, every 0.2 s, as glitch.py's
EVERY, BURST = 15.0, 0.3  # (--bursts) seconds to each burst from the one before (or the start), and its length
APART = (0.0, 0.0071, -0.0033)  # seconds each page starts after the first's moment (more tablets: 0)

PAGE = """async ([file, slew]) => {  // ready to play: started by GO, the pages one after another, ms apart
  const ctx = new AudioContext({latencyHint: "playback"});
  await ctx.resume();
  const buffer = await ctx.decodeAudioData(await (await fetch(file)).arrayBuffer());
  window.go = (after) => {
    const source = ctx.createBufferSource();
    source.buffer = buffer;
    source.connect(ctx.destination);
    source.start(ctx.currentTime + 0.2 + after);
    if (slew > 0) {  // (faster and slower in turn, as box.js's pages while they steer: glitch.py --slew)
      let faster = true;
      setInterval(() => {
        source.playbackRate.setValueAtTime(faster ? 1 + slew : 1 - slew, ctx.currentTime + 0.06);
        faster = !faster;
      }, 200);
    }
  };
}"""
GO = "(after) => window.go(after)"


def mark(number: int, night: np.ndarray, level_db: float) -> np.ndarray:
    """Tablet ``number``'s mark for ``night``: its own noise in BAND, as loud as the night's
    loudness (its power over 50 ms, smoothed over 0.2 s more) less ``level_db``."""
    from scipy.signal import butter, sosfilt

    noise = sosfilt(butter(6, BAND, btype="band", fs=RATE, output="sos"),
                    np.random.default_rng(100 + number).standard_normal(len(night)))
    noise /= noise.std()
    short, longer = int(0.05 * RATE), int(0.2 * RATE)
    power = np.convolve(night.astype(np.float64) ** 2, np.ones(short) / short, mode="same")
    loudness = np.sqrt(np.convolve(power, np.ones(longer) / longer, mode="same"))
    return (noise * loudness * 10 ** (level_db / 20)).astype(np.float32)


def lag_of(heard: np.ndarray, marked: np.ndarray) -> tuple[float, float]:
    """How late (seconds, within REACH either way) ``marked`` sounds in ``heard`` (both at
    ANALYSIS, from the same moment), and how clearly: its peak over the median magnitude."""
    size = 1 << int(np.ceil(np.log2(len(heard) + len(marked))))
    mix, own = np.fft.rfft(heard, size), np.fft.rfft(marked, size)
    frequencies = np.fft.rfftfreq(size, 1 / ANALYSIS)
    keep = (frequencies >= BAND[0]) & (frequencies <= BAND[1])
    weighted = np.where(keep, mix * np.conj(own) / (np.abs(mix) + 1e-9 * np.abs(mix).max()), 0)
    found = np.fft.irfft(weighted, size)
    lags = np.r_[np.arange(0, size // 2), np.arange(-size // 2, 0)] / ANALYSIS
    inside = np.flatnonzero(np.abs(lags) <= REACH)
    best = inside[np.argmax(found[inside])]
    return float(lags[best] + arrivals.between(found, int(best)) / ANALYSIS), float(found[best] / (np.median(np.abs(found[inside])) + 1e-18))


def run(folder: Path, tablets: int, level_db: float, window: float, slew: bool = False, bursts: int = 0) -> dict:
    import soundfile
    import soxr

    night, rate = soundfile.read(io.BytesIO(render_night(folder)), dtype="float32")
    assert rate == RATE, rate
    night = night[: int(LENGTH * RATE)]
    marks = [mark(number, night, level_db) for number in range(1, tablets + 1)]
    site = folder / "site"
    site.mkdir()
    for number, own in enumerate(marks, start=1):
        soundfile.write(site / f"night{number}.wav", night + own, RATE, subtype="FLOAT")

    def play(pages):
        for number, page in enumerate(pages, start=1):
            page.evaluate(PAGE, [f"night{number}.wav", SLEW if slew else 0.0])
        for number, page in enumerate(pages, start=1):
            page.evaluate(GO, APART[number - 1] if number <= len(APART) else 0.0)
        began = time.time()
        for index in range(bursts):  # (--bursts: every core taken, each page's output glitching)
            time.sleep(max(0.0, began + EVERY * (index + 1) - time.time()))
            burn(BURST)
        time.sleep(max(0.0, began + LENGTH + 2.0 - time.time()))

    _, (recording, _start, _rate) = in_room(folder, site, tablets, play)
    # The truth: each channel alone, where in the night it is (recording seconds less night seconds).
    times = np.arange(0.0, len(recording) / RATE - window, window)
    truth = np.stack([times - track(recording[:, n], night, times, window=window, reach=0.5)
                      for n in range(tablets)])
    mix = soxr.resample(recording.sum(axis=1).astype(np.float32), RATE, ANALYSIS)
    marks_heard = [soxr.resample(own, RATE, ANALYSIS) for own in marks]
    rows = []
    for index, at in enumerate(times):
        lags = truth[:, index]
        if np.isnan(lags).any():
            continue  # (a page not playing the whole window: before its start, after its end)
        group = float(np.median(lags))  # (the laptop would know it from its playhead and its microphone)
        first = int(round(at * ANALYSIS))
        heard = mix[first: first + int(window * ANALYSIS)]
        begin = first - int(round(group * ANALYSIS))
        if begin < 0:
            continue
        for n in range(tablets):
            own = marks_heard[n][begin: begin + len(heard)]
            if len(own) < len(heard):
                continue
            lag, clear = lag_of(heard, own)
            rows.append({"at": round(float(at), 2), "tablet": n + 1, "truth ms": round((lags[n] - group) * 1000, 3),
                         "read ms": round(lag * 1000, 3), "clear": round(clear, 1)})
    return {"tablets": tablets, "level db": level_db, "window": window, "slew": slew, "bursts": bursts, "reads": rows}


def summary(result: dict) -> str:
    reads = result["reads"]
    kept = [row for row in reads if row["clear"] >= CLEAR]
    errors = [abs(row["read ms"] - row["truth ms"]) for row in kept]
    apart = [row["truth ms"] for row in reads]
    if not errors:
        return f"mark {result['level db']} dB, {result['window']} s: no read stood out of {len(reads)}"
    ordered = sorted(errors)
    each = sorted(reads, key=lambda row: (row["tablet"], row["at"]))  # (each tablet's reads in a row)
    pairs = [(before, row) for before, row in zip(each, each[1:], strict=False) if row["tablet"] == before["tablet"]]
    moves = [abs(row["truth ms"] - before["truth ms"]) for before, row in pairs]
    # A read taken only where the one before it, of the same tablet, agrees (within AGREE):
    # how many wrong ones would still be taken, and how many right ones left (as after a move).
    agreed = [(abs(row["read ms"] - row["truth ms"]) > 1, abs(row["read ms"] - before["read ms"]) <= AGREE)
              for before, row in pairs if row["clear"] >= CLEAR and before["clear"] >= CLEAR]
    return (f"mark {result['level db']} dB, {result['window']} s windows: {len(kept)} reads of {len(reads)} kept; "
            f"|read - truth| median {statistics.median(errors):.3f} ms, 95th "
            f"{ordered[int(0.95 * (len(ordered) - 1))]:.3f} ms, worst {ordered[-1]:.2f} ms, over 1 ms "
            f"{sum(error > 1 for error in errors)}; the tablets {min(apart):+.1f} to {max(apart):+.1f} ms from "
            f"the group as heard, moved against it by up to {max(moves, default=0.0):.1f} ms from one read to the next; "
            f"taken only where the read before agrees: wrong {sum(wrong and agree for wrong, agree in agreed)}, "
            f"right ones left {sum(not wrong and not agree for wrong, agree in agreed)} of {len(agreed)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--level", type=float, default=-26.0, help="dB: each mark under the night's loudness")
    parser.add_argument("--window", type=float, default=1.0, help="seconds of the mix each read is made from")
    parser.add_argument("--tablets", type=int, default=3)
    parser.add_argument("--slew", action="store_true",
                        help="every page plays a little faster and slower in turn, as box.js does while it steers")
    parser.add_argument("--bursts", type=int, default=0, help=f"CPU bursts, {EVERY:.0f} s apart (needs root)")
    parser.add_argument("--json", type=Path, help="also write every read")
    arguments = parser.parse_args()
    if (why := can_run()) is not None:
        sys.exit(f"benchmarks/marks.py: {why}")
    if arguments.bursts and os.geteuid() != 0:
        sys.exit("benchmarks/marks.py: --bursts needs root (its CPU burst runs at real-time priority)")
    with tempfile.TemporaryDirectory(prefix="narrator-marks-") as folder:
        result = run(Path(folder), arguments.tablets, -abs(arguments.level), arguments.window, arguments.slew,
                     arguments.bursts)
    print(summary(result))
    if arguments.json:
        arguments.json.write_text(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
