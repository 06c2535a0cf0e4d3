"""Where the TIMED tests run (tests/cores.py): the split of the cores, and processes moved to their half."""

import os
import subprocess
import sys

import cores
import pytest


@pytest.mark.parametrize("given, expected", [("0,1", ({0}, {1})), ("3,0,2,1", ({0, 1}, {2, 3})),
                                             ("0,1,2", ({0}, {1, 2})), ("0", None), ("", None)])
def test_the_timed_tests_get_the_first_half_of_the_cores_the_run_was_given(monkeypatch, given, expected):
    monkeypatch.setenv(cores.CORES, given)
    assert cores.split() == (expected if hasattr(os, "sched_setaffinity") else None)


NEST = """
import subprocess, sys, time
child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
print(child.pid, flush=True)
time.sleep(60)
"""


# The cores the run was given (inside the suite a worker may be on one of them just now)
GIVEN = cores.given() or sorted(os.sched_getaffinity(0) if hasattr(os, "sched_getaffinity") else ())


@pytest.mark.skipif(not hasattr(os, "sched_setaffinity") or len(GIVEN) < 2,
                    reason="needs two cores and Linux's affinity calls")
def test_a_worker_s_processes_go_to_its_half_and_the_run_s_others_to_the_other_and_all_come_back():
    """A "run" (a process and its child) with one "worker" (another process, and its child) in it:
    placed, every thread of the worker's two is on the first half, the run's on the second; then
    all on every core again."""
    given = GIVEN
    own = os.sched_getaffinity(0)
    first, second = {given[0]}, set(given[1:])
    run_child = worker_child = None
    run = subprocess.Popen([sys.executable, "-c", NEST], stdout=subprocess.PIPE, text=True)
    worker = subprocess.Popen([sys.executable, "-c", NEST], stdout=subprocess.PIPE, text=True)
    try:
        run_child, worker_child = int(run.stdout.readline()), int(worker.stdout.readline())
        threads = lambda pid: [int(tid) for tid in os.listdir(f"/proc/{pid}/task")]  # noqa: E731
        cores.place(first, second, mine=worker.pid, run=run.pid)
        for pid, expected in ((worker.pid, first), (worker_child, first), (run.pid, second), (run_child, second)):
            assert all(os.sched_getaffinity(tid) == expected for tid in threads(pid)), (pid, expected)
        assert os.sched_getaffinity(0) == own  # (neither is this process's)
        cores.place(set(given), set(given), mine=worker.pid, run=run.pid)
        for pid in (worker.pid, worker_child, run.pid, run_child):
            assert all(os.sched_getaffinity(tid) == set(given) for tid in threads(pid))
    finally:
        for process in (run, worker):
            process.kill()
            process.wait()
        for pid in (run_child, worker_child):
            if pid is not None:
                try:
                    os.kill(pid, 9)
                except ProcessLookupError:
                    pass


@pytest.mark.skipif(sys.platform == "win32", reason="no flock on Windows")
def test_where_the_cores_cannot_be_split_a_timed_test_holds_the_lock_whole_and_windows_holds_none(monkeypatch,
                                                                                                    tmp_path):
    import fcntl

    monkeypatch.setenv(cores.CORES, "0")
    held = cores.hold(tmp_path, timed=True)
    with open(tmp_path / "timed.lock") as other:  # (another worker's test)
        with pytest.raises(BlockingIOError):
            fcntl.flock(other, fcntl.LOCK_SH | fcntl.LOCK_NB)
        held.release()
        fcntl.flock(other, fcntl.LOCK_SH | fcntl.LOCK_NB)
    monkeypatch.setitem(sys.modules, "fcntl", None)  # as on Windows
    assert isinstance(cores.hold(tmp_path, timed=True), cores.Nothing)
