"""A game record settled by the rules (``narrate replay``): the setup and each round as it was
played, keyed by the game's ACTION KEYS, entered into the same ``Rounds`` a game at the laptop is
played with, so that the rules say who died at each dawn and each day and why, what each
information role was told, and who won.

A record (already parsed from YAML)::

    game: learts-variant            # optional
    options: {martire-protezione: on}   # a named option (the rules' NAMED_OPTIONS): amuleto: Anna
    players: [{name: Anna, card: lupo-capobranco}, ...]    # clockwise, each once
    rounds:                         # night 1, day 1, night 2, ...
      - night: {cortigiana: Marco, lupi: {Anna: Marco}}
      - day: {lynched: Dario}       # or the procedure's votes (the rules' VOTE_KEYS); null: nobody
      - day: {hands: {accusation: {Dario: 5, Anna: 2}}, ballottaggio: {...}}  # a round counted by hands

Anything the rules forbid is refused with one line naming the round and the key.
"""

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any

from narrator.core.errors import NarratorError
from narrator.core.game import Game
from narrator.core.i18n import Text, msg
from narrator.core.kinds import RecordWords, name_of
from narrator.core.procedures import HandsStep, QuestionStep, VoteStep
from narrator.core.rounds import (
    ActStep,
    DawnStep,
    DayStep,
    LynchStep,
    Over,
    PhaseStep,
    Rounds,
    RoundsError,
    Setup,
    entry_for,
)

RECORD_KEYS = ("game", "options", "players", "rounds")


class ReplayError(NarratorError):
    """A record that is not one, or that the rules forbid; the message names the round and the key."""


@dataclass(frozen=True)
class RoundResult:
    """What one round came to: a night (``night`` set) or a day (``day`` set)."""

    night: int | None = None
    day: int | None = None
    dead: tuple[str, ...] = ()
    reasons: tuple[tuple[str, str], ...] = ()
    answers: Mapping[str, str | int] = field(default_factory=lambda: MappingProxyType({}))
    revived: tuple[str, ...] = ()
    lynched: str | None = None
    step: Any = None  # the DawnStep or LynchStep, for explaining it

    def as_dict(self) -> dict:
        if self.night is not None:
            result = {"night": self.night, "dead": list(self.dead), "answers": dict(self.answers)}
            return {**result, "revived": list(self.revived)} if self.revived else result
        return {"day": self.day, "dead": list(self.dead), "lynched": self.lynched}


@dataclass(frozen=True)
class Replayed:
    setup: Setup
    rounds: tuple[RoundResult, ...]
    over: Over | None  # the end, when the record reaches it

    def as_dict(self) -> dict:
        winner = None
        if self.over is not None:
            winner = {"sides": list(self.over.sides), "players": list(self.over.winners or ())}
        return {"rounds": [result.as_dict() for result in self.rounds], "winner": winner}


def replay(game: Game, record: Any, source: str) -> Replayed:
    """Settle ``record`` (a mapping as read from YAML) by ``game``'s rules."""
    if not game.plays_rounds:
        raise ReplayError(msg("{file}: {game} is a game of one night: 'narrate votes' settles its vote", file=source,
                              game=game.title))
    if not isinstance(record, Mapping):
        raise ReplayError(msg("{file}: not a game record: a mapping with {keys}", file=source,
                              keys=", ".join(RECORD_KEYS)))
    unknown = [str(key) for key in record if key not in RECORD_KEYS]
    if unknown:
        raise ReplayError(msg("{file}: '{key}' is not a key of a game record: {keys}", file=source, key=unknown[0],
                              keys=", ".join(RECORD_KEYS)))
    setup, firsts = _setup(game, record, source)
    rounds = record.get("rounds")
    if not isinstance(rounds, list):
        raise ReplayError(msg("{file}: rounds: a list, night 1, day 1, night 2, ...", file=source))
    return _Replay(game, setup, source, firsts).run(rounds)


def _options(game: Game, record: Mapping, source: str) -> tuple[dict[str, bool], dict[str, tuple[str, str]]]:
    """The record's options, and the names its named options give (the rules' ``NAMED_OPTIONS``):
    night key: (option, name), the name entered the first time the key is asked."""
    options = dict(game.option_defaults)
    firsts: dict[str, tuple[str, str]] = {}
    given = record.get("options") or {}
    if not isinstance(given, Mapping):
        raise ReplayError(msg("{file}: options: a mapping of option: on or off", file=source))
    words = RecordWords.of(game.languages.values())
    for name, value in given.items():
        option = game.option_named(str(name))
        if option not in options:
            raise ReplayError(msg("{file}: options: no option '{option}' in {game}: {options}", file=source,
                                  option=name, game=game.title, options=", ".join(options) or "-"))
        flag = words.flag(value)
        key = game.nights_rules.NAMED_OPTIONS.get(option)
        if key is not None and flag is not False:  # on, and who holds it first
            if flag is not None or name_of(value) is None:
                raise ReplayError(msg("{file}: options: {option}: the name of its first holder ({option}: NAME), "
                                      "or off", file=source, option=name))
            firsts[key] = (str(name), str(name_of(value)))
            flag = True
        if flag is None:
            raise ReplayError(msg("{file}: options: {option}: on or off, not '{value}'", file=source, option=name,
                                  value=value))
        options[option] = flag
    return options, firsts


