"""Wherewolf in Tabula's set (scripts/wherewolf-in-tabula/rules.py): the digest's table, the
legality rules, the Possibili; every draw legal, every legal deck accepted."""

import random
import re
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from narrator.core.deck import check_deck, parse_deck_list
from narrator.core.deck import make_deck as core_deck
from narrator.core.errors import NarratorError
from narrator.games import GAMES_DIR
from narrator.games.loader import load_game

GAME = load_game(GAMES_DIR / "wherewolf-in-tabula")
deal = GAME.rules  # the set's functions live in the game's rules
CONTADINI, ROLES, draw_counts, possible, problem = deal.CONTADINI, deal.ROLES, deal.draw_counts, deal.possible, \
    deal.problem

PLAYERS = tuple(range(8, 25))
OPTIONS = (True, False)  # necromancing on, off
SEMPLICE = "contadino-semplice"
PACK = ("capo-branco", "lupo-del-branco", "giovane-lupo")
OTHER_MYSTICS = ("mago", "medium", "strega", "guaritore")
FILLERS = ("megera", "traditore", "becchino")
VILLAGE_POOL = ("bardo", "oste", "bracconiere", "eremita", "monaco", "prete", "peccatore")


def table_row(cells: str) -> dict[int, str]:
    return dict(zip(PLAYERS, cells.split(), strict=True))


# The digest's table, as written (H with necromancing on; 3+S = the three pack kinds and the lupo-solitario).
TABLE_W = table_row("1 1 1 1 2 2 2 2 3 3 3 3 3+S 3+S 3+S 3+S 3+S")
TABLE_V = table_row("4 4 5 5 6 6 7 7 8 8 9 9 10 10 11 11 12")
TABLE_M = table_row("1 1 1 1 2 2 2 2 3 3 3 3 3 3 3 3 3")
TABLE_H = table_row("0 1 1 2 0 1 1 2 0 1 1 2 1 2 2 3 3")
TABLE_SEMPLICI = table_row("0 0 0 0 0 0 0 0 0 0 1 1 2 2 3 3 4")

# Where the formula does not reproduce the table: 5 pool seats (V - 2 = 5) can end with one seat
# left and only the prete+peccatore pair undrawn (probability 4/15), so one contadino-semplice joins.
SEMPLICI_DISAGREE = {14: {0, 1}, 15: {0, 1}}


def table_holes(players: int, necromancing: bool) -> int:
    return int(TABLE_H[players]) + (0 if necromancing else 1)  # off: no negromante, one more hole


def table_wolves(players: int) -> tuple[int, bool]:
    """(pack kinds, lupo-solitario) by the table."""
    cell = TABLE_W[players]
    return (3, True) if cell == "3+S" else (int(cell), False)


# --- oracles, written apart from deal.py ------------------------------------------------------------

def filler_cap(deck: dict[str, int], necromancing: bool) -> int:
    """The most hole fillers the deck's Contadini allow."""
    fillers = {"megera", "traditore"} | ({"becchino"} if necromancing else set())
    if "contadino-discendente-dei-lupi" in deck:
        fillers.discard("traditore")
    cap = len(fillers)
    if "contadino-mostro" in deck and {"becchino", "megera"} <= fillers:
        cap -= 1
    return cap


def pool_overflow(seats: int) -> set[int]:
    """contadino-semplice cards beyond the Contadini for `seats` pool seats: the pool holds four single
    draws (bracconiere, eremita, two of oste/bardo/monaco) and the pair; with 5 seats the pair may be
    left for the last seat, where it cannot go."""
    if seats >= 6:
        return {seats - 6}
    return {0, 1} if seats == 5 else {0}


