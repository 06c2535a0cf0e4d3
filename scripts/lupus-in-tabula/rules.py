"""Lupus in Tabula's rules (shared/rules/lupus-in-tabula.md), on the contract of a game of many
nights (``narrator.core.nights``): the night's asks, the dawn, the day's two rounds (its own
procedure, ``NominationRunoff``, with the ghosts, the Benvenuto, the gufato and La Minaccia Fantasma's
marks) and the end. The vote's explanation and the votes file of ``narrate votes`` use the game's own words
(see the README)."""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any, ClassVar

from narrator.core.card import Block
from narrator.core.deck import Deck
from narrator.core.errors import NarratorError
from narrator.core.game import Game, Language
from narrator.core.i18n import msg
from narrator.core.names import repeated
from narrator.core.procedures import Procedure, QuestionStep, Verdict, Vote, said, tally_text, votes_round, weighed
from narrator.core.state import Ask, Dawn, Dusk, State
from narrator.core.vote import Sentences

ROLE_FIELDS = {"wolf": "flag", "mannaro": "flag", "survives_wolves": "flag", "dies_if_seen": "flag",
               "wins_alone_alive": "flag", "kills_from": "count",
               "copyable": "flag"}
SENTENCES = ("title_nomination", "title_runoff",  # the rounds' titles
             "nomination", "forced", "tie_sword", "tie_shield", "tie_anchor", "tie_unheld", "suspects", "ballot",
             "lynched",
             "dawn_dead", "anchor",  # said aloud in a game
             "reason_eaten", "reason_protected", "reason_survived", "reason_seen", "reason_owl",  # for the moderator
             "mark_plus", "mark_minus", "ask_fantasmi_sword", "ask_fantasmi_shield",  # La Minaccia Fantasma
             "note_gufato", "note_sword", "note_shield",  # the moderator's notes
             "round_nomination", "round_forced", "round_mark", "round_runoff",  # the vote, as it is asked
             "reveal_marks", "ask_marks", "ask_marks_plus", "ask_marks_minus")
CARD_TEXTS = ("vote", "vote_nomination", "vote_forced", "vote_ballot", "vote_ties", "end", "end_sides")
END_AFTER = ("dawn", "day")  # after every death (the digest's "The end")
# The votes file's fields for each part of the day (LABELS, below).
FIELDS = {"seating": "seating", "dead": "ghosts", "anchor": "benvenuto", "forced": "gufato", "plus": "sword",
          "minus": "shield", "nomination": "nomination", "runoff": "ballot"}


# --- the day's vote: a nomination and a runoff, ties to the seat nearest the Benvenuto, two marks -----

# A nomination picks two suspects, a runoff between them picks who is lynched. The dead vote in the
# nomination only; the gufato is a suspect whatever the votes; La Minaccia Fantasma's sword adds a
# vote and wins ties (``plus``), its shield takes one away and loses them (``minus``). Ties go to the
# player closest to the Benvenuto (the anchor seat), counting clockwise from the tied player to it:
# the rulebook's example, seated Andrea, Bruno, Carla, Daniela, Elena, Francesco, Gianni, Roberta
# clockwise with Francesco holding the card, puts Daniela (two seats before Francesco) ahead of
# Roberta (seven). The same code settles a game's day and a votes file of one day.

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
    counted = weighed(vote.runoff, pair)
    lynched, how = _best(list(pair), counted, vote)
    if how:
        steps = (*steps, ("runoff", how))
    return DayOutcome(MappingProxyType(nominated), pair, MappingProxyType(counted), lynched, steps)


def nominate(vote: DayVote) -> tuple[dict[str, int], tuple[str, str], tuple[tuple[str, str], ...]]:
    """The first round: votes per living player (the marks counted), the two suspects in seating
    order, and how they were chosen. The runoff's votes are not looked at."""
    check_day(vote)
    living = vote.living
    nominated = weighed(vote.nomination, living)
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

    def name(part: str, value: object) -> str:
        if not isinstance(value, str | int) or isinstance(value, bool) or not str(value).strip():
            raise DayVoteError(msg("{file}: {field}: '{value}' is not a player's name", file=source,
                                   field=labels[part], value=value))
        return str(value).strip()

    def optional(part: str, value: object) -> str | None:
        return None if value is None else name(part, value)

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
        forced=optional("forced", data.get(labels["forced"])),
        plus=optional("plus", data.get(labels["plus"])),
        minus=optional("minus", data.get(labels["minus"])),
        labels=labels,
    )


# --- narrate votes FILE: one day's votes, settled ------------------------------------------------------

def read_day(game: Game, data: Any, source: str) -> DayVote:
    return day_from_data(data, FIELDS, source)


