import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from narrator.cli import cli
from narrator.environment import Environment
from narrator.loader import load_game

REPO = Path(__file__).resolve().parent.parent
SCRIPTS = REPO / "scripts"
GAME = "una-notte-da-lupi"


def pytest_addoption(parser):
    parser.addoption("--update-golden", action="store_true",
                     help="Rewrite the golden files in tests/golden/ from the current output.")


@pytest.fixture(scope="session")
def game():
    return load_game(SCRIPTS / GAME)


@pytest.fixture
def game_copy(tmp_path):
    """A writable copy of the game folder, for tests that break it on purpose."""
    target = tmp_path / "scripts" / GAME
    shutil.copytree(SCRIPTS / GAME, target)
    return target


@pytest.fixture(autouse=True, scope="session")
def private_user_folders(tmp_path_factory):
    """Tests never touch the user's real cache or data folders (platformdirs follows XDG here)."""
    import os

    saved = {name: os.environ.get(name) for name in ("XDG_CACHE_HOME", "XDG_DATA_HOME")}
    os.environ["XDG_CACHE_HOME"] = str(tmp_path_factory.mktemp("cache"))
    os.environ["XDG_DATA_HOME"] = str(tmp_path_factory.mktemp("data"))
    yield
    for name, value in saved.items():
        if value is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = value


def make_env(environ=None, scripts_dir=SCRIPTS, seed=777, **overrides):
    """An Environment with a fixed locale and seed source, whatever the machine says."""
    return Environment(environ=environ if environ is not None else {"LANG": "C.UTF-8"},
                       scripts_dir=scripts_dir, new_seed=lambda: seed, **overrides)


class RecordingPlayer:
    """Stands in for the sound card: keeps the night it was asked to play."""

    name = "recording"

    def __init__(self, completes=True):
        self.nights = []
        self.completes = completes

    def play(self, night, session):
        self.nights.append(night)
        session.show(__import__("narrator.audio.player", fromlist=["Transport"]).Transport(night))
        return self.completes


class Result:
    def __init__(self, click_result):
        self.exit_code = click_result.exit_code
        self.stdout = click_result.stdout
        self.stderr = click_result.stderr
        self.exception = click_result.exception


@pytest.fixture
def run():
    """Run ``narrate`` with the given arguments in-process; stdout and stderr kept apart."""

    def invoke(*args, env=None):
        result = CliRunner().invoke(cli, list(args), obj=env or make_env(), prog_name="narrate")
        if result.exception and not isinstance(result.exception, SystemExit):
            raise result.exception
        return Result(result)

    return invoke
