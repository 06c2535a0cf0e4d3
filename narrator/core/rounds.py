"""A game of many nights, kept as the list of what was entered: each turn of each night, the dawn,
the day, every vote.

The state is never stored, only the entries. ``Rounds`` replays them through ``_flow``, the course
every game of many nights shares (the night's turns, the dawn, the day and its vote, until a side
wins), and stops at the next ``Step``: what the game needs now. A saved game is its setup and its
entries, so it resumes exactly where it was, and the last entry is undone by replaying the others.

Generic: no role, side, turn or mark is named here. The game's ``rules.py`` (the contract in
``narrator.core.nights``) owns its state and says, given it, which turns are called tonight and what
the moderator enters in each (``Ask``), what the night comes to (``Dawn``), which procedure settles
the day (``narrator.core.procedures``) and what the day's actions are, what the day comes to
(``Dusk``), and whether the game is over. Without a moderator nobody at the laptop knows the cards:
the night is heard whole and the group says who died and when a side has won.
"""

from collections.abc import Generator, Iterator, Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any, ClassVar, TypeVar

from narrator.core.deck import check_deck, make_deck
from narrator.core.errors import NarratorError
from narrator.core.game import Game, WakeSlot
from narrator.core.i18n import msg
from narrator.core.names import repeated
from narrator.core.nights import PLAYER_ANSWER
from narrator.core.procedures import HandsStep, Procedure, QuestionStep, Said, Verdict, VoteStep
from narrator.core.script import INTRO_PHASE, OUTRO_PHASE
from narrator.core.state import EMPTY, Actions, Ask, Dawn, Dusk, RoundStep, RulesError, State


class RoundsError(NarratorError):
    """An entry the game cannot take where it is (a saved game edited by hand, a wrong name);
    ``reason`` is what is wrong with it, without where it stands among the entries."""

    def __init__(self, message, reason=None):
        super().__init__(message)
        self.reason = reason if reason is not None else message


@dataclass(frozen=True)
class Setup:
    """What a game of many nights starts from; with its entries, all that is saved."""

    seating: tuple[str, ...]  # clockwise, from the moderator's left (without one, from anyone)
    deck: Mapping[str, int]  # the deck's cards (role id: copies): what the nights call
    options: Mapping[str, bool]  # the game's options, as chosen
    cards: Mapping[str, str] | None = None  # who holds which card; None when nobody at the laptop knows
    # the Possibili the group chose the deck from (a game whose rules let it, Game.chooses_possible)
    possible: Mapping[str, int] = field(default_factory=lambda: EMPTY)

    @property
    def role_ids(self) -> frozenset[str]:
        return frozenset(self.deck)


# --- the steps: what the game needs next --------------------------------------------------------

@dataclass(frozen=True)
class NightStep(RoundStep):
    """No moderator: the whole night is heard (its turns ``turns``), then the game goes on."""

    skip: frozenset[str] = frozenset()  # turns of the deck the rules leave out tonight
    kind: ClassVar[str] = "night"


@dataclass(frozen=True)
class PhaseStep(RoundStep):
    """A moderator's night, one part at a time: the night's start, each turn, the night's end.

    ``ask`` is set when the moderator enters something (or is told something to nod at once);
    ``tonight`` holds the night's entries so far, by ACTION KEY. ``nobody_alive``: nobody living
    holds the turn's card (dead, or never dealt) and its turn is called all the same, passing in
    silence. ``idle``: why the living character enters nothing tonight, when the rules say why.

    The night sounds the same whatever the cards (issue 40): a turn's close is said only once the
    moderator has given a word in it, dealt or not, dead or alive. A called turn stays open
    through the silent turns that follow it (what its characters did is typed there, eyes still
    open); ``closes`` marks the step after which its close is said, and ``confirm`` one where
    nothing was entered since the turn was called, so the moderator closes it by hand."""

    phase: str = INTRO_PHASE  # INTRO_PHASE, a turn's id, or OUTRO_PHASE
    ask: Ask | None = None
    tonight: Mapping[str, Any] = field(default_factory=lambda: EMPTY)
    nobody_alive: bool = False
    skip: frozenset[str] = frozenset()  # turns of the deck the rules leave out tonight
    idle: Said | None = None
    closes: bool = False  # the turn called last is closed after this step
    confirm: bool = False  # ...once the moderator says so: nothing was entered since it was called
    kind: ClassVar[str] = "phase"

    def _detail(self) -> tuple[str, ...]:
        return (self.phase,)

    @property
    def enters(self) -> bool:
        """Whether the moderator types an answer here (a told answer is only shown)."""
        return self.ask is not None and self.ask.of_kind.entered


