"""``narrate votes`` from a file and asked at the terminal, as a group would use it."""

import json

import pytest
from click.testing import CliRunner

from narrator.core.nights import reads_one_day
from narrator.games.loader import available_games, load_game
from narrator.shell.cli import cli
from tests.conftest import GAMES_DIR, make_env

ISSUE_EXAMPLE = """\
players:                 # seating order, clockwise
  - {name: Anna, card: lupo-mannaro, vote: Bruno}
  - {name: Bruno, card: mortovivo, vote: Dario}
  - {name: Carla, card: contadino, vote: Bruno}
  - {name: Dario, card: veggente, vote: Anna}
bewitched: null          # optional: the role id whose token the Apprendista Stregone turned
"""


@pytest.fixture
def votes_file(tmp_path):
    path = tmp_path / "partita.yaml"
    path.write_text(ISSUE_EXAMPLE, encoding="utf-8")
    return path


def test_json_has_exactly_the_documented_keys(run, votes_file):
    result = run("votes", str(votes_file), "--json", "--lang", "en")
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert {key: data[key] for key in list(data)[:5]} == {
        "votes_cast": {"Anna": 1, "Bruno": 2, "Carla": 0, "Dario": 1},
        "votes": {"Anna": 1, "Bruno": 0, "Carla": 0, "Dario": 3},
        "lynched": ["Dario"],
        "winning_sides": ["lupi"],
        "winners": ["Anna"],
    }
    assert list(data) == ["votes_cast", "votes", "lynched", "winning_sides", "winners", "explanation"]
    assert len(data["explanation"]) == 5 and data["explanation"][-1] == "Winners: Anna."


def test_readable_result_shows_the_transfer(run, votes_file):
    result = run("votes", str(votes_file), "--lang", "en")
    assert result.stdout.splitlines()[:5] == [
        "  player  card      voted for  votes  after passing",
        "  Anna    Werewolf  Bruno      1      1              wins",
        "  Bruno   Zombie    Dario      2      0",
        "  Carla   Villager  Bruno      0      0",
        "  Dario   Seer      Anna       1      3              lynched",
    ]
    assert "Lynched: Dario\nWinning side: Werewolves\nWinners: Anna\n" in result.stdout


def test_names_in_either_language_are_accepted_as_cards(run, tmp_path):
    path = tmp_path / "v.yaml"
    path.write_text("players:\n  - {name: A, card: Werewolf, vote: B}\n  - {name: B, card: Veggente, vote: A}\n"
                    "  - {name: C, card: villager, vote: A}\nbewitched: Villagers\n", encoding="utf-8")
    data = json.loads(run("votes", str(path), "--json").stdout)
    assert data["lynched"] == ["A"] and data["winning_sides"] == ["umani"] and data["winners"] == ["B"]


@pytest.mark.parametrize("players, message", [
    ("  - {name: Anna, card: contadino, vote: Zoe}\n  - {name: Bruno, card: veggente, vote: Anna}\n"
     "  - {name: Carla, card: lupo-mannaro, vote: Anna}\n",
     "narrate: Anna votes for 'Zoe', who is not playing (players: Anna, Bruno, Carla)"),
    ("  - {name: Anna, card: contadino, vote: Anna}\n  - {name: Bruno, card: veggente, vote: Anna}\n"
     "  - {name: Carla, card: lupo-mannaro, vote: Anna}\n",
     "narrate: Anna votes for themselves: everyone points at another player"),
    ("  - {name: Anna, card: contadino}\n", "narrate: {file}: players[0]: Anna has no vote: add 'vote: ...'"),
    ("  - {name: Anna, card: contadino, vote: Bruno}\n  - {name: Anna, card: veggente, vote: Carla}\n"
     "  - {name: Carla, card: lupo-mannaro, vote: Anna}\n",
     "narrate: two players are called 'Anna': give each player a different name"),
    ("  - {name: Anna, card: contadino, vote: Bruno}\n  - {name: Bruno, card: veggente, vote: Anna}\n",
     "narrate: Una Notte da Lupi takes 3 to 10 players; these ballots have 2"),
    ("  - {name: Anna, card: contadinx, vote: Bruno}\n",
     "narrate: {file}: players[0]: no role 'contadinx' — did you mean 'contadino'?"),
    ("  - {name: A, card: veggente, vote: B}\n  - {name: B, card: veggente, vote: A}\n"
     "  - {name: C, card: lupo-mannaro, vote: A}\n",
     "narrate: 2 players hold 'veggente' (A, B), but the box has 1: check the cards"),
    ("  - {name: A, card: veggente, vote: B}\n  - {name: B, card: contadino, vote: A}\n"
     "  - {name: C, card: lupo-mannaro, vote: A}\nbewitched: lupo-mannaro\n",
     "narrate: 'bewitched: lupo-mannaro' cannot be: one of veggente, massone, guastafeste, mortovivo, contadino"),
])
def test_bad_votes_files_are_one_line(run, tmp_path, players, message):
    path = tmp_path / "v.yaml"
    path.write_text("players:\n" + players, encoding="utf-8")
    result = run("votes", str(path))
    assert (result.exit_code, result.stdout, result.stderr) == (2, "", message.replace("{file}", str(path)) + "\n")


