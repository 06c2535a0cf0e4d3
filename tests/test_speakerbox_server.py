"""The speaker box's server on 127.0.0.1: its assets, its refusals, its WebSocket, many clients."""

import asyncio
import json
import re
import time
from pathlib import Path

import aiohttp
import pytest

import narrator.shell.speakerbox.server
from narrator.shell.speakerbox.server import BoxServer
from narrator.shell.speakerbox.state import Box, Playhead

LIMIT = 1.0  # the seconds a peer has to send a request whole, or to take a message (5 s when narrate runs)


@pytest.fixture
def server():
    actions = []
    box = Box(night_length=10.0, phases=[(0.0, "Nightfall"), (2.0, "Lupi Mannari")], clock=time.monotonic)
    served = BoxServer(box, b"RIFF-night", {"day.vote": b"RIFF-vote"}, time.monotonic, actions.append,
                       host="127.0.0.1", port=0, token="secret-token", request_seconds=LIMIT, send_seconds=LIMIT)
    box.on_change = served.broadcast
    served.start()
    served.actions = actions
    yield served
    served.stop()


def url(server, path=""):
    return f"http://127.0.0.1:{server.port}{path}"


async def get(server, path, method="GET"):
    async with aiohttp.ClientSession() as session, session.request(method, url(server, path)) as response:
        return response.status, await response.read(), response.headers.get("Content-Type", "")


def fetch(server, path, method="GET"):
    return asyncio.run(get(server, path, method))


def test_serves_its_page_and_assets(server):
    status, body, kind = fetch(server, "/")
    assert (status, kind) == (200, "text/html") and b"Tap to join" in body
    assert fetch(server, "/box.js")[0] == 200 and fetch(server, "/box.css")[0] == 200
    assert fetch(server, "/night.wav")[1] == b"RIFF-night"
    assert fetch(server, "/clips/day.vote.wav")[1] == b"RIFF-vote"


def test_the_page_is_in_the_language_it_is_given():
    from narrator.shell.speakerbox.page import PAGE_TEXTS, filled_page, page_texts
    from narrator.shell.translation import load_catalog

    catalog = load_catalog("it")
    template = (Path(narrator.shell.speakerbox.server.__file__).parent / "static" / "index.html").read_text()
    page = filled_page(template, "it", catalog).decode()
    assert '<html lang="it">' in page and ">Tocca per unirti<" in page and ">Via<" in page
    assert "{{" not in page and "Tap to join" not in page
    words = json.loads(re.search(r'<script id="texts" type="application/json">(.*?)</script>', page)[1])
    assert words == page_texts(catalog) and set(words) == set(PAGE_TEXTS)
    assert words["lost"] == "Connessione persa"


def test_the_page_words_cannot_break_out_of_the_page():
    from narrator.shell.speakerbox.page import filled_page

    class Hostile:
        def gettext(self, message):
            return "</script><b>&" + message

    page = filled_page("<p>{{join}}</p><script>{{texts}}</script>", "x\"y", Hostile()).decode()
    assert "<b>" not in page.split("<script>")[0] and "&lt;/script&gt;&lt;b&gt;&amp;" in page
    assert page.count("</script>") == 1  # only the page's own


@pytest.mark.parametrize("path", ["/server.py", "/../server.py", "/%2e%2e/server.py", "/static/index.html",
                                  "/..%2f..%2fetc/passwd", "/clips/../state.py", "/clips/nope.wav",
                                  "/box.js/../../state.py", "/index.html"])
def test_nothing_but_its_own_assets(server, path):
    status, body, _ = fetch(server, path)
    assert status == 404
    assert b"import" not in body and b"root:" not in body


def test_malformed_requests_get_4xx_and_the_server_carries_on(server):
    assert fetch(server, "/ws")[0] == 400  # not a WebSocket handshake
    assert fetch(server, "/", method="POST")[0] == 405
    assert fetch(server, "/", method="DELETE")[0] == 405
    assert fetch(server, "/")[0] == 200


async def talk(server, *messages, token_messages=()):
    """Connect, read the greeting, send messages; return everything the server answered."""
    answers = []
    async with aiohttp.ClientSession() as session, session.ws_connect(url(server, "/ws")) as ws:
        answers.append(json.loads((await ws.receive()).data))
        for message in messages:
            await ws.send_str(message if isinstance(message, str) else json.dumps(message))
            try:
                answers.append(json.loads((await ws.receive(timeout=1)).data))
            except asyncio.TimeoutError:
                answers.append(None)
    return answers


