"""Wherewolf Revised's rules (scripts/wherewolf-revised/rules.py) against the digest
(shared/rules/wherewolf-revised.md): its four worked examples settled by ``narrate replay``, then
one record per ruling, and the records the digest refuses."""

from types import MappingProxyType

import pytest
import yaml
from test_procedures import SEATING
from test_procedures import settle as voted
from test_rounds import settle_record

from narrator.core.replay import ReplayError, replay
from narrator.games import GAMES_DIR
from narrator.games.loader import load_game
from narrator.shell.translation import load_catalog

WR = "wherewolf-revised"
EXAMPLES = {
    "strega": """\
players:
  - {name: Oscar, card: capo-branco}
  - {name: Piero, card: angelo-custode}
  - {name: Ilaria, card: contadino}
  - {name: Sofia, card: strega}
  - {name: Vera, card: veggente}
  - {name: Ugo, card: lupo-del-branco}
  - {name: Marco, card: mago}
  - {name: Nina, card: contadino}
rounds:
  - night: {angelo-custode: Ilaria}
  - day: {lynched: null}
  - night: {strega: Ilaria, lupi-mannari: Ilaria}
""",
    "vampiro": """\
players:
  - {name: Rita, card: vampiro}
  - {name: Sara, card: traditore}
  - {name: Vera, card: veggente}
  - {name: Oscar, card: capo-branco}
  - {name: Otto, card: oste}
  - {name: Carla, card: contadino}
  - {name: Dino, card: contadino}
  - {name: Marco, card: mago}
rounds:
  - night: {}
  - day: {lynched: null}
  - night: {vampiro: Sara}
  - day: {lynched: null}
  - night: {veggente: Sara}
""",
    "giovane-lupo": """\
players:
  - {name: Oscar, card: capo-branco}
  - {name: Ugo, card: giovane-lupo}
  - {name: Vera, card: veggente}
  - {name: Zeno, card: contadino-eroe}
  - {name: Anna, card: strega}
  - {name: Bruno, card: mago}
  - {name: Carla, card: contadino}
  - {name: Dino, card: guaritore}
rounds:
  - night: {}
  - day: {lynched: null}
  - night: {}
  - day: {lynched: Ugo}
  - night: {lupi-mannari: [Vera, Zeno]}
""",
    "accuse": """\
players:
  - {name: Rosa, card: bocca-di-rosa}
  - {name: Marco, card: contadino}
  - {name: Nina, card: contadino}
  - {name: Teo, card: mercante}
  - {name: Vera, card: veggente}
  - {name: Oscar, card: capo-branco}
  - {name: Ugo, card: lupo-del-branco}
  - {name: Sofia, card: strega}
  - {name: Bruno, card: mago}
rounds:
  - night: {}
  - day:
      accusation: {Teo: [Rosa, Marco], Vera: Rosa, Sofia: Rosa, Bruno: Rosa, Oscar: Rosa, Ugo: Marco, Nina: Marco,
                   Rosa: Nina, Marco: Nina}
      ballottaggio: {Ugo: Marco, Nina: Marco, Oscar: Marco, Teo: Rosa, Vera: Rosa, Sofia: Rosa, Bruno: Rosa}
""",
}


@pytest.fixture(scope="module")
def game():
    return load_game(GAMES_DIR / WR)


def settle(game, text):
    return replay(game, yaml.safe_load(text), "record.yaml")


def records(cards, *rounds, **options):
    return {"players": [{"name": n, "card": c} for n, c in cards.items()],
            "options": {name: on if isinstance(on, str) else "on" if on else "off" for name, on in options.items()},
            "rounds": list(rounds)}


def test_example_1_the_witch_shelters_the_beloved_and_nobody_dies(game):
    result = settle(game, EXAMPLES["strega"])
    night = result.rounds[-1]
    assert night.dead == () and ("protected", "Ilaria") in night.reasons
    assert not any(reason == "angel" for reason, _name in night.reasons)  # protected: no redirect


def test_example_2_the_vampire_turns_the_traitor_and_the_seer_sees_him_dark(game):
    result = settle(game, EXAMPLES["vampiro"]).as_dict()
    assert [night["dead"] for night in result["rounds"][::2]] == [[], [], []]
    assert result["rounds"][4]["answers"] == {"veggente": "dark", "oste": "rumour"}
    assert result["winner"] is None


def test_example_3_the_young_wolf_burned_two_attacks_and_the_hero_takes_the_leader(game):
    result = settle(game, EXAMPLES["giovane-lupo"]).as_dict()
    assert result["rounds"][3] == {"day": 2, "dead": ["Ugo"], "lynched": "Ugo"}
    assert result["rounds"][4]["dead"] == ["Oscar", "Vera", "Zeno"]
    # The end is looked for at the day's start: no creature left, the Men win, the Village whole.
    assert result["winner"] == {"sides": ["villaggio"], "players": ["Vera", "Zeno", "Anna", "Bruno", "Carla", "Dino"]}


def test_example_4_the_rose_halved_and_the_merchant_accusing_two(game):
    result = settle(game, EXAMPLES["accuse"])
    day = result.rounds[1]
    tallies = day.step.verdict.tallies
    assert {name: count for name, count in tallies["accusation"].items() if count} == {"Rosa": 3, "Marco": 3,
                                                                                      "Nina": 2}
    assert dict(tallies["runoff"]) == {"Rosa": 2, "Marco": 3}  # Rosa's 4 halved; she, accused, may not vote
    assert (day.lynched, day.dead) == ("Marco", ("Marco",))


def test_example_4_given_as_the_hands_counted_for_each_name(game):
    """Issue 39, point 10: the accusations as the moderator counts them, calling each name (Rosa 5
    hands, the Mercante's two among them), the counts adjusted as each vote's would be."""
    record = yaml.safe_load(EXAMPLES["accuse"])
    ballot = record["rounds"][1]["day"]["ballottaggio"]
    record["rounds"][1] = {"day": {"hands": {"accusation": {"Rosa": 5, "Marco": "3", "Nina": 2}},  # read as text too
                                   "ballottaggio": ballot}}
    day = replay(game, record, "record.yaml").rounds[1]
    tallies = day.step.verdict.tallies
    assert {name: count for name, count in tallies["accusation"].items() if count} == {"Rosa": 3, "Marco": 3,
                                                                                      "Nina": 2}
    assert dict(tallies["runoff"]) == {"Rosa": 2, "Marco": 3}
    assert (day.lynched, day.dead) == ("Marco", ("Marco",))


