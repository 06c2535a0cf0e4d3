"""The command line as a user meets it: exact output, help everywhere, one-line errors."""

import json
import os
import re
import subprocess
import sys

import pytest
import yaml

from narrator import __version__
from narrator.games.loader import available_games, load_game
from narrator.shell.cli import cli
from tests.conftest import GAMES_DIR, RecordingPlayer, make_env

DECK_6_TEXT = """\
Una Notte da Lupi: mazzo per 6 giocatori (9 carte)
     carta         id            fazione  notte
  2  Lupo Mannaro  lupo-mannaro  Lupi     1
  1  Veggente      veggente      Umani    2
  2  Massone       massone       Umani    3
  1  Guastafeste   guastafeste   Umani    5
  1  Truffatore    truffatore    Umani    7
  2  Contadino     contadino     Umani    -
Ordine della notte: Lupi Mannari, Veggente, Massoni, Guastafeste, Truffatore
Una carta coperta a ogni giocatore, due coperte al centro e una nella scatola, senza guardarla. \
Ognuno guarda in segreto la propria carta e la rimette coperta davanti a sé. \
I gettoni dei personaggi del mazzo vanno al centro del tavolo.
"""
DECK_6_TEXT_EN = """\
Una Notte da Lupi: deck for 6 players (9 cards)
     card          id            side        night
  2  Werewolf      lupo-mannaro  Werewolves  1
  1  Seer          veggente      Humans      2
  2  Mason         massone       Humans      3
  1  Troublemaker  guastafeste   Humans      5
  1  Robber        truffatore    Humans      7
  2  Villager      contadino     Humans      -
Night order: Werewolves, Seer, Masons, Troublemaker, Robber
One card face down to each player, two face down in the centre and one back in the box, unseen. \
Everyone looks at their own card in secret and puts it back face down in front of them. \
The tokens of the deck's roles go in the middle of the table.
"""

def test_version(run):
    result = run("--version")
    assert (result.exit_code, result.stdout) == (0, f"narrate {__version__}\n")


def test_no_arguments_shows_help(run):
    result = run()
    assert result.exit_code == 0
    assert result.stdout.startswith("Usage: narrate [OPTIONS]")
    assert "Commands:" in result.stdout and "--players" in result.stdout


@pytest.mark.parametrize("command", [[]] + [[name] for name in cli.list_commands(None)])
def test_every_command_has_help_with_an_example(run, command):
    result = run(*command, "--help")
    assert result.exit_code == 0
    assert "Example" in result.stdout
    assert "narrate " + " ".join(command) in result.stdout


def games_by_range() -> dict[tuple[int, int], str]:
    """A game for each range of players the games have (the first in order of its id)."""
    found: dict[tuple[int, int], str] = {}
    for game_id in available_games(GAMES_DIR):
        game = load_game(GAMES_DIR / game_id)
        found.setdefault((game.min_players, game.max_players), game_id)
    return found


@pytest.mark.parametrize("game, players", [(game_id, f"{low}-{high}") for (low, high), game_id in games_by_range().items()])
@pytest.mark.parametrize("command", [[], ["card"]])
def test_the_help_of_players_gives_the_chosen_games_range(run, game, players, command):
    help_text = " ".join(run("--game", game, *command, "--help").stdout.split())
    assert f"-p, --players N How many are playing ({players}). Without --deck" in help_text


@pytest.mark.parametrize("command, words", [(["games"], ("title", "titolo")),
                                           (["doctor"], ("Text-to-speech", "Sintesi vocale"))])
def test_the_commands_that_only_show_things_answer_in_the_language_asked(run, command, words):
    english, italian = words
    assert english in run(*command, "--lang", "en").stdout
    assert italian in run(*command, "--lang", "it").stdout


def test_deck_exact_output(run):
    result = run("deck", "--players", "6", "--lang", "it")
    assert (result.exit_code, result.stdout, result.stderr) == (0, DECK_6_TEXT, "")
    result = run("deck", "--players", "6")  # the locale's language (English in these tests)
    assert (result.exit_code, result.stdout, result.stderr) == (0, DECK_6_TEXT_EN, "")


