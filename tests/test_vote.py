"""The vote calculator, ruling by ruling (shared/rules/una-notte-da-lupi.md, "Resolving the vote")."""

import random
import re
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from narrator.core.vote import Ballot, VoteError, ballots_from_data, resolve_vote

NAMES = ["Anna", "Bruno", "Carla", "Dario", "Elena", "Fabio", "Gina", "Ugo", "Irene", "Luca"]


def table(*seats):
    """``table(("Anna", "lupo-mannaro", "Bruno"), ...)`` in seating order."""
    return [Ballot(name, card, vote) for name, card, vote in seats]


def left_neighbour_votes(cards):
    """Everyone votes the next player round the table: one vote each."""
    names = NAMES[:len(cards)]
    return [Ballot(name, card, names[(i + 1) % len(names)]) for i, (name, card) in enumerate(zip(names, cards, strict=True))]


def resolve(game, ballots, bewitched, lang, deck=None):
    """The vote, with the token the Apprendista Stregone turned (or None)."""
    return resolve_vote(game, ballots, {"bewitched": bewitched} if bewitched else {}, lang, deck)


def vote(game, ballots, bewitched=None, lang="en"):
    return resolve(game, ballots, bewitched, lang)


def the_side(result):
    """The one side that wins (this game never has two), or None."""
    assert len(result.winning_sides) <= 1
    return result.winning_sides[0] if result.winning_sides else None


# --- the digest's worked examples -------------------------------------------------------------

def test_digest_example_wolf_lynched_humans_win(game):
    result = vote(game, table(("Anna", "lupo-mannaro", "Bruno"), ("Bruno", "veggente", "Anna"),
                              ("Carla", "contadino", "Anna"), ("Dario", "truffatore", "Anna")))
    assert result.votes == {"Anna": 3, "Bruno": 1, "Carla": 0, "Dario": 0}
    assert result.lynched == ("Anna",)
    assert (the_side(result), result.winners) == ("umani", ("Bruno", "Carla", "Dario"))


def test_digest_example_everyone_one_vote_no_wolf_humans_win(game):
    result = vote(game, left_neighbour_votes(["veggente", "contadino", "truffatore", "guastafeste"]))
    assert result.lynched == ()
    assert (the_side(result), result.winners) == ("umani", ("Anna", "Bruno", "Carla", "Dario"))


def test_digest_example_everyone_one_vote_a_wolf_playing_wolves_win(game):
    result = vote(game, left_neighbour_votes(["veggente", "lupo-mannaro", "truffatore", "guastafeste"]))
    assert result.lynched == ()
    assert (the_side(result), result.winners) == ("lupi", ("Bruno",))


def test_digest_example_mortovivo_passes_its_votes(game):
    result = vote(game, table(("Anna", "lupo-mannaro", "Bruno"), ("Bruno", "mortovivo", "Dario"),
                              ("Carla", "contadino", "Bruno"), ("Dario", "veggente", "Anna")))
    assert result.votes_cast == {"Anna": 1, "Bruno": 2, "Carla": 0, "Dario": 1}
    assert result.votes == {"Anna": 1, "Bruno": 0, "Carla": 0, "Dario": 3}
    assert result.lynched == ("Dario",)
    assert (the_side(result), result.winners) == ("lupi", ("Anna",))


# --- one test per ruling ----------------------------------------------------------------------

def test_ruling_count_each_vote_once(game):
    result = vote(game, table(("Anna", "contadino", "Carla"), ("Bruno", "contadino", "Carla"),
                              ("Carla", "veggente", "Anna"), ("Dario", "lupo-mannaro", "Anna")))
    assert result.votes_cast == {"Anna": 2, "Bruno": 0, "Carla": 2, "Dario": 0}
    assert sum(result.votes_cast.values()) == 4


def test_ruling_mortovivo_with_one_vote_passes_nothing(game):
    result = vote(game, table(("Anna", "mortovivo", "Carla"), ("Bruno", "contadino", "Anna"),
                              ("Carla", "veggente", "Bruno"), ("Dario", "lupo-mannaro", "Carla")))
    assert result.votes == result.votes_cast == {"Anna": 1, "Bruno": 1, "Carla": 2, "Dario": 0}
    assert result.lynched == ("Carla",)


