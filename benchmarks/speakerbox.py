"""Skew between tablets as heard, through a network with jitter and loss: start, late join,
reload, steady state, pause and resume.

Usage:  .venv/bin/python benchmarks/speakerbox.py [--rounds 3] [--jitter 0 5 20 50]

For each jitter (milliseconds, each direction on its own: a chunk of data is held 2 ms plus a
uniform draw up to the jitter, in order, and 1 % of chunks a retransmission's 200 ms more; none
and no loss for 0), ``tests/boxnet.py``'s scenario: an in-process speaker box with a 60-second
night whose samples say where they are; three pages of Debian's Chromium (headless, through
Playwright) join through a proxy on 127.0.0.1 and wait 4 s; Start; 4 s later a fourth page joins
and the third reloads; 8 s after both are first heard a pause, 2 s later the resume. Each page's audio output is read
back (an AudioWorklet before its speakers, mapped to the wall clock by its output timestamp), and
every page is compared with the first. Medians and worsts over the rounds.
"""

import argparse
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from boxnet import ARGS, game_over_a_network  # noqa: E402

MEASURES = ("start", "late join", "reload", "steady", "pause stop spread", "pause stop time spread", "resume")


def main() -> None:
    from playwright.sync_api import sync_playwright

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--jitter", type=float, nargs="+", default=[0, 5, 20, 50])
    arguments = parser.parse_args()
    rows = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", headless=True, args=ARGS)
        for jitter in arguments.jitter:
            found = [game_over_a_network(browser, jitter / 1000, 0.01 if jitter else 0.0, seed=round_)
                     for round_ in range(arguments.rounds)]
            rows.append((jitter, {measure: [result[measure] for result in found] for measure in MEASURES}))
        browser.close()
    print(f"{arguments.rounds} rounds per jitter; worst skew against the first tablet, ms: median / worst of rounds\n")
    print("| jitter | " + " | ".join(MEASURES) + " |")
    print("|---:|" + "---:|" * len(MEASURES))
    for jitter, values in rows:
        cells = [f"{statistics.median(values[m]):.1f} / {max(values[m]):.1f}" for m in MEASURES]
        print(f"| {jitter:g} ms{' + 1 % loss' if jitter else ''} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
