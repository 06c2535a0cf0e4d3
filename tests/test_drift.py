"""The laptop's ear on the night (issue 41, point 2): a tablet that drifted from the others is a
second copy of the night in what the microphone hears (``narrator.core.drift``), and the
listener asks for a round of codes when two stretches agree on it."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from narrator.core import drift

R = drift.RATE
LOOP = 0.5  # seconds: the drums repeat sample for sample this often
VOICE = ((2.0, 12.0), (18.0, 28.0))  # where the synthetic night's "voice" sounds


def a_night(seconds: float = 32.0, rate: int = R, seed: int = 5, voice=VOICE) -> np.ndarray:
    """Drums (a loop of noise bursts, the same every LOOP seconds) all night, and a voice (noise
    shaped into syllables, never the same twice) in ``voice``: what a narrated night is to the ear."""
    rng = np.random.default_rng(seed)
    bar = np.zeros(int(LOOP * rate))
    for beat in (0.0, 0.25):
        start = int(beat * rate)
        burst = rng.standard_normal(int(0.06 * rate)) * np.exp(-np.linspace(0, 6, int(0.06 * rate)))
        bar[start: start + len(burst)] += burst * 0.2
    night = np.resize(bar, int(seconds * rate))
    for low, high in voice:
        a, b = int(low * rate), int(high * rate)
        syllables = np.abs(np.sin(np.linspace(0, np.pi * 4 * (high - low), b - a))) ** 2
        night[a:b] += rng.standard_normal(b - a) * syllables * 0.3
    return night.astype(np.float32)


def heard(night: np.ndarray, at: float, copies: dict[float, float], seconds: float = 1.5, rate: int = R,
          noise: float = 0.02, seed: int = 1) -> np.ndarray:
    """What a microphone records from night position ``at`` (no delay) for ``seconds``: each copy
    {delay s: gain}, and the room's noise."""
    length = int(seconds * rate)
    out = np.zeros(length)
    for late, gain in copies.items():
        start = int(round((at - late) * rate))
        out += gain * night[start: start + length]
    return out + noise * np.random.default_rng(seed).standard_normal(length)


NIGHT = a_night()


def test_tablets_in_step_are_heard_as_one_copy_of_the_night_late_by_the_microphone():
    found = drift.copies(heard(NIGHT, 5.0, {0.040: 1.0}), NIGHT, 5.0)
    assert found is not None and found[0] == pytest.approx(0.040, abs=0.0005)
    assert drift.apart(found) == ()


@pytest.mark.parametrize("late", [0.020, 0.230, 0.9])
def test_a_tablet_apart_from_the_others_is_a_second_copy_that_far_from_the_first(late):
    """Three tablets, one drifted: the two still together are the stronger copy."""
    found = drift.copies(heard(NIGHT, 20.0, {0.040: 1.0, 0.040 + late: 0.5}), NIGHT, 20.0)
    assert found is not None and found[0] == pytest.approx(0.040, abs=0.0005), found
    assert drift.apart(found) == pytest.approx((late,), abs=0.0005), found


def test_copies_closer_than_a_split_are_one_group():
    found = drift.copies(heard(NIGHT, 8.0, {0.040: 1.0, 0.048: 0.7}), NIGHT, 8.0)
    assert found is not None and drift.apart(found) == ()


def test_a_stretch_of_drums_alone_cannot_tell_a_copy_from_the_loop():
    """Between the lines the drums repeat every LOOP seconds: a peak there could be the loop, so
    the stretch is not read (a voice stretch with the same copies is)."""
    assert drift.copies(heard(NIGHT, 14.0, {0.040: 1.0, 0.290: 1.0}), NIGHT, 14.0) is None


def test_silence_a_silent_microphone_and_the_night_s_edges_tell_nothing():
    silent = np.zeros_like(NIGHT)
    assert drift.copies(heard(silent, 5.0, {0.0: 1.0}, noise=0.0), silent, 5.0) is None
    assert drift.copies(np.zeros(int(1.5 * R)), NIGHT, 5.0) is None  # a microphone that hears nothing
    assert drift.copies(heard(NIGHT, 5.0, {0.0: 1.0}), NIGHT, 0.5) is None  # a delay that would be before the night
    assert drift.copies(heard(NIGHT, 30.0, {0.0: 1.0}), NIGHT, 31.5) is None  # ...or after it