def test_ruling_mortovivo_passes_even_when_bewitched(game):
    result = vote(game, table(("Anna", "mortovivo", "Dario"), ("Bruno", "contadino", "Anna"),
                              ("Carla", "veggente", "Anna"), ("Dario", "lupo-mannaro", "Bruno")), bewitched="mortovivo")
    assert result.votes == {"Anna": 0, "Bruno": 1, "Carla": 0, "Dario": 3}
    assert result.lynched == ("Dario",)
    assert result.winners == ("Bruno", "Carla")  # humans win; the bewitched Mortovivo is a wolf, so not a winner


def test_ruling_mortovivo_target_with_its_own_vote(game):
    # The Mortovivo's own vote is already with its target; the passed votes come on top.
    result = vote(game, table(("Anna", "contadino", "Bruno"), ("Bruno", "mortovivo", "Carla"),
                              ("Carla", "contadino", "Bruno"), ("Dario", "veggente", "Bruno"),
                              ("Elena", "lupo-mannaro", "Dario")))
    assert result.votes == {"Anna": 0, "Bruno": 0, "Carla": 4, "Dario": 1, "Elena": 0}


def test_ruling_nobody_lynched_when_everyone_has_one_vote(game):
    result = vote(game, left_neighbour_votes(["contadino", "contadino", "veggente", "lupo-mannaro", "massone"]))
    assert set(result.votes.values()) == {1} and result.lynched == ()


def test_ruling_ties_lynch_all(game):
    result = vote(game, table(("Anna", "contadino", "Carla"), ("Bruno", "lupo-mannaro", "Carla"),
                              ("Carla", "veggente", "Anna"), ("Dario", "truffatore", "Anna")))
    assert result.lynched == ("Anna", "Carla")
    assert the_side(result) == "lupi"  # no wolf among the lynched


def test_ruling_a_tie_with_a_wolf_in_it_is_a_human_win(game):
    result = vote(game, table(("Anna", "contadino", "Bruno"), ("Bruno", "lupo-mannaro", "Anna"),
                              ("Carla", "veggente", "Anna"), ("Dario", "truffatore", "Bruno")))
    assert result.lynched == ("Anna", "Bruno")
    assert (the_side(result), result.winners) == ("umani", ("Anna", "Carla", "Dario"))


def test_ruling_bewitched_role_counts_as_a_wolf_all_copies(game):
    ballots = table(("Anna", "contadino", "Bruno"), ("Bruno", "contadino", "Anna"), ("Carla", "veggente", "Anna"),
                    ("Dario", "lupo-mannaro", "Anna"), ("Elena", "contadino", "Bruno"))
    result = vote(game, ballots, bewitched="contadino")
    assert result.lynched == ("Anna",)
    assert (the_side(result), result.winners) == ("umani", ("Carla",))  # Anna is a wolf: lynched wolf
    spared = vote(game, [Ballot(b.name, b.card, "Carla" if b.name != "Carla" else "Anna") for b in ballots],
                  bewitched="contadino")
    assert spared.lynched == ("Carla",)
    assert (the_side(spared), spared.winners) == ("lupi", ("Anna", "Bruno", "Dario", "Elena"))


def test_ruling_bewitched_role_makes_a_wolf_among_players_when_nobody_is_lynched(game):
    result = vote(game, left_neighbour_votes(["massone", "massone", "veggente", "truffatore"]), bewitched="massone")
    assert (the_side(result), result.winners) == ("lupi", ("Anna", "Bruno"))


def test_ruling_mitomane_wins_with_the_wolves(game):
    result = vote(game, table(("Anna", "mitomane", "Carla"), ("Bruno", "lupo-mannaro", "Carla"),
                              ("Carla", "veggente", "Anna"), ("Dario", "truffatore", "Carla")))
    assert result.lynched == ("Carla",)
    assert (the_side(result), result.winners) == ("lupi", ("Anna", "Bruno"))


def test_ruling_mitomane_lynched_alone_the_wolves_side_wins(game):
    result = vote(game, table(("Anna", "mitomane", "Bruno"), ("Bruno", "lupo-mannaro", "Anna"),
                              ("Carla", "veggente", "Anna"), ("Dario", "truffatore", "Anna")))
    assert result.lynched == ("Anna",)
    assert (the_side(result), result.winners) == ("lupi", ("Anna", "Bruno"))


