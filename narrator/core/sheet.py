"""What the moderator's sheet says (``narrate card --sheet``): a pure function of the game, the
deck, the options and the seating.

A game with a moderator keeps its night on the moderator's card; the sheet is the paper the
moderator marks as the game goes: the seating, with each player's card (where narrate dealt it, or
a blank to fill in by hand), and a grid of the nights and one of the days whose columns are the
game's own, from its data (game.yaml's ``sheet:``, the columns that apply to the deck and the
options): who was protected, seen, killed, lynched. Layout and fonts are ``narrator.shell.sheetpdf``'s business.
"""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from narrator.core.deck import Deck
from narrator.core.game import Game


@dataclass(frozen=True)
class Seat:
    number: int  # clockwise from the first player named
    name: str  # "" when the names are written in by hand
    card: str  # the card's name in the game's language; "" when it is written in by hand


@dataclass(frozen=True)
class SheetContent:
    title: str
    deck: str  # "The deck: 12 players, 12 cards"
    cards: str  # "2× Werewolf, 1× Seer, ..."
    seating: str  # the seating's heading
    seat_headers: tuple[str, str, str, str]  # seat, player, card, notes
    seats: tuple[Seat, ...]
    nights: str  # the nights' heading
    night: str  # the word before each night's number
    night_columns: tuple[str, ...]
    days: str
    day: str
    day_columns: tuple[str, ...]


def has_sheet(game: Game, deck: Deck, options: Mapping[str, bool]) -> bool:
    """Whether this game, as these options play it, has a moderator, and its data a sheet for them."""
    return bool(game.sheet) and game.moderated(deck.role_ids, options)


def sheet_content(game: Game, deck: Deck, lang: str, options: Mapping[str, bool], players: int,
                  names: Sequence[str] | None = None, cards: Mapping[str, str] | None = None) -> SheetContent:
    """The sheet for ``deck`` (``has_sheet`` must hold): ``players`` seats, named in order by
    ``names`` (blank to write in when None), with ``cards`` (name: role id, as dealt) or blank."""
    language = game.languages[lang]
    texts = language.card
    columns = [column for column in game.sheet if column.when is None or column.when.holds(deck.role_ids, options)]
    listed = ", ".join(f"{copies}× {language.role_name(role_id)}" for role_id, copies in deck.counts)
    seats = tuple(Seat(number, names[number - 1] if names else "",
                       language.role_name(cards[names[number - 1] if names else str(number)]) if cards else "")
                  for number in range(1, players + 1))
    return SheetContent(
        title=f"{game.title} · {texts['sheet_title']}",
        deck=texts["deck"].format(players=players, cards=deck.size),
        cards=listed,
        seating=texts["sheet_seating"],
        seat_headers=(texts["sheet_seat"], texts["sheet_player"], texts["sheet_card"], texts["sheet_notes"]),
        seats=seats,
        nights=texts["sheet_nights"],
        night=texts["sheet_night"],
        night_columns=tuple(texts[column.key] for column in columns if column.moment == "night"),
        days=texts["sheet_days"],
        day=texts["sheet_day"],
        day_columns=tuple(texts[column.key] for column in columns if column.moment == "day"),
    )