@pytest.mark.parametrize("day, refusal", [
    ({"hands": {"accusation": {"Rosa": 18}}}, "round 2: hands: 18 hands, but the voters have 17 at most"),
    ({"hands": {"accusation": {"Zeno": 1}}}, "round 2: hands: hands 'Zeno' is not one of Rosa, Marco"),
    ({"hands": {"accusation": {"Rosa": "five"}}}, "round 2: hands: the hands are a count for each name, 0 or more"),
    ({"hands": {"ballottaggio": {"Rosa": 1}}, "accusation": "as in the example"},
     "round 2: hands: 'ballottaggio' is not counted by hands here: accusation"),
    ({"hands": {"accusation": {"Rosa": 5}}, "accusation": {"Rosa": "Marco"}},
     "round 2: accusation: given as hands and as votes: one or the other"),
    ({"hands": ["Rosa"]}, "round 2: hands: a mapping of round: the hands counted for each name"),
])
def test_hands_a_record_cannot_count_are_refused_in_one_line(game, day, refusal):
    record = yaml.safe_load(EXAMPLES["accuse"])
    example = record["rounds"][1]["day"]
    record["rounds"][1] = {"day": {key: example[key] if value == "as in the example" else value
                                   for key, value in day.items()}}
    with pytest.raises(ReplayError) as refused:
        replay(game, record, "record.yaml")
    assert str(refused.value).startswith(f"record.yaml: {refusal}")


def test_the_accusations_counted_by_hands_go_to_the_angel_and_keep_an_accused_orator_silent(game):
    """The Amato's hands go to his Angelo; the Oratore among the accused signals nobody (day_asks
    reads the hands as it reads the votes)."""
    cards = table(Carla="angelo-custode", Dino="oratore")
    hands = {"hands": {"accusation": {"Gina": 5, "Dino": 3}}, "ballottaggio": {"Anna": "Carla", "Bruno": "Carla",
                                                                                "Elsa": "Dino", "Fabio": "Carla",
                                                                                "Gina": "Carla", "Ivo": "Dino"}}
    day = replay(game, records(cards, {"night": {"angelo-custode": "Gina"}}, {"day": hands}), "record.yaml").rounds[1]
    assert {name: count for name, count in day.step.verdict.tallies["accusation"].items() if count} == {
        "Carla": 5, "Dino": 3}
    assert day.lynched == "Carla"  # the Oratore, accused, was not asked whom he signals: nobody is spared
    signal = {**hands, "oratore": ["Carla"]}
    with pytest.raises(ReplayError, match="round 2: oratore: it cannot be played today"):
        replay(game, records(cards, {"night": {"angelo-custode": "Gina"}}, {"day": signal}), "record.yaml")


def test_a_game_saved_before_the_hands_could_be_counted_resumes(game):
    """A game saved when the accusations were only given vote by vote (no entry of kind 'hands'
    before them) resumes as if each vote had been chosen."""
    from test_rounds import advance

    from narrator.core.procedures import HandsStep
    from narrator.core.rounds import Rounds, Setup

    deck = {card: list(TABLE.values()).count(card) for card in TABLE.values()}
    setup = Setup(tuple(TABLE), MappingProxyType(deck), MappingProxyType(dict(game.option_defaults)),
                  MappingProxyType(TABLE))
    rounds = Rounds(game, setup)
    advance(rounds, lambda step: step.kind == "lynch", votes=lambda step: step.candidates[0])
    assert any(entry["kind"] == "hands" for entry in rounds.entries)
    old = [entry for entry in rounds.entries if entry["kind"] != "hands"]
    resumed = Rounds(game, setup, old)
    assert resumed.step == rounds.step and resumed.entries == rounds.entries
    assert not isinstance(resumed.step, HandsStep)


# --- one record per ruling ------------------------------------------------------------------------------

TABLE = {"Anna": "veggente", "Bruno": "capo-branco", "Carla": "contadino", "Dino": "strega", "Elsa": "mago",
         "Fabio": "lupo-del-branco", "Gina": "contadino", "Ivo": "guaritore"}


def table(**changes):
    """TABLE with some players' cards changed (and players added)."""
    return {**TABLE, **changes}


def night_dead(result, night):
    return next(item for item in result["rounds"] if item.get("night") == night)["dead"]


def test_the_wolves_on_the_beloved_kill_the_guardian_angel_instead(game):
    result = settle_record(game, table(Carla="angelo-custode"), {"night": {"angelo-custode": "Gina"}},
                           {"day": {"lynched": None}}, {"night": {"lupi-mannari": "Gina"}})
    assert night_dead(result, 2) == ["Carla"]


def test_the_beloved_cannot_be_burned_while_his_angel_is_in_play(game, tmp_path):
    """The refusal says why, in the game's words, in both languages (issue 39, point 12)."""
    record = {"players": [{"name": name, "card": card} for name, card in table(Carla="angelo-custode").items()],
              "rounds": [{"night": {"angelo-custode": "Gina"}}, {"day": {"lynched": "Gina"}}]}
    with pytest.raises(ReplayError) as refused:
        replay(game, record, "record.yaml")
    assert str(refused.value) == ("record.yaml: round 2: lynched: Gina is the Guardian Angel's Beloved, and his "
                                  "Angel, Carla, is in play: the Angel is accused and burned in his place")
    italian = refused.value.message.render(load_catalog("it", tmp_path))
    assert italian.endswith("lynched: Gina è l'Amato dell'Angelo Custode, e il suo Angelo, Carla, è in gioco: è "
                            "l'Angelo a essere accusato e bruciato al suo posto")


def test_accusations_on_the_beloved_go_to_the_angel(game):
    votes = {name: "Gina" for name in table(Carla="angelo-custode")}
    result = replay(game, {"players": [{"name": n, "card": c} for n, c in table(Carla="angelo-custode").items()],
                           "rounds": [{"night": {"angelo-custode": "Gina"}}, {"day": {"accusation": votes}}]},
                    "record.yaml")
    assert result.rounds[1].lynched == "Carla"  # every hand on the Beloved: his Angelo burns at once


def test_romeo_is_safe_while_juliet_lives_and_the_lovers_die_together(game):
    cards = table(Carla="giulietta")
    safe = settle_record(game, cards, {"night": {"giulietta": "Gina"}}, {"day": {"lynched": None}},
                         {"night": {"lupi-mannari": "Gina"}})
    assert night_dead(safe, 2) == []
    together = settle_record(game, cards, {"night": {"giulietta": "Gina"}}, {"day": {"lynched": None}},
                             {"night": {"lupi-mannari": "Carla"}})
    assert night_dead(together, 2) == ["Carla", "Gina"]