def test_ruling_no_wolf_among_players_mitomane_wins_alone_when_a_human_is_lynched(game):
    result = vote(game, table(("Anna", "mitomane", "Bruno"), ("Bruno", "contadino", "Anna"),
                              ("Carla", "veggente", "Bruno"), ("Dario", "truffatore", "Bruno")))
    assert result.lynched == ("Bruno",)
    assert (the_side(result), result.winners) == ("lupi", ("Anna",))


def test_ruling_no_wolf_and_no_mitomane_among_players_a_lynching_means_nobody_wins(game):
    result = vote(game, table(("Anna", "contadino", "Bruno"), ("Bruno", "contadino", "Anna"),
                              ("Carla", "veggente", "Bruno"), ("Dario", "truffatore", "Bruno")))
    assert result.lynched == ("Bruno",)
    assert (the_side(result), result.winners) == (None, ())


def test_ruling_nobody_lynched_no_wolf_humans_win_despite_mitomane_pinguino_criceto(game):
    for odd_one in ("mitomane", "pinguino-mannaro"):
        result = vote(game, left_neighbour_votes(["contadino", odd_one, "veggente", "truffatore"]))
        assert (the_side(result), result.winners) == ("umani", ("Anna", "Carla", "Dario"))
    # With the Criceto the humans would win, but it has a vote: the humans keep the win.
    result = vote(game, left_neighbour_votes(["contadino", "criceto-mannaro", "veggente", "truffatore"]))
    assert (the_side(result), result.winners) == ("umani", ("Anna", "Carla", "Dario"))


def test_ruling_pinguino_lynched_alone_wins_alone(game):
    result = vote(game, table(("Anna", "pinguino-mannaro", "Bruno"), ("Bruno", "lupo-mannaro", "Anna"),
                              ("Carla", "veggente", "Anna"), ("Dario", "truffatore", "Anna")))
    assert (the_side(result), result.winners) == ("pinguino-mannaro", ("Anna",))


def test_ruling_pinguino_lynched_in_a_tie_does_not_win_and_is_no_wolf(game):
    result = vote(game, table(("Anna", "pinguino-mannaro", "Bruno"), ("Bruno", "contadino", "Anna"),
                              ("Carla", "lupo-mannaro", "Anna"), ("Dario", "truffatore", "Bruno")))
    assert result.lynched == ("Anna", "Bruno")
    assert (the_side(result), result.winners) == ("lupi", ("Carla",))


def test_ruling_criceto_with_no_votes_steals_the_humans_win(game):
    result = vote(game, table(("Anna", "criceto-mannaro", "Bruno"), ("Bruno", "lupo-mannaro", "Carla"),
                              ("Carla", "veggente", "Bruno"), ("Dario", "truffatore", "Bruno")))
    assert result.lynched == ("Bruno",)
    assert (the_side(result), result.winners) == ("criceto-mannaro", ("Anna",))


def test_ruling_criceto_with_a_vote_loses(game):
    result = vote(game, table(("Anna", "criceto-mannaro", "Bruno"), ("Bruno", "lupo-mannaro", "Anna"),
                              ("Carla", "veggente", "Bruno"), ("Dario", "truffatore", "Bruno")))
    assert (the_side(result), result.winners) == ("umani", ("Carla", "Dario"))


def test_ruling_criceto_loses_when_the_wolves_side_wins(game):
    result = vote(game, table(("Anna", "criceto-mannaro", "Carla"), ("Bruno", "lupo-mannaro", "Carla"),
                              ("Carla", "veggente", "Bruno"), ("Dario", "truffatore", "Carla")))
    assert (the_side(result), result.winners) == ("lupi", ("Bruno",))


def test_ruling_criceto_zero_votes_counted_after_the_mortovivo(game):
    # The Mortovivo's votes move onto the wolf; the Criceto, with no vote before or after, steals the win.
    result = vote(game, table(("Anna", "criceto-mannaro", "Bruno"), ("Bruno", "mortovivo", "Carla"),
                              ("Carla", "lupo-mannaro", "Bruno"), ("Dario", "veggente", "Carla")))
    assert result.votes == {"Anna": 0, "Bruno": 0, "Carla": 4, "Dario": 0}
    assert (the_side(result), result.winners) == ("criceto-mannaro", ("Anna",))


