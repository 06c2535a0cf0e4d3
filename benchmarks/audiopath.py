"""Skew between tablets as heard through a real audio path: start, late join, reload, a CPU burst,
pause and resume, on a clean network and behind 50 ms of jitter with loss.

Usage:  .venv/bin/python benchmarks/audiopath.py [--rounds 3] [--jitter 50] [--length 60] [--against PAGE]
        [--no-floor] [--hidden 40,250 [--behind] [--listen]] [--no-join]

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
pages can see (``module-loopback``, ``tests/heard.py``; with ``--behind``, a delay in each page's own
audio graph instead, ``heard.BEHIND``: module-loopback's own latency comes out of the CPU burst
hundreds of ms off and takes tens of seconds to come back, a delay node's holds); with ``--listen`` too, every run is played
three times in turn (``narrator.shell.speakerbox.listen``, its microphone the room's mix): as today;
with the laptop listening, without its ear on the night (a round before the night, and one in the
next stretch without voice for a tablet that joined or reloaded, as ``narrate --listen`` does in a
one-night game); and with its ear on the night too (each tablet's night signed, every tablet read
by its signature and one off the others moved back, ``narrator.core.signatures``; copies of the
night heard apart ask for a round, ``narrator.core.drift``): whether the ear helps. Each gets its
table, with how long the rounds before the night took from the tablets' joining (begun as
``narrate --listen`` begins them while it waits for Start), how late the last heard each tablet,
what the laptop said in the night, what its ear moved, and every delay set in the night (and every
course its ear moved on a page in doubt) judged as heard (``heard.measure``'s "delays moved").
The night's voice (where a round may go, and where a page takes a new delay at once) is found from
the same night rendered without its drums.

A round is two nights of the plan in ``tests/heard.py`` (three tablets; the third joins at 8 s, its
browser started with the others' before the night, or then with ``--browser-at-join``, and
running ``--late-nice`` below them on the cores every tablet shares here,
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

from heard import (  # noqa: E402
    CLOSE,
    Plan,
    between,
    can_run,
    measure,
    play_night,
    play_plainly,
    room_listener,
    spreads,
    the_laptop_s_ear,
)

PARTS = ("start", "late join", "reload", "glitch", "resume", "end", "whole")
# With --listen the night is longer and its CPU burst later, so that each event meets the laptop
# at a stretch without voice of its own (in the night rendered here: from 18.0, 39.8, 56.3 and
# 76.2 s): the late join's round at 18 s, the reload's at 39.8 s, and the burst at 48 s after both,
# heard by the ear (if at all) by the 56.3 or the 76.2 s stretch; the pause is left out. "end":
# the last 8 s of the night, after all of it.
LISTENING = {"length": 95.0, "burst": 48.0, "pause": None, "resume": None}


def render_night(folder: Path, *options: str) -> bytes:
    """The night a 10-player table of Una Notte da Lupi hears, rendered as `narrate render` does."""
    out = folder / f"night{''.join(options)}.wav"
    sandbox = {name: str(folder / name.lower()) for name in ("XDG_CACHE_HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME")}
    subprocess.run([sys.executable, "-m", "narrator", "render", "--players", "10", "--lang", "en", *options,
                    "-o", str(out)],
                   check=True, env={**os.environ, **sandbox, "HOME": str(folder), "LANG": "C.UTF-8"},
                   stdout=subprocess.DEVNULL)
    return out.read_bytes()


def voice_of(folder: Path, gap: float = 0.3) -> list[tuple[float, float]]:
    """Where the night's voice sounds (seconds; lines closer than ``gap`` as one, as the box tells
    the tablets): the night rendered without its drums, wherever it is not silent."""
    import io

    import numpy as np
    import soundfile

    samples, rate = soundfile.read(io.BytesIO(render_night(folder, "--no-ambience")), dtype="float32")
    loud = np.flatnonzero(np.abs(samples) > 1e-3)
    apart = np.diff(loud) > gap * rate  # a new line after this sample
    starts, ends = np.r_[loud[0], loud[1:][apart]], np.r_[loud[:-1][apart], loud[-1]]
    return [(float(start) / rate, float(end) / rate) for start, end in zip(starts, ends, strict=True)]


def cell(values: list[float]) -> str:
    values = [value for value in values if value == value]
    if not values:
        return "–"
    return f"{statistics.median(values):.1f} / {max(values):.1f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--jitter", type=float, default=50.0, help="ms, each way, in front of two tablets")
    parser.add_argument("--length", type=float, default=60.0, help="seconds of night per run")
    parser.add_argument("--network", choices=("both", "loopback", "jitter"), default="both")
    parser.add_argument("--against", type=Path, help="another box.js to play every run with too, in turn")
    parser.add_argument("--json", type=Path, help="also write every figure, every page's log and every window as read here")
    parser.add_argument("--no-floor", action="store_true", help="leave out the rig's own floor (plain players)")
    parser.add_argument("--hidden", help="ms,ms: speakers the first two tablets' pages cannot see")
    parser.add_argument("--behind", action="store_true",
                        help="the --hidden speakers made in the pages' audio graphs, not by module-loopback")
    parser.add_argument("--listen", action="store_true",
                        help="each run also with the laptop listening, without and with its ear on the night")
    parser.add_argument("--no-join", action="store_true", help="no late join: every tablet there from the start")
    parser.add_argument("--browser-at-join", action="store_true",
                        help="the late tablet's browser starts on this machine as it joins, not before the night "
                             "(a browser starting here can stall the other tablets' sound, which no table has)")
    parser.add_argument("--late-nice", type=int, default=Plan.late_nice, metavar="N",
                        help="the late tablet's browser runs N below the others on this machine's cores "
                             "(default %(default)s; 0: as they do, the rig before 2026-12-01)")
    arguments = parser.parse_args()
    hidden = tuple((tablet, int(ms)) for tablet, ms in enumerate(arguments.hidden.split(","), 1)) \
        if arguments.hidden else ()
    if arguments.against and arguments.listen:
        parser.error("--against does not combine with --listen (whose runs are the tree's page, listening or not)")
    if (why := can_run()) is not None:
        sys.exit(f"benchmarks/audiopath.py: {why}")
    if os.geteuid() != 0:
        sys.exit("benchmarks/audiopath.py: needs root (its CPU burst runs at real-time priority)")
    pages = {"tree": None, **({"against": arguments.against.read_bytes()} if arguments.against else {})}
    if arguments.listen:
        pages = {"as today": None, "listening, no ear": None, "listening with its ear": None}
    with tempfile.TemporaryDirectory() as folder:
        sandbox(Path(folder))
        floor, runs = run_all(arguments, pages, hidden, Path(folder))
    if arguments.json:
        arguments.json.write_text(json.dumps({"floor": floor, "runs": runs}, indent=1, default=float))
    if floor:
        report_floor(floor)
    for name in pages:
        print(f"\n{name} page" if len(pages) > 1 else "")
        report([run for run in runs if run["page"] == name], arguments.rounds)
        silent = [run["found"]["late join"]["silent after joining"] for run in runs
                  if run["page"] == name and "late join" in run["found"]]
        if silent:  # (with --listen a late tablet plays silent until the laptop has heard it)
            print(f"\nthe late tablet first heard {cell(silent)} s (median / worst) after it joined")
    listened = [run["listened"] for run in runs if run["listened"]]
    if listened:
        print(f"\nlistening: every tablet set {cell([entry['set from joining'] for entry in listened])} s, done (one set"
              f" by plays in doubt heard again) {cell([entry['seconds from joining'] for entry in listened])} s"
              " (median / worst) after the first tablets joined, the last round before the night begun at"
              f" {cell([entry['last round begun'] for entry in listened])} s; rounds before the night:"
              f" {[entry.get('rounds') for entry in listened]}; heard late (ms), in the last: "
              + "; ".join(str(entry["late ms"]) for entry in listened))
        for name in pages:
            mine = [run["listened"]["in the night"] for run in runs if run["page"] == name and run["listened"]]
            if mine:
                print(f"{name}: rounds in the night {[sum('set by what' in line for line in said) for said in mine]};"
                      f" drifts heard {[sum('apart' in line for line in said) for said in mine]}")


def sandbox(folder: Path) -> None:
    """Everything the benchmark starts keeps its files in ``folder``: a sound client started
    without the room's settings would otherwise leave its runtime link in the real home's
    ~/.config/pulse (a run did)."""
    user = folder / "user"
    for name in ("home", "config", "cache", "data", "run"):
        (user / name).mkdir(parents=True)
    (user / "run").chmod(0o700)
    os.environ.update({"HOME": str(user / "home"), "XDG_CONFIG_HOME": str(user / "config"),
                       "XDG_CACHE_HOME": str(user / "cache"), "XDG_DATA_HOME": str(user / "data"),
                       "XDG_RUNTIME_DIR": str(user / "run")})


def windows(heard) -> dict:
    """Every window as it was read, for a stretch the figures do not explain: when (seconds into
    the night) and each tablet's position against the laptop's playhead (ms, + ahead; the
    recorder's own latency, the same for all, not taken off; None where it was not read)."""
    times, positions, _ = spreads(heard)
    playhead = [heard.playhead(at) for at in times]
    return {"at": [round(float(at - heard.start), 2) for at in times],
            "ms ahead": {tablet + 1: [None if position != position else round(float(position - where) * 1000, 2)
                                      for position, where in zip(row, playhead, strict=True)]
                         for tablet, row in enumerate(positions)}}


def run_all(arguments, pages: dict, hidden: tuple, folder: Path) -> tuple[list, list]:
    """The rig's floor and every run of every page: what ``main`` reports."""
    from playwright.sync_api import sync_playwright

    runs: list[dict] = []
    with sync_playwright() as playwright:
        night = render_night(folder)
        speech = voice_of(folder) if arguments.listen else None
        floor = [] if arguments.no_floor else rig_floor(playwright, folder, night, arguments)
        for round_ in range(arguments.rounds):
            networks = {"both": (0.0, arguments.jitter / 1000), "loopback": (0.0,),
                        "jitter": (arguments.jitter / 1000,)}[arguments.network]
            for jitter, (name, page) in ((j, p) for j in networks for p in reversed(pages.items())):
                timed = {"length": arguments.length, **(LISTENING if arguments.listen else {})}
                speakers = {"behind" if arguments.behind else "hidden": hidden}
                plan = Plan(jittered=(2, 3) if jitter else (), **speakers, browser_at_join=arguments.browser_at_join,
                            late_nice=arguments.late_nice,
                            **({"join": None} if arguments.no_join else {}), **timed)
                laptop = Laptop(speech, ear=name == "listening with its ear") if name.startswith("listening") else None
                heard = play_night(playwright, folder / f"run{len(runs)}", night, plan, jitter=jitter,
                                   loss=0.01 if jitter else 0.0, seed=round_, page=page, speech=speech,
                                   before_night=laptop.first if laptop else None, signed=bool(laptop and laptop.ear),
                                   during_night=laptop.during if laptop else None)
                if laptop:
                    heard.before["in the night"] = laptop.said[laptop.before:]
                    heard.before["ear"] = [(round(at - laptop.began, 1), found and [round(late * 1000, 1) for late in found])
                                           for at, found in laptop.listener.ear]
                    heard.before["moved by ear"] = [(round(at - laptop.began, 1), tablet, round(seconds * 1000, 2),
                                                     "delay" if by_delay else "course")
                                                    for at, tablet, seconds, by_delay in laptop.listener.nudged]
                    heard.before["read by signature"] = [(round(at - laptop.began, 1),
                                                          {tablet: round(late * 1000, 2) for tablet, late in read.items()})
                                                         for at, read in laptop.listener.signed_ear]
                    heard.before["microphone skew ppm"] = laptop.listener.skew and round(laptop.listener.skew * 1e6)
                found = measure(heard)
                if plan.pause is None:
                    found["end"] = between(heard, plan.length - 9, plan.length - 1)
                runs.append({"page": name, "round": round_, "jitter": jitter * 1000, "found": found,
                             "events": heard.events, "marks": heard.marks, "recorder rate": heard.rate,
                             "latencies": heard.latencies, "listened": heard.before, "windows": windows(heard)})
                if heard.before:
                    print(f"  listened: {heard.before}", file=sys.stderr)
                if "glitch" in found:
                    print(f"  glitch: back within {CLOSE * 1000:g} ms after {found['glitch']['back in step after']:.1f} s",
                          file=sys.stderr)
                print(f"{name} page, round {round_ + 1}, jitter {jitter * 1000:g} ms: "
                      + ", ".join(f"{part} {found[part]['worst']:.1f}" for part in PARTS if part in found)
                      + f" ms worst; dropouts {len(found['dropouts'])}; wrong corrections "
                      f"{len(found['wrong corrections'])} (slews begun the wrong way "
                      f"{len(found['slews begun the wrong way'])}); delays and courses moved in the night the wrong way as heard "
                      f"{sum(move['wrong'] for move in found['delays moved'])} of {len(found['delays moved'])}",
                      file=sys.stderr)
                for episode in found["episodes over 5 ms"]:
                    print(f"  over 5 ms at {episode['at']} s for {episode['seconds']} s (worst {episode['worst']} ms;"
                          f" from the laptop {episode['from the laptop']}): "
                          + "; ".join(f"tablet {tablet}: {logged}" for tablet, logged in episode["logged"].items()
                                      if logged), file=sys.stderr)
    return floor, runs


class Laptop:
    """The laptop listening, as ``narrate --listen`` has it in a one-night game, through the room's
    microphone: a round once the first tablets are in step, before Start (``first``); while the
    night plays, a round for a tablet that joined or reloaded where the voice leaves room, and,
    with ``ear``, its ear on the night (``during``)."""

    def __init__(self, speech: list[tuple[float, float]], ear: bool):
        self.speech, self.ear, self.said, self.before, self.began = speech, ear, [], 0, 0.0
        self.listener = None

    def first(self, server, room, pages, joined: float) -> dict:
        """As ``narrate --listen`` waits for Start: ``tick`` every tenth of a second (a round once
        one is due, waiting GATHER at most for tablets still coming into step), until every page
        has been heard in a round and that round is over (a page set by plays in doubt is heard
        again once its timestamps hold still: both times are reported)."""
        import time

        self.listener = listener = room_listener(server, room, self.said, keep_an_ear=self.ear)
        rounds: list = []
        begun = []  # (wall time each round began)
        plain = listener.round

        def round_(first=None, ready=None):
            begun.append(time.time())
            rounds.append(plain(first, ready))
            return rounds[-1]

        listener.round = round_
        deadline = time.monotonic() + 60.0
        set_at = None  # (wall time every page was first set by a round: one set by plays in doubt is heard again)
        while (len({number for number, _ in listener.listened}) < len(pages) or listener.busy()) and \
                time.monotonic() < deadline:
            if set_at is None and len(listener.set) >= len(pages) and not listener.busy():
                set_at = time.time()
            listener.tick()
            time.sleep(0.1)
        listener.wait()
        done = time.time()
        set_at = set_at or done
        listener.round = plain
        heard = rounds[-1] if rounds else None
        time.sleep(0.3)  # the delays reach the pages
        self.before = len(self.said)
        return {"seconds from joining": round(done - joined, 1), "set from joining": round(set_at - joined, 1),
                "rounds": len(rounds),
                "last round begun": round(begun[-1] - joined, 1) if begun else float("nan"),
                "missing": list(heard.missing) if heard else None,
                "late ms": {n: round(v * 1000, 1) for n, v in (heard.late.items() if heard else ())},
                "delays": server.delays(), "said": list(self.said)}

    def during(self, server, room, box, night):
        self.began = box.night_moves()  # (box time of the night's sample 0: what the ear heard, in night seconds)
        return the_laptop_s_ear(self.listener, self.speech)(server, room, box, night)


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
    nan = float("nan")
    rates = [run["recorder rate"] for run in runs]
    latencies = [sum(pair) * 1000 for run in runs for pair in run["latencies"].values()]
    print(f"recorder: {min(rates):.0f}-{max(rates):.0f} frames a second of the wall clock;"
          f" the pages' output plus base latency at the end: {min(latencies):.0f}-{max(latencies):.0f} ms")
    print(f"{rounds} rounds; spread between the tablets as heard (ms), per part of the night: median of its"
          " windows / worst window, over the rounds (median of medians / worst of worsts)\n")
    print("| network | " + " | ".join(PARTS) + " | longest over 5 ms | dropouts | glitch: back within"
          f" {CLOSE * 1000:g} ms after"
          " | pause: stop spread | resume: restart spread | resume: replayed or skipped | wrong corrections (slews begun the wrong way)"
          " | delays (and courses) moved in the night: the wrong way as heard, of all |")
    print("|---|" + "---:|" * (len(PARTS) + 8))
    for jitter in sorted({run["jitter"] for run in runs}):
        mine = [run["found"] for run in runs if run["jitter"] == jitter]
        cells = [f"{statistics.median([f[part]['median'] for f in mine]):.1f} / "
                 f"{max(f[part]['worst'] for f in mine):.1f}" if all(part in f for f in mine) else "–"
                 for part in PARTS]
        over = max(f["whole"]["over 5 ms"] for f in mine)
        dropouts = [len(f["dropouts"]) for f in mine]
        back = cell([f["glitch"]["back in step after"] for f in mine])
        held = [abs(h) for f in mine for h in f.get("pause", {}).get("replayed", [])]
        print(f"| {'loopback' if not jitter else f'{jitter:g} ms + 1 % loss'} | " + " | ".join(cells)
              + f" | {over:.1f} s | {sum(dropouts)} ({max(dropouts)} in a run) | {back} s"
              + f" | {cell([f.get('pause', {}).get('stop spread', nan) for f in mine])}"
              + f" | {cell([f.get('pause', {}).get('restart spread', nan) for f in mine])}"
              + f" | {max(held) if held else float('nan'):.1f} | {sum(len(f['wrong corrections']) for f in mine)}"
              + f" ({sum(len(f['slews begun the wrong way']) for f in mine)})"
              + f" | {sum(move['wrong'] for f in mine for move in f['delays moved'])}"
              f" of {sum(len(f['delays moved']) for f in mine)} |")


if __name__ == "__main__":
    main()
