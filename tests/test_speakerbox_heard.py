"""The harness that measures the speaker box through a real audio path (``heard.py``, used by
``benchmarks/audiopath.py``): first its reading of a recording, on recordings made up here where the
truth is known; then a short night played for real, two Chromium processes into PulseAudio."""

import os

import numpy as np
import pytest
from boxnet import CHROMIUM, TIMED
from heard import (
    CODE_SOUNDS,
    RATE,
    STEP,
    WINDOW,
    Heard,
    Plan,
    can_run,
    locate,
    measure,
    silences,
    spreads,
    track,
)

rng = np.random.default_rng(3)


def a_night(seconds: float, loop: float | None = None, dull: bool = False) -> np.ndarray:
    """Noise at the marking's level, and over it a louder loop that repeats sample for sample
    every ``loop`` seconds (the drums). ``dull``: the loop under 4 kHz or so, as speech and drums
    mostly are (through a browser's and PulseAudio's resamplers, the top of white noise is not
    played back sample for sample)."""
    noise = rng.standard_normal(int(seconds * RATE)).astype(np.float32) * 0.003
    if loop is None:
        return noise
    return noise + drums(seconds, loop, dull)


def drums(seconds: float, loop: float, dull: bool = False) -> np.ndarray:
    """``a_night``'s loop alone: the same ``loop`` seconds over and over."""
    bar = rng.standard_normal(int(loop * RATE)).astype(np.float32) * 0.2
    if dull:
        bar = np.convolve(np.resize(bar, len(bar) + 12), np.hanning(12) / 3, mode="valid")[: len(bar)]
    return np.resize(bar, int(seconds * RATE)).astype(np.float32)


def played(night: np.ndarray, schedule: list[tuple[float, float, float]], seconds: float) -> np.ndarray:
    """A channel of ``seconds``: for each (from, to, position at from), the night from there; silence elsewhere."""
    out = np.zeros(int(seconds * RATE), dtype=np.float32)
    for start, end, position in schedule:
        a, b = int(round(start * RATE)), int(round(end * RATE))
        p = int(round(position * RATE))
        out[a:b] = night[p: p + (b - a)]
    return out


def test_a_window_is_found_where_it_is_to_a_fraction_of_a_sample():
    night = a_night(6.0)
    segment = night[100_000: 100_000 + int(WINDOW * RATE)]
    position, score = locate(segment, night, 100_000 + 0.2 * RATE)
    assert abs(position - 100_000) < 0.05 and score > 0.999
    # Half a sample late, by interpolation: the harness's resolution is finer than a sample.
    shifted = np.interp(np.arange(100_000, 100_000 + len(segment)) + 0.5, np.arange(len(night)), night)
    position, _ = locate(shifted.astype(np.float32), night, 100_000)
    assert abs(position - 100_000.5) < 0.25


def test_a_drum_loop_does_not_pull_the_reading_a_bar_away():
    # Louder than the marking noise by 36 dB, the loop makes a bar away score almost as well:
    # the place near where the window should be wins.
    night = a_night(6.0, loop=0.25)
    start = 3 * RATE
    segment = night[start: start + int(WINDOW * RATE)] * 0.7
    for expected in (start - 0.015 * RATE, start + 0.015 * RATE):
        position, score = locate(segment, night, expected)
        assert abs(position - start) < 0.05, (expected, position)
        assert score > 0.99


def test_silences_are_runs_of_quiet_samples_not_quiet_samples():
    night = a_night(2.0)
    night[RATE: RATE + 96] = 0.0  # 2 ms of silence
    assert [(round(a, 4), round(b, 4)) for a, b in silences(night)] == [(1.0, 1.002)]
    assert silences(night, shortest=0.003) == []


def made_up(schedules: list, seconds: float, night: np.ndarray, plan: Plan, marks: dict, events=None) -> Heard:
    recording = np.stack([played(night, schedule, seconds) for schedule in schedules], axis=1)
    return Heard(plan, recording, night, start=1.0, marks=marks, events=events or {}, rate=RATE)