def test_a_lover_burned_takes_the_other_at_the_next_dawn_unless_the_healer_saves_him(game):
    cards = table(Carla="giulietta")
    grief = settle_record(game, cards, {"night": {"giulietta": "Gina"}}, {"day": {"lynched": "Carla"}},
                          {"night": {}})
    assert grief["rounds"][1]["dead"] == ["Carla"] and night_dead(grief, 2) == ["Gina"]
    saved = settle_record(game, cards, {"night": {"giulietta": "Gina"}}, {"day": {"lynched": "Carla"}},
                          {"night": {"guaritore": "Gina"}})
    assert night_dead(saved, 2) == []


def test_the_wolf_born_turns_at_the_wolves_attack_and_leads_once_the_pack_is_gone(game):
    cards = table(Carla="contadino-discendente")
    result = replay(game, records(cards,
        {"night": {}}, {"day": {"lynched": None}},
        {"night": {"lupi-mannari": "Carla"}}, {"day": {"lynched": "Bruno"}},
        {"night": {"veggente": "Carla"}}, {"day": {"lynched": "Fabio"}},
        {"night": {"lupi-mannari": "Gina"}}), "record.yaml")
    assert result.rounds[2].dead == () and ("converted", "Carla") in result.rounds[2].reasons
    assert result.rounds[4].answers["veggente"] == "dark"
    assert result.rounds[6].dead == ("Gina",)  # Carla, the last wolf, picks the victim


def test_the_traitor_and_the_hermit_are_safe_from_the_wolves(game):
    result = settle_record(game, table(Carla="traditore", Gina="eremita"), {"night": {}}, {"day": {"lynched": None}},
                           {"night": {"lupi-mannari": "Carla"}}, {"day": {"lynched": None}},
                           {"night": {"lupi-mannari": "Gina"}})
    assert night_dead(result, 2) == [] and night_dead(result, 3) == []


@pytest.mark.parametrize("bitten, ghoul, dead", [
    ("Carla", True, ["Gina"]),     # the Vampire Hunter: the Ghoul dies in the Vampire's place
    ("Carla", False, ["Gina"]),    # no Ghoul in play... (Gina then holds a plain card: see the table)
    ("Fabio", True, ["Gina"]),     # a wolf: the same
    ("Elsa", True, []),            # a mystic: nothing
])
def test_the_vampire_dies_biting_the_hunter_or_a_wolf_and_cannot_turn_a_mystic(game, bitten, ghoul, dead):
    cards = table(Carla="cacciatore-di-vampiri", Gina="ghoul" if ghoul else "vampiro",
                  Lia="vampiro" if ghoul else "contadino")
    vampire = "Lia" if ghoul else "Gina"
    result = settle_record(game, cards, {"night": {}}, {"day": {"lynched": None}}, {"night": {"vampiro": bitten}})
    expected = dead if ghoul or not dead else [vampire]
    assert night_dead(result, 2) == expected


def test_a_bitten_player_joins_the_vampire_and_loses_his_powers(game):
    cards = table(Carla="vampiro", Gina="eremita")
    result = settle_record(game, cards, {"night": {}}, {"day": {"lynched": None}}, {"night": {"vampiro": "Gina"}},
                           {"day": {"lynched": None}}, {"night": {"lupi-mannari": "Gina"}})
    assert night_dead(result, 2) == []
    assert night_dead(result, 3) == []  # the Hermit is safe from every creature: the bite does nothing
    turned = settle_record(game, table(Carla="vampiro", Gina="oste"), {"night": {}}, {"day": {"lynched": None}},
                           {"night": {"vampiro": "Gina"}}, {"day": {"lynched": None}},
                           {"night": {"lupi-mannari": "Gina", "veggente": "Bruno"}})
    assert night_dead(turned, 3) == ["Gina"]
    assert turned["rounds"][4]["answers"] == {"veggente": "dark", "oste": "silence"}  # a Progenie: no news


def test_the_thief_sees_a_mystic_once_and_the_first_attack_on_her_fails(game):
    cards = table(Carla="ladra")
    result = settle_record(game, cards, {"night": {}}, {"day": {"lynched": None}},
                           {"night": {"ladra": {"turn": "mago"}, "lupi-mannari": "Carla"}},
                           {"day": {"lynched": None}}, {"night": {"lupi-mannari": "Carla"}})
    assert result["rounds"][2]["answers"]["ladra"] == "Elsa" and night_dead(result, 2) == []  # the Mage's holder
    assert night_dead(result, 3) == ["Carla"]
    absent = settle_record(game, cards, {"night": {}}, {"day": {"lynched": None}},
                           {"night": {"ladra": {"turn": "medium"}}})
    assert absent["rounds"][2]["answers"]["ladra"] == "absent"  # nobody holds the Medium


def test_the_thief_acts_once_a_game(game):
    with pytest.raises(ReplayError, match="round 5: ladra: it does not act tonight"):
        settle_record(game, table(Carla="ladra"), {"night": {}}, {"day": {"lynched": None}},
                      {"night": {"ladra": {"turn": "mago"}}}, {"day": {"lynched": None}},
                      {"night": {"ladra": {"turn": "veggente"}}})


@pytest.mark.parametrize("target, outcome, dead", [
    ("Gina", "recruited", []),      # a villager joins the Criminals
    ("Lia", "killed", ["Carla"]),   # a guard: the Guild Master dies
    ("Fabio", "killed", ["Carla"]),  # a wolf: the same
])
def test_the_guild_master_recruits_in_the_turn_of_a_mystic_who_is_gone(game, target, outcome, dead):
    cards = table(Carla="capo-gilda", Lia="guardia")
    result = settle_record(game, cards, {"night": {}}, {"day": {"lynched": None}},
                           {"night": {"capo-gilda": {"turn": "medium", "recruit": target}}})
    assert result["rounds"][2]["answers"]["capo-gilda"] == outcome
    assert night_dead(result, 2) == dead


def test_the_guild_master_names_nobody_while_the_mystic_is_in_play(game):
    cards = table(Carla="capo-gilda")
    result = settle_record(game, cards, {"night": {}}, {"day": {"lynched": None}},
                           {"night": {"capo-gilda": {"turn": "mago"}}})
    assert result["rounds"][2]["answers"]["capo-gilda"] == "mystic-present"
    with pytest.raises(ReplayError, match=r"capo-gilda: here, one of: \{turn: veggente\}; \{turn: mago\}; "
                                          r"\{turn: medium, recruit: NAME\}"):
        settle_record(game, cards, {"night": {}}, {"day": {"lynched": None}},
                      {"night": {"capo-gilda": {"turn": "mago", "recruit": "Gina"}}})