def settle_votes(game: Game, vote: DayVote) -> DayOutcome:
    return settle_day(vote)


def explain_votes(game: Game, vote: DayVote, outcome: DayOutcome, say: Sentences) -> list[str]:
    """The result, a sentence per step: the nomination's votes, how the two indiziati were
    found, the ballottaggio's votes, who is lynched."""
    def tie(reason):
        if reason == "anchor":
            return say("tie_anchor", anchor=vote.anchor) if vote.anchor else say("tie_unheld")
        return say("tie_sword", name=vote.plus) if reason == "plus" else say("tie_shield", name=vote.minus)

    lines = [say("nomination", tally=tally_text(outcome.nomination))]
    for stage, reason in outcome.steps:
        if stage == "nomination":
            lines.append(say("forced", name=vote.forced) if reason == "forced" else tie(reason))
    lines.append(say("suspects", names=say.join(list(outcome.suspects))))
    lines.append(say("ballot", tally=tally_text(outcome.runoff)))
    lines += [tie(reason) for stage, reason in outcome.steps if stage == "runoff"]
    lines.append(say("lynched", name=outcome.lynched))
    return lines


def day_as_dict(outcome: DayOutcome, explanation: Sequence[str]) -> dict[str, Any]:
    """The result for programs, in the votes file's words."""
    return {"nomination": dict(outcome.nomination), "indiziati": list(outcome.suspects),
            "ballot": dict(outcome.runoff), "lynched": outcome.lynched, "explanation": explanation}


def card_back(game: Game, language: Language, deck: Deck) -> tuple[Block, ...]:
    """The day's vote and how the game ends (the characters that change the ending follow: ``card.win``)."""
    texts = language.card
    back = [Block("heading", texts["vote"]), Block("text", texts["vote_nomination"])]
    if GUFO in deck.role_ids:
        back.append(Block("text", texts["vote_forced"]))
    back += [Block("text", texts["vote_ballot"]), Block("text", texts["vote_ties"]),
             Block("heading", texts["end"]), Block("text", texts["end_sides"])]
    return tuple(back)


# --- the game of many nights (narrator.core.nights): pure, the state and the entries in ----------

HUMANS, WOLVES = "umani", "lupi"  # this game's sides (game.yaml's sides)
ENDS = (HUMANS, WOLVES, "criceto-mannaro")  # who game_over() can name as winning: the Criceto alone
GUFO, MEDIUM, MITOMANE, GHOSTS = "gufo", "medium", "mitomane", "fantasmi"
MARKS = ("sword", "shield")  # La Minaccia Fantasma: the first ghost holds the sword, the second the shield
EFFECTS = {"sword": "plus", "shield": "minus"}  # what each is to the NominationRunoff: a vote more, a vote fewer

# The game record's keys (the digest's "Game record"): the turns' ids, and the ghosts' marks.
NIGHT_KEYS = {"medium": "told", "veggente": "player", GUFO: "player", "guardia-del-corpo": "player",
              "lupo-mannaro": "player", MITOMANE: "player", GHOSTS: "each"}
DAY_KEYS = {"marks": "each"}  # the marks laid face down the group saw turned up (a day's question, no moderator)
ANSWERS = {"veggente": ("wolf", "not-wolf"), "medium": ("wolf", "not-wolf")}
VOTE_KEYS = {"nomination": "nomination", "runoff": "ballot"}  # the day's rounds in a game record


# No ``calls``: every turn of the deck is called, its character alive or dead (silence would tell
# who died); no ``places``: nobody leaves home; no ``day_asks``: the lynching is the day's end.


def start(game: Game, state: State) -> State:
    """Nobody lynched yet, no suspect, no mark laid, nobody dead at nightfall."""
    return state.kept(lynched=[], suspect=None, marks={}, nightfall_dead=0)


def _ghosts_lay_marks(state):
    return bool(state.options.get("minaccia-fantasma")) and state.night >= 2


def ask(game: Game, state: State, turn: str, tonight: Mapping[str, Any]) -> Ask | None:
    """The Medium is told about yesterday's lynched; the others point at another living player;
    at the night's end the first two ghosts lay the sword and the shield (La Minaccia Fantasma)."""
    if turn == "dawn":
        holders = state.dead[:len(MARKS)]
        if not _ghosts_lay_marks(state) or not holders:
            return None
        return Ask(GHOSTS, "each", MARKS[:len(holders)], state.living, labels=holders)
    if turn not in NIGHT_KEYS:  # the Massoni only meet
        return None
    choosers = state.holders(game.slot(turn).roles)
    if not choosers:
        return None
    if turn == MEDIUM:
        lynched = state.own["lynched"]
        return Ask(turn, "told", choosers, about=lynched[-1]) if lynched else None
    if turn == "lupo-mannaro" and state.night == 1 and state.options.get("quiet-first-night"):
        return None  # the customary first night: they only meet
    return Ask(turn, "player", choosers, tuple(name for name in state.living if name not in choosers))


