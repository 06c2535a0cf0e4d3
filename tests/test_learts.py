"""LeartS' variant (scripts/learts-variant/rules.py) settled by its game records: the digest's four
worked examples (shared/rules/learts-variant.md), one test per ruling, the records it refuses, and
whole random games played to the end that resume to the same result from any entry."""

import json
import random

import pytest
from test_rounds import dealt, random_entry, setup_of
from test_rounds import settle_record as settle

from narrator.core.replay import ReplayError
from narrator.core.rounds import ActStep, DayStep, Over, PhaseStep, Rounds, entry_for
from narrator.games import GAMES_DIR
from narrator.games.loader import load_game

GAME = "learts-variant"


@pytest.fixture(scope="module")
def game():
    return load_game(GAMES_DIR / GAME)


TABLE_A = {"Anna": "lupo-capobranco", "Bruno": "lupo-secondo", "Carla": "cortigiana", "Dario": "cacciatore",
           "Elena": "guardia", "Fabio": "ladro", "Gina": "medium", "Ivo": "ficcanaso", "Lea": "puritano",
           "Marco": "satanista"}
TABLE_B = {"Olga": "lupo-capobranco", "Piero": "lupo-docile", "Rita": "amante", "Sara": "amante", "Teo": "sindaco",
           "Ugo": "becchino", "Vera": "martire", "Walter": "guardia", "Zoe": "cortigiana"}


def night(result, number):
    return next(item for item in result["rounds"] if item.get("night") == number)


def day(result, number):
    return next(item for item in result["rounds"] if item.get("day") == number)


# --- the digest's worked examples -------------------------------------------------------------------

def test_example_1_the_big_haul(game):
    result = settle(game, TABLE_A, {"night": {"cortigiana": "Marco", "ladro": "Marco", "guardia": "Gina",
                                              "lupi": {"Anna": "Marco", "Bruno": "Dario"}, "ficcanaso": "Fabio",
                                              "medium": "Anna"}})
    assert result == {"rounds": [{"night": 1, "dead": ["Bruno", "Carla", "Fabio", "Marco"],
                                  "answers": {"cortigiana": "accolta", "ficcanaso": "fuori", "medium": "oscura"}}],
                      "winner": None}  # one lupo against five others: it goes on


def test_example_2_an_engaged_cacciatore_guarded(game):
    result = settle(game, TABLE_A, {"night": {"cortigiana": "Dario", "guardia": "Dario", "ladro": "Lea",
                                              "lupi": {"Anna": "Dario", "Bruno": "Lea"}}})
    assert night(result, 1) == {"night": 1, "dead": ["Fabio", "Lea"], "answers": {"cortigiana": "accolta"}}


def test_example_3_turned_away(game):
    result = settle(game, TABLE_A, {"night": {"cortigiana": "Lea", "guardia": "Carla",
                                              "lupi": {"Anna": "Lea", "Bruno": "Elena"}, "ficcanaso": "Carla"}})
    assert night(result, 1) == {"night": 1, "dead": ["Lea"], "answers": {"cortigiana": "respinta",
                                                                         "ficcanaso": "a-casa"}}


EXAMPLE_4 = ({"night": {"lupi": {"Olga": "Rita", "Piero": "Ugo"}, "guardia": "Ugo"}},
             {"day": {"lynched": "Vera"}},
             {"night": {"martire": "Rita", "cortigiana": "Ugo", "guardia": "Teo",
                        "lupi": {"Olga": "Teo", "Piero": "Ugo"}}},
             {"day": {"lynched": "Teo", "sindaco": "Teo"}})  # the digest's fourth example, but its last night


