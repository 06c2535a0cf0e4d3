"""Mafia minima: a game that exists only in the tests, to prove that a game of many nights is a
folder. Two roles (the mafiosi and the citizens), one turn a night (the mafia points at a chair),
and a day of its own: an accusation that must be seconded, then a yes/no vote on the accused,
lynched by a strict majority of the living; an acquittal lets a second accusation follow. Its
rules need nothing outside this folder: a kind of entry of its own (a player by name or by seat)
and a day procedure of its own, written with the blocks of ``narrator.core``.

A game record: ``night: {mafioso: 3}`` (the third seat, or the name); ``day: {first: 1, accusation-1:
{Anna: null, Bruno: Carla}, second-1: {Dario: Carla}, trial-1: {Anna: Carla, ...}}`` (a yes is the
accused's name, a no is null), then ``testament`` and ``accepted`` when a lynched player names an
heir.
"""

from collections.abc import Generator, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from narrator.core.card import Block
from narrator.core.game import Game, Language
from narrator.core.i18n import Text, msg
from narrator.core.kinds import Kind, RecordWords, Words, name_of
from narrator.core.procedures import QuestionStep, Verdict, Vote, VoteStep, said
from narrator.core.state import Ask, Dawn, Dusk, State
from narrator.core.vote import Sentences

MAFIA, TOWN = "mafia", "citta"
MAFIOSO = "mafioso"
TRIALS = 2  # accusations a day, at most

ENDS = (TOWN, MAFIA)
NIGHT_KEYS = {MAFIOSO: "seat"}
DAY_KEYS = {"first": "seat", "testament": "player", "accepted": "yes-no"}
VOTE_KEYS: dict[str, str] = {}  # a record names each round as the procedure does
END_AFTER = ("dawn", "day")
SENTENCES = ("reason_shot", "reason_lynched", "dawn_dead", "round_accusation", "who_accuses", "round_second",
             "who_seconds", "round_trial", "who_votes", "trial", "acquitted", "unseconded", "lynched", "spared", "ask_first", "ask_testament",
             "ask_accepted", "note_heir")
CARD_TEXTS = ("vote", "vote_text")


class Seat(Kind):
    """A player as the moderator sees the table: by name, or by seat (1 is the moderator's left).
    The seating rides in the ask's ``choices``; the players who may be chosen in its ``candidates``."""

    name, names = "seat", True

    def check(self, ask: Ask, value: Any) -> Text | None:
        if value not in ask.candidates:
            return msg("{key} {where}'{name}' is not one of {names}", key=ask.key, where="", name=value,
                       names=", ".join(ask.candidates) or "-")
        return None

    def parse(self, ask: Ask, value: Any, words: RecordWords) -> Any:
        seat = name_of(value)
        if seat is not None and seat.isdigit() and 1 <= int(seat) <= len(ask.choices):
            return ask.choices[int(seat) - 1]
        return seat or value

    def form(self, ask: Ask, question: str, words: Words) -> dict:
        return {"kind": "one", "question": question, "none": not ask.required,
                "options": [{"label": f"{ask.choices.index(name) + 1} · {name}", "value": name}
                            for name in ask.candidates]}


ENTRY_KINDS = {"seat": Seat()}