def test_a_tablet_is_told_the_state_and_the_time(server):
    greeting, pong = asyncio.run(talk(server, {"type": "ping", "sent": 12.5}))
    assert greeting["type"] == "state" and greeting["stage"] == "waiting"
    assert greeting["night"]["length"] == 10.0
    # the parts' names (a turn is named after its character) are for the laptop's pages only
    assert [p["label"] for p in greeting["night"]["phases"]] == ["", ""]
    assert pong["type"] == "pong" and pong["sent"] == 12.5
    assert abs(pong["server"] - time.monotonic()) < 1


@pytest.mark.parametrize("message, error", [
    ("not json at all", "not a message this server understands"),
    ('["a", "list"]', "not a message this server understands"),
    ({"kind": "ping"}, "not a message this server understands"),
    ({"type": "dance"}, "no message type 'dance'"),
    ({"type": "control", "action": "start"}, "only the laptop controls the game"),
    ({"type": "control", "action": "start", "token": "guess"}, "only the laptop controls the game"),
    ({"type": "control", "action": "start", "token": 12}, "only the laptop controls the game"),
    ({"type": "control", "action": "explode", "token": "secret-token"}, "no action 'explode'"),
])
def test_bad_messages_are_answered_and_change_nothing(server, message, error):
    answers = asyncio.run(talk(server, message, {"type": "ping", "sent": 1}))
    assert answers[1] == {"type": "error", "message": error}
    assert answers[2]["type"] == "pong"  # still talking
    assert server.actions == []
    assert server.box.stage == "waiting"


def test_only_the_token_controls_the_game(server):
    asyncio.run(talk(server, {"type": "control", "action": "start", "token": "secret-token"}))
    assert server.actions == ["start"]


def test_an_oversized_message_closes_that_client_only(server):
    async def scenario():
        async with aiohttp.ClientSession() as session:
            async with session.ws_connect(url(server, "/ws")) as ws:
                await ws.receive()
                await ws.send_str("x" * 100_000)
                closing = await ws.receive(timeout=2)
                assert closing.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED, aiohttp.WSMsgType.CLOSING)
        return await talk(server, {"type": "ping", "sent": 2})

    assert asyncio.run(scenario())[1]["type"] == "pong"


def test_many_tablets_all_hear_every_change(server):
    async def scenario(count=60):
        async with aiohttp.ClientSession() as session:
            sockets = [await session.ws_connect(url(server, "/ws")) for _ in range(count)]
            for ws in sockets:
                assert json.loads((await ws.receive(timeout=2)).data)["stage"] == "waiting"
            server.box.start_night()
            stages = [json.loads((await ws.receive(timeout=2)).data)["stage"] for ws in sockets]
            for ws in sockets:
                await ws.close()
            return stages

    assert asyncio.run(scenario()) == ["night"] * 60


def test_the_playhead():
    head = Playhead()
    head.start_at(100.0, 0.0)
    assert head.position(99.5) == -0.5 and head.position(103.0) == 3.0
    head.hold(103.0)
    assert head.position(500.0) == 3.0 and not head.running
    head.start_at(501.0, head.anchor_offset)
    assert head.position(502.0) == 4.0


def test_a_pause_is_set_ahead_and_the_resume_goes_on_from_exactly_there():
    head = Playhead()
    head.start_at(10.0, 0.0)
    head.stop_at(12.0)
    assert head.position(11.0) == 1.0 and head.position(12.0) == 2.0 and head.position(99.0) == 2.0
    head.stop_at(5.0)  # a pause asked for before the start stops it at its first sample
    assert head.stop_time == 10.0 and head.position(20.0) == 0.0