def test_a_copy_is_found_through_a_noisy_room():
    """The room's noise as loud as the night (0 dB): the second copy is still where it is."""
    found = drift.copies(heard(NIGHT, 22.0, {0.040: 1.0, 0.140: 0.5}, noise=0.3), NIGHT, 22.0)
    assert found is not None and drift.apart(found) == pytest.approx((0.100,), abs=0.0005)


def test_no_stray_peak_in_the_voice_is_taken_for_a_tablet():
    """One copy, a second of the night after another through both voice stretches, in a noisy
    room: no two stretches agree on a distance, so nothing is said to have drifted."""
    history = []
    for index, at in enumerate(np.arange(3.0, 27.0, 1.0)):
        found = drift.copies(heard(NIGHT, at, {0.030: 1.0}, noise=0.1, seed=index), NIGHT, at)
        if found is not None:
            history.append(drift.apart(found))
            assert drift.drifted(history) is None, history
    assert len(history) >= 15


def test_two_of_three_stretches_agreeing_make_a_drift():
    assert drift.drifted([(0.230,)]) is None
    assert drift.drifted([(0.230,), (), (0.2305,)]) == pytest.approx(0.230)
    assert drift.drifted([(0.230,), (), (), (0.230,)]) is None  # more than three stretches ago
    assert drift.drifted([(0.100, 0.230), (0.050,), (0.2308,)]) == pytest.approx(0.230)


@given(st.lists(st.lists(st.floats(drift.SPLIT, 1.3), max_size=3), max_size=8))
def test_distances_heard_only_once_never_make_a_drift(stretches):
    """Whatever each stretch finds, a distance is a drift only when another stretch among the
    last three found it too."""
    history = [tuple(distances) for distances in stretches]
    found = drift.drifted(history)
    recent = history[-3:]
    agreeing = [(a, b) for i, first in enumerate(recent) for later in recent[i + 1:] for a in first for b in later
                if abs(a - b) <= drift.SAME]
    assert (found is None) == (not agreeing)


# --- the listener's ear: recording, the night's rate, where in the night ----------------------------

class Tablets:
    """What the listener asks of the box: which tablets are in step."""

    def ready_tablets(self, settled: float) -> dict[int, int]:
        return {1: 1, 2: 1, 3: 1}

    def listening(self, ask) -> None:
        pass

    signed, night_id = None, "a night"  # (its nights are not signed)

    def sign_nights(self) -> None:
        pass


def a_listener(copies: dict[float, float]):
    """A Listener whose microphone hears the night at 48 kHz (as recorded), played from box time
    100 at 24 kHz (as the tablets are served), with ``copies``; and what it said."""
    import soxr

    from narrator.shell.speakerbox.listen import RATE, Listener

    recorded = a_night(rate=RATE)  # the night as the microphone hears it...
    served = soxr.resample(recorded, RATE, 24000)  # ...and as it is served
    began, now = 100.0, [100.0]
    said: list[str] = []

    def record(seconds, clock):
        start = clock()
        now[0] += seconds
        return heard(recorded, start - began, copies, seconds, RATE, seed=int(start)), start + 0.012

    listener = Listener(Tablets(), lambda: now[0], lambda text: said.append(str(text)), said.append, recorder=record)
    return listener, (lambda: (served, 24000, began)), now, said


@pytest.mark.parametrize("copies, asked", [({0.05: 1.0}, False), ({0.05: 1.0, 0.30: 0.5}, True)])
def test_the_listener_asks_for_a_round_when_it_hears_the_tablets_apart(copies, asked):
    from narrator.shell.speakerbox.listen import EVERY

    listener, night, now, said = a_listener(copies)
    for at in (103.0, 106.5, 121.0, 124.5):  # inside the voice: two stretches of each
        now[0] = at
        listener.watch(night)
        listener.wait()  # (the stretch heard and read)
        now[0] += EVERY
    assert listener.asked is asked, said
    assert said[0] == "While the night plays the laptop keeps listening to the tablets, to hear one that drifts " \
                      "(nothing is kept)."
    assert said[1:] == (["The laptop hears the tablets 250 ms apart: it listens to them again at the next quiet "
                         "moment."] if asked else []), said


def test_the_listener_does_not_read_a_night_paused_while_it_listened():
    listener, night, now, said = a_listener({0.05: 1.0, 0.30: 0.5})
    moved = iter([(night()), None] * 4)
    for at in (103.0, 106.5, 121.0, 124.5):
        now[0] = at
        listener.watch(lambda: next(moved))
        listener.wait()  # (the stretch heard and read)
    assert listener.apart == [] and listener.ear == [] and not listener.asked