@dataclass(frozen=True)
class DawnStep(RoundStep):
    """What the night came to: known (``dawn``, from the game's rules), or asked (``dawn`` is None:
    the group says who found their card turned)."""

    dawn: Dawn | None = None
    kind: ClassVar[str] = "dawn"


@dataclass(frozen=True)
class EndQuestion(RoundStep):
    """No moderator: has a side won? (The group knows its cards; the laptop does not.)"""

    must_end: bool = False  # too few are alive to vote: a side has won
    winners: tuple[str, ...] = ()  # who the group may name: ``possible_winners``
    kind: ClassVar[str] = "end"

    def _detail(self) -> tuple[str, ...]:
        return (str(len(self.state.dead)),)


@dataclass(frozen=True)
class DayStep(RoundStep):
    """The day's discussion, then its vote by ``procedure``. A game record may give the verdict
    itself (the entry's ``lynched``) instead of the votes."""

    procedure: Procedure
    kind: ClassVar[str] = "day"


@dataclass(frozen=True)
class ActStep(RoundStep):
    """An action of the day, once the vote has decided (``verdict``, by ``procedure``): ``ask``
    says what is entered."""

    ask: Ask
    verdict: Verdict
    procedure: Procedure
    kind: ClassVar[str] = "act"

    def _detail(self) -> tuple[str, ...]:
        return (self.ask.key,)


@dataclass(frozen=True)
class LynchStep(RoundStep):
    """What the day came to: the vote's ``verdict`` (by ``procedure``) and, after the day's
    actions, ``dusk``: who died and why."""

    procedure: Procedure
    verdict: Verdict
    dusk: Dusk
    kind: ClassVar[str] = "lynch"


@dataclass(frozen=True)
class Over(RoundStep):
    """The end: the winning sides (or the one role that wins alone) and the winners; None for
    the winners when the group said a side won without naming them."""

    sides: tuple[str, ...] = ()
    winners: tuple[str, ...] | None = None
    kind: ClassVar[str] = "over"


Step = (NightStep | PhaseStep | DawnStep | EndQuestion | DayStep | VoteStep | QuestionStep | HandsStep | ActStep
        | LynchStep | Over)


# --- entries: what was entered at each step ------------------------------------------------------

def entry_for(step: Step, **given: Any) -> dict:
    """The entry that answers ``step`` (a plain dict, as saved): ``choice`` for a phase or an act,
    ``dead`` for an asked dawn, ``winner`` for the end question, ``voted`` for a vote, ``choice``
    for a procedure's question, and, for a day, ``lynched`` when a record gives the verdict or ``hands``
    when the group counted the hands raised for each name (a secret vote) instead of each vote."""
    entry: dict[str, Any] = {"kind": step.kind, "night": step.state.night}
    if isinstance(step, PhaseStep):
        entry["phase"] = step.phase
        if step.enters:
            entry["choice"] = given.get("choice")
    elif isinstance(step, ActStep):
        entry.update({"key": step.ask.key, "choice": given.get("choice")})
    elif isinstance(step, DawnStep) and step.dawn is None:
        entry["dead"] = list(given.get("dead") or [])
    elif isinstance(step, EndQuestion):
        entry["winner"] = given.get("winner")
    elif isinstance(step, VoteStep):
        entry.update({"round": step.round, "voter": step.voter, "voted": given["voted"]})
    elif isinstance(step, QuestionStep):
        entry.update({"round": step.round, "key": step.ask.key, "choice": given.get("choice")})
    elif isinstance(step, HandsStep):  # the hands counted for each name, or None: each vote follows
        entry.update({"round": step.round, "hands": None if given.get("hands") is None else dict(given["hands"])})
    elif isinstance(step, DayStep) and "lynched" in given:
        entry["lynched"] = given["lynched"]
    elif isinstance(step, DayStep) and "hands" in given:
        entry["hands"] = dict(given["hands"])
    return entry