def test_box_stages_move_only_forward():
    now = [0.0]
    changes = []
    box = Box(10.0, [], lambda: now[0], on_change=lambda: changes.append(box.stage))
    assert box.actions() == ["start"]
    box.toggle_pause()  # nothing to pause yet
    box.start_night(lead=0.5)
    box.start_night(lead=0.5)  # a second start changes nothing
    assert changes == ["night"] and box.playhead.anchor_time == 0.5
    assert box.actions() == ["pause", "next"]
    assert box.night_moves() == 0.5  # its sample 0 at box time 0.5
    now[0] = 5.0
    box.pause(lead=0.4)
    box.pause(lead=0.4)  # already paused: nothing new
    assert box.actions() == ["resume", "next"]
    assert box.night_moves() is None  # set to pause: no stretch ahead is known
    assert box.night_position() == 4.5  # it plays on until the pause's moment...
    now[0] = 7.0
    assert box.night_position() == pytest.approx(4.9)  # ...and stands still from there
    box.resume(lead=0.4)
    assert box.playhead.anchor_time == 7.4 and box.playhead.anchor_offset == pytest.approx(4.9)
    assert box.night_moves() == pytest.approx(2.5)  # resumed: the night as if it had begun 4.9 s before 7.4
    now[0] = 8.4
    assert box.night_position() == pytest.approx(5.9)
    box.toggle_pause(lead=0.25)
    box.toggle_pause(lead=0.25)  # taken back before its moment: it plays on, from where it would have stopped
    assert box.playhead.stop_time is None and box.night_position() == pytest.approx(5.9)
    now[0] = 15.0
    assert box.night_over() and box.actions() == []
    box.skip_night()  # dawn at once
    assert box.night_over() and box.playhead.anchor_offset == 10.0
    box.show_day(20.0, None, False)
    box.show_day(20.0, None, False)  # the same again is not news
    assert box.actions() == ["pause", "next"]
    box.show_day(None, 12.0, False)
    assert box.actions() == ["resume", "next"]
    box.show_day(None, 0, True)
    assert box.actions() == []
    box.show_result(["Dario is lynched."], final=False)
    assert box.snapshot()["final"] is False
    box.show_result(["Winners: Anna."])
    assert changes == ["night"] * 6 + ["day", "day", "day", "result", "result"]
    snapshot = box.snapshot()
    assert snapshot["result"] == ["Winners: Anna."] and snapshot["final"] is True and snapshot["actions"] == []


def test_a_port_in_use_is_one_line(tmp_path):
    import socket
    import subprocess
    import sys

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        process = subprocess.run([sys.executable, "-m", "narrator", "serve", "--players", "3", "--host", "127.0.0.1",
                                  "--port", str(port), "--no-ambience"], capture_output=True, text=True, timeout=60,
                                 stdin=subprocess.DEVNULL, env={**__import__("os").environ,
                                                                "XDG_CACHE_HOME": str(tmp_path)})
    assert process.returncode == 2
    assert process.stderr == (f"narrate: non posso servire su 127.0.0.1:{port} (indirizzo già in uso): "
                              "scegli un'altra --port\n")  # the C locale: Italian


# --- A real network's clients ----------------------------------------------------------------------

def test_odd_messages_get_an_answer_and_nothing_on_the_laptop(server, capfd):
    answers = asyncio.run(talk(server, {"type": "control", "token": "ééé", "action": "start"},
                               "[" * 2000 + "]" * 2000, "[1, 2]", {"type": ["x"]}, "\"just text\"",
                               {"type": "control", "token": "secret-token", "action": {"nested": 1}}))
    assert [answer["type"] for answer in answers[1:]] == ["error"] * 6
    assert answers[1]["message"] == "only the laptop controls the game"
    assert server.actions == []
    assert capfd.readouterr().err == ""


def test_a_half_sent_request_is_closed(server):
    import socket

    started = time.monotonic()  # before connecting: the server's time runs from its accept
    with socket.create_connection(("127.0.0.1", server.port)) as client:
        client.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")  # and the rest never comes
        client.settimeout(30)
        assert client.recv(100) == b""
        assert LIMIT <= time.monotonic() - started < LIMIT + 5


def test_a_malformed_request_line_is_at_most_one_line_on_the_laptop(server, capfd):
    import socket

    with socket.create_connection(("127.0.0.1", server.port)) as client:
        client.sendall(b"\x16\x03\x01\x02\x00 not http at all\r\n\r\n")
        client.settimeout(10)
        assert client.recv(100).startswith(b"HTTP/1.")
    time.sleep(0.2)
    assert "Traceback" not in capfd.readouterr().err
    assert fetch(server, "/")[0] == 200


@pytest.mark.parametrize("headers", [{"Origin": "http://evil.example"}, {"Host": "evil.example"},
                                     {"Host": "rebound.example:8765"}])
def test_sockets_from_other_sites_or_names_are_refused(server, headers):
    async def connect():
        async with aiohttp.ClientSession() as session:
            with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
                await session.ws_connect(url(server, "/ws"), headers=headers)
            return refused.value.status

    assert asyncio.run(connect()) == 403


