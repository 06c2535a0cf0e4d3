import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from narrator.games.loader import load_game
from narrator.shell.cli import cli
from narrator.shell.environment import Environment

REPO = Path(__file__).resolve().parent.parent
GAMES_DIR = REPO / "scripts"
GAME = "una-notte-da-lupi"


def pytest_addoption(parser):
    parser.addoption("--update-golden", action="store_true",
                     help="Rewrite the golden files in tests/golden/ from the current output.")


@pytest.fixture(scope="session")
def game():
    return load_game(GAMES_DIR / GAME)


@pytest.fixture
def game_copy(tmp_path):
    """A writable copy of the game folder, for tests that break it on purpose."""
    target = tmp_path / "games" / GAME
    shutil.copytree(GAMES_DIR / GAME, target)
    return target


# Every folder a user owns that narrate (or a library it uses) could read or write. The whole
# test session, subprocesses included, runs with these pointed at a temporary sandbox. The runtime
# folder too: a browser that plays sound looks for the user's sound server there, and without one
# leaves a /tmp/pulse-* folder of its own behind at every run.
SANDBOXED_VARIABLES = ("HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME",
                       "XDG_RUNTIME_DIR")
_REAL_FOLDERS: dict[str, tuple] = {}


def _real_narrator_folders() -> list[Path]:
    """narrate's folders in the real home, as they were before the sandbox was set up."""
    import platformdirs

    return [Path(getattr(platformdirs, f"user_{kind}_dir")("narrator")) for kind in ("config", "cache", "data", "state")]


def _snapshot(folder: Path) -> tuple:
    """What is in ``folder``: every file with its size and modification time."""
    if not folder.exists():
        return ()
    return tuple(sorted((str(path), path.stat().st_size, path.stat().st_mtime_ns)
                        for path in folder.rglob("*") if path.is_file()))


