"""The laptop listens (issue 41, point 1): each tablet plays its code, the laptop's microphone hears
them, and each tablet's speaker delay is set from when its code was heard.

First the reading of a recording (``narrator.core.arrivals``) on recordings made up here, where the
truth is known; then the box's side of it over real WebSockets; then ``narrate serve --listen`` with
no microphone and with one that hears nothing; last, the whole of it through PulseAudio, with
speakers later than their pages can see.
"""

import asyncio
import io
import json
import os
import random
import re
import subprocess
import sys
import time

import numpy as np
import pytest
from boxnet import TIMED

from narrator.core import arrivals

RATE = 48000
rng = np.random.default_rng(41)


def room_noise(seconds: float, level: float = 0.01) -> np.ndarray:
    return (rng.standard_normal(int(seconds * RATE)) * level).astype(np.float32)


def place(recording: np.ndarray, signal: np.ndarray, at: float, gain: float = 1.0) -> None:
    start = int(round(at * RATE))
    recording[start: start + len(signal)] += gain * signal


# --- reading a recording ------------------------------------------------------------------------------

def test_each_tablet_has_a_code_of_its_own_that_stays_the_same():
    one, two = arrivals.code(1, RATE), arrivals.code(2, RATE)
    assert np.array_equal(one, arrivals.code(1, RATE))
    assert len(one) == int(arrivals.CODE_SECONDS * RATE) and np.max(np.abs(one)) < 1.0  # never clips
    # Two codes hardly look alike: the one found where the other plays is nowhere near its own peak.
    alike = np.max(np.abs(np.correlate(one, two, "full"))) / np.dot(one, one)
    assert alike < 0.1


def test_codes_are_found_where_they_are_though_they_overlap_in_a_noisy_room():
    recording = room_noise(4.0)
    truth = {1: 0.5, 2: 0.52, 3: 0.81}  # 2 starts 20 ms after 1: they sound together
    for number, at in truth.items():
        place(recording, arrivals.code(number, RATE), at, gain=0.3)  # quieter than played: across the room
    for number, at in truth.items():
        found = arrivals.arrival(recording, arrivals.code(number, RATE))
        assert found is not None and abs(found / RATE - at) < 0.05 / 1000  # within 0.05 ms
    assert arrivals.arrival(recording, arrivals.code(4, RATE)) is None  # one that never played


def test_a_peak_between_samples_is_placed_by_a_parabola_through_its_three():
    top = 7.3  # a parabola sampled at whole samples: its top between 7 and 8
    scores = 1.0 - (np.arange(12.0) - top) ** 2 / 50
    assert 7 + arrivals.between(scores, 7) == pytest.approx(top)
    assert arrivals.between(scores, 0) == 0.0 and arrivals.between(scores, 11) == 0.0  # (no neighbour on one side)
    assert arrivals.between(np.ones(5), 2) == 0.0  # flat: no curve, no move


def test_silence_and_a_room_alone_hold_no_code():
    assert arrivals.arrival(np.zeros(RATE * 3, dtype=np.float32), arrivals.code(1, RATE)) is None
    assert arrivals.arrival(room_noise(3.0, 0.2), arrivals.code(1, RATE)) is None
    assert arrivals.arrival(room_noise(0.1), arrivals.code(1, RATE)) is None  # shorter than a code


def test_lateness_is_counted_from_the_earliest_tablet_and_the_microphone_s_own_delay_cancels():
    from narrator.shell.speakerbox.listen import schedule

    moments = schedule([1, 2, 3, 4], 10.0)
    assert all(len(plays) == 3 for plays in moments.values())
    every = sorted(moment for plays in moments.values() for moment in plays)
    assert min(b - a for a, b in zip(every, every[1:], strict=False)) >= arrivals.CODE_SECONDS  # in turn, never together
    assert all(b - a >= arrivals.APART for plays in moments.values() for a, b in zip(plays, plays[1:], strict=False))
    hidden = {1: 0.012, 2: 0.052, 3: 0.262}  # tablet 4 plays nothing
    microphone = 0.137  # the input's own delay: the same for every code
    start = 9.0  # box time of the recording's first sample
    recording = room_noise(every[-1] - start + 2.0)
    for number, late in hidden.items():
        for moment in moments[number]:
            place(recording, arrivals.code(number, RATE), moment + late + microphone - start, gain=0.5)
    heard = arrivals.listen(recording, RATE, start, moments)
    assert heard.missing == (4,)
    assert heard.late == pytest.approx({1: 0.0, 2: 0.040, 3: 0.250}, abs=1e-4)
    # each heard tablet plays that much earlier than it did; the one not heard keeps its own
    assert arrivals.delays(heard, {1: 0, 2: 0, 3: 0, 4: 30}, 1000) == pytest.approx({1: 0, 2: 40, 3: 250}, abs=0.1)
    # Only differences are heard: the group is held where its least delayed tablet was.
    assert arrivals.delays(heard, {1: 5, 2: 0, 3: 0}, 1000) == pytest.approx({1: 0, 2: 35, 3: 245}, abs=0.1)
    # ...to a tenth of a ms, as finely as it is heard (in whole ms, two tablets could be left a ms apart)
    assert arrivals.delays(arrivals.Heard({1: 0.0, 2: 0.04046, 3: 0.21051}, ()), {1: 0, 2: 0, 3: 0.5}, 1000) \
        == {1: 0, 2: 40.5, 3: 211.0}
    assert arrivals.delays(heard, {1: 0, 2: 0, 3: 900}, 1000)[3] == 1000  # never past what the controls allow


@pytest.mark.parametrize("set_before", [False, True])
def test_rounds_heard_a_little_off_either_way_do_not_make_the_delays_creep(set_before):
    """Fifty rounds, each hearing every tablet a little off: held at the least delayed tablet (no
    tablet set before) or at the tablets set before (their median), the group does not climb and
    each round's noise walks the differences only a little."""
    current = {1: 0, 2: 40, 3: 250}
    noise = np.random.default_rng(5)
    for _ in range(50):
        late = {number: float(noise.normal(0, 0.0005)) for number in current}
        earliest = min(late.values())
        heard = arrivals.Heard({n: v - earliest for n, v in late.items()}, ())
        current = arrivals.delays(heard, current, 1000, frozenset(current) if set_before else frozenset())
    assert abs(current[1]) <= 15 and abs(current[2] - 40) <= 15 and abs(current[3] - 250) <= 15, current
    if not set_before:
        assert min(current.values()) == 0, current


def test_a_tablet_heard_with_some_set_before_is_brought_to_them_and_those_not_heard_stay_in_step():
    """Tablets 1 and 2 were set by a round (1 behind a speaker 40 ms later than 3's, 2 behind one
    250 ms later: their delays 0 and 210); 3 joins late and is heard 40 ms earlier than 1 in a
    round that leaves 2 out. 3 is brought to 1, not 1 to 3: 2, set with 1 before, stays in step."""
    heard = arrivals.Heard({1: 0.040, 3: 0.0}, ())
    assert arrivals.delays(heard, {1: 0, 2: 210}, 1000, anchored=frozenset({1, 2})) == {1: 0, 3: -40}
    # Without the earlier round to hold to, the least delayed tablet keeps its delay.
    assert arrivals.delays(heard, {1: 0, 2: 210}, 1000) == {1: 40, 3: 0}
    # One of three set tablets drifted 50 ms late: it alone is moved.
    drifted = arrivals.Heard({1: 0.0, 2: 0.0, 3: 0.050}, ())
    assert arrivals.delays(drifted, {1: 0, 2: 40, 3: 250}, 1000, frozenset({1, 2, 3})) == {1: 0, 2: 40, 3: 300}
    # The same with 2 left out of the round (its timestamps in doubt): 3 is moved alone, not 1 and 3
    # both 25 ms, which would leave 2 25 ms from them (the --listen test heard it so, twice).
    without_2 = arrivals.Heard({1: 0.0, 3: 0.050}, ())
    assert arrivals.delays(without_2, {1: 0, 2: 40, 3: 250}, 1000, frozenset({1, 2, 3})) == {1: 0, 3: 300}


def test_a_play_heard_off_for_a_moment_is_outvoted_and_one_heard_once_is_not_heard():
    moments = {1: (1.0, 2.5, 4.0), 2: (1.4, 2.9, 4.4)}
    recording = room_noise(6.0)
    for moment, off in zip(moments[1], (0.0, -0.1, 0.0), strict=True):  # its page's clock 100 ms off once
        place(recording, arrivals.code(1, RATE), moment + off, gain=0.5)
    place(recording, arrivals.code(2, RATE), moments[2][1] + 0.03, gain=0.5)  # played once of three
    heard = arrivals.listen(recording, RATE, 0.0, moments)
    assert heard.late == pytest.approx({1: 0.0}, abs=1e-4) and heard.missing == (2,)  # (a mean: 33 ms)


# --- the box's side, over real WebSockets ---------------------------------------------------------------

@pytest.fixture
def served():
    from narrator.shell.speakerbox.server import BoxServer
    from narrator.shell.speakerbox.state import Box

    now = [100.0]
    asked = []
    box = Box(night_length=10.0, phases=[(0.0, "Nightfall")], clock=lambda: now[0])
    server = BoxServer(box, b"RIFF-night", {}, lambda: now[0], lambda action: None, host="127.0.0.1", port=0,
                       token="secret-token")
    box.on_change = server.broadcast
    server.start()
    server.now, server.asked = now, asked
    yield server
    server.stop()