def test_deck_json(run):
    result = run("deck", "-p", "3", "--format", "json", "--lang", "en")
    assert result.exit_code == 0
    assert json.loads(result.stdout) == {
        "game": "una-notte-da-lupi", "players": 3, "cards": 6,
        "deck": {"lupo-mannaro": 2, "veggente": 1, "guastafeste": 1, "truffatore": 1, "contadino": 1},
        "names": {"lupo-mannaro": "Werewolf", "veggente": "Seer", "guastafeste": "Troublemaker",
                  "truffatore": "Robber", "contadino": "Villager"},
        "night_order": ["lupo-mannaro", "veggente", "guastafeste", "truffatore"],
        "centre": 2, "box": 1,
    }


def test_deck_from_a_comma_list_with_players_inferred(run):
    result = run("deck", "--deck", "Lupi Mannari x2, Seer, truffatore, guastafeste, contadino x2", "-f", "yaml")
    assert result.exit_code == 0
    data = yaml.safe_load(result.stdout)
    assert data["players"] == 4 and data["deck"]["lupo-mannaro"] == 2


def test_deck_from_a_yaml_file(run, tmp_path):
    path = tmp_path / "mazzo.yaml"
    path.write_text("players: 6\ncards:\n  lupo-mannaro: 2\n  veggente: 1\n  massone: 2\n  guastafeste: 1\n"
                    "  truffatore: 1\n  contadino: 2\n", encoding="utf-8")
    result = run("deck", "--deck", str(path), "-l", "it")
    assert (result.exit_code, result.stdout) == (0, DECK_6_TEXT)


def test_add_and_remove(run):
    result = run("deck", "-p", "6", "--add", "Mitomane", "--remove", "contadino", "-f", "json")
    assert json.loads(result.stdout)["deck"] == {
        "lupo-mannaro": 2, "veggente": 1, "massone": 2, "mitomane": 1, "guastafeste": 1, "truffatore": 1,
        "contadino": 1}


def test_random_deck_says_its_seed_and_the_seed_draws_it_again(run):
    first = run("deck", "-p", "8", "--random", "-f", "json")
    assert first.exit_code == 0
    assert first.stderr == "narrate: random deck drawn with --seed 777\n"
    again = run("deck", "-p", "8", "--random", "--seed", "777", "-f", "json")
    assert again.stdout == first.stdout
    other = run("deck", "-p", "8", "--random", "--seed", "778", "-f", "json")
    assert json.loads(other.stdout)["cards"] == 11
    alone = run("deck", "-p", "8", "--seed", "777", "-f", "json")  # the printed seed alone draws it again
    assert alone.exit_code == 0 and alone.stdout == first.stdout


def test_roles_lists_the_whole_box(run):
    result = run("roles", "--lang", "en")
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines[0] == "Una Notte da Lupi: 11 roles, 15 cards in the box"
    assert lines[1].split() == ["id", "name", "name", "(it)", "box", "side", "night"]
    assert lines[2].split()[:5] == ["lupo-mannaro", "Werewolf", "Lupo", "Mannaro", "2"]
    assert len(lines) == 13
    data = json.loads(run("roles", "-f", "json").stdout)
    assert [r["id"] for r in data][-2:] == ["pinguino-mannaro", "criceto-mannaro"]
    assert data[3]["names"] == {"en": "Minion", "it": "Mitomane"}


def test_script_json_has_keys_phases_and_times(run):
    result = run("script", "-p", "10", "-f", "json", "--lang", "en", "--count-style", "full")
    data = json.loads(result.stdout)
    assert data["timing"] == "measured" and data["count_seconds"] == 10  # from the shipped voice pack
    keys = [cue["key"] for cue in data["cues"]]
    assert keys[0] == "night.start" and keys[-1] == "day.start"
    assert data["phases"] == ["lupo-mannaro", "veggente", "massone", "mitomane", "guastafeste",
                              "apprendista-stregone", "truffatore"]
    assert [c["seconds"] for c in data["counts"]] == [10] * 7
    assert sum(cue["kind"] == "tick" for cue in data["cues"]) == 70
    starts = [cue["start"] for cue in data["cues"]]
    assert starts == sorted(starts)


