"""A tablet page does not steer by output timestamps it has reason to doubt (issue 27).

Through a real audio path the context's output timestamps were seen to leap and to creep by
milliseconds a second for seconds on end, and a page steering by them moved the wrong way. Here
the page's own timestamps are made to lie, in Debian's Chromium, and what the page does is read
from its log (``narratorBox.events``): a leap is not believed until the readings agree again, a
creep not while it lasts, nor after a glitch until they have agreed for a while, and a lie as
large as a glitch is corrected at once.
"""

import os
import time
from contextlib import contextmanager

import pytest
from boxnet import ARGS, CHROMIUM, ramp_box, tablet

PLACE_AHEAD = 0.4  # (box.js) each play of a code is placed this long before it sounds
STILL_FOR = 3  # (box.js) a page that played a code in doubt says its readings hold still once they have this long

pytestmark = pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="needs Debian's chromium (apt-get install chromium)")

LIE = """(creep = 0) => {
  // From now on every audio context's output timestamps say the sound is `step` seconds further on
  // than they would, plus `creep` seconds for every second since `since` (the page's start, until a
  // test sets it); and its audio clock says it is `clock` seconds further on (set back, it stood
  // still: a glitch, as a page sees one). Made on the prototypes, so that given as an init script it
  // makes a reloaded page's new context lie from its first reading.
  window.lie = {step: 0, creep, since: 0, clock: 0};
  const real = AudioContext.prototype.getOutputTimestamp;
  const clock = Object.getOwnPropertyDescriptor(BaseAudioContext.prototype, "currentTime").get;
  Object.defineProperty(BaseAudioContext.prototype, "currentTime", {
    configurable: true, get() { return clock.call(this) + window.lie.clock; }});
  AudioContext.prototype.getOutputTimestamp = function () {
    const stamp = real.call(this), lie = window.lie;
    const extra = lie.step + lie.creep * Math.max(0, performance.now() / 1000 - lie.since);
    return {contextTime: stamp.contextTime + extra, performanceTime: stamp.performanceTime};
  };
}"""
NOW = "performance.timeOrigin / 1000 + performance.now() / 1000"  # a page's time as its log gives it (wall clock, s)
CREEP = "(creep) => { window.lie.since = performance.now() / 1000; window.lie.creep = creep; }"  # (from now)
FREEZE = ("() => { window.lie.step += window.lie.creep * (performance.now() / 1000 - window.lie.since);"
          " window.lie.creep = 0; }")  # (the creep stops where it has got to)


def events_since(page, since: float) -> list:
    return [event for event in page.evaluate("narratorBox.events") if event[0] >= since]


def corrections(events) -> list:
    return [event for event in events if event[1] in ("cross-faded", "slewed")]


def until(page, condition: str, timeout: float = 10.0) -> None:
    """Waits for ``condition``; if it does not come, fails with the page's log (what it saw)."""
    from playwright.sync_api import TimeoutError as Timeout

    try:
        page.wait_for_function(condition, timeout=timeout * 1000)
    except Timeout:
        pytest.fail(f"not {condition} within {timeout} s; the page's log: {page.evaluate('narratorBox.events')[-40:]}")


def logged(page, what: str, since: float, timeout: float = 3.0) -> list:
    """Waits until the page logs ``what`` after ``since``; its events since then."""
    page.wait_for_function("([what, since]) => narratorBox.events.some((e) => e[0] >= since && e[1] === what)",
                           arg=[what, since], timeout=timeout * 1000)
    return events_since(page, since)


@contextmanager
def lying_tablet(**options):
    """One tablet in Debian's Chromium on a ramp box (``options``: ``ramp_box``'s), its output
    timestamps ready to lie (``LIE``), playing the night with them trusted: the box, its server
    and the page."""
    from playwright.sync_api import sync_playwright

    box, server = ramp_box(120, **options)
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
            page = tablet(browser, f"http://127.0.0.1:{server.port}/")
            page.evaluate(LIE)
            box.start_night()
            until(page, "narratorBox.playing && narratorBox.trusted")
            yield box, server, page
            browser.close()
    finally:
        server.stop()


