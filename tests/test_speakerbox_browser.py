"""The speaker box in a real browser: Debian's Chromium, driven by Playwright, on 127.0.0.1."""

import itertools
import os
import re
import signal
import statistics
import subprocess
import sys
import time

import pytest
from boxnet import CHROMIUM, JitterProxy, ramp_box

pytestmark = pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="needs Debian's chromium (apt-get install chromium)")


@pytest.fixture
def game(tmp_path):
    """``narrate serve`` for 3 players on a free port; yields (tablet URL, control URL, process)."""
    started = []

    def start(*extra, players="3", port="0"):
        process = subprocess.Popen(
            [sys.executable, "-m", "narrator", "serve", "--players", players, "--port", port, "--host", "127.0.0.1",
             "--no-laptop-audio", "--no-ambience", *extra],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            env={**os.environ, "LANG": "C.UTF-8", "XDG_CACHE_HOME": str(tmp_path / "cache")})
        started.append(process)
        for line in process.stdout:
            if "?token=" in line:  # the control page's address, in any language
                control = re.search(r"(http://\S+)", line)[1]
                return control.split("?")[0], control, process
        raise AssertionError(process.stderr.read())

    yield start
    for process in started:
        process.kill()
        process.wait()


@pytest.fixture(autouse=True)
def no_pages_left_over(browser):
    """Each test's pages closed after it: one left reconnecting could find the next test's server
    on a port the system gave out again."""
    yield
    for context in browser.contexts:
        context.close()


def joined(browser, address):
    """A tablet that has tapped to join, or the laptop's controls page (no tap: it plays nothing)."""
    page = browser.new_page()
    page.goto(address)
    if "token=" not in address:
        page.click("#join")
    page.wait_for_function("narratorBox.offset !== null && narratorBox.state !== null", timeout=20000)
    return page


def start_night(page):
    page.click("button[data-action=start]")


def playing(*pages):
    for page in pages:
        page.wait_for_function("narratorBox.playing", timeout=10000)


def test_a_page_without_the_token_cannot_start_or_pause(browser, game):
    """A tablet's page cannot press a control; a controls page with a made-up token is told so and
    let go: it shows that its address is not the game's, and has no button left to press."""
    tablet, control, _ = game("--no-day")
    listener = joined(browser, tablet)
    assert listener.is_hidden("#controls")
    listener.evaluate("narratorBox.send({type: 'control', action: 'start'})")
    guesser = browser.new_page()
    guesser.goto(tablet + "?token=guess")
    listener.wait_for_function("narratorBox.errors.length > 0")
    guesser.wait_for_function("narratorBox.connection === 'stale'", timeout=10000)
    refusal = "solo il portatile comanda la partita"  # the C locale speaks Italian
    assert listener.evaluate("narratorBox.errors") == [refusal]
    assert guesser.evaluate("narratorBox.errors") == [refusal]  # its hello
    assert guesser.text_content("#trouble-title") == "Questo indirizzo non è di questa partita"
    assert guesser.is_hidden("#box")  # no button to press
    time.sleep(0.5)
    assert listener.evaluate("narratorBox.state.stage") == "waiting"
    laptop = joined(browser, control)
    start_night(laptop)
    playing(listener)
    assert guesser.evaluate("narratorBox.connection") == "stale"  # it never came back to try


