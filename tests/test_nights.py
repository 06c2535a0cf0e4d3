"""Games of many nights: turns that come only on some nights ({night: N}, {from_night: N})."""

import shutil

import pytest
import yaml

from narrator.core.deck import recommended_deck
from narrator.core.errors import NarratorError
from narrator.core.script import generate_script, settings_for
from narrator.games import GAMES_DIR
from narrator.games.loader import load_game
from tests.conftest import make_env


@pytest.fixture
def many_nights(tmp_path):
    """Una Notte da Lupi played night after night: the Massoni meet on the first night only and the
    Veggente wakes from the second on (as Lupus in Tabula's Massoni and Guardia do)."""
    folder = tmp_path / "games" / "una-notte-da-lupi"
    shutil.copytree(GAMES_DIR / "una-notte-da-lupi", folder)
    data = yaml.safe_load((folder / "game.yaml").read_text(encoding="utf-8"))
    data["nights"] = "many"
    for slot in data["wake"]:
        if slot["id"] == "massone":
            slot["when"] = {"night": 1}
        if slot["id"] == "veggente":
            slot["when"] = {"from_night": 2}
    (folder / "game.yaml").write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    return folder


def phases(game, night):
    deck = recommended_deck(game, 6)
    return generate_script(game, deck, settings_for(game, "it", night=night)).phases


def test_turns_follow_the_night(many_nights):
    game = load_game(many_nights)
    assert game.many_nights
    assert phases(game, 1) == ("lupo-mannaro", "massone", "guastafeste", "truffatore")
    assert phases(game, 2) == ("lupo-mannaro", "veggente", "guastafeste", "truffatore")
    assert phases(game, 7) == phases(game, 2)


def test_narrate_script_prints_any_night(many_nights, run):
    env = make_env(games_dir=many_nights.parent)
    first = run("script", "--players", "6", "--lang", "it", env=env).stdout
    second = run("script", "--players", "6", "--lang", "it", "--night", "2", env=env).stdout
    assert "massone.open" in first and "veggente.open" not in first
    assert "veggente.open" in second and "massone.open" not in second


def test_a_one_night_game_has_no_second_night(run):
    game = load_game(GAMES_DIR / "una-notte-da-lupi")
    assert not game.many_nights
    with pytest.raises(NarratorError, match="plays a single night"):
        settings_for(game, "it", night=2)
    result = run("script", "--players", "6", "--night", "2")
    assert (result.exit_code, result.stderr) == (2, "narrate: Una Notte da Lupi plays a single night: leave out the "
                                                    "night's number\n")


@pytest.mark.parametrize("when, error", [({"night": 0}, "a whole number from 1"),
                                         ({"from_night": "second"}, "a whole number"),
                                         ({"nights": 2}, "nights")])
def test_bad_night_conditions_name_the_field(many_nights, when, error):
    data = yaml.safe_load((many_nights / "game.yaml").read_text(encoding="utf-8"))
    data["wake"][0]["when"] = when
    (many_nights / "game.yaml").write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    with pytest.raises(NarratorError, match=error) as caught:
        load_game(many_nights)
    assert "game.yaml" in str(caught.value)
