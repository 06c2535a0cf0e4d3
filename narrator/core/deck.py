"""Decks: which cards are shuffled and dealt, and whether the game's rules allow them.

Every rule comes from the role data (``copies``, ``in_deck``, ``excludes``) and the game's
``extra_cards``; there is no role named in this module.
"""

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from narrator.core.errors import DeckError, NarratorError
from narrator.core.game import Game
from narrator.core.i18n import msg, plural

if TYPE_CHECKING:
    import random  # the caller gives the generator


@dataclass(frozen=True)
class Deck:
    """Cards by role id, in the catalog's order, each with its number of copies (at least 1)."""

    counts: tuple[tuple[str, int], ...]
    apart: tuple[tuple[str, int], ...] = ()  # set apart for a role (see game.SetApart): not dealt, not called
    # the Possibili the group chose and the deck was drawn from (a game whose rules let it choose
    # them, ``Game.chooses_possible``); empty: the rules' own for the players, if any
    possible: tuple[tuple[str, int], ...] = ()

    @property
    def size(self) -> int:
        """The cards dealt: one per player and the undealt ones (never those set apart)."""
        return sum(copies for _, copies in self.counts)

    @property
    def role_ids(self) -> frozenset[str]:
        return frozenset(role_id for role_id, _ in self.counts)

    def copies(self, role_id: str) -> int:
        return dict(self.counts).get(role_id, 0)

    @property
    def table_role_ids(self) -> frozenset[str]:
        """Every role on the table, the cards set apart included."""
        return self.role_ids | frozenset(role_id for role_id, _ in self.apart)

    def all_copies(self, role_id: str) -> int:
        """Copies of a role on the table, those set apart included: any of them may end in a hand."""
        return self.copies(role_id) + dict(self.apart).get(role_id, 0)

    def as_dict(self) -> dict[str, int]:
        return dict(self.counts)


def make_deck(game: Game, counts: Mapping[str, int], possible: Mapping[str, int] | None = None) -> Deck:
    """A deck from role id → copies, in catalog order; zero counts are dropped. Cards a role sets
    apart are taken from what the box has left, in the order its data gives (``check_deck``
    refuses the deck when the box has too few)."""
    dealt = tuple((role_id, counts[role_id]) for role_id in game.role_ids if counts.get(role_id, 0) > 0)
    left = {role.id: role.copies - counts.get(role.id, 0) for role in game.roles}
    apart: dict[str, int] = {}
    for role_id, _copies in dealt:
        rule = game.role(role_id).sets_apart
        if rule is None:
            continue
        for _ in range(rule.count):
            chosen = next((other for other in rule.roles if left.get(other, 0) > 0), None)
            if chosen is not None:
                left[chosen] -= 1
                apart[chosen] = apart.get(chosen, 0) + 1
    return Deck(dealt, tuple((role_id, apart[role_id]) for role_id in game.role_ids if role_id in apart),
                tuple((role_id, copies) for role_id in game.role_ids if (copies := (possible or {}).get(role_id, 0)) > 0))


def players_for(game: Game, deck: Deck) -> int:
    return deck.size - game.extra_cards


def check_players(game: Game, players: int) -> None:
    if not game.min_players <= players <= game.max_players:
        raise NarratorError(msg("{game} takes {low} to {high} players, not {players}: choose --players from {low} "
                                 "to {high}", game=game.title, low=game.min_players, high=game.max_players,
                                 players=players))


