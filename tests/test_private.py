"""A saved game holds every card and the tokens of the pages that run the game: on POSIX it is
the user's alone (0600), and so are the folders narrate makes for it (0700); a folder the user
made is left as it is. On Windows a user's profile folders are private already: nothing is set."""

import json
import os
import stat
import subprocess
import sys
from types import MappingProxyType

import pytest

from narrator.core.rounds import Setup
from narrator.shell import platform
from narrator.shell.savedgames import SavedGame

LUPUS = "lupus-in-tabula"


def a_game(path):
    return SavedGame(path, LUPUS, "en", {}, Setup(("A", "B", "C"), MappingProxyType({"villico": 3}),
                                                  MappingProxyType({}), {"A": "villico", "B": "villico",
                                                                         "C": "villico"}),
                     tokens={"console": "secret"})


def mode(path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


@pytest.fixture
def umask_022():
    before = os.umask(0o022)  # the usual one: new files world-readable
    yield
    os.umask(before)


def test_a_saved_game_and_the_folders_made_for_it_are_the_user_s_alone(tmp_path, umask_022):
    data = tmp_path / "share" / "narrator"
    saved = a_game(data / "games" / "lupus-in-tabula-20261126-120000.json")
    own = mode(tmp_path)
    saved.save()
    assert mode(saved.path) == 0o600
    assert mode(data / "games") == 0o700 and mode(data) == 0o700 and mode(tmp_path / "share") == 0o700
    assert mode(tmp_path) == own  # the user's own folder: untouched
    assert json.loads(saved.path.read_text(encoding="utf-8"))["tokens"] == {"console": "secret"}


def test_a_save_from_before_that_anyone_could_read_becomes_private_at_the_next_save(tmp_path, umask_022):
    games = tmp_path / "games"
    games.mkdir()
    saved = a_game(games / "lupus-in-tabula-20261126-120000.json")
    saved.path.write_text("{}", encoding="utf-8")
    os.chmod(saved.path, 0o644)
    saved.save()
    assert mode(saved.path) == 0o600
    assert mode(games) == 0o755  # a folder that was there is the user's business


def test_on_windows_nothing_is_set(tmp_path, umask_022, monkeypatch):
    monkeypatch.setattr(platform, "windows", lambda: True)
    saved = a_game(tmp_path / "games" / "lupus-in-tabula-20261126-120000.json")
    saved.save()
    assert mode(tmp_path / "games") == 0o755


def test_a_real_game_saved_by_narrate_is_private(tmp_path):
    home = tmp_path / "home"
    environ = {**os.environ, "HOME": str(home), "XDG_DATA_HOME": str(home / "data"), "LANG": "en_US.UTF-8",
               "XDG_CONFIG_HOME": str(home / "config"), "XDG_CACHE_HOME": str(home / "cache")}
    subprocess.run([sys.executable, "-m", "narrator", "--game", LUPUS, "--players", "8", "--no-ambience",
                    "--names", "A,B,C,D,E,F,G,H"], input="q\n", capture_output=True, text=True, env=environ,
                   timeout=120, umask=0o022)
    (path,) = (home / "data" / "narrator" / "games").glob("*.json")
    assert mode(path) == 0o600 and mode(path.parent) == 0o700 and mode(path.parent.parent) == 0o700