def test_language_option_ignores_case(run):
    assert "Night falls on the village" in run("script", "-p", "4", "--lang", "EN").stdout


def test_script_options(run):
    result = run("script", "-p", "5", "--count-seconds", "12", "--count-style", "silent", "--option", "tips=off",
                 "--option", "nudge=no", "-f", "yaml")
    data = yaml.safe_load(result.stdout)
    keys = [cue["key"] for cue in data["cues"]]
    assert not any(key.startswith("count.") for key in keys)
    assert "night.tips" not in keys and "night.nudge" not in keys
    assert data["options"] == {"tips": False, "nudge": False}
    assert {c["seconds"] for c in data["counts"]} == {12}


def test_play_shows_the_deck_and_plays_the_night(run, tmp_path):
    player = RecordingPlayer()
    result = run("--players", "6", "--no-ambience", "--no-day", env=make_env(player=lambda: player))
    assert result.exit_code == 0, result.stderr
    assert result.stdout.startswith(DECK_6_TEXT_EN)
    assert "Everyone close your eyes. (space: pause, q: stop)" in result.stdout
    (night,) = player.nights
    keys = [clip.cue.key for clip in night.clips]
    assert keys[0] == "night.start" and keys[-1] == "day.start"
    assert [c.phase for c in night.counts] == ["lupo-mannaro", "veggente", "massone", "guastafeste", "truffatore"]


def test_play_stopped_by_the_user_exits_130(run, tmp_path):
    result = run("--players", "4", "--no-wait", env=make_env(player=lambda: RecordingPlayer(completes=False)))
    assert (result.exit_code, result.stderr) == (130, "0:02  Nightfall\nnarrate: stopped\n")  # the progress, then why


def test_the_night_waits_for_the_deal_unless_told_not_to(run):
    """After the deck, nobody has a card yet: the night starts when a line (Enter) says so; q stops
    it before a sound; --no-wait starts at once; a closed input cannot answer, and that is said."""
    deal = "Deal the cards; press Enter when everyone has theirs (q: stop).\n"
    env = make_env({"LANG": "en_US.UTF-8"}, player=lambda: player)
    player = RecordingPlayer()
    dealt = run("--players", "4", "--no-day", env=env, input="\n")
    assert dealt.exit_code == 0 and deal + "The night lasts" in dealt.stdout and len(player.nights) == 1
    player = RecordingPlayer()
    stopped = run("--players", "4", "--no-day", env=env, input="q\n")
    assert (stopped.exit_code, stopped.stderr) == (130, "narrate: stopped\n") and player.nights == []
    assert stopped.stdout.endswith(deal)
    at_once = run("--players", "4", "--no-day", "--no-wait", env=env, input="")
    assert at_once.exit_code == 0 and deal not in at_once.stdout and len(player.nights) == 1
    closed = run("--players", "4", "--no-day", env=env, input="")
    assert closed.exit_code == 0 and len(player.nights) == 2
    assert closed.stderr.startswith("narrate: no keyboard input to wait on: the night starts now (--no-wait says so)\n")


def test_language_defaults_to_the_locale(run):
    english = run("script", "--players", "6", env=make_env({"LANG": "en_US.UTF-8"}))
    assert "The sun is up! Everyone, open your eyes." in english.stdout
    italian = run("script", "--players", "6", env=make_env({"LANG": "C.UTF-8"}))
    assert "Sorge il sole! Aprite tutti gli occhi." in italian.stdout