ANSWERS = frozenset({"choice", "dead", "winner", "voted", "lynched", "hands"})  # an entry someone answered
_WHERE = ("kind", "night", "phase", "round", "voter", "key")  # what places an entry in the game


class Rounds:
    """A game of many nights: its setup, its entries, and the step it has come to."""

    def __init__(self, game: Game, setup: Setup, entries: list[dict] | tuple[dict, ...] = ()):
        check_setup(game, setup)
        self.game, self.setup = game, setup
        self.entries: list[dict] = []
        self._flow = _flow(game, setup)
        self.step: Step = next(self._flow)
        for index, entry in enumerate(entries, start=1):
            if _saved_before_hands(self.step, entry):  # a round counted vote by vote, as it then was
                self._take(entry_for(self.step, hands=None), index)
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
        if not isinstance(entry, dict):
            raise RoundsError(msg("entry {number}: not an entry of a game", number=index))
        answers = {key: entry[key] for key in ANSWERS if key in entry}
        # a vote's entry always holds one, a round that may be counted by hands its hands (None: each vote)
        needed = {"voted": None} if isinstance(self.step, VoteStep) else {"hands": None} \
            if isinstance(self.step, HandsStep) else {}
        expected = entry_for(self.step, **{**needed, **answers})
        if {key: entry.get(key) for key in expected} != expected or set(entry) != set(expected):
            raise RoundsError(msg("entry {number}: the game expects {expected} here, not {entry}", number=index,
                                  expected=_shape(entry_for(self.step, **needed)), entry=_shape(entry)))
        _check(self.step, entry, index)
        self.entries.append(entry)
        self.step = self._flow.send(entry)

def _saved_before_hands(step: Step, entry: Any) -> bool:
    """Whether a saved game gives a vote where its round may now be counted by hands: saved before
    that round could be (Wherewolf Revised's accusations), each vote was given."""
    return isinstance(step, HandsStep) and isinstance(entry, dict) and entry.get("kind") == "vote" \
        and entry.get("round") == step.round


def _shape(entry: dict) -> str:
    """An entry as an error shows it: where it stands in the game, and which answers it holds."""
    return ", ".join(f"{key}={value}" if key in _WHERE else str(key) for key, value in entry.items())


def _check(step: Step, entry: dict, index: int) -> None:
    """The names an entry gives are the ones the step allows."""
    def allowed(name, choices, what):
        if name is not None and name not in choices:
            reason = msg("{what} '{name}' is not one of {names}", what=what, name=name, names=", ".join(choices) or "-")
            raise RoundsError(msg("entry {number}: {reason}", number=index, reason=reason), reason)

    if isinstance(step, PhaseStep | ActStep | QuestionStep) and "choice" in entry and step.ask is not None:
        why = step.ask.check(entry["choice"])
        if why is not None:
            raise RoundsError(msg("entry {number}: {why}", number=index, why=why), why)
    elif isinstance(step, DawnStep) and step.dawn is None:
        dead = entry["dead"]
        if not isinstance(dead, list) or len(set(dead)) != len(dead):
            raise RoundsError(msg("entry {number}: the dead are a list of different names", number=index))
        for name in dead:
            allowed(name, step.state.living, "dead")
    elif isinstance(step, EndQuestion):
        allowed(entry["winner"], step.winners, "winner")
        if step.must_end and entry["winner"] is None:
            raise RoundsError(msg("entry {number}: too few are alive to vote: name the side that won", number=index))
    elif isinstance(step, VoteStep):
        voted = entry["voted"]
        if voted is None and not step.may_pass:
            raise RoundsError(msg("entry {number}: {voter} has not voted", number=index, voter=step.voter))
        if isinstance(voted, list):
            if not step.several or not voted or len(set(voted)) != len(voted):
                raise RoundsError(msg("entry {number}: {voter} votes for one", number=index, voter=step.voter) if
                                  not step.several else msg("entry {number}: {voter} names different players",
                                                            number=index, voter=step.voter))
            for name in voted:
                allowed(name, step.candidates, "vote")
        else:
            allowed(voted, step.candidates, "vote")
    elif isinstance(step, HandsStep) and entry["hands"] is not None:
        _check_hands(entry["hands"], step.candidates, step.most, index)
    elif isinstance(step, DayStep) and "hands" in entry:
        if step.procedure.most_hands is None:
            raise RoundsError(msg("entry {number}: this vote is not counted by hands", number=index))
        _check_hands(entry["hands"], step.procedure.candidates, step.procedure.most_hands, index)
    elif isinstance(step, DayStep) and "lynched" in entry:
        if entry["lynched"] is None and not step.procedure.may_spare:
            reason = msg("somebody is always lynched in this game")
            raise RoundsError(msg("entry {number}: {reason}", number=index, reason=reason), reason)
        barred = step.procedure.barred(entry["lynched"]) if entry["lynched"] in step.state.living and \
            entry["lynched"] not in step.procedure.candidates else None
        if barred is not None:  # the game says why he cannot burn today
            raise RoundsError(msg("entry {number}: {reason}", number=index, reason=barred), barred)
        allowed(entry["lynched"], step.procedure.candidates, "lynched")
        if entry["lynched"] is not None and step.procedure.spares_all:
            reason = msg("nobody may be lynched today")
            raise RoundsError(msg("entry {number}: {reason}", number=index, reason=reason), reason)