def test_the_controls_ask_for_the_deal_and_a_second_tap_before_the_night_is_ended(browser, game):
    tablet, control, process = game("--no-day")
    assert process.stdout.readline() == ("Distribuite le carte; quando ognuno ha la sua e i tablet sono collegati, "
                                         "premi Invio qui (o Via nella pagina dei comandi). q ferma.\n")
    laptop = joined(browser, control)
    assert laptop.inner_text("#hint") == "Distribuite le carte, poi premete Via quando ognuno ha la sua."
    listener = joined(browser, tablet)
    start_night(laptop)
    playing(listener)
    end = "button[data-action=next]"
    laptop.wait_for_selector(end)
    assert laptop.inner_text(end) == "Chiudi la notte"
    looks = laptop.evaluate("""Object.fromEntries([...document.querySelectorAll('#controls button')]
        .filter((b) => !b.hidden).map((b) => [b.dataset.action, [getComputedStyle(b).backgroundColor,
                                                                 b.getBoundingClientRect().top]]))""")
    assert looks["next"][0] != looks["pause"][0]  # unlike Pause: another colour...
    assert looks["next"][1] > looks["pause"][1]  # ...and a row of its own, away from it
    # When the button's words change, on the page's clock: a loaded machine can return from a
    # click most of a second after the page took it (seen: 0.7 s).
    laptop.evaluate("""(end) => {
      window.endWords = [];
      new MutationObserver(() => {
        const words = document.querySelector(end).textContent;
        if (words !== window.endWords.at(-1)?.[1]) window.endWords.push([performance.now(), words]);
      }).observe(document.body, {subtree: true, childList: true, characterData: true});
    }""", end)
    laptop.click(end)  # one tap in the dark: it only says what a second would do...
    assert laptop.inner_text(end) == "Tocca di nuovo per chiudere la notte"
    laptop.wait_for_function(f"document.querySelector('{end}').textContent === 'Chiudi la notte'",
                             timeout=6000)  # ...for four seconds, then it is a first tap again
    words = laptop.evaluate("window.endWords")
    [armed] = [at for at, said in words if said == "Tocca di nuovo per chiudere la notte"]
    [back] = [at for at, said in words if said == "Chiudi la notte" and at > armed]
    assert 3500 < back - armed < 5500, words
    assert listener.evaluate("narratorBox.state.stage === 'night' && narratorBox.state.night.running")
    assert process.poll() is None  # the night plays on
    laptop.click(end)
    assert laptop.inner_text(end) == "Tocca di nuovo per chiudere la notte"
    laptop.click(end)  # the second tap ends it
    assert process.wait(timeout=20) == 0


def test_ctrl_c_stops_the_server_cleanly(game):
    import urllib.request

    tablet, _, process = game("--no-day")
    assert urllib.request.urlopen(tablet, timeout=5).status == 200
    process.send_signal(signal.SIGINT)
    assert process.wait(timeout=10) == 130
    assert "Traceback" not in process.stderr.read()
    with pytest.raises(OSError):
        urllib.request.urlopen(tablet, timeout=2)


def test_a_tablet_that_loses_the_network_comes_back_in_step(browser, game):
    tablet, control, _ = game("--no-day")
    laptop = joined(browser, control)
    steady = joined(browser, tablet)
    table = browser.new_page()
    connections = []

    def through_the_network(ws):  # the page's WebSocket, passed through so that it can be cut
        ws.connect_to_server()
        connections.append(ws)

    table.route_web_socket(re.compile(r".*/ws$"), through_the_network)
    table.goto(tablet)
    table.click("#join")
    table.wait_for_function("narratorBox.offset !== null && narratorBox.state !== null", timeout=20000)
    start_night(laptop)
    playing(steady, table)
    connections[-1].close()  # the Wi-Fi drops
    table.wait_for_function("!narratorBox.playing", timeout=10000)  # it went quiet...
    table.wait_for_function("narratorBox.playing", timeout=15000)  # ...reconnected, and plays again
    assert len(connections) == 2
    assert abs(table.evaluate("narratorBox.scheduledEpochStart")
               - steady.evaluate("narratorBox.scheduledEpochStart")) < 0.020


def test_a_tablet_whose_network_goes_silent_says_so_at_once_and_comes_back_in_step(browser, game):
    """A link that dies without a word (nothing comes, nothing closes): the tablet leaves it after
    its few seconds of silence, not the minute a browser waits to close a dead connection."""
    from urllib.parse import urlsplit

    tablet, control, _ = game("--no-day")
    laptop = joined(browser, control)
    steady = joined(browser, tablet)
    proxy = JitterProxy(urlsplit(tablet).port).start()
    try:
        table = joined(browser, f"http://127.0.0.1:{proxy.port}/")
        start_night(laptop)
        playing(steady, table)
        proxy.stall()
        went = time.monotonic()
        table.wait_for_function("narratorBox.connection === 'lost' && !narratorBox.playing", timeout=15000)
        assert time.monotonic() - went < 5 + 5  # its silence (5 s) and a moment to notice: not a minute
        assert table.is_visible("#trouble")  # it says so
        table.wait_for_function("narratorBox.playing", timeout=15000)  # a new connection, and in step
        assert abs(table.evaluate("narratorBox.scheduledEpochStart")
                   - steady.evaluate("narratorBox.scheduledEpochStart")) < 0.020
    finally:
        proxy.stop()