def test_a_tablet_is_listened_to_once_in_step_plays_its_own_code_and_is_named_when_missed(served):
    import aiohttp
    import soundfile
    from test_speakerbox_server import CONTROLS, greeted, next_of, url

    served.listening(lambda: served.asked.append(True))

    async def scenario():
        async with aiohttp.ClientSession() as session:
            control = await greeted(session, served, **CONTROLS)
            tablet = await greeted(session, served, role="tablet", id="near")
            await next_of(tablet, "delay")
            assert served.ready_tablets(0) == {}  # not in step yet
            await tablet.send_str(json.dumps({"type": "report", "synced": True, "sound": False}))
            await asyncio.sleep(0.1)
            assert served.ready_tablets(0) == {}  # its sound is off: it could play nothing
            await tablet.send_str(json.dumps({"type": "report", "synced": True, "sound": True}))
            await asyncio.sleep(0.1)
            assert served.ready_tablets(2.0) == {}  # in step, not for long yet
            served.now[0] += 2.5
            (number, connection), = served.ready_tablets(2.0).items()
            served.play_codes({number: (105.0, 106.2)})
            told = await next_of(tablet, "code")
            assert told["at"] == [105.0, 106.2]
            assert served.codes_left_out(served.now[0]) == set()
            await tablet.send_str(json.dumps({"type": "code left out"}))  # (its timestamps fell in doubt)
            await asyncio.sleep(0.1)
            assert served.codes_left_out(served.now[0]) == {number}
            assert served.codes_left_out(served.now[0] + 0.5) == set()  # (a round told after it)
            served.now[0] += 1.0
            assert served.codes_in_doubt(served.now[0]) == set() and served.still_in_doubt() == set()
            await tablet.send_str(json.dumps({"type": "code in doubt"}))  # (played, placed by timestamps in doubt)
            await asyncio.sleep(0.1)
            assert served.codes_in_doubt(served.now[0]) == {number} == served.still_in_doubt()
            assert served.codes_in_doubt(served.now[0] + 0.5) == set()
            served.now[0] += 3.0
            await tablet.send_str(json.dumps({"type": "still"}))  # (its timestamps hold still since)
            await asyncio.sleep(0.1)
            assert served.still_in_doubt() == set()
            async with session.get(url(served, told["url"])) as response:
                assert response.status == 200
                samples, rate = soundfile.read(io.BytesIO(await response.read()), dtype="float32")
            assert rate == 48000 and np.allclose(samples, arrivals.code(number, rate), atol=1e-4)
            async with session.get(url(served, "/codes/0.wav")) as response:
                assert response.status == 404
            served.mark_missed((number,))  # (it waited to be heard: it plays as it is)
            assert (await next_of(tablet, "delay")) == {"type": "delay", "seconds": 0.0, "unheard": False,
                                                        "code": told["url"]}
            listed = await next_of(control, "tablets", where=lambda message: any(listed["missed"] for listed in message["tablets"]))
            assert listed["listening"] is True
            served.set_delay(number, 250)
            assert (await next_of(tablet, "delay"))["seconds"] == 0.25
            await next_of(control, "tablets", where=lambda message: not message["tablets"][0]["missed"]
                          and message["tablets"][0]["delay_ms"] == 250)
            await tablet.close()
            again = await greeted(session, served, role="tablet", id="near")  # reloaded: another connection
            assert (await next_of(again, "delay"))["seconds"] == 0.25  # its delay from its first sound
            await again.send_str(json.dumps({"type": "report", "synced": True, "sound": True}))
            await asyncio.sleep(0.1)
            served.now[0] += 2.5
            assert served.ready_tablets(2.0) != {number: connection}
            # The controls page's Listen asks for a round; only the laptop's token may.
            await control.send_str(json.dumps({"type": "control", "action": "listen", "token": "secret-token"}))
            assert (await next_of(control, "done"))["action"] == "listen" and served.asked == [True]
            await again.send_str(json.dumps({"type": "control", "action": "listen", "token": "guess"}))
            assert (await next_of(again, "error"))["message"] == "only the laptop controls the game"
            for ws in (control, again):
                await ws.close()

    asyncio.run(scenario())


def test_a_page_is_given_its_code_to_fetch_ahead_once_the_laptop_listens(served):
    """A round need not wait for a page to fetch its code (``listen.LEAD``): once the laptop
    listens every page is given its code's address, one that joined before it began to as well,
    and one that joins after as it says hello; not before."""
    import aiohttp
    from test_speakerbox_server import greeted, next_of

    async def scenario():
        async with aiohttp.ClientSession() as session:
            early = await greeted(session, served, role="tablet", id="early")
            assert "code" not in await next_of(early, "delay")
            served.listening(lambda: None)
            assert (await next_of(early, "delay")) == {"type": "delay", "seconds": 0.0, "unheard": False,
                                                       "code": "/codes/1.wav"}
            late = await greeted(session, served, role="tablet", id="late")
            assert (await next_of(late, "delay")) == {"type": "delay", "seconds": 0.0, "unheard": True,
                                                      "code": "/codes/2.wav"}
            for ws in (early, late):
                await ws.close()

    asyncio.run(scenario())


def test_a_tablet_is_steady_once_its_page_has_believed_its_timestamps_a_while(served):
    """The ear moves only a tablet whose page steers (``Listener._by_signature``): in step and
    believing its output's timestamps, for a while. One whose page says it no longer believes them
    (a glitch: it holds its course) or that falls out of step is not steady, and is counted
    afresh once it is again. How far off a page found itself is taken from a report sent since a
    given moment, made by timestamps it believed (``reckoned``)."""
    import aiohttp
    from test_speakerbox_server import greeted, next_of

    async def scenario():
        async with aiohttp.ClientSession() as session:
            pages = {name: await greeted(session, served, role="tablet", id=name) for name in ("one", "two")}
            for ws in pages.values():
                await next_of(ws, "delay")

            async def report(name, **fields):
                await pages[name].send_str(json.dumps({"type": "report", "synced": True, **fields}))
                await asyncio.sleep(0.2)  # (read by the server)

            await report("one", trusted=True, error=0.0004)
            await report("two", trusted=False, error=0.0)
            assert served.steady_tablets(0.0) == {1} and served.steady_tablets(1.0) == set()
            assert served.reckoned(served.now[0]) == {1: 0.0004}  # (two's, by timestamps in doubt, says nothing)
            served.now[0] += 5.0
            assert served.reckoned(served.now[0] - 1.0) == {}  # (none sent since)
            await report("one", trusted=True)  # (still: counted from the first)
            await report("two", trusted=True, error=-0.003)
            assert served.reckoned(served.now[0]) == {2: -0.003}  # (one's says nothing of it: not playing)
            steady = [served.steady_tablets(4.0), served.steady_tablets(0.0)]
            await report("one", trusted=False)  # its timestamps leapt
            await report("two", synced=False, trusted=True)  # its clock lost
            steady.append(served.steady_tablets(0.0))
            await report("one", trusted=True)
            served.now[0] += 1.0
            steady.append(served.steady_tablets(4.0))
            for ws in pages.values():
                await ws.close()
            return steady

    assert asyncio.run(scenario()) == [{1}, {1, 2}, set(), set()]


def test_with_the_ear_on_each_tablet_fetches_the_night_with_its_own_signature_under_it():
    """A laptop that keeps an ear on the night (``Listener(keep_an_ear=True)``) has every tablet's
    page fetch the night with its own signature under it (``narrator.core.signatures``), in the
    night's own format; the ear is handed the same signature to read. A page that asks before its
    hello is read is waited for; a page nobody knows, and every page where the ear is off, gets
    the night as it is."""
    import aiohttp
    import soundfile
    from test_speakerbox_server import get, greeted, next_of

    from narrator.core.signatures import signature
    from narrator.shell.speakerbox.listen import Listener
    from narrator.shell.speakerbox.server import BoxServer
    from narrator.shell.speakerbox.state import Box

    rate = 24000
    t = np.arange(3 * rate) / rate
    plain = (0.3 * np.sin(2 * np.pi * 440 * t) * (1 + np.sin(2 * np.pi * 3 * t))).astype(np.float32)
    out = io.BytesIO()
    soundfile.write(out, plain, rate, format="WAV", subtype="PCM_16")
    night_wav = out.getvalue()
    as_served = soundfile.read(io.BytesIO(night_wav), dtype="float32")[0]
    box = Box(night_length=3.0, phases=[(0.0, "Nightfall")], clock=lambda: 100.0)
    server = BoxServer(box, night_wav, {}, lambda: 100.0, lambda action: None, host="127.0.0.1", port=0)
    server.start()
    try:
        async def fetch(page=None):
            status, body, kind = await get(server, f"/night.wav?night={server.night_id}" + (f"&page={page}" if page else ""))
            assert status == 200 and kind == "audio/wav"
            return body

        async def scenario():
            assert await fetch("one") == night_wav  # the ear off: as it is
            Listener(server, lambda: 100.0, lambda text: None, lambda text: None, keep_an_ear=True)
            async with aiohttp.ClientSession() as session:
                one = await greeted(session, server, role="tablet", id="one")
                await next_of(one, "delay")
                asking = asyncio.ensure_future(fetch("two"))  # (asked before its hello is read)
                await asyncio.sleep(0.2)
                two = await greeted(session, server, role="tablet", id="two")
                signed = {1: await fetch("one"), 2: await asking}
                stranger = await fetch("nobody")
                for ws in (one, two):
                    await ws.close()
            return signed, stranger

        signed, stranger = asyncio.run(scenario())
        assert stranger == night_wav
        for number, body in signed.items():
            samples, served_rate = soundfile.read(io.BytesIO(body), dtype="float32")
            assert served_rate == rate and soundfile.info(io.BytesIO(body)).subtype == "PCM_16"
            own = signature(number, as_served, rate)
            assert np.abs(samples - (as_served + own)).max() < 1e-4  # (PCM_16: a step is 3e-5)
            night_id, handed, handed_rate = server.signature(number)
            assert night_id == server.night_id and handed_rate == rate and np.array_equal(handed, own)
        assert signed[1] != signed[2]
        assert 20 * np.log10(np.std(signature(1, as_served, rate)) / np.std(as_served)) < -25  # faint
    finally:
        server.stop()