def test_malformed_votes_file_names_file_and_line(run, tmp_path):
    path = tmp_path / "v.yaml"
    path.write_text("players:\n  - {name: Anna, card: contadino, vote: Bruno\n  - {name: Bruno}\n", encoding="utf-8")
    result = run("votes", str(path))
    assert result.exit_code == 2
    assert result.stderr.startswith(f"narrate: {path}, line 3: malformed YAML: ")


def test_missing_votes_file(run, tmp_path):
    result = run("votes", str(tmp_path / "nope.yaml"))
    assert (result.exit_code, result.stderr) == (2, f"narrate: {tmp_path / 'nope.yaml'}: no such file\n")


def ask(env, keys, *args):
    return CliRunner().invoke(cli, ["votes", "--lang", "en", *args], obj=env, input="".join(k + "\n" for k in keys))


def test_interactive_entry_checks_each_answer_and_remembers_names(tmp_path):
    env = make_env(config_dir=tmp_path)
    keys = ["Anna, Bruno, Carla, Dario",
            "veggentee", "lupo mannaro", "Anna", "bruno",  # a typo is asked again; oneself is refused
            "Mortovivo", "Zoe", "dario",
            "villager", "Bruno",
            "Seer", "Anna",
            "werewolf"]  # Apprendista's token: a wolf is not a human role, asked again...
    keys.append("none")  # ...none
    result = ask(env, keys)
    assert result.exit_code == 0, result.output
    output = result.output
    assert "no role 'veggentee' — did you mean 'veggente'?" in output
    assert "'Anna' is not another player: one of Bruno, Carla, Dario" in output
    assert "'Zoe' is not another player" in output
    assert "'lupo-mannaro' cannot be: one of veggente, massone, guastafeste, mortovivo, contadino" in output
    assert "Lynched: Dario\nWinning side: Werewolves\nWinners: Anna" in output
    assert json.loads((tmp_path / "players.json").read_text()) == ["Anna", "Bruno", "Carla", "Dario"]
    again = ask(env, ["y", "contadino", "Bruno", "contadino", "Carla", "lupo-mannaro", "Anna", "veggente", "Carla",
                      ""], "--json")
    assert "Same players as last time (Anna, Bruno, Carla, Dario)?" in again.output
    data = json.loads(again.output.strip().splitlines()[-1])
    assert data["lynched"] == ["Carla"]  # Carla holds the wolf card: a human win
    assert (data["winning_sides"], data["winners"]) == (["umani"], ["Anna", "Bruno", "Dario"])


def test_interactive_names_option_and_bad_names(tmp_path):
    env = make_env(config_dir=tmp_path)
    result = ask(env, ["Anna, Anna, Bruno", "Anna, Bruno", "Anna, Bruno, Carla", "contadino", "Bruno", "contadino",
                       "Anna", "lupo-mannaro", "Anna", "none"])
    assert "two players are called 'Anna'" in result.output
    assert "a game has 3 to 10 players, not 2" in result.output
    assert result.exit_code == 0
    named = ask(env, ["contadino", "Bruno", "contadino", "Anna", "lupo-mannaro", "Anna", "none"], "--names",
                "Anna,Bruno,Carla")
    assert named.exit_code == 0 and "Same players" not in named.output


def settles_votes(game) -> bool:
    """Whether 'narrate votes FILE' settles the game's votes: the vote of a game of one night with
    rules, or a day of a game of many nights whose rules read a votes file."""
    return game.rules is not None and (not game.many_nights or reads_one_day(game.rules))


GAMES = {game_id: load_game(GAMES_DIR / game_id) for game_id in available_games(GAMES_DIR)}


@pytest.mark.parametrize("game_id", [game_id for game_id, game in GAMES.items() if settles_votes(game)])
def test_the_help_of_votes_describes_every_field_of_the_chosen_game_file(run, game_id):
    from narrator.core.vote import rules_of

    game = GAMES[game_id]
    if game.plays_rounds:
        assert reads_one_day(game.rules)
        fields = {"file": {*game.rules.FIELDS.values(), "game"}}
    else:
        questions = rules_of(game).questions(game)
        fields = {"file": {"players", "game", *(q.key for q in questions if not q.per_player)},
                  "player": {"name", "card", "vote", *(q.key for q in questions if q.per_player)}}
    for code, language in game.languages.items():
        assert {level: set(described) for level, described in language.votes_file.items()} == fields, code
    for lang, heading in (("en", "A votes file of"), ("it", "Un file di voti di")):
        if lang not in game.languages:
            continue
        shown = run("--game", game_id, "votes", "--help", env=make_env({"LANG": f"{lang}_{lang.upper()}.UTF-8"})).stdout
        assert f"{heading} {game.title} (YAML)" in shown
        language = game.languages[lang]
        for level in fields:
            for field, text in language.votes_file[level].items():
                assert f"  {field}" in shown and text.split()[0] in shown, (lang, field)


def test_the_help_of_votes_names_the_one_night_ultimate_werewolf_fields(run):
    shown = run("--game", "one-night-ultimate-werewolf", "votes", "--help",
                env=make_env({"LANG": "en_GB.UTF-8"})).stdout
    for line in ("  copied    for whoever holds the Doppelgänger, the role she copied at night",
                 "  artifact  the artifact lying on their card, when the Curator is in the deck"):
        assert line in shown
