"""Skew between tablets as heard through a real audio path: start, late join, reload, a CPU burst,
pause and resume, on a clean network and behind 50 ms of jitter with loss.

Usage:  .venv/bin/python benchmarks/audiopath.py [--rounds 3] [--jitter 50] [--length 60] [--against PAGE]
        [--no-floor] [--hidden 40,250 [--listen]] [--no-join]

First, as many rounds of the rig's own floor (``heard.play_plainly``): one stream whose channels
are the same samples (what the recording and the reading add), then three plain players given the
night at one moment with a browser starting beside them (what PulseAudio's streams add); the pages'
figures are read against it.

With ``--against PAGE`` (another version of ``static/box.js``, e.g. `git show
7905c49:narrator/shell/speakerbox/static/box.js > old.js`), every run is played twice in turn, by
that page ("against") and by the tree's ("tree"), and each gets its table: a comparison measured
in one run.

Needs PulseAudio (`apt-get install pulseaudio pulseaudio-utils`), Debian's Chromium and root (the
CPU burst runs at real-time priority). Everything runs in a temporary folder: a PulseAudio daemon
of its own with one null sink of a channel per tablet, each tablet a Chromium process of its own
playing into its channel, one recording of them all (``tests/heard.py``). The night is
`narrate render --players 10 --lang en` (drums and Pico's voice) with a faint noise under it
(−50 dBFS) so that every 0.4 s of it is unique; where each tablet is in the night is read from the
recording every 0.5 s by cross-correlation, and compared with the laptop's playhead.

With ``--hidden A,B`` the first and second tablets play behind speakers A and B ms later than their
pages can see (``module-loopback``, ``tests/heard.py``); with ``--listen`` too, every run is played
twice in turn, as today and with the laptop listening first (``narrator.shell.speakerbox.listen``,
one round before the night, its microphone the room's mix), and each gets its table, with how long
the round took from the tablets' joining and how late it heard each tablet.

A round is two nights of the plan in ``tests/heard.py`` (three tablets; the third joins at 8 s,
the second reloads at 20 s, every core is taken for 0.3 s at 34 s, a pause at 46 s and the resume
at 50 s): one on loopback, one with the second and third tablets behind a proxy that holds each
chunk 2 ms plus up to ``--jitter`` ms, each way, and 1 % of them 200 ms more.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from heard import Plan, can_run, measure, play_night, play_plainly, room_listener, until_ready  # noqa: E402

PARTS = ("start", "late join", "reload", "glitch", "resume", "whole")


def render_night(folder: Path) -> bytes:
    """The night a 10-player table of Una Notte da Lupi hears, rendered as `narrate render` does."""
    out = folder / "night.wav"
    sandbox = {name: str(folder / name.lower()) for name in ("XDG_CACHE_HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME")}
    subprocess.run([sys.executable, "-m", "narrator", "render", "--players", "10", "--lang", "en", "-o", str(out)],
                   check=True, env={**os.environ, **sandbox, "HOME": str(folder), "LANG": "C.UTF-8"},
                   stdout=subprocess.DEVNULL)
    return out.read_bytes()


def cell(values: list[float]) -> str:
    values = [value for value in values if value == value]
    if not values:
        return "–"
    return f"{statistics.median(values):.1f} / {max(values):.1f}"


def main() -> None:
    from playwright.sync_api import sync_playwright

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--jitter", type=float, default=50.0, help="ms, each way, in front of two tablets")
    parser.add_argument("--length", type=float, default=60.0, help="seconds of night per run")
    parser.add_argument("--network", choices=("both", "loopback", "jitter"), default="both")
    parser.add_argument("--against", type=Path, help="another box.js to play every run with too, in turn")
    parser.add_argument("--json", type=Path, help="also write every figure and every page's log here")
    parser.add_argument("--no-floor", action="store_true", help="leave out the rig's own floor (plain players)")
    parser.add_argument("--hidden", help="ms,ms: speakers the first two tablets' pages cannot see")
    parser.add_argument("--listen", action="store_true", help="each run also with the laptop listening first")
    parser.add_argument("--no-join", action="store_true", help="no late join: every tablet there from the start")
    arguments = parser.parse_args()
    hidden = tuple((tablet, int(ms)) for tablet, ms in enumerate(arguments.hidden.split(","), 1)) \
        if arguments.hidden else ()
    if (why := can_run()) is not None:
        sys.exit(f"benchmarks/audiopath.py: {why}")
    if os.geteuid() != 0:
        sys.exit("benchmarks/audiopath.py: needs root (its CPU burst runs at real-time priority)")
    pages = {"tree": None, **({"against": arguments.against.read_bytes()} if arguments.against else {})}
    if arguments.listen:
        pages = {"as today": None, "listening": None}
    runs = []
    with tempfile.TemporaryDirectory() as folder, sync_playwright() as playwright:
        night = render_night(Path(folder))
        floor = [] if arguments.no_floor else rig_floor(playwright, Path(folder), night, arguments)
        for round_ in range(arguments.rounds):
            networks = {"both": (0.0, arguments.jitter / 1000), "loopback": (0.0,),
                        "jitter": (arguments.jitter / 1000,)}[arguments.network]
            for jitter, (name, page) in ((j, p) for j in networks for p in reversed(pages.items())):
                plan = Plan(length=arguments.length, jittered=(2, 3) if jitter else (), hidden=hidden,
                            **({"join": None} if arguments.no_join else {}))
                heard = play_night(playwright, Path(folder) / f"run{len(runs)}", night, plan, jitter=jitter,
                                   loss=0.01 if jitter else 0.0, seed=round_, page=page,
                                   before_night=listen_first if name == "listening" else None)
                found = measure(heard)
                runs.append({"page": name, "round": round_, "jitter": jitter * 1000, "found": found,
                             "events": heard.events, "marks": heard.marks, "recorder rate": heard.rate,
                             "latencies": heard.latencies, "listened": heard.before})
                if heard.before:
                    print(f"  listened: {heard.before}", file=sys.stderr)
                print(f"{name} page, round {round_ + 1}, jitter {jitter * 1000:g} ms: "
                      + ", ".join(f"{part} {found[part]['worst']:.1f}" for part in PARTS if part in found)
                      + f" ms worst; dropouts {len(found['dropouts'])}; wrong corrections "
                      f"{len(found['wrong corrections'])}", file=sys.stderr)
                for episode in found["episodes over 5 ms"]:
                    print(f"  over 5 ms at {episode['at']} s for {episode['seconds']} s (worst {episode['worst']} ms;"
                          f" from the laptop {episode['from the laptop']}): "
                          + "; ".join(f"tablet {tablet}: {logged}" for tablet, logged in episode["logged"].items()
                                      if logged), file=sys.stderr)
    if arguments.json:
        arguments.json.write_text(json.dumps({"floor": floor, "runs": runs}, indent=1, default=float))
    if floor:
        report_floor(floor)
    for name in pages:
        print(f"\n{name} page" if len(pages) > 1 else "")
        report([run for run in runs if run["page"] == name], arguments.rounds)
    listened = [run["listened"] for run in runs if run["listened"]]
    if listened:
        print(f"\nlistening: done {cell([entry['seconds from joining'] for entry in listened])} s (median / worst)"
              " after the first tablets joined; heard late (ms): "
              + "; ".join(str(entry["late ms"]) for entry in listened))


def listen_first(server, room, pages, joined: float) -> dict:
    """One round of the laptop listening, as ``narrate --listen`` has it before Start: once the
    tablets are in step, through the room's microphone. What it heard, and when it was done."""
    import time

    said: list[str] = []
    until_ready(server, len(pages))
    heard = room_listener(server, room, said).round()
    time.sleep(0.3)  # the delays reach the pages
    return {"seconds from joining": round(time.time() - joined, 1), "missing": list(heard.missing) if heard else None,
            "late ms": {n: round(v * 1000, 1) for n, v in (heard.late.items() if heard else ())},
            "delays": server.delays(), "said": said}