def test_with_listen_a_tablet_is_told_to_wait_until_the_laptop_has_heard_it(served):
    """--listen: a tablet that joins plays the night silent until the laptop has heard it. Its
    page is told so as it says hello; a round that sets its delay, one that could not hear it, and
    the group setting its delay by hand each let it play; once the microphone has failed a tablet
    that joins plays at once. The controls page lists one that waits."""
    import aiohttp
    from test_speakerbox_server import CONTROLS, greeted, next_of

    served.listening(lambda: None)

    async def scenario():
        async with aiohttp.ClientSession() as session:
            control = await greeted(session, served, **CONTROLS)
            first = await greeted(session, served, role="tablet", id="first")
            assert (await next_of(first, "delay"))["unheard"] is True
            second = await greeted(session, served, role="tablet", id="second")
            assert (await next_of(second, "delay"))["unheard"] is True
            listed = await next_of(control, "tablets", where=lambda message: len(message["tablets"]) == 2)
            assert [tablet["unheard"] for tablet in listed["tablets"]] == [True, True]
            served.set_delay(1, 40)  # a round heard it 40 ms late
            assert (await next_of(first, "delay")) == {"type": "delay", "seconds": 0.04, "unheard": False,
                                                       "code": "/codes/1.wav"}
            served.mark_missed((2,))  # a round did not hear it: it plays as it is
            assert (await next_of(second, "delay")) == {"type": "delay", "seconds": 0.0, "unheard": False,
                                                        "code": "/codes/2.wav"}
            await next_of(control, "tablets", where=lambda message: not any(
                tablet["unheard"] for tablet in message["tablets"]))
            await first.close()
            again = await greeted(session, served, role="tablet", id="first")  # reloaded: heard before
            assert (await next_of(again, "delay"))["unheard"] is False
            third = await greeted(session, served, role="tablet", id="third")
            assert (await next_of(third, "delay"))["unheard"] is True
            await control.send_str(json.dumps({"type": "control", "action": "delay", "tablet": 3, "ms": 10,
                                               "token": "secret-token"}))  # set by ear
            assert (await next_of(third, "delay")) == {"type": "delay", "seconds": 0.01, "unheard": False,
                                                       "code": "/codes/3.wav"}
            fourth = await greeted(session, served, role="tablet", id="fourth")
            assert (await next_of(fourth, "delay"))["unheard"] is True
            served.play_unheard()  # the microphone failed
            assert (await next_of(fourth, "delay"))["unheard"] is False
            fifth = await greeted(session, served, role="tablet", id="fifth")
            assert (await next_of(fifth, "delay"))["unheard"] is False
            for ws in (control, second, again, third, fourth, fifth):
                await ws.close()

    asyncio.run(scenario())


def test_without_listen_the_controls_page_is_told_the_laptop_does_not_listen():
    import aiohttp
    from test_speakerbox_server import CONTROLS, greeted, next_of

    from narrator.shell.speakerbox.server import BoxServer
    from narrator.shell.speakerbox.state import Box

    box = Box(night_length=10.0, phases=[(0.0, "Nightfall")], clock=time.monotonic)
    server = BoxServer(box, b"RIFF-night", {}, time.monotonic, lambda action: None, host="127.0.0.1", port=0,
                       token="secret-token")
    server.start()

    async def scenario():
        async with aiohttp.ClientSession() as session:
            control = await greeted(session, server, **CONTROLS)
            assert (await next_of(control, "tablets"))["listening"] is False
            await control.send_str(json.dumps({"type": "control", "action": "listen", "token": "secret-token"}))
            refused = await next_of(control, "refused")
            assert refused["action"] == "listen" and "--listen" in refused["message"]
            await control.close()

    try:
        asyncio.run(scenario())
    finally:
        server.stop()


# --- narrate serve --listen, without a microphone that hears ---------------------------------------------

# A room where no tablet sounds: an input of noise (/dev/urandom read as samples, through ALSA's file
# plugin). Not ALSA's null device: it records mostly zeros, now and then what its buffer held, and a
# recording of nothing but zeros is a microphone the system keeps from narrate (``kept_from``).
NOISE_INPUT = ('pcm.!default { type file slave.pcm { type null } file "/dev/null" infile "/dev/urandom" format "raw" }\n'
               "ctl.!default { type hw card 0 }\n")
ZERO_INPUT = NOISE_INPUT.replace("/dev/urandom", "/dev/zero")  # nothing but zeros: what Windows and macOS give an
# app kept from the microphone
IN_STEP = {"type": "report", "synced": True, "sound": True}  # a tablet in step with sound, as box.js says


async def next_message(ws, timeout: float = 0.25) -> dict | None:
    """The next message on ``ws`` (None when none came within ``timeout``, or it closed)."""
    import aiohttp

    try:
        message = await ws.receive(timeout=timeout)
    except asyncio.TimeoutError:
        return None
    return json.loads(message.data) if message.type == aiohttp.WSMsgType.TEXT else None


def serve_listening(tmp_path, device: str, *args: str) -> tuple[subprocess.Popen, str, str]:
    """``narrate serve --listen`` of a one-night game (``args`` added) whose ALSA default device is
    ``device``: its process, the box's address and the controls' token."""
    config = tmp_path / "asound.conf"
    config.write_text(device)
    process = subprocess.Popen(
        [sys.executable, "-m", "narrator", "serve", "--game", "una-notte-da-lupi", "--port", "0",
         "--host", "127.0.0.1", "--no-laptop-audio", "--lang", "en", "--no-day", "--listen", *args],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env={**os.environ, "ALSA_CONFIG_PATH": str(config), "LANG": "C.UTF-8", "HOME": str(tmp_path),
             "XDG_CACHE_HOME": str(tmp_path / "cache"), "XDG_CONFIG_HOME": str(tmp_path / "config"),
             "XDG_DATA_HOME": str(tmp_path / "data")})
    for line in process.stdout:
        if "?token=" in line:
            break
    control = re.search(r"(http://\S+)", line)[1]
    return process, control.split("?")[0], control.split("token=")[1]


@pytest.mark.parametrize("device, said", [
    ("pcm.!default { type hw card 9 }\nctl.!default { type hw card 9 }\n", "narrate: cannot record: no microphone"),
    (NOISE_INPUT, "narrate: the laptop heard none of the tablets"),
    (ZERO_INPUT, "narrate: the microphone gave nothing but silence: check that the microphone is connected"),
])
def test_narrate_listen_with_no_microphone_or_a_silent_one_says_so_in_one_line_and_plays_on(tmp_path, device, said):
    """With no input device, one that hears no tablet (a noise input), or one that gives
    nothing but zeros (as Windows and macOS give an app kept from the microphone), the laptop says
    so in one line once a tablet is in step (for zeros, what to check on this system), names the
    tablet as not heard only where the microphone heard a room (the noise input), and the night
    is played as it would be without."""
    names = said.startswith("narrate: the laptop heard none")  # (no microphone, or zeros: the tablet is not named)
    import aiohttp

    from tests.test_playback import portaudio_missing

    if portaudio_missing():
        pytest.skip("PortAudio (libportaudio2) is not installed")
    process, address, token = serve_listening(tmp_path, device, "--players", "3", "--no-ambience")
    try:
        named: list[str] = []

        async def drive():
            async with aiohttp.ClientSession() as session:
                ws = await session.ws_connect(address + "ws")
                tablet = await session.ws_connect(address + "ws")
                await tablet.send_str(json.dumps({"type": "hello", "role": "tablet", "id": "quiet"}))
                await ws.send_str(json.dumps({"type": "hello", "role": "control", "token": token}))
                deadline = time.monotonic() + 30
                missed = False
                while time.monotonic() < deadline and not missed:
                    await tablet.send_str(json.dumps(IN_STEP))
                    message = await next_message(ws)
                    if message and message["type"] == "tablets" and message["tablets"]:
                        missed = message["tablets"][0]["missed"]
                        if not names and time.monotonic() > deadline - 22:
                            break  # no round could have heard it: nobody is named
                named.append(str(missed))
                await ws.send_str(json.dumps({"type": "control", "action": "start", "token": token}))
                while True:  # (the night starts once the round's codes are over)
                    message = json.loads((await ws.receive(timeout=30)).data)
                    if message["type"] == "state" and message["stage"] == "night":
                        break
                await ws.send_str(json.dumps({"type": "control", "action": "next", "token": token}))
                await asyncio.sleep(0.5)
                await ws.close()
                await tablet.close()

        asyncio.run(drive())
        try:
            output, stderr = process.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            process.kill()
            output, stderr = process.communicate()
        assert process.returncode == 0, (output[-3000:], stderr)
        problems = [line for line in stderr.splitlines() if line.startswith("narrate:")]
        assert [line for line in problems if said in line] and "Traceback" not in stderr, stderr
        assert len([line for line in problems if said in line]) == 1, stderr  # said once, not at every wait
        assert "Listening for the tablets" in output
        assert named == [str(names)]
    finally:
        process.kill()


# --- through a real audio path --------------------------------------------------------------------------

def _can_run() -> str | None:
    from heard import can_run

    from tests.test_playback import portaudio_missing

    if portaudio_missing():
        return "PortAudio (libportaudio2) is not installed"
    import glob

    if not glob.glob("/usr/lib/*/alsa-lib/libasound_module_pcm_pulse.so"):
        return "needs ALSA's pulse plugin (apt-get install libasound2-plugins)"
    return can_run()


HIDDEN = ((2, 40), (3, 250))  # (tablet, ms): a far speaker and a Bluetooth one (``heard.BEHIND``)
WATCHED = ((0.5, 14.0), (20.0, 26.0))  # seconds: the voice of the night the laptop keeps an ear on
DRIFT = (5.0, 3, 0.300)  # ...at 5 s into it, tablet 3's speaker goes from 250 to 300 ms late
CREEP = (21.0, 2, 0.046)  # ...and at 21 s tablet 2's from 40 to 46 ms: too little for copies apart (drift.SPLIT)


