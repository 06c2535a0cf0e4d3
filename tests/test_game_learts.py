"""LeartS' variant as a moderator meets it at the terminal: a 10-player game played from the first
night to a winner in Italian and in English, a game stopped in the middle and resumed, the
moderator's secret table (cards, and who is away from home once the movements are known), and
``narrate replay`` on a record file.

The answers typed are those of a game played with random choices in the core (test_game_lupus's
planned_game): the terminal must end in the same game, entry for entry."""

import json

import pytest
from test_game_lupus import (
    follow_on_a_tablet,
    game_command,
    invoke,
    lupus_env,
    planned_game,
    play_stopped_and_resumed,
    saved_game,
    saved_game_in,
)
from test_rounds import NAMES

from narrator.games import GAMES_DIR
from narrator.games.loader import load_game

LEARTS = "learts-variant"


@pytest.fixture(scope="module")
def game():
    return load_game(GAMES_DIR / LEARTS)


command = game_command(LEARTS, NAMES)


@pytest.mark.parametrize("language", ["it", "en"])
def test_a_ten_player_game_plays_to_a_winner(game, tmp_path, language):
    env = lupus_env(tmp_path, language, seed=31)
    rounds, typed = planned_game(game, env, 10, seed=7, **{"amanti-scelgono": True})
    result = invoke(env, command(10, "amanti-scelgono=on"), ["", *typed])  # Enter: the cards are dealt
    assert result.exit_code == 0, result.output
    saved = saved_game(env)
    assert saved["entries"] == rounds.entries and saved["over"] is True
    over = rounds.step
    words = game.languages[language]
    assert words.line(f"end.{over.sides[0]}") in result.output
    for name, role_id in rounds.setup.cards.items():  # the moderator's secret table
        assert f"{name.ljust(5)}  {words.role_name(role_id)}" in result.output
    said = [text for _time, text in env.speaker_said]
    dead = [name for name in rounds.setup.seating if name in over.state.dead]
    assert dead and all(any(name in text for text in said) for name in dead)  # the dead are said by name
    assert ("Away from home" if language == "en" else "Fuori casa") in result.output


def test_a_game_stopped_in_the_middle_resumes_where_it_was(game, tmp_path):
    env = lupus_env(tmp_path, "en", seed=12)
    rounds, typed = planned_game(game, env, 10, seed=3)
    play_stopped_and_resumed(env, rounds, typed, command(10))


def test_the_speaker_box_follows_the_game_to_its_end(game, tmp_path):
    """The game served to a tablet: every part of every night is new audio for the tablets, each
    day's result and the end are shown on them, and the laptop plays the same game as the core."""
    env = lupus_env(tmp_path)
    rounds, typed = planned_game(game, env, 8, seed=2)  # two nights and two days
    typed = [rounds.setup.cards[name] for name in rounds.setup.seating] + typed  # --dealt: the cards typed
    seen, output = follow_on_a_tablet(tmp_path, [*command(8, day_seconds=2), "--dealt"], typed)
    assert saved_game_in(tmp_path / "data" / "narrator")["entries"] == rounds.entries
    parts = sum(entry["kind"] == "phase" for entry in rounds.entries)
    assert parts <= len(seen["nights"]) <= 2 * parts
    days = [entry for entry in rounds.entries if entry["kind"] == "lynch"]
    assert len(seen["results"]) == len(days) + 1  # each day's result, then the end
    end = game.languages["en"].line(f"end.{rounds.step.sides[0]}")
    assert seen["results"][-1][0] == end and end in output


RECORD = """\
game: learts-variant
players:
  - {name: Olga, card: lupo-capobranco}
  - {name: Piero, card: lupo-docile}
  - {name: Rita, card: amante}
  - {name: Sara, card: amante}
  - {name: Teo, card: sindaco}
  - {name: Ugo, card: becchino}
  - {name: Vera, card: martire}
  - {name: Walter, card: guardia}
  - {name: Zoe, card: cortigiana}
rounds:
  - night: {lupi: {Olga: Rita, Piero: Ugo}, guardia: Ugo}
  - day: {lynched: Vera}
  - night: {martire: Rita, cortigiana: Ugo, guardia: Teo, lupi: {Olga: Teo, Piero: Ugo}}
  - day: {lynched: Teo, sindaco: Teo}
  - night: {guardia: Teo, lupi: {Olga: Walter, Piero: Rita}}
"""


def game_words(lang):
    return load_game(GAMES_DIR / LEARTS).languages[lang].vote