def test_the_assassin_kills_the_mystic_of_the_turn_or_anyone_past_every_protection(game):
    cards = table(Carla="assassino", Gina="eremita")
    mystic = settle_record(game, cards, {"night": {}}, {"day": {"lynched": None}},
                           {"night": {"assassino": {"turn": "mago"}, "strega": "Elsa"}})
    assert night_dead(mystic, 2) == ["Elsa"]
    hermit = settle_record(game, cards, {"night": {}}, {"day": {"lynched": None}},
                           {"night": {"assassino": {"turn": "medium", "kill": "Gina"}}})
    assert night_dead(hermit, 2) == ["Gina"]


def test_the_healer_saves_once_a_game(game):
    result = settle_record(game, TABLE, {"night": {}}, {"day": {"lynched": None}},
                           {"night": {"lupi-mannari": "Gina", "guaritore": "Gina"}}, {"day": {"lynched": None}},
                           {"night": {"lupi-mannari": "Gina"}})
    assert night_dead(result, 2) == [] and night_dead(result, 3) == ["Gina"]
    with pytest.raises(ReplayError, match="round 5: guaritore: it does not act tonight"):
        settle_record(game, TABLE, {"night": {}}, {"day": {"lynched": None}},
                      {"night": {"lupi-mannari": "Gina", "guaritore": "Gina"}}, {"day": {"lynched": None}},
                      {"night": {"lupi-mannari": "Gina", "guaritore": "Gina"}})


def test_the_madman_killed_by_the_wolves_spoils_their_next_attack_and_wins(game):
    cards = table(Carla="pazzo")
    result = settle_record(game, cards, {"night": {}}, {"day": {"lynched": None}},
                           {"night": {"lupi-mannari": "Carla"}}, {"day": {"lynched": None}},
                           {"night": {"lupi-mannari": "Gina"}}, {"day": {"lynched": "Bruno"}},
                           {"night": {}}, {"day": {"lynched": "Fabio"}}, {"night": {}})
    assert night_dead(result, 2) == ["Carla"] and night_dead(result, 3) == []
    assert result["winner"]["sides"] == ["villaggio", "pazzo"] and "Carla" in result["winner"]["players"]


def test_the_jester_burned_wins_and_nobody_burns_the_next_day(game):
    cards = table(Carla="giullare")
    result = settle_record(game, cards, {"night": {}}, {"day": {"lynched": "Carla"}}, {"night": {}},
                           {"day": {"lynched": "Bruno"}}, {"night": {}}, {"day": {"lynched": "Fabio"}},
                           {"night": {}}, {"day": {"lynched": "Bruno"}}, {"night": {}})
    assert [item["dead"] for item in result["rounds"] if "day" in item] == [["Carla"], [], ["Fabio"], ["Bruno"]]
    assert result["winner"]["sides"] == ["villaggio", "giullare"] and "Carla" in result["winner"]["players"]


def test_the_orator_cancels_the_burning_of_another_city_player_and_of_those_he_signals(game):
    cards = table(Carla="oratore", Gina="borgomastro")
    city = settle_record(game, cards, {"night": {}}, {"day": {"lynched": "Gina"}})
    assert city["rounds"][1]["dead"] == []
    signalled = settle_record(game, cards, {"night": {}}, {"day": {"lynched": "Fabio", "oratore": ["Fabio"]}})
    assert signalled["rounds"][1]["dead"] == []
    himself = settle_record(game, cards, {"night": {}}, {"day": {"lynched": "Carla"}})
    assert himself["rounds"][1]["dead"] == ["Carla"]


def test_a_tie_burns_nobody_unless_the_orator_spares_all_the_tied_but_one(game):
    cards = table(Carla="oratore")
    tie = settle_record(game, cards, {"night": {}}, {"day": {"lynched": None, "tied": ["Bruno", "Gina"]}})
    assert tie["rounds"][1]["dead"] == []
    spared = settle_record(game, cards, {"night": {}},
                           {"day": {"lynched": None, "tied": ["Bruno", "Gina"], "oratore": ["Gina"]}})
    assert spared["rounds"][1]["dead"] == ["Bruno"]


def test_the_mayor_counts_the_city_in_the_final_vote_and_the_accused_city_may_vote(game):
    cards = table(Carla="borgomastro", Gina="mercante")
    accusation = {"Anna": "Bruno", "Bruno": "Gina", "Carla": "Bruno", "Dino": "Gina", "Elsa": "Bruno",
                  "Fabio": "Gina", "Gina": "Bruno", "Ivo": "Elsa"}
    # Bruno 4, Gina 3 less 1 (the other City player, Carla) = 2: Bruno and Gina are accused.
    ballot = {"Anna": "Gina", "Carla": "Bruno", "Dino": "Gina", "Elsa": "Gina", "Fabio": "Gina", "Ivo": "Bruno",
              "Gina": "Bruno"}
    result = replay(game, records(cards,
        {"night": {}}, {"day": {"accusation": accusation, "ballottaggio": ballot}}), "record.yaml")
    day = result.rounds[1]
    assert dict(day.step.verdict.tallies["runoff"]) == {"Bruno": 5, "Gina": 3}  # Carla's hand counts 3; Gina 4-1
    assert day.lynched == "Bruno"


def test_the_amulet_saves_its_bearer_once_at_night_or_at_the_pyre(game):
    night = settle_record(game, TABLE, {"night": {}}, {"day": {"lynched": None}},
                          {"night": {"lupi-mannari": "Gina", "amuleto": "Carla"}}, amuleto="Gina")
    assert night_dead(night, 2) == []
    pyre = settle_record(game, TABLE, {"night": {}}, {"day": {"lynched": "Gina"}},
                         {"night": {}}, {"day": {"lynched": "Gina"}}, amuleto="Gina")
    assert [item["dead"] for item in pyre["rounds"] if "day" in item] == [[], ["Gina"]]


def test_the_sword_strikes_the_creature_attacking_its_bearer(game):
    result = settle_record(game, TABLE, {"night": {}}, {"day": {"lynched": None}},
                           {"night": {"lupi-mannari": "Gina", "spada": "Carla"}}, spada="Gina")
    assert night_dead(result, 2) == ["Bruno", "Gina"]  # the attack still resolves


def test_a_record_names_the_first_bearer_of_the_amulet_and_the_sword_as_the_options_value(game):
    """The digest's options ``amuleto: NAME`` and ``spada: NAME`` (issue 39, point 13): the first
    bearer, who the record cannot give on night 1; on, with nobody named, and a stranger are refused."""
    def refused(*rounds, **options):
        with pytest.raises(ReplayError) as error:
            settle_record(game, TABLE, *rounds, **options)
        return str(error.value)

    assert refused({"night": {}}, amuleto=True) == (
        "record.yaml: options: amuleto: the name of its first holder (amuleto: NAME), or off")
    assert refused({"night": {}}, spada="Zeno") == (
        "record.yaml: options: spada: 'Zeno' is not one of the players: Anna, Bruno, Carla, Dino, Elsa, Fabio, "
        "Gina, Ivo")
    assert refused({"night": {"amuleto": "Carla"}}, amuleto="Gina") == (
        "record.yaml: round 1: amuleto: its first holder is the option's value (options: amuleto: NAME)")
    off = settle_record(game, TABLE, {"night": {}}, {"day": {"lynched": None}}, {"night": {"lupi-mannari": "Gina"}},
                        amuleto=False)
    assert night_dead(off, 2) == ["Gina"]


