"""A game as data: its roles, deck rules, night shape and languages, as immutable objects.

Nothing here knows a role by name: what makes the wolves or the Massoni special is in the data
(``in_deck``, ``excludes``, ``wakes``, ``night`` steps), read by generic code in ``deck`` and ``script``.
``narrator.games.loader`` builds these objects from ``scripts/<game>/`` and validates them once.
"""

import re
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from narrator.core.errors import UnknownRoleError
from narrator.core.i18n import msg

if TYPE_CHECKING:  # the contracts of a game's rules.py (those modules import this one)
    from narrator.core.nights import DrawnSet, NightsRules, Rules
    from narrator.core.vote import VoteRules

IN_DECK_RULES = ("any", "all-copies", "all-or-none")
# What the card's front and the start of its back say in every game; a game's rules module names
# the texts its own part of the back needs (the vote).
CARD_TEXTS = ("title", "deck", "setup", "night", "night_start", "count", "nudge", "day_break", "day", "day_text",
              "vote_call", "continued")
# ...and a game that may be played without a moderator (``without_moderator``) has a card title and a
# setup of its own for that game, which speak of no moderator.
ALONE_CARD_TEXTS = ("title_alone", "setup_alone")
# ...and a game with a moderator's sheet (game.yaml's sheet:, narrator.core.sheet) heads its parts with these.
SHEET_TEXTS = ("sheet_title", "sheet_seating", "sheet_seat", "sheet_player", "sheet_card", "sheet_notes",
               "sheet_nights", "sheet_night", "sheet_days", "sheet_day")
VOTE_SENTENCES = ("and",)  # every game's vote: section has these; its rules module names the rest
# ...and may have these, for a game whose vote kills rather than lynches: the result's mark beside
# each name ("dies") and its line ("Dead: {names}"); without them the interface's own words are used.
VOTE_WORDS = ("lynched_mark", "lynched_list")
RECORD_WORDS = ("word_yes", "word_no")  # a game of many nights' vote: section: yes and no as a game record writes them
# A game played to the end (narrator.core.rounds) says these lines, which name nobody and so are in
# its voice packs: the dawn with no death, and the end, "end." and each winner its rules' game_over
# can name (a side, or a role that wins alone).
NOBODY_DIED_LINE = "dawn.nobody"
END_LINE = "end.{winner}"
NO_SIDE_LINE = "end.none"  # a game whose rules may end it with no side winning (END_WITHOUT_SIDE) says this


def end_line(sides) -> str:
    """The line that ends a game won by ``sides`` (the first one's), or by no side."""
    return END_LINE.format(winner=sides[0]) if sides else NO_SIDE_LINE


@dataclass(frozen=True)
class Condition:
    """When a step or a wake slot applies. Every part given must hold: a role is in the deck, a
    narration option is on, this is a given night or a night from a given one on (games of many
    nights), all of some conditions, any of others, or not another one."""

    deck_has: str | None = None
    option: str | None = None
    night: int | None = None
    from_night: int | None = None
    all_of: tuple["Condition", ...] = ()
    any_of: tuple["Condition", ...] = ()
    negated: "Condition | None" = None

    def holds(self, roles_in_deck: frozenset[str], options: Mapping[str, bool], night: int = 1) -> bool:
        if self.deck_has is not None and self.deck_has not in roles_in_deck:
            return False
        if self.option is not None and not options.get(self.option, False):
            return False
        if self.night is not None and night != self.night:
            return False
        if self.from_night is not None and night < self.from_night:
            return False
        if not all(part.holds(roles_in_deck, options, night) for part in self.all_of):
            return False
        if self.any_of and not any(part.holds(roles_in_deck, options, night) for part in self.any_of):
            return False
        return self.negated is None or not self.negated.holds(roles_in_deck, options, night)

    def parts(self) -> tuple["Condition", ...]:
        """This condition and every one inside it (to check the roles and options they name)."""
        inner = (*self.all_of, *self.any_of, *((self.negated,) if self.negated else ()))
        return (self, *(part for condition in inner for part in condition.parts()))


@dataclass(frozen=True)
class SheetColumn:
    """A column of the moderator's sheet (``narrate card --sheet``): what is marked each night
    (who was protected) or each day (who was lynched), headed by the language's card text
    ``key``, printed when ``when`` holds for the deck and the options (always, when None)."""

    moment: str  # "night" or "day"
    key: str
    when: Condition | None = None


@dataclass(frozen=True)
class LineStep:
    """Say the line ``key`` (``{role}`` stands for the phase's role id)."""

    key: str
    when: Condition | None = None
    pause_after: float | None = None


@dataclass(frozen=True)
class CountStep:
    """The count window of a phase: the role acts while the narrator counts (when ``when`` holds)."""

    when: Condition | None = None