def legal(deck: dict[str, int], necromancing: bool) -> bool:
    """The digest's legality rules, plainly."""
    cards = {role_id: copies for role_id, copies in deck.items() if copies}
    has = cards.__contains__
    return (all(role_id in ROLES for role_id in cards)
            and all(copies == 1 or role_id == SEMPLICE for role_id, copies in cards.items())
            and 8 <= sum(cards.values()) <= 24
            and has("veggente")
            and has("negromante") == necromancing and (necromancing or not has("becchino"))
            and sum(cards.get(role_id, 0) for role_id in CONTADINI) >= 2
            and (has("capo-branco") or has("lupo-del-branco"))
            and has("prete") == has("peccatore")
            and sum(map(has, ("oste", "bardo", "monaco"))) <= 2
            and (not has("lupo-solitario") or has("bracconiere"))
            and (not has("megera") or has("mago"))
            and not (has("contadino-mostro") and has("becchino") and has("megera"))
            and not (has("contadino-discendente-dei-lupi") and has("traditore")))


# --- the draws ------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def draws() -> list[tuple[int, bool, dict[str, int]]]:
    """10,000 seeded draws, spread evenly over every player count and both options."""
    rng = random.Random(20240601)
    tables = [(players, necromancing) for players in PLAYERS for necromancing in OPTIONS]
    return [(players, necromancing, draw_counts(players, necromancing, rng))
            for players, necromancing in (tables[i % len(tables)] for i in range(10_000))]


def count(deck: dict[str, int], role_ids) -> int:
    return sum(deck.get(role_id, 0) for role_id in role_ids)


def test_formula_reproduces_the_tables_counts():
    for players in PLAYERS:
        pack, lone = table_wolves(players)
        assert deal.wolf_count(players) == pack + lone, players
        assert deal.villager_count(players) == int(TABLE_V[players]), players
        assert deal.mystic_count(players) == int(TABLE_M[players]), players
        for necromancing in OPTIONS:
            assert deal.hole_count(players, necromancing) == table_holes(players, necromancing), players


def test_24_players_deal_no_fifth_wolf_and_its_seat_is_a_hole():
    assert 24 // 4 - 1 == 5 and deal.wolf_count(24) == 4
    assert deal.hole_count(24, True) == 3 == int(TABLE_H[24])


def test_semplici_row_against_the_formula():
    for players in PLAYERS:
        expected = SEMPLICI_DISAGREE.get(players, {int(TABLE_SEMPLICI[players])})
        assert pool_overflow(int(TABLE_V[players]) - 2) == expected, players


@pytest.mark.parametrize("necromancing", OPTIONS)
@pytest.mark.parametrize("players", PLAYERS)
def test_draws_follow_the_table(draws, players, necromancing):
    mine = [deck for n, option, deck in draws if (n, option) == (players, necromancing)]
    assert len(mine) > 250
    pack, lone = table_wolves(players)
    holes = table_holes(players, necromancing)
    for deck in mine:
        assert sum(deck.values()) == players
        assert (count(deck, PACK), "lupo-solitario" in deck) == (pack, lone)
        if pack == 1:
            assert "giovane-lupo" not in deck
        assert count(deck, OTHER_MYSTICS) == int(TABLE_M[players])
        fillers = count(deck, FILLERS)
        assert fillers == min(holes, filler_cap(deck, necromancing))
        leftover = holes - fillers
        assert count(deck, CONTADINI + VILLAGE_POOL) == int(TABLE_V[players]) + leftover
        semplici_beyond = count(deck, CONTADINI) - 2
        assert semplici_beyond in pool_overflow(int(TABLE_V[players]) - 2 + leftover)
        if leftover == 0:
            assert semplici_beyond in SEMPLICI_DISAGREE.get(players, {int(TABLE_SEMPLICI[players])})


@pytest.mark.parametrize("players", sorted(SEMPLICI_DISAGREE))
def test_five_pool_seats_sometimes_leave_a_semplice(players):
    rng = random.Random(players)
    seen = {count(deck, CONTADINI) - 2 for deck in (draw_counts(players, True, rng) for _ in range(300))
            if count(deck, FILLERS) == table_holes(players, True)}
    assert seen == {0, 1}