def test_replay_says_the_thiefs_holder_and_the_guards_count_in_both_languages(game):
    from narrator.shell.cli.replay import replay_lines

    cards = table(Carla="ladra", Gina="assassino", Lia="guardia")
    replayed = replay(game, records(cards, {"night": {}}, {"day": {"lynched": None}},
                                    {"night": {"ladra": {"turn": "mago"}}}), "record.yaml")
    english, italian = (replay_lines(game, replayed, lang) for lang in ("en", "it"))
    assert "  Guards: show two fingers: two Criminals" in english
    assert "  Guardie: mostra due dita: due Criminali" in italian
    assert "  Thief: nod YES, and let the Thief see Elsa" in english
    assert "  Ladra: fai cenno di SÌ, e fai vedere Elsa alla Ladra" in italian


def test_two_players_left_and_nobody_dead_the_lower_goes(game):
    cards = {"Anna": "veggente", "Bruno": "capo-branco", "Carla": "contadino", "Dino": "strega",
             "Elsa": "mago", "Fabio": "contadino", "Gina": "guaritore", "Ivo": "medium"}
    rounds = [{"night": {}}, {"day": {"lynched": "Carla"}}]
    for victim, burned in (("Dino", "Elsa"), ("Fabio", "Gina"), ("Ivo", None)):
        rounds += [{"night": {"lupi-mannari": victim}}, {"day": {"lynched": burned}}]
    result = settle_record(game, cards, *rounds, {"night": {}})
    assert night_dead(result, 4) == ["Ivo"] and result["rounds"][7]["dead"] == []  # two left: the game goes on
    assert night_dead(result, 5) == ["Anna"]  # nobody died: the lower of the two, a plain human, goes
    assert result["winner"] == {"sides": ["lupi-del-branco"], "players": ["Bruno"]}


def test_the_end_is_never_found_right_after_a_burning(game):
    result = settle_record(game, TABLE, {"night": {}}, {"day": {"lynched": "Bruno"}}, {"night": {}},
                           {"day": {"lynched": "Fabio"}}, {"night": {}})
    assert result["winner"]["sides"] == ["villaggio"]
    with pytest.raises(ReplayError, match="round 6: the game was over after round 5"):
        settle_record(game, TABLE, {"night": {}}, {"day": {"lynched": "Bruno"}}, {"night": {}},
                      {"day": {"lynched": "Fabio"}}, {"night": {}}, {"day": {"lynched": None}})


def test_the_medium_reads_the_aura_a_player_had_at_his_death(game):
    result = settle_record(game, table(Gina="medium"), {"night": {}}, {"day": {"lynched": "Fabio"}},
                           {"night": {"medium": "Fabio"}})
    assert result["rounds"][2]["answers"]["medium"] == "dark"


@pytest.mark.parametrize("night, why", [
    ({"medium": "Anna"}, "medium: 'Anna' is not one of Carla"),
    ({"capo-gilda": {"turn": "mago"}}, "capo-gilda: it does not act tonight"),
    ({"lupi-mannari": ["Anna", "Carla"]}, "lupi-mannari: one name at most"),
    ({"prete": "Anna"}, "it is told, never written"),
])
def test_records_the_digest_refuses(game, night, why):
    with pytest.raises(ReplayError, match=why):
        settle_record(game, table(Ivo="medium"), {"night": {}}, {"day": {"lynched": "Carla"}}, {"night": night})


def test_the_shyster_points_instead_of_accusing_to_clear_the_city_or_accuse_anyone_else(game):
    cards = table(Carla="azzeccagarbugli", Gina="borgomastro")
    everyone_on_gina = {name: "Gina" for name in cards if name != "Carla"}
    cleared = replay(game, records(cards,
        {"night": {}}, {"day": {"azzeccagarbugli": {"Carla": "Gina"}, "accusation": everyone_on_gina}}),
        "record.yaml")
    day = cleared.rounds[1]
    assert day.step.verdict.tallies["accusation"]["Gina"] == 0 and day.lynched is None  # a City player: cleared
    accusation = {**everyone_on_gina, "Anna": "Bruno"}
    ballot = {name: "Fabio" for name in cards if name not in ("Carla", "Gina", "Bruno", "Fabio")}
    accused = replay(game, records(cards,
        {"night": {}}, {"day": {"azzeccagarbugli": {"Carla": "Fabio"}, "accusation": accusation,
                                "ballottaggio": {**ballot, "Carla": "Fabio", "Gina": "Bruno"}}}), "record.yaml")
    day = accused.rounds[1]
    assert set(day.step.verdict.votes["runoff"].values()) <= {"Gina", "Bruno", "Fabio"}
    assert day.lynched == "Fabio"  # pointed at, a wolf is accused with the most accused


def test_a_record_without_the_shysters_pointing_has_him_accuse_as_the_others(game):
    cards = table(Carla="azzeccagarbugli")
    result = replay(game, records(cards,
        {"night": {}}, {"day": {"accusation": {name: "Bruno" for name in cards}}}), "record.yaml")
    assert result.rounds[1].lynched == "Bruno"  # every hand on one, his too


# --- the review's cases: each a ruling of the digest a first version missed ------------------------------

def test_a_counted_tie_burns_the_one_the_orator_does_not_protect(game):
    cards = table(Carla="oratore", Gina="borgomastro")
    accusation = {"Anna": "Bruno", "Bruno": "Gina", "Carla": "Bruno", "Dino": "Gina", "Elsa": "Bruno",
                  "Fabio": "Gina", "Gina": "Elsa", "Ivo": "Elsa"}
    ballot = {"Anna": "Bruno", "Carla": "Bruno", "Ivo": "Bruno", "Dino": "Gina", "Elsa": "Gina", "Fabio": "Gina"}
    result = replay(game, records(cards, {"night": {}}, {"day": {"accusation": accusation, "ballottaggio": ballot}}),
                    "record.yaml")
    assert result.rounds[1].dead == ("Bruno",)  # Gina, of the City, is protected: the tie burns Bruno