def test_the_own_page_and_a_tablet_by_address_may_connect(server):
    async def connect(headers):
        async with aiohttp.ClientSession() as session, session.ws_connect(url(server, "/ws"), headers=headers) as ws:
            return json.loads((await ws.receive()).data)["type"]

    assert asyncio.run(connect({"Origin": f"http://127.0.0.1:{server.port}"})) == "state"
    assert asyncio.run(connect({"Host": f"localhost:{server.port}", "Origin": f"http://localhost:{server.port}"})) \
        == "state"


def test_a_tablet_that_stops_reading_is_dropped_and_holds_nobody_up():
    """A tablet that reads nothing is cut off once a message has waited on it SEND seconds, and
    another tablet takes every message meanwhile: it has them all while the stalled one is still
    connected, so it waited on nothing of it. (No hello is needed here: a socket that never says
    one is let go by its own timer, which would hide this one. SEND is longer than a loaded
    machine takes to pass 12 MB between two of its own sockets: with 1 s the reading tablet was
    once cut off too, in a full run.)"""
    import socket

    send = 6.0
    box = Box(night_length=10.0, phases=[(0.0, "Nightfall")], clock=time.monotonic)
    server = BoxServer(box, b"RIFF-night", {}, time.monotonic, lambda action: None, host="127.0.0.1", port=0,
                       send_seconds=send, hello_seconds=600.0)
    box.on_change = server.broadcast
    server.start()
    try:
        stalled = socket.create_connection(("127.0.0.1", server.port))
        stalled.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        stalled.sendall(b"GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                        b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")
        time.sleep(0.3)  # upgraded; from now on it reads nothing

        async def listen():
            received = 0
            async with aiohttp.ClientSession() as session, session.ws_connect(url(server, "/ws")) as ws:
                await ws.receive()
                for _ in range(12):
                    server.broadcast({"type": "padding", "text": "x" * 1_000_000})
                while received < 12:
                    message = await ws.receive(timeout=send)
                    assert message.type == aiohttp.WSMsgType.TEXT, message  # (not cut off itself)
                    received += json.loads(message.data)["type"] == "padding"
                return server.connected()

        assert asyncio.run(listen()) == 2  # all 12 taken while the stalled tablet still held its place
        deadline = time.monotonic() + send + 15
        while server.connected():
            assert time.monotonic() < deadline, "the stalled tablet was never cut off"
            time.sleep(0.1)
        stalled.close()
    finally:
        server.stop()


def test_every_state_names_the_night_and_the_audio_says_which_it_is(server):
    greeting = asyncio.run(talk(server))[0]
    assert greeting["night_id"] == server.night_id and len(server.night_id) == 16

    async def night_header():
        async with aiohttp.ClientSession() as session, session.get(url(server, "/night.wav")) as response:
            return response.headers["X-Night-Id"], response.headers["Cache-Control"]

    assert asyncio.run(night_header()) == (server.night_id, "no-store")
    other = BoxServer(server.box, b"RIFF", {}, time.monotonic, lambda action: None, port=0)
    assert other.night_id != server.night_id


def test_another_night_is_new_audio_and_a_fresh_wait_for_start(server):
    first = server.night_id
    server.box.start_night(lead=0.0)
    server.box.show_result(["Daniela is lynched."])
    server.load_night(b"RIFF-night-two")
    server.box.new_night(4.0, [(0.0, "Veggente")])
    state = asyncio.run(talk(server))[0]
    assert state["night_id"] == server.night_id != first
    assert (state["stage"], state["result"], state["night"]["length"], state["night"]["running"]) == (
        "waiting", None, 4.0, False)
    assert fetch(server, "/night.wav")[1] == b"RIFF-night-two"
    server.add_clip("said-1", b"RIFF-name")
    assert fetch(server, "/clips/said-1.wav")[1] == b"RIFF-name"


def test_every_state_lists_the_lines_the_tablets_fetch_ahead(server):
    assert asyncio.run(talk(server))[0]["clips"] == ["day.vote"]
    server.add_clip("said-1", b"RIFF-name")
    assert asyncio.run(talk(server))[0]["clips"] == ["day.vote", "said-1"]


