"""Games as plugins: found by their folder, chosen with --game, and nothing in the commands
assumes Una Notte da Lupi (its options, its language, its day)."""

import json
import re
import shutil
from pathlib import Path

import pytest
import yaml
from conftest import GAMES_DIR, RecordingPlayer, make_env

from narrator.core.game import CARD_TEXTS
from narrator.games.summary import available_games, language_ids

GAME = "una-notte-da-lupi"


@pytest.fixture
def other_game(tmp_path) -> Path:
    """A copy of Una Notte da Lupi changed as another game could be: English only (and saying so),
    no narration options, no timed day, no rules module (so no vote rules and no vote fields)."""
    scripts = tmp_path / "scripts"
    shutil.copytree(GAMES_DIR / GAME, scripts / GAME)
    folder = scripts / "notte-corta"
    shutil.copytree(GAMES_DIR / GAME, folder)
    (folder / "it.yaml").unlink()
    game = yaml.safe_load((folder / "game.yaml").read_text(encoding="utf-8"))
    game.update(id="notte-corta", title="Notte Corta", language="en")
    del game["options"], game["day"]
    (folder / "rules.py").unlink()
    game["roles"] = [{key: value for key, value in role.items() if key in ("id", "copies", "side", "in_deck", "excludes")}
                     for role in game["roles"]]
    game["night"]["before"] = [step for step in game["night"]["before"] if "when" not in step]
    game["night"]["after"] = [step for step in game["night"]["after"] if "when" not in step]
    (folder / "game.yaml").write_text(yaml.safe_dump(game, allow_unicode=True), encoding="utf-8")
    english = yaml.safe_load((folder / "en.yaml").read_text(encoding="utf-8"))
    for key in ("night.tips", "night.nudge", "day.discuss", "day.left-120", "day.left-60", "day.left-30",
                "day.vote"):
        del english["lines"][key]
    english["vote"] = {"and": english["vote"]["and"]}
    english["card"] = {key: text for key, text in english["card"].items()
                       if key in CARD_TEXTS}  # what every game's card says
    (folder / "en.yaml").write_text(yaml.safe_dump(english, allow_unicode=True), encoding="utf-8")
    return scripts


def test_games_lists_every_game_folder(run, other_game):
    result = run("games", env=make_env(games_dir=other_game))
    assert result.exit_code == 0
    assert result.stdout.splitlines() == [
        "  id                 title              players  languages  roles  options (--option)",
        "  notte-corta        Notte Corta        3-10     en         11     -",
        "  una-notte-da-lupi  Una Notte da Lupi  3-10     en, it     11     tips=on, nudge=on",
    ]
    data = json.loads(run("games", "-f", "json", env=make_env(games_dir=other_game)).stdout)
    assert [game["id"] for game in data] == ["notte-corta", GAME] and data[0]["languages"] == ["en"]


def test_a_game_without_vote_rules_says_so_and_still_prints_its_card(run, other_game, tmp_path):
    env = make_env(games_dir=other_game)
    votes = tmp_path / "votes.yaml"
    votes.write_text("players:\n  - {name: A, card: contadino, vote: B}\n", encoding="utf-8")
    for args in (["votes", "--game", "notte-corta"], ["votes", "--game", "notte-corta", str(votes)]):
        result = run(*args, env=env)
        assert (result.exit_code, result.stdout, result.stderr) == (
            2, "", "narrate: Notte Corta has no vote rules yet: settle the vote by its rulebook\n")
    card = run("card", "--game", "notte-corta", "-p", "5", "-o", str(tmp_path / "card.pdf"), env=env)
    assert card.exit_code == 0, card.stderr


def test_a_votes_file_names_its_game(run, other_game, tmp_path):
    votes = tmp_path / "votes.yaml"
    votes.write_text("game: notte-corta\nplayers:\n  - {name: A, card: contadino, vote: B}\n", encoding="utf-8")
    result = run("votes", str(votes), env=make_env(games_dir=other_game))
    assert result.stderr == "narrate: Notte Corta has no vote rules yet: settle the vote by its rulebook\n"
    result = run("votes", "--game", GAME, str(votes), env=make_env(games_dir=other_game))
    assert result.stderr == (f"narrate: {votes}: game: these votes are of 'notte-corta', the game chosen is "
                             f"'{GAME}': give --game notte-corta\n")
    votes.write_text("game: scacchi\nplayers: []\n", encoding="utf-8")
    result = run("votes", str(votes), env=make_env(games_dir=other_game))
    assert (result.exit_code, result.stderr) == (2, "narrate: no game 'scacchi': choose one of notte-corta, "
                                                    f"{GAME}\n")


def test_every_command_takes_game():
    from test_languages import command_paths

    from narrator.shell.cli.app import cli

    for path in command_paths():
        command = cli
        for name in path:
            command = command.get_command(None, name)
        assert "--game" in [opt for param in command.params for opt in param.opts], path


@pytest.mark.parametrize("args", [["--game", "nope", "--players", "5"], ["deck", "--game", "nope"],
                                  ["voices", "list", "--game", "../scripts"]])
def test_an_unknown_game_is_one_line_with_the_list(run, args):
    result = run(*args)
    assert result.exit_code == 2
    assert result.stderr.count("\n") == 1
    games = ", ".join(available_games(GAMES_DIR))
    assert f"no game '{args[args.index('--game') + 1]}': choose one of {games}" in result.stderr