def check_deck(game: Game, deck: Deck, players: int | None = None, options: Mapping[str, bool] | None = None) -> int:
    """Raise ``DeckError`` naming the first rule ``deck`` breaks; return the number of players.
    A game whose rules draw its set also checks the deck against those rules, with ``options``
    (the game's defaults when None)."""
    for role_id, copies in deck.counts:
        role = game.role(role_id)
        if copies > role.copies:
            raise DeckError(plural("the box has only {count} '{role}' card, this deck has {copies}: remove {extra}",
                                   "the box has only {count} '{role}' cards, this deck has {copies}: remove {extra}",
                                   role.copies, role=role_id, copies=copies, extra=copies - role.copies))
    for role in game.roles:
        have = deck.copies(role.id)
        if role.in_deck == "all-copies" and have != role.copies:
            raise DeckError(msg("the deck must hold all {count} '{role}' cards, it has {have}: add {missing}",
                                 count=role.copies, role=role.id, have=have, missing=role.copies - have))
        if role.in_deck == "all-or-none" and have not in (0, role.copies):
            raise DeckError(msg("'{role}' cards go in together ({count}) or not at all, the deck has {have}: "
                                 "add {missing} or remove {have}", role=role.id, count=role.copies, have=have,
                                 missing=role.copies - have))
        clash = next((other for other, _ in deck.counts if have and excluded(game, role.id, other)), None)
        if clash is not None:
            raise DeckError(msg("'{role}' and '{other}' never play together: remove one of them", role=role.id,
                                 other=clash))
    needed_apart = sum(role.sets_apart.count for role in game.roles if role.sets_apart and deck.copies(role.id))
    if sum(copies for _, copies in deck.apart) < needed_apart:
        role, rule = next((role, role.sets_apart) for role in game.roles if role.sets_apart and deck.copies(role.id))
        raise DeckError(msg("'{role}' needs a card set apart ({roles}), but the deck takes every one the box has: "
                            "remove one of them", role=role.id, roles=", ".join(rule.roles)))
    if game.needs_side is not None and not any(game.role(role_id).side == game.needs_side
                                               for role_id in deck.role_ids):
        raise DeckError(msg("the deck needs at least one card of the side '{side}' ({roles}), or the night has no "
                            "enemy: add one", side=game.needs_side,
                            roles=", ".join(role.id for role in game.roles if role.side == game.needs_side)))
    if game.minority:
        few = sum(deck.copies(role_id) for role_id in game.minority)
        if not 0 < few < deck.size - few:
            raise DeckError(msg("the deck needs at least one of {roles}, and fewer of them than of the other cards "
                                "(it has {few} of {size})", roles=", ".join(game.minority), few=few, size=deck.size))
    if players is None:
        players = players_for(game, deck)
        if not game.min_players <= players <= game.max_players:
            low, high = game.min_players + game.extra_cards, game.max_players + game.extra_cards
            raise DeckError(msg("this deck has {cards} cards; {game} needs {low} to {high} (players + {extra})",
                                 cards=deck.size, game=game.title, low=low, high=high, extra=game.extra_cards))
    else:
        check_players(game, players)
        needed = players + game.extra_cards
        if deck.size != needed:
            change = needed - deck.size
            fix = (plural("add {count} role", "add {count} roles", change) if change > 0
                   else plural("remove {count} role", "remove {count} roles", -change))
            raise DeckError(msg("{players} players need {needed} cards; this deck has {cards}: {fix}",
                                 players=players, needed=needed, cards=deck.size, fix=fix))
    if game.draws_set:
        problem = game.drawn_set_rules.deck_problem(game, deck, game.option_defaults if options is None else options,
                                                    dict(deck.possible) or None)
        if problem is not None:
            raise DeckError(problem)
    return players


def recommended_deck(game: Game, players: int) -> Deck:
    check_players(game, players)
    return make_deck(game, game.recommended_decks[players])


def usual_deck(game: Game, players: int, options: Mapping[str, bool] | None = None) -> Deck:
    """A deck of ``players`` to measure and test a game by: its recommended deck, or for a game that
    draws its set the set drawn with seed 0 (always the same)."""
    if game.draws_set:
        import random

        return build_deck(game, players=players, rng=random.Random(0), options=options)[0]
    return recommended_deck(game, players)


def parse_deck_list(game: Game, text: str) -> Deck:
    """A deck from a comma list: ``"lupo-mannaro x2, veggente, 3 contadini"``.

    Each entry is a role (id or name in any language) with an optional count written
    ``x2``, ``×2``, ``*2`` after it or ``2``, ``2x`` before it.
    """
    counts: dict[str, int] = {}
    for entry in text.split(","):
        if entry.strip():
            role_id, copies = _parse_entry(game, entry.strip())
            counts[role_id] = counts.get(role_id, 0) + copies
    if not counts:
        raise DeckError(msg("the deck {deck!r} names no role: list roles with commas, like '{example}'", deck=text,
                            example=deck_example(game)))
    return make_deck(game, counts)


def deck_example(game: Game) -> str:
    """A deck list in this game's own ids, for messages: its smallest recommended deck's first roles."""
    counts = game.recommended_decks.get(game.min_players) or {role.id: 1 for role in game.roles}
    return ", ".join(role_id if copies == 1 else f"{role_id} x{copies}" for role_id, copies in list(counts.items())[:3])