def test_example_4_lovers_becchino_martire_sindaco(game):
    result = settle(game, TABLE_B, *EXAMPLE_4,
                    {"night": {"guardia": "Teo", "lupi": {"Olga": "Walter", "Piero": "Rita"}}})
    assert result == {"rounds": [
        {"night": 1, "dead": ["Rita"], "answers": {}},
        {"day": 1, "dead": ["Vera"], "lynched": "Vera"},
        {"night": 2, "dead": ["Sara", "Ugo", "Zoe"], "answers": {"cortigiana": "accolta", "becchino": "chiara"},
         "revived": ["Rita"]},
        {"day": 2, "dead": [], "lynched": "Teo"},
        {"night": 3, "dead": ["Rita"], "answers": {}}],
        "winner": {"sides": ["lupi"], "players": ["Olga", "Piero"]}}


# --- one test per ruling ----------------------------------------------------------------------------

def test_a_cacciatore_not_engaged_is_safe_and_shoots_who_enters(game):
    result = settle(game, TABLE_A, {"night": {"guardia": "Dario", "ladro": "Dario",
                                              "lupi": {"Anna": "Dario", "Bruno": "Dario"}}})
    assert night(result, 1)["dead"] == ["Anna", "Bruno", "Elena", "Fabio"]  # both lupi, the guardia, the ladro
    assert result["winner"] == {"sides": ["villaggio"], "players": [name for name in TABLE_A
                                                                    if name not in ("Anna", "Bruno")]}


def test_a_lupo_protected_by_the_spirit_survives_the_shot_but_kills_nobody(game):
    table = {**TABLE_A, "Marco": "martire"}
    result = settle(game, table, {"night": {}}, {"day": {"lynched": "Marco"}},
                    {"night": {"martire": "Anna", "lupi": {"Anna": "Dario", "Bruno": "Lea"}}},
                    martire_protezione=True)
    assert night(result, 2)["dead"] == ["Lea"]  # Anna shot but protected; Dario unharmed


def test_an_engaged_guardia_protects_nothing_and_an_absent_owners_house_only_who_is_inside(game):
    engaged = settle(game, TABLE_A, {"night": {"cortigiana": "Elena", "lupi": {"Anna": "Gina"}}})
    assert night(engaged, 1)["dead"] == ["Gina"]
    with pytest.raises(ReplayError, match="round 1: guardia: it does not act tonight"):
        settle(game, TABLE_A, {"night": {"cortigiana": "Elena", "guardia": "Gina"}})
    # The guardia guards the ladro's house while the ladro is out at Gina's: Gina's house is attacked.
    away = settle(game, TABLE_A, {"night": {"guardia": "Fabio", "ladro": "Gina",
                                            "lupi": {"Anna": "Gina", "Bruno": "Fabio"}}})
    assert night(away, 1)["dead"] == ["Fabio", "Gina"]


def test_the_lovers_grief_comes_the_next_night_and_nothing_but_the_spirit_stops_it(game):
    table = {**TABLE_B, "Teo": "martire", "Vera": "sindaco"}
    result = settle(game, table, {"night": {"lupi": {"Olga": "Rita"}}}, {"day": {"lynched": "Teo"}},
                    {"night": {"guardia": "Sara"}})
    assert night(result, 1)["dead"] == ["Rita"] and night(result, 2)["dead"] == ["Sara"]  # the guardia cannot stop it
    spared = settle(game, table, {"night": {"lupi": {"Olga": "Rita"}}}, {"day": {"lynched": "Teo"}},
                    {"night": {"martire": "Sara"}}, {"day": {"lynched": "Olga"}}, martire_protezione=True)
    assert night(spared, 2)["dead"] == [] and spared["winner"] is None  # cancelled for good
    together = settle(game, table, {"night": {"lupi": {"Olga": "Rita", "Piero": "Sara"}}},
                      {"day": {"lynched": "Ugo"}}, {"night": {}})
    assert night(together, 2)["dead"] == []  # both died at once: no suicide


def test_a_burned_lover_grieves_the_partner_the_next_night(game):
    result = settle(game, TABLE_B, {"night": {}}, {"day": {"lynched": "Rita"}}, {"night": {}})
    assert day(result, 1)["dead"] == ["Rita"] and night(result, 2)["dead"] == ["Sara"]


