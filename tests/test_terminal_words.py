"""What a moderator reads at the terminal in a game of many nights, line by line: the deal asked
before the first night is said (with a sound device or without one), and the prompts and notes
of each step worded for a person.

Each game is played whole in the process with a fake clock (test_game_lupus's planned_game), as
the group would type it; what it printed is then read as a careful moderator reads it."""

import pytest
from test_day import FakeClock, RecordingSpeaker
from test_game_lupus import game_command, invoke, lupus_env, planned_game, saved_game
from test_rounds import NAMES

from narrator.games import GAMES_DIR
from narrator.games.loader import load_game

MANY_NIGHTS = [("learts-variant", 10), ("lupus-in-tabula", 8), ("wherewolf-in-tabula", 12),
               ("wherewolf-revised", 12)]
DEAL = {"en": "Deal the cards; press Enter", "it": "Distribuite le carte; premete Invio"}
FIRST_DAY = {"en": "Day 1.", "it": "Giorno 1."}


def without_sound(env):
    """The environment of a laptop with no sound output and no command-line player: the night's
    lines are shown to be read aloud, and the sentences with names are shown only."""
    env.player = None
    env.sound_problem = lambda: "no sound output device (none here)"
    env.which = lambda program: None
    return env


def played(tmp_path, game_id: str, players: int, language: str, sound: bool, seed: int = 5):
    """A whole game at the terminal (the Enter of the deal first): the planned rounds and the output."""
    game = load_game(GAMES_DIR / game_id)
    env = lupus_env(tmp_path, language, seed=31)
    if not sound:
        without_sound(env)
    rounds, typed = planned_game(game, env, players, seed=seed)
    result = invoke(env, game_command(game_id, NAMES)(players), ["", *typed])
    assert result.exit_code == 0, result.output + result.stderr
    assert saved_game(env)["entries"] == rounds.entries  # the Enter went to the deal, every answer to its step
    return rounds, result.output


@pytest.mark.parametrize(("game_id", "players"), MANY_NIGHTS)
def test_without_sound_the_deal_is_asked_before_the_first_night_is_said(tmp_path, game_id, players):
    """(With a sound device, every whole game's test types the deal's Enter first.)"""
    language = "it" if game_id == "wherewolf-in-tabula" else "en"
    _rounds, output = played(tmp_path, game_id, players, language, sound=False)
    deal = output.index(DEAL[language])
    assert deal < output.index(FIRST_DAY[language])
    night = output[:output.index(FIRST_DAY[language])]
    assert output.count(DEAL[language]) == 1
    assert "»" not in night[:deal] and "0:0" not in night[:deal]  # not a line of the night before the deal
    assert "»" in night[deal:]  # the night's lines, shown to be read aloud once the cards are out


def test_a_one_night_game_without_sound_waits_for_the_deal_before_the_file_is_started(tmp_path, monkeypatch):
    from click.testing import CliRunner
    from conftest import make_env

    from narrator.shell.cli import cli

    monkeypatch.chdir(tmp_path)
    clock = FakeClock()
    env = without_sound(make_env(clock=clock, sleep=clock.sleep, speaker=lambda: RecordingSpeaker(clock),
                                 data_home=tmp_path / "data"))
    result = CliRunner().invoke(cli, ["--players", "4", "--lang", "en", "--no-ambience", "--day-seconds", "20",
                                      "--names", "Anna,Bruno,Carla,Dario"], obj=env, input="q\n")
    assert "Deal the cards; press Enter when everyone has theirs" in result.output
    assert "Press Enter as it starts playing" not in result.output  # q at the deal: the night is not followed
    assert result.exit_code == 130 and "Time is up" not in result.output  # q: stopped


def test_cards_typed_by_the_moderator_are_not_asked_to_be_dealt_again(tmp_path):
    from test_game_lupus import DEALT, command

    env = without_sound(lupus_env(tmp_path))
    result = invoke(env, [*command(8, NAMES[:8]), "--dealt"], [*DEALT, "q"])
    assert "Everyone has their card: press Enter to start the night" in result.output
    assert "Deal the cards" not in result.output and result.exit_code == 130