@TIMED
def test_speakers_later_than_their_pages_can_see_are_heard_and_set_in_step(tmp_path):
    """Three tablets, two of them behind speakers their pages cannot see (40 and 250 ms, BEHIND);
    the laptop's microphone is the room's mix, reached through ALSA's
    default device as sounddevice finds it. Before listening the tablets are heard that far
    apart; one that never plays its code is named and keeps its delay while the others are set;
    once it plays too, a round after finds every tablet within a few ms of the others (within
    three rounds: a loaded machine can make one round heard wrong), and the night that follows is
    heard in step.

    In that night (issue 41, point 2) the laptop keeps an ear on it, each tablet's night signed:
    tablet 3's speaker becomes 50 ms later (DRIFT), the laptop hears tablet 3 by its signature 50 ms
    off the others and brings it back (slowly in speech, the rest in the next moment without
    voice), and the tablets are heard in step again; then tablet 2's becomes 6 ms later (CREEP),
    too close for two copies of the night to be told apart, and it is read by its signature and
    brought back as well."""
    why = _can_run()
    if why:
        pytest.skip(why)
    import io

    import soundfile
    from heard import (
        WINDOW,
        Plan,
        between,
        measure,
        play_night,
        put_behind,
        room_listener,
        the_laptop_s_ear,
        until_ready,
    )
    from playwright.sync_api import sync_playwright
    from test_drift import a_night

    said: list[str] = []
    rounds: list = []
    found: dict = {}
    ear: dict = {}

    def listen(server, room, pages, joined):
        listener = ear["listener"] = room_listener(server, room, said)
        until_ready(server, 3)
        pages[2].evaluate("window.playCode = () => {}")  # tablet 2's page drops its code: never plays it
        for _ in range(3):  # (a page whose timestamps fall in doubt as it plays leaves its code out, and
            rounds[:] = [listener.round()]  # one in doubt as the round begins is left out of it)
            if rounds[0] is not None and set(rounds[0].late) == {1, 3} and rounds[0].missing == (2,):
                break
        time.sleep(0.2)  # (the box's own thread marks it)
        found["missed"] = [tablet["n"] for tablet in server_tablets(server) if tablet["missed"]]
        pages[2].reload()  # the box script as served: it plays its code again
        from boxnet import join

        join(pages[2])
        put_behind(pages[2], 2, plan)  # the same speaker, reloaded
        # Under load the reloaded page's timestamps can fall in doubt again: it is then left out of a
        # round (no longer ready) or leaves its code out (missing). Tried again, each time once every
        # page is steady, as the laptop waits for it; at most three.
        tries, doubted = [], []
        for _ in range(3):
            until_ready(server, 3)
            began = server.clock()
            tries.append(listener.round())
            doubted.append(2 in server.codes_in_doubt(began))  # (its code played while its timestamps were in doubt)
            if tries[-1] is not None and set(tries[-1].late) == {1, 2, 3}:
                break
        rounds.append(tries[-1])
        # (a try that heard tablet 2 but left out another has set 2 already: 2 is late in the first
        # that heard it, as CI once showed, 41 ms then 0 in the try after)
        found["2 first heard"], found["2 first heard in doubt"] = next(
            ((tried.late[2], doubt) for tried, doubt in zip(tries, doubted, strict=True) if tried is not None and 2 in tried.late),
            (None, False))
        found["tries"] = tries
        found["reloaded events"] = pages[2].evaluate("narratorBox.events")[-12:]  # (when a figure needs explaining)
        # How it is heard now. On a loaded machine a page's output timestamps can lie by tens of ms
        # for a while (benchmarks/README.md): a round heard that way sets that tablet off, and the
        # round after it (a group would press Listen again) brings it back. At most three.
        for _ in range(3):
            until_ready(server, 3)
            rounds.append(listener.round())
            if rounds[-1] is not None and set(rounds[-1].late) == {1, 2, 3} and max(rounds[-1].late.values()) < 0.005:
                break
        # As narrate does while the group waits for Start (``Listener.tick``): a tablet set by plays
        # in doubt is heard again once its page says its timestamps hold still. Left to the night,
        # that round waited for the stretch at 14 s, the ear waited with it, and the round, not
        # the ear, found the drift (the suite, once).
        deadline = time.monotonic() + 10.0
        while time.monotonic() < deadline and (listener.busy() or listener.due() or listener.awaiting_steady()):
            listener.tick()
            time.sleep(0.1)
        listener.wait()
        found["delays"] = server.delays()
        ear["rounds before"] = len(said)

    def keep_an_ear(server, room, box, night):
        ear["began"] = box.night_moves()  # (box time of the night's first sample)
        return the_laptop_s_ear(ear["listener"], list(WATCHED))(server, room, box, night)

    def later(tablet: int, seconds: float):
        def step(pages, room):
            pages[tablet].evaluate("(seconds) => { narratorBox.behind.delayTime.value = seconds; }", seconds)
        return step

    plan = Plan(length=33, join=None, reload=None, burst=None, pause=None, resume=None, tablets=3, behind=HIDDEN)
    night = io.BytesIO()
    soundfile.write(night, spoken(a_night(plan.length, 48000, voice=WATCHED), 48000), 48000, format="WAV",
                    subtype="FLOAT")
    with sync_playwright() as playwright:
        heard = play_night(playwright, tmp_path, night.getvalue(), plan, before_night=listen,
                           during_night=keep_an_ear, steps=[(DRIFT[0], later(*DRIFT[1:])), (CREEP[0], later(*CREEP[1:]))], speech=list(WATCHED), signed=True)
    first, second, *_, after = rounds
    # Before: the tablets are heard as far apart as their hidden speakers (PulseAudio's loopback
    # holds about the latency it is given, never less than a few tens of ms of it).
    assert first.missing == (2,) and found["missed"] == [2], "\n".join([repr(first), *said])
    assert first.late[3] - first.late[1] > 0.15, first  # (measured here: 250.0 ms)
    # 1 and 3 set by the first round: in step (250 ms apart before it; a loaded machine has put a
    # page's code 19 ms off its place for a round, as its timestamps can lie for a while)
    assert set(second.late) == {1, 2, 3} and abs(second.late[3] - second.late[1]) < 0.025, (second, found)
    # 2 heard late by its hidden speaker (measured: 40.4 ms) in the first round that heard it, then
    # set. A code its page played with its timestamps in doubt (by a little, box.js's smallDoubt) may
    # be up to 16.5 ms off its place (measured, box.js): then over 20 ms, below 40 less that with a
    # margin (a fresh Debian 12 root once heard 23.5 ms, its code played in doubt).
    least = 0.020 if found["2 first heard in doubt"] else 0.025
    assert found["2 first heard"] is not None and found["2 first heard"] > least, \
        (found["tries"], found["2 first heard in doubt"], found["reloaded events"])
    assert set(after.late) == {1, 2, 3} and max(after.late.values()) < 0.005, (after, said)  # all within 5 ms as heard
    delays = found["delays"]  # (the group is held where the tablets set before were: only differences count)
    assert delays[3] - delays[1] > 150 and delays[2] - delays[1] > 25, found
    assert any("did not hear tablet 2" in line for line in said), said
    # The night after it, as heard: its tablets together (uncorrected, 250 ms apart) until tablet
    # 3's speaker drifts. How close, on a quiet machine and a loaded one, is the benchmark's figure
    # (measured here alone: a median of 1 ms; beside two busy cores, 7 ms).
    figures = measure(heard)
    night_said = said[ear["rounds before"]:]
    # (read up to the drift's first window: one that takes in the drift reads it, and where few
    # windows are read before it, as a fresh machine once had, it made the median 25 ms)
    assert between(heard, 0.5, DRIFT[0] - WINDOW)["median"] <= 20.0, _told(figures, night_said)
    # The drift: tablet 3 read by its signature 50 ms off the others (in the 11 s of voice after it:
    # every 1.5 s a stretch is heard, and two reads in a row must agree) and moved back, 2 ms a
    # second in speech and the rest in the stretch without voice from 14 s, where the laptop's
    # other ear (copies of the night apart) may also have asked for a round of codes.
    assert between(heard, DRIFT[0] + 0.5, WATCHED[0][1])["worst"] > 40.0, _told(figures, night_said)
    listener = ear["listener"]
    # (Under a loaded suite tablet 3 has gone unread for three stretches after the drift, once: then
    # the copies of the night, 50 ms apart, ask for the round that brings it back, as designed.)
    heard_off = r"hears tablet 3 (\d+) ms off|hears the tablets (\d+) ms apart"
    moved = [int(found.group(1) or found.group(2)) for line in night_said if (found := re.search(heard_off, line))]
    assert moved and 45 <= moved[0] <= 55, f"{night_said}\nmoved: {listener.nudged}\nread: {listener.signed_ear}"  # (50 ms as the laptop reads it)
    # The creep: 6 ms, which the copies of the night cannot part, read by tablet 2's signature and
    # moved back (3 s of slewing, or the rest at 26 s); the tablets heard within a couple of ms after.
    crept = [(at, seconds) for at, tablet, seconds, _ in listener.nudged if tablet == 2 and at > ear["began"] + CREEP[0]]
    assert crept and abs(sum(seconds for _, seconds in crept) - 0.006) < 0.0015, listener.nudged
    # (read in the second stretch that began after it: 1.2-1.4 s in six quiet runs, 3.2 s at most by
    # the ear's cadence; 4.5 s once under a loaded suite: how soon is the benchmark's to measure, the
    # test holds it to before the voice ends, so that the tablets are heard in step after it)
    assert crept[0][0] - ear["began"] <= WATCHED[1][1], listener.nudged
    assert between(heard, 28.0, 32.0)["median"] <= 2.5, _told(figures, night_said, logged=True)


def spoken(night: np.ndarray, rate: int, corner: float = 500.0) -> np.ndarray:
    """``night`` (made of noise, as loud at 5 kHz as at 500 Hz) with a spectrum that falls 12 dB an
    octave above ``corner`` Hz, as a narrated night's does, as loud as it was. Under noise as loud
    in their band as a made-up night's, the tablets' signatures (32 dB under the night) are not
    read; a night of `narrate render` has its 1-2, 2-4 and 4-6 kHz bands 20, 9 and 7 dB over a
    signature's, this one 24, 13 and 4 (measured)."""
    frequencies = np.fft.rfftfreq(len(night), 1 / rate)
    shaped = np.fft.irfft(np.fft.rfft(night) / (1 + (frequencies / corner) ** 2), len(night))
    return (shaped * (np.std(night) / (np.std(shaped) + 1e-12))).astype(np.float32)


def _told(figures: dict, said: list[str], logged: bool = False) -> str:
    """A night's figures in full where a figure fails (pytest cuts a long dict short): when each
    stretch over 5 ms began and how far each tablet was, what the laptop said meanwhile; with
    ``logged``, what each page logged in each stretch too."""
    episodes = [{key: value for key, value in episode.items() if logged or key != "logged"}
                for episode in figures["episodes over 5 ms"]]
    rest = {key: value for key, value in figures.items() if key != "episodes over 5 ms"}
    return f"{rest}\nepisodes over 5 ms: {episodes}\nsaid: {said}"


def server_tablets(server) -> list[dict]:
    now = server.clock()
    return [tablet.as_dict(now) for tablet in list(server._tablets.values())]