def answer(game: Game, state: State, ask: Ask, value: Any, tonight: Mapping[str, Any]) -> str | None:
    """The Veggente's and the Medium's yes or no: is that player a Lupo Mannaro?"""
    about = ask.about if ask.kind == "told" else value
    if ask.key not in ANSWERS or about is None:
        return None
    assert state.cards is not None  # the moderator's game: the cards are known
    return "wolf" if game.role(state.cards[about]).trait("wolf") else "not-wolf"


def dawn(game: Game, state: State, tonight: Mapping[str, Any]) -> Dawn:
    """Who dies at dawn, in the order they join the ghosts (the Gufo Letale's gufato, a Criceto
    seen, the night's victim last, so that it takes the Benvenuto), and why; the Mitomane's new
    role; the gufato and the marks for the day."""
    assert state.cards is not None  # the moderator's game: the cards are known
    cards = dict(state.cards)
    copied = tonight.get(MITOMANE)
    if copied is not None and game.role(cards[copied]).trait("copyable"):
        for chooser in state.holders(MITOMANE):
            cards[chooser] = cards[copied]
    living = {name: cards[name] for name in state.living}
    died, reasons = night_deaths(game, living, victim=tonight.get("lupo-mannaro"),
                                 protected=tonight.get("guardia-del-corpo"), seen=tonight.get("veggente"),
                                 gufato=tonight.get(GUFO), players=len(state.seating))
    after = replace(state, cards=state.cards if cards == dict(state.cards) else cards).died(died)
    alive = set(after.living)
    marks = {mark: name for mark, name in (tonight.get(GHOSTS) or {}).items() if name in alive}
    suspect = tonight.get(GUFO) if tonight.get(GUFO) in alive else None
    return Dawn(after.kept(marks=marks, suspect=suspect), died, reasons)


def night_deaths(game, cards, victim=None, protected=None, seen=None, gufato=None, players=0):
    """Who dies at dawn and why, from the living players' cards and the night's choices:
    ``victim`` the lupi's, ``protected`` the Guardia's, ``seen`` the Veggente's, ``gufato`` the
    Gufo's (from its ``kills_from`` players on, the gufato dies unless a Mannaro)."""
    def role(name):
        return game.role(cards[name])

    dead, reasons = [], []
    if seen is not None and role(seen).trait("dies_if_seen"):
        dead.append(seen)
        reasons.append(("seen", seen))
    if victim is not None:
        if victim == protected:
            reasons.append(("protected", victim))
        elif role(victim).trait("survives_wolves"):
            reasons.append(("survived", victim))
        elif victim not in dead:
            dead.append(victim)
            reasons.append(("eaten", victim))
    lethal = [role.trait("kills_from") for role in game.roles if role.trait("kills_from") is not None]
    if (gufato is not None and lethal and players >= min(lethal) and not role(gufato).trait("mannaro")
            and gufato not in dead):
        dead.insert(0, gufato)  # at the start of the day, after the night's own deaths are known
        reasons.append(("owl", gufato))
    if victim in dead:  # the night's victim joins the ghosts last: it takes the Benvenuto
        dead.remove(victim)
        dead.append(victim)
    return tuple(dead), tuple(reasons)


@dataclass(frozen=True)
class NominationRunoff(Vote):
    """The nomination, in which everyone votes, the dead too, from the seat after the anchor's, then
    a runoff between the two most voted, in which the living who are not suspects vote; ties go to
    the seat closest to the anchor, a player may be a suspect whatever the votes, and two marks change
    votes and ties (above). Somebody is always lynched."""

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

    def run(self, state):
        order = self.voting_order()
        intro = (said("round_nomination", first=order[0]),
                 *((said("round_forced", name=self.forced),) if self.forced in self.living else ()),
                 *(said("round_mark", name=name, mark=said(f"mark_{mark}"))
                   for mark, name in (("plus", self.plus), ("minus", self.minus)) if name is not None))
        nomination = yield from votes_round(self, state, "nomination", order, self.living, intro=intro)
        vote = DayVote(self.seating, self.dead, self.anchor, MappingProxyType(nomination), MappingProxyType({}),
                       forced=self.forced, plus=self.plus, minus=self.minus)
        turned_up_before = tuple(name for name in self.living if name in marked_if_voted(vote))
        if self.face_down and turned_up_before:  # what was turned up, only the group saw
            marks = tuple(mark for mark, _holder in self.face_down)
            entry = yield QuestionStep(state, self, "marks", Ask(
                "marks", "each", marks, turned_up_before, labels=tuple(holder for _mark, holder in self.face_down)),
                (said("reveal_marks"),))
            turned_up = {mark: name for mark, name in (entry["choice"] or {}).items() if name is not None}
            vote = replace(vote, plus=turned_up.get("plus"), minus=turned_up.get("minus"))
        _counted, suspects, _steps = nominate(vote)
        runoff = yield from votes_round(self, state, "runoff",
                                        [voter for voter in order if voter in self.living and voter not in suspects],
                                        suspects, suspects, intro=(said("suspects", names=suspects),
                                                                   said("round_runoff")))
        vote = replace(vote, runoff=MappingProxyType(runoff))
        outcome: DayOutcome = settle_day(vote)
        return Verdict(outcome.lynched, MappingProxyType({"nomination": vote.nomination, "runoff": vote.runoff}),
                       MappingProxyType({"nomination": outcome.nomination, "runoff": outcome.runoff}),
                       outcome=(vote, outcome))