def test_stopping_says_goodbye_to_every_page_at_once():
    box = Box(night_length=10.0, phases=[(0.0, "Nightfall")], clock=time.monotonic)
    served = BoxServer(box, b"RIFF-night", {}, time.monotonic, lambda action: None, host="127.0.0.1", port=0)
    served.start()

    async def connected_while_it_stops():
        async with aiohttp.ClientSession() as session:
            pages = [await session.ws_connect(url(served, "/ws")) for _ in range(3)]
            for page in pages:
                await page.receive()  # the state: connected
            began = time.monotonic()
            await asyncio.get_running_loop().run_in_executor(None, served.stop)
            took = time.monotonic() - began
            closes = [(await page.receive(timeout=5)).type for page in pages]
            return took, closes

    took, closes = asyncio.run(connected_while_it_stops())
    assert set(closes) <= {aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED, aiohttp.WSMsgType.CLOSING}
    assert took < 2.5  # not the 5 s its thread was once waited for, with every page holding it open


def test_the_tablet_addresses_are_the_networks_never_loopback():
    import socket
    from collections import namedtuple

    from narrator.shell.speakerbox.game import tablet_addresses
    from narrator.shell.speakerbox.server import network_addresses

    Address = namedtuple("Address", "family address")
    Stats = namedtuple("Stats", "isup")
    interfaces = {"lo": [Address(socket.AF_INET, "127.0.0.1")],
                  "docker0": [Address(socket.AF_INET, "172.17.0.1")],
                  "wlp2s0": [Address(socket.AF_INET, "192.168.1.23"), Address(socket.AF_INET6, "fe80::1")],
                  "eth1": [Address(socket.AF_INET, "169.254.3.4")],
                  "eth0": [Address(socket.AF_INET, "10.0.0.5")]}
    stats = {"eth0": Stats(False), "wlp2s0": Stats(True), "docker0": Stats(True), "lo": Stats(True)}
    networks = network_addresses(interfaces, stats)
    assert networks == [("wlp2s0", "192.168.1.23"), ("docker0", "172.17.0.1")]
    assert tablet_addresses("0.0.0.0", 8765, networks) == ["http://192.168.1.23:8765/", "http://172.17.0.1:8765/"]
    assert tablet_addresses("192.168.1.23", 9000, networks) == ["http://192.168.1.23:9000/"]
    assert tablet_addresses("0.0.0.0", 8765, []) == []
    real = network_addresses()  # this machine, whatever its host name resolves to
    assert all(not address.startswith("127.") for _, address in real)


