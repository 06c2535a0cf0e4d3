"""The day's vote procedures of the core (narrator.core.procedures), driven as the loop drives
them: each vote asked in turn, the verdict returned. NominationRunoff's counting is runoff's
(test_runoff.py); here, who is asked, for whom, and what the plurality votes decide."""

from narrator.core.procedures import Accusations, NominationRunoff, OpenVote, SecretVote, VoteStep, run
from narrator.core.state import State

SEATING = ("Anna", "Bruno", "Carla", "Dario", "Elena")
STATE = State(1, SEATING, {}, {})


def settle(procedure, *rounds):
    """Run ``procedure`` with each round's votes (voter: voted); the steps asked and the verdict."""
    flow = run(procedure, STATE)
    asked = []
    step = next(flow)
    try:
        while True:
            assert isinstance(step, VoteStep)
            asked.append((step.round, step.voter, step.candidates))
            votes = rounds[1 if step.round == "runoff" else 0]  # the first round's votes, then the runoff's
            step = flow.send({"voted": votes.get(step.voter)})
    except StopIteration as stop:
        return asked, stop.value


def test_an_open_vote_lynches_the_most_voted():
    asked, verdict = settle(OpenVote(SEATING, SEATING), {"Anna": "Bruno", "Bruno": "Carla", "Carla": "Bruno",
                                                         "Dario": "Bruno", "Elena": "Anna"})
    assert [voter for _round, voter, _candidates in asked] == list(SEATING)
    assert verdict.lynched == "Bruno" and dict(verdict.tallies["vote"]) == {"Anna": 1, "Bruno": 3, "Carla": 1,
                                                                          "Dario": 0, "Elena": 0}


def test_a_tie_is_voted_again_by_the_others_and_a_second_tie_spares_everybody():
    first = {"Anna": "Bruno", "Bruno": "Carla", "Carla": "Bruno", "Dario": "Carla", "Elena": "Anna"}
    asked, verdict = settle(OpenVote(SEATING, SEATING), first, {"Anna": "Carla", "Dario": "Carla", "Elena": "Bruno"})
    runoff = [(voter, candidates) for round_name, voter, candidates in asked if round_name == "runoff"]
    assert runoff == [("Anna", ("Bruno", "Carla")), ("Dario", ("Bruno", "Carla")), ("Elena", ("Bruno", "Carla"))]
    assert verdict.lynched == "Carla" and verdict.tied == ("Bruno", "Carla")
    _asked, spared = settle(OpenVote(SEATING[:4], SEATING[:4]), {"Anna": "Bruno", "Bruno": "Anna", "Carla": "Dario",
                                                                 "Dario": "Carla"}, {})
    assert spared.lynched is None  # everyone tied: nobody is left to vote again


def test_a_secret_vote_spares_everybody_on_a_tie():
    first = {"Anna": "Bruno", "Bruno": "Carla", "Carla": "Bruno", "Dario": "Carla", "Elena": "Anna"}
    asked, verdict = settle(SecretVote(SEATING, SEATING), first)
    assert {round_name for round_name, _voter, _candidates in asked} == {"vote"}
    assert verdict.lynched is None and verdict.tied == ("Bruno", "Carla")
    _asked, verdict = settle(SecretVote(SEATING, SEATING), {**first, "Elena": "Bruno"})
    assert verdict.lynched == "Bruno"


def test_a_secret_vote_may_weigh_voters_let_them_abstain_and_bar_voting_for_oneself():
    """Wherewolf in Tabula's: a cursed voter counts two, a voter may abstain, nobody votes for himself."""
    procedure = SecretVote(SEATING, SEATING, weights={"Elena": 2}, may_abstain=True, others_only=True)
    asked, verdict = settle(procedure, {"Anna": "Bruno", "Bruno": "Anna", "Elena": "Anna"})  # Carla, Dario: none
    assert ("vote", "Anna", ("Bruno", "Carla", "Dario", "Elena")) in asked
    assert dict(verdict.votes["vote"]) == {"Anna": "Bruno", "Bruno": "Anna", "Elena": "Anna"}
    assert verdict.lynched == "Anna" and verdict.tallies["vote"]["Anna"] == 3
    _asked, tied = settle(procedure, {"Anna": "Bruno", "Carla": "Bruno", "Elena": "Anna"})  # 2 against 2
    assert tied.lynched is None and tied.tied == ("Anna", "Bruno")


