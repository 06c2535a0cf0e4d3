"""A game of many nights, kept as the list of what was entered: each turn of each night, the dawn,
the day, every vote.

The state is never stored, only the entries. ``Rounds`` replays them through ``_flow``, the game's
course written out as the rulebook tells it (the night's turns, the dawn, the day, the nomination,
the runoff, the lynching, until a side wins), and stops at the next ``Step``: what the game needs
now. A saved game is its setup and its entries, so it resumes exactly where it was, and the last
entry is undone by replaying the others.

Generic: no role or side is named here. The game's data says what a moderator enters in each turn
(``Ask``: who the character points at, the yes or no shown to nod, a role taken, a suspect named)
and which marks the dead lay (``Marks``); its rules module says who dies at dawn (``dawn``) and
when the game is over (``game_over``). Without a moderator nobody at the laptop knows the cards:
the group says who died, which of the ghosts' marks were turned up at the vote, and when a side
has won.
"""

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any, ClassVar

from narrator.core.deck import check_deck, make_deck
from narrator.core.errors import NarratorError
from narrator.core.game import Ask, Game
from narrator.core.i18n import msg
from narrator.core.names import repeated
from narrator.core.runoff import DayOutcome, DayVote, marked_if_voted, nominate, settle_day
from narrator.core.script import INTRO_PHASE, OUTRO_PHASE


class RoundsError(NarratorError):
    """An entry the game cannot take where it is (a saved game edited by hand, a wrong name)."""


@dataclass(frozen=True)
class Setup:
    """What a game of many nights starts from; with its entries, all that is saved."""

    seating: tuple[str, ...]  # clockwise, from the moderator's left (without one, from anyone)
    deck: Mapping[str, int]  # the deck's cards (role id: copies): what the nights call
    options: Mapping[str, bool]  # the game's options, as chosen
    cards: Mapping[str, str] | None = None  # who holds which card; None when nobody at the laptop knows

    @property
    def role_ids(self) -> frozenset[str]:
        return frozenset(self.deck)


@dataclass(frozen=True)
class Table:
    """The game as it stands: who is dead (in the order they died), the cards as they are now."""

    night: int
    seating: tuple[str, ...]
    dead: tuple[str, ...] = ()
    cards: Mapping[str, str] | None = None
    lynched: tuple[str, ...] = ()  # each day's lynched player, in order
    marks: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))  # mark: player it lies before
    suspect: str | None = None  # named by a character at night: a suspect at the day's vote

    @property
    def living(self) -> tuple[str, ...]:
        return tuple(name for name in self.seating if name not in self.dead)

    @property
    def anchor(self) -> str | None:
        """The newest of the dead holds the card ties are counted to; before anyone dies, nobody
        at the table does (the moderator keeps it, beside the seating's last and first)."""
        return self.dead[-1] if self.dead else None

    def voting_order(self) -> tuple[str, ...]:
        """Everyone, clockwise from the seat after the anchor's (the anchor votes last); before
        anyone dies, the seating from its first (the moderator's left)."""
        start = 0 if self.anchor is None else (self.seating.index(self.anchor) + 1) % len(self.seating)
        return self.seating[start:] + self.seating[:start]


# --- the steps: what the game needs next --------------------------------------------------------

@dataclass(frozen=True)
class RoundStep:
    """What every step has: the table as it stands, and a key that names the step within the game."""

    table: Table
    kind: ClassVar[str] = ""  # also the kind of the entry that answers it

    @property
    def key(self) -> str:
        return "/".join((str(self.table.night), self.kind, *self._detail()))

    def _detail(self) -> tuple[str, ...]:
        return ()


@dataclass(frozen=True)
class NightStep(RoundStep):
    """No moderator: the whole night is heard, then the game goes on."""

    kind: ClassVar[str] = "night"


@dataclass(frozen=True)
class PhaseStep(RoundStep):
    """A moderator's night, one part at a time: the night's start, each turn, the night's end.

    ``ask`` is set when the moderator enters something (a living character acts): the choice among
    ``candidates`` (or nobody), with the yes or no of ``ask.answer`` shown after it; ``about`` and
    ``answer`` when the answer is about a player already known (yesterday's lynched). ``marks``: the
    marks the dead lay at the night's end, each with its holder."""

    phase: str = INTRO_PHASE  # INTRO_PHASE, a turn's id, or OUTRO_PHASE
    ask: Ask | None = None
    choosers: tuple[str, ...] = ()
    candidates: tuple[str, ...] = ()
    about: str | None = None
    answer: bool | None = None
    marks: tuple[tuple[str, str], ...] = ()
    nobody_alive: bool = False  # the turn's character is dead: it is called, and passes in silence
    kind: ClassVar[str] = "phase"

    def _detail(self) -> tuple[str, ...]:
        return (self.phase,)


