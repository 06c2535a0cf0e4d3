"""Every state of the speaker box's two pages, as a player reads them, in both languages.

A tablet's page and the laptop's controls page, in Debian's Chromium through Playwright, follow an
in-process box through the whole game: waiting, the night, a pause, the day, its last seconds,
the vote, a result, the end, a lost connection. Screenshots of each state go to tmp_path, or to
the folder NARRATOR_SCREENSHOTS names (to look at them while working on the pages).
"""

import os
import time
from pathlib import Path

import pytest
from boxnet import CHROMIUM, ramp_night

from narrator.shell.speakerbox.server import BoxServer
from narrator.shell.speakerbox.state import Box

pytestmark = pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="needs Debian's chromium (apt-get install chromium)")
SIZES = {"phone": (390, 844), "tablet": (1024, 768)}

WORDS = {
    "it": {"join": "Tocca per unirti", "waiting": "Pronti", "waiting_hint": "schermo in giù", "night": "Notte",
           "paused": "In pausa", "day": "Giorno", "day_paused": "Giorno · in pausa", "vote": "Votate!",
           "result": "Risultato", "game_over": "Partita finita", "lost": "Connessione persa",
           "start": "Via", "pause": "Pausa", "resume": "Riprendi", "next": "Chiudi la notte",
           "vote_now": "Votate ora", "confirm": "Tocca di nuovo per chiamare il voto",
           "done_start": "La notte comincia.", "refused": "La notte è già cominciata.", "ready": "Tablet 1 · pronto",
           "in_step": "Tablet 1 · a tempo", "gone": "Tablet 1 · scollegato", "no_tablets": "Nessun tablet",
           "sound_off": "Audio spento", "tablet_sound_off": "Tablet 1 · audio spento",
           "may_lock": "il browser non può tenere acceso lo schermo", "tablet_may_lock": "lo schermo può bloccarsi"},
    "en": {"join": "Tap to join", "waiting": "Ready", "waiting_hint": "face down", "night": "Night",
           "paused": "Paused", "day": "Day", "day_paused": "Day · paused", "vote": "Vote!",
           "result": "Result", "game_over": "Game over", "lost": "Connection lost",
           "start": "Start", "pause": "Pause", "resume": "Resume", "next": "End the night",
           "vote_now": "Vote now", "confirm": "Tap again to call the vote",
           "done_start": "The night starts.", "refused": "The night has already started.", "ready": "Tablet 1 · ready",
           "in_step": "Tablet 1 · in step", "gone": "Tablet 1 · disconnected", "no_tablets": "No tablet",
           "sound_off": "Sound off", "tablet_sound_off": "Tablet 1 · sound off",
           "may_lock": "This browser cannot keep the screen on", "tablet_may_lock": "its screen may lock"},
}


def serve(lang: str, port: int = 0):
    """An in-process box speaking ``lang``, its night not started: (box, server, the tablets' address)."""
    from narrator.shell.translation import load_catalog

    box = Box(20.0, [(0.0, "Nightfall"), (3.0, "Lupi Mannari")], time.monotonic)

    def control(action):  # what the game loop does with each press
        {"start": box.start_night, "pause": box.pause, "resume": box.resume, "next": box.skip_night}[action]()

    server = BoxServer(box, ramp_night(20), {}, time.monotonic, control, host="127.0.0.1", port=port,
                       token="secret", language=lang, catalog=load_catalog(lang))
    box.on_change = server.broadcast
    server.start()
    return box, server, f"http://127.0.0.1:{server.port}/"


class Shots:
    def __init__(self, folder: Path, lang: str):
        self.folder, self.lang = folder, lang
        folder.mkdir(parents=True, exist_ok=True)

    def take(self, page, name: str) -> None:
        for size, (width, height) in SIZES.items():
            page.set_viewport_size({"width": width, "height": height})
            path = self.folder / f"{self.lang}-{name}-{size}.png"
            page.screenshot(path=str(path))
            assert path.stat().st_size > 3000


@pytest.fixture
def shots(tmp_path):
    folder = Path(os.environ["NARRATOR_SCREENSHOTS"]) if os.environ.get("NARRATOR_SCREENSHOTS") else tmp_path
    return lambda lang: Shots(folder, lang)


def title(page) -> str:
    return page.inner_text("#title")


