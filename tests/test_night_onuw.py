"""One Night Ultimate Werewolf's night and deck, as the digest's table says them
(shared/rules/one-night-ultimate-werewolf.md): every role of the deck called once and in order,
the Doppelgänger's steps and later turns, the centre werewolf, the lone wolf and the Dream Wolf."""

import random
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from narrator.core.deck import build_deck, check_deck, make_deck, parse_deck_list, random_deck
from narrator.core.errors import DeckError
from narrator.core.script import Count, Line, generate_script, settings_for
from narrator.games.loader import load_game
from tests.conftest import GAMES_DIR

ONUW = "one-night-ultimate-werewolf"
# The digest's table: (number, turn id, the roles it calls), in order.
DIGEST_NIGHT = [
    ("0", "sentinel", {"sentinel"}), ("1", "doppelganger", {"doppelganger"}),
    ("2", "werewolf", {"werewolf", "alpha-wolf", "mystic-wolf", "dream-wolf"}),
    ("2B", "alpha-wolf", {"alpha-wolf"}), ("2C", "mystic-wolf", {"mystic-wolf"}), ("3", "minion", {"minion"}),
    ("4", "mason", {"mason"}), ("5", "seer", {"seer"}), ("5B", "apprentice-seer", {"apprentice-seer"}),
    ("5C", "paranormal-investigator", {"paranormal-investigator"}), ("6", "robber", {"robber"}),
    ("6B", "witch", {"witch"}), ("7", "troublemaker", {"troublemaker"}), ("7B", "village-idiot", {"village-idiot"}),
    ("8", "drunk", {"drunk"}), ("9", "insomniac", {"insomniac"}),
    ("9a", "doppelganger-insomniac", {"doppelganger"}), ("10", "revealer", {"revealer"}),
    ("10a", "doppelganger-revealer", {"doppelganger"}), ("11", "curator", {"curator"}),
    ("11a", "doppelganger-curator", {"doppelganger"}),
]
NEVER_WOKEN = {"villager", "hunter", "tanner", "bodyguard"}
LATER = {"doppelganger-insomniac": "insomniac", "doppelganger-revealer": "revealer",
         "doppelganger-curator": "curator"}
IMMEDIATE = ["sentinel", "alpha-wolf", "mystic-wolf", "seer", "apprentice-seer", "paranormal-investigator", "robber",
             "witch", "troublemaker", "village-idiot", "drunk"]


@cache
def onuw():
    return load_game(GAMES_DIR / ONUW)


def night(deck, lang="en", **options):
    game = onuw()
    return generate_script(game, deck, settings_for(game, lang, options=options or None))


def keys(script):
    return [cue.key for cue in script.cues() if not cue.key.startswith("count.")]


def test_the_box_is_the_digest():
    game = onuw()
    assert {role.id: role.copies for role in game.roles} == {
        "doppelganger": 1, "werewolf": 2, "minion": 1, "mason": 2, "seer": 1, "robber": 1, "troublemaker": 1,
        "drunk": 1, "insomniac": 1, "villager": 3, "hunter": 1, "tanner": 1, "sentinel": 1, "alpha-wolf": 1,
        "mystic-wolf": 1, "dream-wolf": 1, "apprentice-seer": 1, "paranormal-investigator": 1, "witch": 1,
        "village-idiot": 1, "revealer": 1, "curator": 1, "bodyguard": 1}
    assert game.tokens == ("clay-of-the-werewolf", "brand-of-the-villager", "cudgel-of-the-tanner",
                           "void-of-nothingness", "mask-of-muting", "shroud-of-shame")
    assert (game.centre_cards, game.box_cards, game.min_players, game.max_players) == (3, 0, 3, 10)


def test_the_night_order_is_the_digest_table():
    assert [(str(slot.number), slot.id, set(slot.roles)) for slot in onuw().night.slots] == DIGEST_NIGHT
    woken = {role for slot in onuw().night.slots for role in slot.roles}
    assert {role.id for role in onuw().roles} - woken == NEVER_WOKEN


