"""The README's two commands are the ones that work, and CI runs the test one exactly."""

import re

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
