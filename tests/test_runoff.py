"""Lupus in Tabula's two-round day vote (its rules.py): the rulebook's worked example, one test
per ruling, and properties over random days."""

from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from narrator.games import GAMES_DIR
from narrator.games.loader import load_game

RULES = load_game(GAMES_DIR / "lupus-in-tabula").rules
REASONS, ROUNDS, DayVote, DayVoteError = RULES.REASONS, RULES.ROUNDS, RULES.DayVote, RULES.DayVoteError
check_day, nominate, seats_before, settle_day = RULES.check_day, RULES.nominate, RULES.seats_before, RULES.settle_day

SEATING = ("Andrea", "Bruno", "Carla", "Daniela", "Elena", "Francesco", "Gianni", "Roberta", "Sara")


# What Lupus in Tabula's votes file calls each part: the errors name the file's fields.
LUPUS = {"seating": "seating", "dead": "ghosts", "anchor": "benvenuto", "forced": "gufato", "plus": "sword",
         "minus": "shield", "nomination": "nomination", "runoff": "ballot"}


def day(nomination, runoff, dead=("Sara",), anchor="Francesco", seating=SEATING, **marks):
    return DayVote(tuple(seating), frozenset(dead), anchor, dict(nomination), dict(runoff), labels=LUPUS, **marks)


# The rulebook's example: 8 living players and a ghost, 9 votes: Andrea 3, Daniela 2, Roberta 2,
# Bruno 1, Carla 1; Francesco holds the Benvenuto.
EXAMPLE_NOMINATION = {"Andrea": "Daniela", "Bruno": "Andrea", "Carla": "Roberta", "Daniela": "Andrea",
                      "Elena": "Roberta", "Francesco": "Andrea", "Gianni": "Daniela", "Roberta": "Bruno",
                      "Sara": "Carla"}
EXAMPLE_RUNOFF = {"Bruno": "Andrea", "Carla": "Daniela", "Elena": "Daniela", "Francesco": "Andrea",
                  "Gianni": "Daniela", "Roberta": "Daniela"}


def test_the_rulebooks_example():
    outcome = settle_day(day(EXAMPLE_NOMINATION, EXAMPLE_RUNOFF))
    assert dict(outcome.nomination) == {"Andrea": 3, "Bruno": 1, "Carla": 1, "Daniela": 2, "Elena": 0,
                                        "Francesco": 0, "Gianni": 0, "Roberta": 2}
    assert outcome.suspects == ("Andrea", "Daniela")  # Daniela is closer, clockwise, to Francesco
    assert dict(outcome.runoff) == {"Andrea": 2, "Daniela": 4}
    assert outcome.lynched == "Daniela"
    assert outcome.steps == (("nomination", "anchor"),)


def test_closeness_counts_seats_clockwise_from_the_tied_player_to_the_anchor():
    assert seats_before(SEATING, "Daniela", "Francesco") == 2
    assert seats_before(SEATING, "Roberta", "Francesco") == 7
    assert seats_before(SEATING, "Elena", "Francesco") == 1


def test_a_ghost_votes_in_the_nomination_but_nobody_votes_for_a_ghost():
    votes = {**EXAMPLE_NOMINATION, "Andrea": "Sara"}
    with pytest.raises(DayVoteError, match="Andrea votes for Sara, who is dead"):
        settle_day(day(votes, EXAMPLE_RUNOFF))


def test_a_ghost_does_not_vote_in_the_ballot():
    with pytest.raises(DayVoteError, match="ballot: Sara is dead: the dead vote in the nomination only"):
        settle_day(day(EXAMPLE_NOMINATION, {**EXAMPLE_RUNOFF, "Sara": "Andrea"}))


def test_a_suspect_does_not_vote_in_the_ballot_and_votes_go_to_suspects():
    with pytest.raises(DayVoteError, match="Andrea is a suspect"):
        settle_day(day(EXAMPLE_NOMINATION, {**EXAMPLE_RUNOFF, "Andrea": "Daniela"}))
    with pytest.raises(DayVoteError, match="Bruno votes for Roberta, who is not a suspect: choose Andrea / Daniela"):
        settle_day(day(EXAMPLE_NOMINATION, {**EXAMPLE_RUNOFF, "Bruno": "Roberta"}))