def test_every_recommended_deck_is_legal_and_base_box_only():
    game = onuw()
    daybreak = {"sentinel", "alpha-wolf", "mystic-wolf", "dream-wolf", "apprentice-seer", "paranormal-investigator",
                "witch", "village-idiot", "revealer", "curator", "bodyguard"}
    for players in range(3, 11):
        deck = make_deck(game, game.recommended_decks[players])
        assert check_deck(game, deck, players) == players and deck.size == players + 3
        assert not deck.role_ids & daybreak


def test_the_doppelganger_names_her_immediate_actions_and_the_minion_step():
    deck = parse_deck_list(onuw(), "doppelganger, werewolf x2, minion, seer, robber, witch, insomniac")
    said = keys(night(deck))
    phase = said[said.index("doppelganger.open"):said.index("doppelganger.close") + 1]
    assert phase == ["doppelganger.open", "doppelganger.act-now", "doppelganger.as-seer", "doppelganger.as-robber",
                     "doppelganger.as-witch", "doppelganger.minion", "doppelganger.minion-thumbs-down",
                     "doppelganger.close"]
    segments = [segment for segment in night(deck).segments if segment.phase == "doppelganger"]
    shape = ["count" if isinstance(segment, Count) else segment.key for segment in segments]
    assert shape == ["doppelganger.open", "count", "doppelganger.act-now", "doppelganger.as-seer",
                     "doppelganger.as-robber", "doppelganger.as-witch", "count", "doppelganger.minion", "count",
                     "doppelganger.minion-thumbs-down", "doppelganger.close"]


def test_without_a_role_that_acts_at_once_or_the_minion_she_only_looks():
    deck = parse_deck_list(onuw(), "doppelganger, werewolf x2, villager x3")
    segments = [segment for segment in night(deck).segments if segment.phase == "doppelganger"]
    assert ["count" if isinstance(s, Count) else s.key for s in segments] == [
        "doppelganger.open", "count", "doppelganger.close"]


def test_the_investigator_and_the_witch_get_twice_the_count():
    deck = parse_deck_list(onuw(), "werewolf x2, seer, paranormal-investigator, witch, villager")
    counts = {segment.phase: segment.seconds for segment in night(deck).segments if isinstance(segment, Count)}
    assert counts == {"werewolf": 10, "seer": 10, "paranormal-investigator": 20, "witch": 20}


def test_the_dream_wolf_raises_a_thumb_and_the_lone_wolf_option():
    deck = parse_deck_list(onuw(), "dream-wolf, werewolf, seer, robber, villager x2")
    said = keys(night(deck))
    assert said[said.index("werewolf.open"):said.index("werewolf.close") + 1] == [
        "werewolf.open", "werewolf.dream-wolf", "werewolf.lone", "werewolf.dream-wolf-down", "werewolf.close"]
    assert "werewolf.lone" not in keys(night(deck, **{"lone-wolf": False}))


def test_the_alpha_wolf_sets_a_werewolf_card_apart_from_the_box():
    game = onuw()
    deck = parse_deck_list(game, "alpha-wolf, werewolf, seer, robber, troublemaker, villager")
    assert (deck.size, deck.apart, deck.all_copies("werewolf")) == (6, (("werewolf", 1),), 2)
    # Both werewolves dealt: the Mystic Wolf lies apart instead; none left: the deck is refused.
    assert parse_deck_list(game, "alpha-wolf, werewolf x2, seer, robber, villager").apart == (("mystic-wolf", 1),)
    full = parse_deck_list(game, "alpha-wolf, werewolf x2, mystic-wolf, dream-wolf, seer")
    with pytest.raises(DeckError, match="'alpha-wolf' needs a card set apart"):
        check_deck(game, full, 3)
    assert night(deck).deck.apart == (("werewolf", 1),)