def test_a_revived_lover_does_not_kill_himself_later(game):
    result = settle(game, TABLE_B, {"night": {"lupi": {"Olga": "Rita"}}}, {"day": {"lynched": "Vera"}},
                    {"night": {"martire": "Rita"}}, {"day": {"lynched": "Ugo"}}, {"night": {}})
    assert night(result, 2)["dead"] == ["Sara"] and night(result, 2)["revived"] == ["Rita"]
    assert night(result, 3)["dead"] == []


def test_the_martire_acts_only_after_his_burning_on_one_of_the_dead_and_may_skip(game):
    with pytest.raises(ReplayError, match="round 1: martire: it does not act tonight"):
        settle(game, TABLE_B, {"night": {"martire": "Rita"}})
    with pytest.raises(ReplayError, match="round 3: martire: 'Olga' is not one of Rita"):
        settle(game, TABLE_B, {"night": {"lupi": {"Olga": "Rita"}}}, {"day": {"lynched": "Vera"}},
               {"night": {"martire": "Olga"}})
    skipped = settle(game, TABLE_B, {"night": {"lupi": {"Olga": "Rita"}}}, {"day": {"lynched": "Vera"}},
                     {"night": {}})
    assert "revived" not in night(skipped, 2)
    with pytest.raises(ReplayError, match="round 3: martire: it does not act tonight"):  # saved by the sindaco
        settle(game, TABLE_B, {"night": {"lupi": {"Olga": "Rita"}}}, {"day": {"lynched": "Vera", "sindaco": "Vera"}},
               {"night": {"martire": "Rita"}})
    with pytest.raises(ReplayError, match="round 3: martire: it does not act tonight"):  # killed at night
        settle(game, TABLE_B, {"night": {"lupi": {"Olga": "Vera"}}}, {"day": {"lynched": "Zoe"}},
               {"night": {"martire": "Zoe"}})


def test_the_revived_player_is_not_in_danger_that_night(game):
    with pytest.raises(ReplayError, match="Olga: 'Zoe' is not one of"):  # dead at nightfall: in no house
        settle(game, TABLE_B, {"night": {"lupi": {"Olga": "Zoe"}}}, {"day": {"lynched": "Vera"}},
               {"night": {"martire": "Zoe", "lupi": {"Olga": "Zoe"}}})
    result = settle(game, TABLE_B, {"night": {"lupi": {"Olga": "Zoe"}}}, {"day": {"lynched": "Vera"}},
                    {"night": {"martire": "Zoe", "lupi": {"Olga": "Teo", "Piero": "Rita"}, "guardia": "Teo"}})
    assert result["rounds"][-1]["dead"] == ["Rita"] and result["rounds"][-1]["revived"] == ["Zoe"]


def test_the_becchino_learns_the_burned_players_aura_not_whether_a_lupo(game):
    table = {**TABLE_B, "Sara": "satanista", "Rita": "puritano"}
    dark = settle(game, table, {"night": {}}, {"day": {"lynched": "Sara"}}, {"night": {}})
    assert night(dark, 2)["answers"] == {"becchino": "oscura"}  # a satanista: dark, though no lupo
    docile = settle(game, table, {"night": {}}, {"day": {"lynched": "Piero"}}, {"night": {}})
    assert night(docile, 2)["answers"] == {"becchino": "chiara"}  # the lupo docile: light
    assert night(settle(game, table, {"night": {}}, {"day": {"lynched": None}}, {"night": {}}), 2)["answers"] == {}


