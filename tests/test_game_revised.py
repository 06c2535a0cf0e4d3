"""Wherewolf Revised played whole: random games of 8 to 36 players to their end, resumed from any
entry; a 14-player game of two moons at the terminal in both languages; a game stopped in the
middle and resumed; the speaker box; ``narrate deck`` with the Possibili and the Effettivi."""

import random
import re
from types import MappingProxyType

import pytest
from test_game_lupus import (
    _,
    assert_the_box_follows_the_game,
    game_command,
    invoke,
    lupus_env,
    planned_game,
    play_stopped_and_resumed,
    saved_game,
    typed_for,
)
from test_rounds import NAMES, assert_replays_and_resumes_from_any_entry, play_to_the_end

from narrator.core.deck import build_deck
from narrator.core.procedures import HandsStep
from narrator.core.rounds import Over, PhaseStep, Rounds, Setup
from narrator.games import GAMES_DIR
from narrator.games.loader import load_game

WR = "wherewolf-revised"
SHADOW = ("lupi-del-branco", "vampiro")
SEATS = (*NAMES, *(f"P{number}" for number in range(1, 13)))  # 36 names


@pytest.fixture(scope="module")
def game():
    return load_game(GAMES_DIR / WR)


def drawn_setup(game, players, rng, **options):
    chosen = {**game.option_defaults, **options}
    deck = build_deck(game, players=players, rng=rng, options=chosen)[0]
    cards = [role_id for role_id, copies in deck.counts for _copy in range(copies)]
    rng.shuffle(cards)
    names = SEATS[:players]
    return Setup(names, MappingProxyType(deck.as_dict()), MappingProxyType(chosen),
                 MappingProxyType(dict(zip(names, cards, strict=True))))


def assert_the_end_is_the_digests(game, over: Over):
    """The end against the digest's words, on the table as it stands: nobody left, no faction; no
    creature in play, the Men (the City if anyone holds it, the Village unless Criminals live and
    no guard does); else the living, faction-less aside, all of one faction."""
    rules, state = game.rules, over.state
    living = state.living
    factions = {rules.faction(game, state, name) for name in living} - {"nessuna"}
    main = [side for side in over.sides if side not in ("amante", "pazzo", "giullare")]
    if not living:
        assert main == []
    elif state.own["stalemate"]:  # two of a rank left and nobody dead: the factions left win together
        assert len(living) == 2 and set(main) == factions & set(rules.ENDS)
    elif not any(rules.creature(game, state, name) for name in living):
        criminals = "criminali" in factions
        guards = any(state.cards[name] in ("guardia", "altra-guardia") for name in living)
        assert main[-1] == ("villaggio" if not criminals or guards else "criminali")
        assert ("citta" in main) == any(rules.faction(game, state, name) == "citta" for name in state.seating)
    else:
        assert len(factions) == 1
        assert main == [side for side in factions if side in SHADOW]
    for extra in ("pazzo", "giullare"):  # killed by the wolves, burned: they win whatever the end
        holders = [name for name in state.seating if state.cards[name] == extra]
        assert (extra in over.sides) == any(name in state.own["extra"] for name in holders)
        assert all(name in over.winners for name in holders if name in state.own["extra"])
    assert set(over.winners) <= set(state.seating)


@pytest.mark.parametrize("players", [8, 11, 14, 19, 24, 30, 36])
def test_whole_games_with_random_choices_end_as_the_rules_say_and_resume_from_any_entry(game, players):
    for seed in range(4):
        rng = random.Random(players * 100 + seed)
        options = {"due-lune": players > 18 or seed % 2 == 0, "amuleto": seed == 1, "spada": seed == 2,
                   "rivelazione-ruolo": seed == 3 and players < 36}
        setup = drawn_setup(game, players, rng, **options)
        rounds = play_to_the_end(game, setup, rng)
        assert_the_end_is_the_digests(game, rounds.step)
        assert_replays_and_resumes_from_any_entry(game, setup, rounds, rng)


command = game_command(WR, SEATS)


