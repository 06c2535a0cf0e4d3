"""The open-files limit (issue 40, point 3): raised to the hard one where the system has one, left
alone on Windows, and macOS' ceiling taken when the hard limit is unlimited."""

import subprocess
import sys
import types

import pytest

import narrator.shell.platform
from narrator.shell.platform import limits

resource = pytest.importorskip("resource")

RAISED = """
import resource
from narrator.shell.platform.limits import raise_open_files
print(raise_open_files(), *resource.getrlimit(resource.RLIMIT_NOFILE))
"""


def _limited(soft: int, hard: int):
    return lambda: resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


def test_the_soft_limit_is_raised_to_the_hard_one():
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard < 2048:
        pytest.skip(f"this machine's hard limit of open files is {hard}")
    done = subprocess.run([sys.executable, "-c", RAISED], preexec_fn=_limited(1024, 2048), capture_output=True,
                          text=True, check=True)
    assert done.stdout.split() == ["2048", "2048", "2048"]


def test_a_soft_limit_already_at_the_hard_one_stays():
    done = subprocess.run([sys.executable, "-c", RAISED], preexec_fn=_limited(1024, 1024), capture_output=True,
                          text=True, check=True)
    assert done.stdout.split() == ["1024", "1024", "1024"]


def test_windows_is_left_alone_and_resource_never_imported(monkeypatch):
    monkeypatch.setattr(narrator.shell.platform, "SYSTEM", "windows")
    monkeypatch.setitem(sys.modules, "resource", None)  # as on Windows: importing it fails
    assert limits.raise_open_files() == limits.USUAL


def test_an_unlimited_hard_limit_takes_what_macos_allows(monkeypatch):
    asked = []
    infinity = 2 ** 63 - 1

    def setrlimit(kind, values):
        asked.append(values)
        if values[0] > limits.MACOS_MOST:
            raise ValueError("current limit exceeds maximum limit")

    fake = types.SimpleNamespace(RLIMIT_NOFILE=8, RLIM_INFINITY=infinity, getrlimit=lambda kind: (256, infinity),
                                 setrlimit=setrlimit)
    monkeypatch.setattr(narrator.shell.platform, "SYSTEM", "macos")
    monkeypatch.setitem(sys.modules, "resource", fake)
    assert limits.raise_open_files() == limits.MACOS_MOST
    assert asked == [(infinity, infinity), (limits.MACOS_MOST, infinity)]