def test_the_two_strongest_lupi_choose_and_the_docile_only_when_one_stronger_lives(game):
    table = {"Anna": "lupo-docile", "Bruno": "lupo", "Carla": "lupo", "Dario": "lupo-capobranco",
             **{name: "puritano" for name in ("Elena", "Fabio", "Gina", "Ivo", "Lea", "Marco", "Nino", "Olga")},
             "Pia": "guardia"}
    with pytest.raises(ReplayError, match="'Anna' is not one of Dario, Bruno"):
        settle(game, table, {"night": {"lupi": {"Anna": "Elena"}}})
    result = settle(game, table, {"night": {"lupi": {"Dario": "Elena", "Bruno": "Elena"}}},  # the same house: once
                    {"day": {"lynched": "Bruno"}}, {"night": {"lupi": {"Dario": "Fabio", "Carla": "Gina"}}},
                    {"day": {"lynched": "Carla"}}, {"night": {"lupi": {"Dario": "Ivo", "Anna": "Lea"}}})
    assert [item["dead"] for item in result["rounds"]] == [["Elena"], ["Bruno"], ["Fabio", "Gina"], ["Carla"],
                                                           ["Ivo", "Lea"]]
    with pytest.raises(ReplayError, match="Dario: 'Bruno' is not one of"):  # a lupo never picks a lupo
        settle(game, table, {"night": {"lupi": {"Dario": "Bruno"}}})


def test_the_ficcanaso_sees_a_guardia_without_a_choice_at_home(game):
    result = settle(game, TABLE_A, {"night": {"ficcanaso": "Elena", "medium": "Lea"}})
    assert night(result, 1)["answers"] == {"ficcanaso": "a-casa", "medium": "chiara"}


def test_a_monogamous_couple_turns_the_cortigiana_away(game):
    table = {**TABLE_B, "Ugo": "lupo"}
    faithful = settle(game, table, {"night": {"amanti": "monogama", "cortigiana": "Rita"}}, amanti_scelgono=True)
    assert night(faithful, 1)["answers"] == {"cortigiana": "respinta"}
    open_couple = settle(game, table, {"night": {"cortigiana": "Rita"}}, amanti_scelgono=True)
    assert night(open_couple, 1)["answers"] == {"cortigiana": "accolta"}  # no key: an open couple
    with pytest.raises(ReplayError, match="round 1: amanti: it does not act tonight"):
        settle(game, table, {"night": {"amanti": "monogama"}})


def test_a_dead_characters_turn_is_not_called(game):
    rounds = Rounds(game, setup_of(game, TABLE_A))
    phases = phases_of(rounds)
    assert phases == ["night", "cortigiana", "guardia", "ladro", "lupi", "ficcanaso", "medium", "dawn"]
    result = settle(game, TABLE_A, {"night": {"lupi": {"Anna": "Gina"}}}, {"day": {"lynched": "Carla"}},
                    {"night": {}})
    assert result["rounds"][1]["dead"] == ["Carla"]
    with pytest.raises(ReplayError, match="round 3: medium: it does not act tonight: Gina, who held its card, is "
                                          "out of the game"):  # the reason, not only the refusal
        settle(game, TABLE_A, {"night": {"lupi": {"Anna": "Gina"}}}, {"day": {"lynched": "Carla"}},
               {"night": {"medium": "Anna"}})


def test_the_vote_runs_off_the_tied_and_a_second_tie_burns_nobody(game):
    living = list(TABLE_A)
    first = {voter: ("Lea" if index % 2 else "Marco") for index, voter in enumerate(living)}  # 5 and 5
    result = settle(game, TABLE_A, {"night": {}},
                    {"day": {"votes": first, "runoff": {name: "Lea" for name in living if name not in ("Lea", "Marco")}}})
    assert day(result, 1) == {"day": 1, "dead": ["Lea"], "lynched": "Lea"}
    runoff = {name: ("Lea" if index % 2 else "Marco") for index, name in enumerate(
        [name for name in living if name not in ("Lea", "Marco")])}
    spared = settle(game, TABLE_A, {"night": {}}, {"day": {"votes": first, "runoff": runoff}})
    assert day(spared, 1) == {"day": 1, "dead": [], "lynched": None}
    with pytest.raises(ReplayError, match="lynched: the votes lynch Lea, not Marco"):
        settle(game, TABLE_A, {"night": {}}, {"day": {"votes": first, "lynched": "Marco", "runoff": {
            name: "Lea" for name in living if name not in ("Lea", "Marco")}}})


