"""The day's vote: what a game of many nights' rules return from ``day`` (a ``Procedure``), the
blocks to write one with, and the two stock procedures a new game is likely to reuse.

A procedure is a frozen description of one day's vote (who votes, for whom, how ties go). Its
``run`` asks its votes one at a time (``VoteStep``), and any other question as an ``Ask``
(``QuestionStep``), a round the group may give as the hands counted for each name first
(``HandsStep``), and returns the ``Verdict``; each step carries
what the voter may do and the sentences that introduce it, keys of the game's ``vote:`` section
(``Said``), so that the loop, a game record, the terminal, the phone and the tablets work for a
game's own procedure without knowing it. What only one game does lives in its folder (Lupus in
Tabula's nomination and runoff, Wherewolf Revised's accusations), written with the blocks here:
``votes_round`` (one round, each voter in turn), ``hands_or_votes`` (a round given as the hands
counted for each name, or as each vote), ``weighed`` (a tally, with weights), ``top``,
``settled`` (the most voted, or nobody on a tie) and ``tally_text``.

The stock procedures, generic: names only, no role.

- ``OpenVote``: every voter names a candidate; the most voted is lynched; a tie for first is voted
  again among the tied, by the others, and a second tie spares everybody.
- ``SecretVote``: one vote, the most voted is lynched, a tie spares everybody. A voter may count
  more than once (``weights``), may abstain (``may_abstain``) and may be barred from voting for
  himself (``others_only``); on a day when nobody may be lynched (``spares_all``) the votes are
  still taken and counted, and spare everybody. The group may give the hands counted for each
  name instead of each vote.
"""

from collections.abc import Generator, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, ClassVar, Protocol, runtime_checkable

from narrator.core.i18n import Text
from narrator.core.state import EMPTY, Ask, RoundStep


@dataclass(frozen=True)
class Said:
    """A sentence of the game's language (its ``vote:`` section) and the values it is said with: a
    value may itself be ``Said``, or a tuple of names (joined as the language joins them)."""

    key: str
    values: Mapping[str, Any] = field(default_factory=lambda: EMPTY)


def said(key: str, **values: Any) -> Said:
    return Said(key, MappingProxyType(values))


@dataclass(frozen=True)
class Verdict:
    """What a day's vote decided: who is to be lynched (None: nobody), each round's votes as cast,
    the tallies, and the procedure's own outcome, for the game's explanation. ``given``: the verdict
    was entered as it is (a game record), not voted."""

    lynched: str | None
    votes: Mapping[str, Mapping[str, str]] = field(default_factory=lambda: EMPTY)  # round: voter: voted
    tallies: Mapping[str, Mapping[str, int]] = field(default_factory=lambda: EMPTY)  # round: candidate: votes
    tied: tuple[str, ...] = ()  # the tied for first (voted again, or sparing everybody)
    outcome: Any = None
    given: bool = False
    hands: Mapping[str, Mapping[str, int]] = field(default_factory=lambda: EMPTY)  # round: name: hands counted


Flow = Generator[RoundStep, dict, Any]  # a procedure's steps: each yield takes its entry; returns its result


@runtime_checkable
class Procedure(Protocol):
    """What the loop, a record and the screens need of a day's vote (``Vote`` gives the defaults).
    Each is read, never set: a field, a class's constant or a property."""

    @property
    def rounds(self) -> tuple[str, ...]:
        """Its rounds' names, which a record keys by the rules' VOTE_KEYS."""

    @property
    def candidates(self) -> tuple[str, ...]:
        """Who may be lynched."""

    @property
    def may_spare(self) -> bool:
        """A day given as its result (not voted) may end with nobody lynched."""

    @property
    def spares_all(self) -> bool:
        """Nobody may be lynched today: the votes are still taken, and spare everybody."""

    @property
    def most_hands(self) -> int | None:
        """The vote may be given as the hands counted for each name, up to this many."""

    @property
    def opening(self) -> tuple[Said, ...]:
        """Said before the day's vote, however it is given."""

    def run(self, state) -> Flow:
        """Ask the votes in turn (``VoteStep``, or a step of the game's own); return the Verdict."""

    def counted(self, hands: Mapping[str, int]) -> Verdict:
        """The verdict of the hands counted for each candidate (only where ``most_hands`` is set)."""

    def barred(self, name: str) -> Text | None:
        """Why ``name``, a living player and no candidate, cannot be lynched today, in the game's
        words (a record that names him is refused with it); None: no reason beyond that."""


