"""A game whose rules draw its set (narrator.core.nights.DRAWN_SET): the deck is drawn by the
rules' formula, checked by their rules, and every role it could draw has its turn called."""

import random
import shutil

import pytest
from conftest import make_env

from narrator.core.deck import build_deck, make_deck, possible_roles
from narrator.core.errors import DataError, DeckError, NarratorError
from narrator.core.script import generate_script, settings_for
from narrator.games import GAMES_DIR
from narrator.games.loader import load_game

# Lupus in Tabula with a formula of its own: lupi and villici only, a Medium or a Veggente (never
# both), and the Medium refused by the rules when the option quiet-first-night is off.
DRAWN = '''

import random


def draw_deck(game: Game, players: int, options: Mapping[str, bool], possible: Mapping[str, int] | None,
              rng: random.Random) -> dict[str, int]:
    seer = rng.choice(["veggente", "medium"])
    wolves = 2 if players < 12 else 3
    return {"lupo-mannaro": wolves, seer: 1, "villico": players - wolves - 1}


def deck_problem(game: Game, deck: Deck, options: Mapping[str, bool], possible: Mapping[str, int] | None) -> str | None:
    if deck.copies("medium") and not options["quiet-first-night"]:
        return "the Medium plays only with quiet-first-night=on"
    return None


def possible_roles(game: Game, players: int, options: Mapping[str, bool]) -> tuple[str, ...]:
    return ("lupo-mannaro", "villico", "veggente", "medium")
'''


def drawing_game(tmp_path, text=DRAWN):
    folder = tmp_path / "lupus-in-tabula"
    shutil.copytree(GAMES_DIR / "lupus-in-tabula", folder)
    rules = folder / "rules.py"
    rules.write_text(rules.read_text(encoding="utf-8") + text, encoding="utf-8")
    return folder


def test_the_rules_draw_the_set_and_check_every_deck(tmp_path):
    game = load_game(drawing_game(tmp_path))
    assert game.draws_set
    deck, players = build_deck(game, players=9, rng=random.Random(3))
    assert players == 9 and deck.copies("lupo-mannaro") == 2 and deck.copies("villico") == 6
    decks = {build_deck(game, players=9, rng=random.Random(seed))[0] for seed in range(20)}
    assert {deck.role_ids & {"veggente", "medium"} for deck in decks} == {frozenset({"veggente"}),
                                                                           frozenset({"medium"})}
    with pytest.raises(NarratorError, match="draws its set at random: add --random"):
        build_deck(game, players=9)
    medium = make_deck(game, {"lupo-mannaro": 2, "medium": 1, "villico": 6})
    with pytest.raises(DeckError, match="the Medium plays only with quiet-first-night=on"):
        build_deck(game, base=medium, options={**game.option_defaults, "quiet-first-night": False})
    assert build_deck(game, base=medium, options={**game.option_defaults, "quiet-first-night": True})[1] == 9


def test_every_role_the_draw_could_give_is_called_at_night_dealt_or_not(tmp_path):
    game = load_game(drawing_game(tmp_path))
    deck = make_deck(game, {"lupo-mannaro": 2, "veggente": 1, "villico": 6})
    assert possible_roles(game, 9) == ("lupo-mannaro", "villico", "veggente", "medium")
    night_two = generate_script(game, deck, settings_for(game, "it", night=2))
    assert "medium" in {segment.phase for segment in night_two.segments}  # no Medium dealt: called all the same
    plain = load_game(GAMES_DIR / "lupus-in-tabula")
    assert "medium" not in {segment.phase for segment in generate_script(plain, deck, settings_for(
        plain, "it", night=2)).segments}


def test_narrate_deck_draws_the_set_and_lists_the_possible_roles(tmp_path, run):
    env = make_env(games_dir=tmp_path, seed=5)
    drawing_game(tmp_path)
    result = run("--game", "lupus-in-tabula", "deck", "--players", "9", "--lang", "en", env=env)
    assert result.exit_code == 0, result.stderr
    assert "random deck drawn with --seed 5" in result.stderr
    assert "Possible roles (any of them may have been drawn; they may be read out): Werewolf, Villager, Seer, " \
           "Medium" in result.stdout
    refused = run("--game", "lupus-in-tabula", "deck", "--deck", "lupo-mannaro x2, medium, villico x6",
                  "--option", "quiet-first-night=off", env=make_env(games_dir=tmp_path))
    assert refused.exit_code == 2
    assert "the Medium plays only with quiet-first-night=on" in refused.stderr


@pytest.mark.parametrize("cut, error", [
    ("\ndef deck_problem(", "a set drawn by the rules needs all of draw_deck, deck_problem, possible_roles, or none"),
    ("def draw_deck(game: Game, players: int, options: Mapping[str, bool], possible: Mapping[str, int] | None,\n"
     "              rng: random.Random)", r"draw_deck\(game, players, rng\) should take "
                                         r"\(game, players, options, possible, rng\)"),
    ("def possible_roles(game: Game,", r"possible_roles\(\) does not say the type of 'game' \(the contract's: Game\)"),
])
def test_the_drawn_set_is_all_three_functions_with_their_parameters(tmp_path, cut, error):
    replacement = {"\ndef deck_problem(": "\ndef _unused(", "def possible_roles(game: Game,": "def possible_roles(game,"}.get(
        cut, "def draw_deck(game: Game, players: int, rng: random.Random)")
    assert cut in DRAWN
    folder = drawing_game(tmp_path, DRAWN.replace(cut, replacement))
    with pytest.raises(DataError, match=error):
        load_game(folder)


def test_a_saved_game_or_record_of_a_deck_the_rules_refuse_does_not_start(tmp_path):
    from types import MappingProxyType

    from narrator.core.rounds import Rounds, Setup

    game = load_game(drawing_game(tmp_path))
    seating = tuple(f"P{number}" for number in range(9))
    cards = dict(zip(seating, ["lupo-mannaro"] * 2 + ["medium"] + ["villico"] * 6, strict=True))
    deck = MappingProxyType({"lupo-mannaro": 2, "medium": 1, "villico": 6})
    options = {**game.option_defaults, "quiet-first-night": False}
    with pytest.raises(DeckError, match="the Medium plays only with quiet-first-night=on"):
        Rounds(game, Setup(seating, deck, MappingProxyType(options), MappingProxyType(cards)))
