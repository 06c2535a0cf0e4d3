"""Each tablet's signature under the night, and the laptop's reads of them (issue 41, point 2)."""

import numpy as np
import pytest

from narrator.core import signatures
from narrator.core.signatures import RATE, late, nudges, signature


def a_night(seconds: float, seed: int = 3) -> np.ndarray:
    """Something like a night at RATE: bursts of band-limited noise (lines) over a soft bed, with
    silences between them."""
    rng = np.random.default_rng(seed)
    n = int(seconds * RATE)
    voice = np.convolve(rng.standard_normal(n), np.hanning(9) / 4, mode="same")
    on = (np.sin(np.arange(n) / RATE * 2 * np.pi * 0.4) > -0.3).astype(float)
    return (0.3 * voice * on + 0.01 * rng.standard_normal(n)).astype(np.float32)


def delayed(samples: np.ndarray, seconds: float) -> np.ndarray:
    """``samples`` heard ``seconds`` later (a fraction of a sample too: by the spectrum's phase)."""
    spectrum = np.fft.rfft(samples, 2 * len(samples))
    frequencies = np.fft.rfftfreq(2 * len(samples), 1 / RATE)
    return np.fft.irfft(spectrum * np.exp(-2j * np.pi * frequencies * seconds))[: len(samples)].astype(np.float32)


def test_a_signature_is_the_tablet_s_own_faint_and_follows_the_night():
    night = a_night(6.0)
    one, again, two = signature(1, night, RATE), signature(1, night, RATE), signature(2, night, RATE)
    assert np.array_equal(one, again) and len(one) == len(night)
    assert abs(np.corrcoef(one, two)[0, 1]) < 0.02  # another tablet's: nothing alike
    loud, soft = slice(int(0.2 * RATE), int(0.6 * RATE)), slice(int(1.65 * RATE), int(1.85 * RATE))  # a line; the bed
    ratio = lambda part: 20 * np.log10(np.std(one[part]) / np.std(night[part]))  # noqa: E731
    assert ratio(loud) == pytest.approx(signatures.LEVEL, abs=3) and ratio(soft) == pytest.approx(signatures.LEVEL, abs=6)
    spectrum = np.abs(np.fft.rfft(one)) ** 2
    frequencies = np.fft.rfftfreq(len(one), 1 / RATE)
    outside = (frequencies < signatures.BAND[0]) | (frequencies > signatures.BAND[1])
    assert spectrum[outside].sum() < 1e-4 * spectrum.sum()  # (all but what following the loudness spreads: -49 dB)
    assert not signature(1, np.zeros(RATE, np.float32), RATE).any()  # a silent night: no signature


def test_each_tablet_is_read_where_it_sounds_in_the_mix_of_them_all():
    night = a_night(10.0)
    lags = {1: 0.0312, 2: 0.0334, 3: 0.2505}  # (3: a speaker far behind, none corrected)
    signed = {number: signature(number, night, RATE) for number in lags}
    room = sum(delayed(night + signed[number], lag) for number, lag in lags.items())
    room = room + 0.002 * np.random.default_rng(9).standard_normal(len(room)).astype(np.float32)
    for start in (2.2, 4.7, 7.2):  # (a second and a half each, mostly of the night's lines)
        heard = room[int(start * RATE): int((start + 1.5) * RATE)]
        for number, lag in lags.items():
            found = late(heard, signed[number], start)
            assert found is not None and found[0] == pytest.approx(lag, abs=5e-5), (start, number, found)
            assert found[1] >= signatures.CLEAR