def _setup(game: Game, record: Mapping, source: str) -> tuple[Setup, dict[str, tuple[str, str]]]:
    options, firsts = _options(game, record, source)
    players = record.get("players")
    if not isinstance(players, list) or not players:
        raise ReplayError(msg("{file}: players: a list of {{name: ..., card: ...}}, clockwise", file=source))
    cards: dict[str, str] = {}
    for index, player in enumerate(players, start=1):
        if not isinstance(player, Mapping) or set(player) != {"name", "card"}:
            raise ReplayError(msg("{file}: players[{index}]: {{name: NAME, card: CARD}}", file=source, index=index))
        name = name_of(player["name"])
        if name is None:
            raise ReplayError(msg("{file}: players[{index}]: '{value}' is not a name", file=source, index=index,
                                  value=player["name"]))
        if name in cards:
            raise ReplayError(msg("{file}: players: '{name}' is listed twice", file=source, name=name))
        try:
            cards[name] = game.resolve_role(str(player["card"]))
        except NarratorError as error:
            raise ReplayError(msg("{file}: players[{index}]: {error}", file=source, index=index,
                                  error=error.message)) from None
    for option, name in firsts.values():
        if name not in cards:
            raise ReplayError(msg("{file}: options: {option}: '{name}' is not one of the players: {names}",
                                  file=source, option=option, name=name, names=", ".join(cards)))
    deck: dict[str, int] = {}
    for role_id in cards.values():
        deck[role_id] = deck.get(role_id, 0) + 1
    if not game.moderated(frozenset(deck), options):
        raise ReplayError(msg("{file}: a record is of a game with a moderator: these options leave nobody who knows "
                              "the cards", file=source))
    # A record does not list the Possibili: where the group chooses them, every card of the box may
    # have been among them (any turn may be named).
    possible = {role.id: role.copies for role in game.roles} if game.chooses_possible else {}
    setup = Setup(tuple(cards), MappingProxyType(deck), MappingProxyType(options), MappingProxyType(cards),
                  MappingProxyType(possible))
    try:
        Rounds(game, setup)
    except NarratorError as error:
        raise ReplayError(msg("{file}: players: {error}", file=source, error=error.message)) from None
    return setup, firsts


def _count(value: Any) -> Any:
    """A record's count as a number (``narrate replay`` reads every value as text); what is no
    count is handed on as it is, for the check to say why."""
    return int(value) if isinstance(value, str) and value.strip().isascii() and value.strip().isdigit() else value


