"""A day's vote in two rounds, as multi-night games play it: a nomination picks two suspects,
a runoff between them picks who is lynched.

Generic: names, seats and votes only, no role. What a game adds is given as data: who may vote
in which round (the dead vote in the nomination only), a player who joins the suspects whatever
the votes (Lupus in Tabula's "gufato"), and the marks that change votes and ties (La Minaccia
Fantasma's sword and shield: a mark that adds a vote and wins ties, ``plus``, and one that
takes a vote away and loses ties, ``minus``). Ties go to the player closest to the anchor seat (the "Benvenuto!"
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

# The parts of a day's vote, by the names errors give them; a game passes its own (Lupus in
# Tabula's votes file calls the dead "ghosts" and the runoff "ballot").
LABELS = MappingProxyType({part: part for part in ("seating", "dead", "anchor", "forced", "plus", "minus",
                                                   "nomination", "runoff")})


class DayVoteError(NarratorError):
    """The day's votes cannot be counted as given; the message says what to fix."""


@dataclass(frozen=True)
class DayVote:
    seating: tuple[str, ...]  # everyone at the table, living and dead, clockwise
    dead: frozenset[str]  # they vote in the nomination only, and nobody votes for them
    anchor: str | None  # the seat ties are counted to (the "Benvenuto!" holder); None: a seat after the
    # last of the seating (a moderator who keeps the card while nobody has died)
    nomination: Mapping[str, str]  # voter: voted, for every living and dead player
    runoff: Mapping[str, str]  # voter: voted, for every living player who is not a suspect
    forced: str | None = None  # a player who is a suspect whatever the votes (if alive)
    plus: str | None = None  # one more nomination vote, once a living player votes for them; wins ties
    minus: str | None = None  # one nomination vote fewer, likewise; loses ties (both before one player:
    # the votes cancel, and in a tie the plus is looked at first)
    labels: Mapping[str, str] = field(default_factory=lambda: LABELS)  # what the game calls each part, for errors

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
# tie was broken, "plus", "minus" or "anchor" (closeness to the anchor seat).
ROUNDS = ("nomination", "runoff")
REASONS = ("forced", "plus", "minus", "anchor")


def settle_day(vote: DayVote) -> DayOutcome:
    """The suspects and the lynched player, by the rules the module's docstring gives."""
    nominated, pair, steps = nominate(vote)
    check_runoff(vote, pair)
    counted = tally(vote.runoff, pair)
    lynched, how = _best(list(pair), counted, vote)
    if how:
        steps = (*steps, ("runoff", how))
    return DayOutcome(MappingProxyType(nominated), pair, MappingProxyType(counted), lynched, steps)


def nominate(vote: DayVote) -> tuple[dict[str, int], tuple[str, str], tuple[tuple[str, str], ...]]:
    """The first round: votes per living player (the marks counted), the two suspects in seating
    order, and how they were chosen. The runoff's votes are not looked at."""
    check_day(vote)
    living = vote.living
    nominated = tally(vote.nomination, living)
    voted_by_living = marked_if_voted(vote)
    if vote.plus in voted_by_living:
        nominated[vote.plus] += 1
    if vote.minus in voted_by_living:
        nominated[vote.minus] -= 1
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


def tally(votes: Mapping[str, str], candidates: Sequence[str]) -> dict[str, int]:
    """Votes per candidate, in the candidates' order (voter: voted in, every voted a candidate)."""
    counted = {name: 0 for name in candidates}
    for voted in votes.values():
        counted[voted] += 1
    return counted


def tally_text(counted: Mapping[str, int]) -> str:
    """``Anna 3, Bruno 1``: the candidates who had votes, as a game's sentence quotes them ("-": none)."""
    return ", ".join(f"{name} {count}" for name, count in counted.items() if count) or "-"


def marked_if_voted(vote: DayVote) -> frozenset[str]:
    """The players a living player voted for in the nomination: a mark before one of them counts
    (and, with it face down, is turned up)."""
    return frozenset(voted for voter, voted in vote.nomination.items() if voter not in vote.dead)


def _best(candidates: Sequence[str], votes: Mapping[str, int], vote: DayVote) -> tuple[str, str | None]:
    """The candidate with the most votes, and how a tie for it was broken (None when there was none)."""
    top = max(votes[name] for name in candidates)
    tied = [name for name in candidates if votes[name] == top]
    if len(tied) == 1:
        return tied[0], None
    if vote.plus in tied:
        return vote.plus, "plus"
    how = "anchor"
    if vote.minus in tied:
        tied.remove(vote.minus)
        how = "minus"
    return min(tied, key=lambda name: seats_before(vote.seating, name, vote.anchor)), how


def seats_before(seating: Sequence[str], name: str, anchor: str | None) -> int:
    """How many seats clockwise from ``name`` to ``anchor`` (the closer, the fewer); with no
    anchor, to a seat after the last of ``seating``."""
    if anchor is None:
        return len(seating) - seating.index(name)
    return (seating.index(anchor) - seating.index(name)) % len(seating)


