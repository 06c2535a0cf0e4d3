"""The contract of a game of many nights: what its ``rules.py`` provides, checked when the game
loads (``check_rules``) so that a missing function, a wrong signature or a name the data uses that
the rules do not declare is one error naming the file, never a surprise in the middle of a game.

The loop (``narrator.core.rounds``) owns only the course every such game shares; the rules own the
game's state (``narrator.core.state.State``, with its ``own`` values), the night's asks, the dawn,
the day's procedure and actions, and the end. A game record (``narrate replay``) is keyed by the
same ACTION KEYS the asks carry.

The contract is typed, and a game's hooks say the types of their parameters and of what they
return: dev/typecheck.py has mypy check each game's against the contract's (tests/test_types.py).
"""

from __future__ import annotations  # the contract's types name modules that import this one

import inspect
from collections.abc import Callable, Collection, Mapping, Sequence
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Protocol

from narrator.core.errors import DataError
from narrator.core.i18n import Text, msg
from narrator.core.kinds import STOCK, Kind
from narrator.core.state import Ask, Dawn, Dusk, State

if TYPE_CHECKING:
    from random import Random

    from narrator.core.card import Block
    from narrator.core.deck import Deck
    from narrator.core.game import Game, Language
    from narrator.core.procedures import Procedure, Said, Verdict
    from narrator.core.vote import Sentences