def shows(page, selector: str, text: str, timeout: float = 10000) -> None:
    page.wait_for_function("([selector, text]) => document.querySelector(selector) && "
                           "document.querySelector(selector).innerText.includes(text)", arg=[selector, text],
                           timeout=timeout)


def controls_and_a_joined_tablet(browser, base: str, route=None):
    """The laptop's controls page, and a tablet that has joined and holds the night and the clock
    (its WebSocket through ``route``, when given)."""
    laptop = browser.new_page()
    laptop.goto(base + "?token=secret")
    tablet = browser.new_page()
    if route is not None:
        tablet.route_web_socket(lambda address: address.endswith("/ws"), route)
    tablet.goto(base)
    tablet.click("#join")
    tablet.wait_for_function("narratorBox.nightId !== null && narratorBox.offset !== null", timeout=20000)
    return laptop, tablet


BUTTONS = "() => [...document.querySelectorAll('#controls button')].filter((b) => b.offsetParent).map((b) => b.innerText)"
SHOWS_BUTTONS = f"""([expected, first]) => {{
  const shown = ({BUTTONS})();
  return JSON.stringify(first ? shown.slice(0, expected.length) : shown) === JSON.stringify(expected);
}}"""


def has_buttons(page, expected: list[str], first: bool = False) -> None:
    """The controls page comes to show these buttons (or these first), read at one moment: it may
    still be taking the state the tablet has just shown, and a list read button by button could
    change under the reading (it waited 30 s for a button that had gone). Waited for 2 s at most:
    less than a first tap on Next waits for its second (CONFIRM, 4 s), after which the page shows
    what it showed before the tap, so that a wrong expectation cannot come true by waiting."""
    from playwright.sync_api import TimeoutError as Timeout

    try:
        page.wait_for_function(SHOWS_BUTTONS, arg=[expected, first], timeout=2000)
    except Timeout:
        pytest.fail(f"the controls show {page.evaluate(BUTTONS)}, not {expected}")