def test_a_deck_needs_a_card_of_the_werewolf_team():
    game = onuw()
    with pytest.raises(DeckError, match="at least one card of the side 'werewolf'"):
        check_deck(game, parse_deck_list(game, "seer, robber, troublemaker, villager x3"), 3)
    check_deck(game, parse_deck_list(game, "minion, seer, robber, troublemaker, villager x2"), 3)


def test_the_masons_come_together():
    with pytest.raises(DeckError, match="'mason' cards go in together"):
        build_deck(onuw(), players=4, add=["mason"], remove=["villager"])


@st.composite
def decks(draw):
    players = draw(st.integers(3, 10))
    return random_deck(onuw(), players, random.Random(draw(st.integers(0, 2**32))))


@settings(max_examples=300, deadline=None)
@given(deck=decks(), lone=st.booleans())
def test_every_turn_of_the_deck_is_called_once_and_in_order(deck, lone):
    script = night(deck, **{"lone-wolf": lone})
    expected = [turn for _, turn, roles in DIGEST_NIGHT
                if roles & deck.role_ids and (turn not in LATER or LATER[turn] in deck.role_ids)]
    assert list(script.phases) == expected
    # Each called turn is one block: it opens once, closes once, and is never interrupted.
    phases = [segment.phase for segment in script.segments]
    blocks = [phase for index, phase in enumerate(phases) if index == 0 or phases[index - 1] != phase]
    assert blocks == ["night", *expected, "dawn"]
    assert sum(isinstance(segment, Count) for segment in script.segments) >= len(expected)
    assert ("werewolf.lone" in keys(script)) == (lone and "werewolf" in expected)


@settings(max_examples=300, deadline=None)
@given(deck=decks())
def test_the_doppelganger_later_turns_exactly_when_both_roles_are_in_the_deck(deck):
    phases = set(night(deck).phases)
    for later, role in LATER.items():
        assert (later in phases) == ({"doppelganger", role} <= deck.role_ids)
    said = keys(night(deck))
    for role in IMMEDIATE:
        assert (f"doppelganger.as-{role}" in said) == ({"doppelganger", role} <= deck.role_ids)
    assert ("doppelganger.minion" in said) == ({"doppelganger", "minion"} <= deck.role_ids)


@settings(max_examples=200, deadline=None)
@given(deck=decks())
def test_random_decks_are_legal(deck):
    game = onuw()
    players = deck.size - 3
    assert check_deck(game, deck, players) == players
    assert any(game.role(role).side == "werewolf" for role in deck.role_ids)


def test_the_italian_night_says_every_line_in_italian():
    deck = parse_deck_list(onuw(), "doppelganger, werewolf, alpha-wolf, mystic-wolf, dream-wolf, minion, sentinel, "
                                   "seer, paranormal-investigator, witch, insomniac, revealer, curator")
    english = {segment.key: segment.text for segment in night(deck).segments if isinstance(segment, Line)}
    italian = {segment.key: segment.text for segment in night(deck, "it").segments if isinstance(segment, Line)}
    assert english.keys() == italian.keys() and len(italian) > 40
    assert not {key for key in italian if italian[key] == english[key]}


def test_messages_give_examples_in_the_game_own_ids(run):
    result = run("--game", ONUW, "deck", "--deck", " , ", "--lang", "en")
    assert result.stderr == ("narrate: the deck ' , ' names no role: list roles with commas, like "
                             "'werewolf x2, seer, robber'\n")
    result = run("--game", ONUW, "script", "-p", "5", "--seconds", "seer", "--lang", "en")
    assert "write it like sentinel=15" in result.stderr and result.exit_code == 2


def phase_keys(script, phase):
    return [segment.key for segment in script.segments if segment.phase == phase and isinstance(segment, Line)]


def spoken(script) -> str:
    return " ".join(segment.text for segment in script.segments if isinstance(segment, Line))


