"""The speaker box under a flood of connections (issue 40, points 3 and 4): bounded per address
and in all, silent sockets closed, the laptop's pages still served, every real tablet let in."""

import asyncio
import socket
import time

import aiohttp
import pytest

from narrator.shell.speakerbox.server import BoxServer
from narrator.shell.speakerbox.state import Box

HELLO = 0.5  # the seconds a socket has to say hello here (5 when narrate runs)


def serving(**bounds) -> BoxServer:
    box = Box(night_length=10.0, phases=[(0.0, "Nightfall")], clock=time.monotonic)
    served = BoxServer(box, b"RIFF-night", {}, time.monotonic, lambda action: None, host="127.0.0.1", port=0,
                       token="secret-token", request_seconds=5, send_seconds=1, hello_seconds=HELLO, **bounds)
    box.on_change = served.broadcast
    served.start()
    return served


@pytest.fixture
def server():
    served = serving(connections=20, per_address=4)
    yield served
    served.stop()


def connect(server, address: str, count: int) -> list[socket.socket]:
    """``count`` plain connections from ``address`` (a loopback address of its own), saying nothing."""
    opened = []
    for _ in range(count):
        sock = socket.socket()
        sock.bind((address, 0))
        sock.connect(("127.0.0.1", server.port))
        opened.append(sock)
    time.sleep(0.2)  # the server has accepted them, and closed what it closes
    return opened


def is_open(sock: socket.socket) -> bool:
    try:
        return sock.recv(1, socket.MSG_DONTWAIT | socket.MSG_PEEK) != b""
    except BlockingIOError:
        return True
    except OSError:
        return False


def test_one_address_gets_its_share_its_own_oldest_making_way(server):
    opened = connect(server, "127.0.0.2", 6)
    assert [is_open(sock) for sock in opened] == [False, False, True, True, True, True]
    assert len(server._gate) == 4


def test_over_the_total_the_busiest_address_makes_way_and_the_laptop_is_still_served(server):
    heavy = connect(server, "127.0.0.2", 4)
    light = [connect(server, f"127.0.0.{n}", 3) for n in range(3, 8)]  # 4 + 15 = 19 of 20
    newest = connect(server, "127.0.0.9", 2)
    assert [is_open(sock) for sock in heavy] == [False, True, True, True]  # the busiest's oldest made way
    assert all(is_open(sock) for group in light for sock in group) and all(map(is_open, newest))

    async def the_laptop():
        async with aiohttp.ClientSession() as session:
            async with session.get(f"http://127.0.0.1:{server.port}/?token=secret-token") as page:
                assert page.status == 200
            control = await session.ws_connect(f"http://127.0.0.1:{server.port}/ws")
            await control.send_json({"type": "hello", "role": "control", "token": "secret-token"})
            assert (await control.receive_json(timeout=2))["type"] == "state"
            more = connect(server, "127.0.0.10", 4) + connect(server, "127.0.0.11", 4)
            await asyncio.sleep(HELLO * 2)
            assert not control.closed  # a page that said its hello is never pushed out
            assert len(server._gate) <= 20 and sum(map(is_open, more)) > 0
            await control.close()

    asyncio.run(the_laptop())


def test_a_socket_that_says_no_valid_hello_is_closed_and_a_page_that_does_stays(server):
    async def scenario():
        async with aiohttp.ClientSession() as session:
            where = f"http://127.0.0.1:{server.port}/ws"
            silent, guesser, tablet = [await session.ws_connect(where) for _ in range(3)]
            await guesser.send_json({"type": "hello", "role": "control", "token": "guess"})
            await tablet.send_json({"type": "hello", "role": "tablet", "id": "kitchen"})
            started = time.monotonic()
            for ws in (silent, guesser):
                while (await ws.receive(timeout=5)).type not in (aiohttp.WSMsgType.CLOSED, aiohttp.WSMsgType.ERROR):
                    pass
            assert time.monotonic() - started < HELLO + 1
            await asyncio.sleep(HELLO)
            assert not tablet.closed
            await tablet.send_json({"type": "ping", "sent": 1})
            while (await tablet.receive_json(timeout=2))["type"] != "pong":
                pass
            await tablet.close()

    asyncio.run(scenario())