@pytest.mark.parametrize("lang", ["it", "en"])
def test_every_state_of_both_pages(browser, shots, lang):
    words, shot = WORDS[lang], shots(lang)
    box, server, base = serve(lang)
    try:
        laptop = browser.new_page()
        laptop.goto(base + "?token=secret")
        assert laptop.is_hidden("#join")  # the controls need no tap
        shows(laptop, "#title", words["waiting"])
        shows(laptop, "#tablets", words["no_tablets"])
        has_buttons(laptop, [words["start"]])

        tablet = browser.new_page()
        tablet.goto(base)
        assert tablet.inner_text("#join") == words["join"]
        assert tablet.get_attribute("html", "lang") == lang
        shot.take(tablet, "join")
        tablet.click("#join")
        shows(tablet, "#title", words["waiting"])
        shows(tablet, "#hint", words["waiting_hint"])
        tablet.wait_for_function("narratorBox.nightId !== null && narratorBox.offset !== null", timeout=20000)
        shows(laptop, "#tablets", words["ready"])
        shot.take(tablet, "waiting")
        shot.take(laptop, "controls-waiting")

        laptop.click("button[data-action=start]")
        shows(laptop, "#feedback", words["done_start"])
        tablet.wait_for_function("narratorBox.playing", timeout=10000)
        shows(tablet, "#title", words["night"])
        has_buttons(laptop, [words["pause"], words["next"]])
        time.sleep(3.5)
        body = tablet.inner_text("body")
        assert "Lupi Mannari" not in body and "Nightfall" not in body  # the tablets reveal nothing of the night
        assert "%" in tablet.inner_text("#hint")
        width = tablet.evaluate("document.getElementById('progress-done').getBoundingClientRect().width")
        assert width > 0
        # The bar moves in steps, never eased: an animation running all night long draws every frame
        # (benchmarks/pagecpu.py: over three times the CPU of the steps) where every eye is closed. Looked at
        # ten times over a second, as the bar moves five times a second.
        moving = []
        for _ in range(10):
            moving.append(tablet.evaluate("document.getAnimations().length"))
            time.sleep(0.1)
        assert moving == [0] * 10, moving
        shows(laptop, "#hint", "Lupi Mannari")  # the laptop shows whose turn it is
        shows(laptop, "#tablets", words["in_step"])
        shot.take(tablet, "night")
        shot.take(laptop, "controls-night")

        laptop.evaluate("narratorBox.press('start')")  # a press that does not apply now is refused, and says why
        shows(laptop, "#feedback", words["refused"])
        assert "refused" in laptop.get_attribute("#feedback", "class")

        laptop.click("button[data-action=pause]")
        shows(tablet, "#title", words["paused"])
        tablet.wait_for_function("!narratorBox.playing", timeout=5000)
        assert tablet.inner_text("#big") == "❚❚"
        shows(laptop, "#controls", words["resume"])
        has_buttons(laptop, [words["resume"], words["next"]])
        shot.take(tablet, "paused")
        shot.take(laptop, "controls-paused")
        laptop.click("button[data-action=resume]")
        shows(tablet, "#title", words["night"])
        tablet.wait_for_function("narratorBox.playing", timeout=5000)

        box.show_day(time.monotonic() + 65, None, False)
        shows(tablet, "#title", words["day"])
        shows(tablet, "#big", "1:0")
        assert tablet.locator("#big").bounding_box()["height"] > 80  # across the table
        has_buttons(laptop, [words["pause"], words["vote_now"]])  # says what it does by day
        laptop.click("button[data-action=next]")
        has_buttons(laptop, [words["pause"], words["confirm"]])  # and waits for a second tap
        shot.take(tablet, "day")
        box.show_day(None, 42.0, False)
        shows(tablet, "#title", words["day_paused"])
        assert tablet.inner_text("#big") == "0:42"
        has_buttons(laptop, [words["resume"]], first=True)
        shot.take(tablet, "day-paused")
        box.show_day(time.monotonic() + 2.5, None, False)
        shows(tablet, "#big", "3…")
        shows(tablet, "#big", "2…", timeout=3000)
        shows(tablet, "#big", "1…", timeout=3000)
        shot.take(tablet, "last-seconds")
        box.show_day(None, 0, True)
        shows(tablet, "#big", words["vote"])
        has_buttons(laptop, [])
        shot.take(tablet, "vote")

        box.show_result(["Dario has the most votes (3) and is lynched."], final=False)
        shows(tablet, "#title", words["result"])
        shows(tablet, "#result", "Dario has the most votes (3)")
        shot.take(tablet, "result")
        box.show_result(["Winners: Anna, Bruno."])
        shows(tablet, "#title", words["game_over"])
        shows(laptop, "#title", words["game_over"])
        shot.take(tablet, "game-over")
        shot.take(laptop, "controls-game-over")
    finally:
        server.stop()
    time.sleep(2)  # the laptop has closed the box after the game: the end stays, no alarm
    assert tablet.inner_text("#title") == words["game_over"]
    assert tablet.is_hidden("#trouble")
    for page in (tablet, laptop):
        page.close()


@pytest.mark.parametrize("lang", ["it", "en"])
def test_a_lost_connection_shows_big_and_the_controls_see_the_tablet_go(browser, shots, lang):
    words, shot = WORDS[lang], shots(lang)
    box, server, base = serve(lang)
    try:
        connections = []

        def through_the_network(ws):
            ws.connect_to_server()
            connections.append(ws)

        laptop, tablet = controls_and_a_joined_tablet(browser, base, route=through_the_network)
        shows(laptop, "#tablets", words["ready"])
        box.start_night()
        tablet.wait_for_function("narratorBox.playing", timeout=10000)
        tablet.route_web_socket(lambda address: address.endswith("/ws"), lambda ws: ws.close())  # no way back
        connections[-1].close()
        shows(tablet, "#trouble", words["lost"])
        assert tablet.is_hidden("#box")
        assert tablet.locator("#trouble h1").bounding_box()["height"] > 40
        assert not tablet.evaluate("narratorBox.playing")
        shows(laptop, "#tablets", words["gone"])
        shot.take(tablet, "connection-lost")
        shot.take(laptop, "controls-tablet-gone")
    finally:
        server.stop()