def test_a_page_doubts_timestamps_that_leap_or_creep_and_still_corrects_a_glitch():
    with lying_tablet() as (_box, _server, page):
        time.sleep(1.5)

        # A leap of 10 ms that stays: not believed at once; once the readings agree again
        # (and do not creep), the page moves by it, in one jump the right way. (A try in which the
        # output glitched meanwhile, the loaded machine's doing and not the lie's, is made again: the
        # page rightly jumps by the glitch's error too, 29 ms once in a clean clone's suite.)
        for _ in range(3):
            since = page.evaluate(NOW)
            page.evaluate("window.lie.step += 0.010")
            until(page, "!narratorBox.trusted", 2)
            until(page, "narratorBox.trusted")
            doubted = events_since(page, since)
            jumps = [event for event in logged(page, "cross-faded", since) if event[1] == "cross-faded"]
            if not any(event[1] == "glitch" for event in events_since(page, since)):
                break
            until(page, "narratorBox.trusted")
            time.sleep(1.5)
        assert doubted[0][1] == "timestamp leapt" and doubted[0][2] == pytest.approx(10, abs=1)
        [jump] = jumps
        assert jump[2] == pytest.approx(10, abs=2)  # it thought itself 10 ms ahead: back it went
        time.sleep(1.5)

        # A creep of 3 ms a second (no sound card's clock drifts that fast): not believed while
        # it lasts, so nothing is corrected, however far off it says the page is.
        since = page.evaluate(NOW)
        page.evaluate(CREEP, 0.003)
        time.sleep(3)
        crept = events_since(page, since)
        noticed = next(event[0] for event in crept if event[1].startswith("timestamps drift"))
        assert noticed - since < 1.0, crept  # (a slope needs a few readings: until then, a small slew)
        assert [event for event in corrections(crept) if event[0] > noticed or abs(event[2]) > 1] == [], crept
        assert not page.evaluate("narratorBox.trusted")
        page.evaluate(FREEZE)
        until(page, "narratorBox.trusted")  # it stopped: believed again
        time.sleep(1.5)

        # A glitch, after which the timestamps agree on a place 9 ms off and step back 0.8 s
        # later, as a real output's did after a CPU burst: they are believed only once they have
        # agreed for FRESH (1.6 s), and the page moves for neither.
        since = page.evaluate(NOW)
        page.evaluate("window.lie.clock -= 0.1; window.lie.step += 0.009")
        logged(page, "glitch", since)
        page.wait_for_function("(since) => narratorBox.events.some((e) => e[0] >= since && "
                               "e[1].startsWith('timestamps agree'))", arg=since, timeout=5000)
        time.sleep(0.8)
        page.evaluate("window.lie.step -= 0.009")
        until(page, "narratorBox.trusted")
        time.sleep(1.0)
        after = events_since(page, since)
        assert [event for event in corrections(after) if abs(event[2]) > 1] == [], after
        believed = [event[0] for event in after if event[1] == "timestamps agree"]
        leapt = next(event[0] for event in after if event[1] == "timestamp leapt")
        assert believed and believed[0] > leapt, after  # (not believed before they stepped back)
        time.sleep(0.5)

        # A leap as large as a glitch (200 ms): corrected as soon as the readings since it
        # agree, before they are trusted for fine steering.
        since = page.evaluate(NOW)
        page.evaluate("window.lie.step += 0.200")
        glitch = logged(page, "cross-faded", since)
        jump = next(event for event in glitch if event[1] == "cross-faded")
        assert jump[2] == pytest.approx(200, abs=5)
        trusted_again = [event[0] for event in glitch if event[1] == "timestamps agree"]
        assert not trusted_again or jump[0] <= trusted_again[0]