# Counts are written in ASCII digits, at most three of them, and x in either case ("X2" too).
_COUNT_BEFORE = re.compile(r"^([0-9]{1,3})\s*[x×*]?\s+(.+)$|^([0-9]{1,3})[x×*](.+)$", re.IGNORECASE)
_COUNT_AFTER = re.compile(r"^(.+?)\s*[x×*:]\s*([0-9]{1,3})$|^(.+?)\s+([0-9]{1,3})$", re.IGNORECASE)


def _parse_entry(game: Game, entry: str) -> tuple[str, int]:
    name, copies = _split_count(entry)
    if copies < 1:
        raise DeckError(msg("'{entry}': a role in the deck needs at least 1 copy", entry=entry))
    return game.resolve_role(name), copies


def _split_count(entry: str) -> tuple[str, int]:
    """``"contadino x3"`` → ``("contadino", 3)``; no count written means one copy."""
    entry = entry.strip()
    if match := _COUNT_BEFORE.match(entry):
        return (match[2], int(match[1])) if match[1] else (match[4], int(match[3]))
    if match := _COUNT_AFTER.match(entry):
        return (match[1], int(match[2])) if match[1] else (match[3], int(match[4]))
    return entry, 1


def excluded(game: Game, role_id: str, other: str) -> bool:
    """Whether two roles may never share a deck (declared on either of them)."""
    return other in game.role(role_id).excludes or role_id in game.role(other).excludes


def deck_from_data(game: Game, data: object, source: str) -> tuple[Deck, int | None]:
    """A deck from parsed YAML: ``{role: copies}``, a list of entries, or ``{cards: ..., players: N}``.

    Returns the deck and the player count the file states, if it states one.
    """
    players = None
    if isinstance(data, Mapping) and "cards" in data:
        unknown = sorted(set(map(str, data)) - {"cards", "players"})
        if unknown:
            raise DeckError(msg("{file}: unknown field '{field}' (a deck file has 'cards' and 'players')",
                                 file=source, field=unknown[0]))
        players = data.get("players")
        if players is not None and (isinstance(players, bool) or not isinstance(players, int)):
            raise DeckError(msg("{file}: players: expected a whole number, got {value!r}", file=source,
                                 value=players))
        data = data["cards"]
    counts: dict[str, int] = {}
    if isinstance(data, Mapping):
        entries: Iterable[tuple[str, object]] = ((str(k), v) for k, v in data.items())
    elif isinstance(data, list):
        entries = (_list_item(item, source) for item in data)
    else:
        raise DeckError(msg("{file}: expected a deck (role: copies, or a list of roles), got {value!r}",
                             file=source, value=data))
    for name, copies in entries:
        try:
            role_id = game.resolve_role(name)
        except NarratorError as error:
            raise DeckError(msg("{file}: {error}", file=source, error=error)) from None
        if copies is None:
            copies = 1
        if isinstance(copies, bool) or not isinstance(copies, int) or copies < 1:
            raise DeckError(msg("{file}: {role}: expected a number of copies from 1, got {value!r}", file=source,
                                 role=name, value=copies))
        counts[role_id] = counts.get(role_id, 0) + copies
    if not counts:
        raise DeckError(msg("{file}: the deck names no role", file=source))
    return make_deck(game, counts), players


def _list_item(item: object, source: str) -> tuple[str, object]:
    if isinstance(item, str):
        return _split_count(item)
    if isinstance(item, Mapping) and len(item) == 1:
        ((name, copies),) = item.items()
        return str(name), copies
    raise DeckError(msg("{file}: expected a role name or 'role: copies', got {value!r}", file=source, value=item))


def adjust_deck(game: Game, deck: Deck, add: Iterable[str] = (), remove: Iterable[str] = ()) -> Deck:
    """``deck`` with one card of each role in ``add`` added and of each in ``remove`` taken out."""
    counts = deck.as_dict()
    for name in remove:
        role_id = game.resolve_role(name)
        if counts.get(role_id, 0) == 0:
            raise DeckError(msg("cannot remove '{role}': the deck has none", role=role_id))
        counts[role_id] -= 1
    for name in add:
        role_id = game.resolve_role(name)
        counts[role_id] = counts.get(role_id, 0) + 1
    return make_deck(game, counts)


def random_deck(game: Game, players: int, rng: "random.Random") -> Deck:
    """A legal deck for ``players`` drawn with ``rng``; the same seed gives the same deck."""
    check_players(game, players)
    units = list(deck_units(game))
    rng.shuffle(units)
    deck = first_legal_deck(game, players, units)
    if deck is None:
        raise DeckError(msg("no legal deck of {cards} cards can be made from the box",
                             cards=players + game.extra_cards))
    return deck


