"""The moderator's sheet, as content (narrator.core.sheet): the seating with each player's card or
a blank to fill in, and the grids' columns, which are the game's own (its game.yaml's sheet:)."""

import shutil

import pytest

from narrator.core.deck import make_deck, recommended_deck, usual_deck
from narrator.core.errors import DataError
from narrator.core.script import settings_for
from narrator.core.sheet import has_sheet, sheet_content
from narrator.games.loader import available_games, load_game
from tests.conftest import GAMES_DIR
from tests.examples import load_examples

SHIPPED = {game_id: load_game(GAMES_DIR / game_id) for game_id in available_games(GAMES_DIR)}
GAMES = {**SHIPPED, **load_examples()}  # and the smallest games of scripts/README.md, which have no sheet
LUPUS, LEARTS = SHIPPED["lupus-in-tabula"], SHIPPED["learts-variant"]


def options(game, **on):
    return settings_for(game, game.default_language or "en", options={name.replace("_", "-"): value
                                                                     for name, value in on.items()}).options


def test_only_a_game_played_with_a_moderator_has_a_sheet():
    """Every game at its least players: a sheet where its data gives one and a moderator keeps the
    game; a game of one night has none, nor a variant without a moderator."""
    for game in GAMES.values():
        deck = usual_deck(game, game.min_players)
        for on in (dict(game.option_defaults), {**game.option_defaults, **{name: True for name in game.option_defaults}}):
            moderated = game.plays_rounds and game.moderated(deck.role_ids, on)
            assert has_sheet(game, deck, on) == (bool(game.sheet) and moderated), game.id
            assert not game.sheet or game.many_nights, game.id
    assert not has_sheet(LUPUS, recommended_deck(LUPUS, 8), options(LUPUS, vecchio_saggio=True))
    assert has_sheet(LUPUS, recommended_deck(LUPUS, 8), options(LUPUS))
    assert has_sheet(LEARTS, recommended_deck(LEARTS, 8), options(LEARTS))


@pytest.mark.parametrize("lang", ["it", "en"])
def test_lupus_columns_follow_the_deck_and_the_ghosts(lang):
    """8 players (lupi, Veggente, villici): the victim, the seen, the dead; 16 (every character)
    adds the Guardia's protected, the gufato and the Mitomane's copy; La Minaccia Fantasma the
    sword and the shield. Each day: the two indiziati, the lynched."""
    texts = LUPUS.languages[lang].card
    small = sheet_content(LUPUS, recommended_deck(LUPUS, 8), lang, options(LUPUS), 8)
    assert small.night_columns == tuple(texts[key] for key in ("sheet_victim", "sheet_seen", "sheet_dead"))
    assert small.day_columns == (texts["sheet_suspects"], texts["sheet_lynched"])
    full = sheet_content(LUPUS, recommended_deck(LUPUS, 16), lang, options(LUPUS, minaccia_fantasma=True), 16)
    assert full.night_columns == tuple(texts[key] for key in (
        "sheet_victim", "sheet_protected", "sheet_seen", "sheet_owl", "sheet_copied", "sheet_sword", "sheet_shield",
        "sheet_dead"))
    assert (full.nights, full.night, full.days, full.day) == tuple(
        texts[key] for key in ("sheet_nights", "sheet_night", "sheet_days", "sheet_day"))


@pytest.mark.parametrize("lang", ["it", "en"])
def test_learts_columns_follow_the_deck_and_the_martyrs_option(lang):
    texts = LEARTS.languages[lang].card
    eight = sheet_content(LEARTS, recommended_deck(LEARTS, 8), lang, options(LEARTS), 8)
    assert eight.night_columns == tuple(texts[key] for key in (
        "sheet_visited", "sheet_guarded", "sheet_robbed", "sheet_attacked", "sheet_watched", "sheet_aura",
        "sheet_dead"))
    assert eight.day_columns == (texts["sheet_burned"],)
    full = recommended_deck(LEARTS, 24)
    revived = sheet_content(LEARTS, full, lang, options(LEARTS), 24)
    shielded = sheet_content(LEARTS, full, lang, options(LEARTS, martire_protezione=True), 24)
    assert revived.night_columns[0] == texts["sheet_revived"] and shielded.night_columns[0] == texts["sheet_shielded"]
    assert revived.day_columns == (texts["sheet_burned"], texts["sheet_pardoned"])