def test_an_accused_orator_signals_nobody(game):
    cards = table(Carla="oratore")
    accusation = {"Anna": "Bruno", "Carla": "Bruno", "Elsa": "Bruno", "Gina": "Bruno", "Bruno": "Carla",
                  "Dino": "Carla", "Fabio": "Carla", "Ivo": "Elsa"}
    ballot = {name: "Bruno" for name in cards if name not in ("Bruno", "Carla")}
    with pytest.raises(ReplayError, match="oratore: it cannot be played today"):
        replay(game, records(cards, {"night": {}}, {"day": {"accusation": accusation, "ballottaggio": ballot,
                                                              "oratore": ["Bruno"]}}), "record.yaml")


def test_pointing_at_the_beloved_accuses_his_angel(game):
    cards = table(Carla="angelo-custode", Lia="azzeccagarbugli")
    accusation = {"Anna": "Bruno", "Bruno": "Anna", "Carla": "Bruno", "Dino": "Anna", "Elsa": "Bruno",
                  "Fabio": "Anna", "Gina": "Bruno", "Ivo": "Anna"}
    result = replay(game, records(cards, {"night": {"angelo-custode": "Gina"}}, {"day": {
        "azzeccagarbugli": {"Lia": "Gina"}, "accusation": accusation,
        "ballottaggio": {"Dino": "Carla", "Elsa": "Carla", "Fabio": "Carla", "Gina": "Carla", "Ivo": "Carla",
                         "Lia": "Carla"}}}), "record.yaml")
    assert result.rounds[1].lynched == "Carla"


def test_the_healer_may_save_the_amulets_bearer_who_keeps_it_and_the_amulet_saves_from_a_lovers_death(game):
    healed = settle_record(game, TABLE, {"night": {}}, {"day": {"lynched": None}},
                           {"night": {"lupi-mannari": "Gina", "guaritore": "Gina", "amuleto": "Carla"}},
                           {"day": {"lynched": None}}, {"night": {"lupi-mannari": "Carla"}}, amuleto="Gina")
    assert night_dead(healed, 2) == [] and night_dead(healed, 3) == []  # Carla got it, whole
    lovers = settle_record(game, table(Carla="giulietta"), {"night": {"giulietta": "Gina"}},
                           {"day": {"lynched": None}}, {"night": {"lupi-mannari": "Carla"}}, amuleto="Gina")
    assert night_dead(lovers, 2) == ["Carla"]


def test_an_amulet_passed_back_is_destroyed(game):
    result = settle_record(game, TABLE, {"night": {}}, {"day": {"lynched": None}},
                           {"night": {"amuleto": "Gina"}}, {"day": {"lynched": None}},
                           {"night": {"lupi-mannari": "Gina"}}, amuleto="Gina")
    assert night_dead(result, 3) == ["Gina"]


def test_the_guards_count_romeo_a_lover_from_the_first_turn(game):
    result = settle_record(game, table(Carla="giulietta", Gina="ladra", Lia="guardia"),
                           {"night": {"giulietta": "Gina"}})
    assert result["rounds"][0]["answers"]["guardie"] == 0
    two = settle_record(game, table(Carla="assassino", Gina="ladra", Lia="guardia"), {"night": {}})
    assert two["rounds"][0]["answers"]["guardie"] == 2 and isinstance(two["rounds"][0]["answers"]["guardie"], int)


def test_a_lover_wins_whenever_the_other_is_in_play(game):
    result = settle_record(game, table(Carla="giulietta"), {"night": {"giulietta": "Gina"}},
                           {"day": {"lynched": None}}, {"night": {"lupi-mannari": "Carla", "guaritore": "Gina"}},
                           {"day": {"lynched": "Bruno"}}, {"night": {"lupi-mannari": "Anna"}},
                           {"day": {"lynched": "Fabio"}}, {"night": {}})
    # Juliet, dead, wins: her Romeo is in play; he does not (she is not), and his faction is the lovers'
    assert "amante" in result["winner"]["sides"]
    assert "Carla" in result["winner"]["players"] and "Gina" not in result["winner"]["players"]


def test_a_bitten_traitor_wins_with_the_vampire_not_with_the_pack(game):
    cards = {"Anna": "veggente", "Bruno": "capo-branco", "Sara": "traditore", "Rita": "vampiro", "Elsa": "mago",
             "Fabio": "lupo-del-branco", "Gina": "contadino", "Ivo": "contadino"}
    result = settle_record(game, cards, {"night": {}}, {"day": {"lynched": None}}, {"night": {"vampiro": "Sara"}},
                           {"day": {"lynched": "Sara"}}, {"night": {"lupi-mannari": "Anna"}},
                           {"day": {"lynched": "Rita"}}, {"night": {"lupi-mannari": "Elsa"}},
                           {"day": {"lynched": "Gina"}}, {"night": {"lupi-mannari": "Ivo"}})
    assert result["winner"]["sides"] == ["lupi-del-branco"] and "Sara" not in result["winner"]["players"]


def test_an_accused_city_card_of_another_faction_still_votes(game):
    cards = table(Carla="giulietta", Gina="mercante")
    accusation = {"Anna": "Gina", "Bruno": "Gina", "Carla": "Gina", "Dino": "Bruno", "Elsa": "Bruno",
                  "Fabio": "Gina", "Gina": "Bruno", "Ivo": "Elsa"}
    ballot = {"Anna": "Gina", "Carla": "Bruno", "Dino": "Bruno", "Elsa": "Bruno", "Fabio": "Gina", "Ivo": "Gina",
              "Gina": "Bruno"}
    result = replay(game, records(cards, {"night": {"giulietta": "Gina"}},
                                  {"day": {"accusation": accusation, "ballottaggio": ballot}}), "record.yaml")
    assert result.rounds[1].lynched == "Bruno"  # Gina, Romeo now, voted as the Mercante may


def test_romeo_stays_a_creature_when_his_juliet_is_bitten(game):
    cards = {"Anna": "veggente", "Bruno": "capo-branco", "Carla": "giulietta", "Dino": "strega", "Elsa": "mago",
             "Ugo": "giovane-lupo", "Rita": "vampiro", "Ivo": "guaritore"}
    result = settle_record(game, cards, {"night": {"giulietta": "Ugo"}}, {"day": {"lynched": None}},
                           {"night": {"vampiro": "Carla"}}, {"day": {"lynched": "Bruno"}}, {"night": {}},
                           {"day": {"lynched": "Rita"}}, {"night": {}}, {"day": {"lynched": "Carla"}}, {"night": {}})
    assert result["winner"] is None  # Ugo, a young wolf, lives: the Men have not won


