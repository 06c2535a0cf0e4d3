"""Lupus in Tabula's dawn, end and moderator's notes (its rules.py), one test per ruling of the digest."""

import pytest
from test_rounds import CARDS as TWELVE
from test_rounds import advance, settle_record, setup_of, votes_for

from narrator.core.rounds import DayStep, PhaseStep, Rounds, entry_for, notes_for
from narrator.core.state import State
from narrator.core.vote import Sentences
from narrator.games import GAMES_DIR
from narrator.games.loader import load_game


@pytest.fixture(scope="module")
def game():
    return load_game(GAMES_DIR / "lupus-in-tabula")


CARDS = {"Anna": "lupo-mannaro", "Bruno": "villico", "Carla": "veggente", "Dario": "guardia-del-corpo",
         "Elena": "criceto-mannaro", "Fabio": "lupo-mannaro", "Gina": "indemoniato", "Ugo": "villico",
         "Zoe": "gufo"}


def over(game, alive):
    """The end of a game at the table ``CARDS`` with only ``alive`` living."""
    state = State(3, tuple(CARDS), {}, {}, CARDS, tuple(name for name in CARDS if name not in alive))
    return game.rules.game_over(game, state)


def test_the_victim_dies(game):
    assert game.rules.night_deaths(game, CARDS, victim="Bruno") == (("Bruno",), (("eaten", "Bruno"),))


def test_the_guardia_protects_the_victim(game):
    assert game.rules.night_deaths(game, CARDS, victim="Bruno", protected="Bruno") == ((), (("protected", "Bruno"),))


def test_the_lupi_cannot_kill_the_criceto_and_then_nobody_dies(game):
    assert game.rules.night_deaths(game, CARDS, victim="Elena") == ((), (("survived", "Elena"),))


def test_a_criceto_seen_by_the_veggente_dies_with_the_victim_who_takes_the_benvenuto(game):
    dead, reasons = game.rules.night_deaths(game, CARDS, victim="Bruno", seen="Elena")
    assert dead == ("Elena", "Bruno")  # the night's victim last: the newest ghost holds the Benvenuto
    assert reasons == (("seen", "Elena"), ("eaten", "Bruno"))
    assert game.rules.night_deaths(game, CARDS, seen="Anna") == ((), ())  # a lupo seen is only nodded at


def test_the_gufo_kills_from_twenty_players_a_gufato_who_is_no_mannaro(game):
    assert game.rules.night_deaths(game, CARDS, gufato="Ugo", players=19) == ((), ())
    assert game.rules.night_deaths(game, CARDS, gufato="Ugo", players=20) == (("Ugo",), (("owl", "Ugo"),))
    for mannaro in ("Anna", "Elena"):  # a lupo or the criceto survives the Gufo Letale
        assert game.rules.night_deaths(game, CARDS, gufato=mannaro, players=24) == ((), ())
    dead, _reasons = game.rules.night_deaths(game, CARDS, victim="Bruno", gufato="Ugo", players=24)
    assert dead == ("Ugo", "Bruno")


def test_the_humans_win_when_every_lupo_is_dead_and_the_whole_side_wins(game):
    alive = {"Bruno", "Carla", "Dario", "Gina", "Ugo", "Zoe"}
    sides, winners = over(game, alive)
    assert sides == ("umani",)
    assert winners == ("Bruno", "Carla", "Dario", "Ugo", "Zoe")  # not the Indemoniato: he sides with the lupi


def test_the_lupi_win_when_as_many_as_the_humans_and_the_indemoniato_with_them(game):
    alive = {"Anna", "Fabio", "Bruno", "Gina"}  # two lupi, two humans (the Indemoniato counts as human)
    assert over(game, alive) == (("lupi",), ("Anna", "Fabio", "Gina"))
    assert over(game, alive | {"Ugo"}) is None  # two lupi, three humans: on


def test_a_living_criceto_is_the_only_winner_and_counts_as_human(game):
    alive = {"Anna", "Elena"}  # one lupo and the criceto: the lupi are as many as the humans
    assert over(game, alive) == (("criceto-mannaro",), ("Elena",))
    assert over(game, {"Anna", "Elena", "Bruno"}) is None  # 1 lupo, 2 humans
    assert over(game, {"Elena", "Bruno"}) == (("criceto-mannaro",), ("Elena",))


RULEBOOK = {"Andrea": "villico", "Bruno": "villico", "Carla": "veggente", "Daniela": "villico", "Elena": "medium",
            "Francesco": "villico", "Gianni": "lupo-mannaro", "Roberta": "villico", "Zeno": "lupo-mannaro"}