def test_listen_without_the_speaker_box_is_one_line_saying_what_to_add(tmp_path):
    done = subprocess.run([sys.executable, "-m", "narrator", "--players", "6", "--listen"], capture_output=True,
                          text=True, env={**os.environ, "LANG": "en_US.UTF-8"}, cwd=tmp_path, timeout=60)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.strip().splitlines() == [
        "narrate: --listen sets the tablets of the speaker box: add --speaker-box (or use 'narrate serve') "
        "(see 'narrate --help')"]


def test_the_night_tells_the_tablets_where_its_voice_sounds():
    """Issue 41, point 4: the spans a page may not jump inside are the night's lines, as mixed."""
    from narrator.core.deck import recommended_deck
    from narrator.core.script import generate_script, settings_for
    from narrator.shell.audio.clip import Clip
    from narrator.shell.audio.mix import MixSettings, build_night
    from narrator.shell.speakerbox.game import speech_spans
    from tests.conftest import make_env

    env = make_env()
    script = generate_script(env.game, recommended_deck(env.game, 3), settings_for(env.game, "it"))
    line = Clip(np.full(4000, 0.3, dtype=np.float32), 8000)  # half a second of "voice"
    night = build_night(script, {cue.key: line for cue in script.cues()}, None, MixSettings(rate=8000))
    spans = speech_spans(night)
    samples = night.block(0, night.length)
    inside = np.zeros(night.length, dtype=bool)
    for start, end in spans:
        inside[int(round(start * 8000)): int(round(end * 8000))] = True
    assert spans and all(b[0] - a[1] >= 0.3 for a, b in zip(spans, spans[1:], strict=False))
    assert not np.any(samples[~inside])  # no bed here: every sample outside the spans is silent...
    assert np.mean(samples[inside] != 0) > 0.5  # ...and the spans are where it speaks


# --- a tablet that joins during a game of many nights ------------------------------------------------------

def test_a_tablet_that_joins_during_the_night_is_listened_to_between_two_turns(tmp_path):
    """narrate --listen on a game of many nights: the tablet there before Start is listened to
    then; one that joins while the first night plays plays its code before the next turn is
    called, while the night's last part is over and before the day. (The input is noise, a room
    where no tablet sounds: nothing is heard, and the game plays on as it is.)"""
    import aiohttp
    from moderation import Served, random_answer

    config = tmp_path / "asound.conf"
    config.write_text(NOISE_INPUT)
    served = Served.start(tmp_path, "lupus-in-tabula", 8, "en", "--listen", "--count-seconds", "5",
                          environ={"ALSA_CONFIG_PATH": str(config)})
    told: dict[str, list] = {"first": [], "late": []}  # (message, the box's state as the console last saw it)
    seen: list[dict] = []

    async def drive():
        async with aiohttp.ClientSession() as session:
            socket = served.tablet + "ws"

            async def tablet(name: str) -> None:
                async with session.ws_connect(socket) as ws:
                    await ws.send_json({"type": "hello", "role": "tablet", "id": name})
                    while not ws.closed:
                        await ws.send_json(IN_STEP)
                        if message := await next_message(ws):
                            told[name].append((message, seen[-1] if seen else None))

            tablets = [asyncio.ensure_future(tablet("first"))]
            rng = random.Random(5)
            async with session.ws_connect(socket) as console:
                await console.send_json({"type": "hello", "role": "moderator", "token": served.token})
                deadline = time.monotonic() + 120
                started = False
                def next_part_started() -> bool:  # after the late tablet's codes
                    codes = [message for message, _ in told["late"] if message["type"] == "code"]
                    return bool(codes) and any(state["night"]["anchor_time"] > max(codes[0]["at"])
                                               for state in seen if state["stage"] == "night")

                while time.monotonic() < deadline and not next_part_started():
                    if not started and seen and "start" in seen[-1]["actions"] and "heard none" in served.errors():
                        started = True  # the first round is over: Start
                        await console.send_json({"type": "control", "action": "start", "token": served.token})
                    try:
                        message = await console.receive_json(timeout=0.5)
                    except asyncio.TimeoutError:
                        continue
                    if message["type"] == "state":
                        seen.append(message)
                        if message["stage"] == "night" and len(tablets) == 1:
                            tablets.append(asyncio.ensure_future(tablet("late")))
                    elif message["type"] == "step" and message["form"]:
                        await console.send_json({"type": "answer", "token": served.token,
                                                 "version": message["version"],
                                                 "value": random_answer(message["form"], rng)})
            for task in tablets:
                task.cancel()

    try:
        asyncio.run(drive())
    finally:
        served.stop()
    printed = served.output()
    assert printed.count("Listening for the tablets") == 2, (printed[-2000:], served.errors()[-2000:])
    first_codes = [state for message, state in told["first"] if message["type"] == "code"]
    assert len(first_codes) == 2 and first_codes[0]["stage"] == "waiting"  # before Start, then with the late one
    (code, then), = [(message, state) for message, state in told["late"] if message["type"] == "code"]
    night = then["night"]
    assert then["stage"] == "night" and min(code["at"]) > night["anchor_time"] + night["length"], then  # a part over
    later = [state["night"]["anchor_time"] for state in seen if state["stage"] == "night"
             and state["night"]["anchor_time"] > night["anchor_time"]]
    assert later and later[0] > max(code["at"]) + arrivals.CODE_SECONDS  # ...and the next after the codes
    assert not [state for state in seen if state["stage"] == "day"]  # still the first night
    assert "Traceback" not in served.errors()


def test_a_round_in_a_playing_night_goes_where_its_voice_leaves_room():
    speech = [(0.0, 4.0), (6.0, 7.0), (12.5, 20.0)]
    assert arrivals.quiet(speech, 30.0, 0.0, 1.5) == pytest.approx(4.1)  # the first gap that holds it
    assert arrivals.quiet(speech, 30.0, 0.0, 3.0) == pytest.approx(7.1)  # 4.1-5.9 is too short
    assert arrivals.quiet(speech, 30.0, 8.0, 3.0) == pytest.approx(8.0)  # from the moment asked, when clear
    assert arrivals.quiet(speech, 30.0, 10.0, 3.0) == pytest.approx(20.1)  # 10-12.4 too short: after the last line
    assert arrivals.quiet(speech, 22.0, 10.0, 3.0) is None  # the night ends first
    assert arrivals.quiet([], 30.0, 2.0, 3.0) == pytest.approx(2.0)
    from narrator.shell.speakerbox.listen import stretch

    # What a round needs (the README's figure): three plays of three tablets, each play's own stretch
    assert stretch(3) == pytest.approx(4.4) and stretch(1) == pytest.approx(3.6) and stretch(6) > stretch(3)


def test_a_tablet_that_joins_while_a_whole_night_plays_is_listened_to_where_the_voice_is_silent(tmp_path):
    """narrate serve --listen on a one-night game, its night played whole: a tablet that joins
    while it plays plays its code in a stretch of the night the voice leaves silent (each play's
    stretch, from EARLY before it to APART after it, clear of every line), its night silent until
    then; the noise input hears no tablet, and it plays as it is."""
    import aiohttp

    process, address, token = serve_listening(tmp_path, NOISE_INPUT, "--players", "5")
    found: dict = {}
    try:
        async def drive():
            async with aiohttp.ClientSession() as session:
                ws = await session.ws_connect(address + "ws")
                await ws.send_str(json.dumps({"type": "hello", "role": "control", "token": token}))
                await ws.send_str(json.dumps({"type": "control", "action": "start", "token": token}))
                state = None
                while state is None or state["stage"] != "night":
                    message = json.loads((await ws.receive(timeout=30)).data)
                    state = message if message["type"] == "state" else state
                async with session.get(address + "night.wav") as response:
                    found["speech"] = json.loads(response.headers["X-Night-Speech"])
                late = await session.ws_connect(address + "ws")
                await late.send_str(json.dumps({"type": "hello", "role": "tablet", "id": "late"}))
                deadline = time.monotonic() + 60
                found["delays"] = []
                while time.monotonic() < deadline and not ("code" in found and len(found["delays"]) == 2):
                    await late.send_str(json.dumps(IN_STEP))
                    message = await next_message(late) or {"type": None}
                    if message["type"] == "state":
                        state = message
                    elif message["type"] == "code":
                        found["code"], found["state"] = message, state
                    elif message["type"] == "delay":
                        found["delays"].append((message["unheard"], "code" in found))
                    while await next_message(ws, 0.01):  # (read, as a page does: the laptop's pings answered)
                        pass
                await ws.send_str(json.dumps({"type": "control", "action": "next", "token": token}))
                await asyncio.sleep(0.5)
                await ws.close()
                await late.close()

        asyncio.run(drive())
        output, stderr = process.communicate(timeout=60)
    finally:
        process.kill()
    assert process.returncode == 0 and "Traceback" not in stderr, stderr
    assert output.count("Listening for the tablets") == 1, (output, stderr)  # (the night is skipped before it ends)
    # Told as it joined to play the night silent until heard; the noise input heard no tablet: as it is
    assert found["delays"] == [(True, False), (False, True)], found["delays"]
    night = found["state"]["night"]
    assert night["running"] and night["stop_time"] is None
    offsets = [night["anchor_offset"] + at - night["anchor_time"] for at in found["code"]["at"]]
    assert offsets == sorted(offsets) and offsets[0] > 0
    for offset in offsets:  # each play's stretch clear of the voice
        assert all(offset + arrivals.APART - arrivals.EARLY <= start or offset - arrivals.EARLY >= end
                   for start, end in found["speech"]), (offsets, found["speech"])


