"""Wherewolf in Tabula's rules (scripts/wherewolf-in-tabula/rules.py) against the digest
(shared/rules/wherewolf-in-tabula.md): its three worked examples settled by ``narrate replay``,
then one record per ruling, and the records the digest refuses."""

import json
import random

import pytest
import yaml

from narrator.core.replay import ReplayError, replay
from narrator.games import GAMES_DIR
from narrator.games.loader import load_game

WIT = "wherewolf-in-tabula"
EXAMPLES = {
    "villaggio": """\
players:
  - {name: Anna, card: veggente}
  - {name: Bice, card: negromante}
  - {name: Carlo, card: lupo-del-branco}
  - {name: Delia, card: contadino-mostro}
  - {name: Ettore, card: contadino-semplice}
  - {name: Franca, card: strega}
  - {name: Guido, card: prete}
  - {name: Irma, card: peccatore}
  - {name: Lino, card: traditore}
rounds:
  - night: {negromante: [Ettore, Irma], veggente: Irma}
  - day: {lynched: null, votes: {Ettore: Carlo, Anna: Carlo, Carlo: Anna, Bice: Anna, Lino: Anna}}
  - night: {strega: Anna, lupo-del-branco: Delia, veggente: Bice}
  - day: {lynched: Bice}
""",
    "negromante": """\
players:
  - {name: Anna, card: veggente}
  - {name: Bice, card: negromante}
  - {name: Carlo, card: capo-branco}
  - {name: Delia, card: giovane-lupo}
  - {name: Ettore, card: contadino-eroe}
  - {name: Franca, card: contadino-semplice}
  - {name: Guido, card: mago}
  - {name: Irma, card: pazzo}
rounds:
  - night: {negromante: [Franca, Guido], mago: Bice}
  - day: {lynched: Delia}
  - night: {capo-branco: [Irma, Ettore]}
  - day: {lynched: Franca}
  - night: {veggente: Guido}
  - day: {lynched: Guido}
  - night: {}
  - day: {lynched: null}
  - night: {}
""",
    "lupo-solitario": """\
players:
  - {name: Anna, card: veggente}
  - {name: Bice, card: negromante}
  - {name: Carlo, card: lupo-del-branco}
  - {name: Delia, card: lupo-solitario}
  - {name: Ettore, card: contadino-discendente-dei-lupi}
  - {name: Franca, card: contadino-semplice}
  - {name: Guido, card: bracconiere}
  - {name: Irma, card: mago}
rounds:
  - night: {negromante: [Franca, Irma]}
  - day: {lynched: Carlo}
  - night: {lupo-solitario: Ettore}
  - day: {lynched: Bice}
  - night: {lupo-solitario: Anna, bracconiere: signal}
  - day: {lynched: Delia}
  - night: {contadino-discendente-dei-lupi: Guido}
  - day: {lynched: null}
  - night: {contadino-discendente-dei-lupi: Franca}
  - day: {lynched: Irma}
""",
}


@pytest.fixture(scope="module")
def game():
    return load_game(GAMES_DIR / WIT)


def settle(game, text, **options):
    record = yaml.safe_load(text)
    record["options"] = options
    return replay(game, record, "record.yaml")


def dead_by_round(replayed):
    return [list(result.dead) for result in replayed.rounds]


def test_worked_example_1_the_village_wins(game):
    settled = settle(game, EXAMPLES["villaggio"])
    assert dead_by_round(settled) == [[], [], ["Carlo", "Delia"], ["Bice"]]
    assert dict(settled.rounds[0].answers) == {"prete": "sinner", "veggente": "black"}
    assert settled.rounds[1].lynched is None  # 3-3: Ettore, cursed, counts two
    assert dict(settled.rounds[1].step.verdict.tallies["vote"])["Carlo"] == 3
    assert dict(settled.rounds[2].answers) == {"strega": "not-cursed", "veggente": "black"}
    assert settled.over.sides == ("villaggio",)
    assert settled.over.winners == ("Anna", "Delia", "Ettore", "Franca", "Guido", "Irma")  # not Lino


