"""After a glitch, what a page can read against where its sound is as heard: its output timestamps
(what box.js steers by) and its audio clock alone.

Usage:  sudo .venv/bin/python benchmarks/glitch.py [--tablets 3] [--bursts 4] [--behind MS] [--slew] [--json F]

A CPU burst (every core taken for 0.3 s, ``heard.burn``) makes every page's output underrun: its
sound comes out a quarter of a second later than before, and the page must find out how much later
to catch up. It can read two things. Its output timestamps (``getOutputTimestamp``: which moment of
its audio clock is heard at which moment of the page's clock), which box.js steers by. And its
audio clock against the page's clock (``currentTime`` against ``performance.now``): how much
rendering the glitch lost, with no timestamp in it, right only if the output keeps as much sound
queued after the glitch as before.

Each tablet is a Chromium page of its own that plays one long buffer of noise into its channel of
the PulseAudio room ``audiopath.py``'s tablets play into (``tests/heard.py``), with no box.js and no
steering, so that nothing moves the sound but the glitch, and reads both every 20 ms. Where its sound is heard
is read from the room's recording every 0.1 s by cross-correlation. Across each burst the
benchmark compares how far each reading moved with how far the sound moved as heard (the
recorder's own latency, the same before and after, drops out), 0.5-1 s after the burst (where
box.js makes its first correction, a cross-fade), 3-4 s and 8-9 s after it, and counts the
timestamps' leaps (over 2 ms from the median of the last five, read every 0.1 s as box.js does)
from 2 s after it: a page sees a leap, never which reading was right.

With ``--behind MS`` every page plays through a delay of that many ms in its own audio graph, as
``audiopath.py --behind`` makes a speaker later than its page can see (``heard.BEHIND``). With
``--slew`` every page plays 0.05 % faster and slower in turn every 0.2 s, as box.js's pages do
while they slew (its noise smoothed over 16 samples, so that what is played at another rate is
still found in the recording).

Needs PulseAudio (`apt-get install pulseaudio pulseaudio-utils`), Debian's Chromium and root (the
burst runs at real-time priority). Everything runs in a temporary folder.
"""

import argparse
import http.server
import json
import os
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from boxnet import ARGS, CHROMIUM, LEAP_MS  # noqa: E402
from heard import RATE, Room, burn, can_run, track  # noqa: E402

FIRST, EVERY = 10.0, 12.0  # seconds: the first burst after the pages start, and between bursts
BURST = 0.3  # seconds each burst takes every core
SAMPLE = 0.1  # seconds of recording a position is read from, every this long
LEAP = LEAP_MS / 1000  # as box.js: a reading this far from the median of the last STAMPS is a leap
STAMPS = 5
AFTER = ((0.5, 1.0), (3.0, 4.0), (8.0, 9.0))  # seconds after a burst: where the moves are compared
SLEW = 0.0005  # (--slew) faster and slower by this in turn, every 0.2 s
SMOOTH = 16  # (--slew) samples the noise is smoothed over

PAGE = """async ([behind, slew]) => {
  const ctx = new AudioContext({latencyHint: "playback"});  // (as box.js: the sink's own rate)
  await ctx.resume();
  const buffer = await ctx.decodeAudioData(await (await fetch("night.wav")).arrayBuffer());
  const source = ctx.createBufferSource();
  source.buffer = buffer;
  if (behind > 0) {  // (a delay in the page's own graph, as audiopath.py's --behind makes a hidden speaker)
    const late = ctx.createDelay(2);
    late.delayTime.value = behind;
    source.connect(late);
    late.connect(ctx.destination);
  } else {
    source.connect(ctx.destination);
  }
  const start = ctx.currentTime + 0.5;
  source.start(start);
  if (slew > 0) {  // (faster and slower in turn, as box.js's slews: the sound stays within 0.1 ms of rate 1)
    let faster = true;
    setInterval(() => {
      source.playbackRate.setValueAtTime(faster ? 1 + slew : 1 - slew, ctx.currentTime + 0.06);
      faster = !faster;
    }, 200);
  }
  window.readings = [];
  setInterval(() => {
    const stamp = ctx.getOutputTimestamp();
    const origin = performance.timeOrigin;
    window.readings.push([(origin + performance.now()) / 1000, ctx.currentTime, stamp.contextTime,
                          (origin + stamp.performanceTime) / 1000]);
  }, 20);
  return start;
}"""