class NightsRules(Protocol):
    """Module-level names of a game of many nights' ``rules.py`` (see scripts/README.md).

    Every function is pure: the game, the state and the entries in; values out. The functions are
    hooks, called by keyword (pluggy's way): a game's own takes any of the parameters below that
    it needs, by name and in any order, and none other. A game leaves out the hooks and the names
    it has no use for (``DEFAULTS``, ``CONSTANTS``): so adding a parameter here changes no game."""

    ROLE_FIELDS: Mapping[str, Any]  # role fields of game.yaml the rules read
    SENTENCES: tuple[str, ...]  # keys of each language's vote: section (reason_*, the day's explanation...)
    CARD_TEXTS: tuple[str, ...]  # keys of each language's card: section card_back uses
    ENDS: tuple[str, ...]  # who game_over can name: sides, or roles that win alone (end.WINNER lines)
    NIGHT_KEYS: Mapping[str, str]  # ACTION KEY of each night's entry: its kind (narrator.core.kinds: STOCK, or ENTRY_KINDS)
    DAY_KEYS: Mapping[str, str]  # ACTION KEY of each day's action: its kind
    ENTRY_KINDS: Mapping[str, Kind]  # kinds of entry of the game's own (name: a Kind), beside the stock ones
    # ACTION KEY: the answers the moderator may be told (answer_VALUE), words or numbers; PLAYER_ANSWER
    # among them: a player's name may be told too (said as answer_player, with {name})
    ANSWERS: Mapping[str, tuple[str | int, ...]]
    # option: the night key a game record's ``option: NAME`` enters, the first time it is asked (the
    # option is on; the record does not write that key itself then): who holds a token from night 1
    NAMED_OPTIONS: Mapping[str, str]
    VOTE_KEYS: Mapping[str, str]  # what a game record calls each round of the day's procedure (nomination: ...)
    END_AFTER: tuple[str, ...]  # when game_over is asked: after the "dawn", after the "day", or both

    def start(self, game: Game, state: State) -> State:
        """The state before the first night: the game's own values set."""

    def places(self, game: Game, state: State, tonight: Mapping[str, Any]) -> Mapping[str, str | None]:
        """Where each living player is tonight as the entries so far say, for the moderator's eyes:
        player: whose house (None: out, in no house); only those away from home. Empty if the
        game has no houses."""

    def calls(self, game: Game, state: State, turn: str) -> bool:
        """Whether the deck's turn ``turn`` is called tonight (a game may leave out a dead character's)."""

    def ask(self, game: Game, state: State, turn: str, tonight: Mapping[str, Any]) -> Ask | None:
        """What the moderator enters in ``turn`` (a turn's id, or the night's end "dawn") given the
        night's entries so far; None when nothing is entered (the turn passes in silence)."""

    def idle(self, game: Game, state: State, turn: str, tonight: Mapping[str, Any]) -> Said | None:
        """Why the living character of ``turn`` enters nothing tonight, when ``ask`` gave None (busy
        elsewhere, a power spent): a sentence of the language's vote: section, shown to the
        moderator in place of "nothing to enter"; None says only that."""

    def answer(self, game: Game, state: State, ask: Ask, value: Any, tonight: Mapping[str, Any]) -> str | int | None:
        """What the moderator tells at once for ``value`` (one of ANSWERS[ask.key]), or None."""

    def dawn(self, game: Game, state: State, tonight: Mapping[str, Any]) -> Dawn:
        """What the night comes to: the state after it, who died in order and why, who came back."""

    def day(self, game: Game, state: State) -> Procedure:
        """The procedure that settles today's vote (narrator.core.procedures)."""

    def day_asks(self, game: Game, state: State, lynched: str | None, votes: Mapping[str, Mapping[str, str]],
                 acts: Mapping[str, Any], hands: Mapping[str, Mapping[str, int]]) -> Sequence[Ask]:
        """The day's actions once the vote has decided (a mayor's pardon), each keyed in DAY_KEYS;
        ``votes`` are the day's ballots (round: voter: voted), empty when only the lynched was entered;
        ``hands`` the rounds given as the hands counted for each name instead (round: name: hands).
        ``acts`` are the day's actions answered so far: the loop calls this again after each answer
        and asks the first one not answered yet, so a question may depend on those before it (none
        after the one that ends the day; a seconder other than the accused), or be left out."""

    def dusk(self, game: Game, state: State, lynched: str | None, acts: Mapping[str, Any]) -> Dusk:
        """What the day comes to: the state after it, who died and why."""

    def game_over(self, game: Game, state: State) -> tuple[Sequence[str], Sequence[str]] | None:
        """None while the game goes on; else the winning ENDS and every winner (dead ones too)."""

    def announce(self, game: Game, result: Dawn | Dusk, say: Sentences) -> Sequence[str]:
        """The sentences said aloud for what a night (a ``Dawn``) or a day (a ``Dusk``) came to:
        who died, who came back, and any news of the morning. Called at every dawn (after the
        loop's own line when nobody died: then only the news, if any) and after a day with a death."""

    def explain_day(self, game: Game, procedure: Procedure, verdict: Verdict, say: Sentences) -> Sequence[str]:
        """The vote's result, a sentence per step, the last said aloud."""

    def notes(self, game: Game, state: State, say: Sentences, tonight: Mapping[str, Any]) -> Sequence[str]:
        """What the moderator keeps in mind that the cards and the dead do not show (lovers, curses,
        powers spent, who is protected tonight: ``tonight`` holds the night's entries so far, empty
        by day), a sentence each from the language's vote: section."""

    def card_back(self, game: Game, language: Language, deck: Deck) -> tuple[Block, ...]:
        """What the speaker card's back says of this game beyond the generic: its blocks."""


# The hooks a game may leave out, and what the core takes instead (from the hook's own arguments).
DEFAULTS: dict[str, Callable[[Mapping[str, Any]], Any]] = {
    "start": lambda given: given["state"],  # the state as the loop made it: no values of the game's own
    "places": lambda given: MappingProxyType({}),  # nobody away from home: a game without houses
    "calls": lambda given: True,  # every turn of the deck called every night
    "answer": lambda given: None,  # nothing told at once
    "idle": lambda given: None,  # a turn with nothing to enter says no more than that
    "day_asks": lambda given: (),  # nothing asked once the vote has decided
    "notes": lambda given: (),  # nothing kept in mind beyond the cards and the dead
    "card_back": lambda given: (),  # the generic card back only
}
# ...and the names it may leave out, with the value they have then.
CONSTANTS: dict[str, Any] = {"ROLE_FIELDS": MappingProxyType({}), "SENTENCES": (), "CARD_TEXTS": (),
                             "DAY_KEYS": MappingProxyType({}), "ANSWERS": MappingProxyType({}),
                             "ENTRY_KINDS": MappingProxyType({}), "NAMED_OPTIONS": MappingProxyType({})}