Step = LineStep | CountStep


@dataclass(frozen=True)
class WakeSlot:
    """A turn of the night: its own id (the phase, and ``{slot}`` in its lines' keys), the roles it
    calls, and its place. It is called when any of its roles is in the deck and ``when`` holds; a
    role may have several slots and several roles may share one."""

    id: str
    roles: tuple[str, ...]
    number: int | str  # the rulebook's number for this turn (narrate deck, roles); the card numbers its turns 1, 2, 3...
    when: Condition | None = None
    steps: tuple[Step, ...] | None = None  # steps of its own, replacing the game's default phase
    seconds_factor: int = 1  # its count is this many times the chosen one (a turn with more to do)

    @property
    def silent(self) -> bool:
        """A turn with no steps (``steps: []``): nothing is said, the moderator only types what the
        rules ask in it; it is not listed as a turn of the night."""
        return self.steps == ()

    def cards(self, copies: Mapping[str, int]) -> int:
        """How many cards of a deck (role id → copies) this turn calls: one name or its plural."""
        return sum(copies.get(role, 0) for role in self.roles)

    def called(self, roles_in_deck: frozenset[str], options: Mapping[str, bool], night: int = 1) -> bool:
        """Any of its roles is in the deck (a turn of no role, a token's, on its condition alone) and
        its condition holds."""
        return (not self.roles or any(role in roles_in_deck for role in self.roles)) and (
            self.when is None or self.when.holds(roles_in_deck, options, night))


@dataclass(frozen=True)
class SetApart:
    """Cards a role needs beside the deck (the Alpha Wolf's centre werewolf): ``count`` of them,
    taken from the box among ``roles`` in that order. They are not dealt, not counted in the deck's
    size, and not called at night, but they come out of the box's copies."""

    count: int
    roles: tuple[str, ...]


@dataclass(frozen=True)
class Role:
    id: str
    copies: int
    side: str
    in_deck: str = "any"
    excludes: frozenset[str] = frozenset()
    sets_apart: SetApart | None = None
    traits: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))  # what the game's rules read

    def trait(self, name: str) -> Any:
        """A field of the role that the game's rules module declares (``ROLE_FIELDS``); its default when unset."""
        return self.traits.get(name)


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
    setup_with: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))  # role id: its setup
    euphony: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))  # "a" → "ad" before an a-
    tokens: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))  # token id: its name
    slots: Mapping[str, RoleText] = field(default_factory=lambda: MappingProxyType({}))  # a turn's own name
    apart: str = ""  # what the deck calls the cards set apart (the centre werewolf)
    # A votes file's fields, for 'narrate votes --help': "file" (the top level) and, where the file lists
    # the players, "player" (each entry): field → what it holds.
    votes_file: Mapping[str, Mapping[str, str]] = field(default_factory=lambda: MappingProxyType({}))

    def line(self, key: str) -> str:
        """The text of a line key; ``count.N`` is the N-th second of the count."""
        if key.startswith("count."):
            return self.count[int(key.removeprefix("count.")) - 1]
        return self.lines[key]

    def role_name(self, role_id: str, copies: int = 1) -> str:
        text = self.roles[role_id]
        return text.name if copies == 1 else text.plural

    def slot_name(self, slot: "WakeSlot", copies: int = 1) -> str:
        """What screens and the card call a turn of the night: its own name (the language's
        ``slots:``), else the name of the first role it calls."""
        copies = copies or 1  # a turn called for a role nobody was dealt (a drawn set's Possibili): its name
        if slot.id in self.slots:
            return self.slots[slot.id].name if copies == 1 else self.slots[slot.id].plural
        return self.role_name(slot.roles[0], copies)

    def setup(self, role_ids: frozenset[str], alone: bool = False) -> str:
        """How to lay out the table for a deck: the game's setup (``alone``: the one for a game with
        no moderator), then each of the deck's roles' own."""
        return " ".join([self.card["setup_alone" if alone else "setup"],
                         *(text for role, text in self.setup_with.items() if role in role_ids)])

    def slot_summary(self, slot: "WakeSlot") -> str:
        return self.slots[slot.id].summary if slot.id in self.slots else self.roles[slot.roles[0]].summary