def test_every_draw_is_legal(draws):
    for players, necromancing, deck in draws:
        assert problem(deck, necromancing) is None, (players, necromancing, deck, str(problem(deck, necromancing)))
        assert sum(deck.values()) == players
        assert list(deck) == [role_id for role_id in ROLES if role_id in deck]
        assert all(copies >= 1 for copies in deck.values())


def test_contadini_pairs(draws):
    """Every pair of identities occurs, two semplici included, and no non-semplice identity twice."""
    pairs = Counter()
    for _, _, deck in draws:
        others = tuple(role_id for role_id in CONTADINI[1:] if role_id in deck)
        pairs[others + (SEMPLICE,) * (2 - len(others))] += 1
    assert len(pairs) == 1 + 3 + 3  # two semplici, a semplice and another, two different others
    assert all(len(pair) == 2 for pair in pairs)


def test_draws_are_deterministic_for_a_seed():
    first = [draw_counts(players, True, random.Random(7)) for players in PLAYERS]
    again = [draw_counts(players, True, random.Random(7)) for players in PLAYERS]
    assert first == again
    rng = random.Random(1)
    assert len({tuple(draw_counts(15, True, rng).items()) for _ in range(50)}) > 1


# --- legality: hand-written decks -----------------------------------------------------------------

def make_deck(*role_ids: str, **copies: int) -> dict[str, int]:
    cards = dict(Counter(role_ids))
    cards.update(copies)
    return cards


def edited(base: dict[str, int], remove=(), add=()) -> dict[str, int]:
    cards = Counter(base)
    cards.subtract(Counter(remove))
    assert all(copies >= 0 for copies in cards.values()), "removing a card the deck does not have"
    cards.update(Counter(add))
    return {role_id: copies for role_id, copies in cards.items() if copies}


NINE = make_deck("veggente", "negromante", "lupo-del-branco", "contadino-mostro", SEMPLICE, "strega", "prete", "peccatore",
            "traditore")
EIGHT_PAZZO = make_deck("veggente", "negromante", "capo-branco", "giovane-lupo", "contadino-eroe", SEMPLICE, "mago",
                   "pazzo")
EIGHT_LONE = make_deck("veggente", "negromante", "lupo-del-branco", "lupo-solitario", "contadino-discendente-dei-lupi",
                  SEMPLICE, "bracconiere", "mago")
TWENTY_FOUR = make_deck("veggente", "negromante", "capo-branco", "lupo-del-branco", "giovane-lupo", "lupo-solitario",
                   "mago", "medium", "strega", "megera", "traditore", "bracconiere", "eremita", "oste", "bardo",
                   "prete", "peccatore", "contadino-eroe", **{SEMPLICE: 6})
NECRO_OFF = make_deck("veggente", "lupo-del-branco", "contadino-discendente-dei-lupi", "contadino-eroe", "guaritore",
                 "eremita", "bracconiere", "megera", "mago", "giullare")

# A fragment of each rule's message: which rule refused a deck.
RULE_MARKS = {
    "veggente": "no 'veggente'",
    "negromante on": "with necromancing on",
    "negromante off": "with necromancing off",
    "contadini": "at least 2 Contadini",
    "pack leader": "'capo-branco' or a 'lupo-del-branco'",
    "prete iff peccatore": "plays only with",
    "oste bardo monaco": "at most 2 of oste, bardo and monaco",
    "needs": "needs '{needed}' in the deck",
    "mostro": "'contadino-mostro' the deck cannot hold both",
    "discendente": "'contadino-discendente-dei-lupi' and 'traditore' never play together",
}


def assert_refused(cards, necromancing: bool, rule: str, /, **values) -> None:
    found = problem(cards, necromancing)
    assert found is not None, cards
    assert RULE_MARKS[rule] in found.message, (rule, str(found))
    assert [mark for mark in RULE_MARKS.values() if mark in found.message] == [RULE_MARKS[rule]]
    for name, value in values.items():
        assert found.values[name] == value, (name, str(found))
    text = str(found)
    assert "\n" not in text and len(text) < 140 and ": " in text  # one line: what is wrong, then the fix


