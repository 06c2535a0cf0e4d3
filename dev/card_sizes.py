"""How large the speaker card's type is: the table in the README, measured again.

    python dev/card_sizes.py            # the README's table: each game's largest decks on every sheet
    python dev/card_sizes.py --sweep    # every player count's recommended deck, with every variant, on A5

A game's largest decks are its recommended deck at its most players, and the deck whose card says
the most at its most players: the box's cards taken richest first, in the options (the variant)
that say the most (``narrator.core.card.richest_card``). Sizes are the body type in points that ``narrate card``
would print at (the same layout, measured without drawing), with the pages a card takes where the
sheet's two sides (A4: its page) do not hold it at 9 pt; "—" is a deck that fits no readable size
on that sheet. The sweep prints the smallest A5 size of each game and every deck under the
floor the tests hold (``FLOOR``).
"""

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from narrator.core.card import deck_card, richest_card, variant_settings  # noqa: E402
from narrator.core.deck import usual_deck  # noqa: E402
from narrator.core.errors import NarratorError  # noqa: E402
from narrator.core.script import settings_for  # noqa: E402
from narrator.games.loader import available_games, load_game  # noqa: E402
from narrator.shell.cardpdf import SIZES, Measure, lay_out, sides  # noqa: E402

GAMES = ROOT / "scripts"
FLOOR = 9.0  # points on A5: every shipped game's recommended decks, in every variant (tests/test_card.py)


def layout(content, size: str, measures: dict) -> tuple[float, int] | None:
    """The body size and the pages of the card on ``size``, or None when it fits no readable size."""
    if size not in measures:
        measures[size] = Measure(size)
    laid = lay_out(content, size, measures[size])
    return None if laid is None else (laid.body, len(laid.pages))


def points(values: list, size: str) -> str:
    """A cell: the smallest size of the languages', and the most pages where that is more than the
    sheet's sides."""
    if None in values:
        return "—"
    smallest = f"{min(body for body, _pages in values):g}"
    pages = max(pages for _body, pages in values)
    return smallest if pages <= sides(size) else f"{smallest} ({pages} pages)"


def table() -> list[str]:
    """The README's table: for each game its recommended deck and its richest deck at its most
    players, the body size on every sheet (the smaller of its languages')."""
    measures: dict = {}
    rows = ["| game | deck | " + " | ".join(size.upper() if size != "letter" else "Letter" for size in SIZES) + " |",
            "|---|---|" + "---:|" * len(SIZES)]
    for game_id in available_games(GAMES):
        game = load_game(GAMES / game_id)
        players = game.max_players
        for kind in ("recommended", "richest"):
            sizes: dict[str, list[tuple[float, int] | None]] = {size: [] for size in SIZES}
            for lang in sorted(game.languages):
                if kind == "recommended":
                    deck, settings = usual_deck(game, players), settings_for(game, lang)
                else:
                    deck, settings = richest_card(game, players, lang)
                content = deck_card(game, deck, players, settings)
                for size in SIZES:
                    sizes[size].append(layout(content, size, measures))
            on = [name for name, value in settings.options.items() if value != game.option_defaults[name]]
            turns = len([slot for slot in game.slots_of_any_night(game.turn_roles(deck.as_dict(), settings.options),
                                                                  settings.options) if not slot.silent])
            name = "drawn (seed 0)" if kind == "recommended" and game.draws_set else kind
            described = f"{name}, {players} players, {turns} turns" + (f", {', '.join(on)}" if on else "")
            cells = [points(values, size) for size, values in sizes.items()]
            rows.append(f"| {game.title if kind == 'recommended' else ''} | {described} | " + " | ".join(cells) + " |")
    return rows


def sweep() -> list[str]:
    """Every player count's recommended deck in every variant and language, on A5: the smallest
    size of each game, and each deck under ``FLOOR``."""
    measures: dict = {}
    lines = []
    for game_id in available_games(GAMES):
        game = load_game(GAMES / game_id)
        smallest: tuple[float, str] | None = None
        for players in range(game.min_players, game.max_players + 1):
            for lang in sorted(game.languages):
                for settings in variant_settings(game, players, lang):
                    try:
                        deck = usual_deck(game, players, settings.options)
                    except NarratorError:  # a variant this table cannot play (one moon seats 19 at most)
                        continue
                    printed = layout(deck_card(game, deck, players, settings), "a5", measures)
                    size = printed[0] if printed else 0.0
                    on = ",".join(name for name, value in settings.options.items() if value) or "-"
                    where = f"{players} players, {lang}, options {on}" + (
                        f", {printed[1]} pages" if printed and printed[1] > 2 else "")
                    if smallest is None or size < smallest[0]:
                        smallest = (size, where)
                    if size < FLOOR:
                        lines.append(f"  under {FLOOR:g} pt: {game_id}, {where}: {size:g} pt")
        lines.append(f"{game_id}: smallest A5 body {smallest[0]:g} pt ({smallest[1]})")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sweep", action="store_true", help="every recommended deck and variant, on A5")
    arguments = parser.parse_args()
    print("\n".join(sweep() if arguments.sweep else table()))


if __name__ == "__main__":
    main()