def _check_hands(hands: Any, candidates: tuple[str, ...], most: int, index: int) -> None:
    """The hands counted for each name: a count, 0 or more, for some of ``candidates``, ``most`` in all at most."""
    def refused(reason):
        return RoundsError(msg("entry {number}: {reason}", number=index, reason=reason), reason)

    if not isinstance(hands, dict) or not all(isinstance(count, int) and not isinstance(count, bool)
                                              and count >= 0 for count in hands.values()):
        raise refused(msg("the hands are a count for each name, 0 or more"))
    stranger = next((name for name in hands if name not in candidates), None)
    if stranger is not None:
        raise refused(msg("{what} '{name}' is not one of {names}", what="hands", name=stranger,
                          names=", ".join(candidates) or "-"))
    if sum(hands.values()) > most:
        raise refused(msg("{count} hands, but the voters have {most} at most", count=sum(hands.values()), most=most))


# --- the course of the game ---------------------------------------------------------------------

def check_setup(game: Game, setup: Setup) -> None:
    """A setup the game can start from: the deck's own checks (``check_deck``), then the seating,
    the variant's players and the cards held."""
    if not game.plays_rounds:
        raise RoundsError(msg("{game} plays a single night: it has no rounds", game=game.title))
    unknown = sorted(set(setup.role_ids) - set(game.role_ids))
    if unknown:
        raise RoundsError(msg("no role '{role}' in {game}", role=unknown[0], game=game.title))
    check_deck(game, make_deck(game, setup.deck, setup.possible), len(setup.seating), setup.options)
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
    return tuple(end for end in game.nights_rules.ENDS if end in sides or end in setup.role_ids)


def first_state(game: Game, setup: Setup) -> State:
    """The state before the first night: the generic fields, and the game's own from its rules."""
    state = State(1, setup.seating, setup.deck, setup.options, setup.cards, possible=setup.possible)
    return _checked(game, game.nights_rules.start(game, state), State, "start")


def notes_for(game: Game, state: State, say: Any, tonight: Mapping[str, Any] = EMPTY) -> tuple[str, ...]:
    """What the moderator keeps in mind beyond the cards and the dead (the rules' ``notes``:
    lovers, curses, powers spent, who is protected tonight given ``tonight``'s entries so far), a
    sentence each; none when the rules have no notes."""
    sentences = _checked(game, game.nights_rules.notes(game, state, say, tonight), (list, tuple), "notes")
    if not all(isinstance(sentence, str) for sentence in sentences):
        raise RulesError(msg("{file}: notes() gave something other than sentences", file=_source(game)))
    return tuple(sentences)


def _checked(game: Game, value: Any, kind: type | tuple[type, ...], function: str) -> Any:
    if not isinstance(value, kind):
        kinds = kind if isinstance(kind, tuple) else (kind,)
        raise RulesError(msg("{file}: {function}() gave {value}, not a {kind}", file=_source(game), function=function,
                             value=type(value).__name__, kind=" or ".join(each.__name__ for each in kinds)))
    return value