def deck_units(game: Game) -> tuple[tuple[str, int], ...]:
    """The box as the units a deck is built of: a card, or a set that goes in together (the Massoni),
    each with its size; every copy of a role, but none of the roles whose every copy is always in."""
    return tuple((role.id, role.copies if role.in_deck == "all-or-none" else 1)
                 for role in game.roles if role.in_deck != "all-copies"
                 for _ in range(1 if role.in_deck == "all-or-none" else role.copies))


def first_legal_deck(game: Game, players: int, units: Sequence[tuple[str, int]]) -> Deck | None:
    """The legal deck for ``players`` that takes ``units`` (``deck_units``, in any order) first in
    the order given, with the roles whose every copy is always in; None when there is none."""
    forced = {role.id: role.copies for role in game.roles if role.in_deck == "all-copies"}
    chosen = _fill(game, forced, list(units), players + game.extra_cards - sum(forced.values()))
    if chosen is None:
        return None
    deck = make_deck(game, chosen)
    check_deck(game, deck, players)
    return deck


def _fill(game: Game, counts: dict[str, int], units: list[tuple[str, int]], needed: int) -> dict[str, int] | None:
    """Depth-first: take units in their (shuffled) order while they fit, backtrack when stuck."""
    if needed == 0:
        return counts if _legal(game, counts) else None
    for index, (role_id, size) in enumerate(units):
        if size > needed or any(excluded(game, role_id, other) for other in counts):
            continue
        found = _fill(game, {**counts, role_id: counts.get(role_id, 0) + size}, units[index + 1:], needed - size)
        if found is not None:
            return found
    return None


def _legal(game: Game, counts: dict[str, int]) -> bool:
    try:
        check_deck(game, make_deck(game, counts))
    except NarratorError:
        return False
    return True


def build_deck(game: Game, *, players: int | None = None, base: Deck | None = None,
               add: Iterable[str] = (), remove: Iterable[str] = (),
               rng: "random.Random | None" = None, options: Mapping[str, bool] | None = None,
               possible: Mapping[str, int] | None = None) -> tuple[Deck, int]:
    """The deck a group asked for, checked against the rules, and the number of players.

    ``base`` is an explicit deck; without it the deck is the recommended one for ``players``,
    or a random legal one when ``rng`` is given (in a game whose rules draw the set, the set they
    draw with ``options``, among the ``possible`` roles when the group chose them).
    ``add``/``remove`` then adjust it one card each.
    """
    if possible is not None and not game.chooses_possible:
        raise NarratorError(msg("{game} does not take a list of possible roles: leave out --possible",
                                game=game.title))
    if base is not None and rng is not None:
        raise NarratorError(msg("--deck and --random do not mix: give the cards, or draw them at random"))
    if base is None:
        if players is None:
            raise NarratorError(msg("say how many are playing with --players N, or give the cards with --deck"))
        if game.draws_set:
            if rng is None:
                raise NarratorError(msg("{game} draws its set at random: add --random (and --seed N to draw one again), "
                                        "or give the cards with --deck", game=game.title))
            check_players(game, players)
            base = make_deck(game, game.drawn_set_rules.draw_deck(game, players, _options(game, options), possible,
                                                                  rng))
        else:
            base = random_deck(game, players, rng) if rng is not None else recommended_deck(game, players)
    deck = adjust_deck(game, base, add, remove)
    if possible is not None:
        deck = make_deck(game, deck.as_dict(), possible)
    return deck, check_deck(game, deck, players, options)


def _options(game: Game, options: Mapping[str, bool] | None) -> Mapping[str, bool]:
    return game.option_defaults if options is None else options


def possible_roles(game: Game, players: int, options: Mapping[str, bool] | None = None,
                   deck: Deck | None = None) -> tuple[str, ...]:
    """Every role the game's draw could deal to ``players`` (its Possibili), in the catalog's order:
    those the group chose for ``deck`` when it did; () for a game that does not draw its set."""
    if not game.draws_set:
        return ()
    if deck is not None and deck.possible:
        return tuple(role_id for role_id, _ in deck.possible)
    check_players(game, players)
    possible = set(game.drawn_set_rules.possible_roles(game, players, _options(game, options)))
    return tuple(role_id for role_id in game.role_ids if role_id in possible)
