"""The day's vote procedures (narrator.core.procedures), driven as the loop drives them: each vote
asked in turn, the verdict returned; the stock ones of the core here, a game's own beside its rules
(test_lupus_rules.py, test_revised_rules.py), with ``settle``."""

from narrator.core.procedures import HandsStep, OpenVote, Procedure, SecretVote, VoteStep
from narrator.core.state import State

SEATING = ("Anna", "Bruno", "Carla", "Dario", "Elena")
STATE = State(1, SEATING, {}, {})


def settle(procedure, *rounds, hands=None):
    """Run ``procedure`` with each round's votes (voter: voted), or with the ``hands`` counted for
    each name where a round may be counted so (each vote without them); the steps asked and the verdict."""
    assert isinstance(procedure, Procedure)
    flow = procedure.run(STATE)
    asked = []
    step = next(flow)
    try:
        while True:
            if isinstance(step, HandsStep):
                step = flow.send({"hands": hands})
                continue
            assert isinstance(step, VoteStep)
            asked.append((step.round, step.voter, step.candidates))
            votes = rounds[1 if step.round == "runoff" else 0]  # the first round's votes, then the runoff's
            step = flow.send({"voted": votes.get(step.voter)})
    except StopIteration as stop:
        return asked, stop.value


def intros(procedure, *rounds):
    """The sentences each round opens with, as (round, key, values)."""
    flow, said, step = procedure.run(STATE), [], None
    step = next(flow)
    try:
        while True:
            said += [(step.round, each.key, dict(each.values)) for each in step.intro]
            votes = rounds[1 if step.round == "runoff" else 0]
            step = flow.send({"voted": votes.get(step.voter)})
    except StopIteration:
        return said


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


def test_each_round_opens_with_the_game_s_own_sentences():
    first = {"Anna": "Bruno", "Bruno": "Carla", "Carla": "Bruno", "Dario": "Carla", "Elena": "Anna"}
    assert intros(OpenVote(SEATING, SEATING), first, {"Anna": "Carla"}) == [
        ("vote", "round_vote", {}), ("runoff", "round_tie", {"names": ("Bruno", "Carla")})]
    assert set(OpenVote.SENTENCES) == {"round_vote", "round_tie"}
    weighed = SecretVote(SEATING, SEATING, weights={"Elena": 2, "Anna": 1})
    assert [(each.key, dict(each.values)) for each in weighed.opening] == [("vote_weights", {"names": ("Elena x2",)})]
    assert SecretVote(SEATING, SEATING).opening == ()
    assert {key for _round, key, _values in intros(weighed, first)} | {"vote_weights"} == set(SecretVote.SENTENCES)


def test_an_abstention_is_offered_only_where_the_vote_allows_it():
    assert next(SecretVote(SEATING, SEATING, may_abstain=True).run(STATE)).may_pass
    assert not next(SecretVote(SEATING, SEATING).run(STATE)).may_pass
    assert not next(OpenVote(SEATING, SEATING).run(STATE)).may_pass


def test_the_hands_counted_are_only_for_a_vote_that_takes_them():
    assert OpenVote(SEATING, SEATING).most_hands is None
    assert SecretVote(SEATING, SEATING, weights={"Elena": 2}).most_hands == 6