def test_ruling_only_the_final_card_counts(game):
    # Whatever Bruno was dealt, the card in front of him now is the wolf.
    result = vote(game, table(("Anna", "truffatore", "Bruno"), ("Bruno", "lupo-mannaro", "Anna"),
                              ("Carla", "veggente", "Bruno"), ("Dario", "contadino", "Bruno")))
    assert (the_side(result), result.winners) == ("umani", ("Anna", "Carla", "Dario"))


# --- the explanation --------------------------------------------------------------------------

def test_explanation_says_each_step_in_english(game):
    result = vote(game, table(("Anna", "lupo-mannaro", "Bruno"), ("Bruno", "mortovivo", "Dario"),
                              ("Carla", "contadino", "Bruno"), ("Dario", "veggente", "Anna")))
    assert result.explanation == (
        "Votes received: Anna 1, Bruno 2, Carla 0, Dario 1.",
        "Bruno holds the Zombie card and received 2 votes: they all pass to Dario, whom Bruno voted for.",
        "Dario has the most votes (3) and is lynched.",
        "No wolf is among the lynched: the wolves' side wins.",
        "Winners: Anna.",
    )


def test_explanation_in_italian(game):
    result = resolve(game, table(("Anna", "contadino", "Bruno"), ("Bruno", "lupo-mannaro", "Anna"),
                                      ("Carla", "veggente", "Anna"), ("Dario", "truffatore", "Bruno")), None, "it")
    assert result.explanation == (
        "Voti ricevuti: Anna 2, Bruno 2, Carla 0, Dario 0.",
        "Anna e Bruno sono pari con 2 voti ciascuno: il linciaggio tocca a entrambi.",
        "Il linciaggio colpisce almeno un lupo (Bruno): vincono gli Umani.",
        "Vincono: Anna, Carla e Dario.",
    )


def test_italian_says_ad_and_ed_before_the_same_vowel_and_names_nobody_with_a_gendered_word(game):
    result = resolve(game, table(("Anna", "contadino", "Bruno"), ("Bruno", "mortovivo", "Anna"),
                                      ("Carla", "veggente", "Bruno"), ("Elena", "lupo-mannaro", "Bruno"),
                                      ("Ugo", "contadino", "Elena")), None, "it")
    assert result.explanation[1] == ("Bruno ha la carta Mortovivo e 3 voti: passano tutti ad Anna, il giocatore "
                                     "votato da Bruno.")
    assert result.explanation[2] == "Il linciaggio tocca ad Anna, che ha più voti di tutti (4)."
    three = resolve(game, table(("Anna", "contadino", "Elena"), ("Bruno", "veggente", "Anna"),
                                     ("Carla", "lupo-mannaro", "Elena"), ("Elena", "contadino", "Anna"),
                                     ("Ugo", "truffatore", "Carla"), ("Zeno", "contadino", "Carla")), None, "it")
    assert three.explanation[1] == "Anna, Carla ed Elena sono pari con 2 voti ciascuno: il linciaggio tocca a tutti loro."
    for sentence in (*result.explanation, *three.explanation):
        assert "linciato" not in sentence and "linciata" not in sentence


def test_english_says_both_for_a_tie_of_two_and_how_few_votes(game):
    result = resolve(game, table(("Ann", "contadino", "Ben"), ("Ben", "lupo-mannaro", "Ann"),
                                      ("Cy", "mortovivo", "Ann"), ("Di", "truffatore", "Ben"), ("Ed", "veggente", "Cy")),
                          None, "en")
    name = game.languages["en"].role_name("mortovivo")
    assert result.explanation[1] == f"Cy holds the {name} card but too few votes to pass them on (1): they stay where they are."
    assert result.explanation[2] == "Ann and Ben tie with 2 votes each: both are lynched."