def test_worked_example_2_the_necromancer_s_massacre(game):
    settled = settle(game, EXAMPLES["negromante"])
    assert dead_by_round(settled) == [[], ["Delia"], ["Carlo", "Ettore", "Irma"], ["Franca"], [], ["Guido"], [],
                                      [], ["Anna"]]
    assert dict(settled.rounds[0].answers) == {"mago": "mystic"}
    assert dict(settled.rounds[4].answers) == {"veggente": "black"}  # Guido, cursed
    fourth_dawn = settled.rounds[6].step.dawn.state
    assert fourth_dawn.own["two_cursed"] == "due"  # announced at the fourth dawn
    assert ("massacre", "Anna") in settled.rounds[8].reasons
    assert (settled.over.sides, settled.over.winners) == (("negromante",), ("Bice", "Irma"))


def test_worked_example_3_the_lone_wolf_and_his_wolf_born(game):
    settled = settle(game, EXAMPLES["lupo-solitario"])
    assert dead_by_round(settled) == [[], ["Carlo"], [], ["Bice"], ["Anna"], ["Delia"], ["Guido"], [], ["Franca"],
                                      ["Irma"]]
    assert ("converted", "Ettore") in settled.rounds[2].reasons
    assert settled.rounds[4].step.dawn.state.own["signal_spent"]  # two lone wolves: the signal in vain, spent
    assert (settled.over.sides, settled.over.winners) == (("lupo-solitario",), ("Delia", "Ettore"))


def test_narrate_replay_settles_the_worked_examples(run, tmp_path):
    path = tmp_path / "partita.yaml"
    path.write_text(f"game: {WIT}\n" + EXAMPLES["negromante"], encoding="utf-8")
    result = run("replay", str(path), "--json")
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)["winner"] == {"sides": ["negromante"], "players": ["Bice", "Irma"]}
    for language, said in (("en", "The game is over. The Necromancer wins!"), ("it", None)):
        text = run("replay", str(path), "--lang", language)
        assert text.exit_code == 0, text.stderr
        assert text.stdout.rstrip().endswith("Bice, Irma")
        if said:
            assert said in text.stdout


# --- one record per ruling --------------------------------------------------------------------------

TABLE = """\
players:
  - {name: Anna, card: veggente}
  - {name: Bice, card: negromante}
  - {name: Carlo, card: capo-branco}
  - {name: Delia, card: lupo-del-branco}
  - {name: Ettore, card: contadino-mostro}
  - {name: Franca, card: strega}
  - {name: Guido, card: guaritore}
  - {name: Irma, card: megera}
  - {name: Lino, card: mago}
  - {name: Marta, card: contadino-eroe}
  - {name: Nino, card: pazzo}
  - {name: Olga, card: bracconiere}
rounds:
  - night: {negromante: [Anna, Lino]}
  - day: {lynched: null}
"""


def with_rounds(*rounds):
    return TABLE + "".join(f"  - {entry}\n" for entry in rounds)


def test_only_the_attacker_s_choice_is_an_attack(game):
    settled = settle(game, with_rounds("night: {capo-branco: Anna, lupo-del-branco: Lino}"))
    assert settled.rounds[2].dead == ("Anna",)


def test_every_wolf_who_points_at_the_monster_dies_attacker_or_not(game):
    settled = settle(game, with_rounds("night: {capo-branco: Anna, lupo-del-branco: Ettore, veggente: Ettore}"))
    assert settled.rounds[2].dead == ("Anna", "Delia")  # Anna, attacked, pointed at him too: she dies once
    assert ("monster", "Delia") in settled.rounds[2].reasons and ("attacked", "Anna") in settled.rounds[2].reasons


def test_a_monster_the_witch_protects_spares_the_shadow_but_not_a_cursed_mystic(game):
    settled = settle(game, with_rounds("night: {strega: Ettore, capo-branco: Ettore, mago: Ettore}"))
    # the Witch and the Mage (cursed by the Necromancer) named him and die; Carlo, of the Shadow, is spared
    assert settled.rounds[2].dead == ("Franca", "Lino")
    assert ("protected", "Ettore") in settled.rounds[2].reasons


def test_a_mystic_who_points_at_the_hag_is_cursed_unless_the_witch_protects_her(game):
    cursed = settle(game, with_rounds("night: {mago: Irma}", "day: {lynched: null}", "night: {mago: Carlo}"))
    assert ("hag", "Lino") in cursed.rounds[2].reasons
    assert dict(cursed.rounds[4].answers) == {"mago": "not-mystic"}  # learns nothing from now on
    shielded = settle(game, with_rounds("night: {mago: Irma, strega: Irma}"))
    assert not any(reason == "hag" for reason, _name in shielded.rounds[2].reasons)


