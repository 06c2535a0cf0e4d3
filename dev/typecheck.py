"""Type-check narrator/ and every game's rules.py, and the seam between them, with mypy (pinned in
pyproject's test extra, set up in its [tool.mypy]). tests/test_types.py runs it.

    python dev/typecheck.py                  # narrator/ and scripts/*/rules.py
    python dev/typecheck.py --games FOLDER   # the games in FOLDER instead of scripts/
    python dev/typecheck.py --games-only     # the games' rules.py and what they import of narrator/ only
    python dev/typecheck.py --keep FOLDER    # also leave the modules written for mypy there

It prints mypy's messages, naming each game's own rules.py, and exits with mypy's status.

Every game's rules module is called rules.py, in a folder whose name has hyphens: no module name
mypy could give it. So each is copied into a temporary folder as rules_<game>.py, beside
seam_<game>.py, written here from the contract and checked with it:

- a game of one night: the module is assigned to a ``narrator.core.vote.VoteRules``, so mypy
  checks every name and function against the contract's;
- a game of many nights (``narrator.core.nights``): a hook is called by keyword and takes any of
  the contract's parameters, which a Protocol over the module cannot say. So for each hook the
  game has, the seam has a function with the contract's own signature (``NightsRules``) that
  calls the game's by keyword with the parameters it takes, as ``narrator.core.nights.bind``
  does when the game is played: mypy checks that each of them takes the type the contract hands
  on, and that what the hook returns is what the contract says. Each of the contract's names the
  game has is assigned to the contract's type; the optional parts (``DrawnSet``, ``OneDay``),
  called as they are written, are checked as a game of one night is. The rules annotate every
  parameter of a hook, and its result (``check_rules`` refuses a game that does not), so that
  nothing is left unchecked.
"""

import argparse
import ast
import builtins
import inspect
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from narrator.core import nights  # noqa: E402
from narrator.core.errors import NarratorError  # noqa: E402
from narrator.games.loader import load_rules  # noqa: E402
from narrator.games.yamlfile import read_yaml  # noqa: E402

RULES_FILE = "rules.py"
CONTRACT = "narrator.core.nights"


def module_name(game_id: str) -> str:
    return game_id.replace("-", "_")


def _names_in(annotation: str) -> set[str]:
    """The names an annotation (source text) uses, beyond the builtins."""
    return {node.id for node in ast.walk(ast.parse(annotation, mode="eval"))
            if isinstance(node, ast.Name) and not hasattr(builtins, node.id)}


def many_nights_seam(game_id: str, module) -> tuple[str, dict[int, str]]:
    """The seam module of a game of many nights, and which name or hook each of its lines checks."""
    body: list[tuple[str, str | None]] = []  # (line, the name or hook it checks)
    used: set[str] = set()
    annotations = nights.NightsRules.__annotations__
    for name in nights.NAMES:
        if hasattr(module, name):
            body.append((f"{name}: {annotations[name]} = rules.{name}", name))
            used |= _names_in(annotations[name])
    for hook, signature in nights.functions().items():
        given = getattr(module, hook, None)
        if given is None:  # left to its default
            continue
        taken = inspect.signature(given).parameters
        parameters = ", ".join(f"{name}: {parameter.annotation}" for name, parameter in signature.parameters.items())
        arguments = ", ".join(f"{name}={name}" for name in taken)
        body += [("", None), ("", None),
                 (f"def {hook}({parameters}) -> {signature.return_annotation}:", None),
                 (f"    return rules.{hook}({arguments})", f"{hook}()")]
        used |= {name for parameter in signature.parameters.values() for name in _names_in(parameter.annotation)}
        used |= _names_in(signature.return_annotation)
    for part, names in (("DrawnSet", nights.DRAWN_SET), ("OneDay", nights.ONE_DAY)):
        if all(callable(getattr(module, name, None)) for name in names):
            body += [("", None), ("", None), (f"_{part}: {part} = rules", ", ".join(f"{name}()" for name in names))]
            used.add(part)
    head = [(f'"""The seam between {game_id}\'s rules.py and {CONTRACT} (written by dev/typecheck.py)."""', None),
            ("", None),
            (f"import rules_{module_name(game_id)} as rules", None),
            (f"from {CONTRACT} import {', '.join(sorted(used))}", None),
            ("", None)]
    return _numbered(head + body)