def test_the_sindaco_saves_once_per_game_only_the_condemned(game):
    table = {**TABLE_A, "Ivo": "sindaco"}
    result = settle(game, table, {"night": {}}, {"day": {"lynched": "Lea", "sindaco": "Lea"}}, {"night": {}},
                    {"day": {"lynched": "Lea"}})
    assert day(result, 1)["dead"] == [] and day(result, 2)["dead"] == ["Lea"]
    with pytest.raises(ReplayError, match="round 4: sindaco: it cannot be played today"):
        settle(game, table, {"night": {}}, {"day": {"lynched": "Lea", "sindaco": "Lea"}}, {"night": {}},
               {"day": {"lynched": "Marco", "sindaco": "Marco"}})
    with pytest.raises(ReplayError, match="sindaco: 'Marco' is not one of Lea"):
        settle(game, table, {"night": {}}, {"day": {"lynched": "Lea", "sindaco": "Marco"}})


def test_the_village_wins_when_no_lupo_lives_and_the_traditore_sides_with_the_lupi(game):
    table = {**TABLE_A, "Marco": "traditore"}
    result = settle(game, table, {"night": {}}, {"day": {"lynched": "Anna"}}, {"night": {}},
                    {"day": {"lynched": "Bruno"}})
    assert result["winner"] == {"sides": ["villaggio"],
                                "players": ["Carla", "Dario", "Elena", "Fabio", "Gina", "Ivo", "Lea"]}


@pytest.mark.parametrize("rounds, error", [
    ([{"day": {"lynched": "Anna"}}], "round 1: the game has come to a 'night' here, not a 'day': a record gives its rounds in turn"),
    ([{"night": {"veggente": "Anna"}}], "round 1: veggente: not a key of"),
    ([{"night": {"guardia": "Zorro"}}], "round 1: guardia: 'Zorro' is not one of"),
    ([{"night": {"guardia": "Elena"}}], "round 1: guardia: 'Elena' is not one of"),  # himself
    ([{"night": {"lupi": {"Anna": "Marco"}}}, {"day": {"lynched": "Marco"}}], "round 2: lynched: lynched 'Marco' is"),
    ([{"night": {"becchino": "Anna"}}], "round 1: becchino: it is told, never written"),
    ([{"night": {"lupi": {"Anna": "Bruno"}}}], "round 1: lupi: Anna: 'Bruno' is not one of"),
    ([{"night": {"lupi": {"Gina": "Marco"}}}], "round 1: lupi: 'Gina' is not one of Anna, Bruno"),
    ([{"night": {}}, {"day": {}}], "round 2: the day needs 'lynched' or the votes"),
    ([{"night": {}}, {"night": {}}], "round 2: the game has come to a 'day' here, not a 'night'"),
])
def test_a_record_the_rules_forbid_is_refused_naming_the_round_and_the_key(game, rounds, error):
    with pytest.raises(ReplayError, match=error.replace("(", r"\(")):
        settle(game, TABLE_A, *rounds)


def test_a_round_after_the_end_is_refused(game):
    with pytest.raises(ReplayError, match="round 2: the game was over after round 1"):
        settle(game, TABLE_A, {"night": {"guardia": "Dario", "ladro": "Dario", "lupi": {"Anna": "Dario",
                                                                                       "Bruno": "Dario"}}},
               {"day": {"lynched": "Lea"}})


# --- the moderator's notes --------------------------------------------------------------------------

def states_after(game, table, *rounds, **options):
    """The state after each round of a record (a dawn's, then a day's...), as the rules left it."""
    from narrator.core.replay import replay

    record = {"players": [{"name": name, "card": card} for name, card in table.items()],
              "options": {name.replace("_", "-"): "on" if value else "off" for name, value in options.items()},
              "rounds": list(rounds)}
    return [result.step.dawn.state if result.night is not None else result.step.dusk.state
            for result in replay(game, record, "record.yaml").rounds]


