"""Audio speed and memory for the 10-player night, each figure a median of several runs.

Usage:  .venv/bin/python benchmarks/audio.py [--runs 5]

- render, warm and cold: whole-process time of ``narrate render --players 10 -o night.wav``,
  as a multiple of real time (night length / wall time). Cold: an empty cache and
  ``--rate 150`` so every line goes through text-to-speech; warm: the same again with the cache
  filled. Also the default path (the shipped voice pack) from an empty cache.
- first buffer: from the start of the process (before narrator is imported) to the first audio
  block handed to a real PortAudio stream (ALSA's null device), warm.
- peak memory: the largest resident set of any render process (ru_maxrss of the children).
"""

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import soundfile

FIRST_BUFFER = """
import time
start = time.perf_counter()
import json, sys, threading
from narrator.shell.audio.player import SounddevicePlayer
from narrator.shell.cli import cli
from narrator.shell.environment import Environment

first = []

def open_stream(**options):
    import sounddevice
    callback = options.pop("callback")

    def timed(outdata, frames, time_info, status):
        if not first:
            first.append(time.perf_counter())
        callback(outdata, frames, time_info, status)
        raise sounddevice.CallbackStop()  # one buffer is all we measure

    return sounddevice.OutputStream(callback=timed, **options)

env = Environment(player=lambda: SounddevicePlayer(open_stream=open_stream))
try:
    cli.main(["--players", "6", "--no-day"], obj=env,
             standalone_mode=False)
except SystemExit:
    pass
sys.stderr.write("FIRST=" + json.dumps(first[0] - start))
"""


def run_render(cache: Path, out: Path, *extra: str) -> float:
    environ = {**os.environ, "XDG_CACHE_HOME": str(cache), "LANG": "C.UTF-8"}
    start = time.perf_counter()
    subprocess.run([str(Path(sys.executable).parent / "narrate"), "render", "--players", "10", "-o", str(out), *extra],
                   check=True, env=environ, stdout=subprocess.DEVNULL)
    return time.perf_counter() - start


def first_buffer(cache: Path, alsa: Path) -> float:
    environ = {**os.environ, "XDG_CACHE_HOME": str(cache), "ALSA_CONFIG_PATH": str(alsa), "LANG": "C.UTF-8"}
    process = subprocess.run([sys.executable, "-c", FIRST_BUFFER], env=environ, capture_output=True, text=True,
                             stdin=subprocess.DEVNULL, check=True)
    return json.loads(process.stderr.rsplit("FIRST=", 1)[1])


def bare_python() -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", "pass"], check=True)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    runs = parser.parse_args().runs
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        out = root / "night.wav"
        alsa = root / "asound.conf"
        alsa.write_text("pcm.!default { type null }\nctl.!default { type hw card 0 }\n")
        cold, warm, pack_cold, first, base = [], [], [], [], []
        for index in range(runs):
            cache = root / f"cache-{index}"
            cold.append(run_render(cache, out, "--rate", "150"))
            warm.append(run_render(cache, out, "--rate", "150"))
            pack_cold.append(run_render(root / f"pack-cache-{index}", out))
            first_buffer(cache, alsa)  # fills the bed cache for this cache folder
            first.append(first_buffer(cache, alsa))
            base.append(bare_python())
        seconds = soundfile.info(str(out)).duration
        peak_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    print(f"{runs} runs, {os.cpu_count()} cores, Python {sys.version.split()[0]}; the night lasts {seconds:.1f} s\n")
    print("| measure | median | x real time |")
    print("|---|---:|---:|")
    for name, values in (("render, cold cache, text-to-speech for every line", cold),
                         ("render, warm cache", warm),
                         ("render, shipped voice pack, empty cache", pack_cold)):
        median = statistics.median(values)
        print(f"| {name} | {median:.2f} s | {seconds / median:.0f} |")
    print(f"| first buffer to the device, warm (`narrate --players 6`) | {statistics.median(first) * 1000:.0f} ms | |")
    print(f"| bare `python -c pass`, for scale | {statistics.median(base) * 1000:.0f} ms | |")
    print(f"\npeak resident memory of any narrate process: {peak_mb:.0f} MB")


if __name__ == "__main__":
    main()