PLAYER_ANSWER = "player"  # in ANSWERS: the answer may be a player's name


class OneDay(Protocol):
    """A votes file of one day for 'narrate votes FILE' (Lupus in Tabula's), which a game may also
    keep: all four functions, or none (``ONE_DAY``). The votes and the outcome are the game's own."""

    def read_day(self, game: Game, data: Any, source: str) -> Any:
        """The day's votes, from the file's data."""

    def settle_votes(self, game: Game, vote: Any) -> Any:
        """The outcome of the day's votes."""

    def explain_votes(self, game: Game, vote: Any, outcome: Any, say: Sentences) -> Sequence[str]:
        """The outcome's sentences."""

    def day_as_dict(self, outcome: Any, explanation: Sequence[str]) -> dict[str, Any]:
        """The result for programs (--json)."""


class DrawnSet(Protocol):
    """A set drawn by the game's own formula instead of recommended decks: all three, or none
    (``DRAWN_SET``). ``CHOSEN_POSSIBLE = True`` (optional): the group chooses the Possibili
    (``--possible``)."""

    def draw_deck(self, game: Game, players: int, options: Mapping[str, bool], possible: Mapping[str, int] | None,
                  rng: Random) -> Mapping[str, int]:
        """{role id: copies}, the set drawn with ``rng`` (among ``possible``, the Possibili the group
        chose as {role id: copies}, when it chose them)."""

    def deck_problem(self, game: Game, deck: Deck, options: Mapping[str, bool],
                     possible: Mapping[str, int] | None) -> Text | None:
        """Why a deck (drawn or written) breaks the rules, or None; ``possible`` as above, None when
        no list was chosen (a game record)."""

    def possible_roles(self, game: Game, players: int, options: Mapping[str, bool]) -> Collection[str]:
        """Every role the draw could give (the Possibili), or with CHOSEN_POSSIBLE = True the group's
        default list: their turns are called every night, dealt or not, and ``narrate deck`` lists them."""


ONE_DAY = ("read_day", "settle_votes", "explain_votes", "day_as_dict")  # OneDay's
DRAWN_SET = ("draw_deck", "deck_problem", "possible_roles")  # DrawnSet's
NAMES = ("ROLE_FIELDS", "SENTENCES", "CARD_TEXTS", "ENDS", "NIGHT_KEYS", "DAY_KEYS", "ENTRY_KINDS", "ANSWERS",
         "VOTE_KEYS", "END_AFTER", "NAMED_OPTIONS")
MOMENTS = ("dawn", "day")  # when the end may be checked


def functions() -> dict[str, inspect.Signature]:
    """The contract's functions and their parameters (without ``self``)."""
    found = {}
    for name, member in vars(NightsRules).items():
        if inspect.isfunction(member) and not name.startswith("_"):
            signature = inspect.signature(member)
            found[name] = signature.replace(parameters=list(signature.parameters.values())[1:])
    return found


class Rules:
    """A game's ``rules.py`` as the core calls it (``bind``): each hook with the contract's
    parameters, by position or name, handed on by name to those the game's function takes, or
    answered by its default where the game has none; every other name is the module's own, or its
    default (``CONSTANTS``)."""

    def __init__(self, module: Any, hooks: Mapping[str, Callable[..., Any]]):
        self.module = module
        self.__dict__.update(hooks)

    def __getattr__(self, name: str) -> Any:  # only for names not set in __init__
        try:
            return getattr(self.module, name)
        except AttributeError:
            if name in CONSTANTS:
                return CONSTANTS[name]
            raise


def _named(module: Any, name: str) -> Any:
    """The module's ``name``, or its default where a game may leave it out (``CONSTANTS``)."""
    return getattr(module, name, CONSTANTS.get(name))