def test_a_code_is_played_through_a_small_doubt_and_left_out_in_a_large_one():
    """With --listen a page places each play of its code by its output timestamps. Timestamps in
    doubt that lie within DOUBT_SPREAD (5 ms) of each other and creep under DOUBT_CREEP (as a
    page's first seconds' do: measured, stepping 2-8 ms for up to 13 s after joining): it is
    played, and its log says it was in doubt (measured: up to 16.5 ms off). A step of 10 ms, or a
    creep of 3 ms a second, could put it anywhere: it is left out, and the laptop told
    (``codes_left_out``), so that the tablet is not taken for one with its sound down. A code
    played in doubt is told too (``codes_in_doubt``), and, once the readings hold still, that
    they do (the laptop then listens to the tablet again)."""
    lie = {"step": "(size) => { window.lie.step += size; }",
           "creep": "(creep) => { window.lie.step += window.lie.creep * (performance.now() / 1000 - window.lie.since);"
                    " window.lie.since = performance.now() / 1000; window.lie.creep = creep; }"}
    with lying_tablet(listening=lambda: None) as (_box, server, page):
        for how, size, played in (("step", 0.003, True), ("step", 0.010, False), ("creep", 0.0009, True),
                                  ("creep", 0.003, False)):
            # A try in which the page's output glitched (the loaded machine's doing, not the lie's: a
            # page rightly leaves its code out for seconds after a glitch, as CI once saw) is made again;
            # so is one in which the page decided on the code before it had read the lie (a fresh Debian
            # 12 root once left it out 7 ms before the page saw the 3 ms step: its doubt was not the lie's).
            for _ in range(3):
                until(page, "narratorBox.playing && narratorBox.trusted")
                time.sleep(1.0)
                lied = page.evaluate(NOW)
                page.evaluate(lie[how], size)
                seen = f" && Math.abs(narratorBox.creep) >= {size * 0.8}" if how == "creep" else ""  # (a slope needs time)
                until(page, "!narratorBox.trusted" + seen, 3)
                since = page.evaluate(NOW)
                told = time.monotonic()
                server.play_codes({1: (told + PLACE_AHEAD + 0.05,)})  # (placed at once: in the doubt)
                until(page, f"narratorBox.events.some((e) => e[0] >= {since} && e[1].startsWith('code'))", 3)
                events = events_since(page, since)
                logged = events_since(page, lied)
                code = next(event for event in logged if event[1].startswith("code"))  # (the wait above saw one)
                read = [event for event in logged if event[1] in ("timestamp leapt", "timestamps drift (ms a second)")]
                if not any(event[1] == "glitch" for event in logged) and any(event[0] <= code[0] for event in read):
                    break
                time.sleep(0.3)  # (the page's word reaches the laptop before the next try's)
                page.evaluate(lie["creep"], 0.0)
            what = "code played in doubt (readings within, ms)" if played else "code not played: timestamps in doubt"
            assert not [event for event in events if event[1].startswith("code") and event[1] != what], \
                (how, events_since(page, lied))  # (what the page saw from the lie on)
            if played:
                assert 0 <= next(event[2] for event in events if event[1] == what) <= 5, (how, events)
            time.sleep(0.3)  # (the page's word reaches the laptop)
            assert server.codes_left_out(told) == (set() if played else {1}), (how, events)
            assert server.codes_in_doubt(told) == ({1} if played else set()), (how, events)
            if played and how == "step":  # (said once the readings hold still, STILL_FOR after they agree again)
                assert server.still_in_doubt() == {1}
                # (20 s: a fresh Debian 12 root's suite once saw the real timestamps leap 2.5-7 ms every 2-3 s
                # after the code, the loaded machine's doing: never STILL_FOR still within 8 s)
                until(page, f"narratorBox.events.some((e) => e[0] >= {since} && e[1].startsWith('timestamps hold'))", 20)
                events = events_since(page, since)
                still = next(event[0] for event in events if event[1].startswith("timestamps hold"))
                agreed = max(event[0] for event in events if event[1] == "timestamps agree" and event[0] < still)
                assert still - agreed >= STILL_FOR - 0.15, events
                time.sleep(0.3)
                assert server.still_in_doubt() == set()
            page.evaluate(lie["creep"], 0.0)  # (a creep stopped: believed again)