@pytest.mark.parametrize("lang", ["it", "en"])
def test_a_tablet_whose_sound_stopped_says_so_and_a_tap_brings_it_back(browser, shots, lang):
    """An iPad that slept may keep its sound off until someone touches it: both pages say so."""
    words, shot = WORDS[lang], shots(lang)
    box, server, base = serve(lang)
    try:
        laptop, tablet = controls_and_a_joined_tablet(browser, base)
        box.start_night()
        tablet.wait_for_function("narratorBox.playing && !narratorBox.hushed", timeout=10000)
        tablet.evaluate("narratorBox.ctx.suspend()")  # what the system does to a sleeping tablet's sound
        shows(tablet, "#title", words["sound_off"])
        assert tablet.evaluate("getComputedStyle(document.getElementById('title')).color") == "rgb(255, 111, 97)"
        shows(laptop, "#tablets", words["tablet_sound_off"])
        assert tablet.inner_text("#status") == ""  # its clock may be in step, but it plays nothing
        shot.take(tablet, "sound-off")
        tablet.mouse.click(20, 20)  # a tap anywhere on the screen
        tablet.wait_for_function("narratorBox.ctx.state === 'running'", timeout=5000)
        shows(tablet, "#title", words["night"])
        tablet.wait_for_function("narratorBox.playing && !narratorBox.hushed && Math.abs(narratorBox.error) < 0.002",
                                 timeout=10000)  # from where the laptop is, not from where it stopped
        shows(laptop, "#tablets", words["in_step"])
    finally:
        server.stop()


@pytest.mark.parametrize("lang", ["it", "en"])
def test_a_tablet_that_cannot_keep_its_screen_on_says_what_to_set(browser, shots, lang):
    """A tablet opens the box by the laptop's network address, over plain http: not a secure page,
    so no Wake Lock. (Here the laptop's own name, which is not localhost, taken to the loopback.)"""
    import socket

    from boxnet import ARGS

    words, shot = WORDS[lang], shots(lang)
    box, server, _base = serve(lang)
    name = socket.gethostname().lower()  # a name the box answers to (see server.foreign_request)
    if name == "localhost":
        pytest.skip("this machine is named localhost, which browsers count as a secure page")
    insecure = browser.browser_type.launch(executable_path=CHROMIUM, headless=True,
                                           args=[*ARGS, f"--host-resolver-rules=MAP {name} 127.0.0.1"])
    try:
        laptop = browser.new_page()
        laptop.goto(f"http://127.0.0.1:{server.port}/?token=secret")
        tablet = insecure.new_page()
        tablet.goto(f"http://{name}:{server.port}/")
        assert tablet.evaluate("!window.isSecureContext && !('wakeLock' in navigator)")
        tablet.click("#join")
        shows(tablet, "#hint", words["may_lock"])
        shows(tablet, "#hint", words["waiting_hint"])  # what to do with the tablet is still said first
        shows(laptop, "#tablets", words["tablet_may_lock"])
        shot.take(tablet, "may-lock")
        box.start_night()
        tablet.wait_for_function("narratorBox.playing", timeout=10000)  # it plays all the same
        shows(laptop, "#tablets", words["tablet_may_lock"])
    finally:
        insecure.close()
        server.stop()


def test_a_night_in_turns_shows_no_share_and_a_tablet_left_open_takes_the_next_game_s_language(browser, shots):
    """Issue 39, point 21. A moderator's night comes a turn at a time, each sent as a night of its
    own: its percentage started again at every turn, so a tablet shows none (and no bar). A tablet
    left open when that game ends and another begins in another language takes the new game's
    page, in its words (it kept the old game's)."""
    shot = shots("en")
    box, server, base = serve("en")
    box.in_parts = True
    try:
        tablet = browser.new_page()
        tablet.goto(base)
        tablet.click("#join")
        tablet.wait_for_function("narratorBox.nightId !== null && narratorBox.offset !== null", timeout=20000)
        box.start_night()
        tablet.wait_for_function("narratorBox.playing", timeout=10000)
        time.sleep(1.5)
        assert tablet.inner_text("#hint") == "Eyes closed." and tablet.is_hidden("#progress")
        shot.take(tablet, "night-in-turns")
        box.skip_night()  # the turn's lines are over: the moderator enters what was pointed at
        tablet.wait_for_function("!narratorBox.playing", timeout=10000)
        time.sleep(0.5)
        assert (title(tablet), tablet.inner_text("#hint")) == ("Night", "Eyes closed.")  # not "Paused"
        box.open_day()  # a day off the clock (point 14): the day, with no clock
        shows(tablet, "#hint", "The discussion is on.")
        assert title(tablet) == "Day" and tablet.inner_text("#big") == ""
        shot.take(tablet, "day-off-the-clock")
    finally:
        server.stop()
    box, server, _ = serve("it", port=server.port)  # the next game, on the same address
    try:
        tablet.wait_for_function("document.documentElement.lang === 'it'", timeout=20000)
        shows(tablet, "#join", WORDS["it"]["join"])
    finally:
        server.stop()