def test_narrate_replay_settles_a_record_file(run, tmp_path):
    path = tmp_path / "partita.yaml"
    path.write_text(RECORD, encoding="utf-8")
    result = run("replay", str(path), "--json")
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert [item.get("dead") for item in data["rounds"]] == [["Rita"], ["Vera"], ["Sara", "Ugo", "Zoe"], [],
                                                               ["Rita"]]
    assert data["winner"] == {"sides": ["lupi"], "players": ["Olga", "Piero"]}
    text = run("replay", str(path), "--lang", "en")
    assert text.exit_code == 0, text.stderr
    assert "  " + game_words("en")["reason_pardoned"].format(name="Teo") + "\n" in text.stdout  # day 2's pardon
    assert text.stdout.rstrip().endswith("Winners: Olga, Piero")
    assert "  Courtesan: " in text.stdout and "cortigiana:" not in text.stdout  # the turn's name, not its id
    bad = tmp_path / "bad.yaml"
    bad.write_text(RECORD.replace("martire: Rita", "martire: Olga"), encoding="utf-8")
    refused = run("replay", str(bad))
    assert refused.exit_code == 2 and len(refused.stderr.splitlines()) == 1
    assert "round 3: martire:" in refused.stderr
    wrong_game = run("--game", "lupus-in-tabula", "replay", str(path))
    assert wrong_game.exit_code == 2 and "a record of learts-variant" in wrong_game.stderr


def test_the_readme_s_record_replays(run, tmp_path):
    from conftest import REPO

    readme = (REPO / "README.md").read_text(encoding="utf-8")
    block = readme.split("## A game record", 1)[1].split("```yaml\n", 1)[1].split("```", 1)[0]
    path = tmp_path / "record.yaml"
    path.write_text(block, encoding="utf-8")
    result = run("replay", str(path), "--json")
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)["rounds"] == [
        {"night": 1, "dead": ["Bruno", "Carla", "Fabio", "Marco"],
         "answers": {"cortigiana": "accolta", "ficcanaso": "fuori", "medium": "oscura"}},
        {"day": 1, "dead": ["Ivo"], "lynched": "Ivo"}]


def test_narrate_votes_points_to_replay(run, tmp_path):
    result = run("--game", LEARTS, "votes", "--lang", "en")
    assert (result.exit_code, result.stderr) == (
        2, "narrate: LeartS' variant settles each day's vote as the game is played; 'narrate replay FILE' settles a "
           "whole game record (the README shows one)\n")
    path = tmp_path / "day.yaml"
    path.write_text("votes: {Anna: Bruno}\n", encoding="utf-8")
    result = run("--game", LEARTS, "votes", str(path), "--lang", "en")
    assert result.exit_code == 2 and "narrate replay FILE" in result.stderr


@pytest.mark.parametrize("record", [
    "[1, 2]", "players: 3\nrounds: []", "players: [{name: [A, b], card: lupo}]\nrounds: []",
    RECORD.replace("card: amante}", "card: amanti-segreti}", 1), RECORD.replace("rounds:", "rounds: 7\nextra:"),
    RECORD + "  - night: [Olga]\n", RECORD + "  - day: {lynched: [Olga, Piero]}\n",
    RECORD.replace("lupi: {Olga: Rita, Piero: Ugo}", "lupi: [Olga, Rita]"),
    RECORD.replace("guardia: Ugo}", "guardia: {Ugo: 1}}"), RECORD.replace("guardia: Ugo}", "guardia: 7}"),
    RECORD.replace("game: learts-variant", "game: [x]"), RECORD.replace("players:", "options: {amanti: on}\nplayers:"),
    RECORD.replace("players:", "options: {amanti-scelgono: maybe}\nplayers:"),
    RECORD.replace("{lynched: Vera}", "{votes: {Olga: [1]}}"), RECORD.replace("{lynched: Vera}", "{votes: 3}"),
    RECORD.replace("- {name: Zoe, card: cortigiana}", "- {name: Olga, card: cortigiana}"),
    "players: [{name: A, card: lupo}]\nrounds: [{night: {}}]",
])
def test_a_broken_record_is_one_line_never_a_traceback(run, tmp_path, record):
    path = tmp_path / "broken.yaml"
    path.write_text(record, encoding="utf-8")
    result = run("--game", LEARTS, "replay", str(path))
    assert result.exit_code == 2 and len(result.stderr.splitlines()) == 1, result.stderr
    assert result.stderr.startswith("narrate: ")
