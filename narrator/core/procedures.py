"""The day's vote procedures a game of many nights chooses from (its rules' ``day`` returns one).

Each is a frozen description of one day's vote (who votes, for whom, how ties go) and ``run``
asks its votes one at a time (``VoteStep``) and returns the ``Verdict``. Generic: names and seats
only, no role.

- ``NominationRunoff``: a nomination in which everyone votes, the dead too, then a runoff between the
  two most voted, in which the living who are not suspects vote; ties go to the seat closest to an
  anchor, a player may be a suspect whatever the votes, and two marks change votes and ties
  (``plus`` adds a vote and wins ties, ``minus`` takes one away and loses them)
  (``narrator.core.runoff``). Somebody is always lynched.
- ``OpenVote``: every voter names a candidate; the most voted is lynched; a tie for first is voted
  again among the tied, by the others, and a second tie spares everybody.
- ``SecretVote``: one vote, the most voted is lynched, a tie spares everybody. A voter may count
  more than once (``weights``), may abstain (``may_abstain``) and may be barred from voting for
  himself (``others_only``); on a day when nobody may be lynched (``spares_all``) the votes are
  still taken and counted, and spare everybody.
- ``Accusations``: every living player raises a hand once for anyone, himself included, as the
  names are called in the order given; the accused are all those tied for the most hands, or the
  most accused and all those tied second (a player who had every hand burns at once); then a
  runoff, in which the living who are not accused (and any accused allowed to) vote one of the
  accused: the most voted burns, a tie spares everybody. With two players alive, the accusations
  alone decide. A player's accusations may go to another who stands in for him (``standing_in``).
"""

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any, ClassVar

from narrator.core.runoff import DayOutcome, DayVote, marked_if_voted, nominate, settle_day, tally
from narrator.core.state import EMPTY, RoundStep


@dataclass(frozen=True)
class NominationRunoff:
    seating: tuple[str, ...]
    dead: frozenset[str]
    anchor: str | None = None  # the seat ties are counted to (None: a seat after the seating's last)
    forced: str | None = None  # a suspect whatever the votes (if alive)
    plus: str | None = None  # the marks laid face up before a living player (runoff.DayVote): a vote more
    minus: str | None = None  # ...and a vote fewer
    face_down: tuple[tuple[str, str], ...] = ()  # marks laid face down: ("plus" or "minus", holder), turned up
    may_spare: ClassVar[bool] = False
    rounds: ClassVar[tuple[str, ...]] = ("nomination", "runoff")

    @property
    def living(self) -> tuple[str, ...]:
        return tuple(name for name in self.seating if name not in self.dead)

    @property
    def candidates(self) -> tuple[str, ...]:
        return self.living

    def voting_order(self) -> tuple[str, ...]:
        """Everyone, clockwise from the seat after the anchor's (the anchor votes last); without
        one, the seating from its first."""
        start = 0 if self.anchor is None else (self.seating.index(self.anchor) + 1) % len(self.seating)
        return self.seating[start:] + self.seating[:start]


@dataclass(frozen=True)
class OpenVote:
    voters: tuple[str, ...]  # in the order they vote
    candidates: tuple[str, ...]
    may_spare: ClassVar[bool] = True
    rounds: ClassVar[tuple[str, ...]] = ("vote", "runoff")


@dataclass(frozen=True)
class SecretVote:
    voters: tuple[str, ...]
    candidates: tuple[str, ...]
    weights: Mapping[str, int] = field(default_factory=lambda: EMPTY)  # voter: votes counted (default 1)
    may_abstain: bool = False  # a voter may vote for nobody
    others_only: bool = False  # a voter may not vote for himself
    spares_all: bool = False  # whatever the votes, nobody is lynched today
    may_spare: ClassVar[bool] = True
    takes_hands: ClassVar[bool] = True  # the group may give the hands counted for each name instead

    @property
    def most_hands(self) -> int:
        """The most hands a count can add up to: every voter's, as much as each counts."""
        return sum(self.weights.get(voter, 1) for voter in self.voters)
    rounds: ClassVar[tuple[str, ...]] = ("vote",)