@pytest.mark.parametrize("language", ["it", "en"])
def test_a_fourteen_player_game_of_two_moons_plays_to_a_winner(game, tmp_path, language):
    env = lupus_env(tmp_path, language, seed=14)
    rounds, typed = planned_game(game, env, 14, seed=7)
    assert rounds.setup.options["due-lune"] and any(game.role(role_id).trait("moons") == 2
                                                    for role_id in rounds.setup.deck)
    result = invoke(env, command(14), ["", *typed])  # Enter: the cards are dealt
    assert result.exit_code == 0, result.output
    assert "turn: " not in result.output  # a value of named parts is told in words, never by its part names
    saved = saved_game(env)
    assert saved["entries"] == rounds.entries and saved["over"] is True
    words = game.languages[language]
    over = rounds.step
    assert words.line(f"end.{over.sides[0]}" if over.sides else "end.none") in result.output
    said = [text for _time, text in env.speaker_said]
    dead = [name for name in rounds.setup.seating if name in over.state.dead]
    assert dead and all(any(name in text for text in said) for name in dead)  # the dead are said by name
    accused = [entry for entry in rounds.entries if entry["kind"] == "vote" and entry["round"] == "runoff"]
    assert accused  # at least one day came to a ballottaggio
    opening = {"en": ("The accusations, eyes closed: call each living player's name in turn, ", "Accused: "),
               "it": ("Le accuse, a occhi chiusi: chiama per nome ogni giocatore vivo", "Accusati: ")}[language]
    assert all(words in result.output for words in opening)  # each round said in the game's own words


@pytest.mark.parametrize("language", ["en", "it"])
def test_the_first_bearer_of_the_amulet_is_drawn_at_the_table_when_the_moderator_names_nobody(game, tmp_path,
                                                                                              language):
    """Issue 39, point 13: at night 1's Amuleto turn the moderator types the first bearer, or presses
    Enter and the laptop draws one among the living (kept in the saved game like a typed name)."""
    env = lupus_env(tmp_path, language, seed=5)
    planned, _typed = planned_game(game, env, 8, seed=1, amuleto=True)
    rounds, typed = Rounds(game, planned.setup), []
    for entry in planned.entries:  # what the group types up to the Amulet's first turn
        if isinstance(rounds.step, PhaseStep) and rounds.step.phase == "amuleto":
            break
        typed += typed_for(game, rounds.step, entry, env)
        rounds.enter(entry)
    result = invoke(env, command(8, "amuleto=on"), ["", *typed, ""])  # Enter: the laptop draws
    assert result.exit_code == 2  # the input ended after the draw: the game is saved
    (drawn,) = [entry for entry in saved_game(env)["entries"] if entry.get("phase") == "amuleto"]
    assert drawn["choice"] in planned.setup.seating
    words = {"en": ("Enter: draw one at random", "Drawn at random: "),
             "it": ("Invio: estrai a sorte", "Estratto a sorte: ")}[language]
    assert words[0] in result.output and words[1] + drawn["choice"] in result.output


def typed_until(game, env, planned, until):
    """What the group types for the planned game's entries up to the first step ``until(step)``."""
    rounds, typed = Rounds(game, planned.setup), []
    for entry in planned.entries:
        if until(rounds.step):
            return typed
        typed += typed_for(game, rounds.step, entry, env)
        rounds.enter(entry)
    raise AssertionError("the planned game never came to that step")


@pytest.mark.parametrize("language", ["en", "it"])
def test_the_accusations_are_given_as_the_hands_counted_for_each_name_called(game, tmp_path, language):
    """Issue 39, point 10: at the accusations the moderator types h, the laptop calls each living
    name in the day's order and the moderator types the hands counted; the ballottaggio follows."""
    env = lupus_env(tmp_path, language, seed=6)
    planned, _typed = planned_game(game, env, 8, seed=2)
    typed = typed_until(game, env, planned, lambda step: isinstance(step, HandsStep))
    said_before = len(env.speaker_said)
    called = list(planned.setup.seating)  # day 1: every name, clockwise
    counts = {called[0]: 5, called[1]: 3}
    result = invoke(env, command(8), ["", *typed, _("h", env), *(str(counts.get(name, 0)) for name in called)])
    assert result.exit_code == 2  # the input ended at the ballottaggio: the game is saved
    (entry,) = [entry for entry in saved_game(env)["entries"] if entry["kind"] == "hands"]
    assert entry["round"] == "accusation" and entry["hands"] == {name: counts.get(name, 0) for name in called}
    assert [text for _time, text in env.speaker_said[said_before:]][-len(called):] == called  # called aloud
    question = {"en": "This round of votes: Enter to type each vote, h to type the hands counted for each name",
                "it": "Questo giro di voti: Invio per scrivere ogni voto, m per scrivere le mani contate per ogni "
                      "nome"}[language]
    assert question in result.output
    accused = {"en": f"Accused: {called[0]} and {called[1]}", "it": f"Accusati: {called[0]} e {called[1]}"}
    assert accused[language] in result.output