def test_a_tablet_never_plays_the_night_of_a_box_that_was_restarted(browser, game):
    tablet, control, first_box = game("--no-day")
    page = joined(browser, tablet)
    page.wait_for_function("narratorBox.nightId !== null", timeout=20000)
    old_id, old_length = page.evaluate("[narratorBox.nightId, narratorBox.nightLength]")
    start_night(joined(browser, control))
    playing(page)
    first_box.kill()
    first_box.wait()
    port = tablet.rsplit(":", 1)[1].strip("/")
    _, new_control, _ = game("--no-day", players="10", port=port)  # another night on the same address
    page.wait_for_function(f"narratorBox.nightId !== null && narratorBox.nightId !== {old_id!r}", timeout=30000)
    assert not page.evaluate("narratorBox.playing")  # the new box has not started: nothing plays
    new_length = page.evaluate("narratorBox.nightLength")
    assert new_length == pytest.approx(page.evaluate("narratorBox.state.night.length"), abs=0.1)
    assert new_length > old_length + 30  # ten players' night, not the old three players'
    other = joined(browser, tablet)
    start_night(joined(browser, new_control))
    playing(page, other)
    assert abs(page.evaluate("narratorBox.scheduledEpochStart") - other.evaluate("narratorBox.scheduledEpochStart")) \
        < 0.020


@pytest.mark.parametrize("lang, words", [
    ("it", {"join": "Tocca per unirti", "start": "Via", "status": "collegato · a tempo"}),
    ("en", {"join": "Tap to join", "start": "Start", "status": "connected · in step"}),
])
def test_the_page_speaks_the_game_language(browser, game, lang, words):
    tablet, control, _ = game("--no-day", "--lang", lang)
    page = browser.new_page()
    page.goto(tablet)
    assert page.get_attribute("html", "lang") == lang
    assert page.inner_text("#join") == words["join"]
    page.click("#join")
    page.wait_for_function("narratorBox.offset !== null && narratorBox.state !== null", timeout=20000)
    laptop = joined(browser, control)
    assert laptop.inner_text("button[data-action=start]") == words["start"]
    page.wait_for_function(f"document.getElementById('status').textContent.startsWith({words['status']!r})",
                           timeout=10000)


def test_a_tablet_with_an_audio_session_plays_as_media_so_a_silent_switch_does_not_mute_it(browser, game):
    """Safari's Audio Session API (not in Chromium: stood in for here, as Safari has it)."""
    tablet, _control, _ = game("--no-day")
    page = browser.new_page()
    page.add_init_script("navigator.audioSession = {type: 'auto'}")
    page.goto(tablet)
    assert page.evaluate("navigator.audioSession.type") == "auto"
    page.click("#join")
    assert page.evaluate("navigator.audioSession.type") == "playback"


def test_a_tablet_that_slept_measures_its_clock_afresh_and_plays_on_in_step(browser):
    box, server = ramp_box(30)
    try:
        page = joined(browser, f"http://127.0.0.1:{server.port}/")
        page.wait_for_function("narratorBox.nightId !== null && !narratorBox.settling", timeout=20000)
        box.start_night()
        page.wait_for_function("narratorBox.playing", timeout=10000)
        assert page.evaluate("narratorBox.resyncs") == ["load"]
        # The tab's timers stand still for 2.5 s (a phone that locked its screen, a tab in the background)...
        page.evaluate("() => { const until = performance.now() + 2500; while (performance.now() < until) {} }")
        page.wait_for_function("narratorBox.resyncs.includes('timers stood still')", timeout=5000)
        page.wait_for_function("!narratorBox.settling", timeout=10000)  # ...a fresh estimate...
        page.wait_for_function("narratorBox.playing && Math.abs(narratorBox.error) < 0.002", timeout=10000)
        page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")  # shown again after being hidden
        assert page.evaluate("narratorBox.resyncs").count("visible") == 1

        # A tablet whose sound the system stopped while it slept (its audio clock stopped too)...
        page.evaluate("narratorBox.ctx.suspend()")
        time.sleep(1.5)
        page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")  # ...woken up...
        page.wait_for_function("narratorBox.ctx.state === 'running'", timeout=5000)  # ...has it back...
        page.wait_for_function("!narratorBox.settling", timeout=10000)
        page.wait_for_function("narratorBox.playing && !narratorBox.hushed && Math.abs(narratorBox.error) < 0.002",
                               timeout=10000)  # ...and plays the night from where the laptop is
    finally:
        server.stop()


def clock_events(page, since: float) -> list[str]:
    """What a page logged of its estimate of the laptop's clock since ``since`` (its NOW)."""
    from test_speakerbox_doubt import events_since

    return [what for _, what, _ in events_since(page, since) if what.startswith("clock")]


