"""Wherewolf in Tabula as a moderator meets it: whole games with random choices played in the core
to their end and resumed from any entry, a 12-player game with the Necromancer played at the
terminal to a winner in Italian and in English, a game stopped in the middle and resumed, the
speaker box following a game, and the set shown by ``narrate deck``.

The answers typed are those of a game played with random choices in the core (test_game_lupus's
planned_game, on the set narrate draws with the environment's seed)."""

import random
from types import MappingProxyType

import pytest
from test_game_lupus import (
    assert_the_box_follows_the_game,
    game_command,
    invoke,
    lupus_env,
    planned_game,
    play_stopped_and_resumed,
    saved_game,
)
from test_rounds import NAMES, assert_replays_and_resumes_from_any_entry, play_to_the_end, random_entry

from narrator.core.deck import build_deck
from narrator.core.rounds import Over, PhaseStep, Rounds, Setup, notes_for
from narrator.core.script import INTRO_PHASE
from narrator.core.vote import Sentences
from narrator.games import GAMES_DIR
from narrator.games.loader import load_game

WIT = "wherewolf-in-tabula"
SHADOW = ("lupi-del-branco", "lupo-solitario", "negromante")


@pytest.fixture(scope="module")
def game():
    return load_game(GAMES_DIR / WIT)


def drawn_setup(game, players, rng, necromancing=True):
    options = {**game.option_defaults, "necromancing": necromancing}
    deck = build_deck(game, players=players, rng=rng, options=options)[0]
    cards = [role_id for role_id, copies in deck.counts for _copy in range(copies)]
    rng.shuffle(cards)
    names = NAMES[:players]
    return Setup(names, MappingProxyType(deck.as_dict()), MappingProxyType(options),
                 MappingProxyType(dict(zip(names, cards, strict=True))))


def assert_the_end_is_the_digests(game, over: Over):
    """The end against the digest's words, on the table as it stands: no side when nobody lives or
    only the cursed do; the Village when no Creature of the Shadow lives; else one Shadow side, the
    only one alive, with no uncursed villager alive."""
    rules, state = game.rules, over.state
    living = state.living
    cursed = {name for name in living if rules.is_cursed(state, name)}
    factions = {rules.faction(game, state, name) for name in living}
    creatures = {side for side in factions if side in SHADOW} | (
        {"maledetto"} if any(rules.faction(game, state, name) not in SHADOW for name in cursed) else set())
    if not living or creatures == {"maledetto"}:
        assert over.sides == ()
    elif not creatures:
        assert over.sides == ("villaggio",)
    else:
        humans = [name for name in living if rules.faction(game, state, name) == "villaggio" and name not in cursed]
        assert creatures == set(over.sides) and over.sides[0] in SHADOW and not humans
    assert set(over.winners) <= set(state.seating)


@pytest.mark.parametrize("players", [8, 12, 16, 20, 24])
def test_whole_games_with_random_choices_end_as_the_rules_say_and_resume_from_any_entry(game, players):
    for seed in range(5):
        rng = random.Random(players * 100 + seed)
        setup = drawn_setup(game, players, rng, necromancing=seed != 4)
        rounds = play_to_the_end(game, setup, rng)
        over = rounds.step
        assert_the_end_is_the_digests(game, over)
        assert_replays_and_resumes_from_any_entry(game, setup, rounds, rng)


command = game_command(WIT, NAMES)


@pytest.mark.parametrize("language", ["it", "en"])
def test_a_twelve_player_game_with_the_necromancer_plays_to_a_winner(game, tmp_path, language):
    env = lupus_env(tmp_path, language, seed=41)
    rounds, typed = planned_game(game, env, 12, seed=5)
    assert "negromante" in rounds.setup.deck
    result = invoke(env, command(12), ["", *typed])  # Enter: the cards are dealt
    assert result.exit_code == 0, result.output
    assert "--seed 41" in result.stderr  # the set is drawn: its seed is said
    saved = saved_game(env)
    assert saved["entries"] == rounds.entries and saved["over"] is True
    words = game.languages[language]
    over = rounds.step
    assert words.line(f"end.{over.sides[0]}" if over.sides else "end.none") in result.output
    for name, role_id in rounds.setup.cards.items():  # the moderator's secret table
        assert f"{name.ljust(5)}  {words.role_name(role_id)}" in result.output
    said = [text for _time, text in env.speaker_said]
    dead = [name for name in rounds.setup.seating if name in over.state.dead]
    assert dead and all(any(name in text for text in said) for name in dead)  # the dead are said by name
    counted = [entry["hands"] for entry in rounds.entries if entry["kind"] == "day" and "hands" in entry]
    assert counted  # at least one of its days is counted by hands
    assert set(counted[0]) <= set(said)  # each name called aloud before its hands are counted
    notes = nightfall_notes(game, rounds, language)
    assert notes  # the Necromancer's curse, at least
    printed = [line.strip() for line in result.output.splitlines() if line.startswith("  · ")]
    assert printed == [f"· {note}" for note in notes]  # under the cards, at each night's start