def test_a_healer_who_saves_the_hag_is_cursed_by_her_and_his_save_holds(game):
    settled = settle(game, with_rounds("night: {capo-branco: Irma, guaritore: Irma}"))
    assert settled.rounds[2].dead == ()
    assert ("healed", "Irma") in settled.rounds[2].reasons and ("hag", "Guido") in settled.rounds[2].reasons


def test_a_saved_hero_s_wolf_survives_too(game):
    settled = settle(game, with_rounds("night: {capo-branco: Marta, guaritore: Marta}"))
    assert settled.rounds[2].dead == () and ("healed", "Marta") in settled.rounds[2].reasons
    unsaved = settle(game, with_rounds("night: {capo-branco: Marta}"))
    assert unsaved.rounds[2].dead == ("Carlo", "Marta")


def test_the_signal_stops_a_side_of_one_wolf_once_and_is_spent_in_vain(game):
    blocked = settle(game, with_rounds("night: {}", "day: {lynched: Delia}",  # the pack: Carlo alone
                                       "night: {capo-branco: Anna, bracconiere: signal}"))
    assert blocked.rounds[4].dead == () and ("blocked", "Carlo") in blocked.rounds[4].reasons
    with pytest.raises(ReplayError, match="bracconiere"):
        settle(game, with_rounds("night: {bracconiere: signal}", "day: {lynched: null}",
                                 "night: {bracconiere: signal}"))


def test_the_madman_killed_by_the_wolves_wins_and_spoils_the_next_first_attack(game):
    settled = settle(game, with_rounds("night: {capo-branco: Nino}", "day: {lynched: null}",
                                       "night: {capo-branco: Anna}"))
    assert settled.rounds[2].dead == ("Nino",) and settled.rounds[4].dead == ()
    assert ("annulled", "Anna") in settled.rounds[4].reasons


def test_the_jester_burned_makes_the_next_day_burn_nobody(game):
    text = TABLE.replace("{name: Nino, card: pazzo}", "{name: Nino, card: giullare}")
    settled = settle(game, text + "  - night: {}\n  - day: {lynched: Nino}\n  - night: {}\n"
                                  "  - day: {votes: {Anna: Carlo, Bice: Carlo, Delia: Carlo}}\n")
    assert settled.rounds[5].lynched is None
    with pytest.raises(ReplayError, match="nobody may be lynched today"):
        settle(game, text + "  - night: {}\n  - day: {lynched: Nino}\n  - night: {}\n  - day: {lynched: Carlo}\n")


def test_the_burned_monster_takes_a_player_with_him(game):
    settled = settle(game, with_rounds("night: {}", "day: {lynched: Ettore, contadino-mostro: Olga}"))
    assert settled.rounds[3].dead == ("Ettore", "Olga")
    with pytest.raises(ReplayError, match="contadino-mostro"):
        settle(game, with_rounds("night: {}", "day: {lynched: Ettore}"))
    voted = "day: {votes: {Anna: Ettore, Bice: Ettore, Carlo: Lino}, contadino-mostro: %s}"
    assert settle(game, with_rounds("night: {}", voted % "Bice")).rounds[3].dead == ("Ettore", "Bice")
    with pytest.raises(ReplayError, match="'Olga' is not one of Anna, Bice"):
        settle(game, with_rounds("night: {}", voted % "Olga"))  # the votes known: one of his voters


@pytest.mark.parametrize("rounds, key", [
    (["night: {medium: Anna}"], "medium"),  # no Medium here (and hers is a dead player)
    (["night: {capo-branco: [Anna, Lino]}"], "capo-branco"),  # two attacks only after the Young Wolf's burning
    (["night: {lupo-solitario: Anna}"], "lupo-solitario"),  # no Lone Wolf here
    (["night: {strega: Franca}"], "strega"),  # not herself
    (["night: {}", "day: {votes: {Anna: Anna}}"], "votes"),  # no self-vote
])
def test_records_the_digest_refuses(game, rounds, key):
    with pytest.raises(ReplayError, match=key):
        settle(game, with_rounds(*rounds))