def test_the_figures_of_a_made_up_night_are_the_skews_put_into_it():
    night = a_night(30.0, loop=0.3)
    plan = Plan(length=20, join=None, reload=6.0, burst=None, pause=12.0, resume=14.0, tablets=2)
    # Tablet 1 on the laptop's time; tablet 2 a millisecond ahead, silent for its reload from 6 s
    # to 6.8 s of the night and 8 ms behind for 3 s after it, then back. Both stop at 12 s and go
    # on at 14 s, tablet 2 having played 0.5 ms twice. A gap of 3 ms in tablet 1 at 16 s.
    marks = {"reload": 7.0, "stop": 13.0, "restart": 15.0}
    first = [(1.0, 13.0, 0.0), (15.0, 17.0, 12.0), (17.003, 21.0, 14.003)]
    second = [(1.0, 7.0, 0.001), (7.8, 10.8, 6.8 - 0.008), (10.8, 13.0, 9.8 + 0.001),
              (15.0, 21.0, 12.0 + 0.001 - 0.0005)]
    found = measure(made_up([first, second], 21.5, night, plan, marks))
    assert found["start"]["median"] == pytest.approx(1.0, abs=0.05)
    assert found["reload"]["worst"] == pytest.approx(8.0, abs=0.05)
    assert found["reload"]["over 5 ms"] == pytest.approx(3.0, abs=STEP)
    assert found["resume"]["worst"] == pytest.approx(0.5, abs=0.05)
    assert found["pause"]["stop spread"] == pytest.approx(0.0, abs=0.05)
    assert found["pause"]["replayed"] == pytest.approx([0.0, 0.5], abs=0.05)
    assert [(d["tablet"], d["at"], d["ms"]) for d in found["dropouts"]] == [(1, 16.0, 3.0)]
    [episode] = found["episodes over 5 ms"]  # the reload's: when, how long, and who was off
    assert episode["at"] == pytest.approx(6.8, abs=STEP) and episode["seconds"] == pytest.approx(3.0, abs=2 * STEP)
    assert episode["worst"] == pytest.approx(8.0, abs=0.05)
    assert episode["from the laptop"][2] < -6 < episode["from the laptop"][1]


def test_a_correction_that_moves_a_page_away_from_the_laptop_is_named():
    night = a_night(12.0)
    plan = Plan(length=10, join=None, reload=None, burst=None, pause=None, resume=None, tablets=2)
    # Tablet 2 is in step until 4 s, then jumps 6 ms ahead: its page said it was 6 ms behind.
    # At 8 s it jumps back, on the truth (it said 6 ms ahead): right.
    second = [(1.0, 5.0, 0.0), (5.0, 9.0, 4.006), (9.0, 11.0, 8.0)]
    events = {2: [[4.99, "cross-faded", -6.0], [8.99, "cross-faded", 6.0]]}
    found = measure(made_up([[(1.0, 11.0, 0.0)], second], 11.5, night, plan, {}, events))
    assert [(w["tablet"], w["at"]) for w in found["wrong corrections"]] == [(2, 3.99)]


def test_a_slew_is_wrong_where_it_took_the_page_away_not_where_it_only_set_out_that_way():
    night = a_night(14.0)
    plan = Plan(length=12, join=None, reload=None, burst=None, pause=None, resume=None, tablets=2)
    # Tablet 2 in step. At 3 s its page says it is 2 ms ahead and slows down, and its next
    # readings find it in step again: it is heard where it was. At 7 s it says 2 ms behind and
    # speeds up, and goes on: heard 0.5 ms further ahead every half second, up to 2 ms. At 10 s a
    # slew of 0.3 ms, and half a second later the page is heard 10 ms further back (a glitch it
    # did not see): not the slew's doing.
    ahead = [0.0, 0.0005, 0.001, 0.0015, 0.002]
    second = [(1.0, 8.0, 0.0)] + [(8.0 + 0.5 * step, 8.5 + 0.5 * step, 7.0 + 0.5 * step + ms)
                                  for step, ms in enumerate(ahead[1:])] + [(10.0, 11.5, 9.0 + ahead[-1]),
                                                                           (11.5, 13.0, 10.5 + ahead[-1] - 0.010)]
    events = {2: [[4.0, "slewed", 2.0], [8.0, "slewed", -2.0], [11.0, "slewed", 0.3]]}
    found = measure(made_up([[(1.0, 13.0, 0.0)], second], 13.5, night, plan, {}, events))
    assert [(w["tablet"], w["at"]) for w in found["slews begun the wrong way"]] == [(2, 3.0), (2, 7.0)]
    [wrong] = found["wrong corrections"]
    assert (wrong["tablet"], wrong["at"]) == (2, 7.0) and wrong["heard after ms"] >= 1.4, wrong