@pytest.mark.parametrize("lang, name", [("en", "Dream Wolf"), ("it", "Lupo Sognatore")])
def test_the_minion_steps_name_the_dream_wolf_only_when_she_is_in_the_deck(lang, name):
    without = parse_deck_list(onuw(), "doppelganger, werewolf x2, minion, seer, robber, villager")
    script = night(without, lang)
    assert name not in spoken(script)
    assert phase_keys(script, "minion") == ["minion.open", "minion.thumbs-down", "minion.close"]
    with_her = parse_deck_list(onuw(), "doppelganger, werewolf, dream-wolf, minion, seer, robber, villager")
    script = night(with_her, lang)
    assert phase_keys(script, "minion") == ["minion.open", "minion.dream-wolf", "minion.thumbs-down", "minion.close"]
    doppelganger = phase_keys(script, "doppelganger")
    assert doppelganger[doppelganger.index("doppelganger.minion"):] == [
        "doppelganger.minion", "doppelganger.dream-wolf", "doppelganger.minion-thumbs-down", "doppelganger.close"]
    for key in ("minion.dream-wolf", "doppelganger.dream-wolf"):
        assert name in onuw().languages[lang].line(key)


def test_a_card_with_a_shield_is_off_limits_to_the_village_idiot_and_the_curators():
    deck = parse_deck_list(onuw(), "sentinel, doppelganger, werewolf x2, village-idiot, curator, villager")
    script = night(deck)
    assert phase_keys(script, "village-idiot") == ["village-idiot.open", "village-idiot.shield", "village-idiot.close"]
    assert phase_keys(script, "curator") == ["curator.open", "curator.shield", "curator.close"]
    assert phase_keys(script, "doppelganger-curator") == [
        "doppelganger-curator.open", "doppelganger-curator.shield", "doppelganger-curator.close"]
    doppelganger = phase_keys(script, "doppelganger")
    assert doppelganger[doppelganger.index("doppelganger.as-village-idiot") + 1] == "doppelganger.shield-stays"
    for lang, shield in (("en", "shield"), ("it", "scudo")):
        language = onuw().languages[lang]
        for key in ("village-idiot.shield", "curator.shield", "doppelganger-curator.shield",
                    "doppelganger.shield-stays"):
            assert shield in language.line(key)


@settings(max_examples=200, deadline=None)
@given(deck=decks())
def test_the_dream_wolf_and_the_shield_are_named_exactly_when_their_cards_are_in_the_deck(deck):
    for lang, dream_wolf, shield in (("en", "Dream Wolf", "shield"), ("it", "Sognatore", "scudo")):
        text = spoken(night(deck, lang))
        assert (dream_wolf in text) == ("dream-wolf" in deck.role_ids)
        assert (shield in text) == ("sentinel" in deck.role_ids)


@pytest.mark.parametrize("lang, words", [("en", "other players' cards"), ("it", "carte di altri giocatori")])
def test_the_doppelganger_investigator_looks_at_other_players_cards_as_the_investigator_does(lang, words):
    language = onuw().languages[lang]
    assert words in language.line("paranormal-investigator.open")
    assert words in language.line("doppelganger.as-paranormal-investigator")


def test_a_doppelganger_who_copied_a_wolf_that_acts_is_told_what_to_do_at_the_later_turns():
    english, italian = onuw().languages["en"], onuw().languages["it"]
    assert english.line("doppelganger.act-now") == (
        "If you saw one of these roles, do its action now, and not again at its own turn.")
    assert italian.line("doppelganger.act-now") == (
        "Se hai visto uno di questi ruoli, fai adesso la sua azione, e non di nuovo al suo turno.")
    for wolf in ("alpha-wolf", "mystic-wolf"):
        assert english.line(f"doppelganger.as-{wolf}").endswith("; later, wake up with the werewolves.")
        assert italian.line(f"doppelganger.as-{wolf}").endswith("; più tardi, apri gli occhi insieme ai lupi.")