def test_an_estimate_of_the_laptop_s_clock_that_the_samples_still_allow_is_followed_slowly(browser):
    """Behind a jittery network the estimate of the laptop's clock wanders by a millisecond or two
    as the fastest trips leave the samples' window, while the two clocks part far more slowly. Once
    its window is full, a page follows a new estimate its samples still allow at GLIDE (0.2 ms a
    second), and takes at once one they rule out (no trip out or back takes less than nothing); a
    young estimate (just joined) is taken at once as it improves."""
    from test_speakerbox_doubt import NOW

    box, server = ramp_box(30)
    try:
        page = joined(browser, f"http://127.0.0.1:{server.port}/")
        page.wait_for_function("narratorBox.nightId !== null && !narratorBox.settling", timeout=20000)
        page.evaluate("""() => { const real = send; window.send = (m) => { if (m.type !== "ping") real(m); }; }""")
        # (and no pong of the laptop's from now on: on a loaded machine one still on its way came in
        # after the window was emptied, and the estimate took the middle of it and a sample below)
        page.evaluate("""() => { const real = receive;
            window.receive = (m) => { if (m.type !== "pong" || m.made) real(m); }; }""")

        def sample(start, shift):  # a trip of 20 ms, 10 each way, on a clock ``shift`` from ``start``
            page.evaluate("""([start, shift]) => { const sent = now() - 0.02;
                receive({type: "pong", sent, server: sent + 0.01 + start + shift, made: true}); }""", [start, shift])

        def taken_at_once(shift):  # the offset is its one sample's estimate, and that is ``shift`` from ``start``
            # within two ticks of the page's clock (Chromium gives it in steps of 0.1 ms) and half of what the
            # made trip took beyond its 20 ms (the page's script held between making it and taking it: 1.7 ms
            # once, in a loaded suite)
            offset, estimate, rtt = page.evaluate(
                "[narratorBox.offset, (samples[0].out - samples[0].back) / 2, narratorBox.rtt]")
            assert offset == pytest.approx(estimate, abs=1e-9)  # (a glide would still be on its way)
            assert abs(estimate - start - shift) <= 0.0002 + max(0.0, rtt - 0.02) / 2

        def alone():  # the samples so far dropped: the next is the window's only one
            return page.evaluate("samples.length = 0, narratorBox.offset")

        start = alone()
        began = time.monotonic()  # (a glide counts from the sample before it: this one)
        page.evaluate("settledAt = now()")  # (just taken fresh: on a loaded machine the join can be 15 s ago)
        sample(start, 0.0015)  # young: taken at once
        taken_at_once(0.0015)
        page.evaluate("settledAt = -Infinity")  # (as if in use for longer than its window)
        start = alone()
        since = page.evaluate(NOW)
        for _ in range(9):
            sample(start, 0.0015)  # 1.5 ms away, well within what a 20 ms trip allows
            time.sleep(0.25)
        moved, took = page.evaluate("narratorBox.offset") - start, time.monotonic() - began
        assert 0 < moved <= 0.0002 * took + 0.0001, (moved, took)
        # (what the clock did, among what else the page logged meanwhile: on a loaded machine its
        # output's timestamps leap too, a fresh root's run once)
        assert clock_events(page, since) == ["clock gliding"], page.evaluate("narratorBox.events")
        start = alone()
        since = page.evaluate(NOW)
        sample(start, 0.030)  # 30 ms away: ruled out by a trip of 10 ms each way
        taken_at_once(0.030)
        assert clock_events(page, since) == ["clock moved"], page.evaluate("narratorBox.events")
    finally:
        server.stop()