def test_ballots_holding_two_cards_that_never_share_a_deck_are_refused(game):
    with pytest.raises(VoteError, match="'criceto-mannaro' and 'pinguino-mannaro' are never in the same deck"):
        resolve(game, table(("Anna", "pinguino-mannaro", "Bruno"), ("Bruno", "criceto-mannaro", "Anna"),
                                 ("Carla", "lupo-mannaro", "Anna")), None, "it")


def test_after_a_night_the_ballots_must_fit_the_deck_played(game):
    from narrator.core.deck import recommended_deck

    deck = recommended_deck(game, 3)  # 2 Lupi, Veggente, Guastafeste, Truffatore, 1 Contadino
    seats = (("Anna", "contadino", "Bruno"), ("Bruno", "lupo-mannaro", "Anna"), ("Carla", "veggente", "Anna"))
    assert resolve(game, table(*seats), None, "it", deck).lynched == ("Anna",)
    with pytest.raises(VoteError, match="the deck played was for 3 players; these ballots have 4"):
        resolve(game, table(*seats, ("Dario", "truffatore", "Anna")), None, "it", deck)
    with pytest.raises(VoteError, match=r"'mortovivo' is not in the deck played \(Carla\): one of contadino, "):
        resolve(game, table(seats[0], seats[1], ("Carla", "mortovivo", "Anna")), None, "it", deck)
    with pytest.raises(VoteError, match=r"2 players hold 'contadino' \(Anna, Carla\), but the deck played has 1"):
        resolve(game, table(seats[0], seats[1], ("Carla", "contadino", "Anna")), None, "it", deck)
    with pytest.raises(VoteError, match="'bewitched: veggente' cannot be: no role of the deck played makes it happen"):
        resolve(game, table(*seats), "veggente", "it", deck)


# --- bad input --------------------------------------------------------------------------------

@pytest.mark.parametrize("seats, bewitched, message", [
    ([("Anna", "contadino", "Zoe"), ("Bruno", "veggente", "Anna"), ("Carla", "lupo-mannaro", "Anna")], None,
     "Anna votes for 'Zoe', who is not playing (players: Anna, Bruno, Carla)"),
    ([("Anna", "contadino", "Anna"), ("Bruno", "veggente", "Anna"), ("Carla", "lupo-mannaro", "Anna")], None,
     "Anna votes for themselves: everyone points at another player"),
    ([("Anna", "contadino", "Bruno"), ("anna", "veggente", "Anna"), ("Carla", "lupo-mannaro", "Anna")], None,
     "two players are called 'anna': give each player a different name"),
    ([("Anna", "contadino", "Bruno"), ("Bruno", "veggente", "Anna")], None,
     "Una Notte da Lupi takes 3 to 10 players; these ballots have 2"),
    ([("Anna", "veggente", "Bruno"), ("Bruno", "veggente", "Anna"), ("Carla", "lupo-mannaro", "Anna")], None,
     "2 players hold 'veggente' (Anna, Bruno), but the box has 1: check the cards"),
    ([("Anna", "contadino", "Bruno"), ("Bruno", "veggente", "Anna"), ("Carla", "lupo-mannaro", "Anna")],
     "lupo-mannaro", "'bewitched: lupo-mannaro' cannot be: one of veggente, massone, guastafeste, mortovivo, "
                     "contadino"),
    ([("Anna", "contadino", "Bruno"), ("Bruno", "veggente", "Anna"), ("Carla", "lupo-mannaro", "Anna")],
     "truffatore", "'bewitched: truffatore' cannot be: one of"),
    ([("Anna", "contadino", "Bruno"), ("Bruno", "veggente", "Anna"), ("Carla", "lupo-mannaro", "Anna")],
     "apprendista-stregone", "'bewitched: apprendista-stregone' cannot be: one of"),
])
def test_bad_ballots_are_refused_with_the_fix(game, seats, bewitched, message):
    with pytest.raises(VoteError, match=re.escape(message)):
        vote(game, table(*seats), bewitched)


def test_too_many_players(game):
    names = [f"P{i}" for i in range(11)]
    with pytest.raises(VoteError, match="takes 3 to 10 players; these ballots have 11"):
        vote(game, [Ballot(name, "contadino", names[(i + 1) % 11]) for i, name in enumerate(names)])


