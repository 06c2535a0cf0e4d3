"""Wherewolf Revised's Possibili and Effettivi (scripts/wherewolf-revised/rules.py): the project's
default list for every table of one and of two moons, every set drawn among any Possibili legal,
every legal deck accepted, and each broken rule named."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from narrator.core.deck import build_deck, make_deck, possible_roles
from narrator.core.errors import DeckError
from narrator.games import GAMES_DIR
from narrator.games.loader import load_game

GAME = load_game(GAMES_DIR / "wherewolf-revised")
RULES = GAME.rules
CONTADINI = ("contadino", "contadino-eroe", "contadino-discendente")


def options(**chosen):
    return {**GAME.option_defaults, **chosen}


def test_the_default_list_is_the_digests_for_a_first_game_of_one_moon():
    # 8 players: a quarter on the shadow side (2), six humans, and the next two of each list.
    assert possible_roles(GAME, 8, options(**{"due-lune": False})) == (
        "veggente", "mago", "medium", "strega", "guaritore", "eremita", "contadino", "contadino-eroe",
        "capo-branco", "lupo-del-branco", "giovane-lupo", "traditore")
    assert RULES.shadow_count(8) == 2 and RULES.shadow_count(10) == 3  # rounded half up


@pytest.mark.parametrize("moons, players", [(1, n) for n in range(8, 20)] + [(2, n) for n in range(8, 37)])
def test_every_table_has_a_default_list_and_draws_a_legal_set_from_it(moons, players):
    chosen = options(**{"due-lune": moons == 2})
    possible = possible_roles(GAME, players, chosen)
    assert players <= len(possible) <= 2 * players
    assert all(GAME.role(role_id).trait("moons") <= moons for role_id in possible)
    for seed in range(3):
        deck, seated = build_deck(GAME, players=players, rng=random.Random(seed), options=chosen)
        assert seated == players and deck.role_ids <= set(possible)
        assert {"veggente", "capo-branco"} <= deck.role_ids
        shadow = sum(deck.copies(role_id) for role_id in RULES.START_SHADOW)
        assert shadow == min(RULES.shadow_count(players), len(set(possible) & set(RULES.START_SHADOW)))


def test_one_moon_seats_nineteen_at_most_and_says_so():
    with pytest.raises(DeckError, match="the box holds cards for 19 players at most, not 20"):
        build_deck(GAME, players=20, rng=random.Random(1), options=options(**{"due-lune": False}))
    with pytest.raises(DeckError, match="cards for 35 players at most, not 36"):
        build_deck(GAME, players=36, rng=random.Random(1), options=options(**{"rivelazione-ruolo": True}))


@st.composite
def possibili(draw):
    """Any list the group could agree for some table: the Veggente and the Capo Branco, and others."""
    others = [role.id for role in GAME.roles if role.id not in ("veggente", "capo-branco")]
    chosen = draw(st.lists(st.sampled_from(others), unique=True, min_size=6, max_size=len(others)))
    counts = {"veggente": 1, "capo-branco": 1, **{role_id: 1 for role_id in chosen}}
    if "contadino" in counts and draw(st.booleans()):
        counts["contadino"] = 2
    seatable = sum(counts.values()) - max(0, sum(counts.get(role_id, 0) for role_id in CONTADINI) - 2)
    players = draw(st.integers(min_value=max(8, (sum(counts.values()) + 1) // 2), max_value=max(8, seatable)))
    return counts, players


@settings(max_examples=150, deadline=None)
@given(possibili(), st.integers(min_value=0, max_value=10 ** 6))
def test_every_set_drawn_among_any_possibili_keeps_the_rules(chosen, seed):
    counts, players = chosen
    seatable = sum(counts.values()) - max(0, sum(counts.get(role_id, 0) for role_id in CONTADINI) - 2)
    if players > seatable or not players <= sum(counts.values()) <= 2 * players:
        with pytest.raises(DeckError):
            build_deck(GAME, players=players, rng=random.Random(seed), options=options(), possible=counts)
        return
    deck, seated = build_deck(GAME, players=players, rng=random.Random(seed), options=options(), possible=counts)
    assert seated == players
    assert all(copies <= counts.get(role_id, 0) for role_id, copies in deck.counts)
    assert sum(deck.copies(role_id) for role_id in CONTADINI) <= 2
    assert dict(deck.possible) == counts


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from([role.id for role in GAME.roles if role.id not in ("veggente", "capo-branco")]),
                unique=True, min_size=6, max_size=34))
def test_every_legal_deck_is_accepted(others):
    counts = {"veggente": 1, "capo-branco": 1, **{role_id: 1 for role_id in others}}
    extra = sum(counts.get(role_id, 0) for role_id in CONTADINI) - 2
    for role_id in CONTADINI[::-1]:  # at most two Contadino cards
        if extra > 0 and counts.pop(role_id, None):
            extra -= 1
    if sum(counts.values()) < 8:
        return
    deck, players = build_deck(GAME, base=make_deck(GAME, counts), options=options())
    assert players == sum(counts.values())


@pytest.mark.parametrize("counts, chosen, message", [
    ({"mago": 1, "capo-branco": 1, "contadino": 2, "strega": 1, "medium": 1, "eremita": 1, "bardo": 1},
     {}, "every game has the 'veggente'"),
    ({"veggente": 1, "lupo-del-branco": 1, "contadino": 2, "strega": 1, "medium": 1, "eremita": 1, "bardo": 1},
     {}, "every game has the 'capo-branco'"),
    ({"veggente": 1, "capo-branco": 1, "contadino": 2, "contadino-eroe": 1, "medium": 1, "eremita": 1, "bardo": 1},
     {}, "at most 2 Contadino cards, this deck has 3: remove 1"),
    ({"veggente": 1, "capo-branco": 1, "contadino": 2, "vampiro": 1, "medium": 1, "eremita": 1, "bardo": 1},
     {"due-lune": False}, "'vampiro' is a card of two moons"),
    ({"veggente": 1, "capo-branco": 1, "contadino": 2, "strega": 1, "medium": 1, "eremita": 1, "bardo": 1},
     {"rivelazione-ruolo": True}, "'medium' does not play with these options"),
    ({"veggente": 1, "capo-branco": 1, "contadino": 2, "strega": 1, "spia": 1, "eremita": 1, "bardo": 1},
     {"votazione-scoperta": True}, "'spia' does not play with these options"),
])
def test_each_broken_rule_is_named(counts, chosen, message):
    with pytest.raises(DeckError, match=message):
        build_deck(GAME, base=make_deck(GAME, counts), options=options(**chosen))


def test_a_dealt_card_must_be_among_the_possibili():
    deck = make_deck(GAME, {"veggente": 1, "capo-branco": 1, "contadino": 2, "strega": 1, "mago": 1, "eremita": 1,
                            "bardo": 1})
    with pytest.raises(DeckError, match="'bardo' is dealt but not among the possible roles"):
        build_deck(GAME, base=deck, options=options(), possible={"veggente": 1, "capo-branco": 1, "contadino": 2,
                                                                  "strega": 1, "mago": 1, "eremita": 1, "oste": 1,
                                                                  "medium": 1})


@pytest.mark.parametrize("possible, players, message", [
    ({"veggente": 3, "capo-branco": 1, "mago": 1, "strega": 1, "medium": 1, "eremita": 1, "contadino": 2}, 8,
     "the box has only 1 'veggente' card"),
    ({"veggente": 1, "capo-branco": 1, "mago": 1}, 8, "the possible roles are 3 cards: 8 players agree 8 to 16"),
    ({"veggente": 1, "mago": 1, "strega": 1, "medium": 1, "eremita": 1, "bardo": 1, "oste": 1, "contadino": 2}, 8,
     "the possible roles: every game has the 'capo-branco'"),
])
def test_a_list_of_possibili_that_does_not_do_is_refused_with_its_reason(possible, players, message):
    with pytest.raises(DeckError, match=message):
        build_deck(GAME, players=players, rng=random.Random(0), options=options(), possible=possible)
