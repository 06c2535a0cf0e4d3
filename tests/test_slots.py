"""Turns of the night ("wake slots") are data: a role may wake more than once, several roles may
share a turn, and conditions combine."""

import shutil

import pytest
import yaml
from conftest import GAMES_DIR

from narrator.core.deck import make_deck
from narrator.core.errors import NarratorError
from narrator.core.game import Condition
from narrator.core.script import generate_script, settings_for
from narrator.games.loader import load_game

GAME = "una-notte-da-lupi"


def test_conditions_combine():
    deck = frozenset({"veggente", "truffatore"})
    has = Condition(deck_has="veggente")
    lacks = Condition(deck_has="massone")
    assert Condition(all_of=(has, Condition(deck_has="truffatore"))).holds(deck, {})
    assert not Condition(all_of=(has, lacks)).holds(deck, {})
    assert Condition(any_of=(lacks, has)).holds(deck, {})
    assert not Condition(any_of=(lacks,)).holds(deck, {})
    assert Condition(negated=lacks).holds(deck, {}) and not Condition(negated=has).holds(deck, {})
    assert Condition(option="tips").holds(deck, {"tips": True}) and not Condition(option="tips").holds(deck, {})
    assert not Condition(deck_has="veggente", negated=Condition(option="tips")).holds(deck, {"tips": True})


@pytest.fixture
def game(tmp_path):
    """Una Notte da Lupi with a second turn for the Mitomane (after the Truffatore, only when the
    Truffatore is in the deck and the Massoni are not) and the Pinguino waking with the wolves."""
    folder = tmp_path / GAME
    shutil.copytree(GAMES_DIR / GAME, folder)
    data = yaml.safe_load((folder / "game.yaml").read_text(encoding="utf-8"))
    data["wake"][0]["roles"] = ["lupo-mannaro", "pinguino-mannaro"]
    data["wake"].append({"id": "mitomane-again", "roles": ["mitomane"], "number": "7a",
                         "when": {"all": [{"deck_has": "truffatore"}, {"not": {"deck_has": "massone"}}]}})
    (folder / "game.yaml").write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    for lang in ("it", "en"):
        path = folder / f"{lang}.yaml"
        text = yaml.safe_load(path.read_text(encoding="utf-8"))
        text["lines"]["mitomane-again.open"] = "Mitomane, again."
        text["lines"]["mitomane-again.close"] = "Mitomane, close."
        path.write_text(yaml.safe_dump(text, allow_unicode=True), encoding="utf-8")
    return load_game(folder)


def phases(game, counts):
    deck = make_deck(game, counts)
    return generate_script(game, deck, settings_for(game, "en")).phases


def test_a_role_wakes_twice_when_the_condition_holds(game):
    base = {"lupo-mannaro": 2, "mitomane": 1, "truffatore": 1, "contadino": 2}
    assert phases(game, base) == ("lupo-mannaro", "mitomane", "truffatore", "mitomane-again")
    assert phases(game, {**base, "massone": 2}) == ("lupo-mannaro", "massone", "mitomane", "truffatore")
    assert phases(game, {"lupo-mannaro": 2, "mitomane": 1, "contadino": 3}) == ("lupo-mannaro", "mitomane")
    assert game.wake_number("mitomane") == 4  # a role's first turn
    assert game.slot("mitomane-again").number == "7a"


def test_roles_share_a_turn(game):
    deck = make_deck(game, {"lupo-mannaro": 2, "pinguino-mannaro": 1, "veggente": 1, "contadino": 2})
    script = generate_script(game, deck, settings_for(game, "en"))
    assert script.phases.count("lupo-mannaro") == 1  # one turn, whoever of its roles is in the deck
    assert game.wake_number("pinguino-mannaro") == 1
    assert game.languages["en"].slot_name(game.slot("lupo-mannaro"), 2) == "Werewolves"


def counts(game, counts_in_deck, **settings):
    deck = make_deck(game, counts_in_deck)
    script = generate_script(game, deck, settings_for(game, "en", **settings))
    return {segment.phase: segment.seconds for segment in script.segments if hasattr(segment, "ticks")}


SIX = {"lupo-mannaro": 2, "veggente": 1, "massone": 2, "guastafeste": 1, "truffatore": 1, "contadino": 2}


def test_one_turn_gets_its_own_seconds(game):
    assert counts(game, SIX, slot_seconds={"veggente": 15}) == {
        "lupo-mannaro": 10, "veggente": 15, "massone": 10, "guastafeste": 10, "truffatore": 10}
    with pytest.raises(NarratorError, match="no turn 'seer' in the night of Una Notte da Lupi: choose one of "
                                            "lupo-mannaro, veggente"):
        settings_for(game, "en", slot_seconds={"seer": 15})
    with pytest.raises(NarratorError, match="not 99: choose --seconds veggente=S"):
        settings_for(game, "en", slot_seconds={"veggente": 99})


def test_a_turn_with_more_to_do_counts_longer_as_data_says(tmp_path):
    folder = tmp_path / GAME
    shutil.copytree(GAMES_DIR / GAME, folder)
    data = yaml.safe_load((folder / "game.yaml").read_text(encoding="utf-8"))
    data["wake"][6]["seconds_factor"] = 2  # the Truffatore
    (folder / "game.yaml").write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    game = load_game(folder)
    assert counts(game, SIX)["truffatore"] == 20 and counts(game, SIX)["veggente"] == 10
    assert counts(game, SIX, count_seconds=20)["truffatore"] == 30  # no longer than the count has words for
    assert counts(game, SIX, slot_seconds={"truffatore": 12})["truffatore"] == 12


def test_seconds_on_the_command_line(run):
    import json

    script = json.loads(run("script", "-p", "6", "--seconds", "veggente=15", "--seconds", "massone=5",
                            "-f", "json").stdout)
    assert {count["phase"]: count["seconds"] for count in script["counts"]} == {
        "lupo-mannaro": 10, "veggente": 15, "massone": 5, "guastafeste": 10, "truffatore": 10}
    result = run("script", "-p", "6", "--seconds", "veggente")
    assert (result.exit_code, result.stderr) == (2, "narrate script: Invalid value for '--seconds': 'veggente' is "
                                                    "not TURN=SECONDS: write it like lupo-mannaro=15 (see 'narrate "
                                                    "script --help')\n")