def _git_status() -> str | None:
    """The checkout's ``git status`` (untracked files included), or None outside a git checkout."""
    import subprocess

    try:
        result = subprocess.run(["git", "status", "--porcelain", "--untracked-files=all"], cwd=REPO,
                                capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return result.stdout if result.returncode == 0 else None


def pytest_configure(config):
    """Before any test runs: remember the real folders, then point every user folder at a sandbox."""
    import os
    import tempfile

    for folder in _real_narrator_folders():
        _REAL_FOLDERS[str(folder)] = _snapshot(folder)
    config._narrator_git_status = _git_status()
    sandbox = Path(tempfile.mkdtemp(prefix="narrator-tests-home-"))
    config._narrator_sandbox = sandbox
    if not hasattr(config, "workerinput"):  # the run's own sandbox holds the TIMED lock: the workers,
        import cores  # started after this, inherit where it is, and the cores the run was given

        os.environ[LOCKS] = str(sandbox)
        cores.remember()
    for name in SANDBOXED_VARIABLES:
        target = sandbox if name == "HOME" else sandbox / name.lower()
        target.mkdir(mode=0o700, exist_ok=True)  # (a runtime folder must be the user's alone)
        os.environ[name] = str(target)
    (sandbox / "work").mkdir()
    # One locale for every run and every narrate a test starts, whatever the machine's: the C locale,
    # in which narrate speaks Italian. Tests that want English say so (make_env uses en_US).
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        os.environ.pop(name, None)
    os.environ["LANG"] = "C.UTF-8"


@pytest.fixture(scope="session", autouse=True)
def _work_in_sandbox(pytestconfig):
    """Whatever a test writes to a relative path lands in the sandbox, not in the checkout (set once
    the tests are collected: a worker of pytest-xdist collects from the folder it was started in)."""
    import os

    os.chdir(pytestconfig._narrator_sandbox / "work")


def is_timed(item) -> bool:
    from boxnet import TIMED

    marker = item.get_closest_marker(TIMED.mark.name)
    return marker is not None and marker.args == TIMED.mark.args


LOCKS = "NARRATOR_TEST_LOCKS"  # the folder of the TIMED tests' lock, shared by every worker
_HELD: list = []  # what a worker holds from one TIMED test to the next (tests/cores.py)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    """A test marked TIMED (tests/boxnet.py) runs on cores of its own, or alone (tests/cores.py):
    such a test holds tablets to milliseconds in real time, and the suite keeps both cores busy.
    Sharing one worker (``--dist loadgroup``) only keeps them from each other. The TIMED tests run
    one after another in their worker, which holds its cores (or the lock) from the first to the
    last of them."""
    import os

    import cores

    timed = is_timed(item)
    if not _HELD:
        _HELD.append(cores.hold(Path(os.environ[LOCKS]), timed))
    try:
        yield
    finally:
        if not (timed and nextitem is not None and is_timed(nextitem)):
            _HELD.pop().release()


def pytest_sessionfinish(session, exitstatus):
    """Fail the run if anything was written into the real user folders."""
    import shutil

    touched = [folder for folder, before in _REAL_FOLDERS.items() if _snapshot(Path(folder)) != before]
    if touched:
        session.config.get_terminal_writer().line(
            f"ERROR: the tests changed the real user folders: {', '.join(touched)}", red=True)
        session.exitstatus = 1
    littered = _git_status() != getattr(session.config, "_narrator_git_status", None)
    if littered:
        session.config.get_terminal_writer().line(
            f"ERROR: the tests changed the checkout ('git status' differs):\n{_git_status()}", red=True)
        session.exitstatus = 1
    sandbox = getattr(session.config, "_narrator_sandbox", None)
    if sandbox is not None:
        shutil.rmtree(sandbox, ignore_errors=True)


def make_env(environ=None, games_dir=GAMES_DIR, seed=777, **overrides):
    """An Environment with a fixed locale (English, unless ``environ`` says otherwise) and seed source."""
    return Environment(environ=environ if environ is not None else {"LANG": "en_US.UTF-8"},
                       games_dir=games_dir, new_seed=lambda: seed, **overrides)


class RecordingPlayer:
    """Stands in for the sound card: keeps the night it was asked to play."""

    name = "recording"
    audible = True

    def __init__(self, completes=True):
        self.nights = []
        self.completes = completes

    def play(self, night, session):
        self.nights.append(night)
        session.show(__import__("narrator.shell.audio.player", fromlist=["Transport"]).Transport(night))
        return self.completes


class Result:
    def __init__(self, click_result):
        self.exit_code = click_result.exit_code
        self.stdout = click_result.stdout
        self.stderr = click_result.stderr
        self.exception = click_result.exception


@pytest.fixture(scope="module")
def browser():
    """Debian's Chromium through Playwright, headless, shared by a module's speaker-box tests."""
    from boxnet import ARGS, CHROMIUM

    playwright = pytest.importorskip("playwright.sync_api")
    with playwright.sync_playwright() as p:
        launched = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        yield launched
        launched.close()


@pytest.fixture
def run():
    """Run ``narrate`` with the given arguments in-process; stdout and stderr kept apart."""

    def invoke(*args, env=None, input=None):
        result = CliRunner().invoke(cli, list(args), obj=env or make_env(), prog_name="narrate", input=input)
        if result.exception and not isinstance(result.exception, SystemExit):
            raise result.exception
        return Result(result)

    return invoke


@pytest.fixture
def terminal(tmp_path):
    """``terminal(*args, system="linux", columns=40, lines=10)``: narrate on a pseudo-terminal
    (tests/pseudoterminal.py), on Linux or a simulated Windows or macOS; closed after the test."""
    from tests.pseudoterminal import Terminal

    opened = []

    def start(*args, **options):
        opened.append(Terminal(tmp_path, *args, **options))
        return opened[-1]

    yield start
    for each in opened:
        each.close()