def serve(folder: Path) -> http.server.ThreadingHTTPServer:
    """The page's folder on 127.0.0.1 (a secure context, as the speaker box's own pages are here)."""

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def __init__(self, *args, **options):
            super().__init__(*args, directory=str(folder), **options)

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Quiet)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def in_room(folder: Path, site: Path, tablets: int, play):
    """``site`` served on 127.0.0.1 (an empty page at /), a Chromium page of each tablet's own open at it, playing into
    its channel of a recording room (``heard.Room``): ``play(pages)`` does the run, and then its
    result and the room's recording (samples, the wall time of the first, frames a second)."""
    from playwright.sync_api import sync_playwright

    (site / "index.html").write_text("<!doctype html><title>a plain page</title>")
    server = serve(site)
    room = Room(folder / "pulse", tablets).start()
    try:
        room.record()
        with sync_playwright() as playwright:
            browsers = [playwright.chromium.launch(
                executable_path=CHROMIUM, headless=True, args=[*ARGS, "--autoplay-policy=no-user-gesture-required"],
                ignore_default_args=["--mute-audio"], env={**os.environ, **room.env, "PULSE_SINK": room.sink_for(n)})
                for n in range(1, tablets + 1)]
            pages = [browser.new_page() for browser in browsers]
            for page in pages:
                page.goto(f"http://127.0.0.1:{server.server_address[1]}/")
            result = play(pages)
            for browser in browsers:
                browser.close()
        return result, room.recording()
    finally:
        room.stop()
        server.shutdown()


def heard_positions(channel: np.ndarray, night: np.ndarray, start: float, rate: float) -> np.ndarray:
    """(wall time, seconds into the night) every SAMPLE seconds of the recording where the channel
    plays the night whole (``heard.track``, with no playhead: each page plays on its own)."""
    times = np.arange(0.0, len(channel) / RATE - SAMPLE, SAMPLE)
    positions = track(channel, night, times, window=SAMPLE, reach=0.5)
    heard = ~np.isnan(positions)
    return np.column_stack([start + times[heard] * RATE / rate, positions[heard]])


def median_in(times: np.ndarray, values: np.ndarray, low: float, high: float) -> float:
    inside = (times >= low) & (times < high)
    return float(np.median(values[inside])) if inside.any() else float("nan")