def test_everyone_votes():
    nomination = dict(EXAMPLE_NOMINATION)
    del nomination["Sara"]
    with pytest.raises(DayVoteError, match="nomination: Sara did not vote"):
        settle_day(day(nomination, EXAMPLE_RUNOFF))
    runoff = dict(EXAMPLE_RUNOFF)
    del runoff["Gianni"]
    with pytest.raises(DayVoteError, match="ballot: Gianni did not vote"):
        settle_day(day(EXAMPLE_NOMINATION, runoff))


def test_unknown_names_are_refused_with_the_field():
    with pytest.raises(DayVoteError, match="nomination: nobody called 'Zeno' sits at the table"):
        settle_day(day({**EXAMPLE_NOMINATION, "Zeno": "Andrea"}, EXAMPLE_RUNOFF))
    with pytest.raises(DayVoteError, match="benvenuto: nobody called 'Zeno'"):
        settle_day(day(EXAMPLE_NOMINATION, EXAMPLE_RUNOFF, anchor="Zeno"))
    with pytest.raises(DayVoteError, match="seating: 'andrea' sits twice"):
        check_day(day(EXAMPLE_NOMINATION, EXAMPLE_RUNOFF, seating=(*SEATING, "andrea")))


def test_the_gufato_is_a_suspect_with_the_most_voted():
    runoff = {"Bruno": "Andrea", "Carla": "Andrea", "Daniela": "Gianni", "Elena": "Gianni", "Francesco": "Andrea",
              "Roberta": "Andrea"}
    outcome = settle_day(day(EXAMPLE_NOMINATION, runoff, forced="Gianni"))
    assert outcome.suspects == ("Andrea", "Gianni") and outcome.lynched == "Andrea"
    assert outcome.steps == (("nomination", "forced"),)


def test_a_most_voted_gufato_takes_the_second_most_voted_with_him():
    nomination = {**EXAMPLE_NOMINATION, "Gianni": "Andrea"}  # Andrea 4, Daniela 1, Roberta 2
    runoff = {name: "Roberta" for name in ("Bruno", "Carla", "Daniela", "Elena", "Francesco", "Gianni")}
    outcome = settle_day(day(nomination, runoff, forced="Andrea"))
    assert outcome.suspects == ("Andrea", "Roberta") and outcome.lynched == "Roberta"


def test_a_dead_gufato_changes_nothing():
    outcome = settle_day(day(EXAMPLE_NOMINATION, EXAMPLE_RUNOFF, forced="Sara"))
    assert outcome.suspects == ("Andrea", "Daniela") and ("nomination", "forced") not in outcome.steps


def test_a_tied_ballot_lynches_the_suspect_closer_to_the_anchor():
    runoff = {"Bruno": "Andrea", "Carla": "Daniela", "Elena": "Daniela", "Francesco": "Andrea",
              "Gianni": "Daniela", "Roberta": "Andrea"}  # 3 to 3
    outcome = settle_day(day(EXAMPLE_NOMINATION, runoff))
    assert outcome.lynched == "Daniela"  # two seats before Francesco; Andrea is five
    assert outcome.steps[-1] == ("runoff", "anchor")


def test_the_sword_adds_a_vote_once_a_living_player_votes_for_its_player_and_wins_ties():
    to_roberta = {name: "Roberta" for name in ("Bruno", "Carla", "Daniela", "Elena", "Francesco", "Gianni")}
    outcome = settle_day(day(EXAMPLE_NOMINATION, to_roberta, plus="Roberta"))
    assert outcome.nomination["Roberta"] == 3 and outcome.suspects == ("Andrea", "Roberta")
    assert outcome.steps == (("nomination", "plus"),)  # Andrea and Roberta at 3: the sword's player first


def test_the_sword_counts_only_for_a_living_voter():
    nomination = {**EXAMPLE_NOMINATION, "Sara": "Gianni"}  # the ghost alone votes for Gianni
    runoff = {name: "Andrea" for name in ("Bruno", "Carla", "Elena", "Francesco", "Gianni", "Roberta")}
    outcome = settle_day(day(nomination, runoff, plus="Gianni"))
    assert outcome.nomination["Gianni"] == 1