def _source(game: Game) -> str:
    return getattr(game.rules, "__file__", None) or f"{game.id}/rules.py"


def _actions(game: Game, values: Mapping[str, Any], keys: Mapping[str, str]) -> Actions:
    return Actions(values, keys, _source(game))


_AskOrNone = TypeVar("_AskOrNone", Ask, Ask | None)  # the ask hook's may be None, day_asks' never


def _ask(game: Game, ask: _AskOrNone, keys: Mapping[str, str], where: str) -> _AskOrNone:
    """An ask the rules gave, checked against the keys and kinds they declared."""
    if ask is None:
        return None
    _checked(game, ask, Ask, where)
    if keys.get(ask.key) != ask.kind:
        raise RulesError(msg("{file}: {function}() asks '{key}' as {kind}, which its keys do not declare",
                             file=_source(game), function=where, key=ask.key, kind=ask.kind))
    own = game.nights_rules.ENTRY_KINDS.get(ask.kind)
    return ask if own is None or ask.entry is own else replace(ask, entry=own)


def _sentences(game: Game) -> frozenset[str]:
    """The sentences every language of the game has (its ``vote:`` section: the rules' SENTENCES)."""
    return frozenset.intersection(*(frozenset(language.vote) for language in game.languages.values()))


Ended = TypeVar("Ended", Dawn, Dusk)


def _said_keys(value: Any) -> Iterator[str]:
    """The keys of every ``Said`` in a value a procedure gave (a step, its opening), nested ones too."""
    if isinstance(value, Said):
        yield value.key
        yield from _said_keys(tuple(value.values.values()))
    elif isinstance(value, Mapping):
        yield from _said_keys(tuple(value.values()))
    elif isinstance(value, tuple | list):
        for item in value:
            yield from _said_keys(item)


def _spoken(game: Game, declared: frozenset[str], value: Any, where: str) -> Any:
    """``value`` (a procedure's step, its opening) whose sentences the game's languages all have:
    a key its rules did not declare is their mistake, said where it is made, never a KeyError when
    the shell says it."""
    parts = tuple(getattr(value, name) for name in getattr(value, "__dataclass_fields__", ()) if name != "state") \
        if not isinstance(value, tuple) else value
    missing = sorted(set(_said_keys(parts)) - declared)
    if missing:
        raise RulesError(msg("{file}: {function} says '{key}', which is none of its SENTENCES", file=_source(game),
                             function=where, key=missing[0]))
    return value


def _reasoned(game: Game, declared: frozenset[str], result: Ended, where: str) -> Ended:
    """A dawn or a dusk whose every reason of death has its sentence (``reason_REASON``)."""
    missing = sorted({reason for reason, _name in result.reasons if f"reason_{reason}" not in declared})
    if missing:
        raise RulesError(msg("{file}: {function}() gives the reason '{reason}', but SENTENCES has no 'reason_{reason}'",
                             file=_source(game), function=where, reason=missing[0]))
    return result


def _vote(game: Game, declared: frozenset[str], procedure: Procedure, state: State) -> Generator[Step, dict, Verdict]:
    """The day's vote as ``procedure`` runs it, each step checked (``_spoken``); its verdict."""
    run = procedure.run(state)
    try:
        step = next(run)
        while True:
            if isinstance(step, QuestionStep):  # its ask declared in DAY_KEYS, with the game's own kind
                step = replace(step, ask=_ask(game, step.ask, game.nights_rules.DAY_KEYS, "day().run"))
            entry = yield _spoken(game, declared, step, "day().run")
            step = run.send(entry)
    except StopIteration as stop:
        return _checked(game, stop.value, Verdict, "day().run")


def called_tonight(game: Game, state: State) -> tuple[WakeSlot, ...]:
    """The deck's turns of this night, in order (before the rules leave any out)."""
    return game.called_slots(game.turn_roles(state.deck, state.options, state.possible), state.options, state.night)


def tonight_skips(game: Game, state: State) -> frozenset[str]:
    """The deck's turns of this night that the game's rules leave out."""
    return frozenset(slot.id for slot in called_tonight(game, state) if not game.nights_rules.calls(game, state, slot.id))