@dataclass(frozen=True)
class NightShape:
    before: tuple[Step, ...]
    phase: tuple[Step, ...]  # default steps of a wake slot
    after: tuple[Step, ...]
    slots: tuple[WakeSlot, ...] = ()  # the turns of the night, in order


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
    timed: "Condition | None" = None  # the discussion runs on the timer only when this holds (else the moderator ends it)

    def on_timer(self, options: Mapping[str, bool]) -> bool:
        """Whether the day's discussion runs on the timer with these options (always, unless ``timed``
        says when)."""
        return self.timed is None or self.timed.holds(frozenset(), options)


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
    tokens: tuple[str, ...] = ()  # pieces other than cards that the vote may ask about (artifacts)
    token_traits: Mapping[str, Mapping[str, Any]] = field(default_factory=lambda: MappingProxyType({}))
    needs_side: str | None = None  # a legal deck holds at least one card of this side (an enemy for the night)
    minority: tuple[str, ...] = ()  # a legal deck holds at least one of these roles, and fewer than other cards
    # the game's rules.py: a game of one night's (narrator.core.vote), or one of many nights' as the core
    # calls it (narrator.core.nights.bind: nights_rules, drawn_set_rules); None: no vote rules
    rules: "VoteRules | Rules | None" = None
    gap_before_count: float = 0.0  # a breath between a turn's opening line and its first number
    many_nights: bool = False  # nights follow one another until a side wins (turns may depend on the night)
    without_moderator: Condition | None = None  # when it holds, nobody at the laptop knows the cards
    sheet: tuple[SheetColumn, ...] = ()  # a game with a moderator: the moderator's sheet's columns, in order
    option_aliases: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))  # --variant's names
    option_players: Mapping[str, int] = field(default_factory=lambda: MappingProxyType({}))  # played by exactly N

    def option_named(self, name: str) -> str:
        """An option by its id or by another name it is known by (``fantasmi``); unknown names as given."""
        return self.option_aliases.get(name, name)

    @property
    def plays_rounds(self) -> bool:
        """A game of many nights with rules (``narrator.core.nights``): narrate plays it to the end."""
        return self.many_nights and self.rules is not None

    @property
    def nights_rules(self) -> "NightsRules":
        """The rules of a game that ``plays_rounds``, as the core calls them."""
        from narrator.core.nights import Rules

        if not isinstance(self.rules, Rules):
            raise TypeError(f"{self.id} has no rules of a game of many nights")
        return self.rules

    @property
    def drawn_set_rules(self) -> "DrawnSet":
        """The rules of a game that ``draws_set``."""
        from narrator.core.nights import Rules

        if not isinstance(self.rules, Rules) or not self.draws_set:
            raise TypeError(f"{self.id} has no rules that draw its set")
        return self.rules

    def unmoderated(self, roles_in_deck: frozenset[str], options: Mapping[str, bool]) -> bool:
        """Whether this is a game that can have a moderator played without one (its card says so)."""
        return self.without_moderator is not None and not self.moderated(roles_in_deck, options)

    def moderated(self, roles_in_deck: frozenset[str], options: Mapping[str, bool]) -> bool:
        """Whether a moderator keeps the laptop (a game of many nights, unless its options say otherwise)."""
        return self.many_nights and not (self.without_moderator is not None
                                         and self.without_moderator.holds(roles_in_deck, options))

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

    @property
    def draws_set(self) -> bool:
        """Whether the game's rules draw its set of cards (and name every role they could draw,
        the Possibili) instead of the recommended decks: ``narrator.core.nights.DRAWN_SET``."""
        return callable(getattr(self.rules, "draw_deck", None))

    @property
    def chooses_possible(self) -> bool:
        """Whether the group chooses the Possibili its set is drawn from (``--possible``), the
        rules' ``possible_roles`` being only the default: ``CHOSEN_POSSIBLE`` in its rules."""
        return self.draws_set and bool(getattr(self.rules, "CHOSEN_POSSIBLE", False))

    def turn_roles(self, counts: Mapping[str, int], options: Mapping[str, bool],
                   possible: Mapping[str, int] | None = None) -> frozenset[str]:
        """The roles whose turns a night with this deck calls: the deck's and, in a game whose set is
        drawn, every role the draw could have given for as many players, or the ``possible`` the
        group chose (so that the turns called tell nothing of what was drawn)."""
        roles = frozenset(role_id for role_id, copies in counts.items() if copies)
        if not self.draws_set:
            return roles
        if possible:
            return roles | frozenset(possible)
        return roles | frozenset(self.drawn_set_rules.possible_roles(self, sum(counts.values()) - self.extra_cards,
                                                                     options))

    def called_slots(self, roles_in_deck: frozenset[str], options: Mapping[str, bool],
                     night: int = 1) -> tuple[WakeSlot, ...]:
        """The turns of night number ``night`` for a deck, in order: every one whose roles are in
        the deck, dealt or not, alive or dead (silence must never tell what is in play)."""
        return tuple(slot for slot in self.night.slots if slot.called(roles_in_deck, options, night))

    def slots_of_any_night(self, roles_in_deck: frozenset[str], options: Mapping[str, bool]) -> tuple[WakeSlot, ...]:
        """The turns a deck calls on one night or another (for a single-night game, its night's)."""
        nights = range(1, self.night_horizon + 1)
        return tuple(slot for slot in self.night.slots
                     if any(slot.called(roles_in_deck, options, night) for night in nights))

    @property
    def night_horizon(self) -> int:
        """The first night from which every night is called alike: one past the highest night a
        condition names (1 for a single-night game)."""
        conditions = [slot.when for slot in self.night.slots if slot.when is not None]
        conditions += [step.when for slot in self.night.slots for step in self.slot_steps(slot) if step.when is not None]
        conditions += [step.when for step in (*self.night.before, *self.night.after) if step.when is not None]
        named = [number for condition in conditions for part in condition.parts()
                 for number in (part.night, part.from_night) if number is not None]
        return max(named, default=0) + 1 if self.many_nights else 1

    def slot(self, slot_id: str) -> WakeSlot:
        found = self.find_slot(slot_id)
        if found is None:
            raise KeyError(slot_id)
        return found

    def find_slot(self, slot_id: str) -> WakeSlot | None:
        """The turn of the night ``slot_id`` names, or None when it names none (an ACTION KEY may not)."""
        return next((slot for slot in self.night.slots if slot.id == slot_id), None)

    def wake_number(self, role_id: str) -> int | str | None:
        """The number of a role's first turn, or None when it never wakes."""
        return next((slot.number for slot in self.night.slots if role_id in slot.roles), None)

    def slot_steps(self, slot: WakeSlot) -> tuple[Step, ...]:
        return slot.steps if slot.steps is not None else self.night.phase

    def resolve_role(self, name: str) -> str:
        """The id of the role called ``name``: an id, or a name or plural in any language.

        Case, accents, spaces, hyphens and apostrophes do not matter ("Lupi mannari" is ``lupo-mannaro``).
        """
        index = self._name_index
        key = normalize_name(name)
        if key in index:
            return index[key][0]
        import difflib  # only when a name is wrong

        close = difflib.get_close_matches(key, list(index), n=1, cutoff=0.6) if len(key) <= 60 else []
        if close:
            raise UnknownRoleError(msg("no role '{name}' — did you mean '{close}'?", name=name.strip(),
                                        close=index[close[0]][1]))
        raise UnknownRoleError(msg("no role '{name}' (known roles: {roles})", name=name.strip(),
                                    roles=", ".join(self.role_ids)))

    def resolve_card(self, name: str, role_ids: Sequence[str], language) -> str:
        """The role a player names at a prompt, among ``role_ids`` (the deck played, in its order):
        an id or a name in any language as ``resolve_role`` reads it, or any start of one that only
        one of these roles has ("lupo" when the deck has one kind of lupo). Else an error that
        lists these roles in ``language``, not the whole box."""
        index = self._name_index
        key = normalize_name(name)
        if key in index:
            return index[key][0]
        starting = {index[spelled][0] for spelled in index if key and spelled.startswith(key)} & set(role_ids)
        if len(starting) == 1:
            return starting.pop()
        cards = ", ".join(language.role_name(role_id) for role_id in role_ids)
        spellings = [spelled for spelled in index if index[spelled][0] in role_ids]
        import difflib

        close = difflib.get_close_matches(key, spellings, n=1, cutoff=0.6) if len(key) <= 60 else []
        if close and not starting:
            raise UnknownRoleError(msg("no role '{name}' — did you mean '{close}'?", name=name.strip(),
                                        close=index[close[0]][1]))
        if starting:
            raise UnknownRoleError(msg("'{name}' begins the name of more than one card ({cards}): type more of it",
                                       name=name.strip(), cards=", ".join(
                                           language.role_name(role_id) for role_id in role_ids if role_id in starting)))
        raise UnknownRoleError(msg("no card '{name}' here: one of {cards}", name=name.strip(), cards=cards))

    def token_trait(self, token: str, name: str) -> Any:
        """A field of a token that the game's rules module declares (``TOKEN_FIELDS``), or None."""
        return self.token_traits.get(token, {}).get(name)

    def resolve_token(self, name: str) -> str:
        """The id of the token called ``name``: an id, or its name in any language."""
        index = {normalize_name(token): token for token in self.tokens}
        for language in self.languages.values():
            for token, spelled in language.tokens.items():
                index.setdefault(normalize_name(spelled), token)
        key = normalize_name(name)
        if key in index:
            return index[key]
        if not self.tokens:
            raise UnknownRoleError(msg("no token '{name}': {game} has none", name=name.strip(), game=self.title))
        raise UnknownRoleError(msg("no token '{name}' (known tokens: {tokens})", name=name.strip(),
                                    tokens=", ".join(self.tokens)))

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