def rig_floor(playwright, folder: Path, night: bytes, arguments) -> list[dict]:
    """The rig's own floor, as many rounds as the pages', before them (issue 41, point 5): the
    recording and the reading alone (one stream, its three channels the same samples), and
    PulseAudio's own streams (three plain players given the night at one moment, a Chromium
    starting beside them)."""
    found = []
    for round_ in range(arguments.rounds):
        for together in (True, False):
            heard = play_plainly(folder / f"floor{round_}{'-together' if together else ''}", night, 3,
                                 arguments.length, together, None if together else playwright)
            figures = measure(heard)["whole"]
            found.append({"round": round_, "together": together, **figures})
            print(f"floor, round {round_ + 1}, {'one stream' if together else 'three players'}: median "
                  f"{figures['median']:.2f} ms, worst {figures['worst']:.2f} ms", file=sys.stderr)
    return found


def report_floor(floor: list[dict]) -> None:
    print("The rig's own floor (ms between the channels as heard: median of windows / worst window, over the"
          " rounds)\n")
    print("| played by | median | worst | longest over 5 ms |")
    print("|---|---:|---:|---:|")
    for together, name in ((True, "one stream, the same samples on every channel"),
                           (False, "three plain players (pacat) given the night at once, a browser starting")):
        mine = [run for run in floor if run["together"] == together]
        print(f"| {name} | {statistics.median(run['median'] for run in mine):.2f} | "
              f"{max(run['worst'] for run in mine):.2f} | {max(run['over 5 ms'] for run in mine):.1f} s |")
    print()