@pytest.mark.parametrize("first_night, error", [
    ("night: {}", "negromante"),  # the curse is required
    ("night: {negromante: [Anna]}", "negromante"),  # two names
    ("night: {negromante: [Bice, Anna]}", "negromante"),  # not himself
])
def test_the_necromancer_s_curse_is_two_other_players(game, first_night, error):
    text = TABLE.replace("  - night: {negromante: [Anna, Lino]}\n", f"  - {first_night}\n")
    with pytest.raises(ReplayError, match=error):
        settle(game, text)


def test_the_hands_counted_for_each_name_settle_the_vote_as_the_ballots_would():
    from narrator.core.procedures import SecretVote

    vote = SecretVote(("Anna", "Bice", "Carlo"), ("Anna", "Bice", "Carlo"), weights={"Carlo": 2})
    assert vote.most_hands == 4
    assert vote.counted({"Anna": 3, "Bice": 1}).lynched == "Anna"
    tie = vote.counted({"Anna": 2, "Bice": 2})
    assert tie.lynched is None and tie.tied == ("Anna", "Bice")
    assert SecretVote(vote.voters, vote.candidates, spares_all=True).counted({"Anna": 3}).lynched is None


def test_a_day_counted_by_hands_is_checked_and_goes_on(game):
    from test_game_wherewolf import setup_with_cards
    from test_rounds import random_entry

    from narrator.core.rounds import DayStep, Rounds, RoundsError, entry_for

    record_cards = {player["name"]: player["card"] for player in yaml.safe_load(TABLE)["players"]}
    rng = random.Random(2)
    rounds = Rounds(game, setup_with_cards(game, record_cards))
    while not isinstance(rounds.step, DayStep):
        rounds.enter(random_entry(rounds.step, rng))
    day = rounds.step
    with pytest.raises(RoundsError, match="hands, but the voters have"):
        rounds.enter(entry_for(day, hands={"Anna": 40}))
    with pytest.raises(RoundsError, match="'Zoe' is not one of"):
        rounds.enter(entry_for(day, hands={"Zoe": 1}))
    living = day.state.living
    rounds.enter(entry_for(day, hands={living[0]: 3, living[1]: 1}))
    assert rounds.step.kind in ("lynch", "act") and rounds.step.verdict.lynched == living[0]


def test_a_saved_madman_spoils_nothing(game):
    settled = settle(game, with_rounds("night: {capo-branco: Nino, guaritore: Nino}", "day: {lynched: null}",
                                       "night: {capo-branco: Anna}"))
    assert settled.rounds[2].dead == () and settled.rounds[4].dead == ("Anna",)  # the next attack holds
    assert "Nino" not in settled.rounds[4].step.dawn.state.own["extra_winners"]


def test_a_hag_who_dies_takes_her_curses_with_her_tonight_s_too(game):
    settled = settle(game, with_rounds("night: {mago: Irma, capo-branco: Irma}", "day: {lynched: null}",
                                       "night: {mago: Carlo}"))
    assert settled.rounds[2].dead == ("Irma",) and not any(reason == "hag" for reason, _ in settled.rounds[2].reasons)
    assert dict(settled.rounds[4].answers) == {"mago": "not-mystic"}  # Carlo is no mystic: the Mage still learns


GRAVEDIGGER_JOINS = """\
players:
  - {name: Anna, card: veggente}
  - {name: Bice, card: negromante}
  - {name: Carlo, card: capo-branco}
  - {name: Delia, card: contadino-semplice}
  - {name: Ettore, card: contadino-semplice}
  - {name: Franca, card: becchino}
  - {name: Guido, card: mago}
  - {name: Irma, card: bardo}
rounds:
  - night: {negromante: [Delia, Ettore], becchino: join}
"""  # the Becchino joins the Negromante on the first night


def test_the_joined_gravedigger_dies_in_the_massacre_with_everyone_but_the_necromancer(game):
    text = GRAVEDIGGER_JOINS + """\
  - day: {lynched: Delia}
  - night: {}
  - day: {lynched: Ettore}
  - night: {}
  - day: {lynched: null}
  - night: {}
"""
    settled = settle(game, text)
    assert settled.rounds[4].step.dawn.state.own["two_cursed"] == "due"
    assert set(settled.rounds[6].dead) == {"Anna", "Carlo", "Franca", "Guido", "Irma"}
    assert (settled.over.sides, settled.over.winners) == (("negromante",), ("Bice", "Franca"))


