"""The kinds of entry (narrator.core.kinds): each defined once, its check, how a record writes it
and the form it shows, the same for every game."""

import pytest

from narrator.core.kinds import STOCK, RecordWords
from narrator.core.state import Ask
from narrator.games import GAMES_DIR
from narrator.games.loader import load_game

NAMES = ("Anna", "Bruno", "Carla")
WORDS = RecordWords(("sì", "yes"), ("no", "no"))


def test_the_stock_kinds_are_the_kinds_every_game_may_use():
    assert tuple(STOCK) == ("player", "players", "each", "yes-no", "choice", "told", "fields")


@pytest.mark.parametrize("written, flag", [("sì", True), ("Si", True), ("SÌ", True), ("yes", True), ("true", True),
                                           ("on", True), (True, True), ("no", False), ("off", False),
                                           (False, False), ("forse", None), (3, None)])
def test_a_record_writes_yes_and_no_in_the_game_s_words(written, flag):
    assert WORDS.flag(written) is flag


def test_the_words_are_the_languages_own():
    game = load_game(GAMES_DIR / "lupus-in-tabula")
    words = RecordWords.of(game.languages.values())
    assert set(words.yes) == {"sì", "yes"} and words.flag("Sì") is True and words.flag("nope") is None


@pytest.mark.parametrize("ask, written, parsed", [
    (Ask("k", "player", candidates=NAMES), " Anna ", "Anna"),
    (Ask("k", "players", candidates=NAMES), "Anna", ["Anna"]),
    (Ask("k", "players", candidates=NAMES), ["Anna", 7], ["Anna", "7"]),
    (Ask("k", "each", ("x", "y"), NAMES), {"x": "Bruno"}, {"x": "Bruno"}),
    (Ask("k", "yes-no"), "Sì", True),
    (Ask("k", "yes-no"), "forse", "forse"),  # handed on for the check to refuse
    (Ask("k", "choice", choices=("open", "closed")), "open", "open"),
])
def test_each_kind_reads_a_record_s_value_in_its_shape(ask, written, parsed):
    assert ask.of_kind.parse(ask, written, WORDS) == parsed


class Words:
    def optional(self, key, **values):
        return {"ask_k_x": "X sceglie", "choice_open": "aperta"}.get(key)


@pytest.mark.parametrize("ask, widget", [
    (Ask("k", "player", candidates=NAMES), "one"), (Ask("k", "players", candidates=NAMES), "several"),
    (Ask("k", "each", ("x",), NAMES), "each"), (Ask("k", "yes-no"), "pick"),
    (Ask("k", "choice", choices=("open",)), "pick"), (Ask("k", "fields", forms=((("turn", ("a",)),),)), "fields"),
])
def test_each_kind_describes_its_form_with_a_widget_the_terminal_and_the_page_draw(ask, widget):
    form = ask.of_kind.form(ask, "Q?", Words())
    assert form["kind"] == widget and form["question"] == "Q?"
    if widget == "each":
        assert form["parts"][0]["label"] == "X sceglie"
    if ask.kind == "choice":
        assert form["options"] == [{"label": "aperta", "value": "open"}]


def test_a_told_ask_has_no_form_and_nothing_is_entered():
    ask = Ask("k", "told", about="Anna")
    assert not ask.of_kind.entered and ask.check("Anna") is not None
    with pytest.raises(ValueError):
        ask.of_kind.form(ask, "", Words())


def test_an_ask_the_laptop_may_draw_offers_the_draw_where_nobody_would_be():
    """A token's first bearer (Wherewolf Revised's Amuleto and Spada): the moderator names him or
    lets the laptop draw one, at the terminal (Enter) and on the phone (a button of its own)."""
    drawn = Ask("k", "player", candidates=NAMES, required=True, drawn=True)
    form = drawn.of_kind.form(drawn, "Q?", Words())
    assert form["none"] is True and str(form["none_label"]) == "draw one at random"
    from narrator.shell.speakerbox.forms import fault, in_words, rendered

    shown = rendered(form)  # the phone's none button, and the laptop's line when it is tapped
    assert fault(shown, None) is None and in_words(shown, None) == "draw one at random"
    plain = Ask("k", "player", candidates=NAMES, required=True)
    assert plain.of_kind.form(plain, "Q?", Words())["none"] is False and "none_label" not in plain.of_kind.form(
        plain, "Q?", Words())
