"""The types hold: mypy (pinned in pyproject's test extra, set up in its [tool.mypy]) finds nothing
in narrator/ and every game's rules.py, nor between a game's rules and the contract the core calls
them by (dev/typecheck.py); and a game's hook of the wrong type is found."""

import shutil
import subprocess
import sys

from tests.conftest import GAMES_DIR, REPO

# Lupus in Tabula has neither a calls() nor a places() hook: these are added, each of the wrong type.
WRONG = '''

def calls(turn: int, state: State) -> bool:  # the contract's turn is a turn's id: a str
    return turn > 1


def places(game: Game, state: State, tonight: Mapping[str, Any]) -> list[str]:  # the contract's: a mapping
    return []
'''


def typecheck(tmp_path, *args: str) -> subprocess.CompletedProcess:
    """dev/typecheck.py, its cache in ``tmp_path`` (never the checkout's or the home's)."""
    return subprocess.run([sys.executable, str(REPO / "dev" / "typecheck.py"), "--cache-dir", str(tmp_path / "mypy"),
                           *args], cwd=REPO, capture_output=True, text=True)


def test_mypy_finds_nothing_in_narrator_and_every_game(tmp_path):
    result = typecheck(tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    games = sorted(path.parent.name for path in GAMES_DIR.glob("*/rules.py"))
    assert f"narrator/ and {len(games)} games' rules.py" in result.stdout
    assert "Success: no issues found" in result.stdout


def test_a_hook_of_the_wrong_type_fails_the_check(tmp_path):
    """The hooks' types are checked against the contract's: a parameter that does not take what the
    core hands on, a result that is not what the contract says."""
    folder = tmp_path / "games" / "lupus-in-tabula"
    shutil.copytree(GAMES_DIR / "lupus-in-tabula", folder)
    rules = folder / "rules.py"
    rules.write_text(rules.read_text(encoding="utf-8") + WRONG, encoding="utf-8")
    result = typecheck(tmp_path, "--games", str(folder.parent), "--games-only")
    assert result.returncode == 1, result.stdout + result.stderr
    errors = sorted(line for line in result.stdout.splitlines() if ": error:" in line)
    assert errors == [
        f'{rules}: calls() against the contract: error: Argument "turn" to "calls" has incompatible type "str"; '
        'expected "int"  [arg-type]',
        f'{rules}: places() against the contract: error: Incompatible return value type (got "list[str]", expected '
        '"Mapping[str, str | None]")  [return-value]'], result.stdout