@dataclass(frozen=True)
class DawnStep(RoundStep):
    """Who died in the night: known (``dead`` and why, from the game's rules), or asked (``dead``
    is None: the group says who found their card turned)."""

    dead: tuple[str, ...] | None = None
    reasons: tuple[tuple[str, str], ...] = ()
    kind: ClassVar[str] = "dawn"


@dataclass(frozen=True)
class EndQuestion(RoundStep):
    """No moderator: has a side won? (The group knows its cards; the laptop does not.)"""

    must_end: bool = False  # too few are alive to vote: a side has won
    winners: tuple[str, ...] = ()  # who the group may name: ``possible_winners``
    kind: ClassVar[str] = "end"

    def _detail(self) -> tuple[str, ...]:
        return (str(len(self.table.dead)),)


@dataclass(frozen=True)
class DayStep(RoundStep):
    kind: ClassVar[str] = "day"


@dataclass(frozen=True)
class VoteStep(RoundStep):
    """One player's vote: in the nomination (everyone, the dead too) or the runoff."""

    round: str = "nomination"  # or "runoff"
    voter: str = ""
    candidates: tuple[str, ...] = ()
    votes: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))  # this round's votes so far
    suspects: tuple[str, ...] = ()  # in the runoff: the two
    kind: ClassVar[str] = "vote"

    def _detail(self) -> tuple[str, ...]:
        return (self.round, self.voter)


@dataclass(frozen=True)
class RevealStep(RoundStep):
    """No moderator: the ghosts laid their marks face down at the night's end, and a mark is turned
    up when a living player votes for the player it lies before. After the nomination the group
    says, for each mark laid (with the ghost who laid it), the player it was turned up before: one
    of ``candidates``, the players a living player voted for, or nobody."""

    marks: tuple[tuple[str, str], ...] = ()
    candidates: tuple[str, ...] = ()
    kind: ClassVar[str] = "marks"


@dataclass(frozen=True)
class LynchStep(RoundStep):
    vote: DayVote | None = None
    outcome: DayOutcome | None = None
    kind: ClassVar[str] = "lynch"


@dataclass(frozen=True)
class Over(RoundStep):
    """The end: the winning sides (or the one role that wins alone) and the winners; None for
    both when the group said a side won without naming the winners."""

    sides: tuple[str, ...] = ()
    winners: tuple[str, ...] | None = None
    kind: ClassVar[str] = "over"


Step = NightStep | PhaseStep | DawnStep | EndQuestion | DayStep | VoteStep | RevealStep | LynchStep | Over


# --- entries: what was entered at each step ------------------------------------------------------

def entry_for(step: Step, **given: Any) -> dict:
    """The entry that answers ``step`` (a plain dict, as saved): ``choice`` and ``marks`` for a
    phase, ``dead`` for an asked dawn, ``winner`` for the end question, ``voted`` for a vote,
    ``marks`` for the marks turned up."""
    entry: dict[str, Any] = {"kind": step.kind, "night": step.table.night}
    if isinstance(step, PhaseStep):
        entry["phase"] = step.phase
        if step.ask is not None and step.ask.choose is not None:
            entry["choice"] = given.get("choice")
        if step.marks:
            entry["marks"] = dict(given.get("marks") or {})
    elif isinstance(step, DawnStep) and step.dead is None:
        entry["dead"] = list(given.get("dead") or [])
    elif isinstance(step, EndQuestion):
        entry["winner"] = given.get("winner")
    elif isinstance(step, VoteStep):
        entry.update({"round": step.round, "voter": step.voter, "voted": given["voted"]})
    elif isinstance(step, RevealStep):
        entry["marks"] = dict(given.get("marks") or {})
    return entry


ANSWERS = frozenset({"choice", "marks", "dead", "winner", "voted"})  # what an entry holds when someone answered