def test_a_move_of_the_laptop_s_is_judged_where_it_is_heard_once_the_page_has_made_it():
    """Tablet 2 is heard 250 ms after tablet 1 until the laptop's ear moves its course: its page
    takes it at once at 5.3 s, heard a quarter of a second later (it plays that late; the window
    from 5.5 s takes in both): judged by the windows of the 1.5 s after, in step. At 9 s the
    ear sets its delay 3 ms the wrong way: a second after it could have taken it slowly, it is
    heard 3 ms ahead of tablet 1."""
    night = a_night(14.0)
    plan = Plan(length=12, join=None, reload=None, burst=None, pause=None, resume=None, tablets=2)
    second = [(1.25, 5.55, 0.0), (5.55, 10.0, 4.55), (10.0, 13.0, 9.003)]
    events = {2: [[5.2, "off as heard", 250.0], [5.3, "off as heard: taken at once", 250.0],
                  [9.0, "speaker delay set", 3.0]]}
    found = measure(made_up([[(1.0, 13.0, 0.0)], second], 13.5, night, plan, {}, events))
    right, wrong = found["delays moved"]
    assert (right["at"], right["what"], right["wrong"]) == (4.2, "off as heard", False), right
    assert right["heard before ms"] == pytest.approx(-250.0, abs=0.5) and abs(right["heard after ms"]) < 0.5, right
    assert (wrong["at"], wrong["what"], wrong["wrong"]) == (8.0, "speaker delay set", True), wrong
    assert wrong["heard after ms"] == pytest.approx(3.0, abs=0.5), wrong


def test_a_tablet_s_code_is_not_read_as_the_night():
    """With --listen a tablet plays its code over the night: from its page's note "code played",
    for CODE_SOUNDS, its windows are not read (its own sound, not the night's, was read a few tens
    of ms off); the other tablet's are, and its own again after."""
    night = a_night(12.0, loop=0.3)
    plan = Plan(length=10, join=None, reload=None, burst=None, pause=None, resume=None, tablets=2)
    heard = made_up([[(1.0, 11.0, 0.0)], [(1.0, 11.0, 0.0)]], 11.5, night, plan, {},
                    {2: [[5.0, "code played", 0]]})
    code = rng.standard_normal(int(0.25 * RATE)).astype(np.float32) * 0.05  # a hiss under the drums,
    heard.recording[int(5.4 * RATE): int(5.4 * RATE) + len(code), 1] += code  # placed 0.4 s after the note
    times, positions, spread = spreads(heard)
    during = (times < 5.0 + CODE_SOUNDS) & (times + WINDOW > 5.0)
    assert during.any() and np.isnan(positions[1, during]).all()
    assert not np.isnan(positions[0, during]).any()  # the other tablet is read all the while
    after = (times >= 5.0 + CODE_SOUNDS) & (times < 10.0)
    assert not np.isnan(positions[1, after]).any() and np.nanmax(spread[after]) < 0.0001


def test_after_a_silence_a_window_is_looked_for_where_the_recorder_put_the_night():
    """The recorder hears every tablet a few tens of ms after the laptop's playhead. Looked for
    at the playhead after a silence (nothing read just before), a window of drums alone could be
    read a bar away; it is looked for where the channel was last read, and a channel's first
    window where the recorder hears the others."""
    seconds = 14.0
    loop = drums(seconds, 0.25, dull=True)
    voice = rng.standard_normal(len(loop)) * np.sin(np.linspace(0, 30 * np.pi, len(loop))) ** 2 * 0.3
    voice[int(8.0 * RATE): int(10.5 * RATE)] = 0.0  # drums alone between two turns
    # As through a real path, what is heard is the night's drums and voice and the room's noise,
    # not the night's own fine noise: in the drums alone, a bar away scores as well as the truth.
    night = (loop + voice).astype(np.float32) + a_night(seconds)
    heard_as = (loop + voice).astype(np.float32) + a_night(seconds)
    plan = Plan(length=12, join=None, reload=None, burst=None, pause=None, resume=None, tablets=2)
    late = 0.027  # (the recorder here: 25-35 ms)
    # Tablet 1 silent for a second before the drums alone; tablet 2 joins late, in them.
    first = [(1.0 + late, 8.5 + late, 0.0), (9.5 + late, 13.5 + late, 8.5)]
    second = [(10.0 + late, 13.5 + late, 9.0)]
    recording = np.stack([played(heard_as, schedule, 14.0) for schedule in (first, second)], axis=1)
    heard = Heard(plan, recording, night, start=1.0, marks={}, events={}, rate=RATE)
    times, positions, _ = spreads(heard)
    behind = np.array([heard.playhead(at) for at in times]) - positions
    read = ~np.isnan(behind)
    assert read[0].sum() >= 20 and read[1].sum() >= 6
    assert np.abs(behind[read] - late).max() < 0.0005, np.round(behind * 1000, 1)


