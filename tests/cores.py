"""Where the TIMED tests (tests/boxnet.py) run: on cores of their own, or alone.

A TIMED test holds tablets to milliseconds in real time; a CPU-bound neighbour on the same core
makes its browsers and sound server miss their bounds. Alone (every other worker waiting) they
meet them, but leave the machine mostly idle for their 2.5 minutes (their browsers and sound
server keep two cores 24 % busy). On Linux with two cores or more they get half of the cores
instead: while they run, every other process of the test run (the workers, and what they
started: browsers, narrate, sound servers) is moved to the other half, and back when they are
over. A process started while they run inherits its parent's cores, so only those already
running are moved (twice, a moment apart: one started during the first pass is caught by the
second).

Measured on this 2-core machine: the four TIMED tests on core 0 beside the rest of the suite on
core 1 (three workers) passed in two runs of two (154 and 150 s, against 148 s alone), and the
half of the rest that ran beside them passed; the whole suite split took 8:29 and 8:21 in two
clean clones where it had taken 9:20 and 9:23 alone (pyproject.toml).

Elsewhere (macOS and Windows have no per-thread affinity in Python's os module; one core cannot
be split) a TIMED test runs alone: a lock every other test shares, taken whole by a TIMED one
(on Windows, which has no such lock, beside the others).
"""

import os
import time
from pathlib import Path

CORES = "NARRATOR_TEST_CORES"  # the cores the run was given, as pytest's own process found them


def remember() -> None:
    """In pytest's own process, before the workers start: the cores the run was given. (A worker
    asks this, not its own: a TIMED test may have moved it to the other half already.)"""
    if hasattr(os, "sched_getaffinity"):
        os.environ[CORES] = ",".join(str(core) for core in sorted(os.sched_getaffinity(0)))


def given() -> list[int]:
    """The cores the run was given (``remember``), or none where it did not say."""
    return sorted(int(core) for core in os.environ.get(CORES, "").split(",") if core)


def split() -> tuple[set[int], set[int]] | None:
    """The cores for the TIMED tests and the cores for the rest, or None where they cannot be split."""
    cores = given()
    if not hasattr(os, "sched_setaffinity") or not Path("/proc/self/task").is_dir() or len(cores) < 2:
        return None
    half = len(cores) // 2
    return set(cores[:half]), set(cores[half:])


def _parents() -> dict[int, int]:
    """Every process on the machine, with its parent."""
    parents = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:  # (gone since the listing)
            continue
        parents[int(entry.name)] = int(stat.rsplit(")", 1)[1].split()[1])  # (the name may hold spaces and brackets)
    return parents


def _tree(root: int, parents: dict[int, int]) -> set[int]:
    """``root`` and every process descended from it."""
    children: dict[int, list[int]] = {}
    for pid, parent in parents.items():
        children.setdefault(parent, []).append(pid)
    found, waiting = set(), [root]
    while waiting:
        pid = waiting.pop()
        found.add(pid)
        waiting += children.get(pid, [])
    return found


def _pin(pids: set[int], cores: set[int]) -> None:
    """Every thread of ``pids`` on ``cores`` (a thread started later inherits its creator's)."""
    for pid in pids:
        try:
            threads = [int(name) for name in os.listdir(f"/proc/{pid}/task")]
        except OSError:
            continue
        for thread in threads:
            try:
                os.sched_setaffinity(thread, cores)
            except OSError:  # (ended meanwhile)
                pass


def place(timed: set[int], others: set[int], mine: int, run: int) -> None:
    """The processes from ``mine`` down on ``timed``, the rest of those from ``run`` down on ``others``."""
    for _ in range(2):
        parents = _parents()
        ours = _tree(mine, parents)
        _pin(ours, timed)
        _pin(_tree(run, parents) - ours, others)
        time.sleep(0.1)


class Apart:
    """The TIMED tests on cores of their own while held (``split``'s first half): this worker and
    what it started there, the rest of the run (from pytest's own process down) on the other half."""

    def __init__(self, cores: tuple[set[int], set[int]]):
        self.timed, self.others = cores
        self.mine = os.getpid()
        self.run = os.getppid() if os.environ.get("PYTEST_XDIST_WORKER") else self.mine  # (a worker's parent: pytest's own)
        place(self.timed, self.others, self.mine, self.run)

    def release(self) -> None:
        everything = self.timed | self.others
        place(everything, everything, self.mine, self.run)


class Alone:
    """The lock every test takes: shared by the others, whole for a TIMED one. A turnstile in front
    of it, so that a TIMED test waiting is not held off for ever by two workers taking turns with it."""

    def __init__(self, folder: Path, timed: bool):
        import fcntl

        with open(folder / "turnstile.lock", "a") as turnstile:
            self.running = open(folder / "timed.lock", "a")
            fcntl.flock(turnstile, fcntl.LOCK_EX)
            fcntl.flock(self.running, fcntl.LOCK_EX if timed else fcntl.LOCK_SH)
            fcntl.flock(turnstile, fcntl.LOCK_UN)

    def release(self) -> None:
        import fcntl

        fcntl.flock(self.running, fcntl.LOCK_UN)
        self.running.close()


class Nothing:
    """What a test holds where nothing is to be held: one that is not TIMED where the TIMED ones
    have cores of their own; any on Windows."""

    def release(self) -> None:
        pass


def hold(folder: Path, timed: bool):
    """What a test holds while it runs (``release`` when done): see the module's docstring."""
    cores = split()
    if cores is None:
        try:
            import fcntl  # noqa: F401
        except ImportError:  # Windows: no flock; the TIMED tests run beside the others, and may miss their bounds
            return Nothing()
        return Alone(folder, timed)
    return Apart(cores) if timed else Nothing()
