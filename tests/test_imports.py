"""Quick commands stay quick: they import nothing beyond the standard library, click and PyYAML.

Audio, text-to-speech and numpy belong to the commands that make sound; the timing of these
commands is measured in benchmarks/, this only guards what they load.
"""

import json
import os
import re
import subprocess
import sys

import pytest

ALLOWED = {"narrator", "click", "yaml", "_yaml", "platformdirs"}  # platformdirs: a few stdlib calls
REPORT = """
top = {name.split(".")[0] for name in sys.modules}
sys.stderr.write("\\nMODULES=" + json.dumps(sorted(top - set(sys.stdlib_module_names))))
"""
PROBE = """
import json, sys
sys.argv = ["narrate"] + json.loads(sys.argv[1])
from narrator.shell.cli import cli
try:
    cli.main(prog_name="narrate")
except SystemExit:
    pass
""" + REPORT
BASELINE = "import json, sys" + REPORT


def modules_after(code, *args):
    process = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True)
    return set(json.loads(process.stderr.rsplit("MODULES=", 1)[1]))


@pytest.mark.parametrize("args", [["--help"], ["script", "--players", "10"], ["deck", "--players", "6"],
                                  ["roles"], ["render", "--help"]])
def test_quick_commands_import_no_heavy_modules(args):
    # The first run on a machine compiles the interface's catalog with Babel and keeps it in the
    # cache (see narrator.shell.translation); every run after that reads the compiled one with the standard library.
    subprocess.run([sys.executable, "-m", "narrator", "--help"], capture_output=True, check=True)
    # Whatever site hooks load at every interpreter start is not ours to count.
    loaded = modules_after(PROBE, json.dumps(args)) - modules_after(BASELINE)
    cython = {name for name in loaded if name == "cython_runtime" or name.startswith("_cython_")}  # PyYAML's C loader
    assert loaded - ALLOWED - cython == set()
    assert "narrator" in loaded and "click" in loaded


HELP_PROBE = """
import json, sys
sys.argv = ["narrate"] + json.loads(sys.argv[1])
from narrator.shell.launch import main
try:
    main()
except SystemExit:
    pass
sys.stderr.write("\\nMODULES=" + json.dumps(sorted(sys.modules)))
"""
# What the core and the games are made of, that narrate --help needs none of (it lists commands).
GAME_MODULES = {"narrator.core.game", "narrator.core.deck", "narrator.core.script", "narrator.core.views",
                "narrator.core.card", "narrator.core.vote", "narrator.core.state", "narrator.games.loader"}
# Every command but the one called is imported only when called ('narrate --help' lists them from a table).
OTHER_COMMANDS = {"narrator.shell.cli.card", "narrator.shell.cli.votes", "narrator.shell.cli.flow",
                  "narrator.shell.cli.render", "narrator.shell.cli.resume", "narrator.shell.cli.voices",
                  "narrator.shell.cli.doctor", "narrator.shell.cli.replay", "narrator.shell.cli.day"}


@pytest.mark.parametrize("args, unwanted", [(["--help"], {"yaml", "platformdirs", *GAME_MODULES, *OTHER_COMMANDS}),
                                            (["script", "--players", "10"], {"yaml", "platformdirs", *OTHER_COMMANDS}),
                                            (["deck", "--players", "6"], {"yaml", "platformdirs", *OTHER_COMMANDS})])
def test_a_warm_start_parses_no_yaml_and_help_loads_no_game(args, unwanted):
    """Start-up speed (benchmarks/startup.py): PyYAML and a game's dataclasses were most of it.
    The game's files come parsed from the cache once read (narrator.shell.yamlcache)."""
    def loaded():
        process = subprocess.run([sys.executable, "-c", HELP_PROBE, json.dumps(args)], capture_output=True, text=True,
                                 env={**os.environ, "LANG": "C.UTF-8"})
        return set(json.loads(process.stderr.rsplit("MODULES=", 1)[1]))

    loaded()  # the first run reads the files and keeps them parsed
    assert loaded() & unwanted == set()


def _imported(path) -> set[str]:
    import ast

    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return names


