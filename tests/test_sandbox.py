"""Tests never touch the real home: every user folder points into the session's sandbox."""

import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from narrator.shell.cli import cli
from narrator.shell.environment import Environment
from tests.conftest import SANDBOXED_VARIABLES, is_timed

SANDBOX = Path(os.environ["HOME"])


def test_every_user_folder_variable_points_into_one_temporary_sandbox():
    assert SANDBOX.name.startswith("narrator-tests-home-")
    for name in SANDBOXED_VARIABLES:
        assert Path(os.environ[name]).is_relative_to(SANDBOX), name
    assert Path.home() == SANDBOX
    # the runtime folder as a sound server's client needs it: the user's alone (else a browser's
    # libpulse refuses it and makes a /tmp/pulse-* folder of its own, left behind)
    assert Path(os.environ["XDG_RUNTIME_DIR"]).stat().st_mode & 0o777 == 0o700


def test_the_default_environment_keeps_its_folders_in_the_sandbox():
    env = Environment()
    for folder in (env.cache_dir, env.data_home, env.config_dir, env.nights_dir()):
        assert folder.is_relative_to(SANDBOX), folder


def test_remembered_names_from_a_default_environment_land_in_the_sandbox():
    result = CliRunner().invoke(cli, ["votes", "--names", "Anna,Bruno,Carla"], obj=Environment(),
                                input="contadino\nBruno\ncontadino\nCarla\ncontadino\nAnna\nnone\n")
    assert result.exit_code == 0, result.output
    saved = Environment().config_dir / "players.json"
    assert saved.is_relative_to(SANDBOX) and saved.read_text(encoding="utf-8") == '["Anna", "Bruno", "Carla"]'


def test_the_timed_tests_share_one_worker(request):
    """pytest-xdist's --dist loadgroup keeps the TIMED tests (tests/boxnet.py) in one worker, one
    after another, on their cores (or holding the lock) once for all of them (tests/cores.py). It can stop grouping
    without a word (pytest 9.2's node ids did: pyproject.toml keeps pytest below it)."""
    from boxnet import TIMED

    config = request.config
    if not (hasattr(config, "workerinput") and config.getvalue("loadgroup")):
        pytest.skip("checks a worker of --dist loadgroup, as the README's test command runs")
    group = TIMED.mark.args[0]
    timed = [item.nodeid for item in request.session.items if is_timed(item)]
    if not timed:
        pytest.skip("no TIMED test in this run")
    assert all(nodeid.endswith(f"@{group}") for nodeid in timed), \
        f"pytest-xdist did not group the TIMED tests (pytest {pytest.__version__}): {timed}"
