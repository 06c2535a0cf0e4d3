"""Start skew between two headless tablets on loopback, and start-to-playback time, over 20 starts.

Usage:  .venv/bin/python benchmarks/speakerbox.py [--starts 20]

An in-process speaker-box server with a synthetic 30-second night; two Chromium pages (Debian's,
through Playwright) join once. Each round resets the game to "waiting", clicks Start on the
laptop's page, and reads, from each page, the wall-clock time at which it scheduled the night's
first sample (performance.timeOrigin + its own estimate; every page shares the machine's clock).
Skew: the difference between the two pages. Start-to-playback: from the click to that time.
"""

import argparse
import io
import statistics
import time

import numpy as np
import soundfile

from narrator.shell.speakerbox.server import BoxServer
from narrator.shell.speakerbox.state import Box

ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync"]


def main() -> None:
    from playwright.sync_api import sync_playwright

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--starts", type=int, default=20)
    starts = parser.parse_args().starts
    wav = io.BytesIO()
    soundfile.write(wav, (0.2 * np.sin(np.arange(30 * 24000) * 0.05)).astype(np.float32), 24000, format="WAV")
    server = BoxServer(Box(30.0, [(0.0, "night")], time.monotonic), wav.getvalue(), {}, time.monotonic,
                       lambda action: server.box.start_night(), host="127.0.0.1", port=0)
    server.box.on_change = server.broadcast
    server.start()
    skews, delays = [], []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", headless=True, args=ARGS)
        pages = [browser.new_page(), browser.new_page()]
        pages[0].goto(f"http://127.0.0.1:{server.port}/?token={server.token}")
        pages[1].goto(f"http://127.0.0.1:{server.port}/")
        for page in pages:
            page.click("#join")
            page.wait_for_function("narratorBox.offset !== null && narratorBox.state !== null", timeout=20000)
        for _ in range(starts):
            server.box = Box(30.0, [(0.0, "night")], time.monotonic, on_change=server.broadcast)
            server.broadcast()
            for page in pages:
                page.wait_for_function("narratorBox.state.stage === 'waiting' && !narratorBox.playing")
            clicked = time.time()
            pages[0].click("button[data-action=start]")
            for page in pages:
                page.wait_for_function("narratorBox.playing && narratorBox.state.stage === 'night'")
            first, second = (page.evaluate("narratorBox.scheduledEpochStart") for page in pages)
            skews.append(abs(first - second) * 1000)
            delays.append((max(first, second) - clicked) * 1000)
        browser.close()
    server.stop()
    print(f"{starts} starts, two headless Chromium pages on loopback\n")
    print("| measure | median | worst |")
    print("|---|---:|---:|")
    print(f"| start skew between the two pages | {statistics.median(skews):.2f} ms | {max(skews):.2f} ms |")
    print(f"| start command to scheduled playback | {statistics.median(delays):.0f} ms | {max(delays):.0f} ms |")


if __name__ == "__main__":
    main()
