"""Decks: recommended, explicit, adjusted and random, each checked against every rule."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from narrator.core.deck import (
    Deck,
    adjust_deck,
    build_deck,
    check_deck,
    deck_from_data,
    make_deck,
    parse_deck_list,
    random_deck,
    recommended_deck,
)
from narrator.core.errors import DeckError, NarratorError, UnknownRoleError

RULEBOOK_3_TO_5 = {  # the rulebook's table: Lupi, Contadini, Veggente, Truffatore, Guastafeste
    3: {"lupo-mannaro": 2, "contadino": 1, "veggente": 1, "truffatore": 1, "guastafeste": 1},
    4: {"lupo-mannaro": 2, "contadino": 2, "veggente": 1, "truffatore": 1, "guastafeste": 1},
    5: {"lupo-mannaro": 2, "contadino": 3, "veggente": 1, "truffatore": 1, "guastafeste": 1},
}
DIGEST_6 = {"lupo-mannaro": 2, "contadino": 2, "massone": 2, "veggente": 1, "truffatore": 1, "guastafeste": 1}
DIGEST_ADDS = {7: "pinguino-mannaro", 8: "mitomane", 9: "mortovivo", 10: "apprendista-stregone"}


def expected_recommended(players):
    if players <= 5:
        return RULEBOOK_3_TO_5[players]
    deck = dict(DIGEST_6)
    for count in range(7, players + 1):
        deck[DIGEST_ADDS[count]] = 1
    return deck


@pytest.mark.parametrize("players", range(3, 11))
def test_recommended_decks_are_the_documented_ones_and_legal(game, players):
    deck = recommended_deck(game, players)
    assert deck.as_dict() == expected_recommended(players)
    assert deck.size == players + 3
    assert check_deck(game, deck, players) == players


@pytest.mark.parametrize("players", [0, 2, 11, -1])
def test_player_count_out_of_range(game, players):
    with pytest.raises(NarratorError, match=f"takes 3 to 10 players, not {players}: choose --players from 3 to 10"):
        recommended_deck(game, players)


def deck_of(game, **counts):
    return make_deck(game, {role.replace("_", "-"): n for role, n in counts.items()})


RULE_BREAKS = {  # rule: (cards, players, the exact message)
    "players-plus-three-too-few": (
        dict(lupo_mannaro=2, veggente=1, massone=2, truffatore=1, contadino=2), 6,
        "6 players need 9 cards; this deck has 8: add 1 role"),
    "players-plus-three-too-many": (
        dict(lupo_mannaro=2, veggente=1, massone=2, truffatore=1, guastafeste=1, contadino=3), 5,
        "5 players need 8 cards; this deck has 10: remove 2 roles"),
    "both-wolves": (
        dict(lupo_mannaro=1, veggente=1, truffatore=1, guastafeste=1, contadino=2), 3,
        "the deck must hold all 2 'lupo-mannaro' cards, it has 1: add 1"),
    "both-wolves-none-given": (
        dict(veggente=1, truffatore=1, guastafeste=1, contadino=3), 3,
        "the deck must hold all 2 'lupo-mannaro' cards, it has 0: add 2"),
    "massoni-only-as-a-pair": (
        dict(lupo_mannaro=2, massone=1, veggente=1, truffatore=1, guastafeste=1, contadino=3), 6,
        "'massone' cards go in together (2) or not at all, the deck has 1: add 1 or remove 1"),
    "pinguino-never-with-criceto": (
        dict(lupo_mannaro=2, veggente=1, truffatore=1, guastafeste=1, contadino=2, pinguino_mannaro=1,
             criceto_mannaro=1), 6,
        "'pinguino-mannaro' and 'criceto-mannaro' never play together: remove one of them"),
    "copies-within-the-box": (
        dict(lupo_mannaro=2, veggente=1, truffatore=1, contadino=4), 5,
        "the box has only 3 'contadino' cards, this deck has 4: remove 1"),
}


@pytest.mark.parametrize("rule", RULE_BREAKS)
def test_each_rule_refuses_the_deck_and_says_how_to_fix_it(game, rule):
    cards, players, message = RULE_BREAKS[rule]
    with pytest.raises(DeckError) as refused:
        check_deck(game, deck_of(game, **cards), players)
    assert str(refused.value) == message


def test_players_follow_from_the_deck_when_not_given(game):
    deck = deck_of(game, lupo_mannaro=2, veggente=1, truffatore=1, guastafeste=1, contadino=2)
    assert check_deck(game, deck) == 4


def test_deck_too_small_for_any_game(game):
    deck = deck_of(game, lupo_mannaro=2, veggente=1)
    with pytest.raises(DeckError, match="^this deck has 3 cards; Una Notte da Lupi needs 6 to 13 \\(players \\+ 3\\)$"):
        check_deck(game, deck)


@pytest.mark.parametrize("text", [
    "lupo-mannaro x2, veggente, truffatore, guastafeste, contadino x2",
    "Lupo Mannaro ×2, VEGGENTE, Truffatore, Guastafeste, Contadino*2",
    "2 lupi mannari, veggente, truffatore, guastafeste, 2 contadini",
    "2x werewolf, seer, robber, troublemaker, villager:2",
    "werewolves 2, Seer, ROBBER, trouble-maker, villagers x 2",
    "lupo mannaro, lupo-mannaro, veggente, truffatore, guastafeste, contadino, contadino,",
])
def test_comma_lists_in_every_spelling(game, text):
    assert parse_deck_list(game, text).as_dict() == {
        "lupo-mannaro": 2, "veggente": 1, "guastafeste": 1, "truffatore": 1, "contadino": 2}


def test_names_ignore_accents_and_apostrophes(game):
    assert game.resolve_role("Sorcerers Apprentice") == "apprendista-stregone"
    assert game.resolve_role("criceto_mannaro") == "criceto-mannaro"
    assert game.resolve_role("VEGGÈNTE") == "veggente"
    assert game.resolve_role("lupomannaro") == "lupo-mannaro"


@pytest.mark.parametrize("typo, suggestion", [
    ("veggentee", "veggente"), ("lupo-manaro", "lupo-mannaro"), ("sere", "seer"), ("contadin", "contadino"),
])
def test_unknown_role_suggests_the_closest(game, typo, suggestion):
    with pytest.raises(UnknownRoleError, match=f"^no role '{typo}' — did you mean '{suggestion}'\\?$"):
        game.resolve_role(typo)


def test_unknown_role_with_nothing_close_lists_the_roles(game):
    with pytest.raises(UnknownRoleError, match=r"^no role 'dragon' \(known roles: lupo-mannaro, veggente, "):
        game.resolve_role("dragon")


@pytest.mark.parametrize("text, message", [
    ("", "names no role"),
    (" , ,", "names no role"),
    ("lupo-mannaro x0, veggente", "at least 1 copy"),
])
def test_bad_comma_lists(game, text, message):
    with pytest.raises(NarratorError, match=message):
        parse_deck_list(game, text)


def test_add_and_remove_adjust_one_card_each(game):
    deck = adjust_deck(game, recommended_deck(game, 6), add=["mitomane"], remove=["contadino"])
    assert deck.copies("mitomane") == 1 and deck.copies("contadino") == 1
    assert check_deck(game, deck, 6) == 6


def test_remove_a_role_not_in_the_deck(game):
    with pytest.raises(DeckError, match="^cannot remove 'mitomane': the deck has none$"):
        adjust_deck(game, recommended_deck(game, 6), remove=["mitomane"])


def test_adding_without_removing_breaks_the_count(game):
    with pytest.raises(DeckError, match="^6 players need 9 cards; this deck has 10: remove 1 role$"):
        build_deck(game, players=6, add=["mitomane"])


def test_build_deck_needs_players_or_cards(game):
    with pytest.raises(NarratorError, match="--players N, or give the cards with --deck"):
        build_deck(game)


def test_build_deck_refuses_random_with_explicit_cards(game):
    with pytest.raises(NarratorError, match="--deck and --random do not mix"):
        build_deck(game, base=recommended_deck(game, 5), rng=random.Random(1))


@pytest.mark.parametrize("data, players", [
    ({"lupo-mannaro": 2, "veggente": 1, "truffatore": 1, "guastafeste": 1, "contadino": 2}, None),
    ({"cards": {"Lupi Mannari": 2, "Seer": None, "truffatore": 1, "guastafeste": 1, "contadino": 2}, "players": 4}, 4),
    ({"cards": ["lupo-mannaro x2", "veggente", "truffatore", {"guastafeste": 1}, "2 contadini"]}, None),
    (["lupo-mannaro", "lupo-mannaro", "veggente", "truffatore", "guastafeste", "contadino x2"], None),
])
def test_deck_files_in_every_shape(game, data, players):
    deck, stated = deck_from_data(game, data, "deck.yaml")
    assert stated == players
    assert deck.as_dict() == {"lupo-mannaro": 2, "veggente": 1, "guastafeste": 1, "truffatore": 1, "contadino": 2}


@pytest.mark.parametrize("data, message", [
    ("just text", r"^deck.yaml: expected a deck \(role: copies, or a list of roles\), got 'just text'$"),
    ({"veggentee": 1}, "^deck.yaml: no role 'veggentee' — did you mean 'veggente'\\?$"),
    ({"veggente": "one"}, "^deck.yaml: veggente: expected a number of copies from 1, got 'one'$"),
    ({"cards": {"veggente": 1}, "players": "six"}, "^deck.yaml: players: expected a whole number, got 'six'$"),
    ({"cards": {"veggente": 1}, "spare": 1}, "^deck.yaml: unknown field 'spare'"),
    ([], "^deck.yaml: the deck names no role$"),
    ([["veggente"]], r"^deck.yaml: expected a role name or 'role: copies', got \['veggente'\]$"),
])
def test_bad_deck_files(game, data, message):
    with pytest.raises(NarratorError, match=message):
        deck_from_data(game, data, "deck.yaml")


@settings(max_examples=300, deadline=None)
@given(players=st.integers(3, 10), seed=st.integers(0, 2**32))
def test_random_decks_are_always_legal_and_reproducible(game, players, seed):
    deck = random_deck(game, players, random.Random(seed))
    assert check_deck(game, deck, players) == players
    assert deck == random_deck(game, players, random.Random(seed))


def test_random_decks_vary(game):
    decks = {random_deck(game, 7, random.Random(seed)) for seed in range(40)}
    assert len(decks) > 10


@settings(max_examples=300, deadline=None)
@given(counts=st.fixed_dictionaries({}, optional={
    role: st.integers(0, 4) for role in ["lupo-mannaro", "veggente", "massone", "mitomane", "guastafeste",
                                         "apprendista-stregone", "truffatore", "mortovivo", "contadino",
                                         "pinguino-mannaro", "criceto-mannaro"]}))
def test_check_deck_accepts_exactly_the_legal_decks(game, counts):
    deck = make_deck(game, counts)
    legal = (
        deck.copies("lupo-mannaro") == 2
        and deck.copies("massone") in (0, 2)
        and not (deck.copies("pinguino-mannaro") and deck.copies("criceto-mannaro"))
        and all(deck.copies(role.id) <= role.copies for role in game.roles)
        and 6 <= deck.size <= 13
    )
    try:
        check_deck(game, deck)
        accepted = True
    except DeckError:
        accepted = False
    assert accepted == legal


def test_deck_keeps_catalog_order(game):
    assert make_deck(game, {"contadino": 1, "lupo-mannaro": 2}) == Deck((("lupo-mannaro", 2), ("contadino", 1)))