def test_a_game_stopped_in_the_middle_resumes_where_it_was(game, tmp_path):
    env = lupus_env(tmp_path, "en", seed=12)
    rounds, typed = planned_game(game, env, 10, seed=3)
    play_stopped_and_resumed(env, rounds, typed, command(10))


def test_the_speaker_box_follows_the_game_to_its_end(game, tmp_path):
    assert_the_box_follows_the_game(game, tmp_path, command, 9)  # three nights: a 14-player game plays 13


def test_narrate_deck_shows_the_possible_roles_and_the_drawn_ones(run):
    result = run("--game", WR, "deck", "--players", "8", "--option", "due-lune=off", "--lang", "en",
                 "--random", "--seed", "3")
    assert result.exit_code == 0, result.stderr
    possible = result.stdout.split("Possible roles", 1)[1].splitlines()[0]
    for name in ("Pack Leader", "Pack Wolf", "Traitor", "Young Wolf", "Seer", "Witch", "Mage", "Peasant",
                 "Peasant (Hero)", "Healer", "Hermit", "Medium"):
        assert name in possible
    chosen = run("--game", WR, "deck", "--players", "8", "--lang", "en", "--possible",
                 "veggente, capo-branco, lupo-del-branco, vampiro, ghoul, contadino x2, strega, mago, ladra")
    assert chosen.exit_code == 0, chosen.stderr
    assert "Thief" in chosen.stdout.split("Possible roles", 1)[1]
    small = run("--game", WR, "deck", "--players", "8", "--possible", "veggente, capo-branco, mago")
    assert small.exit_code == 2
    assert small.stderr == "narrate: the possible roles are 3 cards: 8 players agree 8 to 16 of them\n"
    other = run("--game", "wherewolf-in-tabula", "deck", "--players", "8", "--possible", "veggente")
    assert other.exit_code == 2 and "does not take a list of possible roles" in other.stderr


def test_the_turns_of_the_possibili_are_called_dealt_or_not(game):
    from narrator.core.deck import make_deck
    from narrator.core.script import generate_script, settings_for

    possible = {"veggente": 1, "capo-branco": 1, "lupo-del-branco": 1, "medium": 1, "mago": 1, "contadino": 2,
                "strega": 1, "ladra": 1}
    deck = make_deck(game, {"veggente": 1, "capo-branco": 1, "lupo-del-branco": 1, "mago": 1, "contadino": 2,
                            "strega": 1, "ladra": 1}, possible)
    phases = {segment.phase for segment in generate_script(game, deck, settings_for(game, "en", night=2)).segments}
    assert {"medium", "ombra-medium", "ombra-veggente", "lupi-mannari"} <= phases  # the Medium: undealt, called
    assert "guaritore" not in phases and "vampiro" not in phases  # not possible: never called


@pytest.mark.parametrize("timed", [False, True])
def test_the_assembly_ends_when_the_moderator_says_unless_the_game_is_timed(game, tmp_path, timed):
    env = lupus_env(tmp_path, "en", seed=5)
    rounds, typed = planned_game(game, env, 8, seed=4, **{"gioco-a-tempo": timed})
    options = ["gioco-a-tempo=on"] if timed else []
    result = invoke(env, command(8, *options, day_seconds=5), ["", *typed])
    assert result.exit_code == 0, result.output
    days = sum(1 for entry in rounds.entries if entry["kind"] == "day")
    said = [text for _time, text in env.speaker_said]
    assert result.output.count("press Enter when it is over") == (0 if timed else days)
    assert said.count("day.discuss") == days and said.count("day.vote") == days
    assert said.count("count.3") >= (days if timed else 0)  # the timer's countdown, only on the timer
    if not timed:
        assert "count.3" not in said[said.index("day.discuss"):said.index("day.vote")]


