"""A day's vote in two rounds, as multi-night games play it: a nomination picks two suspects,
a runoff between them picks who is lynched.

Generic: names, seats and votes only, no role. What a game adds is given as data: who may vote
in which round (the dead vote in the nomination only), a player who joins the suspects whatever
the votes (Lupus in Tabula's "gufato"), and the marks that change votes and ties (La Minaccia
Fantasma's sword and shield). Ties go to the player closest to the anchor seat (the "Benvenuto!"
holder) counting clockwise from the tied player to it: the rulebook's example, seated Andrea,
Bruno, Carla, Daniela, Elena, Francesco, Gianni, Roberta clockwise with Francesco holding the
card, puts Daniela (two seats before Francesco) ahead of Roberta (seven).
"""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType

from narrator.core.errors import NarratorError
from narrator.core.i18n import msg
from narrator.core.names import repeated


class DayVoteError(NarratorError):
    """The day's votes cannot be counted as given; the message says what to fix."""


@dataclass(frozen=True)
class DayVote:
    seating: tuple[str, ...]  # everyone at the table, living and dead, clockwise
    dead: frozenset[str]  # they vote in the nomination only, and nobody votes for them
    anchor: str  # the seat ties are counted to (the "Benvenuto!" holder)
    nomination: Mapping[str, str]  # voter: voted, for every living and dead player
    runoff: Mapping[str, str]  # voter: voted, for every living player who is not a suspect
    forced: str | None = None  # a player who is a suspect whatever the votes (if alive)
    sword: str | None = None  # one more nomination vote, once a living player votes for them; wins ties
    shield: str | None = None  # one nomination vote fewer, likewise; loses ties

    @property
    def living(self) -> tuple[str, ...]:
        return tuple(name for name in self.seating if name not in self.dead)


@dataclass(frozen=True)
class DayOutcome:
    nomination: Mapping[str, int]  # votes per living player, seating order, the marks counted
    suspects: tuple[str, str]  # seating order
    runoff: Mapping[str, int]  # votes per suspect, seating order
    lynched: str
    steps: tuple[tuple[str, str], ...] = field(default=())  # how each choice was made: (round, reason)


# What ``DayOutcome.steps`` holds, for a game to explain the result in its own words: the round
# ("nomination" or "runoff") and the reason: "forced" (the forced player is a suspect), or how a
# tie was broken, "sword", "shield" or "anchor" (closeness to the anchor seat).
ROUNDS = ("nomination", "runoff")
REASONS = ("forced", "sword", "shield", "anchor")


def settle_day(vote: DayVote) -> DayOutcome:
    """The suspects and the lynched player, by the rules the module's docstring gives."""
    nominated, pair, steps = nominate(vote)
    check_runoff(vote, pair)
    counted = {name: 0 for name in pair}
    for voted in vote.runoff.values():
        counted[voted] += 1
    lynched, how = _best(list(pair), counted, vote)
    if how:
        steps = (*steps, ("runoff", how))
    return DayOutcome(MappingProxyType(nominated), pair, MappingProxyType(counted), lynched, steps)


def nominate(vote: DayVote) -> tuple[dict[str, int], tuple[str, str], tuple[tuple[str, str], ...]]:
    """The first round: votes per living player (the marks counted), the two suspects in seating
    order, and how they were chosen. The runoff's votes are not looked at."""
    check_day(vote)
    living = vote.living
    nominated = {name: 0 for name in living}
    for voted in vote.nomination.values():
        nominated[voted] += 1
    voted_by_living = {voted for voter, voted in vote.nomination.items() if voter not in vote.dead}
    if vote.sword in voted_by_living:
        nominated[vote.sword] += 1
    if vote.shield in voted_by_living:
        nominated[vote.shield] -= 1
    steps: list[tuple[str, str]] = []
    suspects: list[str] = []
    if vote.forced in nominated:
        suspects.append(vote.forced)
        steps.append(("nomination", "forced"))
    while len(suspects) < 2:
        chosen, how = _best([name for name in living if name not in suspects], nominated, vote)
        suspects.append(chosen)
        if how:
            steps.append(("nomination", how))
    first, second = sorted(suspects, key=living.index)
    return nominated, (first, second), tuple(steps)