@pytest.mark.parametrize("cards, necromancing", [
    (NINE, True), (EIGHT_PAZZO, True), (EIGHT_LONE, True), (TWENTY_FOUR, True), (NECRO_OFF, False),
    (make_deck(*NINE, giullare=0, becchino=0), True),  # zero copies: absent
    (edited(EIGHT_PAZZO, remove=["contadino-eroe"], add=[SEMPLICE]), True),  # two semplici
    (edited(EIGHT_PAZZO, remove=["contadino-eroe", SEMPLICE], add=["contadino-mostro", "contadino-eroe"]), True),
    (edited(NINE, remove=["traditore"], add=["becchino"]), True),  # mostro with becchino alone
    (edited(NINE, remove=["traditore", "strega"], add=["megera", "mago"]), True),  # mostro with megera alone
    (edited(TWENTY_FOUR, remove=[SEMPLICE]), True),
    (edited(NINE, remove=["prete", "peccatore"], add=["giullare", "pazzo"]), True),
    (dict(reversed(list(NINE.items()))), True),  # any key order
])
def test_legal_decks_are_accepted(cards, necromancing):
    assert problem(cards, necromancing) is None, str(problem(cards, necromancing))


@pytest.mark.parametrize("text, message", [
    ("veggente, negromante, lupo-mannaro, contadino-semplice x2, mago, bardo, oste", "no role 'lupo-mannaro'"),
    ("veggente x2, negromante, capo-branco, contadino-semplice x2, mago, bardo", "the box has only 1 'veggente' card"),
    ("veggente, negromante, capo-branco, contadino-semplice x2, mago, bardo",
     "this deck has 7 cards; Wherewolf in Tabula needs 8 to 24"),
    ("veggente, negromante, capo-branco, contadino-semplice x22, mago, bardo, oste",
     "this deck has 28 cards; Wherewolf in Tabula needs 8 to 24"),
])
def test_ids_copies_and_size_are_the_core_s_checks_made_first(text, message):
    """What every game's decks are checked for (narrator.core.deck), before the game's own rules."""
    with pytest.raises(NarratorError, match=re.escape(message)):
        check_deck(GAME, parse_deck_list(GAME, text))


@pytest.mark.parametrize("cards", [
    edited(NINE, remove=["veggente"], add=[SEMPLICE]),
    make_deck(*edited(NINE, remove=["veggente"], add=["eremita"]), veggente=0),
    edited(NECRO_OFF, remove=["veggente"], add=["medium"]),
])
def test_a_deck_without_veggente_is_refused(cards):
    assert_refused(cards, "negromante" in cards, "veggente")


@pytest.mark.parametrize("cards", [
    edited(NINE, remove=["negromante"], add=[SEMPLICE]),
    edited(NECRO_OFF, remove=["giullare"]),
])
def test_necromancing_on_needs_a_negromante(cards):
    assert_refused(cards, True, "negromante on")


@pytest.mark.parametrize("cards, role", [
    (NINE, "negromante"),
    (edited(NECRO_OFF, remove=["giullare"], add=["becchino"]), "becchino"),
    (edited(NINE, remove=["strega"], add=["becchino"]), "negromante"),
])
def test_necromancing_off_allows_no_negromante_nor_becchino(cards, role):
    assert_refused(cards, False, "negromante off", role=role)


@pytest.mark.parametrize("cards, have", [
    (edited(NINE, remove=[SEMPLICE], add=["eremita"]), 1),
    (edited(NINE, remove=["contadino-mostro"], add=["giullare"]), 1),
    (edited(NINE, remove=["contadino-mostro", SEMPLICE], add=["eremita", "bardo"]), 0),
])
def test_fewer_than_two_contadini_are_refused(cards, have):
    assert_refused(cards, True, "contadini", have=have, missing=2 - have)