def test_a_page_the_laptop_has_not_heard_plays_the_night_silent_until_it_is_heard(browser):
    """In Chromium: a tablet there at the start and one that joins mid-night both play the night
    unheard while the laptop has not heard them, longer than a late joiner's own hush (2 s at
    most); each is heard once in step after its round (a delay set, or not heard: as it is). One
    that no round comes for plays as it is after a while (UNHEARD_LONGEST, shortened here)."""
    from narrator.core import arrivals

    box, server = ramp_box(60, listening=lambda: None)
    try:
        address = f"http://127.0.0.1:{server.port}/"
        first = joined(browser, address)
        first.wait_for_function("narratorBox.nightId !== null && !narratorBox.settling", timeout=20000)
        # its listening code fetched and decoded as it joined, before any round (which then needs no time for it)
        assert first.evaluate("codes['/codes/1.wav'].then((buffer) => buffer.duration)") == pytest.approx(
            arrivals.CODE_SECONDS, abs=0.01)
        box.start_night()
        first.wait_for_function("narratorBox.playing", timeout=10000)
        late = joined(browser, address)
        late.wait_for_function("narratorBox.playing", timeout=20000)
        time.sleep(3.0)
        for page in (first, late):
            assert page.evaluate("narratorBox.playing && narratorBox.hushed && narratorBox.unheard")
        controls = joined(browser, f"{address}?token={server.token}")  # the laptop's page says why they are silent
        controls.wait_for_function("document.getElementById('tablets').innerText.split('silent until the laptop "
                                   "has heard it').length === 3", timeout=10000)
        # A code the page cannot place (told too late here; its timestamps in doubt do the same) is
        # left out, and the laptop told: its silence is not taken for a tablet with its sound down.
        told = time.monotonic()
        server.play_codes({1: (told - 1.0,)})
        first.wait_for_function("narratorBox.events.some(([, what]) => what === 'code came too late' "
                                "|| what === 'code not played: timestamps in doubt')", timeout=10000)  # (either)
        deadline = time.monotonic() + 5.0
        while server.codes_left_out(told) != {1} and time.monotonic() < deadline:
            time.sleep(0.05)
        assert server.codes_left_out(told) == {1} and first.evaluate("narratorBox.hushed")
        server.set_delay(1, 20)
        first.wait_for_function("!narratorBox.hushed && Math.abs(narratorBox.error) < 0.002", timeout=10000)
        assert late.evaluate("narratorBox.hushed")
        server.mark_missed((2,))
        late.wait_for_function("!narratorBox.hushed && Math.abs(narratorBox.error) < 0.002", timeout=10000)
        shown = controls.inner_text("#tablets")
        assert "silent until" not in shown and "the laptop did not hear it: is its sound up?" in shown, shown
        for page in (first, late):
            events = [what for _, what, _ in page.evaluate("narratorBox.events")]
            told = events.index("heard by the laptop")
            unhushed = [what for what in events if what.startswith("heard") and what != "heard by the laptop"]
            assert len(unhushed) == 1 and events.index(unhushed[0]) > told, events  # heard only after
            assert page.evaluate("narratorBox.playing && !narratorBox.unheard")
        # A round that never comes: the page plays as it is after UNHEARD_LONGEST (60 s; 4 s here)
        began = time.monotonic()  # (before it joins: it may begin its wait before the line below sets how long)
        third = joined(browser, address)
        third.evaluate("narratorBox.unheardLongest = 4")
        third.wait_for_function("narratorBox.playing", timeout=20000)
        third.wait_for_function("!narratorBox.hushed && Math.abs(narratorBox.error) < 0.002", timeout=20000)
        assert time.monotonic() - began >= 4.0
        events = [what for _, what, _ in third.evaluate("narratorBox.events")]
        assert "not heard by the laptop: plays as it is" in events and "heard by the laptop" not in events, events
        assert third.evaluate("!narratorBox.unheard")
    finally:
        server.stop()


class Crowd:
    """``count`` tablets on WebSockets of their own (in a thread), each in step as far as the laptop
    can tell: every place on the list is held by a real-looking tablet."""

    def __init__(self, tablet_url: str, count: int):
        import asyncio
        import threading

        self.url, self.count, self.ready = tablet_url + "ws", count, threading.Event()
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)

    async def hold(self):
        import asyncio

        import aiohttp

        async def one(session, number):
            async with session.ws_connect(self.url) as ws:
                await ws.send_json({"type": "hello", "role": "tablet", "id": f"crowd-{number}"})
                await ws.send_json({"type": "report", "synced": True, "playing": False})
                async for _message in ws:
                    pass

        self.stopping = asyncio.get_running_loop().create_future()
        async with aiohttp.ClientSession() as session:
            held = [asyncio.ensure_future(one(session, number)) for number in range(self.count)]
            await asyncio.sleep(1)
            self.ready.set()
            await self.stopping
            for task in held:
                task.cancel()
            await asyncio.gather(*held, return_exceptions=True)

    def __enter__(self):
        import asyncio

        self.thread.start()
        self.task = asyncio.run_coroutine_threadsafe(self.hold(), self.loop)
        assert self.ready.wait(20)
        return self

    def __exit__(self, *exc):
        self.loop.call_soon_threadsafe(self.stopping.set_result, None)
        self.task.result(10)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(5)
        self.loop.close()