class Rounds:
    """A game of many nights: its setup, its entries, and the step it has come to."""

    def __init__(self, game: Game, setup: Setup, entries: list[dict] | tuple[dict, ...] = ()):
        check_setup(game, setup)
        self.game, self.setup = game, setup
        self.entries: list[dict] = []
        self._flow = _flow(game, setup)
        self.step: Step = next(self._flow)
        for index, entry in enumerate(entries, start=1):
            self._take(entry, index)

    def enter(self, entry: dict) -> Step:
        """Take the entry for the current step (refused, and nothing changed, if it does not fit)."""
        self._take(entry, len(self.entries) + 1)
        return self.step

    def undo(self) -> Step:
        """Leave out the last answer given (and the steps that followed it by themselves: a part
        of the night spoken, the day): the game is where it was when that answer was asked for."""
        answered = [index for index, entry in enumerate(self.entries) if ANSWERS & set(entry)]
        if not answered:
            raise RoundsError(msg("nothing to undo: no answer has been given yet"))
        replayed = Rounds(self.game, self.setup, self.entries[:answered[-1]])
        self.entries, self._flow, self.step = replayed.entries, replayed._flow, replayed.step
        return self.step

    def _take(self, entry: dict, index: int) -> None:
        if isinstance(self.step, Over):
            raise RoundsError(msg("entry {number}: the game is over; nothing more can be entered", number=index))
        if not isinstance(entry, dict) or not isinstance(entry.get("marks", {}), dict):
            raise RoundsError(msg("entry {number}: not an entry of a game", number=index))
        expected = entry_for(self.step, **{key: entry.get(key) for key in ("choice", "marks", "dead", "winner")},
                             voted=entry.get("voted"))
        if {key: entry.get(key) for key in expected} != expected or set(entry) != set(expected):
            raise RoundsError(msg("entry {number}: the game expects {expected} here, not {entry}", number=index,
                                  expected=_shape(expected), entry=_shape(entry)))
        _check(self.game, self.step, entry, index)
        self.entries.append(entry)
        self.step = self._flow.send(entry)


def _shape(entry: dict) -> str:
    """An entry as an error shows it: where it stands in the game, and which answers it holds."""
    return ", ".join(f"{key}={value}" if key in ("kind", "night", "phase", "round", "voter") else str(key)
                     for key, value in entry.items())


def _check(game: Game, step: Step, entry: dict, index: int) -> None:
    """The names an entry gives are the ones the step allows."""
    def allowed(name, choices, what):
        if name is not None and name not in choices:
            raise RoundsError(msg("entry {number}: {what} '{name}' is not one of {names}", number=index, what=what,
                                  name=name, names=", ".join(choices) or "-"))

    def marks(placed):
        for mark, _holder in step.marks:
            allowed(entry["marks"].get(mark), placed, mark)
        unknown = sorted(set(entry.get("marks", {})) - {mark for mark, _holder in step.marks})
        if unknown:
            raise RoundsError(msg("entry {number}: no mark '{mark}' tonight", number=index, mark=unknown[0]))

    if isinstance(step, PhaseStep):
        allowed(entry.get("choice"), step.candidates, "choice")
        marks(step.table.living)
    elif isinstance(step, RevealStep):
        marks(step.candidates)
    elif isinstance(step, DawnStep) and step.dead is None:
        dead = entry["dead"]
        if not isinstance(dead, list) or len(set(dead)) != len(dead):
            raise RoundsError(msg("entry {number}: the dead are a list of different names", number=index))
        for name in dead:
            allowed(name, step.table.living, "dead")
    elif isinstance(step, EndQuestion):
        allowed(entry["winner"], step.winners, "winner")
        if step.must_end and entry["winner"] is None:
            raise RoundsError(msg("entry {number}: too few are alive to vote: name the side that won", number=index))
    elif isinstance(step, VoteStep):
        if entry["voted"] is None:
            raise RoundsError(msg("entry {number}: {voter} has not voted", number=index, voter=step.voter))
        allowed(entry["voted"], step.candidates, "vote")


# --- the course of the game ---------------------------------------------------------------------

