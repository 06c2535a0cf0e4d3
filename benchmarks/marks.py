"""Can the laptop tell each tablet apart by ear during the night? Each page plays the night with
its own signature under it; every tablet's lag is read from the room's mix by it and compared
with where its own channel says it is.

Usage:  .venv/bin/python benchmarks/marks.py [--level -26] [--window 1.0] [--tablets 3] [--slew]
        [--bursts N] [--json F]

Issue 41, point 2. Each page plays the night with a faint noise mark of its own under it, the
signature ``narrator --listen``'s ear reads (``narrator.core.signatures``: noise in 1-6 kHz,
following the night's loudness, ``--level`` dB under it), and every tablet's lag is read from a
second of the microphone by it, during speech, as the laptop's ear reads it.

Each tablet is a Chromium page of its own (no box.js: nothing steers) that plays the first
``LENGTH`` seconds of `narrate render --players 10 --lang en` with its signature into its channel of
the PulseAudio room of ``tests/heard.py``, the pages started one after another, a few ms apart
(and ``APART`` more): copies closer than copies of the night can be parted (``drift.SPLIT``,
15 ms). The truth is each channel alone, read against the night (``heard.track``); the reading
is the sum of the channels (the room's mix, as the laptop's microphone would hear it) read by
``signatures.late`` where the group is (the laptop knows it from its playhead and its
microphone), a read kept where it stands clear. With ``--slew`` every page plays 0.05 % faster and
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

from narrator.core import signatures

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from audiopath import render_night  # noqa: E402
from glitch import in_room  # noqa: E402
from heard import RATE, burn, can_run, track  # noqa: E402

LENGTH = 60.0  # seconds of the night played
AGREE = signatures.AGREE * 1000  # ms: two reads in a row of one tablet this close agree (the ear's rule)
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


def run(folder: Path, tablets: int, level_db: float, window: float, slew: bool = False, bursts: int = 0) -> dict:
    import soundfile
    import soxr

    night, rate = soundfile.read(io.BytesIO(render_night(folder)), dtype="float32")
    assert rate == RATE, rate
    night = night[: int(LENGTH * RATE)]
    marks = [signatures.signature(number, night, RATE, level_db) for number in range(1, tablets + 1)]
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
    mix = soxr.resample(recording.sum(axis=1).astype(np.float32), RATE, signatures.RATE)
    marks_heard = [soxr.resample(own, RATE, signatures.RATE) for own in marks]
    rows = []
    for index, at in enumerate(times):
        lags = truth[:, index]
        if np.isnan(lags).any():
            continue  # (a page not playing the whole window: before its start, after its end)
        group = float(np.median(lags))  # (the laptop would know it from its playhead and its microphone)
        first = int(round(at * signatures.RATE))
        heard = mix[first: first + int(window * signatures.RATE)]
        for n in range(tablets):
            # (heard's first sample is the night at ``at - group`` for a tablet where the group is)
            read = signatures.late(heard, marks_heard[n], at - group)  # (the pages play on the room's clock: no skew)
            lag = None if read is None else read[0]
            rows.append({"at": round(float(at), 2), "tablet": n + 1, "truth ms": round((lags[n] - group) * 1000, 3),
                         "read ms": None if lag is None else round(lag * 1000, 3)})
    return {"tablets": tablets, "level db": level_db, "window": window, "slew": slew, "bursts": bursts, "reads": rows}


def summary(result: dict) -> str:
    reads = result["reads"]
    kept = [row for row in reads if row["read ms"] is not None]
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
              for before, row in pairs if row["read ms"] is not None and before["read ms"] is not None]
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
