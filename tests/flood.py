"""A guest on the Wi-Fi who floods the speaker box, for the tests: ``Flood`` keeps idle WebSockets
open on the box from many loopback addresses (Linux answers on all of 127.0.0.0/8), none of which
ever says hello; each one the box closes is opened again at once, for as long as the flood lasts.
"""

import socket
import time
from collections import Counter

UPGRADE = ("GET /ws HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
           "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")
FLOOD_ADDRESSES = [f"127.0.0.{n}" for n in range(2, 42)]  # 40 addresses...
FLOOD_EACH = 28  # ...each over its share: 1,120 sockets at once, and each one closed opened again
SWEEP = 0.5  # seconds between two looks at which sockets the box has closed (how long each lived is read then)


class Flood:
    """WebSockets that never say hello, from many addresses, each one closed opened again at once,
    for as long as the flood lasts (in a thread of its own); how long each one lived."""

    def __init__(self, port: int):
        import threading

        self.port, self.sockets, self.lived, self.opened = port, {}, [], 0
        self.held: Counter = Counter()  # open sockets by address
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self.run, daemon=True)

    def run(self) -> None:
        swept = time.monotonic()
        while not self.stopping.is_set():
            for address in FLOOD_ADDRESSES:
                while self.held[address] < FLOOD_EACH and not self.stopping.is_set():
                    self.open(address)
                    if time.monotonic() - swept >= SWEEP:  # (opening a thousand again can take seconds on a
                        self.sweep()                       # loaded machine: a socket closed meanwhile is seen
                        swept = time.monotonic()           # closed within SWEEP, not when they are all open)
            self.stopping.wait(SWEEP)
            self.sweep()
            swept = time.monotonic()
        for sock in self.sockets:
            sock.close()

    def open(self, address: str) -> None:
        sock = socket.socket()
        sock.settimeout(2)
        try:
            sock.bind((address, 0))
            sock.connect(("127.0.0.1", self.port))
            sock.sendall(UPGRADE.format(port=self.port).encode())
        except OSError:
            pass  # refused at once: counted as a socket that lived no time
        sock.setblocking(False)
        self.sockets[sock] = (address, time.monotonic())
        self.held[address] += 1
        self.opened += 1

    def sweep(self) -> None:
        for sock, (address, since) in list(self.sockets.items()):
            if not drained_and_open(sock):
                self.lived.append(time.monotonic() - since)
                del self.sockets[sock]
                self.held[address] -= 1
                sock.close()

    def oldest(self) -> float:
        now = time.monotonic()
        return max((now - since for _address, since in self.sockets.values()), default=0.0)

    def __enter__(self) -> "Flood":
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.stopping.set()
        self.thread.join(10)


def drained_and_open(sock: socket.socket) -> bool:
    """Read what the server sent; whether the socket is still open after it."""
    try:
        while sock.recv(65536):
            pass
        return False
    except BlockingIOError:
        return True
    except OSError:
        return False
