"""A non-editable install carries the data folders and works from any directory."""

import os
import subprocess
import sys
import zipfile

from tests.conftest import REPO


def test_wheel_carries_the_data_and_runs_from_another_directory(tmp_path):
    dist = tmp_path / "dist"
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation",
                    "--wheel-dir", str(dist), str(REPO)], check=True, capture_output=True, text=True)
    (wheel,) = dist.glob("narrator-*.whl")
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