def _flow(game: Game, setup: Setup) -> Generator[Step, dict, None]:
    """The game from its first night to its end; each ``yield`` hands out a step and takes its entry."""
    rules = game.nights_rules
    declared = _sentences(game)  # what a step may say: the sentences every language has
    state = first_state(game, setup)
    moderated = setup.cards is not None

    def ended(state: State, moment: str) -> Generator[Step, dict, tuple[tuple[str, ...], tuple[str, ...] | None] | None]:
        """After deaths: the end if it has come (asked when the cards are not known), at the
        moments the rules check it."""
        if moment not in rules.END_AFTER:
            return None
        if not moderated:
            answer = yield EndQuestion(state, len(state.living) < 3, possible_winners(game, setup))
            return None if answer["winner"] is None else ((answer["winner"],), None)
        result = rules.game_over(game, state)
        if result is not None and not result[0] and not getattr(rules, "END_WITHOUT_SIDE", False):
            raise RulesError(msg("{file}: game_over() named no side, and END_WITHOUT_SIDE is not true",
                                 file=_source(game)))
        return None if result is None else (tuple(result[0]), tuple(result[1]))

    while True:
        skip = tonight_skips(game, state)
        if not moderated:
            yield NightStep(state, skip)
            entry = yield DawnStep(state, None)
            dawn = Dawn(state.died(entry["dead"]), tuple(entry["dead"]))
        else:
            tonight: dict[str, Any] = {}
            answers: dict[str, str | int] = {}
            turns = [slot.id for slot in called_tonight(game, state) if slot.id not in skip]
            phases = (INTRO_PHASE, *turns, OUTRO_PHASE)
            entered = False  # the moderator entered something since the last turn was called
            for place, phase in enumerate(phases):
                ask = None
                if phase != INTRO_PHASE:
                    ask = _ask(game, rules.ask(game, state, phase, _actions(game, tonight, rules.NIGHT_KEYS)),
                               rules.NIGHT_KEYS, "ask")
                turn = phase not in (INTRO_PHASE, OUTRO_PHASE)
                if turn and not game.slot(phase).silent:
                    entered = False
                entered = entered or (ask is not None and ask.of_kind.entered)
                following = phases[place + 1] if turn else OUTRO_PHASE  # (a turn is never the last phase)
                closes = turn and (following == OUTRO_PHASE or not game.slot(following).silent)
                nobody = turn and ask is None and not state.holders(game.slot(phase).roles)
                idle = None
                if turn and ask is None and not nobody:
                    idle = rules.idle(game, state, phase, _actions(game, tonight, rules.NIGHT_KEYS))
                    if idle is not None:
                        _spoken(game, declared, (idle,), "idle()")
                entry = yield PhaseStep(state, phase, ask, MappingProxyType(dict(tonight)), nobody, skip, idle,
                                         closes, closes and not entered)
                if ask is not None:
                    value = entry.get("choice")
                    if value is not None:
                        tonight[ask.key] = value
                    told = answer_for(game, state, ask, value, tonight)
                    if told is not None:
                        answers[ask.key] = told
            dawn = _reasoned(game, declared, _checked(game, rules.dawn(game, state, _actions(game, tonight, rules.NIGHT_KEYS)),
                                            Dawn, "dawn"), "dawn")
            dawn = replace(dawn, answers=MappingProxyType({**answers, **dawn.answers}))  # and the morning's news
            yield DawnStep(state, dawn)
        state = dawn.state
        if (dawn.dead or moderated) and (over := (yield from ended(state, "dawn"))):  # a role taken may end it
            yield Over(state, *over)
            return
        procedure = _checked(game, rules.day(game, state), Procedure, "day")
        _spoken(game, declared, procedure.opening, "day().opening")
        entry = yield DayStep(state, procedure)
        if "lynched" in entry:
            verdict = Verdict(entry["lynched"], given=True)
        elif "hands" in entry:
            verdict = procedure.counted(entry["hands"])
        else:
            verdict = yield from _vote(game, declared, procedure, state)
        acts: dict[str, Any] = {}
        answered: set[str] = set()
        while moderated:  # asked again after each answer: a day's questions may depend on the ones before
            asks = rules.day_asks(game, state, verdict.lynched, verdict.votes, _actions(game, acts, rules.DAY_KEYS),
                                  verdict.hands)
            pending = [ask for ask in (_ask(game, each, rules.DAY_KEYS, "day_asks") for each in asks)
                       if ask is not None and ask.key not in answered]
            if not pending:
                break
            ask = pending[0]
            entry = yield ActStep(state, ask, verdict, procedure)
            answered.add(ask.key)
            if entry["choice"] is not None:
                acts[ask.key] = entry["choice"]
        if verdict.tied and not verdict.given and "tied" in rules.DAY_KEYS:  # the counted vote's tie, as entered
            acts.setdefault("tied", list(verdict.tied))
        dusk = _reasoned(game, declared, _checked(game, rules.dusk(game, state, verdict.lynched,
                                                         _actions(game, acts, rules.DAY_KEYS)), Dusk, "dusk"), "dusk")
        yield LynchStep(state, procedure, verdict, dusk)
        state = dusk.state
        if over := (yield from ended(state, "day")):
            yield Over(state, *over)
            return
        state = replace(state, night=state.night + 1)