def _hook(name: str, wanted: tuple[str, ...], given: Callable[..., Any] | None) -> Callable[..., Any]:
    """``name`` called with the contract's parameters ``wanted``, handing on the ones ``given`` takes."""
    taken = tuple(inspect.signature(given).parameters) if given is not None else ()

    def call(*args: Any, **named: Any) -> Any:
        values = {**dict(zip(wanted, args, strict=False)), **named}  # the rest given by name
        if given is None:
            return DEFAULTS[name](values)
        return given(**{parameter: values[parameter] for parameter in taken})

    call.__name__ = call.__qualname__ = name
    return call


def bind(module: Any, path: str) -> Rules:
    """The module checked against the contract (``check_rules``), as the core calls it."""
    check_rules(module, path)
    hooks = {name: _hook(name, tuple(signature.parameters), getattr(module, name, None))
             for name, signature in functions().items()}
    return Rules(module, hooks)


def untyped(function: Callable[..., Any], name: str, contract: type) -> Text | None:
    """Why ``function``, the contract's ``name``, does not say the types of its parameters and of
    what it returns (``contract``'s, which dev/typecheck.py has mypy check), or None."""
    def shown(annotation: Any) -> str:
        return annotation if isinstance(annotation, str) else inspect.formatannotation(annotation)

    signature, wanted = inspect.signature(function), inspect.signature(getattr(contract, name))
    for parameter in signature.parameters.values():
        if parameter.annotation is parameter.empty:
            spec = wanted.parameters.get(parameter.name)
            return msg("{name}() does not say the type of '{parameter}' (the contract's: {type})", name=name,
                       parameter=parameter.name, type=shown(spec.annotation) if spec is not None else "-")
    if signature.return_annotation is signature.empty:
        return msg("{name}() does not say the type it returns (the contract's: {type})", name=name,
                   type=shown(wanted.return_annotation))
    return None