def test_a_tablet_turned_away_says_why_and_gets_in_when_the_controls_page_frees_a_place(browser, game):
    """Issue 40, point 4: the list full of tablets in step, a new one's screen says why it plays
    nothing; the controls page lists it as refused, and Remove beside another tablet lets it in."""
    tablet, control, _ = game("--no-day")
    with Crowd(tablet, 64):
        controls = joined(browser, control)
        page = joined(browser, tablet)
        page.wait_for_function("!!narratorBox.refused", timeout=10000)
        assert page.inner_text("#title") == "Non suona"  # the C locale speaks Italian
        assert page.inner_text("#hint").startswith("La cassa del narratore ha già tutti i tablet che può tenere")
        assert not page.evaluate("narratorBox.playing")
        controls.wait_for_function("narratorBox.tablets.some((tablet) => tablet.refused)", timeout=10000)
        assert "rifiutato" in controls.inner_text("#tablets li:last-child")
        controls.click("#tablets li:first-child button.remove")
        page.wait_for_function("narratorBox.refused === null", timeout=10000)
        controls.wait_for_function("!narratorBox.tablets.some((tablet) => tablet.refused)", timeout=10000)
        assert page.inner_text("#title") != "Non suona"
        assert controls.inner_text("#feedback") == "Tolto: il suo posto è libero."


def test_a_tablet_whose_speaker_delay_is_set_on_the_controls_page_plays_that_much_earlier(browser):
    """Issue 41, point 3: a far or Bluetooth speaker sounds later than its page can see; the
    controls page's +10 ms steps set that delay for one tablet, which then plays that much ahead
    of the other (as its page outputs: heard through the slow speaker, they would meet), and its
    log says what moved it."""
    import statistics

    from boxnet import played, skews, tablet

    box, server = ramp_box(30)
    address = f"http://127.0.0.1:{server.port}/"
    try:
        near, far = tablet(browser, address), tablet(browser, address)
        controls = browser.new_page()
        controls.goto(f"{address}?token={server.token}")
        controls.wait_for_function("narratorBox.tablets.length === 2", timeout=10000)
        for step in range(1, 5):
            controls.locator("#tablets li").nth(1).get_by_role("button", name="+10 ms").click()
            controls.wait_for_function(f"narratorBox.tablets[1].delay_ms === {10 * step}", timeout=5000)
        assert "40 ms" in controls.locator("#tablets li").nth(1).inner_text()
        far.wait_for_function("narratorBox.delay === 0.04", timeout=5000)
        assert near.evaluate("narratorBox.delay") == 0
        box.start_night()
        started = time.time() + 0.5
        time.sleep(4.5)
        found = skews(played(near), played(far), started + 1, started + 4)
        assert len(found) > 30
        assert statistics.median(found) == pytest.approx(0.040, abs=0.004), statistics.median(found)
        assert max(abs(skew - 0.040) for skew in found) < 0.015
        assert any(event[1] == "speaker delay set" for event in far.evaluate("narratorBox.events"))
    finally:
        for context in browser.contexts:
            context.close()
        server.stop()


def test_a_delay_set_by_listening_is_kept_to_a_tenth_of_a_ms_and_written_as_the_game_s_language_writes_it(browser):
    """A round of listening hears a speaker to a fraction of a ms: the delay it sets is kept to a
    tenth (in whole ms two tablets could be left a ms apart), the controls page writes it as its
    language does (an Italian page with a decimal comma), and its steps go on from it."""
    from boxnet import tablet

    box, server = ramp_box(30, language="it")
    address = f"http://127.0.0.1:{server.port}/"
    try:
        far = tablet(browser, address)
        controls = browser.new_page()
        controls.goto(f"{address}?token={server.token}")
        controls.wait_for_function("narratorBox.tablets.length === 1", timeout=10000)
        server.set_delay(1, 40.46)  # as a round of listening sets it (listen.Listener.round)
        far.wait_for_function("narratorBox.delay === 0.0405", timeout=5000)
        controls.wait_for_function("narratorBox.tablets[0].delay_ms === 40.5", timeout=5000)
        assert "40,5 ms" in controls.locator("#tablets li").first.inner_text()
        controls.locator("#tablets li").first.get_by_role("button", name="+10 ms").click()
        controls.wait_for_function("narratorBox.tablets[0].delay_ms === 50.5", timeout=5000)
        far.wait_for_function("narratorBox.delay === 0.0505", timeout=5000)
        assert "50,5 ms" in controls.locator("#tablets li").first.inner_text()
    finally:
        for context in browser.contexts:
            context.close()
        server.stop()


