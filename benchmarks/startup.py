"""Whole-process time of the quick commands, against a bare Python start in the same run.

Usage:  .venv/bin/python benchmarks/startup.py [--runs 40]

Each round runs every command once, in turn, so machine noise falls on all of them alike;
the report gives medians and the ratio of each median to the bare interpreter's.
"""

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

NARRATE = Path(sys.executable).parent / "narrate"
COMMANDS = {
    "python -c pass (baseline)": [sys.executable, "-c", "pass"],
    # the floor under any command: the libraries every narrate run stands on, imported and nothing else
    "libraries alone": [sys.executable, "-c", "import click, dataclasses, pathlib, gettext, zlib, marshal"],
    "narrate --help": [str(NARRATE), "--help"],
    "narrate script --players 10": [str(NARRATE), "script", "--players", "10"],
    "narrate roles": [str(NARRATE), "roles"],
    "narrate deck --players 6": [str(NARRATE), "deck", "--players", "6"],
}


def time_once(command: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True,
                   env={**os.environ, "LANG": "C.UTF-8"})
    return time.perf_counter() - start


def core_microseconds(rounds: int = 200) -> float:
    """Median time to generate and lay out the 10-player night in-process (catalog already loaded)."""
    from narrator.core.deck import recommended_deck
    from narrator.core.script import generate_script, settings_for
    from narrator.core.timeline import script_timeline
    from narrator.shell.environment import Environment

    game = Environment().game
    deck, settings = recommended_deck(game, 10), settings_for(game, "it")
    samples = []
    for _ in range(rounds):
        start = time.perf_counter()
        script_timeline(generate_script(game, deck, settings))
        samples.append(time.perf_counter() - start)
    return statistics.median(samples) * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=40)
    runs = parser.parse_args().runs
    if not NARRATE.exists():
        sys.exit(f"no narrate next to {sys.executable}: install the project in this environment first")
    for command in COMMANDS.values():  # warm the file cache once
        time_once(command)
    samples = {name: [] for name in COMMANDS}
    for _ in range(runs):
        for name, command in COMMANDS.items():
            samples[name].append(time_once(command))
    baseline = statistics.median(samples["python -c pass (baseline)"])
    print(f"{runs} rounds, {os.cpu_count()} cores, Python {sys.version.split()[0]}\n")
    print("| command | median ms | p90 ms | x baseline |")
    print("|---|---:|---:|---:|")
    for name, values in samples.items():
        median = statistics.median(values)
        p90 = statistics.quantiles(values, n=10)[-1]
        print(f"| `{name}` | {median * 1000:.0f} | {p90 * 1000:.0f} | {median / baseline:.1f} |")
    print(f"\nscript generation + layout, 10 players, in-process: {core_microseconds():.0f} µs median")


if __name__ == "__main__":
    main()
