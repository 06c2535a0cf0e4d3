"""A save during play never ends the game (issue 40, point 3): the laptop out of open files (a
flood of sockets, say) fails a save; it is tried again a moment later, then said, and the game
goes on; whatever the save met, the file on disk is the last whole save, never half of one."""

import errno
import json
import tempfile
from types import MappingProxyType

import pytest

from narrator.core.rounds import Setup
from narrator.shell import savedgames
from narrator.shell.savedgames import SavedGame


def a_game(path):
    return SavedGame(path, "lupus-in-tabula", "en", {}, Setup(("A", "B", "C"), MappingProxyType({"villico": 3}),
                                                              MappingProxyType({}), None))


@pytest.fixture
def out_of_files(monkeypatch):
    """Make the next ``count`` temporary files fail as a process out of open files does."""
    real, left = tempfile.mkstemp, [0]

    def mkstemp(*args, **kwargs):
        if left[0] > 0:
            left[0] -= 1
            raise OSError(errno.EMFILE, "Too many open files")
        return real(*args, **kwargs)

    monkeypatch.setattr(tempfile, "mkstemp", mkstemp)
    return lambda count: left.__setitem__(0, count)


def test_a_save_that_fails_a_moment_is_tried_again_and_nothing_is_said(tmp_path, out_of_files):
    game, warned, waited = a_game(tmp_path / "game.json"), [], []
    out_of_files(2)
    game.entries = [{"answer": 1}]
    assert game.keep(warned.append, sleep=waited.append) is True
    assert warned == [] and waited == list(savedgames.RETRY_WAITS)
    assert json.loads((tmp_path / "game.json").read_text())["entries"] == [{"answer": 1}]


def test_a_save_that_keeps_failing_is_said_once_the_game_goes_on_and_the_next_answer_saves_all(tmp_path, out_of_files):
    game, warned = a_game(tmp_path / "game.json"), []
    game.save()
    out_of_files(3)
    game.entries = [{"answer": 1}]
    assert game.keep(warned.append, sleep=lambda seconds: None) is False  # said, not raised
    assert len(warned) == 1 and "Too many open files" in str(warned[0].message)
    assert json.loads((tmp_path / "game.json").read_text())["entries"] == []  # the last whole save, as it was
    game.entries = [{"answer": 1}, {"answer": 2}]
    assert game.keep(warned.append, sleep=lambda seconds: None) is True
    assert json.loads((tmp_path / "game.json").read_text())["entries"] == [{"answer": 1}, {"answer": 2}]
    assert [path.name for path in tmp_path.iterdir()] == ["game.json"]  # no temporary file left behind


def test_a_folder_that_cannot_be_listed_after_the_save_costs_nothing(tmp_path, monkeypatch):
    """Sweeping old temporary files lists the folder, one more open file: out of them, the game
    is saved all the same and the sweep waits for the next save (it used to end narrate)."""
    from pathlib import Path

    def no_files(self, pattern):
        raise OSError(errno.EMFILE, "Too many open files")

    game, warned = a_game(tmp_path / "game.json"), []
    monkeypatch.setattr(Path, "glob", no_files)
    game.entries = [{"answer": 1}]
    assert game.keep(warned.append) is True and warned == []
    assert json.loads((tmp_path / "game.json").read_text())["entries"] == [{"answer": 1}]
