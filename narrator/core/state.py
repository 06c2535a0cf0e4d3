"""A game of many nights as it stands between two entries, and the kinds of things its rules ask
for: the generic part of the contract a game's ``rules.py`` fulfils (``narrator.core.nights``).

``State`` is what every game has (the night, the seating, the cards, the dead in the order they
died) plus ``own``: whatever else the game keeps (lovers, spent powers, the lynched so far), as a
frozen mapping of plain values, so that a state is immutable and serialisable as it is.

``Ask`` is what a moderator enters in a turn, of one kind (``narrator.core.kinds``); ``Dawn`` and ``Dusk``
are what a night and a day come to. Nothing here names a role, a side or a turn.
"""

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any, ClassVar

from narrator.core.errors import NarratorError
from narrator.core.i18n import Text, msg
from narrator.core.kinds import STOCK, Kind

EMPTY: Mapping = MappingProxyType({})


class RulesError(NarratorError):
    """A game's rules.py broke its contract (a bug of the plugin): the message names the file."""


def frozen(value: Any) -> Any:
    """A plain value made immutable: mappings become read-only, lists tuples (recursively)."""
    if isinstance(value, Mapping):
        return MappingProxyType({key: frozen(item) for key, item in value.items()})
    if isinstance(value, list | tuple):
        return tuple(frozen(item) for item in value)
    return value


def plain(value: Any) -> Any:
    """The inverse of ``frozen``: what JSON writes (mappings as dicts, tuples as lists)."""
    if isinstance(value, Mapping):
        return {key: plain(item) for key, item in value.items()}
    if isinstance(value, list | tuple | frozenset | set):
        return [plain(item) for item in (sorted(value) if isinstance(value, frozenset | set) else value)]
    return value


@dataclass(frozen=True)
class State:
    """The game as it stands: generic fields, and the game's ``own`` (set by its rules)."""

    night: int
    seating: tuple[str, ...]  # clockwise, from the moderator's left (without one, from anyone)
    deck: Mapping[str, int]
    options: Mapping[str, bool]
    cards: Mapping[str, str] | None = None  # who holds which card now; None when nobody at the laptop knows
    dead: tuple[str, ...] = ()  # in the order they died (a player brought back leaves it)
    own: Mapping[str, Any] = field(default_factory=lambda: EMPTY)
    possible: Mapping[str, int] = field(default_factory=lambda: EMPTY)  # the Possibili the group chose, if it did

    @property
    def living(self) -> tuple[str, ...]:
        return tuple(name for name in self.seating if name not in self.dead)

    def died(self, names) -> "State":
        return replace(self, dead=self.dead + tuple(name for name in names if name not in self.dead))

    def revived(self, names) -> "State":
        return replace(self, dead=tuple(name for name in self.dead if name not in names))

    def kept(self, **own: Any) -> "State":
        """The state with some of the game's own values changed (each made immutable)."""
        return replace(self, own=MappingProxyType({**self.own, **{key: frozen(value) for key, value in own.items()}}))

    def holders(self, role_ids) -> tuple[str, ...]:
        """The living players who hold one of ``role_ids``, in seating order."""
        wanted = {role_ids} if isinstance(role_ids, str) else set(role_ids)
        return tuple(name for name in self.living if self.cards is not None and self.cards[name] in wanted)

    def as_dict(self) -> dict:
        return plain({"night": self.night, "seating": self.seating, "deck": self.deck, "options": self.options,
                      "cards": self.cards, "dead": self.dead, "own": self.own, "possible": self.possible})