def test_a_speaker_delay_set_while_the_night_speaks_moves_slowly_and_the_rest_waits_for_a_quiet_moment(browser):
    """Issue 41, point 4: a correction is never a jump inside speech. A delay of 100 ms set while
    the night's voice sounds moves a couple of milliseconds a second (the page's speed follows it),
    and the rest is taken at once where the voice is silent (the night says where: 5 to 7 s, 11 to
    13, 17 to 19); the page's log says what moved it. The page takes it only in a quiet stretch
    where it believes its output's timestamps: on a loaded machine they can be in doubt through a
    whole one, so the night has three, and the test waits for the one the page took.

    A night in which a page's output glitched or its timestamps leapt over 5 ms (the machine's
    doing: a fresh root's run once had the far tablet 23 ms off from the start after a leap of
    38 ms, and corrected inside speech) is played again where it fails, three times at most; a
    failure with neither in the pages' logs fails at once."""
    quiet = [(5.0, 7.0), (11.0, 13.0), (17.0, 19.0)]
    speech = [(0.0, 5.0), (7.0, 11.0), (13.0, 17.0), (19.0, 30.0)]
    for attempt in range(3):
        found, events, disturbed = _a_delay_set_while_the_night_speaks(browser, quiet, speech)
        try:
            _moved_slowly_and_taken_in_a_quiet_moment(found, events, quiet, speech)
            return
        except AssertionError:
            if attempt == 2 or not disturbed:
                raise


def _a_delay_set_while_the_night_speaks(browser, quiet, speech):
    """Two tablets play a night whose voice is ``speech``; 1.5 s in, the controls page gives the
    second +100 ms. How far behind the first it plays, every 50 ms (seconds into the night, s), its
    log, and whether either page logged a glitch or a leap of its timestamps over 5 ms as it played."""
    from boxnet import played, position_at, sounding, tablet, wrapped

    box, server = ramp_box(30, speech=speech)
    address = f"http://127.0.0.1:{server.port}/"
    taken = "narratorBox.events.some((event) => event[1] === 'speaker delay taken in a quiet moment')"
    try:
        near, far = tablet(browser, address), tablet(browser, address)
        assert far.evaluate("narratorBox.speech") == [list(span) for span in speech]
        controls = browser.new_page()
        controls.goto(f"{address}?token={server.token}")
        controls.wait_for_function("narratorBox.tablets.length === 2", timeout=10000)
        box.start_night()
        started = box.playhead.anchor_time - time.monotonic() + time.time()  # the night's sample 0, wall clock
        time.sleep(max(0.0, started + 1.5 - time.time()))
        controls.locator("#tablets li").nth(1).get_by_role("button", name="+100 ms").click()
        while time.time() < started + quiet[-1][1] + 0.5 and not far.evaluate(taken):
            time.sleep(0.2)
        end = max(started + 9.0, min(time.time() + 2.0, started + 21.0))  # 2 s of it taken, to hear it all
        time.sleep(max(0.0, end - time.time()))
        near_played, far_played = sounding(played(near)), sounding(played(far))
        found = []  # (seconds into the night, how far the far tablet plays behind the near one)
        for index in range(int((end - started - 1.0) / 0.05)):
            at = started + 1.0 + 0.05 * index
            a, b = position_at(near_played, at), position_at(far_played, at)
            if a is not None and b is not None:
                found.append((at - started, wrapped(b - a)))
    finally:
        events = far.evaluate("narratorBox.events")
        logged = events + near.evaluate("narratorBox.events")
        for context in browser.contexts:
            context.close()
        server.stop()
    disturbed = any(what == "glitch" or (what == "timestamp leapt" and abs(ms) > 5)  # (as the night played: a
                    for at, what, ms in logged if at >= started)                     # page's first readings leap)
    return found, events, disturbed


def _moved_slowly_and_taken_in_a_quiet_moment(found, events, quiet, speech):
    assert len(found) > 100, len(found)
    took = [event for event in events if event[1] == "speaker delay taken in a quiet moment"]
    assert len(took) == 1, events  # once, and in a quiet stretch of the night
    assert any(event[1] == "speaker delay moving slowly" for event in events), events
    jumped = next((at for at, skew in found if skew > 0.05), None)
    assert jumped is not None, (found, events)
    stretch = next((span for span in quiet if span[0] <= jumped <= span[1] + 0.05), None)
    assert stretch is not None, (jumped, events)  # the rest taken where the voice is silent, as heard
    # Inside speech: no step from one reading to the next larger than a slow move's. The readings
    # are the pages' own, from their output timestamps: on a loaded machine one can be a few ms
    # off for a moment and come back (a fresh root's CI run saw 5.6 ms), so a jump is a step that
    # stays, as the median of five readings (a quarter of a second) shows it.
    for start, stop in speech:
        spoken = [skew for at, skew in found if start + 0.1 < at < stop - 0.1]
        held = [statistics.median(spoken[index:index + 5]) for index in range(len(spoken) - 4)]
        assert all(abs(b - a) < 0.002 for a, b in itertools.pairwise(held)), (start, stop, spoken, events)
    before = [skew for at, skew in found if at < jumped]
    held = [statistics.median(before[index:index + 5]) for index in range(len(before) - 4)]
    assert held and max(held) < 0.002 * (jumped - 1.5) + 0.008, (jumped, before)  # moved slowly, not 100 ms
    after = [skew for at, skew in found if at > stretch[1] + 0.5]
    assert after and abs(statistics.median(after) - 0.100) < 0.002 and max(abs(skew - 0.100) for skew in after) < 0.015, \
        after  # all of it taken (a loaded machine's reading a few ms off for a moment: 8.5 ms once)