def test_a_page_that_plays_on_its_own_is_found_anywhere_in_the_night_after_a_silence():
    """benchmarks/glitch.py's pages play with no laptop and no playhead: read in short windows,
    each is found where the last was, moved on, and after a silence (a glitch's gap) wherever in
    the night it went on from."""
    seconds = 20.0
    night = a_night(seconds) * 30  # (its pages play noise alone)
    channel = played(night, [(0.5, 6.0, 3.0), (6.28, 11.0, 14.0)], 12.0)
    times = np.arange(0.0, 11.5, 0.1)
    positions = track(channel, night, times, window=0.1, reach=0.5)
    before, after = (times >= 0.5) & (times + 0.1 <= 6.0), (times >= 6.3) & (times + 0.1 <= 11.0)
    assert np.abs(positions[before] - (times[before] + 2.5)).max() < 1e-4
    assert np.abs(positions[after] - (times[after] + 7.72)).max() < 1e-4
    assert np.isnan(positions[(times > 5.91) & (times < 6.28)]).all()  # (the gap in each)
    assert np.isnan(positions[times < 0.4]).all()


# --- through the real audio path ----------------------------------------------------------------

real = pytest.mark.skipif(can_run() is not None, reason=str(can_run()))


@TIMED
@real
def test_a_short_night_heard_through_pulseaudio(tmp_path):
    import io

    import soundfile
    from heard import play_night
    from playwright.sync_api import sync_playwright

    plan = Plan(length=14, join=None, reload=None, burst=None, pause=8.0, resume=10.0, tablets=2)
    night = io.BytesIO()
    soundfile.write(night, a_night(plan.length, loop=0.5, dull=True), RATE, format="WAV", subtype="FLOAT")
    with sync_playwright() as playwright:
        heard = play_night(playwright, tmp_path, night.getvalue(), plan)
    found = measure(heard)
    # The recorder's clock put on the laptop's: each tablet's silence at the pause, as recorded,
    # begins where the laptop's pause does and lasts about as long (a page on a loaded machine may
    # stop or go on tens of milliseconds off: that is the benchmark's figure).
    assert heard.rate == pytest.approx(RATE, rel=1e-3)
    stop, restart = heard.marks["stop"], heard.marks["restart"]
    for channel in heard.recording.T:
        [(silent, sounding)] = [run for run in silences(channel, 0.1) if abs(run[0] - stop) < 0.2]
        assert sounding - silent == pytest.approx(restart - stop, abs=0.1)
    # The windows of the night are read in both tablets, but around the pause and at the ends (and,
    # on a loaded machine, a second or so in which a page's first sound comes late). Not yet
    # explained: twice in a clean run, alone on the machine, a page was not read for most of the
    # 8 s after Start (10 and 12 windows of the 14 asked for then): 9 s of the 14 are allowed for,
    # and what the pages logged is shown when even that is not met (issue 41's note).
    unread = 9.0
    early = {tablet: logged[:20] for tablet, logged in heard.events.items()}
    assert found["whole"]["windows"] >= (plan.length - unread) / STEP, f"{found}\nunread: {early}"
    # Read from the sound, each tablet moves on a window's step from one window to the next
    # (within a page's own corrections: a couple of milliseconds), near where the laptop says the
    # night is (the pages' accuracy is the benchmark's figure, not this test's: on a loaded machine
    # a page goes on a couple of hundred milliseconds past a pause now and then). Less than half of
    # the drums' bar: a window read a bar away would be caught.
    times = np.arange(0.0, len(heard.recording) / RATE - WINDOW, STEP)
    for channel in heard.recording.T:
        positions = track(channel, heard.night, times, heard.playhead)
        steps = np.diff(positions)
        steps = steps[~np.isnan(steps)]
        assert len(steps) >= (plan.length - unread) / STEP, early
        assert np.mean(np.abs(steps - STEP) < 0.002) >= 0.8, steps
        laptop = np.array([heard.playhead(at) for at in times])
        assert np.nanmax(np.abs(positions - laptop)) < 0.25


