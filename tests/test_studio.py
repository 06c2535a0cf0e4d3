"""The recorder's studio: a noisy take with key clicks becomes a trimmed, filtered, levelled line."""

import io

import numpy as np
import pytest

from narrator.core.script import COUNT_WORD_SECONDS
from narrator.shell.audio import loudness
from narrator.shell.audio.clip import Clip, trim_silence
from narrator.shell.audio.studio import (
    LEAD_SECONDS,
    TAIL_SECONDS,
    high_pass,
    process_take,
    voice_span,
    window_levels_db,
)
from narrator.shell.cli.recording import LevelMeter, meter_text, take_report

RATE = 48000


def voice(seconds: float, rng, f0: float = 140.0) -> np.ndarray:
    """Something shaped like speech: a harmonic voice with syllables at 4 per second."""
    t = np.arange(int(seconds * RATE)) / RATE
    harmonics = sum(np.sin(2 * np.pi * f0 * k * t + rng.uniform(0, 6)) / k for k in range(1, 12))
    syllables = 0.55 + 0.45 * np.sin(2 * np.pi * 4 * t - np.pi / 2)
    return (0.12 * harmonics * syllables).astype(np.float32)


def noisy_take(rng, fan_dbfs=-42.0, rumble_dbfs=-30.0, voice_seconds=1.2, lead=0.45, tail=0.7, clicks=True):
    """A take as a laptop records it: Enter's click, a moment of room, the line, the reach for
    Enter and its click, all over a fan's noise and some low rumble. Returns (take, voice start)."""
    total = int((lead + voice_seconds + tail + 0.1) * RATE)
    t = np.arange(total) / RATE
    fan = rng.normal(0, 10 ** (fan_dbfs / 20), total)
    rumble = 10 ** (rumble_dbfs / 20) * np.sqrt(2) * np.sin(2 * np.pi * 30 * t)
    take = fan + rumble
    start = int(lead * RATE)
    spoken = voice(voice_seconds, rng)
    take[start:start + len(spoken)] += spoken
    if clicks:
        for at in (0.05, lead + voice_seconds + tail):
            click = int(at * RATE)
            take[click:click + 240] += 0.5 * rng.uniform(-1, 1, 240) * np.exp(-np.arange(240) / 60)
    return Clip(take.astype(np.float32), RATE), start


def band_level_db(samples: np.ndarray, low: float, high: float) -> float:
    spectrum = np.abs(np.fft.rfft(samples)) ** 2
    freqs = np.fft.rfftfreq(len(samples), 1 / RATE)
    return 10 * np.log10(spectrum[(freqs >= low) & (freqs <= high)].sum() + 1e-20)


def test_a_noisy_take_with_clicks_keeps_the_voice_only():
    rng = np.random.default_rng(1)
    raw, start = noisy_take(rng)
    # What narrate did before: a fixed -45 dBFS threshold under a -42 dBFS fan trims nothing at all.
    assert trim_silence(raw).seconds == pytest.approx(raw.seconds, abs=0.01)
    take = process_take(raw)
    # The 1.2 s line with a little room either side (its soft onset whole): neither click, nor
    # the reach for Enter.
    first, last = voice_span(window_levels_db(high_pass(raw.samples, RATE), RATE), take.noise_floor_db, RATE)
    assert start - LEAD_SECONDS * RATE - 0.01 * RATE <= first <= start
    assert start + 1.2 * RATE <= last <= start + (1.2 + TAIL_SECONDS + 0.01) * RATE
    assert take.clip.seconds == pytest.approx((last - first) / RATE)
    assert take.noise_floor_db == pytest.approx(-42, abs=2)
    assert take.clipped_samples == 0


def test_the_kept_take_is_levelled_like_every_line_with_faded_edges():
    rng = np.random.default_rng(2)
    quiet, _ = noisy_take(rng)
    quiet = Clip(quiet.samples * 0.1, RATE)  # a reader far from the microphone: 20 dB quieter
    take = process_take(quiet)
    assert loudness.loudness(take.clip.samples, RATE) == pytest.approx(loudness.LINE_LUFS, abs=0.5)
    assert loudness.true_peak_dbtp(take.clip.samples, RATE) <= loudness.TRUE_PEAK_DBTP + 0.05
    assert abs(take.clip.samples[0]) < 1e-4 and abs(take.clip.samples[-1]) < 1e-4


def test_rumble_under_80_hz_is_filtered_out_and_the_voice_kept():
    rng = np.random.default_rng(3)
    raw, start = noisy_take(rng, rumble_dbfs=-20.0, clicks=False)
    take = process_take(raw)
    spoken = raw.samples[start:start + int(1.2 * RATE)]
    kept = take.clip.samples
    rumble_before = band_level_db(spoken, 25, 35) - band_level_db(spoken, 130, 150)
    rumble_after = band_level_db(kept, 25, 35) - band_level_db(kept, 130, 150)
    assert rumble_before - rumble_after > 30  # a fourth-order filter: about 34 dB down at 30 Hz


