"""A whole game on the speaker box, as a table would play it: ``narrate serve`` with a day and a
vote, three tablets (Debian's Chromium) behind a jittery network, one of them reloaded and one
joining late while the night plays, the laptop's controls page pressing Start and Next, the vote
typed at the laptop. What each tablet played is recorded sample by sample and lined up with the
first tablet's by cross-correlation: they must be in step through the night and the day, and all
show the result at the end.
"""

import os
import re
import subprocess
import sys
import time

import pytest
from boxnet import CHROMIUM, TIMED, JitterProxy, disturbed, install_recorder, lag, readings

pytestmark = pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="needs Debian's chromium (apt-get install chromium)")

IN_STEP = 0.020  # seconds: inside the ~30 ms at which two speakers are heard as an echo, with room for the
# rare transient a loaded 2-core machine shows (figures: benchmarks/README.md)
VOTES = "contadino\nB\nlupo-mannaro\nA\nveggente\nB\n"  # what was revealed, then who each player voted for


def recording_tablet(browser, address, page=None):
    page = page or browser.new_page()
    if page.url != address:
        page.goto(address)
    page.click("#join")
    page.wait_for_function("narratorBox.nightId !== null && narratorBox.offset !== null", timeout=30000)
    install_recorder(page)
    return page


def heard_from(page) -> float:
    """Once a page plays the night out loud (a page that came in mid-night is silent at first)."""
    page.wait_for_function("narratorBox.playing && !narratorBox.hushed", timeout=20000)
    return time.time()


def lags_between(reference, other, start: float, end: float, step: float = 0.25) -> list[float]:
    """How far ``other`` plays from ``reference`` every ``step`` seconds from ``start`` to
    ``end``, where the sound can tell; not in the 2 s after either page's output was disturbed
    (``disturbed``), as the issue's targets allow after a glitch."""
    found, excused = [], disturbed(reference) + disturbed(other)
    at = start
    while at < end:
        if not any(moment - 0.4 <= at <= moment + 2.0 for moment in excused) and \
                (skew := lag(reference, other, at)) is not None:
            found.append(skew)
        at += step
    return found


@TIMED
def test_a_whole_game_stays_in_step_through_a_reload_and_a_late_join(browser, tmp_path):
    process = subprocess.Popen(
        [sys.executable, "-m", "narrator", "serve", "--players", "3", "--names", "A,B,C", "--day-seconds", "8",
         "--lang", "en", "--port", "0", "--host", "127.0.0.1", "--no-laptop-audio", "--no-ambience"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env={**os.environ, "LANG": "C.UTF-8", "XDG_CACHE_HOME": str(tmp_path / "cache"),
             "XDG_CONFIG_HOME": str(tmp_path / "config"), "XDG_DATA_HOME": str(tmp_path / "data")})
    proxy = None
    try:
        for line in process.stdout:
            if "?token=" in line:
                break
        control = re.search(r"(http://\S+)", line)[1]
        port = int(re.search(r":(\d+)/", control)[1])
        proxy = JitterProxy(port, jitter=0.020, loss=0.005).start()
        address = f"http://127.0.0.1:{proxy.port}/"
        process.stdin.write(VOTES)  # read at the laptop once the day is over
        process.stdin.flush()

        laptop = browser.new_page()
        laptop.goto(control)  # the laptop's own page, on the laptop
        steady, reloading = recording_tablet(browser, address), recording_tablet(browser, address)
        laptop.click("button[data-action=start]")
        started = heard_from(steady)  # the night's first sample half a second on, its first words 2 s later
        time.sleep(4.5)
        at_the_start = lags_between(steady, reloading, started + 2.4, started + 4.4)  # before the reload forgets them
        reloading.reload()
        recording_tablet(browser, address, reloading)
        late = recording_tablet(browser, address)
        rejoined = {page: heard_from(page) + 0.1 for page in (reloading, late)}
        time.sleep(4)
        # Enough speech heard since they came back to line up: the night has pauses, and a loaded
        # machine can take its time over a reload (once, 4 s after a late join held one window).
        while time.time() < rejoined[late] + 20 and \
                min(len(lags_between(steady, page, rejoined[page], time.time() - 0.5)) for page in rejoined) < 6:
            time.sleep(1)
        night_over = time.time()
        laptop.click("button[data-action=next]")  # on to the day (the rest of the night is the same)...
        laptop.click("button[data-action=next]")  # ...a second tap confirms it

        for page in (steady, reloading, late):
            page.wait_for_function("narratorBox.state.stage === 'day'", timeout=10000)
        day_began = time.time()
        steady.wait_for_function("narratorBox.state.stage !== 'day' || narratorBox.state.day.voting",
                                 timeout=20000)
        day_over = time.time()
        for page in (steady, reloading, late):
            page.wait_for_function("narratorBox.state.stage === 'result' && narratorBox.state.final", timeout=30000)
            page.wait_for_selector("#result li")
        output, errors = process.communicate(timeout=30)
        assert process.returncode == 0, errors
        assert "Lynched: B" in output

        windows = {  # part: the page lined up with the steady one, and from when to when
            "start": (reloading, started + 2.4, started + 4.4),  # (measured before the reload forgot it)
            "reload": (reloading, rejoined[reloading], night_over),
            "late join": (late, rejoined[late], night_over),
            "day (reloaded)": (reloading, day_began, day_over + 1),
            "day (late)": (late, day_began, day_over + 1),
        }
        found = {part: at_the_start if part == "start" else lags_between(steady, page, start, end)
                 for part, (page, start, end) in windows.items()}
        report = {part: f"{len(values)} windows, worst {max(map(abs, values), default=0) * 1000:.1f} ms"
                  for part, values in found.items()}
        report["output disturbed at"] = {name: [round(moment - started, 1) for moment in disturbed(page)]
                                         for name, page in (("steady", steady), ("reloaded", reloading), ("late", late))}
        for part, values in found.items():
            assert len(values) >= 3, str(report)  # there was speech to line up (a string: said whole)...
            if max(map(abs, values)) >= IN_STEP:  # ...and it was in step; if not, the page's steering log says why
                _, start, end = windows[part]
                log = [event for event in windows[part][0].evaluate("narratorBox.events")
                       if start - 3 <= event[0] <= end] if part != "start" else "(forgotten at the reload)"
                pytest.fail(f"{part} not in step: {[round(v * 1000, 1) for v in values]} ms; {report}; "
                            f"its log from {start - 3:.2f}: {log}; the timestamps the recorders went by "
                            f"(ms from their median): {readings(steady, start, end + 0.5)} (steady), "
                            f"{readings(windows[part][0], start, end + 0.5)} ({part})")
        results = [page.locator("#result li").all_text_contents() for page in (steady, reloading, late)]
        assert results[0] == results[1] == results[2] and any("B" in line for line in results[0])
        assert {page.text_content("#title") for page in (steady, reloading, late)} == {"Game over"}
        assert laptop.evaluate("narratorBox.ctx") is None  # the controls page played nothing all game
    finally:
        process.kill()
        process.wait()
        if proxy is not None:
            proxy.stop()
        for context in browser.contexts:
            context.close()