def test_the_shield_cancels_a_vote_and_saves_its_player_in_a_tie():
    to_roberta = {name: "Roberta" for name in ("Bruno", "Carla", "Daniela", "Elena", "Francesco", "Gianni")}
    outcome = settle_day(day(EXAMPLE_NOMINATION, to_roberta, minus="Daniela"))
    assert outcome.nomination["Daniela"] == 1  # one of her two votes cancelled
    assert outcome.suspects == ("Andrea", "Roberta")
    tied = {"Bruno": "Andrea", "Carla": "Daniela", "Elena": "Daniela", "Francesco": "Andrea",
            "Gianni": "Daniela", "Roberta": "Andrea"}
    saved = settle_day(day({**EXAMPLE_NOMINATION, "Carla": "Daniela"}, tied, minus="Daniela"))
    assert saved.suspects == ("Andrea", "Daniela") and saved.lynched == "Andrea"
    assert saved.steps[-1] == ("runoff", "minus")


def test_marks_lie_before_living_players_both_before_one_if_the_ghosts_wish():
    with pytest.raises(DayVoteError, match="sword: Sara is dead"):
        check_day(day(EXAMPLE_NOMINATION, EXAMPLE_RUNOFF, plus="Sara"))
    both = settle_day(day(EXAMPLE_NOMINATION, EXAMPLE_RUNOFF, plus="Andrea", minus="Andrea"))
    assert both.nomination["Andrea"] == 3  # the rulebook lets the ghosts choose one player: the marks cancel
    assert both.suspects == ("Andrea", "Daniela")


@st.composite
def days(draw):
    size = draw(st.integers(4, 12))
    seating = tuple(f"P{i}" for i in range(size))
    dead = frozenset(draw(st.sets(st.sampled_from(seating), max_size=size - 3)))
    living = [name for name in seating if name not in dead]
    nomination = {voter: draw(st.sampled_from(living)) for voter in seating}
    anchor = draw(st.sampled_from(seating))
    forced = draw(st.none() | st.sampled_from(seating))
    marked = draw(st.lists(st.sampled_from(living), max_size=2, unique=True))
    plus, minus = (marked + [None, None])[:2]
    return DayVote(seating, dead, anchor, nomination, {}, forced=forced, plus=plus, minus=minus)


@settings(max_examples=200, deadline=None)
@given(days(), st.randoms(use_true_random=False))
def test_properties_of_any_day(vote, rng):
    _nominated, suspects, _steps = nominate(vote)
    living = vote.living
    runoff = {voter: rng.choice(suspects) for voter in living if voter not in suspects}
    outcome = settle_day(replace(vote, runoff=runoff))
    assert outcome.suspects == suspects
    assert len(set(suspects)) == 2 and set(suspects) <= set(living)
    assert list(suspects) == sorted(suspects, key=living.index)
    assert outcome.lynched in suspects
    assert all(stage in ROUNDS and reason in REASONS for stage, reason in outcome.steps)
    if vote.forced in living:
        assert vote.forced in suspects
    # Nobody left out had more nomination votes than a suspect chosen by the votes.
    by_votes = [name for name in suspects if name != vote.forced] or list(suspects)
    others = [name for name in living if name not in suspects]
    assert all(outcome.nomination[other] <= min(outcome.nomination[name] for name in by_votes) for other in others)
    assert sum(outcome.runoff.values()) == len(others)
    spared = next(name for name in suspects if name != outcome.lynched)
    assert outcome.runoff[outcome.lynched] >= outcome.runoff[spared]
    # Marks aside, the nomination's votes add up to one per voter.
    if vote.plus is None and vote.minus is None:
        assert sum(outcome.nomination.values()) == len(vote.seating)
    # The order in which the votes were written down changes nothing.
    shuffled = replace(vote, nomination=dict(reversed(list(vote.nomination.items()))),
                       runoff=dict(reversed(list(runoff.items()))))
    assert settle_day(shuffled) == outcome