def _with(game: Game, tonight: Mapping[str, Any], ask: Ask, value: Any) -> Actions:
    """The night's entries so far with ``value`` entered for ``ask`` (nothing for none)."""
    return _actions(game, {**tonight, **({ask.key: value} if value is not None else {})}, game.nights_rules.NIGHT_KEYS)


def answer_for(game: Game, state: State, ask: Ask, value: Any, tonight: Mapping[str, Any]) -> str | int | None:
    """What the moderator tells (nods or shakes the head) for ``value`` in a turn that answers:
    one of the rules' ``ANSWERS`` for the ask's key (a player's name, where they hold
    ``PLAYER_ANSWER``), or None."""
    told = game.nights_rules.answer(game, state, ask, value, _with(game, tonight, ask, value))
    answers = game.nights_rules.ANSWERS.get(ask.key, ())
    if told is not None and told not in answers and not (PLAYER_ANSWER in answers and told in state.seating):
        raise RulesError(msg("{file}: answer() gave '{value}' for '{key}', none of its ANSWERS", file=_source(game),
                             value=told, key=ask.key))
    return told


def places_for(game: Game, state: State, ask: Ask, value: Any, tonight: Mapping[str, Any]) -> dict[str, str | None]:
    """Who is away from home tonight and where, once ``value`` is entered for ``ask`` (the rules' ``places``)."""
    return dict(game.nights_rules.places(game, state, _with(game, tonight, ask, value)))


# --- saving ---------------------------------------------------------------------------------------

def setup_as_dict(setup: Setup) -> dict:
    saved = {"seating": list(setup.seating), "deck": dict(setup.deck), "options": dict(setup.options),
             "cards": None if setup.cards is None else dict(setup.cards)}
    return {**saved, "possible": dict(setup.possible)} if setup.possible else saved


def setup_from_dict(data: object) -> Setup:
    """A setup as saved; RoundsError when it is not one."""
    def fail():
        return RoundsError(msg("not the setup of a saved game (seating, deck, options, cards)"))

    if not isinstance(data, dict) or not {"seating", "deck", "options", "cards"} <= set(data) <= {
            "seating", "deck", "options", "cards", "possible"}:
        raise fail()
    seating, deck, options, cards = data["seating"], data["deck"], data["options"], data["cards"]
    possible = data.get("possible", {})
    if not isinstance(possible, dict) or not all(isinstance(copies, int) and copies > 0 for copies in possible.values()):
        raise fail()
    if not (isinstance(seating, list) and all(isinstance(name, str) for name in seating)
            and isinstance(deck, dict) and all(isinstance(copies, int) and copies > 0 for copies in deck.values())
            and isinstance(options, dict) and all(isinstance(value, bool) for value in options.values())
            and (cards is None or (isinstance(cards, dict) and all(isinstance(v, str) for v in cards.values())))):
        raise fail()
    return Setup(tuple(seating), MappingProxyType(dict(deck)), MappingProxyType(dict(options)),
                 None if cards is None else MappingProxyType(dict(cards)), MappingProxyType(dict(possible)))