def test_a_microphone_whose_clock_is_off_is_read_once_brought_to_the_laptop_s_clock():
    """A microphone 150 parts per million fast: its 1.5 s smear a signature by 0.2 ms, and it is not
    read; brought back by the skew it has (one of those tried), it is read where it is."""
    import soxr

    night = a_night(10.0)
    signed = {number: signature(number, night, RATE) for number in (1, 2)}
    room = delayed(night + signed[1], 0.030) + delayed(night + signed[2], 0.0334)
    skew = 150e-6
    assert any(abs(tried - skew) < 1e-9 for tried in signatures.skews(None))
    assert signatures.skews(skew) == pytest.approx((skew - signatures.SKEW_STEP, skew, skew + signatures.SKEW_STEP))
    read = {}
    for start in (2.2, 4.7, 7.2):
        recorded = soxr.resample(room[int(start * RATE): int((start + 1.5) * RATE)], RATE, RATE * (1 + skew))
        assert all(late(recorded[: int(1.5 * RATE)], own, start) is None for own in signed.values()), start
        heard = soxr.resample(recorded, RATE * (1 + skew), RATE)
        read[start] = {number: late(heard, own, start) for number, own in signed.items()}
        assert read[start][1][0] == pytest.approx(0.030, abs=1e-4) and read[start][2][0] == pytest.approx(0.0334, abs=1e-4)


def test_nothing_is_read_where_the_tablet_or_the_night_is_silent_or_beyond_the_night():
    night = a_night(6.0)
    signed = signature(1, night, RATE)
    other = signature(2, night, RATE)
    heard = (night + other)[2 * RATE: 3 * RATE]  # tablet 2 alone: 1's signature is not there
    assert late(heard, signed, 2.0) is None
    assert late(np.zeros(RATE, np.float32), signed, 2.0) is None
    assert late(heard, signed, 0.5) is None and late(heard, signed, 5.5) is None  # its span not all in the night


def test_a_read_is_believed_when_the_one_before_agrees_and_a_tablet_off_the_others_is_moved_to_them():
    before = {1: 0.0300, 2: 0.0361, 3: 0.0302}
    now = {1: 0.0301, 2: 0.0360, 3: 0.0302}
    moved = nudges(before, now, frozenset({1, 2, 3}))
    assert set(moved) == {2} and moved[2] == pytest.approx(0.0058)  # (later: its delay grows, it plays earlier)
    assert nudges(before, {**now, 2: 0.1360}, frozenset({1, 2, 3})) == {}  # a read far off, alone: not believed
    assert nudges({1: 0.03, 2: 0.0305}, {1: 0.03, 2: 0.0306}) == {}  # within a ms of each other: left alone
    assert nudges({1: 0.03}, {1: 0.03, 2: 0.05}) == {}  # one believed alone: nothing to hold it to


def test_the_group_is_held_where_the_tablets_set_by_a_round_are():
    """A tablet not set by a round yet (it played on as it was) is moved to the set ones, though it
    is the earliest; of two set ones, the earlier holds the group (the later one drifted)."""
    reads = {1: 0.040, 2: 0.052, 3: 0.031}
    moved = nudges(reads, reads, frozenset({1, 2}))
    assert moved == pytest.approx({2: 0.012, 3: -0.009})
    assert nudges(reads, reads) == pytest.approx({2: 0.012, 3: -0.009})  # none set: the median of all
    assert nudges({1: 0.040, 3: 0.031}, {1: 0.040, 3: 0.031}) == pytest.approx({1: 0.009})  # of two: the earlier


def test_the_group_is_held_by_the_most_trusted_tablets_that_were_read():
    """Of the groups of tablets given in order of trust, the first with a tablet believed holds
    the others (a page that has just come to believe its timestamps may be moving by them: the one
    that has steered all along holds); none read: the next; none at all: every tablet."""
    reads = {1: 0.040, 2: 0.052, 3: 0.031}
    assert nudges(reads, reads, frozenset({2}), frozenset({1, 2})) == pytest.approx({1: -0.012, 3: -0.021})
    assert nudges(reads, reads, frozenset({4}), frozenset({1, 2})) == pytest.approx({2: 0.012, 3: -0.009})
    assert nudges(reads, reads, frozenset({4}), frozenset({5})) == pytest.approx({2: 0.012, 3: -0.009})