class Vote:
    """The defaults of a ``Procedure``: a procedure subclasses it and sets what differs."""

    rounds: ClassVar[tuple[str, ...]] = ("vote",)
    may_spare: ClassVar[bool] = True
    spares_all: bool = False

    @property
    def most_hands(self) -> int | None:
        return None

    @property
    def opening(self) -> tuple[Said, ...]:
        return ()

    def counted(self, hands: Mapping[str, int]) -> Verdict:
        raise NotImplementedError(f"{type(self).__name__} is not counted by hands")

    def barred(self, name: str) -> Text | None:
        return None


@dataclass(frozen=True)
class VoteStep(RoundStep):
    """One player's vote in one round of the day's procedure, and how it is asked."""

    procedure: Any = None
    round: str = "vote"
    voter: str = ""
    candidates: tuple[str, ...] = ()
    votes: Mapping[str, str] = field(default_factory=lambda: EMPTY)  # this round's votes so far
    suspects: tuple[str, ...] = ()  # a runoff's candidates
    several: bool = False  # the voter may name several candidates (a list), one vote each
    may_pass: bool = False  # the voter may vote for nobody
    intro: tuple[Said, ...] = ()  # said as the round begins (before its first vote)
    question: Said | None = None  # how the voter is asked, where not "votes for"
    kind: ClassVar[str] = "vote"

    def _detail(self) -> tuple[str, ...]:
        return (self.round, self.voter)


@dataclass(frozen=True)
class QuestionStep(RoundStep):
    """A question of the day's procedure that is no vote (the marks laid face down that the group
    saw turned up): an ``Ask`` of any kind, the game's own too, keyed in the rules' DAY_KEYS, whose
    answer (``entry["choice"]``) the procedure takes back. The terminal, the phone and a game
    record ask it as they ask the rules' other asks."""

    procedure: Any = None
    round: str = ""
    ask: Ask = field(default_factory=lambda: Ask("", "player"))
    intro: tuple[Said, ...] = ()  # said before it is asked
    kind: ClassVar[str] = "question"

    def _detail(self) -> tuple[str, ...]:
        return (self.round, self.ask.key)


@dataclass(frozen=True)
class HandsStep(RoundStep):
    """A round of the day's procedure the group may give as the hands counted for each name (each
    name called aloud, the moderator counting the hands raised) instead of each vote: the entry's
    ``hands`` (name: count, up to ``most`` in all), or None for each vote (its ``VoteStep``s follow)."""

    procedure: Any = None
    round: str = ""
    candidates: tuple[str, ...] = ()  # the names called, in turn
    most: int = 0  # the most hands the count may add up to
    intro: tuple[Said, ...] = ()  # said as the round begins
    kind: ClassVar[str] = "hands"

    def _detail(self) -> tuple[str, ...]:
        return (self.round,)


# --- the blocks -----------------------------------------------------------------------------------------

def votes_round(procedure, state, name: str, voters, candidates, suspects=(), several=frozenset(),
                optional=frozenset(), intro: tuple[Said, ...] = (), question=None,
                others_only: bool = False) -> Generator[RoundStep, dict, dict[str, Any]]:
    """One round: each voter's entry in turn (``several`` may name a list, ``optional`` may pass;
    ``others_only``: nobody votes for himself; ``question(voter)``: how each is asked). Returns the
    votes given (voter: a name, or a tuple of names)."""
    votes: dict[str, Any] = {}
    for voter in voters:
        allowed = tuple(each for each in candidates if each != voter) if others_only else candidates
        entry = yield VoteStep(state, procedure, name, voter, allowed, MappingProxyType(dict(votes)), suspects,
                               voter in several, voter in optional, intro if not votes else (),
                               question(voter) if question else None)
        if entry["voted"] is not None:  # an abstention (where the procedure allows one) is no vote
            votes[voter] = tuple(entry["voted"]) if isinstance(entry["voted"], list | tuple) else entry["voted"]
    return votes


def hands_or_votes(procedure, state, name: str, voters, candidates, most: int, intro: tuple[Said, ...] = (),
                   **each_vote: Any) -> Generator[RoundStep, dict, tuple[dict[str, int] | None, dict[str, Any]]]:
    """A round the group gives as the hands counted for each of ``candidates`` (up to ``most`` in
    all), or as each voter's vote (``votes_round`` with ``each_vote``): (the hands, {}), or (None,
    the votes). ``intro`` is said once, as the round begins."""
    entry = yield HandsStep(state, procedure, name, tuple(candidates), most, intro)
    if entry["hands"] is not None:
        return {each: int(entry["hands"].get(each, 0)) for each in candidates}, {}
    votes = yield from votes_round(procedure, state, name, voters, candidates, **each_vote)
    return None, votes


