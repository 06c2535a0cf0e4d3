"""The speaker box as heard through a real audio path, shared by a test and a benchmark.

Each tablet is a Chromium process of its own, playing through PulseAudio into a mono sink that
is one channel of a null sink; one ``parec`` of that sink's monitor holds every tablet,
sample-aligned. Where in the night each channel is, is read from the sound itself: 0.4 s of it
cross-correlated with the night around where it should be. Nothing here asks a page where it is:
a page whose output timestamp lies is measured as it sounds.

- ``Room``: a PulseAudio daemon of its own, everything in a folder it is given (never the real
  home or runtime folder), and the recording.
- ``marked``: the night as served for measuring: the real night with a faint noise under it
  (−50 dBFS, unheard under the drums), so that every window of it is unlike every other and a
  tablet's silence cannot pass for the night's own.
- ``play_night``: a night played on the tablets by a plan (late join, reload, CPU burst, pause
  and resume, a jittery network in front of some), and what was heard.
- ``measure``: the figures, per part of the night, from what was heard.
"""

import io
import os
import shutil
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from boxnet import ARGS, CHROMIUM, JitterProxy, join

from narrator.core import arrivals

RATE = 48000
WINDOW = 0.4  # seconds of sound a position is read from...
STEP = 0.5  # ...every this long
REACH = 0.3  # how far from where it should be (seconds) a window is looked for
NEAR = 0.02  # a peak this close to where it should be is preferred to one as good further off
FLOOR = 10 ** (-50 / 20)  # the marking noise's level (rms, full scale 1)
QUIET = 1e-4  # a sample under this is silence: the marking noise is 30 times louder
GAP = 0.001  # silence this long inside the night is a dropout
DAEMON_PRIORITY = 20  # the room's PulseAudio, real-time: over a CPU burst, which is over the browsers' audio
BURST_PRIORITY = 10
PULSEAUDIO = shutil.which("pulseaudio") or "/usr/bin/pulseaudio"
PAREC = shutil.which("parec") or "/usr/bin/parec"
PACAT = shutil.which("pacat") or "/usr/bin/pacat"
PACTL = shutil.which("pactl") or "/usr/bin/pactl"


# The laptop's microphone in a room: a recording of ``seconds`` for each line read, answered by a
# line of JSON (its start on the monotonic clock and its size, or the error) and the samples.
MICROPHONE = """
import json, sys, time
from narrator.core.errors import NarratorError
from narrator.shell.speakerbox.listen import record
from narrator.shell.translation import say
for line in sys.stdin:
    try:
        samples, start = record(float(line), time.monotonic)
    except NarratorError as error:
        sys.stdout.buffer.write(json.dumps({"error": say(error)}).encode() + b"\\n")
    else:
        data = samples.astype("float32").tobytes()
        sys.stdout.buffer.write(json.dumps({"start": start, "bytes": len(data)}).encode() + b"\\n" + data)
    sys.stdout.buffer.flush()
"""


def can_run() -> str | None:
    """Why the real audio path cannot run here, or None."""
    for tool, package in ((PULSEAUDIO, "pulseaudio"), (PAREC, "pulseaudio-utils"), (PACTL, "pulseaudio-utils"),
                          (PACAT, "pulseaudio-utils"),
                          (CHROMIUM, "chromium")):
        if not os.path.exists(tool):
            return f"needs {tool} (apt-get install {package})"
    return None


