"""The moderator's sheet, as content (narrator.core.sheet): the seating with each player's card or
a blank to fill in, and the grids' columns, which are the game's own (its rules' sheet_columns)."""

import shutil

import pytest

from narrator.core.deck import make_deck, recommended_deck
from narrator.core.errors import DataError
from narrator.core.nights import COLUMN_MOMENTS, Column
from narrator.core.script import settings_for
from narrator.core.sheet import has_sheet, sheet_content
from narrator.games.loader import available_games, load_game
from tests.conftest import GAMES_DIR

SHIPPED = {game_id: load_game(GAMES_DIR / game_id) for game_id in available_games(GAMES_DIR)}
LUPUS, LEARTS = SHIPPED["lupus-in-tabula"], SHIPPED["learts-variant"]


def options(game, **on):
    return settings_for(game, game.default_language or "en", options={name.replace("_", "-"): value
                                                                     for name, value in on.items()}).options


def test_only_a_game_played_with_a_moderator_has_a_sheet():
    """Every shipped game at its least players: the sheet exactly where a moderator keeps the
    game; a game of one night has none, nor a variant without a moderator."""
    for game in SHIPPED.values():
        deck = recommended_deck(game, game.min_players)
        for on in (dict(game.option_defaults), {**game.option_defaults, **{name: True for name in game.option_defaults}}):
            assert has_sheet(game, deck, on) == (game.plays_rounds and game.moderated(deck.role_ids, on)), game.id
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


def test_every_column_is_of_a_night_or_a_day():
    for game in SHIPPED.values():
        if game.plays_rounds:
            deck = make_deck(game, {role.id: role.copies for role in game.roles})  # every card: every column
            for lang, language in game.languages.items():
                columns = game.rules.sheet_columns(game, language, deck, {name: True for name in game.option_defaults})
                assert columns and all(isinstance(column, Column) and column.moment in COLUMN_MOMENTS
                                       for column in columns), (game.id, lang)
                assert {column.moment for column in columns} == set(COLUMN_MOMENTS)


def copy_of(tmp_path, game_id, name, old, new):
    folder = tmp_path / game_id
    shutil.copytree(GAMES_DIR / game_id, folder)
    path = folder / name
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return folder


def test_a_sheets_columns_of_no_moment_are_an_error_naming_the_rules(tmp_path):
    folder = copy_of(tmp_path, "lupus-in-tabula", "rules.py", 'Column("day", texts[key])', 'Column("dusk", texts[key])')
    game = load_game(folder)
    with pytest.raises(DataError, match=r"rules.py: sheet_columns gives Column\(moment='dusk'"):
        sheet_content(game, recommended_deck(game, 8), "it", options(game), 8)


def test_a_game_with_a_sheet_names_its_parts_in_every_language(tmp_path):
    folder = copy_of(tmp_path, "learts-variant", "en.yaml", '  sheet_nights: "The nights"\n', "")
    with pytest.raises(DataError, match=r"en.yaml.*sheet_nights"):
        load_game(folder)
