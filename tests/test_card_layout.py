"""How large the speaker card's type is, for every shipped game: the card's blocks flow from the
front on to the back at the largest body size that fits both sides, never under 9 pt while more
pages can hold them (dev/card_sizes.py prints the README's table from the same layout).

The layout is measured without drawing (narrator.shell.cardpdf.Measure): these tests also check
that the lines it counts are the lines fpdf draws."""

import pytest
from fpdf.enums import MethodReturnValue

from narrator.core.card import Block, CardContent, deck_card, richest_card, variant_settings
from narrator.core.deck import usual_deck
from narrator.core.errors import NarratorError
from narrator.core.script import settings_for
from narrator.games.loader import available_games, load_game
from narrator.shell.cardpdf import (
    LARGEST,
    STEP,
    STYLES,
    Measure,
    _fragments,
    _indent,
    _markdown,
    _paginate,
    _size,
    lay_out,
    new_pdf,
)
from tests.conftest import GAMES_DIR
from tests.examples import load_examples

FLOOR = 9.0  # points: the least body size of a card, for every game and deck (issue 39, point 23)
SHIPPED = {game_id: load_game(GAMES_DIR / game_id) for game_id in available_games(GAMES_DIR)}
# Every game: the shipped ones and the smallest games of scripts/README.md, whose cards are short.
GAMES = {**SHIPPED, **load_examples()}
# Wherewolf Revised calls every turn of its Possibili, and a large table's Possibili are nearly the
# whole box: more than two A5 sides hold at 9 pt, so it takes more pages.
REVISED = "wherewolf-revised"
REVISED_TABLES = (*range(8, 15), 19, 27, 36)  # its sizes measured in every variant (64 of them)


@pytest.fixture(scope="module")
def a5():
    return Measure("a5")


def test_every_recommended_deck_in_every_variant_and_language_reads_at_9_points_on_a5(a5):
    """Every player count's recommended deck, with every combination of its game's options that
    count may play, in every language: the A5 card's body is 9 pt or more."""
    smaller = []
    for game_id, game in GAMES.items():
        tables = REVISED_TABLES if game_id == REVISED else range(game.min_players, game.max_players + 1)
        for players in tables:
            for lang in game.languages:
                for settings in variant_settings(game, players, lang):
                    try:
                        deck = usual_deck(game, players, settings.options)
                    except NarratorError:  # a variant this table cannot play (one moon seats 19 at most)
                        assert game_id == REVISED and players > 18
                        continue
                    layout = lay_out(deck_card(game, deck, players, settings), "a5", a5)
                    if layout is None or layout.body < FLOOR:
                        smaller.append((game_id, players, lang, dict(settings.options), layout and layout.body))
    assert smaller == []


@pytest.mark.parametrize("game_id, lang", [(game_id, lang) for game_id in GAMES for lang in GAMES[game_id].languages])
def test_the_richest_card_of_the_most_players_reads_at_9_points_on_a5(a5, game_id, lang):
    """The deck and variant whose card says the most, at the game's most players, in each of its languages."""
    game = GAMES[game_id]
    deck, settings = richest_card(game, game.max_players, lang)
    layout = lay_out(deck_card(game, deck, game.max_players, settings), "a5", a5)
    assert layout is not None and layout.body >= FLOOR


@pytest.mark.parametrize("game_id", GAMES)
def test_the_richest_card_prints_on_the_fewest_a5_pages_that_hold_it_at_9_points_as_large_as_they_hold(a5, game_id):
    """Both sides of the sheet when they hold it at 9 pt, else the fewest pages that do (one page
    fewer holds it at no readable size), at the largest type that fits them (one size up it does
    not fit), or at the largest of all for a short card."""
    game = GAMES[game_id]
    deck, settings = richest_card(game, game.max_players, sorted(game.languages)[0])
    content = deck_card(game, deck, game.max_players, settings)
    layout = lay_out(content, "a5", a5)
    assert layout is not None and layout.body >= FLOOR
    pages = len(layout.pages)
    assert pages == 2 or (pages > 2 and _paginate(content, "a5", FLOOR, a5, pages - 1) is None)
    assert layout.body == LARGEST or _paginate(content, "a5", layout.body + STEP, a5, pages) is None