@pytest.mark.parametrize("args, message", [
    (["deck", "--deck", "lupo-mannaro x2, veggentee, contadino x3, truffatore, guastafeste"],
     "narrate: no role 'veggentee' — did you mean 'veggente'?"),
    (["--players", "6", "--add", "mitomanne"], "narrate: no role 'mitomanne' — did you mean 'mitomane'?"),
    (["script", "-p", "6", "--remove", "pinguino"], "narrate: no role 'pinguino' — did you mean 'pinguino-mannaro'?"),
    (["--players", "12"], "narrate: Una Notte da Lupi takes 3 to 10 players, not 12: choose --players from 3 to 10"),
    (["deck", "--players", "2"], "narrate: Una Notte da Lupi takes 3 to 10 players, not 2: choose --players from 3 to 10"),
    (["--players", "six"], re.compile(r"narrate: .*'six' is not a valid integer.* \(see 'narrate --help'\)")),
    (["--players", "6", "--deck", "lupo-mannaro x2, veggente, massone x2, truffatore, contadino x2"],
     "narrate: 6 players need 9 cards; this deck has 8: add 1 role"),
    (["deck", "--deck", "lupo-mannaro, veggente, truffatore, guastafeste, contadino x2"],
     "narrate: the deck must hold all 2 'lupo-mannaro' cards, it has 1: add 1"),
    (["deck", "-p", "7", "--add", "criceto-mannaro", "--remove", "contadino"],
     "narrate: 'pinguino-mannaro' and 'criceto-mannaro' never play together: remove one of them"),
    (["deck", "-p", "6", "--remove", "massone", "--add", "mitomane"],
     "narrate: 'massone' cards go in together (2) or not at all, the deck has 1: add 1 or remove 1"),
    (["deck", "-p", "5", "--remove", "veggente", "--add", "contadino"],
     "narrate: the box has only 3 'contadino' cards, this deck has 4: remove 1"),
    (["deck", "--seed", "3", "--deck", "lupo-mannaro x2, veggente, contadino x3"],
     "narrate deck: --seed draws a random deck again: leave out --deck or --seed (see 'narrate deck --help')"),
    (["deck", "--random"], "narrate: say how many are playing with --players N, or give the cards with --deck"),
    (["script", "-p", "6", "--lang", "de"], "narrate: no narration in language 'de': choose one of en, it"),
    (["script", "-p", "6", "--count-seconds", "99"],
     "narrate: the count lasts 3 to 30 seconds, not 99: choose --count-seconds in that range"),
    (["script", "-p", "6", "--voice-pack", " "],
     "narrate script: Invalid value for '--voice-pack': give a voice pack's name or folder ('narrate voices list' "
     "shows them), or leave --voice-pack out (see 'narrate script --help')"),
    (["script", "-p", "6", "--count-style", "loud"],
     re.compile(r"narrate script: .*'loud' is not one of 'full', 'edges', 'silent'.* \(see 'narrate script --help'\)")),
    (["--playres", "6"], re.compile(r"narrate: No such option.*--playres.*--players.* \(see 'narrate --help'\)")),
    (["--players", "6", "script"], "narrate: put --players after the command: narrate script --players ... "
                                   "(see 'narrate --help')"),
    (["dance"], re.compile(r"narrate: No such command.*'dance'.* \(see 'narrate --help'\)")),
    (["-p", "6", "games"], "narrate: narrate games takes no --players: leave it out (see 'narrate --help')"),
    (["--lang", "en", "resume"], "narrate: narrate resume takes no --lang: leave it out (see 'narrate --help')"),
    (["games", "--lang", "de"], "narrate: no narration in language 'de': choose one of en, it"),
    (["doctor", "--lang", "de"], "narrate: no narration in language 'de': choose one of en, it"),
])
def test_bad_input_is_one_line_on_stderr_with_status_2(run, args, message):
    """Exact text for our messages; click's own wording (which varies by version) by pattern."""
    result = run(*args)
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr.endswith("\n") and result.stderr.count("\n") == 1
    if isinstance(message, re.Pattern):
        assert message.fullmatch(result.stderr[:-1]), result.stderr
    else:
        assert result.stderr == message + "\n"


def test_missing_deck_file(run, tmp_path):
    path = tmp_path / "nope.yaml"
    result = run("deck", "--deck", str(path))
    assert (result.exit_code, result.stderr) == (2, f"narrate: {path}: no such file\n")