def test_another_game_plays_through_the_commands(run, other_game):
    env = make_env({"LANG": "C.UTF-8"}, games_dir=other_game)  # no locale: the game's own language
    result = run("--game", "notte-corta", "deck", "--players", "5", env=env)
    assert result.exit_code == 0, result.stderr
    assert result.stdout.startswith("Notte Corta: deck for 5 players (8 cards)")
    script = json.loads(run("script", "--game", "notte-corta", "-p", "6", "-f", "json",
                            env=make_env(games_dir=other_game)).stdout)
    assert script["game"] == "notte-corta" and script["options"] == {} and script["lang"] == "en"
    keys = [cue["key"] for cue in script["cues"]]
    assert "night.tips" not in keys and keys[0] == "night.start" and keys[-1] == "day.start"


def test_a_game_without_a_day_stops_at_daybreak(run, other_game):
    player = RecordingPlayer()
    env = make_env(games_dir=other_game, player=lambda: player)
    result = run("--game", "notte-corta", "--players", "4", "--no-ambience", env=env)
    assert result.exit_code == 0, result.stderr
    assert len(player.nights) == 1 and "card now" not in result.stdout
    for args in (["timer", "--game", "notte-corta"], ["--game", "notte-corta", "--players", "4", "--day-minutes", "3"]):
        result = run(*args, env=make_env(games_dir=other_game))
        assert (result.exit_code, result.stderr.count("\n")) == (2, 1)
        assert "Notte Corta has no timed day" in result.stderr


def test_the_default_language_is_the_locale_then_the_game_own(run, other_game):
    c_locale = make_env({"LANG": "C.UTF-8"}, games_dir=other_game)
    assert run("deck", "-p", "3", env=c_locale).stdout.startswith("Una Notte da Lupi: mazzo per 3")
    assert run("deck", "-p", "3", "--game", "notte-corta", env=c_locale).stdout.startswith(
        "Notte Corta: deck for 3")
    italian = make_env({"LANG": "it_IT.UTF-8"}, games_dir=other_game)  # a language the game lacks
    assert run("deck", "-p", "3", "--game", "notte-corta", env=italian).stdout.startswith("Notte Corta: deck for")


@pytest.mark.parametrize("game_id", available_games(GAMES_DIR))
def test_every_shipped_game_loads_and_speaks_every_line_in_each_language(game_id):
    from narrator.core.script import every_line
    from narrator.games.loader import load_game

    game = load_game(GAMES_DIR / game_id)
    assert game.id == game_id and game.night.slots
    for lang in game.languages:
        assert all(text.strip() for _key, text in every_line(game, lang))


@pytest.mark.parametrize("game_id", available_games(GAMES_DIR))
def test_the_call_to_vote_never_says_the_time_is_up(game_id):
    """The same line calls the vote when the time runs out and when the group calls it early (Enter)."""
    from narrator.games.loader import load_game

    game = load_game(GAMES_DIR / game_id)
    for language in game.languages.values():
        if "day.vote" in language.lines:
            line = language.line("day.vote").casefold()
            assert not any(words in line for words in ("time is up", "tempo scaduto", "tempo è finito")), line


# A player named in Italian followed by a participle or adjective that agrees with the player's
# gender ("Elena è gufato", "{voter} è morto"): narrate never knows a player's gender.
GENDERED_AFTER_PLAYER = re.compile(r"\{(?:name|names|voter|voted|target|holder)\},? (?:è|sono) (?:stat[oaie] )?"
                                   r"(?:\w+(?:at|ut|it)[oaie]|mort[oaie]|viv[oaie]|salv[oaie])\b")


def gendered_sentences(texts) -> list[str]:
    return [text for text in texts if GENDERED_AFTER_PLAYER.search(text)]


def test_the_check_for_a_gendered_word_finds_one():
    assert gendered_sentences(["{name} è gufato: è comunque tra gli indiziati.", "{voter} è morto",
                               "{voter}, che è fuori gioco", "Il Gufo ha scelto {name}"]) == [
        "{name} è gufato: è comunque tra gli indiziati.", "{voter} è morto"]


@pytest.mark.parametrize("game_id", [game_id for game_id in available_games(GAMES_DIR)
                                     if "it" in language_ids(GAMES_DIR / game_id)])  # every game in Italian
def test_no_italian_sentence_of_a_game_needs_a_player_gender(game_id):
    from narrator.core.script import every_line
    from narrator.games.loader import load_game

    game = load_game(GAMES_DIR / game_id)
    texts = [*game.languages["it"].vote.values(), *(text for _key, text in every_line(game, "it"))]
    assert gendered_sentences(str(text) for text in texts) == []


def test_a_card_is_named_by_any_start_that_only_one_card_of_the_deck_has():
    from narrator.core.errors import UnknownRoleError
    from narrator.games.loader import load_game

    game = load_game(GAMES_DIR / "one-night-ultimate-werewolf")
    italian, english = game.languages["it"], game.languages["en"]
    deck = ["werewolf", "seer", "robber", "villager"]
    assert game.resolve_card("lupo", deck, italian) == "werewolf"  # one kind of lupo in this deck
    assert game.resolve_card("rob", deck, english) == "robber"
    assert game.resolve_card("Mystic Wolf", deck, english) == "mystic-wolf"  # a whole name: check_cards says more
    wolves = ["werewolf", "alpha-wolf", "mystic-wolf", "villager"]
    with pytest.raises(UnknownRoleError) as more:
        game.resolve_card("lupo", wolves, italian)
    assert str(more.value) == ("'lupo' begins the name of more than one card (Lupo Mannaro, Lupo Alfa, Lupo Mistico): "
                               "type more of it")
    assert game.resolve_card("lupo a", wolves, italian) == "alpha-wolf"
    with pytest.raises(UnknownRoleError) as unknown:
        game.resolve_card("Zorro", deck, english)
    assert str(unknown.value) == "no card 'Zorro' here: one of Werewolf, Seer, Robber, Villager"  # the deck, not the box