def test_a_record_settles_the_rulebooks_vote_with_the_benvenuto_from_the_night(game):
    """The rulebook's example as a game record: the lupi eat Francesco, who takes the Benvenuto;
    9 votes (8 living, 1 ghost): Andrea 3, Daniela 2, Roberta 2, Bruno 1, Carla 1: Daniela, closer
    clockwise to Francesco than Roberta, joins Andrea; the ballottaggio lynches Daniela 4 to 2."""
    nomination = {"Andrea": "Daniela", "Bruno": "Andrea", "Carla": "Andrea", "Daniela": "Andrea",
                  "Elena": "Roberta", "Francesco": "Roberta", "Gianni": "Daniela", "Roberta": "Bruno",
                  "Zeno": "Carla"}
    ballot = {"Bruno": "Daniela", "Carla": "Daniela", "Elena": "Andrea", "Gianni": "Daniela", "Roberta": "Andrea",
              "Zeno": "Daniela"}
    result = settle_record(game, RULEBOOK, {"night": {"veggente": "Zeno", "lupo-mannaro": "Francesco"}},
                          {"day": {"nomination": nomination, "ballot": ballot, "lynched": "Daniela"}},
                          {"night": {"veggente": "Gianni"}}, quiet_first_night=False)
    assert result == {"rounds": [{"night": 1, "dead": ["Francesco"], "answers": {"veggente": "wolf"}},
                                 {"day": 1, "dead": ["Daniela"], "lynched": "Daniela"},
                                 {"night": 2, "dead": [], "answers": {"medium": "not-wolf", "veggente": "wolf"}}],
                      "winner": None}


def test_a_lupus_record_is_refused_where_the_rules_forbid_it(game):
    from narrator.core.replay import ReplayError

    for rounds, error in (
            ([{"night": {"lupo-mannaro": "Andrea"}}], "round 1: lupo-mannaro: it does not act tonight"),  # quiet
            ([{"night": {"medium": "Andrea"}}], "round 1: medium: it is told, never written"),
            ([{"night": {"veggente": "Carla"}}], "round 1: veggente: 'Carla' is not one of"),  # himself
            ([{"night": {}}, {"day": {"lynched": None}}], "round 2: lynched: somebody is always lynched"),
            ([{"night": {}}, {"day": {"nomination": {"Andrea": "Bruno"}}}], "round 2: nomination: Bruno did not vote"),
            ([{"night": {"gufato": "Andrea"}}], "round 1: gufato: not a key of")):
        with pytest.raises(ReplayError, match=error.replace("(", r"\(")):
            settle_record(game, RULEBOOK, *rounds)


def test_the_owl_and_the_criceto_sentences_fit_any_player_in_italian(game):
    say = Sentences(game.languages["it"])
    assert say("forced", name="Elena") == "Il Gufo ha scelto Elena: è comunque tra gli indiziati."
    assert say("reason_owl", name="Elena", players=20) == (
        "Il Gufo ha scelto Elena, e con 20 giocatori il Gufo è letale: Elena muore.")
    assert say("reason_seen", name="Elena") == "Il Veggente ha scoperto il Criceto Mannaro, Elena, che muore."


def notes(game, state):
    """The moderator's notes for ``state`` in English and in Italian."""
    return [game.rules.notes(game, state, Sentences(game.languages[code])) for code in ("en", "it")]


def test_the_moderator_has_no_notes_before_the_first_night(game):
    rounds = Rounds(game, setup_of(game, TWELVE))
    assert notes(game, rounds.step.state) == [[], []]  # the rules' own start: no gufato, no mark
    assert notes_for(game, rounds.step.state, Sentences(game.languages["en"])) == ()


def test_the_moderator_notes_the_gufato_from_dawn_until_the_lynching(game):
    rounds = Rounds(game, setup_of(game, TWELVE))
    advance(rounds, lambda step: isinstance(step, DayStep), {(1, "gufo"): "Ugo"})
    assert notes(game, rounds.step.state) == [
        ["Marked by the Owl: Ugo, a suspect whatever the votes."],
        ["Gufato: Ugo, comunque tra gli indiziati."]]
    advance(rounds, lambda step: isinstance(step, PhaseStep) and step.state.night == 2, votes=votes_for("Anna"))
    night_two = rounds.step.state
    assert night_two.dead == ("Anna",)
    assert notes(game, night_two) == [[], []]  # the gufato is spent with the day; the lynched is on the table