class MemoryBox:
    """What a Listener asks of the speaker box, kept in memory: the tablets in step (``ready``) and
    connected (``connected``; None: those in step), each {number: connection}; their delays, one a
    round set as set. Every telling is kept in ``told`` (box time, moments) and the codes last told
    in ``codes``, but for a page in ``left_out``, which leaves its code out and says so;
    ``on_told()`` runs as the tablets are told. A page in ``in_doubt`` plays its code with its
    timestamps in doubt and says so (and that they do not hold still yet). The tablets named as
    missed are in ``missed``; how many times every tablet was let play as it is (the laptop cannot
    listen) in ``played_unheard``."""

    most_delay_ms = 1000

    def __init__(self, ready: dict, clock, connected: dict | None = None, delays: dict | None = None):
        self.ready, self.clock, self.connected, self.current = dict(ready), clock, connected, dict(delays or {})
        self.left_out: set = set()
        self.in_doubt: set = set()
        self.codes: dict = {}
        self.told: list = []
        self.set: dict = {}
        self.missed: list = []
        self.played_unheard = 0
        self.on_told = lambda: None

    def ready_tablets(self, settled):
        return dict(self.ready)

    def connected_tablets(self):
        return dict(self.ready if self.connected is None else self.connected)

    def play_codes(self, moments):
        self.told.append((self.clock(), moments))
        self.codes.clear()
        self.codes.update({number: plays for number, plays in moments.items() if number not in self.left_out})
        self.on_told()

    def codes_left_out(self, since):
        assert since <= self.told[-1][0]  # (what a page said from the telling on)
        return set(self.left_out)

    def codes_in_doubt(self, since):
        assert since <= self.told[-1][0]
        return set(self.in_doubt)

    def still_in_doubt(self):
        return set(self.in_doubt)

    def delays(self):
        return {**self.current, **self.set}

    def set_delay(self, number, delay):
        self.set[number] = delay

    def mark_missed(self, numbers):
        self.missed.append(tuple(numbers))

    def play_unheard(self):
        self.played_unheard += 1

    def listening(self, ask):
        pass

    signed, night_id = None, "a night"  # (its nights are not signed)

    def sign_nights(self):
        pass

    def unsign_nights(self):
        pass


def test_a_round_waiting_for_its_stretch_tells_the_tablets_only_as_it_begins_and_leaves_out_one_that_reloaded():
    """A round in a night is found a stretch seconds ahead; the tablets are told LEAD before its
    first code (a page places a code by its clock as it is then, and one in doubt plays none), and
    a tablet whose page reloaded meanwhile is left out of it."""
    from narrator.shell.speakerbox.listen import LEAD, Listener

    now = [100.0]
    server = MemoryBox({1: 10, 2: 20}, lambda: now[0])

    def sleep(seconds):
        now[0] += seconds
        server.ready = {1: 10, 2: 21}  # tablet 2 reloaded while the round waited

    def record(seconds, clock):
        return np.zeros(int(seconds * RATE), dtype=np.float32), clock()

    listener = Listener(server, lambda: now[0], lambda text: None, lambda text: None, recorder=record, sleep=sleep)
    listener.round(first=110.0, ready={1: 10, 2: 20})
    told = server.told
    assert len(told) == 1 and told[0][0] == pytest.approx(110.0 - LEAD) and set(told[0][1]) == {1}, told


def test_a_tablet_that_comes_in_step_while_a_round_waits_for_its_stretch_plays_in_it():
    """A round asked for while a night plays (the laptop's ear heard the tablets apart, say) waits
    for a stretch without voice, seconds ahead. A tablet that joined just then, in step by the
    time the round begins, plays its code in it too and is set: left out, it played silent until
    the stretch after (38 s after joining, in a benchmark night)."""
    now = [100.0]
    said: list[str] = []
    server = MemoryBox({1: 10, 2: 20}, lambda: now[0], connected={1: 10, 2: 20, 3: 30}, delays={1: 0, 2: 0})
    listener = hearing(server, {1: 0.0, 2: 0.0, 3: 0.030}, now, said)
    listener.set, listener.listened = {1, 2}, {(1, 10), (2, 20)}
    waits = listener.sleep

    def sleep(seconds):  # (while the round waits for its stretch, tablet 3 comes in step)
        server.ready = {1: 10, 2: 20, 3: 30}
        waits(seconds)

    listener.sleep = sleep
    listener.ask()
    assert listener.during(lambda seconds, earliest: earliest + 8.0)
    listener.wait()
    assert set(server.told[-1][1]) == {1, 2, 3} and set(server.set) == {1, 2, 3}, (server.told, server.set, said)
    assert server.set[3] - server.set[1] == 30 and (3, 30) in listener.listened, (server.set, said)  # (heard 30 ms late)


def hearing(server: MemoryBox, later: dict, now: list, said: list):
    """A Listener on ``server`` whose clock is ``now[0]`` (its waits move it on), saying into
    ``said``, and whose microphone hears, in a quiet room, each code the box was last told to
    play (``server.codes``: {tablet: moments}) at its moments, ``later[tablet]`` seconds late."""
    from narrator.shell.speakerbox.listen import Listener

    def record(seconds, clock):
        begins = clock()
        recording = room_noise(seconds)
        for number, moments in server.codes.items():
            for moment in moments:
                place(recording, arrivals.code(number, RATE), moment - begins + 0.1 + later[number], gain=0.5)
        return recording, begins

    def sleep(seconds):
        now[0] += seconds

    return Listener(server, lambda: now[0], lambda text: said.append(str(text)), lambda text: said.append(str(text)),
                    recorder=record, sleep=sleep)


@pytest.mark.parametrize("system, setting", [
    ("windows", "allow the microphone in Settings › Privacy & security › Microphone (desktop apps too)"),
    ("macos", "allow the terminal to use the microphone in System Settings › Privacy & Security › Microphone"),
    ("unix", "check that the microphone is connected and not muted in the system's sound settings"),
], ids=["windows", "macos", "unix"])
def test_a_round_that_records_only_zeros_names_the_system_s_microphone_setting(monkeypatch, system, setting):
    """Windows and macOS give an app that may not use the microphone a stream of zeros, not an
    error: the laptop's recording (``listen.record``, here of a microphone that gives zeros or a
    quiet room) fails as a microphone that cannot be opened does, and a round that records nothing
    but zeros says which setting to open and how to try again,
    in the game's language, names no tablet as not heard (their silence says nothing of their
    sound), and the laptop stops listening until the controls page asks, every tablet playing as it
    is. One that hears a room (noise, however quiet) but no tablet asks whether the microphone is on
    and the tablets' sound up, and names each tablet as not heard (each then plays as it is)."""
    import narrator.shell.platform
    from narrator.core.i18n import ENGLISH
    from narrator.shell.audio.clip import Clip
    from narrator.shell.speakerbox import listen
    from narrator.shell.translation import load_catalog

    class Microphone:  # (what sounddevice gives MicrophoneRecorder, at once: 20 s of ``source``)
        def __init__(self, source):
            self.source = source

        def record(self, stop, levels=None, arrived=None):
            samples = self.source(20.0)
            arrived(len(samples), False)
            return Clip(samples, RATE)

    monkeypatch.setattr(narrator.shell.platform, "SYSTEM", system)
    italian = load_catalog("it")
    zeros = (lambda seconds: np.zeros(int(seconds * RATE), dtype=np.float32),
             f"narrate: the microphone gave nothing but silence: {setting}, then press Listen to the tablets on "
             "the controls page; the tablets play as they are",
             "narrate: il microfono ha dato solo silenzio: ")
    room = (room_noise, "narrate: the laptop heard none of the tablets (is its microphone on, and their sound up?); "
            "the tablets play as they are", "narrate: il portatile non ha sentito nessun tablet")
    for heard, said, said_in_italian, deaf in (zeros + (True,), room + (False,)):
        monkeypatch.setattr(listen, "MicrophoneRecorder", lambda heard=heard: Microphone(heard))
        now = [100.0]
        server = MemoryBox({1: 10, 2: 20}, lambda now=now: now[0])
        warned: list = []

        def sleep(seconds, now=now):
            now[0] += seconds

        listener = listen.Listener(server, lambda now=now: now[0], lambda text: None, warned.append,
                                   recorder=listen.record, sleep=sleep)
        listener.round()
        assert [text.render(ENGLISH) for text in warned] == [said], warned
        assert server.missed == ([] if deaf else [(1, 2)]) and server.played_unheard == int(deaf)
        assert listener.broken is deaf and not listener.due()  # (no round again: it stopped, or heard them)
        listener.ask()
        assert listener.due()  # the controls page's Listen: a round again
        in_italian = warned[0].render(italian)
        assert in_italian.startswith(said_in_italian) and setting not in in_italian, in_italian


def test_a_late_tablet_heard_without_any_tablet_set_before_waits_for_a_round_with_them():
    """Tablets 1 and 2 were set by a round; 3 joins late, and the round in the next stretch has 1
    and 2 out of it (1's page leaves out its code, its timestamps in doubt; 2 is reloading, not in
    step on its new connection): 3 alone is heard, which says nothing of where the group plays.
    It is not set (it would stay 40 ms off the group, as the benchmark heard), stays silent and
    is due again; the next round, with 1 in it, brings it to 1."""

    now = [100.0]
    said: list[str] = []
    server = MemoryBox({3: 30}, lambda: now[0], connected={1: 10, 2: 21, 3: 30}, delays={1: 0, 2: 210, 3: 0})
    server.left_out = {1}
    later = {1: 0.040, 3: 0.0}  # 1 behind a speaker 40 ms later than 3's (its delay 0 holds the group there)

    listener = hearing(server, later, now, said)
    listener.set, listener.listened = {1, 2}, {(1, 10), (2, 20)}
    heard = listener.round()
    codes = server.codes
    assert set(server.told[-1][1]) == {1, 3} and set(codes) == {3} and heard is not None and heard.late == {}, \
        (codes, heard)
    assert server.set == {} and (3, 30) not in listener.listened and listener.due(), (server.set, listener.listened)
    assert any("heard tablet 3 but none of the tablets it had set" in line for line in said), said
    server.ready = {1: 10, 3: 30}  # 1 in step again
    server.left_out.clear()
    heard = listener.round()
    assert set(codes) == {1, 3} and server.set == {1: 0, 3: -40}, (heard, server.set)
    assert (3, 30) in listener.listened and not listener.due()