def test_the_seating_names_each_seat_and_card_or_leaves_them_to_write_in():
    deck = recommended_deck(LUPUS, 8)
    blank = sheet_content(LUPUS, deck, "en", options(LUPUS), 8)
    assert [(seat.number, seat.name, seat.card) for seat in blank.seats] == [(n, "", "") for n in range(1, 9)]
    names = ["Anna", "Bruno", "Carla", "Dario", "Elena", "Fabio", "Gino", "Ida"]
    cards = dict(zip(names, ["lupo-mannaro", "villico", "villico", "veggente", "villico", "lupo-mannaro", "villico",
                             "villico"], strict=True))
    dealt = sheet_content(LUPUS, deck, "en", options(LUPUS), 8, names, cards)
    assert [(seat.number, seat.name, seat.card) for seat in dealt.seats][:4] == [
        (1, "Anna", "Werewolf"), (2, "Bruno", "Villager"), (3, "Carla", "Villager"), (4, "Dario", "Seer")]
    numbered = sheet_content(LUPUS, deck, "it", options(LUPUS), 8, None, {str(n): "villico" for n in range(1, 9)})
    assert {(seat.name, seat.card) for seat in numbered.seats} == {("", "Villico")}
    assert dealt.seat_headers == ("Seat", "Player", "Card", "Notes")
    assert dealt.title == "Lupus in Tabula · Moderator's sheet"


def test_every_column_has_its_heading_in_every_language_and_each_grid_has_columns():
    for game in GAMES.values():
        if game.sheet:
            assert {column.moment for column in game.sheet} == {"night", "day"}, game.id
            for lang, language in game.languages.items():
                assert all(language.card[column.key] for column in game.sheet), (game.id, lang)


def test_the_columns_are_those_whose_condition_holds_for_the_deck_and_the_options():
    game = SHIPPED["learts-variant"]
    every = make_deck(game, {role.id: role.copies for role in game.roles})
    revived = sheet_content(game, every, "en", {**game.option_defaults, "martire-protezione": False}, 24)
    shielded = sheet_content(game, every, "en", {**game.option_defaults, "martire-protezione": True}, 24)
    texts = game.languages["en"].card
    assert revived.night_columns[0] == texts["sheet_revived"] and texts["sheet_shielded"] not in revived.night_columns
    assert shielded.night_columns[0] == texts["sheet_shielded"] and texts["sheet_revived"] not in shielded.night_columns
    assert revived.day_columns == (texts["sheet_burned"], texts["sheet_pardoned"])


def copy_of(tmp_path, game_id, name, old, new):
    folder = tmp_path / game_id
    shutil.copytree(GAMES_DIR / game_id, folder)
    path = folder / name
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return folder


def test_a_sheet_of_a_moment_other_than_night_and_day_or_of_an_unknown_role_does_not_load(tmp_path):
    folder = copy_of(tmp_path, "lupus-in-tabula", "game.yaml", "  day: [sheet_suspects, sheet_lynched]",
                     "  dusk: [sheet_suspects, sheet_lynched]")
    with pytest.raises(DataError, match=r"game.yaml: sheet: unknown field 'dusk' \(known: day, night\)"):
        load_game(folder)
    folder = copy_of(tmp_path / "other", "lupus-in-tabula", "game.yaml", "{deck_has: gufo}", "{deck_has: gufetto}")
    with pytest.raises(DataError, match=r"game.yaml: sheet.night\[3\].when: no role 'gufetto'"):
        load_game(folder)


def test_a_column_without_its_heading_in_a_language_does_not_load(tmp_path):
    folder = copy_of(tmp_path, "lupus-in-tabula", "it.yaml", "  sheet_owl:", "  sheet_gufo:")
    with pytest.raises(DataError, match=r"it.yaml.*sheet_owl"):
        load_game(folder)


def test_a_game_with_a_sheet_names_its_parts_in_every_language(tmp_path):
    folder = copy_of(tmp_path, "learts-variant", "en.yaml", '  sheet_nights: "The nights"\n', "")
    with pytest.raises(DataError, match=r"en.yaml.*sheet_nights"):
        load_game(folder)
