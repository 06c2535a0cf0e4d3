"""narrate installs on Windows and macOS from wheels alone (issue 37): nothing to build, no compiler.

The platform markers in pyproject.toml ask for py-nanotts only where it has a wheel, and for pyttsx3
everywhere but macOS (checked here, offline). Then uv resolves the project's dependencies for
Windows x86_64 and macOS arm64 and x86_64, with their markers and wheel tags and binary wheels only,
on the oldest Python narrate supports and on the newest one python.org offers: a dependency with no
wheel for a target fails its test and is named. That part asks the package index (PyPI), which
this machine and CI reach: an index out of reach fails the test, rather than passing it unchecked.
"""

import os
import re
import subprocess
import sys
import tomllib

import pytest
from packaging.markers import Marker
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from tests.conftest import REPO

PROJECT = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
OLDEST = re.fullmatch(r">=\s*(3\.\d+)", PROJECT["requires-python"])[1]  # "3.11"
NEWEST = "3.14"  # the Python python.org offers now
TIMEOUT = 300  # seconds for one resolution; the first one fills uv's cache from the index

# The systems people install narrate on, as the markers see them (sys_platform, platform_machine),
# and whether py-nanotts has a wheel there: version 0.1.1 on PyPI has wheels for manylinux x86_64,
# manylinux aarch64 and win_amd64, and an sdist, which needs a C compiler to build.
SYSTEMS = {
    "windows-amd64": ("win32", "AMD64", True),
    "windows-arm64": ("win32", "ARM64", False),
    "linux-x86_64": ("linux", "x86_64", True),
    "linux-aarch64": ("linux", "aarch64", True),
    "linux-armv7l": ("linux", "armv7l", False),
    "macos-arm64": ("darwin", "arm64", False),
    "macos-x86_64": ("darwin", "x86_64", False),
}
NAMES = {"win32": ("Windows", "nt"), "linux": ("Linux", "posix"), "darwin": ("Darwin", "posix")}

# The targets uv resolves for: uv's name of the platform, and the dependencies the markers must
# keep there (pyttsx3 drives SAPI5 on Windows) or leave out (on macOS `say` speaks, Pico has no wheel).
TARGETS = {
    "windows-x86_64": ("x86_64-pc-windows-msvc", {"py-nanotts", "pyttsx3"}, set()),
    "macos-arm64": ("aarch64-apple-darwin", set(), {"py-nanotts", "pyttsx3"}),
    "macos-x86_64": ("x86_64-apple-darwin", set(), {"py-nanotts", "pyttsx3"}),
}


def requirements() -> list[Requirement]:
    """The project's own dependencies (not an extra's), as pip reads them."""
    return [Requirement(line) for line in PROJECT["dependencies"]]


def asked_for(marker: Marker | None, sys_platform: str, machine: str) -> bool:
    """Whether pip on that system installs a dependency with this marker."""
    if marker is None:
        return True
    system, os_name = NAMES[sys_platform]
    return marker.evaluate({"sys_platform": sys_platform, "platform_machine": machine,
                            "platform_system": system, "os_name": os_name})


def test_markers_ask_for_pico_only_where_it_has_a_wheel_and_for_pyttsx3_everywhere_but_macos():
    by_name = {requirement.name: requirement for requirement in requirements()}
    asked = {system: (asked_for(by_name["py-nanotts"].marker, sys_platform, machine),
                      asked_for(by_name["pyttsx3"].marker, sys_platform, machine))
             for system, (sys_platform, machine, _) in SYSTEMS.items()}
    wanted = {system: (has_wheel, sys_platform != "darwin")
              for system, (sys_platform, machine, has_wheel) in SYSTEMS.items()}
    assert asked == wanted  # (py-nanotts, pyttsx3) on each system
    # Every other dependency is asked for everywhere.
    assert [name for name, requirement in by_name.items()
            if requirement.marker is not None and name not in ("py-nanotts", "pyttsx3")] == []


@pytest.fixture(scope="session")
def uv_folders(tmp_path_factory):
    """uv's cache and data folders, shared by the resolutions of a session and never in the real home."""
    return tmp_path_factory.mktemp("uv")


def package_to_build(stderr: str) -> str:
    """The packages uv says have no wheel for the target."""
    names = re.findall(r"Wheels are required for `([^`]+)`", stderr)
    names += [name for name in re.findall(r"Because (\S+?)[<>=!~ ]\S* has no usable wheels", stderr)
              if name not in names]
    return ", ".join(names) or "(see uv's message)"


@pytest.mark.parametrize("python", [OLDEST, NEWEST], ids=lambda version: f"py{version}")
@pytest.mark.parametrize("target", list(TARGETS))
def test_dependencies_install_from_wheels_alone(target, python, uv_folders, tmp_path):
    uv = pytest.importorskip("uv", reason="needs uv (pip install uv): it resolves for another platform")
    platform, kept, left_out = TARGETS[target]
    wanted = tmp_path / "requirements.in"
    wanted.write_text("\n".join(PROJECT["dependencies"]) + "\n", encoding="utf-8")
    environ = {**os.environ, "UV_CACHE_DIR": str(uv_folders / "cache"), "XDG_CACHE_HOME": str(uv_folders / "xdg-cache"),
               "XDG_DATA_HOME": str(uv_folders / "xdg-data"), "UV_NO_CONFIG": "1", "UV_PYTHON_DOWNLOADS": "never"}
    command = [uv.find_uv_bin(), "pip", "compile", str(wanted), "--python", sys.executable,
               "--python-platform", platform, "--python-version", python, "--only-binary", ":all:",
               "--no-header", "--no-annotate", "--quiet"]
    try:
        result = subprocess.run(command, cwd=tmp_path, env=environ, capture_output=True, text=True, timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        pytest.fail(f"uv did not resolve for {target} (Python {python}) within {TIMEOUT} s")
    if result.returncode != 0 and "No solution found" in result.stderr:
        pytest.fail(f"on {target} with Python {python}, no wheel of {package_to_build(result.stderr)}: "
                    f"pip would have to build it there\n{result.stderr}")
    assert result.returncode == 0, result.stderr
    resolved = {canonicalize_name(Requirement(line).name) for line in result.stdout.splitlines() if line.strip()}
    everywhere = {canonicalize_name(requirement.name) for requirement in requirements() if requirement.marker is None}
    assert everywhere <= resolved, f"{target}: {sorted(everywhere - resolved)} missing"
    assert kept <= resolved and not left_out & resolved, f"{target}: {sorted(resolved)}"