def test_votes_match_names_in_any_case(game):
    result = vote(game, table(("Anna", "contadino", "bruno"), ("Bruno", "lupo-mannaro", "ANNA"),
                              ("Carla", "veggente", "bruno")))
    assert result.votes == {"Anna": 1, "Bruno": 2, "Carla": 0}


@pytest.mark.parametrize("data, message", [
    ({"players": [{"name": "Anna", "card": "veggentee", "vote": "Bruno"}]},
     "votes.yaml: players[0]: no role 'veggentee' — did you mean 'veggente'?"),
    ({"players": [{"name": "Anna", "card": "veggente"}]}, "votes.yaml: players[0]: Anna has no vote: add 'vote: ...'"),
    ({"players": [{"card": "veggente", "vote": "Bruno"}]}, "votes.yaml: players[0]: player 1 has no name"),
    ({"players": [{"name": "Anna", "card": "veggente", "vote": "B", "hat": 1}]}, "unknown field 'hat'"),
    ({"players": "Anna"}, "votes.yaml: players: expected a list"),
    ({"voters": []}, "votes.yaml: expected 'players:'"),
    ({"players": [], "bewitched": "contadinx"}, "votes.yaml: bewitched: no role 'contadinx' — did you mean 'contadino'?"),
    ({"players": [], "witch": None}, "unknown field 'witch'"),
    (["Anna"], "votes.yaml: expected 'players:'"),
])
def test_bad_votes_files(game, data, message):
    with pytest.raises(VoteError, match=re.escape(message)):
        ballots_from_data(game, data, "votes.yaml")


# --- properties over random legal games -------------------------------------------------------

@cache
def the_game():
    from narrator.games.loader import load_game
    from tests.conftest import GAME, GAMES_DIR

    return load_game(GAMES_DIR / GAME)


@st.composite
def games(draw):
    from narrator.core.deck import random_deck

    game = the_game()
    players = draw(st.integers(3, 10))
    deck = random_deck(game, players, random.Random(draw(st.integers(0, 2**32))))
    cards = [role for role, copies in deck.counts for _ in range(copies)]
    cards = draw(st.permutations(cards))[:players]  # whatever was dealt and swapped, these are on the table
    names = NAMES[:players]
    votes = [draw(st.sampled_from([n for n in names if n != name])) for name in names]
    bewitchable = [role.id for role in game.roles if role.trait("bewitchable")]
    bewitched = draw(st.one_of(st.none(), st.sampled_from(bewitchable)))
    return game, [Ballot(n, c, v) for n, c, v in zip(names, cards, votes, strict=True)], bewitched


@settings(max_examples=400, deadline=None)
@given(case=games())
def test_properties_of_every_result(case):
    game, ballots, bewitched = case
    result = resolve(game, ballots, bewitched, "en")
    names = [b.name for b in ballots]
    assert sum(result.votes.values()) == sum(result.votes_cast.values()) == len(ballots)  # the transfer keeps the total
    assert list(result.votes) == names and list(result.votes_cast) == names
    assert set(result.winners) <= set(names) and set(result.lynched) <= set(names)
    assert list(result.winners) == [n for n in names if n in result.winners]  # seating order
    assert list(result.lynched) == [n for n in names if n in result.lynched]
    if the_side(result) not in ("umani", "lupi", None):
        assert len(result.winners) == 1  # a lone winner is alone
        assert dict((b.name, b.card) for b in ballots)[result.winners[0]] == the_side(result)
    if the_side(result) is None:
        assert result.winners == ()
    data = result.as_dict()
    assert list(data) == ["votes_cast", "votes", "lynched", "winning_sides", "winners", "explanation"]
    assert all(isinstance(line, str) and line for line in data["explanation"])


@settings(max_examples=300, deadline=None)
@given(case=games(), seed=st.integers(0, 1000))
def test_results_do_not_depend_on_the_order_of_the_ballots(case, seed):
    game, ballots, bewitched = case
    shuffled = list(ballots)
    random.Random(seed).shuffle(shuffled)
    one, other = resolve(game, ballots, bewitched, "en"), resolve(game, shuffled, bewitched, "en")
    assert one.votes == other.votes and one.votes_cast == other.votes_cast
    assert set(one.lynched) == set(other.lynched)
    assert (the_side(one), set(one.winners)) == (the_side(other), set(other.winners))