def notes_in(game, state, language):
    from narrator.core.rounds import notes_for
    from narrator.core.vote import Sentences

    return list(notes_for(game, state, Sentences(game.languages[language])))


def test_no_notes_before_the_first_night_nor_when_nothing_is_pending(game):
    from narrator.core.rounds import first_state

    start = first_state(game, setup_of(game, TABLE_B, amanti_scelgono=True))
    assert notes_in(game, start, "en") == notes_in(game, start, "it") == []
    haul = states_after(game, TABLE_A, {"night": {"cortigiana": "Marco", "ladro": "Marco", "guardia": "Gina",
                                                  "lupi": {"Anna": "Marco", "Bruno": "Dario"}}},
                        {"day": {"lynched": "Lea"}})
    assert [notes_in(game, state, language) for state in haul for language in ("en", "it")] == [[], [], [], []]
    chosen_open = states_after(game, TABLE_B, {"night": {"amanti": "aperta"}}, amanti_scelgono=True)[0]
    assert notes_in(game, chosen_open, "en") == []  # an open couple is the default: nothing to keep in mind


def test_the_notes_tell_the_grieving_lover_a_faithful_couple_and_the_pardon_spent(game):
    after = states_after(game, TABLE_B, {"night": {"amanti": "monogama", "lupi": {"Olga": "Rita"}}},
                         {"day": {"lynched": "Vera", "sindaco": "Vera"}}, {"night": {}}, amanti_scelgono=True)
    assert [notes_in(game, state, "en") for state in after] == [
        ["Sara will die of grief at the next dawn.",
         "The Lovers are a faithful couple: they turn the Courtesan away."],
        ["Sara will die of grief at the next dawn.",
         "The Lovers are a faithful couple: they turn the Courtesan away.",
         "The Mayor's one pardon of the game is spent."],
        ["The Mayor's one pardon of the game is spent."]]  # Sara died of grief: no lover left
    assert [notes_in(game, state, "it") for state in after] == [
        ["Sara morirà di dolore alla prossima alba.",
         "Gli Amanti sono una coppia monogama: respingono la Cortigiana."],
        ["Sara morirà di dolore alla prossima alba.",
         "Gli Amanti sono una coppia monogama: respingono la Cortigiana.",
         "Il Sindaco ha già concesso la sua unica grazia."],
        ["Il Sindaco ha già concesso la sua unica grazia."]]


def test_a_burned_lovers_partner_is_noted_until_the_grief_comes(game):
    after = states_after(game, TABLE_B, {"night": {}}, {"day": {"lynched": "Rita"}}, {"night": {}})
    assert [notes_in(game, state, "en") for state in after] == [
        [], ["Sara will die of grief at the next dawn."], []]
    assert notes_in(game, after[1], "it") == ["Sara morirà di dolore alla prossima alba."]
    burned = states_after(game, TABLE_B, {"night": {"lupi": {"Olga": "Rita"}}}, {"day": {"lynched": "Sara"}})
    assert notes_in(game, burned[1], "en") == []  # the griever burned first: nothing left to happen


def test_the_notes_of_the_digests_fourth_example(game):
    after = states_after(game, TABLE_B, *EXAMPLE_4)
    assert [notes_in(game, state, "en") for state in after] == [
        ["Sara will die of grief at the next dawn."], ["Sara will die of grief at the next dawn."],
        [],  # Sara died, Rita came back: a revived lover grieves nobody
        ["The Mayor's one pardon of the game is spent."]]
    assert notes_in(game, after[3], "it") == ["Il Sindaco ha già concesso la sua unica grazia."]