def check_rules(module: Any, path: str) -> None:
    """A module fulfils the contract: every name it cannot leave out, every hook it defines with
    some of the contract's parameters and no other, each typed, the keys of kinds the core knows.
    DataError naming ``path`` otherwise."""
    def fail(problem) -> DataError:
        return DataError(msg("{file}: {problem}", file=path, problem=problem))

    def typed(name: str, given: Any, contract: type) -> None:
        why = untyped(given, name, contract)
        if why is not None:
            raise fail(why)

    def takes(name: str, given: Any, wanted: list[str]) -> None:
        """``given`` takes only parameters of ``wanted``, each by name (no *args, no **named)."""
        parameters = inspect.signature(given).parameters.values() if callable(given) else ()
        for parameter in parameters:
            if parameter.name not in wanted or parameter.kind not in (parameter.POSITIONAL_OR_KEYWORD,
                                                                      parameter.KEYWORD_ONLY):
                raise fail(msg("{name}() takes '{parameter}', which is none of its parameters ({wanted})",
                               name=name, parameter=parameter.name, wanted=", ".join(wanted)))

    required = [each for each in (*NAMES, *functions()) if each not in CONSTANTS and each not in DEFAULTS]
    for name in NAMES:
        if not hasattr(module, name) and name not in CONSTANTS:
            raise fail(msg("no '{name}' (a game of many nights' rules provide {names})", name=name,
                       names=", ".join(required)))
    for name, signature in functions().items():
        given = getattr(module, name, None)
        if given is None and name in DEFAULTS:
            continue
        if not callable(given):
            raise fail(msg("no function '{name}({parameters})'", name=name, parameters=", ".join(signature.parameters)))
        takes(name, given, list(signature.parameters))
        typed(name, given, NightsRules)
    own = _named(module, "ENTRY_KINDS")
    if not isinstance(own, Mapping):
        raise fail(msg("ENTRY_KINDS: a mapping of a kind's name to the kind"))
    for name, kind in own.items():
        if not isinstance(kind, Kind) or kind.name != name or name in STOCK:
            raise fail(msg("ENTRY_KINDS['{name}']: an instance of a narrator.core.kinds.Kind subclass whose name is "
                           "'{name}' (and no stock kind's: {kinds})", name=name, kinds=", ".join(STOCK)))
    kinds = {**STOCK, **own}
    for declared in ("NIGHT_KEYS", "DAY_KEYS"):
        keys = _named(module, declared)
        if not isinstance(keys, Mapping):
            raise fail(msg("{name}: a mapping of ACTION KEY to kind", name=declared))
        for key, kind in keys.items():
            if kind not in kinds:
                raise fail(msg("{name}['{key}']: '{kind}' is not a kind: {kinds}", name=declared, key=key, kind=kind,
                           kinds=", ".join(kinds)))
    asked = {*_named(module, "NIGHT_KEYS"), *_named(module, "DAY_KEYS")}
    for sentence in _named(module, "SENTENCES"):
        if sentence.startswith("ask_") and not any(sentence == f"ask_{key}" or sentence.startswith(f"ask_{key}_")
                                                   for key in asked):
            raise fail(msg("SENTENCES: '{sentence}' asks for none of the night's or the day's keys ({keys})",
                           sentence=sentence, keys=", ".join(sorted(asked)) or "-"))
    for key, answers in _named(module, "ANSWERS").items():
        if key not in module.NIGHT_KEYS or not isinstance(answers, tuple) or not answers:
            raise fail(msg("ANSWERS['{key}']: a night key with a tuple of answers", key=key))
    for option, key in _named(module, "NAMED_OPTIONS").items():
        if key not in module.NIGHT_KEYS:
            raise fail(msg("NAMED_OPTIONS['{option}']: a night key, not '{key}'", option=option, key=key))
    if not module.END_AFTER or set(module.END_AFTER) - set(MOMENTS):
        raise fail(msg("END_AFTER: one or both of {moments}", moments=", ".join(MOMENTS)))
    if 0 < sum(callable(getattr(module, name, None)) for name in ONE_DAY) < len(ONE_DAY):
        raise fail(msg("a votes file of one day needs all of {names}, or none", names=", ".join(ONE_DAY)))
    for name in ONE_DAY if reads_one_day(module) else ():
        typed(name, getattr(module, name), OneDay)
    drawn = [name for name in DRAWN_SET if callable(getattr(module, name, None))]
    if 0 < len(drawn) < len(DRAWN_SET):
        raise fail(msg("a set drawn by the rules needs all of {names}, or none", names=", ".join(DRAWN_SET)))
    for name in drawn:
        wanted = {"draw_deck": ["game", "players", "options", "possible", "rng"],
                  "deck_problem": ["game", "deck", "options", "possible"],
                  "possible_roles": ["game", "players", "options"]}[name]
        have = list(inspect.signature(getattr(module, name)).parameters)
        if have != wanted:
            raise fail(msg("{name}({have}) should take ({wanted})", name=name, have=", ".join(have),
                       wanted=", ".join(wanted)))
        typed(name, getattr(module, name), DrawnSet)
    for round_name, key in module.VOTE_KEYS.items():
        if not isinstance(key, str):
            raise fail(msg("VOTE_KEYS['{key}']: the record's name for that round", key=round_name))


def reads_one_day(module: Any) -> bool:
    """Whether a game of many nights' rules read a votes file of one day (``ONE_DAY``)."""
    return all(callable(getattr(module, name, None)) for name in ONE_DAY)


def answer_said(answers: Collection[str | int], answer: str | int) -> tuple[str, dict[str, Any]]:
    """The sentence that says ``answer``, one of a key's ``answers``, and its values: ``answer_VALUE``,
    or ``answer_player`` with the name where a player's name is told (``PLAYER_ANSWER``)."""
    if answer in answers or PLAYER_ANSWER not in answers:
        return f"answer_{answer}", {}
    return f"answer_{PLAYER_ANSWER}", {"name": answer}


def answer_sentences(module: Any) -> tuple[str, ...]:
    """The sentences every language of the game has for its answers: ``answer_VALUE``."""
    answers = _named(module, "ANSWERS")
    return tuple(dict.fromkeys(f"answer_{value}" for values in answers.values() for value in values))