def test_a_gufato_or_a_marked_player_who_dies_at_dawn_is_no_note(game):
    rounds = Rounds(game, setup_of(game, TWELVE, quiet_first_night=False))
    advance(rounds, lambda step: isinstance(step, DayStep), {(1, "gufo"): "Bruno", (1, "lupo-mannaro"): "Bruno"})
    assert rounds.step.state.dead == ("Bruno",)
    assert notes(game, rounds.step.state) == [[], []]
    rounds = Rounds(game, setup_of(game, TWELVE, minaccia_fantasma=True, quiet_first_night=False))
    advance(rounds, lambda step: isinstance(step, PhaseStep) and step.phase == "dawn" and step.state.night == 2,
            {(1, "lupo-mannaro"): "Bruno", (2, "gufo"): "Carla", (2, "lupo-mannaro"): "Carla"},
            votes=votes_for("Ugo"))
    rounds.enter(entry_for(rounds.step, choice={"sword": "Anna", "shield": "Carla"}))
    advance(rounds, lambda step: isinstance(step, DayStep))
    assert rounds.step.state.dead == ("Bruno", "Ugo", "Carla")
    assert notes(game, rounds.step.state) == [["The sword lies before Anna."], ["La spada è davanti ad Anna."]]


def test_the_moderator_notes_the_gufato_the_sword_and_the_shield_for_the_day(game):
    """La Minaccia Fantasma: Bruno (eaten) holds the sword, Ugo (lynched) the shield; at the second
    night's end they lay them before Anna and Nina, and the Gufo chose Elena."""
    rounds = Rounds(game, setup_of(game, TWELVE, minaccia_fantasma=True, quiet_first_night=False))
    advance(rounds, lambda step: isinstance(step, PhaseStep) and step.phase == "dawn" and step.state.night == 2,
            {(1, "lupo-mannaro"): "Bruno", (2, "gufo"): "Elena"}, votes=votes_for("Ugo"))
    assert notes(game, rounds.step.state) == [[], []]  # at night: nothing laid yet, the gufato in tonight's entries
    rounds.enter(entry_for(rounds.step, choice={"sword": "Anna", "shield": "Nina"}))
    advance(rounds, lambda step: isinstance(step, DayStep))
    assert notes(game, rounds.step.state) == [
        ["Marked by the Owl: Elena, a suspect whatever the votes.", "The sword lies before Anna.",
         "The shield lies before Nina."],
        ["Gufato: Elena, comunque tra gli indiziati.", "La spada è davanti ad Anna.", "Lo scudo è davanti a Nina."]]
    advance(rounds, lambda step: isinstance(step, PhaseStep) and step.state.night == 3, votes=votes_for("Elena"))
    assert rounds.step.state.dead == ("Bruno", "Ugo", "Elena")
    assert notes(game, rounds.step.state) == [[], []]  # the marks are picked up again at the lynching


def test_a_ballottaggio_asks_everyone_from_the_anchors_left_then_the_living_who_are_not_suspects(game):
    """Lupus in Tabula's own procedure (its rules.py), driven as the loop drives it."""
    from test_procedures import SEATING, intros, settle

    procedure = game.rules.NominationRunoff(SEATING, frozenset({"Bruno"}), anchor="Bruno", forced="Elena",
                                            plus="Anna")
    nomination = {"Carla": "Anna", "Dario": "Anna", "Elena": "Carla", "Anna": "Carla", "Bruno": "Dario"}
    runoff = {"Carla": "Elena", "Dario": "Anna"}
    asked, verdict = settle(procedure, nomination, runoff)
    assert [voter for round_name, voter, _c in asked if round_name == "nomination"] == ["Carla", "Dario", "Elena",
                                                                                       "Anna", "Bruno"]
    assert [(voter, candidates) for round_name, voter, candidates in asked if round_name == "runoff"] == [
        ("Carla", ("Anna", "Elena")), ("Dario", ("Anna", "Elena"))]  # the most voted (the sword's), and the forced
    assert verdict.lynched in ("Anna", "Elena") and not procedure.may_spare
    said = intros(procedure, nomination, runoff)
    assert [key for _round, key, _values in said] == ["round_nomination", "round_forced", "round_mark", "suspects",
                                                      "round_runoff"]
    assert said[2][2]["mark"].key == "mark_plus"
    assert {key for _round, key, _values in said} <= set(game.rules.SENTENCES)