def test_with_rivelazione_ruolo_each_card_is_said_when_its_player_dies(game, tmp_path):
    env = lupus_env(tmp_path, "en", seed=6)
    rounds, typed = planned_game(game, env, 8, seed=1, **{"rivelazione-ruolo": True})
    result = invoke(env, command(8, "rivelazione-ruolo=on"), ["", *typed])
    assert result.exit_code == 0, result.output
    words = game.languages["en"]
    for name in rounds.step.state.dead:
        role = words.role_name(rounds.setup.cards[name])
        assert words.vote["revealed"].format(name=name, role=role) in result.output


def test_narrate_replay_settles_the_digests_worked_examples(run, tmp_path):
    import json

    from test_revised_rules import EXAMPLES

    path = tmp_path / "giovane-lupo.yaml"
    path.write_text(EXAMPLES["giovane-lupo"], encoding="utf-8")
    result = run("--game", WR, "replay", str(path), "--json")
    assert result.exit_code == 0, result.stderr
    settled = json.loads(result.stdout)
    assert settled["rounds"][4]["dead"] == ["Oscar", "Vera", "Zeno"]
    assert settled["winner"]["sides"] == ["villaggio"]
    text = run("--game", WR, "replay", str(path), "--lang", "en")
    assert "The Hero takes Oscar with him." in text.stdout


@pytest.mark.parametrize("lang, words", [
    ("en", ["The night", "Guardian Angel", "Criminals' chance", "Seer", "Criminals' chance (=", "Mage", "Werewolves",
            "Vampire and Ghoul", "Criminals' chance (=", "Healer", "The dawn", "The two votes", "The end",
            "Characters that change the ending"]),
    ("it", ["La notte", "Angelo Custode", "L'occasione dei Criminali", "Veggente", "L'occasione dei Criminali (=",
            "Mago", "Lupi Mannari", "Vampiro e Ghoul", "L'occasione dei Criminali (=", "Guaritore", "L'alba",
            "I due voti", "La fine"]),
])
def test_the_moderators_card_has_the_turn_card_the_dawn_the_two_votes_and_the_end(run, tmp_path, lang, words):
    """The Criminali's beat said before each mystic: its words printed once, at its first place, and
    each other place named where it falls, with that number (issue 39, point 11)."""
    from test_card import flat, make_card, pdf_info, pdf_raw_text, pdf_text

    path, said = make_card(run, tmp_path, "--game", WR, "--players", "14", "--random", "--seed", "0", "--lang", lang)
    text = flat(pdf_text(path))
    text = text[text.index(words[0]):]  # the deck's list aside
    positions, start = [], 0
    for word in words:
        positions.append(text.index(word, start))
        start = positions[-1] + len(word)
    beat = load_game(GAMES_DIR / WR).languages[lang].line("ombra.open")
    assert text.count(beat) == 1
    drawn = pdf_raw_text(path)  # each number drawn before its turn
    first = re.search(rf"(\d+) {re.escape(words[2])} ", drawn)[1]
    assert len(re.findall(rf"\d+ {re.escape(words[2])} \(= {first}\)", drawn)) == 3  # before the Mage, the Witch, the Healer
    pages = pdf_info(path)[0]  # as many as the card takes at 9 pt (its notes too): 2 in English, 3 in Italian
    assert pages == (2 if lang == "en" else 3) and (f"{pages} pages" in said or f"{pages} pagine" in said)


@pytest.mark.parametrize("lang, also", [("en", "Also winning: Criminals, Madman"), ("it", "Vincono anche: ")])
def test_the_end_names_every_side_that_wins(lang, also):
    """The City and the Criminals win together: the end line names the first, and the others follow
    by name (a role that wins alone by the role's), never by id (issue 39, point 5)."""
    from narrator.shell.cli.words import ending
    from narrator.shell.translation import active_catalog, active_language, load_catalog, use

    language = load_game(GAMES_DIR / WR).languages[lang]
    before = (active_catalog(), active_language())
    use(load_catalog(lang, None), lang)
    try:
        lines = ending(language, ("citta", "criminali", "pazzo"))
    finally:
        use(*before)
    assert lines[0] == language.line("end.citta") and lines[1].startswith(also)
    assert language.sides["criminali"] in lines[1] and language.role_name("pazzo") in lines[1]
    assert ending(language, ("citta",)) == [language.line("end.citta")]