def check_setup(game: Game, setup: Setup) -> None:
    """A setup the game can start from: the deck's own checks (``check_deck``), then the seating,
    the variant's players and the cards held."""
    if not game.many_nights:
        raise RoundsError(msg("{game} plays a single night: it has no rounds", game=game.title))
    unknown = sorted(set(setup.role_ids) - set(game.role_ids))
    if unknown:
        raise RoundsError(msg("no role '{role}' in {game}", role=unknown[0], game=game.title))
    check_deck(game, make_deck(game, setup.deck), len(setup.seating))
    if repeated(list(setup.seating)) is not None:
        raise RoundsError(msg("the seating lists each player once"))
    for option, players in game.option_players.items():
        if setup.options.get(option) and len(setup.seating) != players:
            raise RoundsError(msg("{option} is played by {players} players, not {count}: add --players {players}",
                                  option=option, players=players, count=len(setup.seating)))
    if (setup.cards is not None) != game.moderated(setup.role_ids, setup.options):
        raise RoundsError(msg("the cards are known with a moderator, and only then"))
    if setup.cards is not None:
        if set(setup.cards) != set(setup.seating):
            raise RoundsError(msg("every player seated holds one card, and only they do"))
        held = {role_id: list(setup.cards.values()).count(role_id) for role_id in set(setup.cards.values())}
        if any(setup.deck.get(role_id, 0) < copies for role_id, copies in held.items()):
            raise RoundsError(msg("the cards held are not the deck's"))


def possible_winners(game: Game, setup: Setup) -> tuple[str, ...]:
    """Who can win this game (the rules' ``ENDS``: a side, or a role that wins alone) with this deck."""
    sides = {game.role(role_id).side for role_id in setup.role_ids}
    return tuple(end for end in game.rules.ENDS if end in sides or end in setup.role_ids)


def _flow(game: Game, setup: Setup) -> Iterator[Step]:
    """The game from its first night to its end; each ``yield`` hands out a step and takes its entry."""
    seating = setup.seating
    dead: list[str] = []
    lynched: list[str] = []
    cards = dict(setup.cards) if setup.cards is not None else None
    night = 1

    def table(marks=None, suspect=None) -> Table:
        return Table(night, seating, tuple(dead), None if cards is None else MappingProxyType(dict(cards)),
                     tuple(lynched), MappingProxyType(dict(marks or {})), suspect)

    def ended() -> Iterator[Step]:
        """After deaths: the end if it has come (asked when the cards are not known)."""
        if cards is None:
            answer = yield EndQuestion(table(), len(table().living) < 3, possible_winners(game, setup))
            return None if answer["winner"] is None else ((answer["winner"],), None)
        result = game.rules.game_over(game, cards, set(table().living))
        return None if result is None else (tuple(result[0]), tuple(result[1]))

    while True:
        choices: dict[str, str] = {}
        marks: dict[str, str] = {}
        suspect = None
        laid = _laid_marks(game, setup, table())  # at the night's end, by the dead before its dawn
        if cards is None:
            yield NightStep(table())
        else:
            for phase in (INTRO_PHASE, *(slot.id for slot in game.called_slots(setup.role_ids, setup.options, night)),
                          OUTRO_PHASE):
                step = _phase(game, setup, table(), phase, cards)
                entry = yield step
                if step.ask is not None and step.ask.choose is not None and entry.get("choice") is not None:
                    target = entry["choice"]
                    choices[step.ask.choose] = target
                    if step.ask.suspect:
                        suspect = target
                    trait = step.ask.takes_role_if
                    if trait is not None and game.role(cards[target]).trait(trait):
                        for chooser in step.choosers:
                            cards[chooser] = cards[target]
                marks.update({mark: name for mark, name in entry.get("marks", {}).items() if name is not None})
        if cards is None:
            entry = yield DawnStep(table(), None)
            died = tuple(entry["dead"])
        else:
            living_cards = {name: cards[name] for name in table().living}
            died, reasons = game.rules.dawn(game, living_cards, players=len(seating), **choices)
            yield DawnStep(table(), tuple(died), tuple(reasons))
        dead.extend(died)
        if (died or cards is not None) and (over := (yield from ended())):  # a role taken may end it too
            yield Over(table(), *over)
            return
        living = set(table().living)
        marks = {mark: name for mark, name in marks.items() if name in living}
        suspect = suspect if suspect in living else None
        today = table(marks, suspect)
        yield DayStep(today)
        nomination: dict[str, str] = {}
        for voter in today.voting_order():
            entry = yield VoteStep(today, "nomination", voter, today.living, MappingProxyType(dict(nomination)))
            nomination[voter] = entry["voted"]
        vote = DayVote(seating, frozenset(dead), today.anchor, MappingProxyType(nomination), MappingProxyType({}),
                       forced=suspect, sword=marks.get("sword"), shield=marks.get("shield"))
        counted = marked_if_voted(vote)
        turned_up_before = tuple(name for name in today.living if name in counted)
        if cards is None and laid and turned_up_before:  # what was turned up, only the group saw
            entry = yield RevealStep(today, laid, turned_up_before)
            turned_up = {mark: name for mark, name in entry["marks"].items() if name is not None}
            vote = replace(vote, sword=turned_up.get("sword"), shield=turned_up.get("shield"))
        _counted, suspects, _steps = nominate(vote)
        runoff: dict[str, str] = {}
        for voter in today.voting_order():
            if voter in living and voter not in suspects:
                entry = yield VoteStep(today, "runoff", voter, suspects, MappingProxyType(dict(runoff)), suspects)
                runoff[voter] = entry["voted"]
        vote = replace(vote, runoff=MappingProxyType(runoff))
        outcome = settle_day(vote)
        yield LynchStep(today, vote, outcome)
        dead.append(outcome.lynched)
        lynched.append(outcome.lynched)
        if over := (yield from ended()):
            yield Over(table(), *over)
            return
        night += 1