def weighed(votes: Mapping[str, Any], candidates, weights: Mapping[str, int] = EMPTY) -> dict[str, int]:
    """Votes per candidate, in the candidates' order, each voter counting ``weights[voter]`` (default 1)
    for each name he gave (one, or several where the procedure lets him)."""
    counted = {name: 0 for name in candidates}
    for voter, voted in votes.items():
        for name in (voted if isinstance(voted, tuple) else (voted,)):
            counted[name] += weights.get(voter, 1)
    return counted


def tally_text(counted: Mapping[str, int]) -> str:
    """``Anna 3, Bruno 1``: the candidates who had votes, as a game's sentence quotes them ("-": none)."""
    return ", ".join(f"{name} {count}" for name, count in counted.items() if count) or "-"


def top(counted: Mapping[str, int]) -> tuple[str, ...]:
    """Those with the most votes, if anyone has any."""
    most = max(counted.values(), default=0)
    return tuple(name for name, count in counted.items() if count == most and most > 0)


def settled(counted: Mapping[str, int], votes: Mapping, tallies: Mapping, tied=None) -> Verdict:
    """The single most voted is lynched; a tie for the most spares everybody."""
    best = top(counted)
    return Verdict(best[0] if len(best) == 1 else None, MappingProxyType(dict(votes)),
                   MappingProxyType(dict(tallies)), (best if len(best) > 1 else ()) if tied is None else tied)


# --- the stock procedures ---------------------------------------------------------------------------

@dataclass(frozen=True)
class OpenVote(Vote):
    """The game's ``vote:`` section says ``round_vote`` as it begins and ``round_tie`` ({names}) before
    the tied are voted again (``SENTENCES``)."""

    voters: tuple[str, ...]  # in the order they vote
    candidates: tuple[str, ...]
    rounds: ClassVar[tuple[str, ...]] = ("vote", "runoff")
    SENTENCES: ClassVar[tuple[str, ...]] = ("round_vote", "round_tie")

    def run(self, state) -> Flow:
        first = yield from votes_round(self, state, "vote", self.voters, self.candidates,
                                       intro=(said("round_vote"),))
        counted = weighed(first, self.candidates)
        tied = top(counted)
        votes, tallies = {"vote": MappingProxyType(first)}, {"vote": MappingProxyType(counted)}
        if len(tied) < 2:
            return settled(counted, votes, tallies)
        again = yield from votes_round(self, state, "runoff", [voter for voter in self.voters if voter not in tied],
                                       tied, tied, intro=(said("round_tie", names=tied),))
        recount = weighed(again, tied)
        votes["runoff"], tallies["runoff"] = MappingProxyType(again), MappingProxyType(recount)
        return settled(recount, votes, tallies, tied)


@dataclass(frozen=True)
class SecretVote(Vote):
    """The game's ``vote:`` section says ``round_vote`` as it begins and ``vote_weights`` ({names}:
    whose vote counts more than once) before the vote, if any does (``SENTENCES``)."""

    voters: tuple[str, ...]
    candidates: tuple[str, ...]
    weights: Mapping[str, int] = field(default_factory=lambda: EMPTY)  # voter: votes counted (default 1)
    may_abstain: bool = False  # a voter may vote for nobody
    others_only: bool = False  # a voter may not vote for himself
    spares_all: bool = False  # whatever the votes, nobody is lynched today
    SENTENCES: ClassVar[tuple[str, ...]] = ("round_vote", "vote_weights")

    @property
    def most_hands(self) -> int:
        """The most hands a count can add up to: every voter's, as much as each counts."""
        return sum(self.weights.get(voter, 1) for voter in self.voters)

    @property
    def opening(self) -> tuple[Said, ...]:
        heavy = tuple(f"{name} x{weight}" for name, weight in self.weights.items() if weight > 1)
        return (said("vote_weights", names=heavy),) if heavy else ()

    def run(self, state) -> Flow:
        first = yield from votes_round(self, state, "vote", self.voters, self.candidates,
                                       optional=frozenset(self.voters) if self.may_abstain else frozenset(),
                                       intro=(said("round_vote"),), others_only=self.others_only)
        return self._verdict(weighed(first, self.candidates, self.weights), {"vote": MappingProxyType(first)})

    def counted(self, hands: Mapping[str, int]) -> Verdict:
        """The verdict of the vote given as the hands counted for each candidate (a voter's hands
        already counted as the weights say)."""
        return self._verdict({name: int(hands.get(name, 0)) for name in self.candidates}, {})

    def _verdict(self, counted: dict[str, int], votes: Mapping) -> Verdict:
        tallies = {"vote": MappingProxyType(counted)}
        if self.spares_all:
            return Verdict(None, MappingProxyType(dict(votes)), MappingProxyType(tallies))
        return settled(counted, votes, tallies)