def test_malformed_deck_file_names_file_and_line(run, tmp_path):
    path = tmp_path / "mazzo.yaml"
    path.write_text("cards:\n  lupo-mannaro: 2\n  veggente: [1\n  contadino: 3\n", encoding="utf-8")
    result = run("deck", "--deck", str(path))
    assert result.exit_code == 2
    assert result.stderr.startswith(f"narrate: {path}, line 4: malformed YAML: ")
    assert result.stderr.count("\n") == 1


def test_deck_file_that_is_not_text(run, tmp_path):
    path = tmp_path / "mazzo.yaml"
    path.write_bytes(b"\xff\xfe\x00binary")
    result = run("deck", "--deck", str(path))
    assert (result.exit_code, result.stderr) == (2, f"narrate: {path}: not a text file (save it as UTF-8)\n")


def test_deck_file_that_is_a_folder(run, tmp_path):
    folder = tmp_path / "decks.yaml"
    folder.mkdir()
    result = run("deck", "--deck", str(folder))
    assert (result.exit_code, result.stderr) == (2, f"narrate: {folder}: is a folder, not a YAML file\n")


def test_unreadable_deck_file(run, tmp_path):
    # A path through a regular file cannot be opened, even by root (CI runs as root).
    blocker = tmp_path / "notes.txt"
    blocker.write_text("not a folder", encoding="utf-8")
    path = blocker / "mazzo.yaml"
    result = run("deck", "--deck", str(path))
    assert (result.exit_code, result.stderr) == (2, f"narrate: {path}: cannot be read (Not a directory)\n")


def test_deck_file_with_wrong_player_count(run, tmp_path):
    path = tmp_path / "mazzo.yaml"
    path.write_text("players: 7\ncards: {lupo-mannaro: 2, veggente: 1, truffatore: 1, guastafeste: 1, contadino: 2}\n",
                    encoding="utf-8")
    result = run("deck", "--deck", str(path))
    assert (result.exit_code, result.stderr) == (2, "narrate: 7 players need 10 cards; this deck has 7: add 3 roles\n")


def test_a_broken_install_fails_in_one_line(run, game_copy):
    (game_copy / "it.yaml").write_text("language: Italiano\nroles: {}\n", encoding="utf-8")
    result = run("deck", "--players", "6", env=make_env(games_dir=game_copy.parent))
    assert result.exit_code == 2
    assert result.stderr == f"narrate: {game_copy / 'it.yaml'}: roles: missing field 'lupo-mannaro'\n"


@pytest.mark.parametrize("locale, message", [
    ("C.UTF-8", "narrate: nessun ruolo 'veggentee': forse intendevi 'veggente'?\n"),
    ("en_GB.UTF-8", "narrate: no role 'veggentee' — did you mean 'veggente'?\n"),
])
def test_real_process_bad_input_has_no_traceback(locale, message):
    process = subprocess.run([sys.executable, "-m", "narrator", "--players", "6", "--add", "veggentee"],
                             capture_output=True, text=True, env={**os.environ, "LANG": locale, "PATH": ""})  # the sandbox's HOME
    assert (process.returncode, process.stdout, process.stderr) == (2, "", message)


def test_real_process_closed_pipe_is_quiet():
    process = subprocess.run(f"{sys.executable} -m narrator script -p 10 --count-style full | head -1",
                             shell=True, capture_output=True, text=True)
    assert process.stdout.startswith("Una Notte da Lupi: la notte per 10 giocatori")
    assert process.stderr == ""


def test_the_seed_a_drawn_set_printed_draws_it_again_alone(run):
    """A game that draws its set says the seed; that seed alone, as printed, draws the same set."""
    from narrator.games import GAMES_DIR
    from narrator.games.loader import load_game
    from narrator.games.summary import available_games

    game_id = next(game_id for game_id in available_games(GAMES_DIR) if load_game(GAMES_DIR / game_id).draws_set)
    players = str(load_game(GAMES_DIR / game_id).min_players + 2)
    drawn = run("--game", game_id, "deck", "--players", players, "-f", "json")
    assert drawn.exit_code == 0 and drawn.stderr == "narrate: random deck drawn with --seed 777\n"
    again = run("--game", game_id, "deck", "--players", players, "--seed", "777", "-f", "json")
    assert again.exit_code == 0 and again.stdout == drawn.stdout