def _phase(game: Game, setup: Setup, table: Table, phase: str, cards: Mapping[str, str]) -> PhaseStep:
    """A part of a moderator's night, with what the moderator enters in it (if anything)."""
    living = table.living
    if phase == OUTRO_PHASE:
        return PhaseStep(table, phase, marks=_laid_marks(game, setup, table))
    if phase == INTRO_PHASE:
        return PhaseStep(table, phase)
    slot = game.slot(phase)
    ask = slot.ask
    if ask is None or (ask.when is not None and not ask.when.holds(setup.role_ids, setup.options, table.night)):
        return PhaseStep(table, phase)
    choosers = tuple(name for name in living if cards[name] in slot.roles)
    if not choosers:  # the character is dead: its turn is called, and passes in silence
        return PhaseStep(table, phase, nobody_alive=True)
    if ask.about is not None:
        if not table.lynched:
            return PhaseStep(table, phase)
        about = table.lynched[-1]
        return PhaseStep(table, phase, ask, choosers, (), about, bool(game.role(cards[about]).trait(ask.answer)))
    candidates = tuple(name for name in living if not (ask.not_self and name in choosers))
    return PhaseStep(table, phase, ask, choosers, candidates)


def _laid_marks(game: Game, setup: Setup, table: Table) -> tuple[tuple[str, str], ...]:
    """The marks the dead lay at the end of this night, each with its holder: the first to die
    holds the first mark, and so on (none before the game's marks begin)."""
    marks = game.marks
    if marks is None or (marks.when is not None and not marks.when.holds(setup.role_ids, setup.options, table.night)):
        return ()
    return tuple((mark, table.dead[index]) for index, mark in enumerate(marks.names) if index < len(table.dead))


def answer_for(game: Game, step: PhaseStep, choice: str | None) -> bool | None:
    """The yes or no the moderator nods for ``choice`` in a turn that answers (None when it does not)."""
    if step.ask is None or step.ask.answer is None:
        return None
    if step.about is not None:
        return step.answer
    if choice is None:
        return None
    return bool(game.role(step.table.cards[choice]).trait(step.ask.answer))


# --- saving ---------------------------------------------------------------------------------------

def setup_as_dict(setup: Setup) -> dict:
    return {"seating": list(setup.seating), "deck": dict(setup.deck), "options": dict(setup.options),
            "cards": None if setup.cards is None else dict(setup.cards)}


def setup_from_dict(data: object) -> Setup:
    """A setup as saved; RoundsError when it is not one."""
    def fail():
        return RoundsError(msg("not the setup of a saved game (seating, deck, options, cards)"))

    if not isinstance(data, dict) or set(data) != {"seating", "deck", "options", "cards"}:
        raise fail()
    seating, deck, options, cards = data["seating"], data["deck"], data["options"], data["cards"]
    if not (isinstance(seating, list) and all(isinstance(name, str) for name in seating)
            and isinstance(deck, dict) and all(isinstance(copies, int) and copies > 0 for copies in deck.values())
            and isinstance(options, dict) and all(isinstance(value, bool) for value in options.values())
            and (cards is None or (isinstance(cards, dict) and all(isinstance(v, str) for v in cards.values())))):
        raise fail()
    return Setup(tuple(seating), MappingProxyType(dict(deck)), MappingProxyType(dict(options)),
                 None if cards is None else MappingProxyType(dict(cards)))