# what a page reports to the laptop as in step: its clock known, its output's timestamps believed, its sound on
IN_STEP = "narratorBox.offset !== null && narratorBox.trusted === true && narratorBox.ctx.state === 'running'"


def test_a_tablet_tells_the_laptop_at_once_when_it_comes_in_or_out_of_step(browser):
    """The laptop listens to a tablet once it has been in step a while (its clock known, its sound
    on), counted from the page's report that says so: a report only every two seconds added up to
    two seconds to a calibration (issue 41's 10 s). A page whose sound stops (here its audio
    suspended) reports within a tick or two that it is out of step, and again when it is back. Its
    output timestamps falling in doubt (here made to leap) do not take it out: the page judges, as
    each play of a code is due, whether it can place it."""
    from test_speakerbox_doubt import LIE

    box, server = ramp_box(60)

    def after(condition, seconds=20.0):
        """Wall time at which ``condition()`` was first seen true, polled every 20 ms."""
        deadline = time.monotonic() + seconds
        while not condition():
            assert time.monotonic() < deadline, (f"not within {seconds} s", page.evaluate("narratorBox.events")[-10:])
            time.sleep(0.02)
        return time.monotonic()

    try:
        page = joined(browser, f"http://127.0.0.1:{server.port}/")
        after(lambda: server.ready_tablets(0) != {})
        ready = server.ready_tablets(0)
        page.evaluate(LIE)
        page.evaluate("window.lie.step = 0.020")
        page.wait_for_function("!narratorBox.trusted", timeout=5000)
        time.sleep(0.6)
        assert server.ready_tablets(0) == ready  # (in doubt, still in step for a round)
        for _ in range(2):  # (twice: once could fall on a two-second report by chance)
            went = time.monotonic()
            page.evaluate("narratorBox.ctx.suspend()")
            told = after(lambda: server.ready_tablets(0) == {}, seconds=5.0)
            assert told - went < 0.6, ("out of step", told - went)
            # What is timed is the report, from the moment the page's sound runs again: the browser
            # takes its own time to resume it (0.85 s from the call once, in a loaded suite).
            page.evaluate("narratorBox.ctx.resume()")
            itself = after(lambda: page.evaluate(
                "narratorBox.offset !== null && narratorBox.ctx.state === 'running'"), seconds=5.0)
            told = after(lambda: server.ready_tablets(0) == ready, seconds=5.0)
            assert told - itself < 0.6, ("in step", told - itself)
    finally:
        server.stop()


def test_a_tablet_places_each_play_of_its_code_a_moment_before_it(browser):
    """The laptop tells a tablet when to play its code a second or more ahead; the page places each
    play a moment before it, by its clock and timestamps as they are then. A page whose timestamps
    were in doubt when it was told (they leap now and then while a page plays) and agree again by
    then plays its code: placed as it was told, it left the code out, and a round asked for
    because that tablet drifted did not hear it (the --listen rig test, once)."""
    from test_speakerbox_doubt import LIE

    box, server = ramp_box(60, listening=lambda: None)
    try:
        page = joined(browser, f"http://127.0.0.1:{server.port}/")
        page.wait_for_function(IN_STEP, timeout=20000)
        page.evaluate(LIE)
        page.evaluate("window.lie.step = 0.010")
        page.wait_for_function(f"!({IN_STEP})", timeout=5000)
        told = time.monotonic()
        server.play_codes({1: (told + 5.0, told + 8.0)})
        page.wait_for_function(IN_STEP, timeout=4000)  # (in step again within 1-2 s here: before the first play)
        page.wait_for_function("narratorBox.events.filter(([, what]) => what.startsWith('code')).length >= 2",
                               timeout=12000)
        events = [what for _, what, _ in page.evaluate("narratorBox.events") if what.startswith("code")]
        # Both placed as they came: played (a loaded machine's timestamps can fall in doubt again as
        # one comes, which leaves that one out: in the suite once, the first of the two)
        assert len(events) == 2 and "code played" in events, events
    finally:
        server.stop()