def test_a_clean_take_keeps_its_whole_line():
    """No noise at all (a synthesized or well-gated take): the line is kept whole, nothing more."""
    rng = np.random.default_rng(4)
    silence = np.zeros(RATE // 2, dtype=np.float32)
    line = voice(0.9, rng)
    take = process_take(Clip(np.concatenate([silence, line, silence]), RATE))
    assert 0.9 <= take.clip.seconds <= 0.9 + LEAD_SECONDS + TAIL_SECONDS + 0.03  # and the filter's ringing


def test_only_noise_and_clicks_is_a_silent_take():
    rng = np.random.default_rng(5)
    raw, _ = noisy_take(rng, voice_seconds=0.0)
    assert process_take(raw).silent
    assert process_take(Clip(np.zeros(RATE, dtype=np.float32), RATE)).silent
    assert process_take(Clip(np.zeros(0, dtype=np.float32), RATE)).silent


def test_clipping_is_counted_on_the_raw_take():
    rng = np.random.default_rng(6)
    raw, start = noisy_take(rng)
    loud = raw.samples.copy()
    loud[start:start + RATE // 2] = np.clip(loud[start:start + RATE // 2] * 20, -1, 1)
    take = process_take(Clip(loud, RATE))
    assert take.clipped_samples > 1000
    assert loudness.true_peak_dbtp(take.clip.samples, RATE) <= loudness.TRUE_PEAK_DBTP + 0.05


def test_a_take_of_any_length():
    """Eleven minutes of room noise with a word near the end: longer than any file narrate reads."""
    rng = np.random.default_rng(7)
    minutes = 11
    take = rng.normal(0, 10 ** (-50 / 20), minutes * 60 * RATE).astype(np.float32)
    at = (minutes * 60 - 20) * RATE
    take[at:at + RATE] += voice(1.0, rng)
    processed = process_take(Clip(take, RATE))
    assert 1.0 <= processed.clip.seconds <= 1.0 + LEAD_SECONDS + TAIL_SECONDS + 0.02


def test_the_report_names_what_to_fix():
    rng = np.random.default_rng(8)
    raw, start = noisy_take(rng, voice_seconds=1.0)
    take = process_take(raw)
    assert take_report(raw, take, count_word=False) == [
        f"{take.clip.seconds:.1f} s of voice from a {raw.seconds:.1f} s take; room noise -42 dBFS"]
    long_number = take_report(raw, take, count_word=True)
    assert long_number[1] == (f"warning: this number lasts {take.clip.seconds:.2f} s, more than {COUNT_WORD_SECONDS} s: "
                              "it will run into the next one when every second is spoken; say it quicker")
    short, _ = noisy_take(rng, voice_seconds=0.5)
    assert len(take_report(short, process_take(short), count_word=True)) == 1
    clipped = raw.samples.copy()
    clipped[start:start + 100] = 1.0
    report = take_report(raw, process_take(Clip(clipped, RATE)), count_word=False)
    assert report[1] == ("warning: the take clipped (100 samples at full scale): move back from the microphone or "
                         "turn its input down, then record it again")


def test_meter_text():
    assert meter_text(1.0, False, 20) == "[#######]     0 dBFS"
    text = meter_text(0.5, False, 30)
    assert len(text) == 30 and text.endswith("-6 dBFS")
    bar = text[1:text.index("]")]
    assert bar.count("#") == round(len(bar) * 0.9)  # -6 dBFS is 90 % of the way from -60 to 0
    assert meter_text(0.0, False, 30) == "[" + "." * 17 + "]  -inf dBFS"
    assert meter_text(1.0, True, 50).endswith("0 dBFS  CLIPPING: too loud")


class Terminal(io.StringIO):
    def isatty(self):
        return True


def test_the_meter_redraws_in_place_and_keeps_the_clip_warning():
    out = Terminal()
    meter = LevelMeter(out, interactive=True, prompt="recording... Enter: stop", size=lambda: (80, 24))
    meter.hear(0.1)
    meter.hear(0.5)  # the loudest block since the last redraw is shown
    meter.draw()
    assert out.getvalue().startswith("\r  recording... Enter: stop  [") and "-6 dBFS" in out.getvalue()
    meter.hear(1.0)
    meter.draw()
    meter.hear(0.01)
    meter.draw()  # the level falls back, the warning stays for the take
    last = out.getvalue().rsplit("\r", 1)[-1]
    assert "-40 dBFS  CLIPPING: too loud" in last and len(last.replace("\x1b[K", "")) <= 79
    meter.start()
    meter.stop()
    assert out.getvalue().endswith("\r\x1b[K")


def test_no_meter_in_a_log():
    out = io.StringIO()
    meter = LevelMeter(out, interactive=False, prompt="recording... Enter: stop")
    meter.start()
    meter.hear(0.5)
    meter.stop()
    assert out.getvalue() == ""