def test_with_only_the_cursed_left_the_game_ends_and_no_side_wins(game):
    """The Monster (cursed while alive) and the Hag (no faction) are left: no Creature but a cursed
    one; nobody wins, but whoever wins whatever the end. The digest ends it so even with a human
    alive ("the only Creatures left are maledetto"); a wolf alive, it goes on."""
    from narrator.core.state import State

    cards = {"Anna": "contadino-mostro", "Bice": "capo-branco", "Carlo": "veggente", "Irma": "megera",
             "Nino": "pazzo"}
    state = game.rules.start(game, State(3, tuple(cards), {}, {**game.option_defaults}, cards, ("Bice", "Carlo",
                                                                                                  "Nino")))
    assert game.rules.game_over(game, state.kept(extra_winners=["Nino"])) == ((), ("Nino",))
    assert game.rules.game_over(game, state.revived(["Carlo"])) == ((), ())
    assert game.rules.game_over(game, state.revived(["Carlo", "Bice"])) is None


# --- the moderator's notes --------------------------------------------------------------------------

def states_of(settled):
    """The state after each round of a settled record (a dawn's, then a day's...), as the rules left it."""
    return [result.step.dawn.state if result.night is not None else result.step.dusk.state
            for result in settled.rounds]


def notes_in(game, state, language):
    from narrator.core.rounds import notes_for
    from narrator.core.vote import Sentences

    return list(notes_for(game, state, Sentences(game.languages[language])))


def both(game, state):
    return notes_in(game, state, "en"), notes_in(game, state, "it")


def test_no_notes_before_the_first_night_nor_once_the_necromancer_s_curse_ends_with_him(game):
    from narrator.core.state import State

    cards = {player["name"]: player["card"] for player in yaml.safe_load(EXAMPLES["villaggio"])["players"]}
    start = game.rules.start(game, State(1, tuple(cards), {}, {**game.option_defaults}, cards))
    assert both(game, start) == ([], [])
    states = states_of(settle(game, EXAMPLES["villaggio"]))
    assert both(game, states[0]) == (["Necromancer's curse: Ettore and Irma."],
                                     ["Maledizione del Negromante: Ettore e Irma."])
    # the Monster died cursed (his own curse): counted towards the two while the Necromancer lives
    assert both(game, states[2]) == (
        ["Necromancer's curse: Ettore and Irma.", "Died cursed: Delia (at two, the Necromancer's curse strikes)."],
        ["Maledizione del Negromante: Ettore e Irma.",
         "Morti sotto una maledizione: Delia (a quota due, colpisce la maledizione del Negromante)."])
    assert both(game, states[3]) == ([], [])  # Bice burned: her curses and the two-cursed rule end with him


def test_notes_keep_the_young_wolf_s_double_attack_the_cursed_dead_and_the_massacre_due(game):
    states = states_of(settle(game, EXAMPLES["negromante"]))
    assert both(game, states[1]) == (
        ["Necromancer's curse: Franca and Guido.", "Next dawn the pack strikes twice: the Young Wolf was burned."],
        ["Maledizione del Negromante: Franca e Guido.",
         "Alla prossima alba il branco colpisce due volte: il Giovane Lupo è finito sul rogo."])
    # Irma, the Madman, killed by the wolves wins whatever the end; the spoiled attack is left out:
    # Carlo died with the Hero and no wolf is left to attack
    assert both(game, states[3]) == (
        ["Necromancer's curse: Guido.", "Died cursed: Franca (at two, the Necromancer's curse strikes).",
         "Among the winners, whatever the end: Irma."],
        ["Maledizione del Negromante: Guido.",
         "Morti sotto una maledizione: Franca (a quota due, colpisce la maledizione del Negromante).",
         "Tra i vincitori, comunque finisca: Irma."])
    for state in states[6:8]:  # announced at the fourth dawn: the massacre comes at the next, the night between
        assert both(game, state) == (
            ["Next dawn, if the Necromancer lives, everyone else dies.", "Among the winners, whatever the end: Irma."],
            ["Alla prossima alba, se il Negromante è vivo, muoiono tutti gli altri.",
             "Tra i vincitori, comunque finisca: Irma."])


