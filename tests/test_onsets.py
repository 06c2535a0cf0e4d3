"""Counts on the beat: each number is heard on its second (within 10 ms), a breath after the
opening line, whatever the voice's lead-in before the vowel."""

import numpy as np
import pytest

from narrator.core.deck import recommended_deck
from narrator.core.script import Line, generate_script, settings_for
from narrator.shell.audio.clip import Clip
from narrator.shell.audio.night import AudioChoice, night_audio
from narrator.shell.audio.onset import perceived_onset
from tests.conftest import make_env

RATE = 48000


def test_the_onset_is_the_vowel_not_the_breath_before_it():
    t = np.arange(int(0.5 * RATE)) / RATE
    breath = 0.01 * np.random.default_rng(1).standard_normal(len(t))  # 120 ms of soft noise first
    vowel = np.where(t >= 0.12, 0.5 * np.sin(2 * np.pi * 220 * t), 0.0)
    onset = perceived_onset((np.where(t < 0.12, breath, 0) + vowel).astype(np.float32), RATE)
    assert abs(onset / RATE - 0.12) < 0.006
    assert perceived_onset(np.zeros(RATE, dtype=np.float32), RATE) == 0


@pytest.mark.parametrize("lang", ["it", "en"])
@pytest.mark.parametrize("style", ["edges", "full"])
def test_every_number_is_heard_on_its_second(lang, style, tmp_path):
    env = make_env(cache_dir=tmp_path)
    game = env.game
    script = generate_script(game, recommended_deck(game, 3), settings_for(game, lang, count_style=style))
    night = night_audio(env, script, AudioChoice(ambience=None))
    audio = night.render()
    errors = []
    for window in night.counts:
        ticks = [clip for clip in night.clips if clip.cue.phase == window.phase and clip.cue.key.startswith("count.")]
        for clip in ticks:
            second = window.start + (clip.cue.second - 1) * RATE  # where the grid says the number is
            # Measured on the rendered night alone, from a quarter second before the grid's second.
            begin = second - RATE // 4
            heard = begin + perceived_onset(audio[begin:second + RATE // 2], RATE)
            errors.append(abs(heard - second) / RATE)
    assert errors and max(errors) <= 0.010


def test_a_breath_between_the_opening_line_and_the_first_number():
    env = make_env()
    game = env.game
    script = generate_script(game, recommended_deck(game, 5), settings_for(game, "it"))
    before = [segment for segment, nxt in zip(script.segments, script.segments[1:], strict=False)
              if isinstance(segment, Line) and not isinstance(nxt, Line)]
    assert before and all(0.3 <= line.pause_after <= 0.5 for line in before)


def test_the_onset_of_a_late_word_moves_it_earlier_on_the_grid(tmp_path):
    """A word whose vowel comes 150 ms in is placed 150 ms before its second."""
    from narrator.shell.audio.mix import build_night

    env = make_env(cache_dir=tmp_path)
    game = env.game
    script = generate_script(game, recommended_deck(game, 3), settings_for(game, "en", count_style="full"))
    t = np.arange(int(0.6 * RATE)) / RATE
    word = Clip(np.where(t >= 0.15, 0.4 * np.sin(2 * np.pi * 200 * t), 0.002).astype(np.float32), RATE)
    line = Clip((0.3 * np.sin(2 * np.pi * 180 * np.arange(RATE) / RATE)).astype(np.float32), RATE)
    clips = {cue.key: word if cue.key.startswith("count.") else line for cue in script.cues()}
    night = build_night(script, clips, None)
    window = night.counts[0]
    first = next(clip for clip in night.clips if clip.cue.phase == window.phase and clip.cue.key == "count.1")
    assert window.start - first.start == perceived_onset(word.samples, RATE)
    assert abs(perceived_onset(word.samples, RATE) / RATE - 0.15) < 0.006


def test_the_bed_ducks_less_under_count_words_than_under_lines(tmp_path):
    from narrator.shell.audio.mix import DEFAULT_MIX

    env = make_env(cache_dir=tmp_path)
    game = env.game
    script = generate_script(game, recommended_deck(game, 3), settings_for(game, "en", count_style="full"))
    night = night_audio(env, script, AudioChoice(ambience="rain"))
    line = next(clip for clip in night.clips if clip.cue.key == "veggente.open")
    tick = next(clip for clip in night.clips if clip.cue.key == "count.5" and clip.cue.phase == "veggente")
    under_line = night.bed_gain(np.arange(line.start + 2000, line.start + 2100))
    under_tick = night.bed_gain(np.arange(tick.start + 2000, tick.start + 2100))
    assert 20 * np.log10(under_line.mean()) == pytest.approx(DEFAULT_MIX.duck_db, abs=0.1)
    assert 20 * np.log10(under_tick.mean()) == pytest.approx(DEFAULT_MIX.count_duck_db, abs=0.1)