def day(game: Game, state: State) -> NominationRunoff:
    """The nomination and the ballottaggio: ties to the Benvenuto (the newest ghost), the gufato a
    suspect, the marks laid before the living (face down, to be turned up, without a moderator)."""
    marks = state.own["marks"]
    face_down = ()
    if state.cards is None and _ghosts_lay_marks(state):  # laid at the night's end by the ghosts of then
        holders = state.dead[:min(len(MARKS), state.own["nightfall_dead"])]
        face_down = tuple((EFFECTS[mark], holder) for mark, holder in zip(MARKS, holders, strict=False))
    return NominationRunoff(state.seating, frozenset(state.dead), state.dead[-1] if state.dead else None,
                        forced=state.own["suspect"], plus=marks.get("sword"), minus=marks.get("shield"),
                        face_down=face_down)


def dusk(game: Game, state: State, lynched: str | None, acts: Mapping[str, Any]) -> Dusk:
    """The lynched player joins the ghosts and takes the Benvenuto; the day's gufato and marks are spent."""
    assert lynched is not None  # somebody is always lynched (NominationRunoff.may_spare)
    after = state.died([lynched])
    return Dusk(after.kept(lynched=[*state.own["lynched"], lynched], suspect=None, marks={},
                           nightfall_dead=len(after.dead)), (lynched,))


def announce(game: Game, result: Dawn | Dusk, say: Sentences) -> Sequence[str]:
    """At dawn the dead by name, then who takes the Benvenuto; after a lynching, who takes it."""
    if not result.dead:  # a dawn with nobody dead: the loop says so, and the Benvenuto stays where it is
        return []
    lines = [say("dawn_dead", names=say.join(list(result.dead)))] if isinstance(result, Dawn) else []
    return [*lines, say("anchor", name=result.dead[-1])]


def notes(game: Game, state: State, say: Sentences) -> Sequence[str]:
    """What the moderator keeps in mind from dawn to the lynching: the gufato, a suspect whatever
    the votes, and the living players the sword and the shield lie before (La Minaccia Fantasma).
    The list of the lynched (the Medium's answer is told by the narrator) and the count of the dead
    at nightfall (for the marks laid face down without a moderator) are bookkeeping, left out."""
    suspect, marks = state.own["suspect"], state.own["marks"]
    lines = [say("note_gufato", name=suspect)] if suspect else []
    lines += [say("note_sword", name=marks["sword"])] if marks.get("sword") else []
    return lines + ([say("note_shield", name=marks["shield"])] if marks.get("shield") else [])


def explain_day(game: Game, procedure: Procedure, verdict: Verdict, say: Sentences) -> Sequence[str]:
    if verdict.given:
        return [say("lynched", name=verdict.lynched)]
    vote, outcome = verdict.outcome
    return explain_votes(game, vote, outcome, say)


def game_over(game: Game, state: State) -> tuple[Sequence[str], Sequence[str]] | None:
    """None while the game goes on; else the winning sides (or the role that wins alone) and the
    winners, in seating order (every player, dead ones too: the whole side wins)."""
    cards = state.cards
    assert cards is not None  # the moderator's game: the cards are known
    living = state.living
    wolves = [name for name in living if game.role(cards[name]).trait("wolf")]
    humans = [name for name in living if not game.role(cards[name]).trait("wolf")]
    if wolves and len(wolves) < len(humans):
        return None
    side = HUMANS if not wolves else WOLVES
    alone = [name for name in living if game.role(cards[name]).trait("wins_alone_alive")]
    if alone:
        return (cards[alone[0]],), tuple(alone)
    return (side,), tuple(name for name in state.seating if game.role(cards[name]).side == side)