def check_day(vote: DayVote) -> None:
    """Refuse a table that cannot be: unknown names, the dead voted for, someone voting twice or not at all."""
    label = vote.labels
    if (twice := repeated(list(vote.seating))) is not None:
        raise DayVoteError(msg("{field}: '{name}' sits twice: list each player once", field=label["seating"],
                               name=twice))
    if len(vote.seating) < 3:
        raise DayVoteError(msg("{field}: a day's vote needs three players at least", field=label["seating"]))
    for name in sorted(vote.dead):
        _seated(vote, name, "dead")
    if vote.anchor is not None:
        _seated(vote, vote.anchor, "anchor")
    for part, name in (("forced", vote.forced), ("plus", vote.plus), ("minus", vote.minus)):
        if name is not None:
            _seated(vote, name, part)
            if part != "forced" and name in vote.dead:
                raise DayVoteError(msg("{field}: {name} is dead; the mark lies before a living player",
                                       field=label[part], name=name))
    living = set(vote.living)
    if len(living) < 3:
        raise DayVoteError(msg("only {count} players are alive: the game is over before any vote", count=len(living)))
    for voter, voted in vote.nomination.items():
        _seated(vote, voter, "nomination")
        _seated(vote, voted, "nomination")
        if voted not in living:
            raise DayVoteError(msg("{field}: {voter} votes for {voted}, who is dead: votes go to living players",
                                   field=label["nomination"], voter=voter, voted=voted))
    missing = [name for name in vote.seating if name not in vote.nomination]
    if missing:
        raise DayVoteError(msg("{field}: {names} did not vote: every player, living or dead, votes once",
                               field=label["nomination"], names=", ".join(missing)))


def check_runoff(vote: DayVote, suspects: Sequence[str]) -> None:
    """Only the living who are not suspects vote in the runoff, each once, for a suspect."""
    label = vote.labels["runoff"]
    voters = [name for name in vote.living if name not in suspects]
    for voter, voted in vote.runoff.items():
        _seated(vote, voter, "runoff")
        _seated(vote, voted, "runoff")
        if voter in vote.dead:
            raise DayVoteError(msg("{field}: {voter} is dead: the dead vote in the {nomination} only", field=label,
                                   voter=voter, nomination=vote.labels["nomination"]))
        if voter in suspects:
            raise DayVoteError(msg("{field}: {voter} is a suspect ({suspects}): suspects do not vote here",
                                   field=label, voter=voter, suspects=" / ".join(suspects)))
        if voted not in suspects:
            raise DayVoteError(msg("{field}: {voter} votes for {voted}, who is not a suspect: choose {suspects}",
                                   field=label, voter=voter, voted=voted, suspects=" / ".join(suspects)))
    missing = [name for name in voters if name not in vote.runoff]
    if missing:
        raise DayVoteError(msg("{field}: {names} did not vote: every living player who is not a suspect votes",
                               field=label, names=", ".join(missing)))


def _seated(vote: DayVote, name: str, part: str) -> None:
    if name not in vote.seating:
        raise DayVoteError(msg("{field}: nobody called '{name}' sits at the table: use the names of {seating}",
                               field=vote.labels[part], name=name, seating=vote.labels["seating"]))


def day_from_data(data: object, labels: Mapping[str, str], source: str) -> DayVote:
    """A day's votes from a file's data: ``labels`` names the file's field for each part
    (``LABELS``' keys). A field of the wrong shape is one error naming the file and the field."""
    if not isinstance(data, dict):
        raise DayVoteError(msg("{file}: not a day's votes: a mapping with {fields}", file=source,
                               fields=", ".join(labels[part] for part in ("seating", "nomination", "runoff"))))

    def name(part: str, value: object, optional: bool = False) -> str | None:
        if value is None and optional:
            return None
        if not isinstance(value, str | int) or isinstance(value, bool) or not str(value).strip():
            raise DayVoteError(msg("{file}: {field}: '{value}' is not a player's name", file=source,
                                   field=labels[part], value=value))
        return str(value).strip()

    def names(part: str) -> tuple[str, ...]:
        value = data.get(labels[part], [])
        if not isinstance(value, list):
            raise DayVoteError(msg("{file}: {field}: a list of names", file=source, field=labels[part]))
        return tuple(name(part, item) for item in value)

    def votes(part: str) -> dict[str, str]:
        value = data.get(labels[part], {})
        if not isinstance(value, dict):
            raise DayVoteError(msg("{file}: {field}: voter: voted, one a line", file=source, field=labels[part]))
        return {name(part, voter): name(part, voted) for voter, voted in value.items()}

    unknown = sorted(str(key) for key in data if key not in set(labels.values()) | {"game"})
    if unknown:
        raise DayVoteError(msg("{file}: '{field}' is not a field of a day's votes: {fields}", file=source,
                               field=unknown[0], fields=", ".join(labels.values())))
    if labels["anchor"] not in data:
        raise DayVoteError(msg("{file}: {field}: missing", file=source, field=labels["anchor"]))
    return DayVote(
        seating=names("seating"),
        dead=frozenset(names("dead")),
        anchor=name("anchor", data[labels["anchor"]]),
        nomination=MappingProxyType(votes("nomination")),
        runoff=MappingProxyType(votes("runoff")),
        forced=name("forced", data.get(labels["forced"]), optional=True),
        plus=name("plus", data.get(labels["plus"]), optional=True),
        minus=name("minus", data.get(labels["minus"]), optional=True),
        labels=labels,
    )