def test_a_day_that_spares_everybody_still_takes_and_counts_the_votes():
    procedure = SecretVote(SEATING, SEATING, spares_all=True)
    asked, verdict = settle(procedure, dict.fromkeys(SEATING, "Bruno") | {"Bruno": "Anna"})
    assert len(asked) == 5 and verdict.tallies["vote"]["Bruno"] == 4 and verdict.lynched is None


def test_a_ballottaggio_asks_everyone_from_the_anchors_left_then_the_living_who_are_not_suspects():
    procedure = NominationRunoff(SEATING, frozenset({"Bruno"}), anchor="Bruno")
    nomination = {"Carla": "Anna", "Dario": "Anna", "Elena": "Carla", "Anna": "Carla", "Bruno": "Dario"}
    asked, verdict = settle(procedure, nomination, {"Dario": "Anna", "Elena": "Carla"})
    assert [voter for round_name, voter, _c in asked if round_name == "nomination"] == ["Carla", "Dario", "Elena",
                                                                                       "Anna", "Bruno"]
    assert [voter for round_name, voter, _c in asked if round_name == "runoff"] == ["Dario", "Elena"]
    assert verdict.lynched in ("Anna", "Carla") and not procedure.may_spare


def test_accusations_bring_the_most_accused_and_the_tied_second_to_the_runoff():
    """Wherewolf Revised's day: a hand each, self allowed; the top one and all tied second are
    accused; the others vote one of them; the most voted burns."""
    accusations = {"Anna": "Bruno", "Bruno": "Bruno", "Carla": "Dario", "Dario": "Elena", "Elena": "Bruno"}
    asked, verdict = settle(Accusations(SEATING), accusations, {"Anna": "Dario", "Bruno": "Dario", "Carla": "Dario"})
    assert [(round_name, voter) for round_name, voter, _candidates in asked if round_name == "runoff"] == [
        ("runoff", "Anna"), ("runoff", "Carla")]  # Bruno, Dario, Elena are accused: they do not vote
    assert dict(verdict.tallies["accusation"]) == {"Anna": 0, "Bruno": 3, "Carla": 0, "Dario": 1, "Elena": 1}
    assert ("runoff", "Anna", ("Bruno", "Dario", "Elena")) in asked
    assert verdict.lynched == "Dario"
    _asked, tied = settle(Accusations(SEATING), accusations, {"Anna": "Dario", "Carla": "Bruno"})
    assert tied.lynched is None and tied.tied == ("Bruno", "Dario")


def test_every_hand_on_one_player_burns_him_at_once_and_two_players_vote_only_once():
    asked, verdict = settle(Accusations(SEATING), dict.fromkeys(SEATING, "Carla"), {})
    assert verdict.lynched == "Carla" and {round_name for round_name, _v, _c in asked} == {"accusation"}
    _asked, two = settle(Accusations(("Anna", "Bruno")), {"Anna": "Bruno", "Bruno": "Anna"}, {})
    assert two.lynched is None


def test_an_accused_may_stand_in_for_another_and_some_accused_still_vote():
    """The Amato is never accused while his Angelo lives: the Angelo is, instead; a Città role votes
    in the runoff though accused."""
    procedure = Accusations(SEATING, standing_in={"Bruno": "Anna"}, accused_vote=frozenset({"Dario"}),
                            weights={"Elena": 2})
    accusations = {"Anna": "Dario", "Bruno": "Carla", "Carla": "Bruno", "Dario": "Bruno", "Elena": "Dario"}
    asked, verdict = settle(procedure, accusations, {"Bruno": "Anna", "Carla": "Anna", "Dario": "Anna",
                                                     "Elena": "Dario"})
    assert dict(verdict.tallies["accusation"]) == {"Anna": 2, "Bruno": 0, "Carla": 1, "Dario": 3, "Elena": 0}
    assert ("runoff", "Bruno", ("Dario", "Anna")) in asked  # the most accused, then the tied second
    assert [voter for round_name, voter, _c in asked if round_name == "runoff"] == ["Bruno", "Carla", "Dario",
                                                                                         "Elena"]
    assert verdict.lynched == "Anna"