def test_a_reloaded_page_whose_timestamps_were_in_doubt_moves_unheard_before_it_is_heard():
    """A page that comes in mid-night plays silent until it is in step. Where its timestamps are
    in doubt for its first seconds (PulseAudio's estimate of a new stream creeps for a while on a
    busy machine), it can check where it is only once they are believed; it must then move, still
    silent, to where they say, and be heard from there. In the benchmark (benchmarks/README.md)
    every page heard "not settled" was heard at the first check its timestamps were believed,
    0.1-14.8 ms off by them, and corrected in earshot."""
    from boxnet import join

    with lying_tablet() as (_box, _server, page):
        page.add_init_script(f"({LIE})(0.0015)")  # 1.5 ms a second: in doubt (RAMP, 0.6)
        page.reload()
        since = page.evaluate(NOW)
        join(page)
        until(page, "narratorBox.playing && narratorBox.hushed")
        time.sleep(3.0)  # over HUSH_AT_MOST (2 s) from its start: counted from there, it ended at the first belief
        assert not page.evaluate("narratorBox.trusted"), events_since(page, since)
        page.evaluate(FREEZE)  # (about 5 ms off, as far as the page can tell)
        until(page, "!narratorBox.hushed")
        events = events_since(page, since)
        believed = next(event[0] for event in events if event[1] == "timestamps agree")
        heard = next(event for event in events if event[1].startswith("heard"))
        moved = [event for event in events if event[1] == "moved unheard" and believed <= event[0] <= heard[0]]
        assert moved and abs(moved[0][2]) > 2, events  # it was off when they were believed: moved silent
        assert abs(heard[2]) <= 1.0, events  # heard in step (AGREED)


# Where a page plays, as far off the laptop as its own steering finds it (narratorBox.error, + ahead) less what
# its timestamps' lie adds: seconds ahead of where it should be, as a listener would hear it.
TRUE_ERROR = """() => narratorBox.error
    - (window.lie.step + window.lie.creep * Math.max(0, performance.now() / 1000 - window.lie.since))"""


def course(page) -> float:
    """Where the page plays (TRUE_ERROR), the median of five checks of its steering."""
    found = []
    for _ in range(5):
        found.append(page.evaluate(TRUE_ERROR))
        time.sleep(0.1)
    return sorted(found)[2]


def heard_notes(events) -> list:
    return [(event[1], event[2]) for event in events if event[1].startswith("off as heard")]


def heard_in_doubt(server, page, seconds: float, awaited: str, doubt: str = "!narratorBox.trusted",
                   timeout: float = 3.0) -> tuple[float, float]:
    """A page whose timestamps creep 3 ms a second (in doubt while they do), told once ``doubt``
    holds that the laptop heard it ``seconds`` later than the others (``BoxServer.heard_off``);
    waits until it logs ``awaited``. Where it played before (``course``), and when it was told."""
    time.sleep(1.0)
    page.evaluate(CREEP, 0.003)
    until(page, doubt, 3)
    was, since = course(page), page.evaluate(NOW)
    server.heard_off(1, seconds)
    logged(page, awaited, since, timeout=timeout)
    return was, since