@pytest.mark.parametrize("size", ["a6", "a5", "a4", "letter"])
def test_the_body_is_the_largest_size_at_which_the_card_fits(size):
    """One size up, the largest deck of each game no longer fits the sheet's pages it takes."""
    measure = Measure(size)
    for game in GAMES.values():
        deck = usual_deck(game, game.max_players)
        content = deck_card(game, deck, game.max_players, settings_for(game, sorted(game.languages)[-1]))
        layout = lay_out(content, size, measure)
        assert layout is not None and layout.body >= FLOOR, game.id
        pages = len(layout.pages)
        assert layout.body == LARGEST or _paginate(content, size, layout.body + STEP, measure, pages) is None, game.id


def content_of(*blocks: Block, front: int) -> CardContent:
    return CardContent(blocks[:front], blocks[front:], "{heading} (continued)")


def test_the_night_runs_on_to_the_back_under_its_heading_continued():
    """A night longer than the front: the front is filled, and the back opens with the night's
    heading again; a turn is never parted from the words said in it."""
    said = Block("said", parts=(("Seer, wake up and look at another player's card. " * 3, False),))
    night = [Block("heading", "The night")] + [block for number in range(1, 12)
                                               for block in (Block("role", "Seer", number, "Looks."), said)]
    content = content_of(Block("title", "Card"), *night, Block("heading", "The day"), Block("text", "Talk."),
                         front=len(night) + 1)
    layout = lay_out(content, "a6")
    front, back = layout.pages
    assert back[0] == Block("heading", "The night (continued)")
    assert front[-1].kind == "said" and back[1].kind == "role"
    assert front + back[1:] == content.front + content.back


def test_a_card_two_sides_hold_only_under_9_points_takes_more_pages():
    """Issue 39, point 23: more pages rather than type under 9 pt: the fewest that hold the card,
    at the largest size they hold; the night runs on under its heading page after page."""
    said = Block("said", parts=(("Seer, wake up and look at another player's card. " * 3, False),))
    night = [Block("heading", "The night")] + [block for number in range(1, 25)
                                               for block in (Block("role", "Seer", number, "Looks."), said)]
    content = content_of(Block("title", "Card"), *night, Block("heading", "The day"), Block("text", "Talk."),
                         front=len(night) + 1)
    measure = Measure("a6")
    assert _paginate(content, "a6", FLOOR, measure) is None  # two sides hold it only under 9 pt
    layout = lay_out(content, "a6", measure)
    pages = len(layout.pages)
    assert layout.body >= FLOOR and pages > 2
    assert _paginate(content, "a6", FLOOR, measure, pages - 1) is None
    assert layout.body == LARGEST or _paginate(content, "a6", layout.body + STEP, measure, pages) is None
    assert all(page[0] == Block("heading", "The night (continued)") for page in layout.pages[1:-1])
    assert Block("heading", "The day") in layout.pages[-1]
    assert [block for page in layout.pages for block in page if "continued" not in block.text] == [
        *content.front, *content.back]


def test_the_day_opens_the_back_when_the_night_fits_the_front():
    content = content_of(Block("title", "Card"), Block("heading", "The night"), Block("text", "Short."),
                         Block("heading", "The day"), Block("text", "Talk."), front=3)
    layout = lay_out(content, "a5")
    assert layout.body == LARGEST
    assert layout.pages == (content.front, content.back)


def test_a4_holds_both_sides_on_one_page():
    content = content_of(Block("title", "Card"), Block("text", "Night."), Block("heading", "Day"), front=2)
    assert lay_out(content, "a4").pages == (content.front + content.back,)


@pytest.mark.parametrize("size, lang", [("a6", "it"), ("a5", "en")])
def test_the_lines_measured_are_the_lines_fpdf_draws(size, lang):
    """Every block of each game's richest card, at a size on the steps and one between them."""
    measure = Measure(size)
    pdf = new_pdf(size)
    pdf.add_page()
    width = pdf.w - pdf.l_margin - pdf.r_margin
    differ = []
    for game in GAMES.values():
        deck, settings = richest_card(game, game.max_players, lang if lang in game.languages else min(game.languages))
        content = deck_card(game, deck, game.max_players, settings)
        for body in (7.3, 9.25):
            for block in content.front + content.back:
                if block.kind == "heading":  # one cell, never wrapped
                    continue
                style = STYLES[block.kind]
                pdf.set_font("DejaVuCond", "", _size(body, style))
                drawn = pdf.multi_cell(width - _indent(block, body), 1, _markdown(_fragments(block, style)),
                                       markdown=True, dry_run=True, output=MethodReturnValue.LINES)
                if measure.lines(block, body) != len(drawn):
                    differ.append((game.id, body, block))
    assert differ == []