def test_two_of_a_rank_left_and_nobody_dead_the_factions_left_win_together(game):
    cards = {"Anna": "veggente", "Bruno": "capo-branco", "Carla": "giulietta", "Ugo": "giovane-lupo",
             "Dino": "strega", "Elsa": "mago", "Gina": "contadino", "Ivo": "guaritore"}
    result = settle_record(game, cards, {"night": {"giulietta": "Ugo"}}, {"day": {"lynched": "Anna"}},
                           {"night": {"lupi-mannari": "Dino"}}, {"day": {"lynched": "Elsa"}},
                           {"night": {"lupi-mannari": "Gina"}}, {"day": {"lynched": "Carla"}},
                           {"night": {"lupi-mannari": "Ivo", "guaritore": "Ugo"}}, {"day": {"lynched": None}},
                           {"night": {}})
    assert night_dead(result, 4) == ["Ivo"]  # Romeo saved from his grief: two wolves of two factions left
    assert result["winner"]["sides"] == ["lupi-del-branco", "amante"]
    assert {"Bruno", "Ugo"} <= set(result["winner"]["players"])


# --- the moderator's notes: what the cards and the dead do not show ---------------------------------------

def after(game, cards, *rounds, **options):
    """The state the record's last round left (its dawn's, or its dusk's)."""
    step = replay(game, records(cards, *rounds, **options), "record.yaml").rounds[-1].step
    return (step.dawn if step.kind == "dawn" else step.dusk).state


def notes(game, state, tonight=None):
    """The notes in English and in Italian, as the moderator's console shows them."""
    from narrator.core.rounds import notes_for
    from narrator.core.vote import Sentences

    return {lang: list(notes_for(game, state, Sentences(game.languages[lang]), tonight or {})) for lang in ("en", "it")}


def test_notes_keep_who_is_protected_tonight_once_chosen(game):
    """Issue 39, point 19: the Strega's charge showed only in her own step; the notes keep it (and
    the Guaritore's save) for the rest of the night."""
    state = after(game, TABLE, {"night": {}})
    assert notes(game, state, {"strega": "Bruno"}) == {"en": ["Tonight the Witch protects Bruno."],
                                                       "it": ["Stanotte la Strega protegge Bruno."]}
    assert notes(game, state, {"strega": "Bruno", "guaritore": "Carla"})["it"] == [
        "Stanotte la Strega protegge Bruno.", "Stanotte il Guaritore salva Carla."]
    assert notes(game, state, {"strega": None}) == {"en": [], "it": []}  # she chose nobody


def test_notes_say_nothing_when_nothing_is_to_be_kept_in_mind(game):
    assert notes(game, after(game, TABLE, {"night": {}})) == {"en": [], "it": []}
    # a burned wolf, a night of killing, the Healer's turn unused: all on the cards and the dead
    state = after(game, TABLE, {"night": {}}, {"day": {"lynched": "Fabio"}}, {"night": {"lupi-mannari": "Gina"}})
    assert notes(game, state) == {"en": [], "it": []}


def test_notes_keep_the_lovers_and_the_beloved_while_the_bonds_hold(game):
    cards = table(Carla="giulietta", Gina="angelo-custode", Lia="contadino")
    first = [{"night": {"giulietta": "Lia", "angelo-custode": "Elsa"}}]
    assert notes(game, after(game, cards, *first)) == {
        "en": ["Lovers: Carla and Lia.", "The Guardian Angel's Beloved: Elsa."],
        "it": ["Amanti: Carla e Lia.", "L'Amato dell'Angelo Custode: Elsa."]}
    burned = [*first, {"day": {"lynched": "Carla"}}]  # Juliet burned: Romeo dies of grief at dawn
    assert notes(game, after(game, cards, *burned)) == {
        "en": ["The Guardian Angel's Beloved: Elsa.", "Dies of grief at dawn: Lia."],
        "it": ["L'Amato dell'Angelo Custode: Elsa.", "All'alba muore di dolore: Lia."]}
    grieved = [*burned, {"night": {}}]
    assert notes(game, after(game, cards, *grieved)) == {
        "en": ["The Guardian Angel's Beloved: Elsa."], "it": ["L'Amato dell'Angelo Custode: Elsa."]}
    # the wolves on the Beloved kill the Angel: the bond is over
    state = after(game, cards, *grieved, {"day": {"lynched": None}}, {"night": {"lupi-mannari": "Elsa"}})
    assert state.dead[-1] == "Gina" and notes(game, state) == {"en": [], "it": []}


def test_notes_name_who_changed_side_and_the_once_a_game_power_spent(game):
    cards = table(Carla="contadino-discendente", Rita="vampiro", Mia="capo-gilda")
    state = after(game, cards, {"night": {}}, {"day": {"lynched": None}},
                  {"night": {"lupi-mannari": "Carla", "vampiro": "Gina",
                             "capo-gilda": {"turn": "medium", "recruit": "Elsa"}}})
    assert notes(game, state) == {
        "en": ["The Vampire's brood, every power lost: Gina.", "Wolf-born, now a Werewolf: Carla.",
               "Recruited to the Criminals: Elsa.", "Once-a-game powers spent: Guild Master."],
        "it": ["Progenie Vampirica, senza più poteri: Gina.", "Discendente, ora Lupo Mannaro: Carla.",
               "Nuova recluta dei Criminali: Elsa.", "Poteri di una volta a partita già spesi: Capo Gilda."]}
    # out of the game, a changed player or a spent power is on the cards and the dead
    state = after(game, cards, {"night": {}}, {"day": {"lynched": None}},
                  {"night": {"lupi-mannari": "Carla", "vampiro": "Gina",
                             "capo-gilda": {"turn": "medium", "recruit": "Elsa"}}},
                  {"day": {"lynched": "Gina"}}, {"night": {"lupi-mannari": "Elsa"}}, {"day": {"lynched": "Mia"}})
    assert notes(game, state) == {"en": ["Wolf-born, now a Werewolf: Carla."],
                                  "it": ["Discendente, ora Lupo Mannaro: Carla."]}


def test_notes_keep_the_powers_spent_and_the_thiefs_protection_while_their_holders_play(game):
    cards = table(Lia="ladra", Mia="assassino", Rita="vampiro")
    night = [{"night": {}}, {"day": {"lynched": None}},
             {"night": {"ladra": {"turn": "mago"}, "assassino": {"turn": "medium", "kill": "Anna"},
                        "guaritore": "Anna", "vampiro": "Lia"}}]
    state = after(game, cards, *night)
    assert state.dead == ()  # the Healer saved Anna; the Vampire's bite spent the Thief's protection
    assert notes(game, state) == {
        "en": ["Once-a-game powers spent: Thief, Assassin and Healer.", "The Thief's protection is used up."],
        "it": ["Poteri di una volta a partita già spesi: Ladra, Assassino e Guaritore.",
               "La Ladra ha già consumato la sua protezione."]}
    state = after(game, cards, *night, {"day": {"lynched": "Mia"}})
    assert notes(game, state)["en"] == ["Once-a-game powers spent: Thief and Healer.",
                                        "The Thief's protection is used up."]