def test_a_page_in_doubt_moves_its_course_by_what_the_laptop_heard_and_leaves_it_to_its_timestamps_once_believed():
    """--listen: the laptop's ear heard a tablet off the others while its page held its course, its
    timestamps in doubt (``BoxServer.heard_off``): the page moves its course by it, a touch faster
    (0.4 % at most) while the night's voice speaks; at once, a short cross-fade, where it is heard
    so far off (JUMP, 6 ms) that it already sounds doubled, as it does by its own timestamps. A
    page that believes its timestamps again leaves it to them. Where the page plays is read from
    its own steering, less its timestamps' lie."""
    with lying_tablet(speech=[(0.0, 120.0)]) as (_box, server, page):  # (the voice speaks throughout)
        # heard 4 ms later than the others: it should play 4 ms further on. (A try in which the real
        # output glitched or its timestamps leapt, the loaded machine's doing and not the lie's, which
        # only creeps, is made again: where the page plays is read through those timestamps, and a
        # clean clone's suite once saw them leap 10-23 ms in the middle of the move.)
        for _ in range(3):
            began = page.evaluate(NOW)
            was, since = heard_in_doubt(server, page, 0.004, "off as heard: done", timeout=8)
            moved = course(page) - was
            events = events_since(page, since)
            if not any(event[1] in ("glitch", "timestamp leapt") for event in events_since(page, began)):
                break
            page.evaluate(FREEZE)
            until(page, "narratorBox.trusted")
        assert [what for what, _ in heard_notes(events)] == ["off as heard", "off as heard: done"], events
        assert corrections(events) == [], events  # (by its speed: no jump, and nothing of its own steering)
        assert moved == pytest.approx(0.004, abs=0.0008), events

        # Timestamps that leap every tenth of a second (in doubt, and never agreeing long enough to
        # correct even a large error by them): heard 12 ms early, it jumps back 12 ms at once.
        page.evaluate(FREEZE)
        page.evaluate("window.flipping = setInterval(() => { window.lie.step += (window.flipped = !window.flipped)"
                      " ? 0.003 : -0.003; }, 90)")
        time.sleep(0.5)
        was, since = course(page), page.evaluate(NOW)
        server.heard_off(1, -0.012)
        logged(page, "off as heard: taken at once", since)
        time.sleep(0.3)
        events = events_since(page, since)
        assert heard_notes(events) == [("off as heard", -12.0), ("off as heard: taken at once", -12.0)], events
        assert course(page) - was == pytest.approx(-0.012, abs=0.004), events  # (the flips: 3 ms either way)
        assert not page.evaluate("narratorBox.trusted")

        # Believed again: its timestamps steer it (back where they say), and what the laptop heard
        # is left to them.
        page.evaluate("clearInterval(window.flipping); window.lie.step -= window.flipped ? 0.003 : 0")
        until(page, "narratorBox.trusted")
        since = page.evaluate(NOW)
        server.heard_off(1, 0.004)
        logged(page, "off as heard: left to its timestamps", since)
        assert heard_notes(events_since(page, since)) == [("off as heard: left to its timestamps", 4.0)]


def test_a_page_in_doubt_keeps_a_far_course_the_laptop_heard_though_its_creeping_timestamps_say_otherwise():
    """A page whose timestamps creep (in doubt, though each agrees with the last) corrects itself
    by them only when they find it COARSE (50 ms) or more off: so far, its course must be wrong.
    Moved 80 ms by what the laptop heard, it is that far off by them through the laptop's doing, and
    it keeps it (taken back, the laptop would hear it 80 ms off again and move it again: a jump
    every few seconds)."""
    with lying_tablet(speech=[(0.0, 120.0)]) as (_box, server, page):
        was, since = heard_in_doubt(server, page, 0.080, "off as heard: taken at once",
                                    doubt="!narratorBox.trusted && narratorBox.agreed")
        time.sleep(2.5)  # (a jump of its own would come within two checks and CALM, a second)
        events = events_since(page, since)
        assert page.evaluate("!narratorBox.trusted && narratorBox.agreed"), events  # (still in doubt, agreeing)
        assert heard_notes(events) == [("off as heard", 80.0), ("off as heard: taken at once", 80.0)], events
        assert corrections(events) == [], events
        assert course(page) - was == pytest.approx(0.080, abs=0.002), events


def test_a_page_in_doubt_takes_what_the_laptop_heard_at_once_where_the_voice_is_silent():
    """Where the night's voice is silent a while (here, all of it), a course moved by what the
    laptop heard is taken at once, a short cross-fade under the drums, though it is under JUMP."""
    with lying_tablet() as (_box, server, page):
        was, since = heard_in_doubt(server, page, 0.005, "off as heard: taken in a quiet moment")
        time.sleep(0.3)
        events = events_since(page, since)
        assert heard_notes(events) == [("off as heard", 5.0), ("off as heard: taken in a quiet moment", 5.0)], events
        assert course(page) - was == pytest.approx(0.005, abs=0.0008), events