def test_a_tablet_set_before_and_in_doubt_as_a_round_begins_is_still_told_to_play():
    """Tablet 3, set by a round before, drifts 50 ms; the ear asks for a round, and as it begins
    3's page has just reported its timestamps in doubt (they come and go while a page plays). It
    is told all the same (its page places each play a moment before it, and leaves out one it
    cannot place): left out, it counted as listened to and was never heard again, and the night
    stayed 50 ms apart (the --listen rig test, once). Tablet 4, new to the rounds and out of step
    as the round begins, is still left out of it. A tablet set before whose page leaves out its
    code is listened to again, as a new one is."""

    now = [100.0]
    said: list[str] = []
    server = MemoryBox({1: 10, 2: 20}, lambda: now[0], connected={1: 10, 2: 20, 3: 30, 4: 40},  # (as the round begins:
                 delays={1: 0, 2: 0, 3: 0, 4: 0})  # 3 in doubt, 4 too)
    later = {1: 0.0, 2: 0.0, 3: 0.050}
    listener = hearing(server, later, now, said)
    listener.set, listener.listened = {1, 2, 3}, {(1, 10), (2, 20), (3, 30)}
    heard = listener.round(ready={1: 10, 2: 20, 3: 30, 4: 40}, first=now[0] + 5.0)  # (in step as it was found)
    assert set(server.codes) == {1, 2, 3}, server.codes
    assert heard is not None and heard.missing == () and server.set == {1: 0, 2: 0, 3: 50}, (heard, server.set)
    assert not listener.due()
    # Still in doubt as its plays come, the page leaves them out: not missed, and heard again at the
    # next quiet moment (it counted as listened to, and would not have been)
    server.left_out.add(3)
    server.ready = {1: 10, 2: 20}
    heard = listener.round(ready={1: 10, 2: 20, 3: 30}, first=now[0] + 5.0)
    assert heard.missing == () and set(heard.late) == {1, 2} and server.set[3] == 50, (heard, server.set)
    server.ready = {1: 10, 2: 20, 3: 30}
    assert listener.due()


def test_a_tablet_that_reloads_while_a_round_plays_is_not_named_as_missed():
    """Tablet 2 is told to play its code and its page reloads before the code is due: its silence
    says nothing of its sound. It is not named as missed (the laptop said its sound was down, in
    the benchmark's night that reloads a tablet in a round); tablet 1 is set as usual, and the
    reloaded page, on its new connection, is listened to once it is in step."""

    now = [100.0]
    said: list[str] = []
    server = MemoryBox({1: 10, 2: 20}, lambda: now[0], delays={1: 0, 2: 0})

    def reload():  # 2 reloads as the round plays: it plays none of its code
        server.ready = {1: 10, 2: 21}
        del server.codes[2]

    server.on_told = reload
    listener = hearing(server, {1: 0.0}, now, said)
    heard = listener.round()
    assert heard is not None and set(heard.late) == {1} and heard.missing == (), heard
    assert server.missed == [()] and not any("did not hear" in line for line in said), (server.missed, said)
    assert listener.due()  # (2 on its new connection)


def test_a_tablet_whose_page_left_out_its_code_is_not_missed_but_listened_to_again_once():
    """A page whose output timestamps fall in doubt as its code is due leaves the code out and says
    so: its silence says nothing of its sound. It is not named as missed (it would play as it is,
    as far off as its speaker: measured 210 ms for 37 s), it stays silent and is due again; a
    second round hears and sets it. Once per connection: the same page leaving out its code
    again is missed as any other, so that a page ever in doubt does not ask round after round."""

    now = [100.0]
    said: list[str] = []
    server = MemoryBox({1: 10, 2: 20}, lambda: now[0])
    server.left_out = {2}
    later = {1: 0.0, 2: 0.210}  # 2 behind a speaker 210 ms later than its page can see

    listener = hearing(server, later, now, said)
    heard = listener.round()
    assert heard is not None and set(heard.late) == {1} and heard.missing == (), heard
    assert server.missed == [()] and (2, 20) not in listener.listened and listener.due(), (server.missed, listener.listened)
    assert any("Tablet 2 could not place its hiss" in line for line in said), said
    assert not any("did not hear" in line for line in said), said
    server.left_out.clear()  # steady now: it plays its code
    heard = listener.round()
    assert set(heard.late) == {1, 2} and server.set == {1: 0, 2: 210}, (heard, server.set)
    assert not listener.due()
    server.ready = {1: 10, 2: 21}  # reloaded: a new connection, in doubt at its round, then again
    server.left_out.add(2)
    heard = listener.round()
    assert heard.missing == () and listener.due()
    heard = listener.round()
    assert heard.missing == (2,) and server.missed[-1] == (2,) and not listener.due(), (heard, server.missed)
    assert any("did not hear tablet 2" in line for line in said), said


def test_a_tablet_set_by_plays_in_doubt_is_listened_to_again_once_its_timestamps_hold_still():
    """A page that has just joined plays its code with its timestamps in doubt by a little (they
    step a few ms one way for seconds): the tablet is set by what was heard, plays meanwhile, and
    is listened to again once its page says its timestamps hold still, not before (heard again
    while they step, it would be as far off). Once per connection: in doubt again at that round,
    it is taken as heard."""
    now = [100.0]
    said: list[str] = []
    server = MemoryBox({1: 10, 2: 20}, lambda: now[0])
    server.in_doubt = {2}
    later = {1: 0.0, 2: 0.205}  # (a play in doubt heard 5 ms off the 210 ms its speaker adds)

    listener = hearing(server, later, now, said)
    heard = listener.round()
    assert set(heard.late) == {1, 2} and server.set == {1: 0, 2: 205}, (heard, server.set)
    assert (2, 20) not in listener.listened and (1, 10) in listener.listened, listener.listened
    assert any("Tablet 2 was set while its sound was still settling" in line for line in said), said
    assert not listener.due() and listener.awaiting_steady() == {(2, 20)}  # (its timestamps still step: not yet)
    server.in_doubt.clear()  # they hold still: its page says so
    assert listener.due()
    later[2] = 0.005  # (it plays 205 ms earlier now: its speaker's 210 ms less its delay)
    heard = listener.round()
    assert set(heard.late) == {1, 2} and server.set[2] == 210 and not listener.due(), (heard, server.set)
    assert listener.awaiting_steady() == set()
    assert sum("still settling" in line for line in said) == 1, said
    server.ready = {1: 10, 2: 21}  # reloaded: a new connection, in doubt at its round, then again
    server.in_doubt.add(2)
    listener.round()
    assert not listener.due() and (2, 21) not in listener.listened
    server.in_doubt.clear()
    listener.round()
    assert (2, 21) in listener.listened and not listener.due()
    server.in_doubt.add(2)  # (in doubt at every round after: taken as heard, no round asked for)
    listener.round()
    assert (2, 21) in listener.listened and not listener.due()


def test_a_game_that_ends_stops_the_listening_at_once():
    """narrate exits at the game's end: a round waiting for its stretch gives up (no tablet is told
    to play), a watch under way ends, and nothing begins after (an input stream left open would
    make PortAudio's shutdown at exit wait for ever)."""
    from narrator.shell.speakerbox.listen import Listener

    told: list = []

    class Server:
        def ready_tablets(self, settled):
            return {1: 10}

        def connected_tablets(self):
            return {1: 10}

        def play_codes(self, moments):
            told.append(moments)

        def still_in_doubt(self):
            return set()

        def listening(self, ask):
            pass

        signed, night_id = None, "a night"  # (its nights are not signed)

        def sign_nights(self):
            pass

    listener = Listener(Server(), time.monotonic, lambda text: None, lambda text: None,
                        recorder=lambda seconds, clock: (np.zeros(int(seconds * RATE), dtype=np.float32), clock()))
    listener.during(lambda seconds, earliest: earliest + 30.0)  # a stretch half a minute ahead
    assert listener.busy()
    began = time.monotonic()
    listener.stop()
    assert time.monotonic() - began < 2.0 and not listener.busy() and told == []
    listener.ask()
    listener.tick()
    listener.watch(lambda: (np.zeros(RATE, dtype=np.float32), RATE, 0.0))
    assert not listener.busy() and told == []


@pytest.mark.parametrize("keep_an_ear", [True, False])
def test_the_ear_on_the_night_records_only_when_kept(keep_an_ear):
    """Between rounds the laptop hears stretches of the playing night (``watch``), unless it is made
    without its ear (``keep_an_ear=False``: rounds alone, as a benchmark compares)."""
    from narrator.shell.speakerbox.listen import Listener

    recorded: list = []

    class Server:
        def ready_tablets(self, settled):
            return {1: 10}

        def listening(self, ask):
            pass

        signed, night_id = None, "a night"  # (its nights are not signed)

        def sign_nights(self):
            pass

    def recorder(seconds, clock):
        recorded.append(seconds)
        return np.zeros(int(seconds * RATE), dtype=np.float32), clock()

    listener = Listener(Server(), time.monotonic, lambda text: None, lambda text: None, recorder=recorder,
                        keep_an_ear=keep_an_ear)
    listener.watch(lambda: (np.zeros(RATE, dtype=np.float32), RATE, 0.0))
    listener.wait()  # (the stretch heard, when one was)
    assert bool(recorded) is keep_an_ear and listener.watching is keep_an_ear, recorded