def test_serve_prints_a_network_address_even_when_the_host_name_is_loopback(tmp_path):
    import os
    import subprocess
    import sys

    from narrator.shell.speakerbox.server import network_addresses

    process = subprocess.Popen([sys.executable, "-m", "narrator", "serve", "--players", "3", "--port", "0",
                                "--no-ambience", "--no-laptop-audio", "--lang", "en"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, env={**os.environ, "LANG": "C.UTF-8"})
    try:
        for line in process.stdout:
            if line.startswith("Speaker box:"):
                break
    finally:
        process.kill()
        process.wait()
    networks = network_addresses()
    if networks:
        assert line.startswith(f"Speaker box: open http://{networks[0][1]}:")
        assert "127.0.0.1" not in line
    else:
        assert "on no network" in line


def test_a_night_with_no_day_prepares_no_day_lines():
    """--no-day (or a game with no day): the tablets are sent the night alone, no day lines made."""
    from conftest import make_env

    from narrator.core.deck import recommended_deck
    from narrator.core.script import generate_script, settings_for
    from narrator.shell.audio.night import AudioChoice
    from narrator.shell.speakerbox.game import prepare

    env = make_env()
    script = generate_script(env.game, recommended_deck(env.game, 3), settings_for(env.game, "it"))
    audio = AudioChoice(ambience=None)
    *_, day_lines, clips, _box = prepare(env, script, audio, "it", {}, None)
    assert day_lines == {} and clips == {}
    *_, day_lines, clips, _box = prepare(env, script, audio, "it", {}, env.game.day)
    assert set(clips) == set(day_lines) and "day.vote" in clips


def test_the_day_tells_the_tablets_only_what_changes():
    """A running day's deadline is one number: the tablets hear the day once, then only a pause,
    more time or the vote (it was ten state messages a second, the deadline recomputed each tick)."""
    import queue

    from narrator.shell.speakerbox.game import _day
    from tests.conftest import make_env

    class Clock:  # a monotonic clock that moves on a little at every reading, as a real one does
        now = 1000.0

        def __call__(self):
            self.now += 0.0001
            return self.now

        def sleep(self, seconds):
            self.now += seconds

    clock = Clock()
    env = make_env(clock=clock, sleep=clock.sleep)
    told = []
    box = Box(night_length=10.0, phases=[], clock=clock)
    box.on_change = lambda: told.append((box.stage, box.day_deadline, box.day_paused_left, box.voting))

    class Tablets:  # the server's part in the day: the spoken lines, which do not change the state
        def say(self, key, lead=0.3, text=""):
            pass

    keys = iter([None] * 50 + [" "] + [None] * 30 + [" "] + [None] * 10000)
    actions = queue.Queue()
    assert _day(env, env.game.day, box, Tablets(), actions, lambda timeout: (clock.sleep(timeout), next(keys))[1],
                "it", 20, None)
    stages = [(stage, deadline is not None, paused is not None, voting) for stage, deadline, paused, voting in told]
    assert stages == [("day", True, False, False),  # the day begins
                      ("day", False, True, False),  # paused
                      ("day", True, False, False),  # resumed
                      ("day", False, True, True)]  # the time is up: vote


def test_every_press_on_the_controls_is_answered(server):
    """Done when the action applies at this stage, refused with the reason when it does not."""
    token = "secret-token"
    answers = asyncio.run(talk(server, {"type": "control", "action": "pause", "token": token},
                               {"type": "control", "action": "start", "token": token}))
    assert answers[1] == {"type": "refused", "action": "pause", "message": "Nothing is running that could be paused."}
    assert answers[2] == {"type": "done", "action": "start"}
    assert server.actions == ["start"]  # the refused one never reached the game


async def receive_until(ws, kind, timeout=5.0):
    deadline = time.monotonic() + timeout
    while True:
        message = json.loads((await ws.receive(timeout=max(0.01, deadline - time.monotonic()))).data)
        if message["type"] == kind:
            return message


def test_the_controls_page_hears_how_every_tablet_is_doing(server):
    async def scenario():
        async with aiohttp.ClientSession() as session:
            control = await session.ws_connect(url(server, "/ws"))
            await control.send_str(json.dumps({"type": "hello", "role": "control", "token": "secret-token"}))
            assert (await receive_until(control, "tablets"))["tablets"] == []
            first = await session.ws_connect(url(server, "/ws"))
            await first.send_str(json.dumps({"type": "hello", "role": "tablet", "id": "kitchen"}))
            await first.send_str(json.dumps({"type": "report", "synced": True, "rtt": 0.004, "playing": False,
                                             "error": None, "loading": False}))
            second = await session.ws_connect(url(server, "/ws"))
            await second.send_str(json.dumps({"type": "hello", "role": "tablet", "id": "sofa"}))
            listed = (await receive_until(control, "tablets"))["tablets"]
            while len(listed) < 2 or listed[0]["rtt"] is None:
                listed = (await receive_until(control, "tablets"))["tablets"]
            assert [(t["n"], t["connected"], t["synced"], t["rtt"]) for t in listed] == [
                (1, True, True, 0.004), (2, True, False, None)]
            await first.close()
            listed = (await receive_until(control, "tablets"))["tablets"]
            assert [(t["n"], t["connected"]) for t in listed] == [(1, False), (2, True)]
            again = await session.ws_connect(url(server, "/ws"))  # the first tablet, reloaded
            await again.send_str(json.dumps({"type": "hello", "role": "tablet", "id": "kitchen"}))
            listed = (await receive_until(control, "tablets"))["tablets"]
            assert [(t["n"], t["connected"]) for t in listed] == [(1, True), (2, True)]
            heartbeat = await receive_until(second, "heartbeat", timeout=5)
            assert abs(heartbeat["server"] - time.monotonic()) < 1
            for ws in (control, second, again):
                await ws.close()

    asyncio.run(scenario())


def test_a_page_without_the_token_hears_nothing_of_the_tablets(server):
    """A wrong token is told so, and the socket let go at once (code 4403: the page stops trying),
    before a tablet's joining could reach it."""
    from narrator.shell.speakerbox.server import WRONG_TOKEN

    async def scenario():
        async with aiohttp.ClientSession() as session:
            guesser = await session.ws_connect(url(server, "/ws"))
            await guesser.receive()  # the state
            await guesser.send_str(json.dumps({"type": "hello", "role": "control", "token": "guess"}))
            assert json.loads((await guesser.receive(timeout=2)).data) == {
                "type": "error", "message": "only the laptop controls the game", "stale": True}
            tablet = await session.ws_connect(url(server, "/ws"))
            await tablet.send_str(json.dumps({"type": "hello", "role": "tablet", "id": "x"}))
            closing = await guesser.receive(timeout=2)
            assert closing.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED)
            assert guesser.close_code == WRONG_TOKEN
            await tablet.close()

    asyncio.run(scenario())