@dataclass(frozen=True)
class Accusations:
    voters: tuple[str, ...]  # the living, in the order their names are called
    weights: Mapping[str, int] = field(default_factory=lambda: EMPTY)  # voter: hands counted (default 1)
    standing_in: Mapping[str, str] = field(default_factory=lambda: EMPTY)  # accused: who is accused instead
    accused_vote: frozenset[str] = frozenset()  # the accused who still vote in the runoff
    runoff_weights: Mapping[str, int] = field(default_factory=lambda: EMPTY)  # voter: votes in the runoff
    halved: frozenset[str] = frozenset()  # the votes these receive count half, rounded up (both rounds)
    less: Mapping[str, int] = field(default_factory=lambda: EMPTY)  # taken from what each receives (both rounds)
    several: frozenset[str] = frozenset()  # voters who may accuse several players, one vote each
    # voters who may point at another player instead of accusing (a round of their own, first):
    # one of ``clears`` pointed at receives no accusation, anyone else is accused too
    pointers: frozenset[str] = frozenset()
    clears: frozenset[str] = frozenset()
    may_spare: ClassVar[bool] = True
    rounds: ClassVar[tuple[str, ...]] = ("pointing", "accusation", "runoff")

    @property
    def candidates(self) -> tuple[str, ...]:
        """Who may end on the pyre: anyone but a player another stands in for."""
        return tuple(name for name in self.voters if name not in self.standing_in)

    def adjusted(self, counted: Mapping[str, int]) -> dict[str, int]:
        """What each receives once halved (rounded up) and lessened, never below nothing."""
        return {name: max(0, ((count + 1) // 2 if name in self.halved else count) - self.less.get(name, 0))
                for name, count in counted.items()}


Procedure = NominationRunoff | OpenVote | SecretVote | Accusations


@dataclass(frozen=True)
class Verdict:
    """What a day's vote decided: who is to be lynched (None: nobody), each round's votes as cast,
    the tallies, and the procedure's own outcome (``runoff.DayOutcome`` for a NominationRunoff) for the
    game's explanation. ``given``: the verdict was entered as it is (a game record), not voted."""

    lynched: str | None
    votes: Mapping[str, Mapping[str, str]] = field(default_factory=lambda: EMPTY)  # round: voter: voted
    tallies: Mapping[str, Mapping[str, int]] = field(default_factory=lambda: EMPTY)  # round: candidate: votes
    tied: tuple[str, ...] = ()  # OpenVote: the tied for first, voted again
    outcome: Any = None
    given: bool = False


@dataclass(frozen=True)
class VoteStep(RoundStep):
    """One player's vote in one round of the day's procedure."""

    procedure: Any = None
    round: str = "nomination"
    voter: str = ""
    candidates: tuple[str, ...] = ()
    votes: Mapping[str, str] = field(default_factory=lambda: EMPTY)  # this round's votes so far
    suspects: tuple[str, ...] = ()  # a runoff's candidates
    several: bool = False  # the voter may name several candidates (a list), one vote each
    may_pass: bool = False  # the voter may vote or not (an accused who keeps his vote)
    kind: ClassVar[str] = "vote"

    def _detail(self) -> tuple[str, ...]:
        return (self.round, self.voter)


@dataclass(frozen=True)
class RevealStep(RoundStep):
    """Marks laid face down are turned up when a living player votes for the player they lie
    before: after the nomination the group says, for each mark laid (with its holder), the player
    it was turned up before: one of ``candidates`` (the players a living player voted for), or nobody."""

    marks: tuple[tuple[str, str], ...] = ()
    candidates: tuple[str, ...] = ()
    kind: ClassVar[str] = "marks"


def run(procedure: Procedure, state) -> Iterator[RoundStep]:
    """Ask the procedure's votes in turn (each ``yield`` takes its entry); return the Verdict."""
    if isinstance(procedure, NominationRunoff):
        return (yield from _nomination_runoff(procedure, state))
    if isinstance(procedure, Accusations):
        return (yield from _accusations(procedure, state))
    return (yield from _plurality(procedure, state))


def _round(procedure, state, name, voters, candidates, suspects=(), several=frozenset(),
           optional=frozenset()) -> Iterator[RoundStep]:
    """One round: each voter's entry in turn (``several`` may name a list, ``optional`` may pass)."""
    votes: dict[str, Any] = {}
    for voter in voters:
        allowed = tuple(name for name in candidates if name != voter) if getattr(procedure, "others_only", False) \
            else candidates
        entry = yield VoteStep(state, procedure, name, voter, allowed, MappingProxyType(dict(votes)), suspects,
                               voter in several, voter in optional)
        if entry["voted"] is not None:  # an abstention (where the procedure allows one) is no vote
            votes[voter] = tuple(entry["voted"]) if isinstance(entry["voted"], list | tuple) else entry["voted"]
    return votes


def weighed(votes: Mapping[str, Any], candidates, weights: Mapping[str, int]) -> dict[str, int]:
    """Votes per candidate, in the candidates' order, each voter counting ``weights[voter]`` (default 1)
    for each name he gave (one, or several where the procedure lets him)."""
    counted = {name: 0 for name in candidates}
    for voter, voted in votes.items():
        for name in (voted if isinstance(voted, tuple) else (voted,)):
            counted[name] += weights.get(voter, 1)
    return counted


def _nomination_runoff(procedure: NominationRunoff, state) -> Iterator[RoundStep]:
    order = procedure.voting_order()
    nomination = yield from _round(procedure, state, "nomination", order, procedure.living)
    vote = DayVote(procedure.seating, procedure.dead, procedure.anchor, MappingProxyType(nomination),
                   MappingProxyType({}), forced=procedure.forced, plus=procedure.plus, minus=procedure.minus)
    counted = marked_if_voted(vote)
    turned_up_before = tuple(name for name in procedure.living if name in counted)
    if procedure.face_down and turned_up_before:  # what was turned up, only the group saw
        entry = yield RevealStep(state, procedure.face_down, turned_up_before)
        turned_up = {mark: name for mark, name in entry["marks"].items() if name is not None}
        vote = replace(vote, plus=turned_up.get("plus"), minus=turned_up.get("minus"))
    _counted, suspects, _steps = nominate(vote)
    runoff = yield from _round(procedure, state, "runoff",
                               [voter for voter in order if voter in procedure.living and voter not in suspects],
                               suspects, suspects)
    vote = replace(vote, runoff=MappingProxyType(runoff))
    outcome: DayOutcome = settle_day(vote)
    return Verdict(outcome.lynched, MappingProxyType({"nomination": vote.nomination, "runoff": vote.runoff}),
                   MappingProxyType({"nomination": outcome.nomination, "runoff": outcome.runoff}),
                   outcome=(vote, outcome))


def counted(procedure: SecretVote, hands: Mapping[str, int]) -> Verdict:
    """The verdict of a secret vote given as the hands counted for each candidate (a cursed hand
    already counted as the weights say): the single most voted, unless tied or spared."""
    tally = {name: int(hands.get(name, 0)) for name in procedure.candidates}
    top = _top(tally)
    lynched = top[0] if len(top) == 1 and not procedure.spares_all else None
    return Verdict(lynched, tallies=MappingProxyType({"vote": MappingProxyType(tally)}),
                   tied=top if len(top) > 1 and not procedure.spares_all else ())


def _accusations(procedure: Accusations, state) -> Iterator[RoundStep]:
    voters = procedure.voters
    pointing: dict[str, Any] = {}
    for pointer in (voter for voter in voters if voter in procedure.pointers and len(voters) > 2):
        pointing |= yield from _round(procedure, state, "pointing", [pointer],
                                      tuple(name for name in voters if name != pointer), optional={pointer})
    accusations = yield from _round(procedure, state, "accusation", [voter for voter in voters if voter not in pointing],
                                    voters, several=procedure.several)
    counted, pointed = accusation_count(procedure, accusations, pointing)
    votes, tallies = {"accusation": MappingProxyType(accusations)}, {"accusation": MappingProxyType(counted)}
    if pointing:
        votes["pointing"] = MappingProxyType(pointing)
    accused = the_accused(procedure, counted, pointed)
    if not accused:  # two left, no accusation at all, or every hand on one: settled at once
        top = _top(counted)
        return Verdict(top[0] if len(top) == 1 else None, MappingProxyType(votes), MappingProxyType(tallies),
                       top if len(top) > 1 else ())
    ballot = yield from _round(procedure, state, "runoff",
                              [voter for voter in voters if voter not in accused or voter in procedure.accused_vote],
                              accused, accused, optional=frozenset(accused) & procedure.accused_vote)
    recount = procedure.adjusted(weighed(ballot, accused, procedure.runoff_weights))
    votes["runoff"], tallies["runoff"] = MappingProxyType(ballot), MappingProxyType(recount)
    best = _top(recount)
    return Verdict(best[0] if len(best) == 1 else None, MappingProxyType(votes), MappingProxyType(tallies),
                   best if len(best) > 1 else ())


def accusation_count(procedure: Accusations, accusations: Mapping[str, Any],
                     pointing: Mapping[str, str]) -> tuple[dict[str, int], list[str]]:
    """What each player receives in the accusation (a stand-in's accusations moved to him, halved,
    lessened, cleared by a pointing), and the players a pointing accuses whatever the hands."""
    counted = weighed(accusations, procedure.voters, procedure.weights)
    for accused, instead in procedure.standing_in.items():
        if instead in counted and counted.get(accused):
            counted[instead] += counted[accused]
            counted[accused] = 0
    counted = procedure.adjusted(counted)
    pointed = []
    for name in (procedure.standing_in.get(name, name) for name in pointing.values()):
        if name in procedure.clears:
            counted[name] = 0
        elif name not in pointed:
            pointed.append(name)
    return counted, pointed


def the_accused(procedure: Accusations, counted: Mapping[str, int], pointed) -> tuple[str, ...]:
    """Who goes to the runoff: all tied for the most, or the most accused and the tied second, and
    those a pointing accuses; () when the accusation settles the day at once (two players left,
    no accusation at all, every hand on one)."""
    top = _top(counted)
    if len(procedure.voters) <= 2 or (not top and not pointed) or (
            len(top) == 1 and counted[top[0]] == sum(counted.values()) and set(pointed) <= set(top)):
        return ()
    accused = top if len(top) > 1 else top + _top({name: count for name, count in counted.items() if name not in top})
    return accused + tuple(name for name in procedure.voters if name in pointed and name not in accused)


def _top(counted: Mapping[str, int]) -> tuple[str, ...]:
    most = max(counted.values(), default=0)
    return tuple(name for name, count in counted.items() if count == most and most > 0)


def _plurality(procedure: OpenVote | SecretVote, state) -> Iterator[RoundStep]:
    first = yield from _round(procedure, state, "vote", procedure.voters, procedure.candidates)
    counted = weighed(first, procedure.candidates, getattr(procedure, "weights", EMPTY))
    top = _top(counted)
    votes, tallies = {"vote": MappingProxyType(first)}, {"vote": MappingProxyType(counted)}
    if getattr(procedure, "spares_all", False):
        return Verdict(None, MappingProxyType(votes), MappingProxyType(tallies))
    if len(top) == 1 or not isinstance(procedure, OpenVote) or not top:
        return Verdict(top[0] if len(top) == 1 else None, MappingProxyType(votes), MappingProxyType(tallies),
                       top if len(top) > 1 else ())
    again = yield from _round(procedure, state, "runoff", [voter for voter in procedure.voters if voter not in top],
                              top, top)
    recount = tally(again, top)
    votes["runoff"], tallies["runoff"] = MappingProxyType(again), MappingProxyType(recount)
    best = _top(recount)
    return Verdict(best[0] if len(best) == 1 else None, MappingProxyType(votes), MappingProxyType(tallies), top)
