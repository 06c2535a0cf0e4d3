"""The generated night of every recommended deck, in both languages, against reviewed files.

After an intended change to lines, order or timing, regenerate and review the diff:
    python -m pytest tests/test_golden.py --update-golden
"""

import os
from pathlib import Path

import pytest

GOLDEN = Path(__file__).parent / "golden"

CASES = [(["script", "--players", str(players), "--lang", lang], f"script-{players}p-{lang}.txt")
         for players in range(3, 11) for lang in ("it", "en")]
CASES += [
    (["script", "--players", "10", "--lang", "en", "--format", "json"], "script-10p-en.json"),
    (["script", "--players", "8", "--lang", "it", "--count-style", "full", "--option", "tips=off"], "script-8p-it-full.txt"),
    (["deck", "--players", "10", "--lang", "en"], "deck-10p-en.txt"),
    (["roles", "--lang", "it"], "roles-it.txt"),
]


@pytest.mark.parametrize("args, name", CASES, ids=[name for _, name in CASES])
def test_output_matches_golden_file(run, request, args, name):
    result = run(*args)
    assert result.exit_code == 0, result.stderr
    path = GOLDEN / name
    if request.config.getoption("--update-golden"):
        temporary = path.with_name(path.name + ".tmp")
        temporary.write_text(result.stdout, encoding="utf-8")
        os.replace(temporary, path)
    assert path.exists(), f"no golden file {path.name}: run pytest with --update-golden and review it"
    assert result.stdout == path.read_text(encoding="utf-8")