@dataclass(frozen=True)
class Ask:
    """What the moderator enters for one ACTION KEY while the chooser's eyes are open.

    ``choosers`` act (for ``each``, the keys of the mapping entered, shown as ``labels``);
    ``candidates`` may be chosen (``player``, ``players``, ``each``); ``choices`` for ``choice``.
    Unless ``required``, nobody (or nothing) is an answer too."""

    key: str
    kind: str
    choosers: tuple[str, ...] = ()
    candidates: tuple[str, ...] = ()
    choices: tuple[str, ...] = ()
    required: bool = False
    about: str | None = None  # told: the player the answer is about
    most: int = 0  # players: at most this many (0: any number)
    least: int = 0  # players: at least this many, when any are given (``required``: always)
    labels: tuple[str, ...] = ()  # each: how each chooser is shown (a holder's name), else the chooser
    drawn: bool = False  # player: nobody entered, the laptop draws one of the candidates at random
    roles: tuple[str, ...] = ()  # told: the roles the moderator may show (cards nobody was dealt)
    # fields: the shapes an answer may take, each a tuple of (part, the values it may have)
    forms: tuple[tuple[tuple[str, tuple[str, ...]], ...], ...] = ()
    # a kind of the game's own (its rules' ENTRY_KINDS): set by the loop from ``kind``
    entry: Kind | None = field(default=None, compare=False, repr=False)

    def label(self, chooser: str) -> str:
        return self.labels[self.choosers.index(chooser)] if self.labels else chooser

    def fits(self, value: Any) -> bool:
        """Whether ``value`` (a mapping) takes one of the ``forms``: the same parts, each an allowed value."""
        return isinstance(value, Mapping) and any(
            set(value) == {part for part, _ in form} and all(value[part] in allowed for part, allowed in form)
            for form in self.forms)

    @staticmethod
    def form_text(form) -> str:
        """A form as an error shows it: ``{turn: veggente, recruit: NAME}``."""
        return "{" + ", ".join(f"{part}: {allowed[0] if len(allowed) == 1 else 'NAME'}" for part, allowed in form) \
            + "}"

    @property
    def of_kind(self) -> Kind:
        """What its kind is: the game's own (``entry``, set by the loop), or a stock one."""
        if self.entry is not None:
            return self.entry
        if self.kind not in STOCK:
            raise RulesError(msg("'{key}': no kind '{kind}'", key=self.key, kind=self.kind))
        return STOCK[self.kind]

    def check(self, value: Any) -> Text | None:
        """Why ``value`` is not an answer to this ask (None when it is one): nobody where nobody
        may answer, then what its kind says."""
        if value is None:
            if not self.required:
                return None
            wanted = self.of_kind.wanted(self)
            if wanted is not None:  # what its kind wants, in words: "two names required here"
                return msg("missing: {wanted} required here (this turn cannot pass)", wanted=wanted)
            return msg("missing: an answer is required here (this turn cannot pass)")
        if isinstance(value, list | tuple | Mapping) and not value:
            return msg("nobody is written null, not an empty list")
        return self.of_kind.check(self, value)


class Actions(Mapping):
    """A night's (or a day's) entries so far, by ACTION KEY, as a game's rules read them: a key the
    rules never declared is their own mistake, said at once (a typo would otherwise mean that
    nobody ever acts)."""

    def __init__(self, values: Mapping[str, Any], declared: Mapping[str, str], source: str):
        self._values, self._declared, self._source = dict(values), declared, source

    def _known(self, key: str) -> str:
        if key not in self._declared:
            raise RulesError(msg("{file}: reads '{key}', which is none of its keys ({keys})", file=self._source,
                                 key=key, keys=", ".join(self._declared)))
        return key

    def __getitem__(self, key: str) -> Any:
        return self._values[self._known(key)]

    def get(self, key: str, default: Any = None) -> Any:
        return self._values.get(self._known(key), default)

    def __contains__(self, key: object) -> bool:
        return isinstance(key, str) and self._known(key) in self._values

    def __iter__(self):
        return iter(self._values)

    def __len__(self) -> int:
        return len(self._values)


@dataclass(frozen=True)
class Dawn:
    """What a night comes to: the state after it, who died (in the order they die) and why
    (``(reason, name)`` pairs, each said by the language's ``reason_REASON``), who came back."""

    state: State
    dead: tuple[str, ...] = ()
    reasons: tuple[tuple[str, str], ...] = ()
    revived: tuple[str, ...] = ()
    # each information role's answer, by ACTION KEY: the loop adds those told in the night to the
    # news a dawn may give of its own (what the morning announces)
    answers: Mapping[str, str | int] = field(default_factory=lambda: EMPTY)


@dataclass(frozen=True)
class Dusk:
    """What a day comes to after its vote and its actions: the state after it, who died and why."""

    state: State
    dead: tuple[str, ...] = ()
    reasons: tuple[tuple[str, str], ...] = ()
    revived: tuple[str, ...] = ()  # as a Dawn's: nobody a day brings back yet, but the screens ask alike


@dataclass(frozen=True)
class RoundStep:
    """What every step has: the state as it stands, and a key that names the step within the game."""

    state: State
    kind: ClassVar[str] = ""  # also the kind of the entry that answers it

    @property
    def key(self) -> str:
        return "/".join((str(self.state.night), self.kind, *self._detail()))

    def _detail(self) -> tuple[str, ...]:
        return ()