def report(runs: list[dict], rounds: int) -> None:
    rates = [run["recorder rate"] for run in runs]
    latencies = [sum(pair) * 1000 for run in runs for pair in run["latencies"].values()]
    print(f"recorder: {min(rates):.0f}-{max(rates):.0f} frames a second of the wall clock;"
          f" the pages' output plus base latency at the end: {min(latencies):.0f}-{max(latencies):.0f} ms")
    print(f"{rounds} rounds; spread between the tablets as heard (ms), per part of the night: median of its"
          " windows / worst window, over the rounds (median of medians / worst of worsts)\n")
    print("| network | " + " | ".join(PARTS) + " | longest over 5 ms | dropouts | glitch: back within 2 ms after"
          " | pause: stop spread | resume: restart spread | resume: replayed or skipped | wrong corrections |")
    print("|---|" + "---:|" * (len(PARTS) + 7))
    for jitter in sorted({run["jitter"] for run in runs}):
        mine = [run["found"] for run in runs if run["jitter"] == jitter]
        cells = [f"{statistics.median([f[part]['median'] for f in mine]):.1f} / "
                 f"{max(f[part]['worst'] for f in mine):.1f}" if all(part in f for f in mine) else "–"
                 for part in PARTS]
        over = max(f["whole"]["over 5 ms"] for f in mine)
        dropouts = [len(f["dropouts"]) for f in mine]
        back = cell([f["glitch"]["back in step after"] for f in mine])
        held = [abs(h) for f in mine for h in f["pause"].get("replayed", [])]
        print(f"| {'loopback' if not jitter else f'{jitter:g} ms + 1 % loss'} | " + " | ".join(cells)
              + f" | {over:.1f} s | {sum(dropouts)} ({max(dropouts)} in a run) | {back} s"
              + f" | {cell([f['pause']['stop spread'] for f in mine])}"
              + f" | {cell([f['pause']['restart spread'] for f in mine])}"
              + f" | {max(held) if held else float('nan'):.1f} | {sum(len(f['wrong corrections']) for f in mine)} |")


if __name__ == "__main__":
    main()
