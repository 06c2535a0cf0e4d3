"""Games of many nights: turns that come only on some nights ({night: N}, {from_night: N})."""

import shutil

import pytest
import yaml

from narrator.core.deck import recommended_deck
from narrator.core.errors import NarratorError
from narrator.core.game import CARD_TEXTS
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
    (folder / "rules.py").unlink()  # its vote is a single night's: these nights are only narrated,
    data = yaml.safe_load((folder / "game.yaml").read_text(encoding="utf-8"))  # with no field its rules read
    data["nights"] = "many"
    data["roles"] = [{key: value for key, value in role.items() if key in ("id", "copies", "side", "in_deck",
                                                                           "excludes")} for role in data["roles"]]
    for slot in data["wake"]:
        if slot["id"] == "massone":
            slot["when"] = {"night": 1}
        if slot["id"] == "veggente":
            slot["when"] = {"from_night": 2}
    (folder / "game.yaml").write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    for lang in ("it", "en"):  # a game of many nights heads each night on its card
        texts = yaml.safe_load((folder / f"{lang}.yaml").read_text(encoding="utf-8"))
        texts["card"] = {key: value for key, value in texts["card"].items() if key in CARD_TEXTS + ("win", "wins", "setup_with")}
        texts["card"] |= {"night_number": "N{night}", "night_onwards": "N{night}+"}
        texts["vote"] = {"and": texts["vote"]["and"]}
        (folder / f"{lang}.yaml").write_text(yaml.safe_dump(texts, allow_unicode=True), encoding="utf-8")
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


LUPUS = GAMES_DIR / "lupus-in-tabula"


def digest_night(deck_roles, night):
    """Lupus in Tabula's night by the digest's table, written out independently of the game's data:
    Medium (from the 2nd), Massoni (1st only), Veggente, Gufo, Guardia del corpo (from the 2nd),
    Lupi Mannari, Mitomane (end of the 2nd only), each when its character is in the deck."""
    table = [("medium", night >= 2), ("massone", night == 1), ("veggente", True), ("gufo", True),
             ("guardia-del-corpo", night >= 2), ("lupo-mannaro", True), ("mitomane", night == 2)]
    return tuple(role for role, tonight in table if tonight and role in deck_roles)


@pytest.mark.parametrize("players", range(8, 25))
def test_lupus_every_night_of_every_deck_follows_the_digest(players):
    game = load_game(LUPUS)
    deck = recommended_deck(game, players)
    for night in range(1, 6):
        script = generate_script(game, deck, settings_for(game, "it", night=night))
        assert script.phases == digest_night(deck.role_ids, night), (players, night)
        keys = [cue.key for cue in script.cues() if not cue.key.startswith("count.")]
        # The customary first night: the lupi only meet; from the second they choose a victim.
        assert ("lupo-mannaro.open-first" in keys) == (night == 1)
        assert ("lupo-mannaro.open" in keys) == (night > 1)
        assert keys[0] == "night.start" and keys[-1] == "day.start"


def test_lupus_recommended_decks_follow_the_digest():
    game = load_game(LUPUS)
    minimum = {"medium": 9, "indemoniato": 10, "guardia-del-corpo": 11, "gufo": 12, "massone": 13,
               "criceto-mannaro": 15, "mitomane": 16}
    for players in range(8, 25):
        cards = recommended_deck(game, players).as_dict()
        assert sum(cards.values()) == players
        assert cards["lupo-mannaro"] == (3 if players >= 16 else 2) and cards["veggente"] == 1
        assert all(players >= minimum[role] for role in cards if role in minimum)
        assert cards.get("massone", 0) in (0, 2)
    assert recommended_deck(game, 8).as_dict() == {"lupo-mannaro": 2, "veggente": 1, "villico": 5}


def test_lupus_without_a_moderator_calls_the_veggente_and_the_lupi_with_ten_second_counts():
    game = load_game(LUPUS)
    settings = settings_for(game, "it", options={"vecchio-saggio": True}, night=1)
    script = generate_script(game, recommended_deck(game, 8), settings)
    assert script.phases == ("veggente", "lupo-mannaro")
    keys = [cue.key for cue in script.cues() if not cue.key.startswith("count.")]
    assert keys == ["night.start", "veggente.open-alone", "veggente.close", "lupo-mannaro.open-alone",
                    "lupo-mannaro.close", "day.start-alone"]
    from narrator.core.script import Count

    assert [segment.seconds for segment in script.segments if isinstance(segment, Count)] == [10, 10]


def test_the_night_horizon_is_one_past_the_highest_night_named(many_nights):
    """From the horizon on every night is called alike: the card prints nights up to it."""
    assert load_game(LUPUS).night_horizon == 3  # {night: 2} (the Mitomane) is the highest named
    assert load_game(GAMES_DIR / "una-notte-da-lupi").night_horizon == 1
    assert load_game(many_nights).night_horizon == 3  # {from_night: 2}: nights 1, 2 and every one after
    lupus = load_game(LUPUS)
    deck = recommended_deck(lupus, 24)
    assert [slot.id for slot in lupus.slots_of_any_night(deck.role_ids, lupus.option_defaults)] == [
        "medium", "massone", "veggente", "gufo", "guardia-del-corpo", "lupo-mannaro", "mitomane"]


@pytest.mark.parametrize("night, woken", [(1, False), (2, True), (5, True)])
def test_the_ghosts_wake_at_the_end_of_each_night_from_the_second_in_the_minaccia_fantasma(night, woken):
    game = load_game(LUPUS)
    deck = recommended_deck(game, 12)
    keys = [cue.key for cue in generate_script(game, deck, settings_for(
        game, "en", options={"minaccia-fantasma": True}, night=night)).cues() if not cue.key.startswith("count.")]
    ghosts = ["fantasmi.open", "fantasmi.close"]
    assert (keys[-3:-1] == ghosts) == woken and ("fantasmi.open" in keys) == woken
    plain = [cue.key for cue in generate_script(game, deck, settings_for(game, "en", night=night)).cues()]
    assert "fantasmi.open" not in plain


def test_night_scripts_are_every_night_that_differs():
    from narrator.core.script import night_scripts

    for folder, nights in ((LUPUS, [1, 2, 3]), (GAMES_DIR / "una-notte-da-lupi", [1])):
        game = load_game(folder)
        scripts = night_scripts(game, recommended_deck(game, 8), settings_for(game, "it"))
        assert [script.settings.night for script in scripts] == nights