@dataclass(frozen=True)
class Trial(Vote):
    """The group says who speaks first (a question of the game's own kind, by seat); then up to
    ``TRIALS`` accusations, clockwise from that player: each living player in turn may accuse another (the first who
    does ends the round); the others in turn may second it; a seconded accusation is voted yes (the
    accused's name) or no (nobody) by every living player, the accused too. A strict majority of
    the living lynches; otherwise the accused is acquitted and may not be accused again today."""

    voters: tuple[str, ...]
    candidates: tuple[str, ...]
    rounds: ClassVar[tuple[str, ...]] = tuple(f"{part}-{number}" for number in range(1, TRIALS + 1)
                                              for part in ("accusation", "second", "trial"))

    def run(self, state: State) -> Generator[VoteStep | QuestionStep, dict, Verdict]:
        votes: dict[str, dict[str, str]] = {}
        tallies: dict[str, dict[str, int]] = {}
        acquitted: list[str] = []
        happened: list[tuple[Any, ...]] = []  # what each accusation came to, for explain_day
        opener = yield QuestionStep(state, self, "first", Ask("first", "seat", candidates=self.voters,
                                                              choices=state.seating, required=True))
        start = self.voters.index(opener["choice"])
        voters = self.voters[start:] + self.voters[:start]  # from the one chosen to speak first, clockwise
        for number in range(1, TRIALS + 1):
            accused = accuser = None
            accusations: dict[str, str | None] = {}
            for voter in voters:
                allowed = tuple(name for name in self.candidates if name != voter and name not in acquitted)
                entry = yield VoteStep(state, self, f"accusation-{number}", voter, allowed, may_pass=True,
                                       intro=() if accusations or voter != voters[0] else
                                       (said("round_accusation", number=number),),
                                       question=said("who_accuses", voter=voter))
                accusations[voter] = entry["voted"]
                if entry["voted"] is not None:
                    accused, accuser = entry["voted"], voter
                    break
            votes[f"accusation-{number}"] = {voter: name for voter, name in accusations.items() if name}
            if accused is None:
                break
            seconders = [voter for voter in voters if voter not in (accuser, accused)]
            seconded = None
            for index, voter in enumerate(seconders):
                entry = yield VoteStep(state, self, f"second-{number}", voter, (accused,), may_pass=True,
                                       intro=(said("round_second", accused=accused, accuser=accuser),) if not index
                                       else (), question=said("who_seconds", voter=voter, accused=accused))
                if entry["voted"] is not None:
                    seconded = voter
                    break
            votes[f"second-{number}"] = {seconded: accused} if seconded else {}
            if seconded is None:
                happened.append(("unseconded", accused))
                continue
            ballots = {}
            for index, voter in enumerate(voters):
                entry = yield VoteStep(state, self, f"trial-{number}", voter, (accused,), may_pass=True,
                                       intro=(said("round_trial", accused=accused),) if not index else (),
                                       question=said("who_votes", voter=voter, accused=accused))
                if entry["voted"] is not None:
                    ballots[voter] = accused
            votes[f"trial-{number}"] = ballots
            tallies[f"trial-{number}"] = {accused: len(ballots)}
            happened.append(("trial", accused, len(ballots), len(self.voters)))
            if 2 * len(ballots) > len(self.voters):
                return Verdict(accused, votes, tallies, outcome=tuple(happened))
            acquitted.append(accused)
        return Verdict(None, votes, tallies, outcome=tuple(happened))


def ask(state: State, turn: str) -> Ask | None:
    """The mafia points at a chair: any living player who is not a mafioso."""
    mafiosi = state.holders(MAFIOSO)
    if turn != MAFIOSO or not mafiosi:
        return None
    return Ask(MAFIOSO, "seat", mafiosi, tuple(name for name in state.living if name not in mafiosi),
               choices=state.seating, required=True)


def dawn(state: State, tonight: Mapping[str, Any]) -> Dawn:
    victim = tonight.get(MAFIOSO)
    if victim is None:
        return Dawn(state)
    return Dawn(state.died([victim]), (victim,), (("shot", victim),))


def day(state: State) -> Trial:
    return Trial(state.living, state.living)


def day_asks(state: State, lynched: str | None, acts: Mapping[str, Any]) -> tuple[Ask, ...]:
    """The lynched may name an heir among the living; only then is the heir asked whether he accepts."""
    if lynched is None:
        return ()
    asks = [Ask("testament", "player", (lynched,), tuple(name for name in state.living if name != lynched))]
    if "testament" in acts:
        asks.append(Ask("accepted", "yes-no", (acts["testament"],), required=True))
    return tuple(asks)


def dusk(state: State, lynched: str | None, acts: Mapping[str, Any]) -> Dusk:
    if lynched is None:
        return Dusk(state)
    heir = acts.get("testament") if acts.get("accepted") else None
    return Dusk(state.died([lynched]).kept(heir=heir), (lynched,), (("lynched", lynched),))


def notes(state: State, say: Sentences) -> list[str]:
    heir = state.own.get("heir")
    return [say("note_heir", name=heir)] if heir and heir in state.living else []


def game_over(game: Game, state: State) -> tuple[tuple[str, ...], tuple[str, ...]] | None:
    """The town wins when no mafioso lives; the mafia when the mafiosi alive are at least as many as the others."""
    mafiosi = state.holders(MAFIOSO)
    if mafiosi and 2 * len(mafiosi) < len(state.living):
        return None
    side = MAFIA if mafiosi else TOWN
    cards = state.cards or {}  # a moderated game: the cards are known
    return (side,), tuple(name for name in state.seating if game.role(cards[name]).side == side)


def announce(result: Dawn | Dusk, say: Sentences) -> list[str]:
    return [say("dawn_dead", names=say.join(list(result.dead)))] if isinstance(result, Dawn) and result.dead else []


def explain_day(verdict: Verdict, say: Sentences) -> list[str]:
    """Each trial's count, then who is lynched or that nobody is."""
    lines = []
    for happened in verdict.outcome or ():
        if happened[0] == "trial":
            lines.append(say("trial", name=happened[1], yes=happened[2], voters=happened[3]))
            if happened[1] != verdict.lynched:
                lines.append(say("acquitted", name=happened[1]))
        else:
            lines.append(say("unseconded", name=happened[1]))
    lines.append(say("lynched", name=verdict.lynched) if verdict.lynched is not None else say("spared"))
    return lines


def card_back(language: Language) -> tuple[Block, ...]:
    return (Block("heading", language.card["vote"]), Block("text", language.card["vote_text"]))