def one_night_seam(game_id: str) -> tuple[str, dict[int, str]]:
    return _numbered([(f'"""The seam between {game_id}\'s rules.py and narrator.core.vote (written by '
                       f'dev/typecheck.py)."""', None),
                      ("", None),
                      (f"import rules_{module_name(game_id)} as rules", None),
                      ("from narrator.core.vote import VoteRules", None),
                      ("", None),
                      ("_VoteRules: VoteRules = rules", "the module")])


def _numbered(lines: list[tuple[str, str | None]]) -> tuple[str, dict[int, str]]:
    return ("\n".join(line for line, _ in lines) + "\n",
            {number: what for number, (_, what) in enumerate(lines, start=1) if what is not None})


def prepare(games: Path, folder: Path) -> tuple[list[Path], dict[str, str]]:
    """The modules for mypy, written into ``folder``, and how its messages name each one's lines:
    {written file: the game's rules.py, or its rules.py and the seam's line numbers}."""
    files, where = [], {}
    for game_folder in sorted(path for path in games.iterdir() if (path / RULES_FILE).is_file()):
        game_id, rules_path = game_folder.name, game_folder / RULES_FILE
        many = read_yaml(game_folder / "game.yaml").get("nights", "one") == "many"
        rules = load_rules(game_folder, many)  # checked against the contract, as when the game is played
        copy = folder / f"rules_{module_name(game_id)}.py"
        shutil.copyfile(rules_path, copy)
        text, lines = many_nights_seam(game_id, rules.module) if many else one_night_seam(game_id)
        seam = folder / f"seam_{module_name(game_id)}.py"
        seam.write_text(text, encoding="utf-8")
        shown = _shown(rules_path)
        where[str(copy)] = shown
        where[str(seam)] = (shown, lines)
        files += [copy, seam]
    return files, where


def _shown(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(ROOT))
    except ValueError:
        return str(path)


def renamed(output: str, where: dict) -> str:
    """mypy's messages naming each game's own rules.py: ``<rules.py>: start(): error: ...`` for the seam."""
    out = []
    for line in output.splitlines():
        path = next((path for path in where if line.startswith(path + ":")), None)  # (C:\... on Windows)
        rest = line[len(path) + 1:] if path is not None else ""
        if path is not None and isinstance(where[path], str):
            line = f"{where[path]}:{rest}"
        elif path is not None:
            shown, lines = where[path]
            number, _, message = rest.partition(":")
            what = lines.get(int(number), "the contract") if number.isdigit() else "the contract"
            line = f"{shown}: {what} against the contract:{message}"
        out.append(line)
    return "\n".join(out) + ("\n" if out else "")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=Path, default=ROOT / "scripts", help="the folder of the games (scripts/)")
    parser.add_argument("--cache-dir", help="mypy's cache (default: .mypy_cache in the checkout)")
    parser.add_argument("--games-only", action="store_true",
                        help="check the games' rules.py and what they import, not the rest of narrator/")
    parser.add_argument("--keep", type=Path, help="leave the modules written for mypy in this folder")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="narrator-typecheck-") as temporary:
        folder = args.keep or Path(temporary)
        folder.mkdir(parents=True, exist_ok=True)
        try:
            files, where = prepare(args.games, folder)
        except NarratorError as error:  # a game that does not load: its rules break the contract
            print(f"typecheck: {error}", file=sys.stderr)
            return 1
        command = [sys.executable, "-m", "mypy", "--config-file", str(ROOT / "pyproject.toml"),
                   *(["--cache-dir", args.cache_dir] if args.cache_dir else []),
                   *([] if args.games_only else ["narrator"]), *map(str, files)]
        result = subprocess.run(command, cwd=ROOT, capture_output=True, text=True)
    print(f"typecheck: {'' if args.games_only else 'narrator/ and '}{len(files) // 2} games' rules.py "
          f"({_shown(args.games)})")
    sys.stdout.write(renamed(result.stdout, where))
    sys.stderr.write(result.stderr)
    return result.returncode


if __name__ == "__main__":
    sys.exit(main())