def test_one_socket_saying_hello_under_ten_thousand_ids_leaves_the_laptop_as_it_was(server):
    """A buggy or hostile page must not make the laptop keep (or send) more for each id it makes up:
    one tablet per socket, the controls page's list coalesced, the real tablets in step."""
    import tracemalloc

    async def scenario():
        async with aiohttp.ClientSession() as session:
            control = await session.ws_connect(url(server, "/ws"))
            await control.send_str(json.dumps({"type": "hello", "role": "control", "token": "secret-token"}))
            await receive_until(control, "tablets")
            real = await session.ws_connect(url(server, "/ws"))
            await real.send_str(json.dumps({"type": "hello", "role": "tablet", "id": "kitchen"}))
            flood = await session.ws_connect(url(server, "/ws"))
            await flood.receive()  # the state
            tracemalloc.start()
            before = tracemalloc.get_traced_memory()[0]
            started = time.monotonic()
            for number in range(10_000):
                await flood.send_str(json.dumps({"type": "hello", "role": "tablet", "id": f"fake-{number}"}))
            await flood.send_str(json.dumps({"type": "ping", "sent": 1}))
            while json.loads((await flood.receive(timeout=30)).data)["type"] != "pong":
                pass  # every hello answered by now
            took = time.monotonic() - started
            grown = tracemalloc.get_traced_memory()[0] - before
            tracemalloc.stop()
            lists = []
            deadline = time.monotonic() + 1.0
            while time.monotonic() < deadline:
                try:
                    message = json.loads((await control.receive(timeout=0.3)).data)
                except asyncio.TimeoutError:
                    continue
                if message["type"] == "tablets":
                    lists.append(message["tablets"])
            assert grown < 3 * 2 ** 20, grown  # bytes: within a few MB of where it started
            assert took < 20
            assert len(server._tablets) == 2  # the kitchen, and the flooding page as one tablet
            assert [(t["n"], t["connected"]) for t in lists[-1]] == [(1, True), (2, True)]
            for ws in (control, real, flood):
                await ws.close()

    asyncio.run(scenario())


def test_the_box_remembers_a_bounded_number_of_tablets_and_forgets_the_longest_gone(server, monkeypatch):
    monkeypatch.setattr(narrator.shell.speakerbox.server, "MAX_TABLETS", 3)

    async def scenario():
        async with aiohttp.ClientSession() as session:
            pages = []
            for name in ("a", "b", "c"):
                page = await session.ws_connect(url(server, "/ws"))
                await page.receive()
                await page.send_str(json.dumps({"type": "hello", "role": "tablet", "id": name}))
                await page.send_str(json.dumps({"type": "report", "synced": True}))  # each one real
                pages.append(page)
            fourth = await session.ws_connect(url(server, "/ws"))
            await fourth.receive()
            await asyncio.sleep(0.1)
            await fourth.send_str(json.dumps({"type": "hello", "role": "tablet", "id": "d"}))
            assert await receive_until(fourth, "refused-tablet", timeout=2) == {
                "type": "refused-tablet",
                "message": "The speaker box already has as many tablets as it takes, so this one plays nothing."}
            await pages[0].close()  # a gone, the longest
            await asyncio.sleep(0.2)
            await fourth.send_str(json.dumps({"type": "hello", "role": "tablet", "id": "d"}))
            assert await receive_until(fourth, "admitted", timeout=2) == {"type": "admitted", "seconds": 0.0, "unheard": False}
            assert sorted(server._tablets) == ["b", "c", "d"]
            for page in (*pages[1:], fourth):
                await page.close()

    asyncio.run(scenario())