def test_a_note_that_no_longer_matters_is_dropped(game):
    table = {**TABLE_A, "Ivo": "sindaco"}
    mayor = states_after(game, table, {"night": {}}, {"day": {"lynched": "Ivo", "sindaco": "Ivo"}},
                         {"night": {"lupi": {"Anna": "Ivo"}}})
    assert [notes_in(game, state, "en") for state in mayor] == [
        [], ["The Mayor's one pardon of the game is spent."], []]  # the sindaco is dead: his pardon no longer matters
    no_courtesan = states_after(game, TABLE_B, {"night": {"amanti": "monogama", "lupi": {"Olga": "Zoe"}}},
                                amanti_scelgono=True)[0]
    assert notes_in(game, no_courtesan, "en") == notes_in(game, no_courtesan, "it") == []


# --- whole games ------------------------------------------------------------------------------------

def phases_of(rounds):
    seen = []
    while isinstance(rounds.step, PhaseStep):
        seen.append(rounds.step.phase)
        rounds.enter(entry_for(rounds.step))
    return seen


def lupi_and_others(game, state):
    lupi = [name for name in state.living if game.role(state.cards[name]).trait("lupo")]
    return lupi, [name for name in state.living if name not in lupi]


@pytest.mark.parametrize("players", [8, 10, 13, 15, 17, 20, 24])
def test_whole_random_games_end_as_the_digest_says_and_resume_from_any_entry(game, players):
    for seed in range(8):
        rng = random.Random(players * 1000 + seed)
        options = {"martire_protezione": seed % 2 == 1, "amanti_scelgono": seed % 3 == 0}
        setup = setup_of(game, dealt(game, players, rng), **options)
        rounds = Rounds(game, setup)
        for _entry in range(5000):
            step = rounds.step
            if isinstance(step, Over):
                break
            json.dumps(step.state.as_dict())  # the state is plain values
            if isinstance(step, DayStep):  # no day once a side has won
                lupi, others = lupi_and_others(game, step.state)
                assert lupi and len(lupi) < len(others)
            if isinstance(step, ActStep):
                assert step.ask.candidates == (step.verdict.lynched,)
            rounds.enter(random_entry(step, rng))
        over = rounds.step
        assert isinstance(over, Over)
        lupi, others = lupi_and_others(game, over.state)
        side = "villaggio" if not lupi else "lupi"
        assert (not lupi or len(lupi) >= len(others)) and over.sides == (side,)
        assert over.winners == tuple(name for name in setup.seating if game.role(setup.cards[name]).side == side)
        cut = rng.randrange(len(rounds.entries))
        resumed = Rounds(game, setup, rounds.entries[:cut])  # killed at any entry, resumed where it was
        for entry in rounds.entries[cut:]:
            resumed.enter(entry)
        assert resumed.step == over


@pytest.mark.parametrize("players", range(8, 25))
def test_every_recommended_deck_is_the_digests_and_legal(game, players):
    from narrator.core.deck import check_deck, recommended_deck

    deck = recommended_deck(game, players)
    assert check_deck(game, deck, players) == players
    cards = deck.as_dict()
    lupi = sum(copies for role_id, copies in cards.items() if game.role(role_id).trait("lupo"))
    assert cards["lupo-capobranco"] == cards["lupo-secondo"] == 1
    assert lupi == (2 if players < 13 else 3 if players < 18 else 4 if players < 21 else 5)  # the digest's table
    assert cards.get("amante", 0) in (0, 2)


@pytest.mark.parametrize("cards, error", [
    ({"medium": 1, "ficcanaso": 1, "guardia": 1, "cortigiana": 1, "cacciatore": 1, "ladro": 1, "traditore": 1,
      "puritano": 1}, "at least one of lupo-capobranco"),  # the traditore is no lupo
    ({"lupo-capobranco": 1, "lupo-secondo": 1, "lupo": 2, "medium": 1, "puritano": 3}, "fewer of them than"),
    ({"lupo-capobranco": 1, "lupo-secondo": 1, "amante": 1, "medium": 1, "puritano": 4}, "'amante' cards go in "
                                                                                         "together"),
])
def test_an_illegal_deck_is_refused(game, cards, error):
    from narrator.core.deck import DeckError, check_deck, make_deck

    with pytest.raises(DeckError, match=error):
        check_deck(game, make_deck(game, cards), 8)