class _Replay:
    def __init__(self, game: Game, setup: Setup, source: str, firsts: Mapping[str, tuple[str, str]]):
        self.game, self.setup, self.source = game, setup, source
        self.firsts = dict(firsts)  # night key: (option, name), given by an option until first asked
        self.words = RecordWords.of(game.languages.values())  # how the record writes yes and no
        self.rounds = Rounds(game, setup)
        self.results: list[RoundResult] = []

    def fail(self, number: int, key: str | None, why: Text | str) -> ReplayError:
        where = msg("round {number}", number=number) if key is None else msg("round {number}: {key}", number=number,
                                                                               key=key)
        return ReplayError(msg("{file}: {where}: {why}", file=self.source, where=where, why=why))

    def enter(self, number: int, key: str | None, entry: dict) -> None:
        try:
            self.rounds.enter(entry)
        except RoundsError as error:
            raise self.fail(number, key, error.reason) from None

    def run(self, rounds: list) -> Replayed:
        for number, item in enumerate(rounds, start=1):
            if isinstance(self.rounds.step, Over):
                raise self.fail(number, None, msg("the game was over after round {last}", last=number - 1))
            if not isinstance(item, Mapping) or len(item) != 1 or next(iter(item)) not in ("night", "day"):
                raise self.fail(number, None, msg("one of night: {{...}} or day: {{...}}"))
            kind, values = next(iter(item.items()))
            expected = "night" if isinstance(self.rounds.step, PhaseStep) else "day"
            if kind != expected:
                raise self.fail(number, None, msg("the game has come to a '{expected}' here, not a '{kind}': a record "
                                                  "gives its rounds in turn, a night first", kind=kind,
                                                  expected=expected))
            if values is None:
                values = {} if kind == "night" else {"lynched": None}
            if not isinstance(values, Mapping):
                raise self.fail(number, None, msg("a mapping of ACTION KEY: value"))
            values = {str(key): value for key, value in values.items()}
            (self.night if kind == "night" else self.day)(number, values)
        over = self.rounds.step if isinstance(self.rounds.step, Over) else None
        return Replayed(self.setup, tuple(self.results), over)

    def night(self, number: int, values: dict) -> None:
        rules = self.game.nights_rules
        values.pop("revived", None)  # a night's result a record may carry: not compared
        unfit: dict[str, list] = {}  # the asks of a key whose value fitted none of them so far
        for key, (option, _name) in self.firsts.items():
            if key in values:
                raise self.fail(number, key, msg("its first holder is the option's value (options: {option}: NAME)",
                                                 option=option))
        while isinstance(self.rounds.step, PhaseStep):
            step = self.rounds.step
            given: dict[str, Any] = {}
            if step.ask is not None and step.ask.key in values and not step.enters:
                raise self.fail(number, step.ask.key, msg("it is told, never written"))
            if step.enters and step.ask is not None and step.ask.key in self.firsts:  # the option's name
                given["choice"] = self.firsts.pop(step.ask.key)[1]
            elif step.enters and step.ask is not None:
                value = self.value(number, step.ask, values.get(step.ask.key))
                why = step.ask.check(value) if value is not None else None
                if why is not None and not step.ask.required:  # left for a later turn with the same key
                    unfit.setdefault(step.ask.key, []).append(step.ask)
                    value = None
                else:
                    values.pop(step.ask.key, None)
                given["choice"] = value
            self.enter(number, step.ask.key if step.ask is not None else None, entry_for(step, **given))
        for key, asks in unfit.items():
            if key in values:  # no turn of the night took it: what each would have taken
                merged = replace(asks[0], forms=tuple(form for ask in asks for form in ask.forms))
                raise self.fail(number, key, merged.check(self.value(number, merged, values[key])))
        state = self.rounds.step.state  # the night's dawn: the state the night began from
        self.leftover(number, values, rules.NIGHT_KEYS, lambda key: self.silent(state, key))
        step = self.rounds.step
        assert isinstance(step, DawnStep) and step.dawn is not None  # a night's turns end at its dawn, known
        dawn = step.dawn
        self.results.append(RoundResult(night=step.state.night, dead=dawn.dead, reasons=dawn.reasons,
                                        answers=dawn.answers, revived=dawn.revived, step=step))
        self.enter(number, None, entry_for(step))

    def day(self, number: int, values: dict) -> None:
        rules = self.game.nights_rules
        step = self.rounds.step
        assert isinstance(step, DayStep)  # after a night (run() checked it), the day
        night = step.state.night
        counted = self.hands(number, values, step.procedure.rounds)
        rounds_given = {name: rules.VOTE_KEYS.get(name, name) for name in step.procedure.rounds
                        if rules.VOTE_KEYS.get(name, name) in values or rules.VOTE_KEYS.get(name, name) in counted}
        lynched_given = "lynched" in values
        lynched = values.pop("lynched", None)
        if lynched is not None and not isinstance(lynched, str | int):
            raise self.fail(number, "lynched", msg("one name, or null for nobody"))
        lynched = None if lynched is None else str(lynched)
        if not rounds_given and not lynched_given:
            raise self.fail(number, None, msg("the day needs 'lynched' or the votes ({keys})", keys=", ".join(
                rules.VOTE_KEYS.get(name, name) for name in step.procedure.rounds)))
        if rounds_given:
            self.enter(number, None, entry_for(step))
            self.votes(number, values, rounds_given, counted)
        else:
            self.enter(number, "lynched", entry_for(step, lynched=lynched))
        while isinstance(self.rounds.step, ActStep):
            act = self.rounds.step
            value = self.value(number, act.ask, values.pop(act.ask.key, None))
            self.enter(number, act.ask.key, entry_for(act, choice=value))
        self.leftover(number, values, rules.DAY_KEYS, lambda key: msg("it cannot be played today"))
        step = self.rounds.step
        assert isinstance(step, LynchStep)  # the vote and the day's actions come to the day's end
        if rounds_given and lynched_given and step.verdict.lynched != lynched:
            raise self.fail(number, "lynched", msg("the votes lynch {voted}, not {given}",
                                                   voted=step.verdict.lynched or "-", given=lynched or "-"))
        self.results.append(RoundResult(day=night, dead=step.dusk.dead, reasons=step.dusk.reasons,
                                        lynched=step.verdict.lynched, step=step))
        self.enter(number, None, entry_for(step))

    def hands(self, number: int, values: dict, rounds) -> dict[str, dict[str, Any]]:
        """The day's rounds the record gives as the hands counted for each name (``hands: {ROUND:
        {NAME: COUNT}}``, each round by its record's name), names as text."""
        counted = values.pop("hands", None)
        if counted is None:
            return {}
        keys = [self.game.nights_rules.VOTE_KEYS.get(name, name) for name in rounds]
        if not isinstance(counted, Mapping) or not all(isinstance(each, Mapping) for each in counted.values()):
            raise self.fail(number, "hands", msg("a mapping of round: the hands counted for each name ({keys})",
                                                 keys=", ".join(keys)))
        for key in counted:
            if str(key) in values:
                raise self.fail(number, str(key), msg("given as hands and as votes: one or the other"))
        return {str(key): {name_of(name) or str(name): _count(count) for name, count in each.items()}
                for key, each in counted.items()}

    def votes(self, number: int, values: dict, rounds_given: dict, counted: dict[str, dict[str, Any]]) -> None:
        used: dict[str, set] = {key: set() for key in rounds_given.values() if key not in counted}
        for key in used:
            if not isinstance(values.get(key), Mapping):
                raise self.fail(number, key, msg("a mapping of voter: voted"))
        offered: list[str] = []  # the rounds that may be counted by hands, so far
        while isinstance(self.rounds.step, VoteStep | QuestionStep | HandsStep):
            step = self.rounds.step
            if isinstance(step, QuestionStep):  # a question of the procedure's: its value under its key
                answer = self.value(number, step.ask, values.pop(step.ask.key, None))
                self.enter(number, step.ask.key, entry_for(step, choice=answer))
                continue
            key = rounds_given.get(step.round)
            if isinstance(step, HandsStep):  # the hands counted, where the record gives them; else each vote
                offered.append(key or step.round)
                self.enter(number, "hands", entry_for(step, hands=counted.pop(key, None) if key else None))
                continue
            if key in counted:
                raise self.fail(number, "hands", self.not_by_hands(key, offered))
            if key is None and step.may_pass:  # a round the record leaves out where passing is allowed: passed
                self.enter(number, None, entry_for(step, voted=None))
                continue
            if key is None:
                raise self.fail(number, None, msg("the votes of '{round}' are missing",
                                                  round=self.game.nights_rules.VOTE_KEYS.get(step.round, step.round)))
            ballots = {str(voter): voted for voter, voted in values[key].items()}
            if step.voter not in ballots and not step.may_pass:
                raise self.fail(number, key, msg("{voter} did not vote", voter=step.voter))
            used[key].add(step.voter)  # where abstaining is allowed, a voter left out voted for nobody
            given = ballots.get(step.voter)
            voted = [name_of(name) or name for name in given] if isinstance(given, list) and step.several else \
                name_of(given) if not isinstance(given, list) else given
            self.enter(number, key, entry_for(step, voted=voted))
        if counted:  # a round never counted by hands: it did not come, or not as hands
            raise self.fail(number, "hands", self.not_by_hands(next(iter(counted)), offered))
        for key in used:
            extra = sorted(set(map(str, values.pop(key))) - used[key])
            if extra:
                raise self.fail(number, key, msg("{voter} does not vote here", voter=extra[0]))

    @staticmethod
    def not_by_hands(key: str, offered: list[str]) -> Text:
        return msg("'{key}' is not counted by hands here: {keys}", key=key, keys=", ".join(offered) or "-")

    def value(self, number: int, ask, value: Any) -> Any:
        """A record's value in the shape its ask's kind takes (names as text, yes or no as a flag)."""
        if value is None or (isinstance(value, list | Mapping) and not value):
            return None  # nobody
        return ask.of_kind.parse(ask, value, self.words)

    def silent(self, state, key: str) -> Text:
        """Why a night's key had no turn to take it: its character is dead, or it does not act tonight."""
        slot = self.game.find_slot(key)
        roles = slot.roles if slot is not None else (key,)
        holders = [name for name in state.seating if state.cards is not None and state.cards[name] in roles]
        if holders and all(name in state.dead for name in holders):
            return msg("it does not act tonight: {names}, who held its card, is out of the game",
                       names=", ".join(holders))
        return msg("it does not act tonight")

    def leftover(self, number: int, values: dict, keys: Mapping[str, str], why: Callable[[str], Text]) -> None:
        for key in values:
            if keys.get(key) == "told":
                raise self.fail(number, key, msg("it is told, never written"))
            if key not in keys:
                raise self.fail(number, key, msg("not a key of {game}: {keys}", game=self.game.title,
                                                 keys=", ".join(keys) or "-"))
            raise self.fail(number, key, why(key))