def test_a_day_off_the_clock_is_the_day_and_a_night_played_out_says_so(server):
    """Issue 39, point 14. A night played to its end tells every page that nothing is left to pause
    or skip (the console kept Pause and End the night all day, and Pause was refused); a day off
    the clock is the day on every page, with no clock to pause (its question calls the vote), until
    the vote is called."""
    import queue

    from narrator.shell.speakerbox.game import _night

    box = server.box
    told = []
    box.on_change = lambda: told.append(box.snapshot())
    box.start_night(lead=0.0)
    assert told[-1]["actions"] == ["pause", "next"]
    box.playhead.anchor_offset = box.night_length  # the night's last sample has played
    assert _night(box, queue.Queue(), lambda timeout: None)
    assert told[-1]["stage"] == "night" and told[-1]["actions"] == []
    box.open_day()
    day = told[-1]
    assert (day["stage"], day["day"], day["actions"]) == ("day", {"deadline": None, "paused_left": None,
                                                                  "voting": False}, [])
    answers = asyncio.run(talk(server, {"type": "control", "action": "pause", "token": "secret-token"}))
    assert [answer["type"] for answer in answers if answer and answer["type"] in ("done", "refused")] == ["refused"]
    box.call_vote()
    assert told[-1]["stage"] == "day" and told[-1]["day"]["voting"] is True


def test_start_opens_the_day_of_a_game_resumed_before_its_discussion():
    """Issue 39, point 16: a game stopped before a day's discussion waits for the group's Start,
    and Start then opens the day on every page, not a night."""
    box = Box(0.0, [], lambda: 5.0)
    box.opens = "day"
    assert box.snapshot()["opens"] == "day" and box.actions() == ["start"]
    box.start_night()
    snapshot = box.snapshot()
    assert snapshot["stage"] == "day" and snapshot["day"]["voting"] is False and snapshot["actions"] == []
    assert box.opens == "night"  # the next Start is a night's again


CONTROLS = {"role": "control", "token": "secret-token"}  # the laptop's controls page, as it says hello


async def greeted(session, server, **hello):
    """A page's WebSocket to ``server``, the hello said: ``role`` and its ``token`` or ``id``."""
    ws = await session.ws_connect(url(server, "/ws"))
    await ws.send_str(json.dumps({"type": "hello", **hello}))
    return ws


async def next_of(ws, kind: str, seconds: float = 2.0, where=lambda message: True) -> dict:
    """The next message of type ``kind`` a socket hears that ``where`` accepts (others passed over)."""
    deadline = time.monotonic() + seconds
    while True:
        message = json.loads((await ws.receive(timeout=max(0.01, deadline - time.monotonic()))).data)
        if message["type"] == kind and where(message):
            return message


def test_a_tablet_s_speaker_delay_is_set_on_the_controls_page_and_kept_through_a_reload(server):
    """Issue 41, point 3: the controls page sets how late a tablet's speaker sounds; the tablet is
    told at once, the list shows it, and the same tablet reloaded is told again as it says hello,
    before its first sound. Only the token may set it, and only within a second either way."""
    async def scenario():
        async with aiohttp.ClientSession() as session:
            control = await greeted(session, server, **CONTROLS)
            tablet = await greeted(session, server, role="tablet", id="far")
            assert (await next_of(tablet, "delay"))["seconds"] == 0
            number = (await next_of(control, "tablets", where=lambda listed: listed["tablets"]))["tablets"][0]["n"]

            def setting(ms, token="secret-token"):
                return json.dumps({"type": "control", "action": "delay", "tablet": number, "ms": ms, "token": token})
            await control.send_str(setting(40))
            assert (await next_of(control, "done"))["action"] == "delay"
            assert (await next_of(tablet, "delay"))["seconds"] == 0.04
            await next_of(control, "tablets", where=lambda listed: listed["tablets"][0]["delay_ms"] == 40)
            await control.send_str(setting(12.34))  # kept to a tenth of a ms, as a round of listening sets it
            assert (await next_of(control, "done"))["action"] == "delay"
            assert (await next_of(tablet, "delay"))["seconds"] == pytest.approx(0.0123, abs=1e-12)
            await next_of(control, "tablets", where=lambda listed: listed["tablets"][0]["delay_ms"] == 12.3)
            await control.send_str(setting(40))
            assert (await next_of(tablet, "delay"))["seconds"] == 0.04
            for wrong in (1000.1, 1001, -1001, float("nan"), float("inf"), True, "40", None):
                await control.send_str(setting(wrong))
                refused = await next_of(control, "refused")
                assert refused["action"] == "delay" and "1000" in refused["message"]
            guesser = await session.ws_connect(url(server, "/ws"))
            await guesser.send_str(setting(-300, token="guess"))
            assert (await next_of(guesser, "error"))["message"] == "only the laptop controls the game"
            await tablet.close()
            again = await greeted(session, server, role="tablet", id="far")  # the same tablet, reloaded
            assert (await next_of(again, "delay"))["seconds"] == 0.04
            for ws in (control, again, guesser):
                await ws.close()

    asyncio.run(scenario())
