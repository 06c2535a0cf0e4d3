"""The night script: order, counts and timing as the rulebook and the digest ask."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from narrator.core.deck import make_deck, random_deck, recommended_deck
from narrator.core.errors import NarratorError
from narrator.core.script import COUNT_STYLES, Count, Line, generate_script, settings_for, spoken_seconds
from narrator.core.timeline import estimate_seconds, layout


def night(game, deck, lang="it", **options):
    return generate_script(game, deck, settings_for(game, lang, **options))


script_inputs = st.fixed_dictionaries({
    "players": st.integers(3, 10),
    "seed": st.integers(0, 10**9),
    "lang": st.sampled_from(["it", "en"]),
    "count_seconds": st.integers(3, 30),
    "count_style": st.sampled_from(COUNT_STYLES),
    "tips": st.booleans(),
    "nudge": st.booleans(),
})


def script_for(game, case):
    deck = random_deck(game, case["players"], random.Random(case["seed"]))
    settings_ = settings_for(game, case["lang"], case["count_seconds"], case["count_style"],
                             {"tips": case["tips"], "nudge": case["nudge"]})
    return deck, generate_script(game, deck, settings_)


@settings(max_examples=200, deadline=None)
@given(case=script_inputs)
def test_every_waking_role_of_the_deck_is_called_once_in_night_order(game, case):
    deck, script = script_for(game, case)
    order = [slot.id for slot in game.night.slots]
    expected = [slot.id for slot in game.night.slots if set(slot.roles) & deck.role_ids]  # no turn has a 'when' here
    assert list(script.phases) == expected
    opened = [cue.phase for cue in script.cues() if cue.key.endswith(".open")]
    assert opened == expected
    counts = [seg.phase for seg in script.segments if isinstance(seg, Count)]
    assert counts == expected
    phases_in_order = [seg.phase for seg in script.segments]
    assert phases_in_order == sorted(phases_in_order, key=lambda p: -1 if p == "night" else
                                     (len(order) if p == "dawn" else order.index(p)))


@settings(max_examples=200, deadline=None)
@given(case=script_inputs, speed=st.integers(80, 300))
def test_cue_times_never_go_backwards_and_counts_last_exactly(game, case, speed):
    _, script = script_for(game, case)
    timeline = layout(script, lambda cue: estimate_seconds(cue, speed))
    starts = [placed.start for placed in timeline.cues]
    assert starts == sorted(starts)
    assert starts[0] == 0
    assert len(timeline.counts) == len(script.phases)
    by_cue = {id(p.cue): p for p in timeline.cues}
    segments = list(script.segments)
    for index, segment in enumerate(segments):
        if not isinstance(segment, Count):
            continue
        window = next(c for c in timeline.counts if c.phase == segment.phase)
        opening, closing = segments[index - 1], segments[index + 1]
        assert isinstance(opening, Line) and isinstance(closing, Line)
        # the window starts a breath after the opening line ends, and the closing line when it ends
        assert window.start == pytest.approx(by_cue[id(opening)].start + by_cue[id(opening)].duration + game.gap_before_count)
        assert by_cue[id(closing)].start == pytest.approx(window.start + case["count_seconds"])
        assert window.seconds == case["count_seconds"]
        for tick in segment.ticks:
            assert by_cue[id(tick)].start == pytest.approx(window.start + tick.second - 1)


@settings(max_examples=100, deadline=None)
@given(case=script_inputs)
def test_the_night_begins_with_nightfall_and_ends_at_daybreak(game, case):
    _, script = script_for(game, case)
    keys = [cue.key for cue in script.cues()]
    assert keys[0] == "night.start" and keys[-1] == "day.start"
    assert ("night.tips" in keys) == case["tips"]
    assert ("night.nudge" in keys) == case["nudge"]
    assert keys.index("day.start") == len(keys) - 1


def test_the_script_is_a_pure_function(game):
    deck = recommended_deck(game, 10)
    assert night(game, deck) == night(game, deck)


def test_roles_are_called_even_if_their_card_may_be_in_the_centre(game):
    # With 3 players, 3 of the 6 cards are undealt, yet every waking role is called.
    script = night(game, recommended_deck(game, 3))
    assert script.phases == ("lupo-mannaro", "veggente", "guastafeste", "truffatore")


def test_roles_that_never_wake_are_not_called(game):
    script = night(game, recommended_deck(game, 10))
    called = {cue.phase for cue in script.cues()}
    assert not called & {"mortovivo", "contadino", "pinguino-mannaro", "criceto-mannaro"}


def test_mitomane_phase_has_the_wolves_raise_and_lower_a_hand(game):
    script = night(game, recommended_deck(game, 8), lang="en")
    keys = [cue.key for cue in script.cues() if cue.phase == "mitomane"]
    assert keys[:2] == ["mitomane.open", "mitomane.wolves-raise"]
    assert keys[-2:] == ["mitomane.wolves-lower", "mitomane.close"]
    texts = {cue.key: cue.text for cue in script.cues()}
    assert "raise" in texts["mitomane.wolves-raise"] and "eyes shut" in texts["mitomane.wolves-raise"]
    segments = [seg for seg in script.segments if seg.phase == "mitomane"]
    assert [type(seg).__name__ for seg in segments] == ["Line", "Line", "Count", "Line", "Line"]


def test_conditional_steps_follow_the_deck(game_copy):
    # The Mitomane's hand-raising lines depend on wolves being in the deck (data, not code):
    # with the condition pointed at a role that is absent, the lines go away.
    from narrator.games.loader import load_game

    path = game_copy / "game.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("deck_has: lupo-mannaro", "deck_has: mortovivo"),
                    encoding="utf-8")
    game = load_game(game_copy)
    deck = recommended_deck(game, 8)
    keys = [cue.key for cue in night(game, deck).cues()]
    assert "mitomane.wolves-raise" not in keys and "mitomane.open" in keys
    with_mortovivo = make_deck(game, {**deck.as_dict(), "contadino": 1, "mortovivo": 1})
    assert "mitomane.wolves-raise" in [cue.key for cue in night(game, with_mortovivo).cues()]


@pytest.mark.parametrize("seconds, style, aloud", [
    (10, "edges", (1, 2, 8, 9, 10)),
    (10, "full", tuple(range(1, 11))),
    (10, "silent", ()),
    (12, "edges", (1, 2, 10, 11, 12)),
    (5, "edges", (1, 2, 3, 4, 5)),
    (3, "edges", (1, 2, 3)),
])
def test_count_styles(seconds, style, aloud):
    assert spoken_seconds(seconds, style, 2, 3) == aloud


def test_the_edges_are_the_rulebooks_tip_in_the_data(game):
    assert (game.count.aloud_first, game.count.aloud_last) == (2, 3)  # "1… 2…" … "8… 9… 10"
    script = night(game, recommended_deck(game, 3), count_seconds=12)
    count = next(seg for seg in script.segments if isinstance(seg, Count))
    assert [tick.second for tick in count.ticks] == [1, 2, 10, 11, 12]


def test_count_ticks_carry_their_words(game):
    script = night(game, recommended_deck(game, 5), count_style="full")
    veggente = next(seg for seg in script.segments if isinstance(seg, Count) and seg.phase == "veggente")
    assert [tick.text for tick in veggente.ticks] == ["Uno", "Due", "Tre", "Quattro", "Cinque", "Sei", "Sette",
                                                      "Otto", "Nove", "Dieci"]
    assert [tick.key for tick in veggente.ticks][-1] == "count.10"


def test_lines_are_in_the_chosen_language(game):
    deck = recommended_deck(game, 6)
    assert night(game, deck, "it").cues()[-1].text == "Sorge il sole! Aprite tutti gli occhi."
    assert night(game, deck, "en").cues()[-1].text == "The sun is up! Everyone, open your eyes."


def test_pauses_come_from_the_data(game):
    script = night(game, recommended_deck(game, 6))
    lines = {seg.key: seg for seg in script.segments if isinstance(seg, Line)}
    assert lines["night.start"].pause_after == game.gap_after_line
    assert lines["night.tips"].pause_after == game.gap_between_phases
    assert lines["veggente.open"].pause_after == game.gap_before_count == 0.4  # a breath, then the count
    assert lines["veggente.close"].pause_after == game.gap_between_phases
    assert lines["night.nudge"].pause_after == 5.0
    assert lines["day.start"].pause_after == 0


@pytest.mark.parametrize("kwargs, message", [
    ({"lang": "de"}, "no narration in language 'de': choose one of en, it"),
    ({"lang": "it", "count_seconds": 2}, "the count lasts 3 to 30 seconds, not 2"),
    ({"lang": "it", "count_seconds": 31}, "the count lasts 3 to 30 seconds, not 31"),
    ({"lang": "it", "count_style": "loud"}, "no count style 'loud': choose one of full, edges, silent"),
    ({"lang": "it", "options": {"music": True}}, "no narration option 'music'"),
])
def test_bad_settings(game, kwargs, message):
    with pytest.raises(NarratorError, match=message):
        settings_for(game, **kwargs)


def test_layout_in_samples_puts_every_tick_on_its_sample(game):
    rate = 48000
    script = night(game, recommended_deck(game, 10), count_style="full")
    odd_lengths = {cue.key: 12345 + 7 * len(cue.text) for cue in script.cues()}  # arbitrary sample counts
    timeline = layout(script, lambda cue: odd_lengths[cue.key], units_per_second=rate)
    assert all(isinstance(p.start, int) for p in timeline.cues)
    for window in timeline.counts:
        ticks = [p for p in timeline.cues if p.cue.phase == window.phase and p.cue.key.startswith("count.")]
        assert [p.start - window.start for p in ticks] == [second * rate for second in range(10)]
    assert isinstance(timeline.length, int)