def test_notes_name_the_bearers_of_the_amulet_and_the_sword(game):
    first = {"night": {}}
    assert notes(game, after(game, TABLE, first, amuleto="Gina", spada="Carla")) == {
        "en": ["Bearer of the Amulet: Gina.", "Bearer of the Sword: Carla."],
        "it": ["Porta l'Amuleto: Gina.", "Porta la Spada: Carla."]}
    # the amulet passed on to Dino; the sword strikes the wolf attacking Carla, and is gone
    passed = [first, {"day": {"lynched": None}}, {"night": {"lupi-mannari": "Carla", "amuleto": "Dino"}}]
    state = after(game, TABLE, *passed, amuleto="Gina", spada="Carla")
    assert state.dead == ("Bruno", "Carla")
    assert notes(game, state) == {"en": ["Bearer of the Amulet: Dino."], "it": ["Porta l'Amuleto: Dino."]}
    # the amulet saves Dino from the pyre, and crumbles
    state = after(game, TABLE, *passed, {"day": {"lynched": "Dino"}}, amuleto="Gina", spada="Carla")
    assert state.dead == ("Bruno", "Carla") and notes(game, state) == {"en": [], "it": []}


def test_notes_warn_of_the_madmans_cancelled_attack_and_keep_his_win(game):
    cards = table(Carla="pazzo")
    killed = [{"night": {}}, {"day": {"lynched": None}}, {"night": {"lupi-mannari": "Carla"}}]
    assert notes(game, after(game, cards, *killed)) == {
        "en": ["The wolves' next attack fails (the Madman).", "Sure to win, whatever the end: Carla."],
        "it": ["Il prossimo attacco dei lupi fallisce (il Pazzo).",
               "Vittoria assicurata, comunque finisca: Carla."]}
    state = after(game, cards, *killed, {"day": {"lynched": None}}, {"night": {"lupi-mannari": "Gina"}})
    assert state.dead == ("Carla",)  # the attack failed
    assert notes(game, state) == {"en": ["Sure to win, whatever the end: Carla."],
                                  "it": ["Vittoria assicurata, comunque finisca: Carla."]}


def test_notes_warn_of_the_jesters_cancelled_burning_and_the_young_wolfs_double_attack(game):
    cards = table(Carla="giullare", Gina="giovane-lupo")
    jester = [{"night": {}}, {"day": {"lynched": "Carla"}}]
    assert notes(game, after(game, cards, *jester)) == {
        "en": ["The next burning is cancelled (the Jester).", "Sure to win, whatever the end: Carla."],
        "it": ["Il prossimo rogo è annullato (il Giullare).", "Vittoria assicurata, comunque finisca: Carla."]}
    young = [*jester, {"night": {}}, {"day": {"lynched": "Gina"}}, {"night": {}}, {"day": {"lynched": "Gina"}}]
    state = after(game, cards, *young)
    assert "Gina" in state.dead  # the day after the Jester's, nobody burned: she burned the next
    assert notes(game, state) == {
        "en": ["Tonight the wolves attack twice.", "Sure to win, whatever the end: Carla."],
        "it": ["Stanotte i lupi attaccano due volte.", "Vittoria assicurata, comunque finisca: Carla."]}
    state = after(game, cards, *young, {"night": {"lupi-mannari": ["Anna", "Dino"]}})
    assert notes(game, state)["en"] == ["Sure to win, whatever the end: Carla."]


# --- the day's own procedure, driven as the loop drives it (test_procedures.settle) -----------------

def test_accusations_bring_the_most_accused_and_the_tied_second_to_the_runoff(game):
    """Wherewolf Revised's own procedure (its rules.py): a hand each, self allowed; the top one and all tied second are
    accused; the others vote one of them; the most voted burns."""
    accusations = {"Anna": "Bruno", "Bruno": "Bruno", "Carla": "Dario", "Dario": "Elena", "Elena": "Bruno"}
    asked, verdict = voted(game.rules.Accusations(SEATING), accusations, {"Anna": "Dario", "Bruno": "Dario", "Carla": "Dario"})
    assert [(round_name, voter) for round_name, voter, _candidates in asked if round_name == "runoff"] == [
        ("runoff", "Anna"), ("runoff", "Carla")]  # Bruno, Dario, Elena are accused: they do not vote
    assert dict(verdict.tallies["accusation"]) == {"Anna": 0, "Bruno": 3, "Carla": 0, "Dario": 1, "Elena": 1}
    assert ("runoff", "Anna", ("Bruno", "Dario", "Elena")) in asked
    assert verdict.lynched == "Dario"
    _asked, tied = voted(game.rules.Accusations(SEATING), accusations, {"Anna": "Dario", "Carla": "Bruno"})
    assert tied.lynched is None and tied.tied == ("Bruno", "Dario")


def test_every_hand_on_one_player_burns_him_at_once_and_two_players_vote_only_once(game):
    asked, verdict = voted(game.rules.Accusations(SEATING), dict.fromkeys(SEATING, "Carla"), {})
    assert verdict.lynched == "Carla" and {round_name for round_name, _v, _c in asked} == {"accusation"}
    _asked, two = voted(game.rules.Accusations(("Anna", "Bruno")), {"Anna": "Bruno", "Bruno": "Anna"}, {})
    assert two.lynched is None


def test_an_accused_may_stand_in_for_another_and_some_accused_still_vote(game):
    """The Amato is never accused while his Angelo lives: the Angelo is, instead; a Città role votes
    in the runoff though accused."""
    procedure = game.rules.Accusations(SEATING, standing_in={"Bruno": "Anna"}, accused_vote=frozenset({"Dario"}),
                            weights={"Elena": 2})
    accusations = {"Anna": "Dario", "Bruno": "Carla", "Carla": "Bruno", "Dario": "Bruno", "Elena": "Dario"}
    asked, verdict = voted(procedure, accusations, {"Bruno": "Anna", "Carla": "Anna", "Dario": "Anna",
                                                     "Elena": "Dario"})
    assert dict(verdict.tallies["accusation"]) == {"Anna": 2, "Bruno": 0, "Carla": 1, "Dario": 3, "Elena": 0}
    assert ("runoff", "Bruno", ("Dario", "Anna")) in asked  # the most accused, then the tied second
    assert [voter for round_name, voter, _c in asked if round_name == "runoff"] == ["Bruno", "Carla", "Dario",
                                                                                         "Elena"]
    assert verdict.lynched == "Anna"
