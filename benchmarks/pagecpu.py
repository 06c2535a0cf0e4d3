"""What tablet pages cost while the night plays: the CPU their browser spends, with the night's
progress bar as served (moved in steps) and eased by a CSS transition (as it was before ff2da6c).

Usage:  .venv/bin/python benchmarks/pagecpu.py [--rounds 5] [--tablets 3] [--seconds 10]

Each round, twice (as served, then eased, by turns): a speaker box on loopback with
``tests/boxnet.py``'s ramp night; ``--tablets`` pages of Debian's Chromium (headless, through
Playwright, one browser) join it and the night starts; from 2 s into the night, the CPU time (user
plus system) of every Chromium process is read over ``--seconds`` of night. The eased pages get
the old rule (``transition: width 0.25s linear`` on the bar) as a style tag after joining. Prints
the median of each and their ratio, both from this run. At night every eye is closed: what the
pages draw then is spent for nobody, on a tablet's battery.
"""

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from audiopath import sandbox  # noqa: E402
from boxnet import ARGS, CHROMIUM, join, ramp_box  # noqa: E402

EASED = "#progress-done { transition: width 0.25s linear; }"  # the rule before ff2da6c
SETTLE = 2.0  # seconds into the night before reading: the pages have fetched and started playing


def browser_cpu() -> dict[int, float]:
    """CPU seconds (user + system) so far of every Chromium process, by pid."""
    tick = os.sysconf("SC_CLK_TCK")
    found = {}
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            with open(f"/proc/{entry.name}/stat") as stat:
                text = stat.read()
        except OSError:  # (gone meanwhile)
            continue
        name, rest = text[text.index("(") + 1:text.rindex(")")], text[text.rindex(")") + 2:].split()
        if "chrom" in name:
            found[int(entry.name)] = (int(rest[11]) + int(rest[12])) / tick  # utime, stime
    return found


def one_night(browser, tablets: int, seconds: float, eased: bool) -> float:
    """CPU seconds the browser spent over ``seconds`` of night with ``tablets`` pages."""
    box, server = ramp_box(SETTLE + seconds + 5)
    pages = []
    try:
        for _ in range(tablets):
            page = browser.new_page()
            join(page, f"http://127.0.0.1:{server.port}/")
            if eased:
                page.add_style_tag(content=EASED)
            pages.append(page)
        box.start_night()
        time.sleep(SETTLE)
        before = browser_cpu()
        time.sleep(seconds)
        after = browser_cpu()
        return sum(after[pid] - before[pid] for pid in after.keys() & before.keys())
    finally:
        for page in pages:
            page.close()
        server.stop()


def main() -> None:
    from playwright.sync_api import sync_playwright

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--tablets", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=10.0)
    arguments = parser.parse_args()
    found: dict[bool, list[float]] = {False: [], True: []}
    with tempfile.TemporaryDirectory() as folder:
        sandbox(Path(folder))  # (a browser started in the real home leaves its sound client's files behind)
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
            for _ in range(arguments.rounds):
                for eased in (False, True):
                    found[eased].append(one_night(browser, arguments.tablets, arguments.seconds, eased))
            browser.close()
    served, eased = statistics.median(found[False]), statistics.median(found[True])
    print(f"{arguments.tablets} tablets, {arguments.seconds:g} s of night, {arguments.rounds} rounds; "
          "browser CPU seconds, median (every round)")
    print(f"as served (steps): {served:.2f}  {[round(value, 2) for value in found[False]]}")
    print(f"eased (before):    {eased:.2f}  {[round(value, 2) for value in found[True]]}")
    print(f"eased / served:    {eased / served:.1f}")


if __name__ == "__main__":
    main()