def _best(candidates: Sequence[str], votes: Mapping[str, int], vote: DayVote) -> tuple[str, str | None]:
    """The candidate with the most votes, and how a tie for it was broken (None when there was none)."""
    top = max(votes[name] for name in candidates)
    tied = [name for name in candidates if votes[name] == top]
    if len(tied) == 1:
        return tied[0], None
    if vote.sword in tied:
        return vote.sword, "sword"
    how = "anchor"
    if vote.shield in tied:
        tied.remove(vote.shield)
        how = "shield"
    return min(tied, key=lambda name: seats_before(vote.seating, name, vote.anchor)), how


def seats_before(seating: Sequence[str], name: str, anchor: str) -> int:
    """How many seats clockwise from ``name`` to ``anchor`` (the closer, the fewer)."""
    return (seating.index(anchor) - seating.index(name)) % len(seating)


def check_day(vote: DayVote) -> None:
    """Refuse a table that cannot be: unknown names, the dead voted for, someone voting twice or not at all."""
    if (twice := repeated(list(vote.seating))) is not None:
        raise DayVoteError(msg("seating: '{name}' sits twice: list each player once", name=twice))
    if len(vote.seating) < 3:
        raise DayVoteError(msg("seating: a day's vote needs three players at least"))
    seated = set(vote.seating)
    for name in sorted(vote.dead):
        _seated(name, seated, "ghosts")
    _seated(vote.anchor, seated, "benvenuto")
    for what, name in (("gufato", vote.forced), ("sword", vote.sword), ("shield", vote.shield)):
        if name is not None:
            _seated(name, seated, what)
            if what != "gufato" and name in vote.dead:
                raise DayVoteError(msg("{field}: {name} is dead; the mark lies before a living player",
                                       field=what, name=name))
    if vote.sword is not None and vote.sword == vote.shield:
        raise DayVoteError(msg("sword and shield lie before {name}: they mark two different players", name=vote.sword))
    living = set(vote.living)
    if len(living) < 3:
        raise DayVoteError(msg("only {count} players are alive: the game is over before any vote", count=len(living)))
    for voter, voted in vote.nomination.items():
        _seated(voter, seated, "nomination")
        _seated(voted, seated, "nomination")
        if voted not in living:
            raise DayVoteError(msg("nomination: {voter} votes for {voted}, who is dead: votes go to living players",
                                   voter=voter, voted=voted))
    missing = [name for name in vote.seating if name not in vote.nomination]
    if missing:
        raise DayVoteError(msg("nomination: {names} did not vote: every player, living or dead, votes once",
                               names=", ".join(missing)))


def check_runoff(vote: DayVote, suspects: Sequence[str]) -> None:
    """Only the living who are not suspects vote in the runoff, each once, for a suspect."""
    seated = set(vote.seating)
    voters = [name for name in vote.living if name not in suspects]
    for voter, voted in vote.runoff.items():
        _seated(voter, seated, "ballot")
        _seated(voted, seated, "ballot")
        if voter in vote.dead:
            raise DayVoteError(msg("ballot: {voter} is dead: the dead vote in the nomination only", voter=voter))
        if voter in suspects:
            raise DayVoteError(msg("ballot: {voter} is a suspect ({suspects}): suspects do not vote in the ballot",
                                   voter=voter, suspects=" / ".join(suspects)))
        if voted not in suspects:
            raise DayVoteError(msg("ballot: {voter} votes for {voted}, who is not a suspect: choose {suspects}",
                                   voter=voter, voted=voted, suspects=" / ".join(suspects)))
    missing = [name for name in voters if name not in vote.runoff]
    if missing:
        raise DayVoteError(msg("ballot: {names} did not vote: every living player who is not a suspect votes",
                               names=", ".join(missing)))


def _seated(name: str, seated: set[str], where: str) -> None:
    if name not in seated:
        raise DayVoteError(msg("{field}: nobody called '{name}' sits at the table: use the names of seating",
                               field=where, name=name))