@TIMED
@real
def test_the_rig_knows_its_own_floor(tmp_path):
    """Issue 41, point 5: before the pages are blamed, what the rig adds. One stream whose channels
    are the same samples is read as the same, to a small fraction of a millisecond (the recording
    and the reading add nothing); plain players into the tablets' sinks, given the night at one
    moment with a browser starting beside them, are read close together: the floor the pages'
    figures are read against (its figures are the benchmark's)."""
    import io

    import soundfile
    from heard import play_plainly
    from playwright.sync_api import sync_playwright

    night = io.BytesIO()
    soundfile.write(night, a_night(6.0, loop=0.5, dull=True), RATE, format="WAV", subtype="FLOAT")
    together = measure(play_plainly(tmp_path / "together", night.getvalue(), 3, 6.0, together=True))
    assert together["whole"]["windows"] >= 8, str(together)
    assert together["whole"]["worst"] < 0.1, str(together)  # ms
    with sync_playwright() as playwright:
        apart = measure(play_plainly(tmp_path / "apart", night.getvalue(), 3, 6.0, together=False,
                                     playwright=playwright))
    assert apart["whole"]["windows"] >= 8, str(apart)
    # ms: PulseAudio's streams, started together, begin on the null sink's blocks (measured here: 5.0 ms
    # apart at most, every round) and nothing steers them after
    assert apart["whole"]["worst"] < 30, str(apart)


@pytest.mark.skipif(not os.path.exists("/proc/self/autogroup"), reason="the kernel schedules no autogroups")
@pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="needs Debian's chromium (apt-get install chromium)")
def test_the_late_tablet_s_browser_runs_below_the_others_in_every_process(tmp_path):
    """The rig's late tablet runs ``Plan.late_nice`` below the others, as on a device of its own:
    every process of its browser is in a scheduling group of that niceness (Chromium sets each
    thread's own niceness itself, so only the group's holds), the other browser's are not. (Its
    crash handler starts a session of its own, and with it a group: it only waits for a crash.)"""
    from heard import Room, browser_for
    from playwright.sync_api import sync_playwright

    room = Room(tmp_path / "pulse", 2)
    room.folder.mkdir(parents=True)  # (no sound server is needed to start a browser)
    with sync_playwright() as playwright:
        browsers = [browser_for(playwright, room, 1), browser_for(playwright, room, 2, Plan.late_nice)]
        for browser in browsers:
            browser.new_page().goto("about:blank")
        groups = {sink: autogroups(f"PULSE_SINK={sink}") for sink in ("t1", "t2")}
        for browser in browsers:
            browser.close()
    working = {sink: {pid: nice for pid, (name, nice) in found.items() if "crashpad" not in name}
               for sink, found in groups.items()}
    assert len(working["t1"]) >= 4 and len(working["t2"]) >= 4, groups  # (a browser, its zygotes, a renderer...)
    assert set(working["t1"].values()) == {0} and set(working["t2"].values()) == {Plan.late_nice}, groups


def autogroups(variable: str) -> dict[int, tuple[str, int]]:
    """Each process started with ``variable`` (NAME=value) in its environment, and every process
    under it, with its name and its autogroup's niceness."""
    from cores import _parents, _tree

    parents, found = _parents(), set()
    for pid in parents:
        try:
            if variable.encode() in open(f"/proc/{pid}/environ", "rb").read().split(b"\0"):
                found |= _tree(pid, parents)
        except OSError:  # (gone since the listing)
            continue
    named = {}
    for pid in found:
        try:
            named[pid] = (open(f"/proc/{pid}/comm").read().strip(), int(open(f"/proc/{pid}/autogroup").read().split()[-1]))
        except OSError:
            continue
    return named