@pytest.mark.parametrize("cards", [
    edited(NINE, remove=["lupo-del-branco"], add=["giovane-lupo"]),
    edited(EIGHT_LONE, remove=["lupo-del-branco"], add=["giovane-lupo"]),
    edited(EIGHT_LONE, remove=["lupo-del-branco"], add=[SEMPLICE]),
    edited(NINE, remove=["lupo-del-branco"], add=["eremita"]),  # no wolf at all
])
def test_a_pack_without_capo_or_lupo_del_branco_is_refused(cards):
    assert_refused(cards, True, "pack leader")


@pytest.mark.parametrize("cards, present, absent", [
    (edited(NINE, remove=["peccatore"], add=["eremita"]), "prete", "peccatore"),
    (edited(NINE, remove=["prete"], add=["eremita"]), "peccatore", "prete"),
    (edited(EIGHT_PAZZO, remove=["pazzo"], add=["peccatore"]), "peccatore", "prete"),
])
def test_prete_and_peccatore_play_only_together(cards, present, absent):
    assert_refused(cards, True, "prete iff peccatore", present=present, absent=absent)


@pytest.mark.parametrize("cards", [
    edited(NINE, remove=["prete", "peccatore", "traditore"], add=["oste", "bardo", "monaco"]),
    edited(TWENTY_FOUR, remove=[SEMPLICE], add=["monaco"]),
])
def test_three_of_oste_bardo_monaco_are_refused(cards):
    assert_refused(cards, True, "oste bardo monaco", have=3, extra=1)


@pytest.mark.parametrize("cards", [
    edited(EIGHT_LONE, remove=["bracconiere"], add=["eremita"]),
    edited(TWENTY_FOUR, remove=["bracconiere"], add=[SEMPLICE]),
])
def test_lupo_solitario_needs_bracconiere(cards):
    assert_refused(cards, True, "needs", role="lupo-solitario", needed="bracconiere")


@pytest.mark.parametrize("cards", [
    edited(NINE, remove=["traditore"], add=["megera"]),
    edited(TWENTY_FOUR, remove=["mago"], add=["guaritore"]),
])
def test_megera_needs_mago(cards):
    assert_refused(cards, True, "needs", role="megera", needed="mago")


@pytest.mark.parametrize("cards", [
    edited(NINE, remove=["traditore", "strega", "prete", "peccatore"], add=["becchino", "megera", "mago", "eremita"]),
    edited(TWENTY_FOUR, remove=["contadino-eroe", "traditore"], add=["contadino-mostro", "becchino"]),
])
def test_contadino_mostro_refuses_becchino_with_megera(cards):
    assert_refused(cards, True, "mostro")


@pytest.mark.parametrize("cards, necromancing", [
    (edited(NINE, remove=["contadino-mostro"], add=["contadino-discendente-dei-lupi"]), True),
    (edited(NECRO_OFF, remove=["giullare"], add=["traditore"]), False),
])
def test_contadino_discendente_refuses_traditore(cards, necromancing):
    assert_refused(cards, necromancing, "discendente")


# Each deck breaks two rules: the one named first in problem()'s order is reported.
@pytest.mark.parametrize("cards, necromancing, rule", [
    (edited(NINE, remove=["veggente", "negromante"], add=["eremita", "bardo"]), True, "veggente"),
    (edited(NINE, remove=["negromante", SEMPLICE], add=["eremita", "bardo"]), True, "negromante on"),
    (edited(NINE, remove=[SEMPLICE, "lupo-del-branco"], add=["eremita", "giovane-lupo"]), True, "contadini"),
    (edited(NINE, remove=["lupo-del-branco", "peccatore"], add=["giovane-lupo", "eremita"]), True, "pack leader"),
    (edited(NINE, remove=["peccatore", "traditore"], add=["oste", "bardo", "monaco"], ), True, "prete iff peccatore"),
    (edited(EIGHT_LONE, remove=["bracconiere", SEMPLICE], add=["oste", "bardo", "monaco", "contadino-eroe"]), True,
     "oste bardo monaco"),
    (edited(EIGHT_LONE, remove=["bracconiere", "mago"], add=["megera", "medium"]), True, "needs"),  # solitario
    (edited(NINE, remove=["contadino-mostro", SEMPLICE, "prete", "peccatore"],
            add=["contadino-mostro", "contadino-discendente-dei-lupi", "becchino", "megera", "mago"]), True,
     "mostro"),
])
def test_the_first_broken_rule_is_reported(cards, necromancing, rule):
    assert_refused(cards, necromancing, rule)