def test_the_layers_point_one_way():
    """narrator/core uses nothing else of narrator; narrator/games (the plugins and their loader)
    uses the core; narrator/shell uses both. The speaker box uses neither the command line nor
    click (the game flow hands it what to print with); the sound (shell/audio) is given what it
    needs, never the Environment that sits above it."""
    from pathlib import Path

    package = Path(__file__).resolve().parent.parent / "narrator"
    forbidden = {"core": ("narrator.games", "narrator.shell", "click"),
                 "games": ("narrator.shell", "click")}
    wrong = []
    for path in sorted(package.rglob("*.py")):
        parts = path.relative_to(package).parts
        imported = _imported(path)
        if parts[:2] == ("shell", "audio"):  # below the environment, the commands and the speaker box
            wrong += [f"{path.name} imports {name}" for name in imported
                      if name.startswith(("narrator.shell.environment", "narrator.shell.cli", "narrator.shell.speakerbox",
                                          "narrator.shell.doctor"))]
        elif parts[:2] == ("shell", "speakerbox"):
            wrong += [f"{path.name} imports {name}" for name in imported
                      if name == "click" or name.startswith("narrator.shell.cli")]
        elif parts[0] in forbidden:
            wrong += [f"{'/'.join(parts)} imports {name}" for name in imported if name.startswith(forbidden[parts[0]])]
    assert wrong == []


def test_the_top_level_shows_the_layers():
    from pathlib import Path

    package = Path(__file__).resolve().parent.parent / "narrator"
    modules = sorted(path.name for path in package.glob("*.py"))
    assert modules == ["__init__.py", "__main__.py"]
    assert {"core", "games", "shell"} <= {path.name for path in package.iterdir() if path.is_dir()}


def project_words() -> set[str]:
    """narrate's own words: its commands and their options, wherever they are spoken of in the code."""
    import click

    from narrator.shell.cli import cli

    words, commands = set(), [cli]
    while commands:
        command = commands.pop()
        words |= {option.lstrip("-") for param in command.params for option in getattr(param, "opts", ())}
        if isinstance(command, click.Group):
            words |= set(command.list_commands(None))
            commands += [command.get_command(None, name) for name in command.list_commands(None)]
    return words


def test_the_project_s_own_words_are_told_from_a_game_s():
    words = project_words()
    assert {"doctor", "replay", "votes", "card", "speaker-box", "lang"} <= words
    assert not words & {"lupo-mannaro", "veggente", "villico", "werewolf"}


def test_no_generic_module_names_a_game_s_roles_sides_turns_or_marks():
    """A game is its folder: the code in narrator/ (the core, the loader, the shell) never names one
    of a shipped game's roles, sides, turns or marks, nor the words of a game's day, as a string or as a
    name (docstrings aside)."""
    import ast
    from pathlib import Path

    from narrator.games import GAMES_DIR
    from narrator.games.loader import available_games, load_game

    names = {"sword", "shield"}  # Lupus in Tabula's marks (La Minaccia Fantasma): the core's are plus and minus
    # ...and the words of a game's day, in any case, inside any string or name: its dead ("ghosts"),
    # the card ties go to, the Gufo's suspect, the two suspects and their runoff.
    day_words = re.compile(r"ghost|fantasm|benvenuto|welcome|gufat|indiziat|ballottagg", re.IGNORECASE)
    for game_id in available_games(GAMES_DIR):
        game = load_game(GAMES_DIR / game_id)
        names |= {role.id for role in game.roles} | {role.side for role in game.roles}
        names |= {slot.id for slot in game.night.slots}
    names -= project_words()  # a game may have a 'doctor' although 'narrate doctor' is a command
    identifiers = {name.replace("-", "_") for name in names}
    package = Path(__file__).resolve().parent.parent / "narrator"
    found = []
    for path in sorted(package.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                      if isinstance(node, ast.Module | ast.FunctionDef | ast.ClassDef) and node.body
                      and isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant)}
        for node in ast.walk(tree):
            text = node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None
            if text is not None and id(node) not in docstrings and (text in names or day_words.search(text)):
                found.append(f"{path.name}:{node.lineno} '{text}'")
            word = node.id if isinstance(node, ast.Name) else node.attr if isinstance(node, ast.Attribute) else None
            word = word or (node.name if isinstance(node, ast.FunctionDef | ast.ClassDef) else None)
            if word in identifiers or (word and day_words.search(word)):
                found.append(f"{path.name}:{node.lineno} {word}")
    assert found == []