class Room:
    """A PulseAudio daemon with one null sink of ``tablets`` channels, a mono sink per tablet
    (``t1``, ``t2``, ...) on its own channel, and one recording of them all.

    ``hidden``: {tablet: ms} for a tablet whose speaker sounds later than its page can see (a slow
    or Bluetooth one): its browser plays into a sink of its own (``p2``...), fed to its channel
    through ``module-loopback`` with that latency. The room's default source, ``mic``, is every
    channel mixed to one, as a microphone in the middle of the table hears them: a program that
    records from ALSA's default device with ``alsa_env`` records it (ALSA's pulse plugin)."""

    def __init__(self, folder: Path, tablets: int, hidden: dict[int, int] | None = None):
        self.folder, self.tablets, self.hidden = Path(folder), tablets, dict(hidden or {})
        self.socket = self.folder / "run" / "native"
        self.process: subprocess.Popen | None = None
        self.recorder: subprocess.Popen | None = None
        self._chunks: list[bytes] = []
        self._frames = 0
        self._arrivals: list[tuple[float, int]] = []  # (wall time, frames recorded by then)
        self._reader: threading.Thread | None = None
        self._microphone: subprocess.Popen | None = None  # (``microphone``'s process, started at its first use)
        self._microphone_lock = threading.Lock()

    @property
    def env(self) -> dict[str, str]:
        """What a client (a browser, pactl) needs to play here and nowhere else."""
        return {"PULSE_SERVER": f"unix:{self.socket}", "HOME": str(self.folder / "home"),
                "XDG_RUNTIME_DIR": str(self.folder / "run"), "XDG_CONFIG_HOME": str(self.folder / "config")}

    def start(self) -> "Room":
        for name in ("run", "home", "config/pulse"):
            (self.folder / name).mkdir(parents=True, exist_ok=True)
        (self.folder / "run").chmod(0o700)
        # The browsers open their output at the daemon's rate: the sinks' own, so nothing resamples.
        (self.folder / "config" / "pulse" / "daemon.conf").write_text(
            f"default-sample-rate = {RATE}\nalternate-sample-rate = {RATE}\n"
            f"realtime-scheduling = yes\nrealtime-priority = {DAEMON_PRIORITY}\n")
        channels = ",".join(f"aux{i}" for i in range(self.tablets))
        lines = [f"load-module module-native-protocol-unix socket={self.socket} auth-anonymous=1",
                 f"load-module module-null-sink sink_name=all channels={self.tablets} channel_map={channels}"
                 f" rate={RATE} format=float32le"]
        lines += [f"load-module module-remap-sink sink_name=t{i + 1} master=all channels=1"
                  f" master_channel_map=aux{i} channel_map=mono remix=no" for i in range(self.tablets)]
        for tablet, ms in sorted(self.hidden.items()):
            lines += [f"load-module module-null-sink sink_name=p{tablet} channels=1 channel_map=mono rate={RATE}"
                      " format=float32le",
                      f"load-module module-loopback source=p{tablet}.monitor sink=t{tablet} latency_msec={ms}"]
        lines += [f"load-module module-remap-source source_name=mic master=all.monitor channels=1 channel_map=mono"
                  f" rate={RATE} remix=yes", "set-default-source mic"]
        script = self.folder / "room.pa"
        script.write_text("\n".join(lines) + "\n")
        self.process = subprocess.Popen(
            [PULSEAUDIO, "-n", "--daemonize=no", "--exit-idle-time=-1", "--disallow-exit", "--use-pid-file=no",
             "--log-target=stderr", "--log-level=error", "-F", str(script)],
            env={"PATH": os.environ.get("PATH", "/usr/bin:/bin"), **self.env},
            stdout=subprocess.DEVNULL, stderr=open(self.folder / "pulseaudio.log", "wb"))
        deadline = time.monotonic() + 10
        while subprocess.run([PACTL, "info"], env={**os.environ, **self.env}, capture_output=True).returncode:
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"PulseAudio did not start: {(self.folder / 'pulseaudio.log').read_text()}")
            time.sleep(0.1)
        return self

    def sink_for(self, tablet: int) -> str:
        """Where tablet ``tablet``'s browser plays."""
        return f"p{tablet}" if tablet in self.hidden else f"t{tablet}"

    @property
    def alsa_env(self) -> dict[str, str]:
        """What a program needs for ALSA's default device to be this room's (its ``mic`` to record)."""
        config = self.folder / "asound.conf"
        config.write_text("pcm.!default { type pulse }\nctl.!default { type pulse }\n")
        return {**self.env, "ALSA_CONFIG_PATH": str(config)}

    def microphone(self, seconds: float, clock=None) -> tuple[np.ndarray, float]:
        """``narrator.shell.speakerbox.listen.record`` run for real in a process of its own (its ALSA
        and PortAudio set up for this room from the start), on the same monotonic clock as the box.
        The process stays for the next recording, as narrate's own would: the laptop's ear records
        every few seconds, and a new Python each time would load the machine the tablets play on."""
        import json

        with self._microphone_lock:
            if self._microphone is None or self._microphone.poll() is not None:
                self._microphone = subprocess.Popen(
                    [sys.executable, "-c", MICROPHONE], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                    stderr=subprocess.DEVNULL, env={**os.environ, **self.alsa_env})
            self._microphone.stdin.write(f"{seconds}\n".encode())
            self._microphone.stdin.flush()
            header = json.loads(self._microphone.stdout.readline() or b'{"error": "the recorder ended"}')
            if "error" in header:
                from narrator.core.errors import NarratorError
                from narrator.core.i18n import msg

                raise NarratorError(msg("{error}", error=header["error"]))
            data = self._microphone.stdout.read(header["bytes"])
        return np.frombuffer(data, dtype=np.float32), header["start"]

    def record(self) -> None:
        channels = ",".join(f"aux{i}" for i in range(self.tablets))
        self.recorder = subprocess.Popen(
            [PAREC, "-d", "all.monitor", "--format=float32le", f"--rate={RATE}", f"--channels={self.tablets}",
             f"--channel-map={channels}", "--raw", "--latency-msec=20"],
            env={**os.environ, **self.env}, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        frame = 4 * self.tablets

        def read():
            pending = b""
            while data := self.recorder.stdout.read1(65536):
                arrived = time.time()
                pending += data
                whole = len(pending) - len(pending) % frame
                self._chunks.append(pending[:whole])
                pending = pending[whole:]
                self._frames += whole // frame
                self._arrivals.append((arrived, self._frames))

        self._reader = threading.Thread(target=read, daemon=True)
        self._reader.start()

    def recording(self) -> tuple[np.ndarray, float, float]:
        """Everything recorded so far, (frames, tablets); the wall time of its frame 0 and the
        recorder's rate on the wall clock (frames a second).

        The null sink keeps its own time, a little off the wall clock's (measured: 0.02 % slow),
        which over a minute is milliseconds: the rate is found from when the frames arrived. Each
        chunk arrives some time after its last frame was played; the least delayed chunk of every
        few seconds lies close to the true line, and a line through those is the clock."""
        data = np.frombuffer(b"".join(self._chunks), dtype=np.float32).reshape(-1, self.tablets)
        arrivals = np.array(self._arrivals, dtype=np.float64)
        if len(arrivals) < 2:
            return data, float("nan"), float(RATE)
        walls, frames = arrivals[:, 0], arrivals[:, 1]
        lag = walls - frames / RATE
        bins = np.floor((walls - walls[0]) / 3.0)
        least = [np.flatnonzero(bins == b)[np.argmin(lag[bins == b])] for b in np.unique(bins)]
        if len(least) >= 2:
            slope, intercept = np.polyfit(frames[least], walls[least], 1)
        else:
            slope, intercept = 1 / RATE, float(np.min(lag))
        return data, float(intercept), float(1 / slope)

    def stop(self) -> None:
        for process in (self._microphone, self.recorder, self.process):
            if process is not None and process.poll() is None:
                process.terminate()
                try:
                    process.wait(5)
                except subprocess.TimeoutExpired:
                    process.kill()
        if self._reader is not None:
            self._reader.join(5)


def marked(night_wav: bytes, seconds: float | None = None, seed: int = 7) -> tuple[bytes, np.ndarray]:
    """The night (mono, RATE) cut to ``seconds`` with the marking noise under it: the WAV to serve,
    and its samples to look for in what the tablets played."""
    import soundfile

    samples, rate = soundfile.read(io.BytesIO(night_wav), dtype="float32", always_2d=True)
    if rate != RATE:
        raise ValueError(f"the night is at {rate} Hz; the room records at {RATE}")
    samples = samples.mean(axis=1)
    if seconds is not None:
        samples = samples[: int(seconds * RATE)]
    noise = np.random.default_rng(seed).standard_normal(len(samples)).astype(np.float32) * FLOOR
    samples = np.clip(samples + noise, -1, 1).astype(np.float32)
    out = io.BytesIO()
    soundfile.write(out, samples, RATE, format="WAV", subtype="FLOAT")
    return out.getvalue(), samples


# --- where a channel is in the night -------------------------------------------------------------

def correlation(segment: np.ndarray, night: np.ndarray, low: int, high: int) -> tuple[int, np.ndarray]:
    """How alike ``segment`` is to the night from each start in ``night[low:high]`` (normalised
    correlation, 1 for the same samples), and the first start."""
    n = len(segment)
    low, high = max(0, low), min(len(night) - n, high)
    if high < low:
        return low, np.zeros(0)
    part = night[low: high + n].astype(np.float64)
    size = 1 << int(np.ceil(np.log2(len(part) + n)))
    product = np.fft.rfft(part, size) * np.conj(np.fft.rfft(segment.astype(np.float64), size))
    found = np.fft.irfft(product, size)[: len(part) - n + 1]
    energy = np.concatenate([[0.0], np.cumsum(part * part)])
    norms = np.sqrt(np.maximum(energy[n:] - energy[:-n], 1e-30)) * (np.linalg.norm(segment) + 1e-30)
    return low, found / norms


def locate(segment: np.ndarray, night: np.ndarray, expected: float, reach: float = REACH,
           near: float = NEAR) -> tuple[float, float]:
    """Where in the night (samples, to a fraction) ``segment`` starts, looked for within ``reach``
    seconds of ``expected`` (samples), and how alike it is there. The night's drums repeat
    sample for sample, so a bar away can score as well as the truth: a peak within ``near`` of
    the expected place wins unless one further off is clearly better."""
    low, scores = correlation(segment, night, int(expected - reach * RATE), int(expected + reach * RATE))
    if not len(scores):
        return float("nan"), 0.0
    best = int(np.argmax(scores))
    starts = low + np.arange(len(scores))
    close = np.flatnonzero(np.abs(starts - expected) <= near * RATE)
    if len(close):
        nearest = int(close[np.argmax(scores[close])])
        if scores[nearest] >= scores[best] - 0.05:
            best = nearest
    return low + best + arrivals.between(scores, best), float(scores[best])


def silences(channel: np.ndarray, shortest: float = GAP) -> list[tuple[float, float]]:
    """(start, end) in seconds of every run of silence at least ``shortest`` long."""
    quiet = np.abs(channel) < QUIET
    edges = np.flatnonzero(np.diff(np.concatenate([[False], quiet, [False]]).astype(np.int8)))
    starts, ends = edges[0::2], edges[1::2]
    keep = (ends - starts) >= shortest * RATE
    return [(s / RATE, e / RATE) for s, e in zip(starts[keep], ends[keep], strict=True)]


def track(channel: np.ndarray, night: np.ndarray, times: np.ndarray, playhead=None, latency: float = 0.0,
          window: float = WINDOW, reach: float = REACH) -> np.ndarray:
    """Where in the night (seconds) ``channel`` is at each of ``times`` (seconds of the recording:
    each a window's start, ``window`` long), NaN where it plays nothing whole (silent for part of
    the window, or nothing like the night). ``playhead(time)``: where the laptop says the night is
    then (None: a page that plays on its own, as benchmarks/glitch.py's).

    A window is looked for within ``reach`` of where the one before it was read, moved on by the
    time between them; after a silence, where the channel was last read against the playhead;
    before any, ``latency`` (seconds) behind the playhead, what the recorder adds. Looked for at
    the playhead itself, the recorder's 25-35 ms put the truth past NEAR: in the drums between
    turns a place a few tens of ms or a beat away could win, and the first window after each
    silence read 26 or 267 ms off (benchmark runs, 2026-11-30). With no playhead, a window after a
    silence is looked for anywhere in the night."""
    size = int(window * RATE)
    found = np.full(len(times), np.nan)
    previous = None  # (samples into the night, recording seconds) of the window last read
    offset = -latency * RATE  # (samples: the channel against the playhead, as last read)
    for index, at in enumerate(times):
        start = int(round(at * RATE))
        segment = channel[start: start + size]
        if len(segment) < size or silences(segment):
            previous = None
            continue
        if previous is not None:
            position, score = locate(segment, night, previous[0] + (at - previous[1]) * RATE, reach)
        elif playhead is not None:
            position, score = locate(segment, night, playhead(at) * RATE + offset, reach)
        else:
            position, score = locate(segment, night, len(night) / 2, reach=len(night) / RATE)
        if score < 0.5:
            previous = None
            continue
        found[index] = position / RATE
        previous = (position, at)
        if playhead is not None:
            offset = position - playhead(at) * RATE
    return found


# --- a night played by a plan ----------------------------------------------------------------------

@dataclass(frozen=True)
class Plan:
    """When things happen, in seconds from the night's first sample; None: not in this night."""
    length: float = 60.0  # of the night served (the run stops at its end)
    join: float | None = 8.0  # the last tablet opens the page and joins (its browser already running)...
    browser_at_join: bool = False  # ...or its browser starts then too (the rig before 2026-11-30)
    late_nice: int = 10  # the late tablet's browser runs this much below the others' (0: as they do, the rig before 2026-12-01)
    reload: float | None = 20.0  # the second tablet reloads its page
    burst: float | None = 34.0  # a CPU burst on the machine...
    burst_seconds: float = 0.3  # ...this long
    pause: float | None = 46.0
    resume: float | None = 50.0
    tablets: int = 3
    jittered: tuple[int, ...] = ()  # which tablets (1-based) reach the laptop through the jittery proxy
    hidden: tuple[tuple[int, int], ...] = ()  # (tablet, ms): a speaker later than its page can see (``Room``)
    behind: tuple[tuple[int, int], ...] = ()  # (tablet, ms): the same, made in its page's audio graph (``BEHIND``)


@dataclass
class Heard:
    plan: Plan
    recording: np.ndarray  # (frames, tablets)
    night: np.ndarray
    start: float  # recording seconds of the night's sample 0 on the laptop's clock
    marks: dict[str, float] = field(default_factory=dict)  # what happened when, in recording seconds
    events: dict[int, list] = field(default_factory=dict)  # each tablet's narratorBox.events, recording seconds
    rate: float = RATE  # the recorder's frames per second of the wall clock
    latencies: dict[int, list] = field(default_factory=dict)  # each page's [outputLatency, baseLatency] at the end
    before: object = None  # what ``play_night``'s ``before_night`` found
    tracked: tuple | None = field(default=None, repr=False)  # ``spreads``, read once

    def playhead(self, at: float) -> float:
        """Where the laptop says the night is at recording second ``at``."""
        stop, restart = self.marks.get("stop", float("inf")), self.marks.get("restart", float("inf"))
        return (min(at, stop) - self.start + max(0.0, at - restart)) * RATE / self.rate


# A speaker later than its page can see, made in the page's own audio graph: a delay after
# everything box.js plays (its output latency, all the page can read, does not count it). It holds
# to the sample through a CPU burst, where PulseAudio's module-loopback (``Room``'s ``hidden``)
# itself comes out of a burst hundreds of ms off and takes tens of seconds to come back: with it, a
# figure after a burst is the page's own.
BEHIND = """(seconds) => {
  const box = narratorBox, late = box.behind = box.ctx.createDelay(2);
  late.delayTime.value = seconds;
  box.out.disconnect();
  box.out.connect(late);
  late.connect(box.ctx.destination);
}"""


def put_behind(page, tablet: int, plan: Plan) -> None:
    """Tablet ``tablet``'s page, just joined (or reloaded), behind its speaker (``plan.behind``)."""
    for number, ms in plan.behind:
        if number == tablet:
            page.evaluate(BEHIND, ms / 1000)


def browser_for(playwright, room: Room, tablet: int, nice: int = 0):
    """A Chromium process of its own playing into the tablet's sink, not muted; ``nice``: below
    the others on the machine's cores by that much. Playwright starts each browser in a session
    of its own, which Linux schedules as one group (its autogroup): a wrapper sets that group's
    niceness, as ``nice`` cannot (Chromium sets each thread's own niceness, seen reset to 0 and
    -8). Its real-time audio threads stay above every group. Where the kernel has no autogroups,
    the browser runs as the others do."""
    executable = CHROMIUM
    if nice:
        executable = room.folder / f"chromium-nice-{nice}"
        executable.write_text(f'#!/bin/sh\n{{ echo {nice} > /proc/self/autogroup; }} 2>/dev/null\nexec {CHROMIUM} "$@"\n')
        executable.chmod(0o755)
    return playwright.chromium.launch(
        executable_path=executable, headless=True, args=ARGS, ignore_default_args=["--mute-audio"],
        env={**os.environ, **room.env, "PULSE_SINK": room.sink_for(tablet)})


SPIN = """
import os, sys, time
os.sched_setscheduler(0, os.SCHED_RR, os.sched_param(int(sys.argv[2])))
end = time.monotonic() + float(sys.argv[1])
while time.monotonic() < end:
    pass
"""


def burn(seconds: float, priority: int = BURST_PRIORITY) -> None:
    """Every core taken for ``seconds`` by a spinning process of real-time ``priority``: above
    the browsers' audio threads (Chromium asks for 8), below the room's daemon (``Room``), so the
    tablets miss their deadlines and the recording does not. Needs root (or CAP_SYS_NICE); the
    kernel leaves other processes 5 % of each second all the same."""
    spinners = [subprocess.Popen([sys.executable, "-c", SPIN, str(seconds), str(priority)])
                for _ in range(os.cpu_count() or 2)]
    for spinner in spinners:
        spinner.wait()


def play_night(playwright, folder: Path, night_wav: bytes, plan: Plan, jitter: float = 0.0, loss: float = 0.0,
               seed: int = 1, page: bytes | None = None, before_night=None, during_night=None, steps=(),
               speech: list[tuple[float, float]] | None = None, signed: bool = False) -> Heard:
    """Serve ``night_wav`` (cut to the plan's length and marked) in-process, play it on the plan's
    tablets and return what was heard. ``page``: another tablet script to serve than the tree's
    ``box.js`` (a comparison). ``before_night(server, room, pages, joined)``: called once the
    first tablets have joined (at wall time ``joined``), before the night starts (the laptop
    listening to them, say); what it returns is the result's ``before``. ``during_night(server,
    room, box, night)``: called as the night starts (the laptop's ear on it, say), returns what
    stops it at the end. ``steps``: more (seconds into the night, ``do(pages, room)``), done on
    the plan's thread (Playwright's pages are driven from one). ``speech``: where the night's
    voice sounds (seconds), as the box tells the tablets. ``signed``: each tablet fetches the night
    with its own signature under it, as from a laptop that keeps an ear on the night."""
    from narrator.shell.speakerbox.server import BoxServer
    from narrator.shell.speakerbox.state import Box

    served, night = marked(night_wav, plan.length)
    box = Box(len(night) / RATE, [(0.0, "night")], time.monotonic)
    server = BoxServer(box, served, {}, time.monotonic, lambda action: None, host="127.0.0.1", port=0,
                       speech=speech)
    box.on_change = server.broadcast
    if signed:
        server.sign_nights()
    if page is not None:
        server._assets["/box.js"] = (page, "text/javascript")  # (a benchmark's swap: the server has no option for it)
    room = Room(Path(folder) / "pulse", plan.tablets, dict(plan.hidden))
    proxies, browsers = [], []
    before = stop_during = None
    wall_of = lambda monotonic: time.time() - time.monotonic() + monotonic  # noqa: E731
    try:
        room.start()
        server.start()
        addresses = {}
        for tablet in range(1, plan.tablets + 1):
            port = server.port
            if tablet in plan.jittered:
                proxies.append(JitterProxy(server.port, jitter=jitter, loss=loss, seed=seed + tablet).start())
                port = proxies[-1].port
            addresses[tablet] = f"http://127.0.0.1:{port}/"
        room.record()
        first = plan.tablets - (plan.join is not None)
        pages = {}
        # A late tablet's browser runs on the tablet: at a table, it starting costs the others
        # nothing. Started here at the join, on the cores every tablet shares, it disturbed the
        # pages playing in four nights of eight (glitches of up to 223 ms, timestamps leaping for
        # seconds after, 2026-11-30): so it starts with the others, and the tablet joins later.
        # Its page loading still took the cores from them (a tablet thrown 191 ms late as it
        # loaded, 2026-12-01): so it runs below them (plan.late_nice), as on a device of its own.
        late = None
        if plan.join is not None and not plan.browser_at_join:
            late = browser_for(playwright, room, plan.tablets, plan.late_nice)
            browsers.append(late)
        for tablet in range(1, first + 1):
            browsers.append(browser_for(playwright, room, tablet))
            pages[tablet] = browsers[-1].new_page()
            join(pages[tablet], addresses[tablet])
            put_behind(pages[tablet], tablet, plan)
        joined = time.time()
        time.sleep(3)  # the tablets wait for Start a while, as at a real table
        if before_night is not None:
            before = before_night(server, room, pages, joined)
        box.start_night()
        start = wall_of(box.playhead.anchor_time)
        stop_during = during_night(server, room, box, night) if during_night is not None else None
        marks = {}
        logged: dict[int, list] = {}  # a page's log from before its reload

        def at(moment: float, what: str) -> None:
            time.sleep(max(0.0, start + moment - time.time()))
            marks[what] = time.time()

        planned = sorted(((moment, what) for what, moment in
                          (("join", plan.join), ("reload", plan.reload), ("burst", plan.burst),
                           ("pause", plan.pause), ("resume", plan.resume)) if moment is not None),
                         key=lambda step: step[0])
        more = {f"step {index}": do for index, (_, do) in enumerate(steps)}
        planned = sorted(planned + [(moment, f"step {index}") for index, (moment, _) in enumerate(steps)],
                         key=lambda step: step[0])
        for moment, what in planned:
            at(moment, what)
            if what in more:
                more[what](pages, room)
            elif what == "join":
                if late is None:
                    late = browser_for(playwright, room, plan.tablets, plan.late_nice)
                    browsers.append(late)
                pages[plan.tablets] = late.new_page()
                join(pages[plan.tablets], addresses[plan.tablets])
                put_behind(pages[plan.tablets], plan.tablets, plan)
            elif what == "reload":
                logged[2] = pages[2].evaluate("narratorBox.events")  # (a reload starts the page's log afresh)
                pages[2].reload()
                join(pages[2])
                put_behind(pages[2], 2, plan)
            elif what == "burst":
                burn(plan.burst_seconds)
                marks["burst end"] = time.time()
            elif what == "pause":
                box.pause()
                marks["stop"] = wall_of(box.playhead.stop_time)
            elif what == "resume":
                box.resume()
                marks["restart"] = wall_of(box.playhead.anchor_time)
        at(plan.length - 0.5, "end")
        if stop_during is not None:
            stop_during()
        events = {tablet: logged.get(tablet, []) + tab.evaluate("narratorBox.events") for tablet, tab in pages.items()}
        latencies = {tablet: tab.evaluate("[narratorBox.ctx.outputLatency, narratorBox.ctx.baseLatency]")
                     for tablet, tab in pages.items()}
        time.sleep(0.3)  # the last of it through the recorder
        recording, wall0, rate = room.recording()
    finally:
        if stop_during is not None:
            stop_during()
        for browser in browsers:
            browser.close()
        for proxy in proxies:
            proxy.stop()
        server.stop()
        room.stop()
    # Recording seconds are frames / RATE: the wall clock's times put on them by the recorder's own rate.
    to_recording = lambda wall: (wall - wall0) * rate / RATE  # noqa: E731
    return Heard(plan, recording, night, to_recording(start), {what: to_recording(wall) for what, wall in marks.items()},
                 {tablet: [[to_recording(when), *rest] for when, *rest in found] for tablet, found in events.items()},
                 rate, latencies, before)


# --- the laptop listening (narrate --listen) -----------------------------------------------------------

def room_listener(server, room: Room, said: list[str], keep_an_ear: bool = True):
    """The laptop's ``Listener`` for ``server``, its microphone the room's, what it says kept in
    ``said`` (a tablet that joins from now on plays silent until heard, as with ``narrate --listen``);
    without ``keep_an_ear``, no ear on the night between rounds (the laptop as it was before it had one)."""
    from narrator.shell.speakerbox.listen import Listener

    return Listener(server, time.monotonic, lambda text: said.append(str(text)), lambda text: said.append(str(text)),
                    recorder=room.microphone, keep_an_ear=keep_an_ear)


def the_laptop_s_ear(listener, speech: list[tuple[float, float]]):
    """``play_night``'s ``during_night`` for a laptop that listens while the night plays, as
    ``BoxTable`` has it (``Listener.playing`` every tenth of a second, its rounds where the voice
    of ``speech`` leaves room)."""
    def during_night(server, room, box, night):
        stop = threading.Event()

        def playing():
            began = box.night_moves()
            return None if began is None else (night, RATE, began)

        def run():
            while not stop.wait(0.1):
                listener.playing(playing, lambda seconds, earliest: box.voiceless(speech, seconds, earliest))

        thread = threading.Thread(target=run, name="the laptop's ear", daemon=True)
        thread.start()

        def end():
            stop.set()
            thread.join()
            listener.wait()
        return end
    return during_night


def until_ready(server, tablets: int, seconds: float = 60.0) -> None:
    """Until ``tablets`` tablets have been in step long enough to be listened to (their output's
    timestamps believed: on a loaded machine that can take a while), else AssertionError."""
    from narrator.shell.speakerbox.listen import SETTLE

    deadline = time.monotonic() + seconds
    while len(server.ready_tablets(SETTLE)) < tablets:
        assert time.monotonic() < deadline, f"{tablets} tablets were never in step together for {SETTLE} s"
        time.sleep(0.1)


# --- the rig's own floor ----------------------------------------------------------------------------

def play_plainly(folder: Path, night_wav: bytes, tablets: int, seconds: float, together: bool,
                 playwright=None) -> Heard:
    """What the rig hears of plain players, no page and no box: the floor the pages' figures are
    read against (issue 41, point 5). ``together``: one ``pacat`` of a stream with a channel per
    tablet into the null sink itself, every channel the same samples at the same instant (what the
    recording and the measuring add, nothing else); else one ``pacat`` per tablet's sink, each
    opened ahead and all given the night at one wall-clock moment (what PulseAudio's own streams
    add too), with a Chromium starting beside them (``playwright``: when given), as the pages'
    browsers would."""
    served, night = marked(night_wav, seconds)
    room = Room(Path(folder) / "pulse", tablets)
    players: list[subprocess.Popen] = []
    browser = None
    try:
        room.start()
        # (the null sink's channels are positions aux0, aux1...: a stream for it must name them so)
        streams = [("all", ",".join(f"aux{i}" for i in range(tablets)), np.repeat(night[:, None], tablets, axis=1))] \
            if together else [(f"t{tablet}", "mono", night[:, None]) for tablet in range(1, tablets + 1)]
        players = [subprocess.Popen([PACAT, "--playback", f"--device={device}", "--format=float32le", f"--rate={RATE}",
                                     f"--channels={samples.shape[1]}", f"--channel-map={channels}", "--latency-msec=20",
                                     "--raw"], stdin=subprocess.PIPE, env={**os.environ, **room.env})
                   for device, channels, samples in streams]
        room.record()
        time.sleep(1.0)  # the players' streams open, the recorder running, before the first sound
        start = time.time() + 0.5
        go = threading.Barrier(len(players))

        def feed(player: subprocess.Popen, samples: np.ndarray) -> None:
            data = np.ascontiguousarray(samples, dtype=np.float32).tobytes()
            go.wait()
            while time.time() < start:
                pass  # spun to the moment: every stream is given its first samples at once
            player.stdin.write(data)
            player.stdin.close()

        feeders = [threading.Thread(target=feed, args=(player, samples))
                   for player, (_device, _channels, samples) in zip(players, streams, strict=True)]
        for feeder in feeders:
            feeder.start()
        if playwright is not None and not together:
            time.sleep(max(0.0, start - time.time()))
            browser = browser_for(playwright, room, 1)
            browser.new_page().goto("about:blank")
        for feeder in feeders:
            feeder.join(seconds + 30)
        for player in players:
            player.wait(seconds + 30)
        time.sleep(0.3)  # the last of it through the recorder
        recording, wall0, rate = room.recording()
    finally:
        for player in players:
            if player.poll() is None:
                player.kill()
        if browser is not None:
            browser.close()
        room.stop()
    to_recording = lambda wall: (wall - wall0) * rate / RATE  # noqa: E731
    plan = Plan(length=seconds, join=None, reload=None, burst=None, pause=None, resume=None, tablets=tablets)
    return Heard(plan, recording, night, to_recording(start), {}, {}, rate, {})


# --- the figures ------------------------------------------------------------------------------------

AFTER = 8.0  # seconds a start, a late join or a reload is measured for, from its first sound
CLOSE = 0.005  # after a glitch, back in step: every window within this (issue 41's target)
OVER = 0.005  # the report's "time over": windows further apart than this


def measure(heard: Heard) -> dict:
    """Per part of the night: the spread between the tablets (the furthest apart two are) over its
    windows, median and worst, in ms; the longest time over 5 ms; dropouts. Also the pause and the
    resume, how soon a glitch was over, and every correction a page made in the wrong direction."""
    plan, marks = heard.plan, heard.marks
    recording = heard.recording
    times, positions, spread = spreads(heard)
    # Each tablet against the laptop's playhead: what the recorder adds (its latency, the same
    # for every channel and all night) is the median over everything heard.
    late = positions - np.array([heard.playhead(at) for at in times])
    truth = late - np.nanmedian(late)
    parts = {"start": (heard.start, heard.start + AFTER)}
    if plan.join is not None:
        joined = _first_sound(positions[plan.tablets - 1], times, marks["join"])
        parts["late join"] = (joined, joined + AFTER)
    if plan.reload is not None:
        reloaded = _first_sound(positions[1], times, marks["reload"])
        parts["reload"] = (reloaded, reloaded + AFTER)
    if plan.burst is not None:
        parts["glitch"] = (marks["burst"], marks["burst end"] + 4)
    if plan.resume is not None:
        parts["resume"] = (marks["restart"] + 0.1, marks["restart"] + AFTER)
    found = {name: _figures(spread, times, low, high) for name, (low, high) in parts.items()}
    found["whole"] = _figures(spread, times, heard.start, times[-1] + 1)
    if plan.join is not None:  # (with --listen it plays silent until the laptop has heard it)
        found["late join"]["silent after joining"] = joined - marks["join"]
    if plan.burst is not None:
        found["glitch"]["back in step after"] = _back_in_step(spread, times, marks["burst end"])
    if plan.pause is not None:
        found["pause"] = _pause(recording, positions, times, marks["stop"], marks.get("restart"))
    found["dropouts"] = _dropouts(recording, heard, positions, times)
    found["wrong corrections"] = _wrong_corrections(heard, truth, times)
    found["slews begun the wrong way"] = _slews_begun_the_wrong_way(heard, truth, times)
    found["delays moved"] = _delays_moved(heard, positions, times)
    found["from the laptop"] = {"worst": float(np.nanmax(np.abs(truth)) * 1000)}
    found["episodes over 5 ms"] = _episodes(heard, spread, truth, times)
    return found


# With --listen a tablet plays its code over the night: its own sound, not the night's, read as the
# night a few tens of ms off (in 24 listening nights, 2026-11-29: 35 stretches over 5 ms were one
# window with a code in it, most of them 23-30 ms). So where a page may be playing its code, its windows
# are not read: from its note "code played" (box.js places each play PLACE_AHEAD, 0.4 s, before
# it sounds; a code lasts 0.25 s; a hidden speaker here is up to 0.25 s later), for CODE_SOUNDS.
CODE_SOUNDS = 1.0


def spreads(heard: Heard) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every STEP of the recording (seconds): where each tablet is in the night (tablets, windows;
    NaN where it does not play the window whole, or may be playing its code in it), and the
    spread between those that do (at least two). Read once for each night (``measure`` and
    ``between`` need it)."""
    if heard.tracked is not None:
        return heard.tracked
    times = np.arange(0.0, len(heard.recording) / RATE - WINDOW, STEP)
    heads = np.array([heard.playhead(at) for at in times])
    # Read twice: the first reading tells what the recorder adds (the median of every channel
    # against the playhead, as ``measure`` takes it), the second starts from it.
    first = np.stack([track(heard.recording[:, i], heard.night, times, heard.playhead)
                      for i in range(heard.plan.tablets)])
    latency = float(np.nanmedian(heads - first)) if not np.isnan(first).all() else 0.0
    positions = np.stack([track(heard.recording[:, i], heard.night, times, heard.playhead, latency)
                          for i in range(heard.plan.tablets)])
    for tablet, events in heard.events.items():
        for when, what, *_ in events:
            if what.startswith("code played"):
                positions[tablet - 1, (times < when + CODE_SOUNDS) & (times + WINDOW > when)] = np.nan
    playing = ~np.isnan(positions)
    spread = np.where(playing.sum(axis=0) >= 2,
                      np.nanmax(np.where(playing, positions, -np.inf), axis=0)
                      - np.nanmin(np.where(playing, positions, np.inf), axis=0), np.nan)
    heard.tracked = (times, positions, spread)
    return heard.tracked


def between(heard: Heard, low: float, high: float) -> dict:
    """The figures of the windows from ``low`` to ``high`` seconds into a night played without a pause."""
    times, _, spread = spreads(heard)
    return _figures(spread, times, heard.start + low, heard.start + high)


def _episodes(heard: Heard, spread: np.ndarray, truth: np.ndarray, times: np.ndarray) -> list[dict]:
    """Each run of windows with the tablets more than 5 ms apart: when (seconds into the night),
    how long, the worst spread, each tablet's worst distance from the laptop in it (ms, + ahead),
    and what each page logged from a second before it to its end: what explains it."""
    episodes, current = [], None
    for index, value in enumerate(spread):
        if value == value and value > OVER:
            if current is None:
                current = {"from": index, "to": index}
            current["to"] = index
        elif current is not None:
            episodes.append(current)
            current = None
    if current is not None:
        episodes.append(current)
    found = []
    for episode in episodes:
        low, high = times[episode["from"]], times[episode["to"]] + WINDOW
        span = slice(episode["from"], episode["to"] + 1)
        off = {tablet + 1: round(float(values[np.nanargmax(np.abs(values))]) * 1000, 1)
               for tablet, values in enumerate(truth[:, span]) if not np.all(np.isnan(values))}
        found.append({"at": round(low - heard.start, 1), "seconds": round(high - low, 1),
                      "worst": round(float(np.nanmax(spread[span])) * 1000, 1), "from the laptop": off,
                      "logged": {tablet: [[round(when - heard.start, 2), *rest] for when, *rest in events
                                          if low - 1 <= when <= high]
                                 for tablet, events in heard.events.items()}})
    return found


def _first_sound(track_: np.ndarray, times: np.ndarray, after: float) -> float:
    sounding = np.flatnonzero((times >= after) & ~np.isnan(track_))
    return float(times[sounding[0]]) if len(sounding) else float("nan")


def _figures(spread: np.ndarray, times: np.ndarray, low: float, high: float) -> dict:
    inside = (times >= low) & (times < high) & ~np.isnan(spread)
    values = spread[inside] * 1000
    longest = run = 0
    for value in spread[(times >= low) & (times < high)]:
        run = run + 1 if value > OVER else 0  # (a window nobody plays whole breaks a run)
        longest = max(longest, run)
    return {"windows": int(inside.sum()),
            "median": float(np.median(values)) if len(values) else float("nan"),
            "worst": float(values.max()) if len(values) else float("nan"),
            "over 5 ms": longest * STEP}


def _back_in_step(spread: np.ndarray, times: np.ndarray, since: float, within: float = 6.0) -> float:
    """Seconds after ``since`` from which every window (for ``within`` seconds) is within CLOSE."""
    inside = np.flatnonzero((times >= since) & (times < since + within) & ~np.isnan(spread))
    back = since
    for index in inside:
        if spread[index] > CLOSE:
            back = times[index] + STEP
    return back - since


def _pause(recording: np.ndarray, positions: np.ndarray, times: np.ndarray, stop: float,
           restart: float | None) -> dict:
    """When each tablet fell silent at the pause and came back (recording seconds), how far apart
    they did, and how much of the night each played twice (+) or skipped (−) across it, in ms."""
    stops, starts, replayed = [], [], []
    for index, channel in enumerate(recording.T):
        runs = [run for run in silences(channel, 0.1) if stop - 1 < run[0] < stop + 1]
        if not runs:
            continue
        stops.append(runs[0][0])
        starts.append(runs[0][1])
        before = np.flatnonzero((times + WINDOW <= runs[0][0]) & ~np.isnan(positions[index]))
        after = np.flatnonzero((times >= runs[0][1]) & ~np.isnan(positions[index]))
        if len(before) and len(after):
            stopped_at = positions[index, before[-1]] + (runs[0][0] - times[before[-1]])
            came_back_at = positions[index, after[0]] - (times[after[0]] - runs[0][1])
            replayed.append((stopped_at - came_back_at) * 1000)
    found = {"stop spread": (max(stops) - min(stops)) * 1000 if stops else float("nan")}
    if restart is not None:
        found["restart spread"] = (max(starts) - min(starts)) * 1000 if starts else float("nan")
        found["replayed"] = replayed
    return found


def _meant_silent(heard: Heard, tablet: int) -> list[tuple[float, float]]:
    """When a silence of a tablet may begin and be meant (recording seconds): as its page reloads,
    and at the pause."""
    marks, plan = heard.marks, heard.plan
    meant = []
    if plan.reload is not None and tablet == 2:
        meant.append((marks["reload"] - 0.5, marks["reload"] + 3.0))
    if plan.pause is not None:
        meant.append((marks["stop"] - 0.1, marks["stop"] + 0.1))
    return meant


def _dropouts(recording: np.ndarray, heard: Heard, positions: np.ndarray, times: np.ndarray) -> list[dict]:
    """Silences in a tablet once it has played, but those it was meant to have and one that lasts
    to the end of the recording: [{tablet, at (s into the night), ms}]."""
    found = []
    for index, channel in enumerate(recording.T):
        tablet = index + 1
        sounded = np.flatnonzero(~np.isnan(positions[index]))
        if not len(sounded):
            continue
        meant = _meant_silent(heard, tablet)
        for start, end in silences(channel):
            if start < times[sounded[0]] or end >= len(channel) / RATE or any(a <= start <= b for a, b in meant):
                continue
            found.append({"tablet": tablet, "at": round(start - heard.start, 3), "ms": round((end - start) * 1000, 1)})
    return found


# What a page notes when it moves other than by its own speed, or when what it steers by moves (box.js): a
# slew is judged before the next of these (its own next slews are the same steering going on).
MOVES = ("cross-faded", "moved unheard", "glitch", "timestamp leapt", "clock moved", "clock gliding",
         "speaker delay set", "speaker delay moving slowly", "speaker delay taken in a quiet moment",
         "off as heard", "off as heard: taken in a quiet moment", "off as heard: taken at once")
# What the laptop moved in the night (a speaker delay; a page's course, while it held it), and where the page took
# it at once: (the page's note of it, its notes of taking it there)
LAPTOP_MOVES = {"speaker delay set": ("speaker delay taken in a quiet moment",),
                "off as heard": ("off as heard: taken in a quiet moment", "off as heard: taken at once")}
SLEWING = 1.0  # seconds: a slew begun on an error of e has taken the page most of the way by then (box.js: e a second)


def _wrong_corrections(heard: Heard, truth: np.ndarray, times: np.ndarray) -> list[dict]:
    """Every correction a page made that took it further from the laptop, as heard. A page that
    finds itself e ms ahead (e < 0: behind) moves by −e. A jump (a cross-fade) is judged by where
    it was heard just after (a): it had been at a + e, so it was wrong where |a| > |a + e| + 1 ms.
    A change of speed acts slowly, and the page ends it as soon as its readings find it in step (a
    slew begun on a reading the next ones do not bear out moves it a fraction of a ms): it is judged
    by where the page was heard just before it (m) and once it could have done its work (a: the
    first window from SLEWING after it, if the page made no move but its own slewing before that
    window ends): wrong where the page went the slew's way and ended over 1 ms further from the
    laptop, |a| > |m| + 1 ms, by no more than the slew could take it, |a − m| ≤ |e| + 1 ms (a slew
    moves a page as far as its readings say; not judged where the page fell silent or moved
    otherwise in between). Slews that set out the wrong way, whatever came of them, are
    ``_slews_begun_the_wrong_way``."""
    found = []
    for tablet, heard_at, values, events in _heard_and_noted(heard, truth, times):
        for index, (when, what, error, *_) in enumerate(events):
            if what == "cross-faded":
                after = np.flatnonzero((heard_at >= when + 0.15) & (heard_at < when + 1.5))
                if len(after) and abs(values[after[0]]) > abs(values[after[0]] + error) + 1.0:
                    found.append({"tablet": tablet, "at": round(when - heard.start, 2), "what": what,
                                  "page said ms": error, "heard just after ms": round(values[after[0]], 2)})
            elif what == "slewed":
                before = _just_before(heard_at, when)
                until = next((later[0] for later in events[index + 1:] if later[0] > when and later[1] in MOVES), np.inf)
                done = np.flatnonzero((heard_at >= when + SLEWING) & (heard_at + WINDOW <= until))
                if before is None or not len(done) or heard_at[done[0]] > when + SLEWING + 2 * STEP:
                    continue
                was, went = values[before], values[done[0]]
                if (went - was) * -error > 0 and abs(went) > abs(was) + 1.0 and abs(went - was) <= abs(error) + 1.0:
                    found.append({"tablet": tablet, "at": round(when - heard.start, 2), "what": what,
                                  "page said ms": error, "heard just before ms": round(was, 2),
                                  "heard after ms": round(went, 2)})
    return found


def _delays_moved(heard: Heard, positions: np.ndarray, times: np.ndarray) -> list[dict]:
    """Every speaker delay the laptop set while the night played (a round, or its ear), and every
    course its ear moved on a page in doubt ("what"), judged as heard against the other tablets:
    where the tablet was from their median just before (b, ms, ahead positive) and once the page
    could have got there (a: the median of the windows of the 1.5 s from the time its page takes
    to move by e, as the laptop's ear allows it (``pace.settling``), plus a second after, or from
    0.2 s after the page took it at once, if sooner. The median: the window just after a jump of
    190 ms was once read where it had been, the next two where it went). A move of e ms (more
    delay, or heard later: the page plays earlier) went the wrong way where |a| > |b| + 1 ms. Not
    judged where the tablet or the others were not heard then."""
    from narrator.shell.speakerbox import pace

    found = []
    others = lambda index, at: np.delete(positions[:, at], index)  # noqa: E731
    for tablet, events in heard.events.items():
        index = tablet - 1
        for number, (when, what, change, *_) in enumerate(events):
            if what not in LAPTOP_MOVES or when < heard.start or not change:
                continue
            taken = next((later[0] for later in events[number + 1:] if later[1] in LAPTOP_MOVES[what]), np.inf)
            before = _just_before(times[~np.isnan(positions[index])], when)
            before_at = np.flatnonzero(~np.isnan(positions[index]))[before] if before is not None else None
            if before_at is None or np.isnan(others(index, before_at)).all():
                continue
            ready = min(when + pace.settling(change / 1000, what == "speaker delay set") + 1.0, taken + 0.2)
            after = [at for at in np.flatnonzero((times >= ready) & (times < ready + 1.5) & ~np.isnan(positions[index]))
                     if not np.isnan(others(index, at)).all()]
            if not after:
                continue
            was = (positions[index, before_at] - np.nanmedian(others(index, before_at))) * 1000
            went = float(np.median([positions[index, at] - np.nanmedian(others(index, at)) for at in after])) * 1000
            found.append({"tablet": tablet, "at": round(when - heard.start, 2), "what": what, "ms": change,
                          "heard before ms": round(float(was), 2), "heard after ms": round(float(went), 2),
                          "wrong": bool(abs(went) > abs(was) + 1.0)})
    return found


def _slews_begun_the_wrong_way(heard: Heard, truth: np.ndarray, times: np.ndarray) -> list[dict]:
    """Every slew that set out away from the laptop, judged by where the page was heard just
    before it (m): |m − e| > |m| + 1 ms, whether or not it went far (``_wrong_corrections``)."""
    found = []
    for tablet, heard_at, values, events in _heard_and_noted(heard, truth, times):
        for when, what, error, *_ in events:
            before = _just_before(heard_at, when) if what == "slewed" else None
            if before is not None and abs(values[before] - error) > abs(values[before]) + 1.0:
                found.append({"tablet": tablet, "at": round(when - heard.start, 2), "what": what,
                              "page said ms": error, "heard just before ms": round(values[before], 2)})
    return found


def _heard_and_noted(heard: Heard, truth: np.ndarray, times: np.ndarray):
    """For each tablet: when it was heard, how far ahead of the laptop (ms), and what its page noted."""
    for tablet, events in heard.events.items():
        row = truth[tablet - 1]
        yield tablet, times[~np.isnan(row)], row[~np.isnan(row)] * 1000, events


def _just_before(heard_at: np.ndarray, when: float) -> int | None:
    """The last window heard wholly before ``when`` (within half a second of it), or None."""
    before = np.flatnonzero((heard_at + WINDOW <= when) & (heard_at > when - 0.5 - WINDOW))
    return int(before[-1]) if len(before) else None