def leaps_after(times: np.ndarray, stamps: np.ndarray, since: float, until: float) -> int:
    """Leaps box.js would see from ``since`` to ``until`` (readings every 0.1 s, as it steers)."""
    step = max(1, int(round(0.1 / np.median(np.diff(times)))))
    held, count = [], 0
    for when, reading in zip(times[::step], stamps[::step], strict=True):
        if held and abs(reading - sorted(held)[len(held) // 2]) > LEAP and since <= when < until:
            count += 1
        held = [*held[-(STAMPS - 1):], reading]
    return count


def across(burst: float, readings: np.ndarray, heard: np.ndarray, c0: float, until: float) -> dict:
    """One tablet across one burst: how far the sound moved as heard, and by how much each
    reading's move missed it (ms), in each span of AFTER."""
    wall, clock = readings[:, 0], readings[:, 1]
    stamps = readings[:, 2] - readings[:, 3]  # the audio clock's moment heard now, less now
    rendered = clock - wall  # the audio clock's moment rendered now, less now
    truth = (c0 + heard[:, 1]) - heard[:, 0]  # the audio clock's moment heard now, less now (+ the recorder)
    before = (burst - 1.5, burst - 0.1)
    base = [median_in(heard[:, 0], truth, *before), median_in(wall, stamps, *before),
            median_in(wall, rendered, *before)]
    found = {"heard move ms": None, "after": []}
    for low, high in AFTER:
        span = (burst + low, burst + high)
        moved = [median_in(heard[:, 0], truth, *span) - base[0], median_in(wall, stamps, *span) - base[1],
                 median_in(wall, rendered, *span) - base[2]]
        if found["heard move ms"] is None:
            found["heard move ms"] = round(moved[0] * 1000, 1)
        found["after"].append({"seconds": [low, high], "timestamps off ms": round((moved[1] - moved[0]) * 1000, 1),
                               "audio clock off ms": round((moved[2] - moved[0]) * 1000, 1)})
    found["leaps from 2 s"] = leaps_after(wall, stamps, burst + 2.0, until)
    return found


def run(folder: Path, tablets: int, bursts: int, behind: float = 0.0, slew: bool = False) -> dict:
    length = FIRST + EVERY * bursts + 2.0
    noise = np.random.default_rng(7).standard_normal(int(length * RATE))
    if slew:  # (white noise played at another rate is unlike itself within a window: smoothed, it is still found)
        noise = np.convolve(noise, np.hanning(SMOOTH) / np.hanning(SMOOTH).sum(), mode="same")
        noise /= noise.std()
    night = np.clip(noise * 0.1, -1, 1).astype(np.float32)
    site = folder / "site"
    site.mkdir()
    import soundfile

    soundfile.write(site / "night.wav", night, RATE, subtype="FLOAT")

    def play(pages):
        starts = [page.evaluate(PAGE, [behind / 1000, SLEW if slew else 0.0]) for page in pages]
        began = time.time()
        marks = []
        for number in range(bursts):
            time.sleep(max(0.0, began + FIRST + EVERY * number - time.time()))
            marks.append(time.time())
            burn(BURST)
        time.sleep(max(0.0, began + length - 1.0 - time.time()))
        return starts, began, marks, [np.array(page.evaluate("window.readings")) for page in pages]

    (starts, began, marks, readings), (recording, start, rate) = in_room(folder, site, tablets, play)
    found = []
    for n in range(tablets):
        heard = heard_positions(recording[:, n], night, start, rate)
        if not len(heard):
            sys.exit(f"benchmarks/glitch.py: tablet {n + 1} was never heard in the recording (is its sink playing?)")
        for index, mark in enumerate(marks):
            until = marks[index + 1] if index + 1 < len(marks) else began + length - 1.0
            found.append({"tablet": n + 1, "burst": index + 1,
                          **across(mark, readings[n], heard, starts[n], min(until, mark + EVERY))})
    return {"tablets": tablets, "bursts": bursts, "behind ms": behind, "slew": slew, "found": found}


def table(result: dict) -> None:
    print("| tablet | burst | heard moved | timestamps off: 0.5-1 s | 3-4 s | 8-9 s | leaps from 2 s | audio clock off: 0.5-1 s |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|")
    for row in result["found"]:
        after = row["after"]
        print(f"| {row['tablet']} | {row['burst']} | {row['heard move ms']:.1f} ms | "
              + " | ".join(f"{span['timestamps off ms']:+.1f}" for span in after)
              + f" | {row['leaps from 2 s']} | {after[0]['audio clock off ms']:+.1f} |")
    for key, name in (("timestamps off ms", "timestamps"), ("audio clock off ms", "audio clock")):
        first = [abs(row["after"][0][key]) for row in result["found"] if row["after"][0][key] == row["after"][0][key]]
        if first:
            print(f"{name}, 0.5-1 s after: within 2 ms {sum(x <= 2 for x in first)}, 2-5 ms "
                  f"{sum(2 < x <= 5 for x in first)}, over 5 ms {sum(x > 5 for x in first)} of {len(first)}; "
                  f"median {statistics.median(first):.1f} ms, worst {max(first):.1f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tablets", type=int, default=3)
    parser.add_argument("--bursts", type=int, default=4)
    parser.add_argument("--behind", type=float, default=0.0,
                        help="ms: every page plays through a delay of this in its own audio graph (audiopath.py's --behind)")
    parser.add_argument("--slew", action="store_true",
                        help="every page plays a little faster and slower in turn, as box.js does while it slews")
    parser.add_argument("--json", type=Path, help="also write every figure")
    arguments = parser.parse_args()
    if (why := can_run()) is not None:
        sys.exit(f"benchmarks/glitch.py: {why}")
    if os.geteuid() != 0:
        sys.exit("benchmarks/glitch.py: needs root (its CPU burst runs at real-time priority)")
    with tempfile.TemporaryDirectory(prefix="narrator-glitch-") as folder:
        result = run(Path(folder), arguments.tablets, arguments.bursts, arguments.behind, arguments.slew)
    table(result)
    if arguments.json:
        arguments.json.write_text(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
