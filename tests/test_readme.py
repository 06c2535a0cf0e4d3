"""The README's two commands are the ones that work, and CI runs the test one exactly."""

import re
import shlex

import click
import pytest
from conftest import make_env

from narrator.shell.cli import cli
from tests.conftest import REPO


def readme_commands():
    text = (REPO / "README.md").read_text(encoding="utf-8")
    sections = {}
    for title in ("Play", "Run the tests"):
        match = re.search(rf"^## {title}\n+```sh\n(.+?)\n```", text, flags=re.M | re.S)
        assert match, f"README has no '## {title}' section with one sh block"
        sections[title] = match[1].strip()
    return sections


def test_readme_play_command_installs_and_runs_narrate_for_six():
    command = readme_commands()["Play"]
    assert "\n" not in command
    assert "pip install ." in command and command.endswith("narrate --players 6")


def test_ci_runs_exactly_the_readme_test_command():
    command = readme_commands()["Run the tests"]
    assert "\n" not in command
    ci = (REPO / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert ci[-1] == command


def use_examples():
    text = (REPO / "README.md").read_text(encoding="utf-8")
    block = re.search(r"^## Use\n.+?```sh\n(.+?)\n```", text, flags=re.M | re.S)[1]
    return [line.split("  #")[0].strip() for line in block.splitlines() if line.strip()]


def test_the_readme_says_how_to_reach_narrate_after_the_play_command():
    text = (REPO / "README.md").read_text(encoding="utf-8")
    assert ". .venv/bin/activate" in text


@pytest.mark.parametrize("example", use_examples())
def test_every_use_example_is_a_command_line_narrate_accepts(example):
    """Parsed by the real command line, down to the subcommand: every option exists, every value fits."""
    words = shlex.split(example)
    assert words[0] == "narrate"
    command, name, args, parent = cli, "narrate", words[1:], None
    while True:
        at = next((i for i, word in enumerate(args) if isinstance(command, click.Group) and word in command.list_commands(None)),
                  len(args))
        # with its subcommand, if any; --game needs the environment, as in a real run
        context = command.make_context(name, args[:at + 1], parent=parent, **({} if parent else {"obj": make_env()}))
        if at == len(args):
            return
        command, name, args, parent = command.get_command(None, args[at]), args[at], args[at + 1:], context