# --- legality: mutated drawn decks against the plain oracle ---------------------------------------

@settings(max_examples=400, deadline=None, derandomize=True, database=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(8, 24), necromancing=st.booleans(),
       flip=st.booleans(), removed=st.lists(st.sampled_from(ROLES), max_size=3),
       added=st.lists(st.sampled_from(ROLES + ("zombie",)), max_size=3))
def test_problem_agrees_with_the_rules_on_edited_draws(seed, players, necromancing, flip, removed, added):
    cards = Counter(draw_counts(players, necromancing, random.Random(seed)))
    cards.subtract(Counter(removed))
    cards.update(Counter(added))
    cards = {role_id: copies for role_id, copies in cards.items() if copies > 0}
    options = {**GAME.option_defaults, "necromancing": necromancing != flip}
    try:  # as narrate checks a deck: the ids (a deck list refuses an unknown one), the core's checks, the game's
        if not set(cards) <= set(GAME.role_ids):
            raise NarratorError(f"unknown: {sorted(set(cards) - set(GAME.role_ids))}")
        check_deck(GAME, core_deck(GAME, cards), None, options)
        found = None
    except NarratorError as error:
        found = error
    assert (found is None) == legal(cards, necromancing != flip), (cards, str(found))


# --- the Possibili --------------------------------------------------------------------------------

@pytest.mark.parametrize("players", PLAYERS)
def test_possible_is_exactly_what_10000_draws_give(players):
    """10,000 draws per player count, half with each option."""
    rng = random.Random(1000 + players)
    for necromancing in OPTIONS:
        seen: set[str] = set()
        for _ in range(5_000):
            seen.update(draw_counts(players, necromancing, rng))
        assert set(possible(players, necromancing)) == seen, (players, necromancing)


@pytest.mark.parametrize("necromancing", OPTIONS)
@pytest.mark.parametrize("players", PLAYERS)
def test_possible_by_name(players, necromancing):
    roles = possible(players, necromancing)
    assert roles == tuple(role_id for role_id in ROLES if role_id in roles)
    assert {"veggente", *CONTADINI, "mago", *VILLAGE_POOL, "capo-branco", "lupo-del-branco"} <= set(roles)
    only_mago = not necromancing and players in (9, 10, 11)  # see test_megera_forces_the_lone_mystic
    assert all((role_id in roles) != only_mago for role_id in OTHER_MYSTICS[1:])
    assert "giullare" not in roles and "pazzo" not in roles
    assert ("lupo-solitario" in roles) == (players >= 20)
    assert ("giovane-lupo" in roles) == (players >= 12)
    assert ("prete" in roles) == ("peccatore" in roles)
    assert ("negromante" in roles) == necromancing
    no_holes = necromancing and players in (8, 12, 16)
    assert ("megera" in roles) == ("traditore" in roles) == (not no_holes)
    assert ("becchino" in roles) == (necromancing and not no_holes)


@pytest.mark.parametrize("players", [9, 10, 11])
def test_megera_forces_the_lone_mystic(players):
    """Necromancing off, 2 holes or more: megera and traditore are the only fillers and megera is never
    excluded, so she is always dealt, and the one mystic seat (M = 1) goes to the mago she needs."""
    rng = random.Random(players)
    for _ in range(300):
        cards = draw_counts(players, False, rng)
        assert "megera" in cards and "mago" in cards and count(cards, OTHER_MYSTICS) == 1
