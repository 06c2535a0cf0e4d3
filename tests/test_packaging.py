"""A non-editable install carries the data folders and works from any directory."""

import importlib.metadata
import os
import shlex
import subprocess
import sys
import tomllib
import zipfile

import pytest

import narrator
from narrator.core.errors import NarratorError
from narrator.shell.resources import DISTRIBUTION
from narrator.shell.translation import say
from tests.conftest import REPO


def test_wheel_carries_the_data_and_runs_from_another_directory(tmp_path):
    dist = tmp_path / "dist"
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation",
                    "--wheel-dir", str(dist), str(REPO)], check=True, capture_output=True, text=True)
    (wheel,) = dist.glob("werewolf_narrator-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    for shipped in ("narrator/_data/scripts/una-notte-da-lupi/game.yaml",
                    "narrator/_data/scripts/una-notte-da-lupi/it.yaml",
                    "narrator/_data/scripts/una-notte-da-lupi/en.yaml",
                    "narrator/_data/scripts/lupus-in-tabula/rules.py",
                    "narrator/_data/voices/README.md",
                    "narrator/_data/voices/it-pico/pack.yaml",
                    "narrator/_data/voices/it-pico/veggente.open.ogg",
                    "narrator/_data/voices/en-pico/count.30.ogg",
                    "narrator/_data/ambience/README.md",
                    "narrator/shell/fonts/DejaVuSansCondensed.ttf",
                    "narrator/shell/fonts/LICENSE",
                    "narrator/shell/speakerbox/static/index.html",
                    "narrator/shell/speakerbox/static/box.js",
                    "narrator/shell/cli/app.py"):
        assert shipped in names
    assert not any(name.startswith("tests/") for name in names)

    target = tmp_path / "site"
    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--target", str(target),
                    str(wheel)], check=True, capture_output=True, text=True)
    installed = importlib.metadata.distributions(path=[str(target)])
    assert [(found.name, found.version) for found in installed] == [(DISTRIBUTION, narrator.__version__)]
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    environ = {**os.environ, "PYTHONPATH": str(target), "LANG": "C.UTF-8"}
    environ.pop("LANGUAGE", None), environ.pop("LC_ALL", None), environ.pop("LC_MESSAGES", None)
    where = subprocess.run([sys.executable, "-c", "import narrator.shell.resources as r; print(r.data_dir('voices'))"],
                           cwd=elsewhere, env=environ, capture_output=True, text=True, check=True)
    assert where.stdout.strip() == str(target / "narrator" / "_data" / "voices")
    script = subprocess.run([str(target / "bin" / "narrate"), "script", "--players", "6"],
                            cwd=elsewhere, env=environ, capture_output=True, text=True)
    assert script.returncode == 0, script.stderr
    assert "Sorge il sole! Aprite tutti gli occhi." in script.stdout
    # The shipped voice pack speaks every line: no text-to-speech engine is asked for anything.
    rendered = subprocess.run([str(target / "bin" / "narrate"), "render", "--players", "6", "-o", "notte.wav"],
                              cwd=elsewhere, env={**environ, "XDG_CACHE_HOME": str(tmp_path / "cache")},
                              capture_output=True, text=True)
    assert rendered.returncode == 0, rendered.stderr
    assert rendered.stdout.startswith("narrate: scritto notte.wav (2:")  # the C locale: Italian
    assert not list((tmp_path / "cache" / "narrator" / "clips").rglob("*.wav"))  # nothing spoken by an engine
    assert list((tmp_path / "cache" / "narrator" / "clips" / "gains").rglob("*.json"))  # each line measured once


def test_the_distribution_has_a_name_of_its_own():
    """"narrator" on the package index is someone else's project: pip install narrator would
    install their code. The name is pyproject's, and the hints say the same."""
    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert project["name"] == DISTRIBUTION != "narrator"
    assert project["scripts"] == {"narrate": "narrator.shell.launch:main"}


def _install_hints(monkeypatch) -> dict[str, str]:
    """What narrate says when each optional or platform library is missing."""
    from narrator.shell.audio.pico import PicoEngine
    from narrator.shell.audio.player import sounddevice_problem
    from narrator.shell.audio.tts import Pyttsx3Engine, engine_factory

    for name in ("sounddevice", "pyttsx3", "py_nanotts", "piper"):
        monkeypatch.setitem(sys.modules, name, None)  # import fails as if not installed
    monkeypatch.setattr("importlib.util.find_spec", lambda name, *args: None)
    hints = {"sounddevice": say(sounddevice_problem())}
    for name, attempt in (("pyttsx3", lambda: Pyttsx3Engine().voices()),
                          ("py-nanotts", lambda: PicoEngine().voices()),
                          ("piper", lambda: engine_factory("piper")())):
        with pytest.raises(NarratorError) as raised:
            attempt()
        hints[name] = say(raised.value)
    return hints


def test_every_install_hint_is_a_command_that_works_where_narrate_is_installed(monkeypatch):
    """Each hint runs this interpreter's pip (a bare pip may be another Python's) on a name pip
    finds: run through a shell as shown, offline and as a dry run, every one is satisfied by
    what this environment has installed (the extra by this very install)."""
    hints = _install_hints(monkeypatch)
    wanted = {"sounddevice": "sounddevice", "pyttsx3": "pyttsx3", "py-nanotts": "py-nanotts",
              "piper": f"{DISTRIBUTION}[piper]"}
    for name, requirement in wanted.items():
        command = shlex.join([sys.executable, "-m", "pip", "install", requirement])
        assert command in hints[name], hints[name]
        if name == "py-nanotts" and sys.platform not in ("linux", "win32"):
            continue  # no wheel here: the hint says so
        shell = subprocess.run(["sh", "-c", command + " --dry-run --no-index --quiet"], capture_output=True, text=True)
        assert shell.returncode == 0, (command, shell.stderr)
    assert "'werewolf-narrator[piper]'" in hints["piper"]  # quoted: [ is a wildcard to the shell