def nightfall_notes(game, rounds, language):
    """The rules' notes for the moderator at the start of each night of a game played in the core."""
    replayed, notes = Rounds(game, rounds.setup), []
    for entry in rounds.entries:
        step = replayed.step
        if isinstance(step, PhaseStep) and step.phase == INTRO_PHASE:
            notes += notes_for(game, step.state, Sentences(game.languages[language]))
        replayed.enter(entry)
    return notes


def test_a_game_stopped_in_the_middle_resumes_where_it_was(game, tmp_path):
    env = lupus_env(tmp_path, "en", seed=12)
    rounds, typed = planned_game(game, env, 10, seed=3)
    play_stopped_and_resumed(env, rounds, typed, command(10))


def test_the_speaker_box_follows_the_game_to_its_end(game, tmp_path):
    assert_the_box_follows_the_game(game, tmp_path, command, 8)


def test_narrate_deck_draws_the_set_and_reads_the_possible_roles(run):
    result = run("--game", WIT, "deck", "--players", "20", "--lang", "en", "--random", "--seed", "3")
    assert result.exit_code == 0, result.stderr
    assert "Lone Wolf" in result.stdout.split("Possible roles", 1)[1].splitlines()[0]
    refused = run("--game", WIT, "deck", "--deck", "veggente, negromante, capo-branco, lupo-solitario, "
                  "contadino-semplice x2, mago, bardo", "--lang", "en")
    assert refused.exit_code == 2
    assert refused.stderr == "narrate: 'lupo-solitario' needs 'bracconiere' in the deck: add 'bracconiere' or remove " \
                             "'lupo-solitario'\n"
    off = run("--game", WIT, "deck", "--deck", "veggente, negromante, capo-branco, contadino-semplice x2, mago, bardo, "
              "oste", "--option", "necromancing=off", "--lang", "en")
    assert off.exit_code == 2 and "with necromancing off 'negromante' cannot play" in off.stderr


def test_the_monk_is_shown_possible_roles_nobody_holds(game):
    rng = random.Random(3)
    setup = drawn_setup(game, 16, rng)
    cards = dict(setup.cards)
    monk_holder = next((name for name, role in cards.items() if role == "monaco"), None)
    if monk_holder is None:  # put the Monk in the seat of a plain villager of the draw
        seat = next(name for name, role in cards.items() if role in ("bardo", "oste", "eremita", "contadino-semplice"))
        deck = dict(setup.deck)
        deck[cards[seat]] -= 1
        deck = {role: copies for role, copies in deck.items() if copies} | {"monaco": 1}
        cards[seat] = "monaco"
        setup = Setup(setup.seating, MappingProxyType(deck), setup.options, MappingProxyType(cards))
    rounds = Rounds(game, setup)
    while not (rounds.step.kind == "phase" and rounds.step.phase == "monaco"):
        rounds.enter(random_entry(rounds.step, rng))
    shown = rounds.step.ask.roles
    possible = game.rules.possible_roles(game, 16, setup.options)
    assert shown and set(shown) <= set(possible) and not set(shown) & set(setup.deck)
    assert not any(role.startswith("contadino-") for role in shown)


def setup_with_cards(game, cards: dict, **options):
    """A table of ``cards`` (name: role), the deck theirs."""
    deck: dict[str, int] = {}
    for role_id in cards.values():
        deck[role_id] = deck.get(role_id, 0) + 1
    return Setup(tuple(cards), MappingProxyType(deck), MappingProxyType({**game.option_defaults, **options}),
                 MappingProxyType(dict(cards)))