def test_codes_are_found_under_the_night_s_drums():
    """A round played while a night plays sounds over its bed: the drums at four times their level,
    the codes quieter than that (a tablet across the room), each is found to the sample."""
    from narrator.shell.audio.beds import drums
    from narrator.shell.speakerbox.listen import schedule

    bed = drums(RATE).samples
    recording = np.tile(bed, 1 + 12 * RATE // len(bed))[: 12 * RATE] * 4.0
    moments = schedule([1, 2, 3], 1.0)
    late = {1: 0.0, 2: 0.040, 3: 0.250}
    for number, plays in moments.items():
        for moment in plays:
            place(recording, arrivals.code(number, RATE), moment + late[number], gain=0.3)
    heard = arrivals.listen(recording, RATE, 0.0, moments)
    assert heard.missing == () and heard.late == pytest.approx(late, abs=1e-4)


def test_before_the_night_tablets_joining_together_are_heard_in_one_round():
    """While the box waits for Start, a round that falls due as one tablet is in step waits for the
    others still coming into step (connected, never listened to), GATHER at most: one round for
    the table rather than a round each (the last one then waits out the round before its own).
    A tablet that never comes does not hold it longer; the controls page's Listen and the Start
    do not wait."""
    from narrator.shell.speakerbox.listen import GATHER, Listener

    now = [100.0]
    rounds: list = []

    class Server:
        ready: dict = {1: 10}
        connected = {1, 2, 3}

        def ready_tablets(self, settled):
            return dict(self.ready)

        def connected_tablets(self):
            return {number: number * 10 for number in self.connected}

        def still_in_doubt(self):
            return set()

        def listening(self, ask):
            pass

        signed, night_id = None, "a night"  # (its nights are not signed)

        def sign_nights(self):
            pass

    def began(tick) -> list | None:
        """Which tablets were ready for the round that ``tick()`` began, or None: none began."""
        count = len(rounds)
        tick()
        if listener._thread is not None:
            listener._thread.join(10)
        return rounds[-1] if len(rounds) > count else None

    server = Server()
    listener = Listener(server, lambda: now[0], lambda text: None, lambda text: None)
    listener.round = lambda first=None, ready=None: rounds.append(sorted(server.ready))  # (the round itself: above)
    assert began(listener.tick) is None  # 1 is in step, 2 and 3 are coming: it waits for them
    now[0] += GATHER - 0.5
    server.ready = {1: 10, 2: 20, 3: 30}
    assert began(listener.tick) == [1, 2, 3]  # one round for the three
    listener.listened |= {(1, 10), (2, 20), (3, 30)}

    server.connected, server.ready = {1, 2, 3, 4, 5}, {1: 10, 2: 20, 3: 30, 4: 40}  # 4 in step; 5 never comes
    assert began(listener.tick) is None
    now[0] += GATHER / 2
    assert began(listener.tick) is None
    now[0] += GATHER / 2
    assert began(listener.tick) == [1, 2, 3, 4]  # not held longer than GATHER
    listener.listened.add((4, 40))

    server.ready, server.connected = {1: 10, 2: 20, 3: 30, 4: 40, 6: 60}, {1, 2, 3, 4, 5, 6}
    listener.ask()  # the controls page's Listen does not wait
    assert began(listener.tick) == [1, 2, 3, 4, 6]
    listener.listened.add((6, 60))
    server.ready[7], server.connected = 70, {1, 2, 3, 4, 5, 6, 7}
    assert began(listener.now) == [1, 2, 3, 4, 6, 7]  # nor the Start (or a quiet moment between two turns)


SET = {1, 2, 3}  # (the tablets a round set)


@pytest.mark.parametrize(("steady_from", "reckons", "upset", "rounded", "nudged"), [
    (0.0, 0.0, {}, SET, [(104.0, 3, True)]),
    (103.5, 0.003, {}, SET, [(106.0, 3, True)]),
    (103.5, 0.0, {}, SET, [(104.0, 3, True)]),
    (np.inf, None, {}, SET, [(104.0, 3, False), (108.0, 3, False), (112.0, 3, False), (116.0, 3, False)]),
    (0.0, 0.0, {104.0: "missing"}, SET, [(106.0, 3, True)]),  # paired with the read before the one missing...
    (0.0, 0.0, {104.0: "wrong"}, SET, [(106.0, 3, True)]),  # ...or wrong
    (0.0, 0.0, {104.0: "missing", 106.0: "missing"}, SET, [(110.0, 3, True)]),  # (not with one 6 s before: PAIRED)
    (103.5, 0.003, {104.0: "missing"}, SET, [(108.0, 3, True)]),  # (steady from its pair's first read: 106)
    # Set with tablet 3 alone of those whose page steered all along (1's never believes its
    # timestamps): 3 holds the group, though 1 is the earlier.
    (0.0, 0.0, {}, {1, 3}, [(104.0, 1, False), (104.0, 2, True), (108.0, 1, False), (112.0, 1, False),
                            (116.0, 1, False)]),
])
def test_the_ear_reads_each_tablet_by_its_signature_and_moves_one_off_the_others_once(steady_from, reckons, upset,
                                                                                         rounded, nudged):
    """The laptop's ear on a signed night (made-up room: three tablets, tablet 3 6.25 ms later than
    the others, a fourth that plays its night unsigned, a microphone whose clock is 120 parts per
    million fast): it finds the microphone's clock, reads tablets 1-3 where they are, moves tablet
    3 by what it is off once two reads agree, and leaves it to get there; here it never does (the
    room stays as it is), and a tablet still where it was when moved is not moved again (that would
    take it twice as far once its page does). Tablet 4 is never read, and nobody else is moved.
    Tablet 3's delay is set by the first two reads heard while its page believed its timestamps
    (``steady_from``), not later than those two allow (a tablet that has just joined); by one heard
    before only where the page, believing them now, finds itself in step by them (``reckons``,
    seconds ahead): else it may correct itself. A page that never believes them has its course
    moved instead (its delay left), by the same two reads, and again once it has had time to get
    there (6.25 ms: at once, a cross-fade) and two reads find it still where it was. The others are held where the tablets a round set
    (``rounded``) whose page steered all along are (tablet 1's never steers where tablet 3 is
    set without tablet 2). A read of tablet 3 missing or wrong (``upset``: its
    signature left out, or 100 ms off, in the stretch heard at that time) is passed over: the next
    is paired with the one before it."""
    import soxr
    from test_drift import a_night

    from narrator.core import signatures
    from narrator.shell.speakerbox.listen import RATE, Listener

    served_rate, skew = 24000, 120e-6
    night = soxr.resample(spoken(a_night(40.0, RATE, voice=((1.0, 39.0),)), RATE), RATE, served_rate)  # (voice throughout)
    signed = {number: signatures.signature(number, night, served_rate) for number in (1, 2, 3)}
    late = {1: 0.030, 2: 0.030, 3: 0.03625, 4: 0.030}  # (seconds, on the laptop's clock)
    room = sum(np.roll(soxr.resample(night + (signed[number] if number in (1, 2) else 0), served_rate, RATE),
                       round(lag * RATE)) for number, lag in late.items())
    mark = soxr.resample(signed[3], served_rate, RATE)  # (tablet 3's signature: left out or moved where upset)
    shifted = {"missing": None, "wrong": late[3] + 0.1}
    began, now = 100.0, [100.0]
    steadies = {1: np.inf if rounded == {1, 3} else 0.0, 2: 0.0, 3: steady_from, 4: 0.0}  # (since when each page
    # has believed its timestamps)
    moved: list = []
    course: list = []

    class Server:
        signed, night_id = True, "tonight"

        def ready_tablets(self, settled):
            return self.connected_tablets()

        def connected_tablets(self):
            return {1: 10, 2: 20, 3: 30, 4: 40}

        def listening(self, ask):
            pass

        def sign_nights(self):
            pass

        def signature(self, number):
            return (self.night_id, signed[number], served_rate) if number in signed else \
                (self.night_id, 0 * night, served_rate)

        def delays(self):
            return {}

        def steady_tablets(self, settled):
            return {number for number, since in steadies.items() if now[0] - since >= settled}

        def reckoned(self, since):
            return {number: 0.0 for number, since in steadies.items() if since < np.inf and number != 3} | \
                ({3: reckons} if reckons is not None else {})

        def set_delay(self, number, ms):
            moved.append((number, ms))

        def heard_off(self, number, seconds):
            course.append((number, seconds))

    def record(seconds, clock):
        start = clock()
        now[0] += seconds
        first = round((start - began) * RATE)
        lag = shifted[upset[start]] if start in upset else late[3]
        stretch = room[first: first + round(seconds * RATE)] + \
            (np.roll(mark, round(lag * RATE))[first: first + round(seconds * RATE)] if lag is not None else 0)
        return soxr.resample(stretch, RATE, RATE * (1 + skew)), start  # (the microphone's own clock: more samples)

    listener = Listener(Server(), lambda: now[0], lambda text: None, lambda text: None, recorder=record)
    listener.set = rounded  # (set by a round before)
    for at in np.arange(102.0, 120.0, 2.0):  # (a second and a half heard every two)
        now[0] = at
        listener.watch(lambda: (night, served_rate, began))
        listener.wait()
    assert listener.skew == pytest.approx(skew, abs=signatures.SKEW_STEP)
    reads = [read for at, read in listener.signed_ear if at not in upset]
    assert len(listener.signed_ear) == 9 and all(set(read) == {1, 2, 3} for read in reads), reads
    assert all(read[1] == pytest.approx(0.030, abs=1e-4) and read[3] == pytest.approx(0.03625, abs=1e-4)
               for read in reads), reads
    for at, read in listener.signed_ear:
        if at in upset:  # (none, or far from where it is)
            assert 3 not in read if upset[at] == "missing" else abs(read.get(3, 1.0) - late[3]) > 0.05, (at, read)
    assert [(at, number, delay) for at, number, _, delay in listener.nudged] == nudged
    off = {1: -0.00625, 2: -0.00625} if rounded == {1, 3} else {3: 0.00625}  # (later: positive)
    assert [(number, ms / 1000) for number, ms in moved] == \
        [(number, pytest.approx(off[number], abs=1e-4)) for _, number, delay in nudged if delay], moved
    assert course == [(number, pytest.approx(off[number], abs=1e-4)) for _, number, delay in nudged if not delay]


def test_a_laptop_whose_microphone_fails_serves_the_nights_unsigned_until_listen_is_pressed():
    """The ear signs the nights for itself to read (``Listener(keep_an_ear=True)``); once the
    microphone fails (the tablets play as they are) a signature would be a hiss nobody reads, so
    the nights are served as they are, until the controls page's Listen tries the microphone
    again."""
    from narrator.core.errors import NarratorError
    from narrator.core.i18n import msg
    from narrator.shell.speakerbox.listen import RATE, Listener
    from narrator.shell.speakerbox.server import BoxServer
    from narrator.shell.speakerbox.state import Box

    box = Box(night_length=10.0, phases=[(0.0, "Nightfall")], clock=lambda: 100.0)
    server = BoxServer(box, b"RIFF-night", {}, lambda: 100.0, lambda action: None, host="127.0.0.1", port=0)
    warned: list = []

    def no_microphone(seconds, clock):
        raise NarratorError(msg("no input device"))

    listener = Listener(server, lambda: 100.0, lambda text: None, warned.append, recorder=no_microphone)
    assert server.signed is not None
    listener._watch(lambda: (np.zeros(RATE, dtype=np.float32), RATE, 99.0))  # (a stretch of the night)
    assert listener.broken and server.signed is None and len(warned) == 1
    server.listen()  # the controls page's Listen
    assert not listener.broken and server.signed is not None
    quiet = Listener(BoxServer(box, b"RIFF-night", {}, lambda: 100.0, lambda action: None), lambda: 100.0,
                     lambda text: None, warned.append, keep_an_ear=False)
    quiet.ask()
    assert quiet.server.signed is None  # (no ear: never signed)