def test_notes_keep_the_converted_wolf_born_and_the_poacher_s_signal_while_he_lives(game):
    states = states_of(settle(game, EXAMPLES["lupo-solitario"]))
    assert both(game, states[2]) == (
        ["Necromancer's curse: Franca and Irma.", "Turned wolf, with the Lone Wolf: Ettore."],
        ["Maledizione del Negromante: Franca e Irma.", "Lupo risvegliato, con il Lupo Solitario: Ettore."])
    assert both(game, states[4]) == (
        ["Turned wolf, with the Lone Wolf: Ettore.", "The Poacher's signal is spent."],
        ["Lupo risvegliato, con il Lupo Solitario: Ettore.", "Il Bracconiere ha già dato il suo segnale."])
    assert both(game, states[6]) == (["Turned wolf, with the Lone Wolf: Ettore."],  # Guido dead: his signal is past
                                     ["Lupo risvegliato, con il Lupo Solitario: Ettore."])
    born = TABLE.replace("{name: Marta, card: contadino-eroe}", "{name: Marta, card: contadino-discendente-dei-lupi}")
    pack = states_of(settle(game, born + "  - night: {capo-branco: Marta}\n  - day: {lynched: Bice}\n"))
    assert both(game, pack[3]) == (["Turned wolf, with the Pack: Marta."],
                                   ["Lupo risvegliato, con i Lupi del Branco: Marta."])


def test_notes_keep_the_hag_s_curse_the_spoiled_attack_and_the_spent_save(game):
    states = states_of(settle(game, with_rounds(
        "night: {mago: Irma, capo-branco: Nino}", "day: {lynched: null}",
        "night: {capo-branco: Anna, bracconiere: signal}", "day: {lynched: null}",
        "night: {capo-branco: Marta, guaritore: Marta}", "day: {lynched: Bice}")))
    assert both(game, states[3]) == (
        ["Necromancer's curse: Anna and Lino.", "Hag's curse: Lino.",
         "Next dawn the wolves' first attack fails: the Madman's death.", "Among the winners, whatever the end: Nino."],
        ["Maledizione del Negromante: Anna e Lino.", "Maledizione della Megera: Lino.",
         "Alla prossima alba il primo attacco dei lupi va a vuoto: pesa la morte del Pazzo.",
         "Tra i vincitori, comunque finisca: Nino."])
    assert both(game, states[7]) == (  # the Necromancer burned: his curse ends, the Hag's holds
        ["Hag's curse: Lino.", "The Poacher's signal is spent.", "The Healer's save is spent.",
         "Among the winners, whatever the end: Nino."],
        ["Maledizione della Megera: Lino.", "Il Bracconiere ha già dato il suo segnale.",
         "Il Guaritore ha già usato il suo salvataggio.", "Tra i vincitori, comunque finisca: Nino."])


def test_notes_keep_the_jester_s_day_and_the_joined_gravedigger(game):
    text = TABLE.replace("{name: Nino, card: pazzo}", "{name: Nino, card: giullare}")
    states = states_of(settle(game, text + "  - night: {}\n  - day: {lynched: Nino}\n  - night: {}\n"
                                           "  - day: {votes: {Anna: Carlo, Bice: Carlo, Delia: Carlo}}\n"))
    for state in states[3:5]:  # from his burning to the day that burns nobody
        assert both(game, state) == (
            ["Necromancer's curse: Anna and Lino.", "Nobody goes to the pyre at the next vote: the Jester already did.",
             "Among the winners, whatever the end: Nino."],
            ["Maledizione del Negromante: Anna e Lino.",
             "Al prossimo voto nessuno sale sul rogo: il Giullare ci è già salito.",
             "Tra i vincitori, comunque finisca: Nino."])
    assert both(game, states[5]) == (
        ["Necromancer's curse: Anna and Lino.", "Among the winners, whatever the end: Nino."],
        ["Maledizione del Negromante: Anna e Lino.", "Tra i vincitori, comunque finisca: Nino."])
    joined = GRAVEDIGGER_JOINS + "  - day: {lynched: Franca}\n"
    for state in states_of(settle(game, joined)):  # dead too, he still wins with the Necromancer, never the village
        assert both(game, state) == (
            ["Necromancer's curse: Delia and Ettore.", "Gravedigger on the Necromancer's side: Franca."],
            ["Maledizione del Negromante: Delia ed Ettore.", "Becchino schierato con il Negromante: Franca."])
