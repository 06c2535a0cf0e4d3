"""Tablets in step through a jittery network, as heard: real Chromium pages behind a delaying proxy.

What each page plays is read back from its audio output (``boxnet``). The bounds here are loose
enough for a loaded CI machine and tight enough to catch a box that stops following the clock
(a start or late join taken from one round trip is off by half of it: tens of milliseconds at
this jitter) or a pause that is not set ahead; the figures themselves are the benchmark's
(``benchmarks/speakerbox.py``).
"""

import os

import pytest
from boxnet import CHROMIUM, game_over_a_network

pytestmark = pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="needs Debian's chromium (apt-get install chromium)")


def test_tablets_stay_in_step_through_50_ms_of_jitter_and_loss(browser):
    found = game_over_a_network(browser, jitter=0.050, loss=0.01)
    said = str(found)  # a string: pytest would cut the dict short, and with it the pages' logs
    # Not in the 2 s after a page's output timestamp stepped (a glitch: CI once saw the steady part
    # 49 ms off on a loaded machine), as the targets allow; of the steady part's 300
    # windows (5 s, three pages) at least a fifth are left to measure.
    assert found["steady undisturbed"] < 15, said
    assert found["steady windows"] >= 60, said
    assert found["pause stop time spread"] < 10, said  # every tablet falls silent at the same moment...
    assert found["resume spread"] < 5, said  # ...and goes on from one point of the night
    if not found["pause disturbed"]:
        # ...the point where they all stopped, nothing played twice. Not where a page's output
        # glitched just before the pause (CI once: every page at 17-18 s, a stop spread of 23 ms):
        # that page was late, so it stopped earlier in the night and skips that much at the resume.
        assert found["pause stop spread"] < 5, said
        assert found["resume"] < 5, said
    assert found["start"] < 15, said
    # A page that comes in mid-night is silent until it is in step: 0.3-4 ms in the benchmark, but
    # two rounds in some fifty had a transient of 10-30 ms on this 2-core machine (see
    # benchmarks/README.md), so the bound is looser than the steady state's.
    assert found["late join"] < 40, said
    assert found["reload"] < 40, said
