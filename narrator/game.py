"""A game as data: its roles, deck rules, night shape and languages, as immutable objects.

Nothing here knows a role by name: what makes the wolves or the Massoni special is in the data
(``in_deck``, ``excludes``, ``wakes``, ``night`` steps), read by generic code in ``deck`` and ``script``.
``narrator.loader`` builds these objects from ``scripts/<game>/`` and validates them once.
"""

import difflib
import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from types import MappingProxyType

from narrator.errors import UnknownRoleError
from narrator.i18n import msg

SIDES = ("lupi", "umani", "solo")
IN_DECK_RULES = ("any", "all-copies", "all-or-none")
WINS_ALONE_RULES = ("lynched-alone", "unvoted-when-humans-win")
CARD_TEXTS = ("title", "deck", "setup", "night", "night_start", "count", "nudge", "day_break", "day", "day_text",
              "vote_call", "vote", "vote_most", "vote_one_each", "vote_passes", "vote_sides", "wins")
VOTE_SENTENCES = ("and", "bewitched", "tally", "passes", "passes_not", "nobody_lynched", "lynched_one", "lynched_two",
                  "lynched_tie",
                  "alone_lynched_wins", "alone_lynched_tie", "wolf_lynched", "no_wolf_lynched", "no_wolf_side_playing",
                  "nobody_lynched_no_wolf", "nobody_lynched_wolf", "unvoted_steals", "unvoted_has_votes", "winners",
                  "no_winners")


@dataclass(frozen=True)
class Condition:
    """When a step applies: a role is in the deck, and/or a narration option is on."""

    deck_has: str | None = None
    option: str | None = None

    def holds(self, roles_in_deck: frozenset[str], options: Mapping[str, bool]) -> bool:
        if self.deck_has is not None and self.deck_has not in roles_in_deck:
            return False
        return self.option is None or options.get(self.option, False)


@dataclass(frozen=True)
class LineStep:
    """Say the line ``key`` (``{role}`` stands for the phase's role id)."""

    key: str
    when: Condition | None = None
    pause_after: float | None = None


@dataclass(frozen=True)
class CountStep:
    """The count window of a phase: the role acts while the narrator counts."""


Step = LineStep | CountStep


@dataclass(frozen=True)
class Role:
    id: str
    copies: int
    side: str
    wakes: int | None = None
    in_deck: str = "any"
    excludes: frozenset[str] = frozenset()
    night: tuple[Step, ...] | None = None  # steps of its own, replacing the game's default phase
    wolf: bool = False
    bewitchable: bool = False  # a human role whose token the Apprendista Stregone may turn
    bewitches: bool = False  # the role that turns a token at night
    passes_votes_at: int | None = None
    wins_alone: str | None = None


@dataclass(frozen=True)
class RoleText:
    name: str
    plural: str
    summary: str


@dataclass(frozen=True)
class Language:
    """Everything said or shown in one language: role names, sides, the count and the lines."""

    code: str
    name: str
    roles: Mapping[str, RoleText]
    sides: Mapping[str, str]
    count: tuple[str, ...]
    lines: Mapping[str, str]
    vote: Mapping[str, str]  # the sentences that explain a vote (VOTE_SENTENCES)
    moments: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))  # night, dawn: screen labels
    card: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))  # the speaker card's texts
    card_wins: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))  # role id: how it wins
    euphony: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))  # "a" → "ad" before an a-

    def line(self, key: str) -> str:
        """The text of a line key; ``count.N`` is the N-th second of the count."""
        if key.startswith("count."):
            return self.count[int(key.removeprefix("count.")) - 1]
        return self.lines[key]

    def role_name(self, role_id: str, copies: int = 1) -> str:
        text = self.roles[role_id]
        return text.name if copies == 1 else text.plural


@dataclass(frozen=True)
class NightShape:
    before: tuple[Step, ...]
    phase: tuple[Step, ...]  # default steps of a waking role
    after: tuple[Step, ...]


@dataclass(frozen=True)
class CountLimits:
    default: int
    minimum: int
    maximum: int
    aloud_first: int = 2  # the "edges" style: seconds said aloud at the start...
    aloud_last: int = 3  # ...and at the end


@dataclass(frozen=True)
class DayRules:
    seconds: int  # the discussion's default length
    warnings: tuple[int, ...]  # seconds left when a warning is said (line day.left-N)
    countdown: int  # the last seconds, counted down aloud


@dataclass(frozen=True)
class Game:
    id: str
    title: str
    min_players: int
    max_players: int
    centre_cards: int  # dealt face down in the centre of the table
    box_cards: int  # put back in the box unseen
    roles: tuple[Role, ...]
    recommended_decks: Mapping[int, Mapping[str, int]]
    count: CountLimits
    night: NightShape
    option_defaults: Mapping[str, bool]
    gap_after_line: float
    gap_between_phases: float
    languages: Mapping[str, Language]
    day: DayRules | None = None
    default_language: str | None = None  # when the locale names none of the game's languages

    @property
    def extra_cards(self) -> int:
        """Cards beyond one per player."""
        return self.centre_cards + self.box_cards

    def role(self, role_id: str) -> Role:
        for role in self.roles:
            if role.id == role_id:
                return role
        raise KeyError(role_id)

    @property
    def role_ids(self) -> tuple[str, ...]:
        return tuple(role.id for role in self.roles)

    def night_order(self) -> tuple[Role, ...]:
        """The roles that wake, in the order they are called."""
        return tuple(sorted((r for r in self.roles if r.wakes is not None), key=lambda r: r.wakes))

    def phase_steps(self, role: Role) -> tuple[Step, ...]:
        return role.night if role.night is not None else self.night.phase

    def resolve_role(self, name: str) -> str:
        """The id of the role called ``name``: an id, or a name or plural in any language.

        Case, accents, spaces, hyphens and apostrophes do not matter ("Lupi mannari" is ``lupo-mannaro``).
        """
        index = self._name_index
        key = normalize_name(name)
        if key in index:
            return index[key][0]
        close = difflib.get_close_matches(key, list(index), n=1, cutoff=0.6) if len(key) <= 60 else []
        if close:
            raise UnknownRoleError(msg("no role '{name}' — did you mean '{close}'?", name=name.strip(),
                                        close=index[close[0]][1]))
        raise UnknownRoleError(msg("no role '{name}' (known roles: {roles})", name=name.strip(),
                                    roles=", ".join(self.role_ids)))

    @cached_property
    def _name_index(self) -> dict[str, tuple[str, str]]:
        """normalized name → (role id, the name as people write it); built once per game."""
        index = {normalize_name(role.id): (role.id, role.id) for role in self.roles}
        for role in self.roles:
            for language in self.languages.values():
                text = language.roles[role.id]
                for spelled in (text.name, text.plural):
                    index.setdefault(normalize_name(spelled), (role.id, spelled.lower()))
        return index


def normalize_name(name: str) -> str:
    """Fold case, accents and separators so that names compare the way people mean them."""
    decomposed = unicodedata.normalize("NFKD", name.casefold())
    plain = "".join(char for char in decomposed if not unicodedata.combining(char))
    return re.sub(r"[\s\-_'’.]+", "", plain)
