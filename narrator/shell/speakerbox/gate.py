"""The speaker box's door: how many connections it keeps open, per address and in all.

Every socket is an open file of narrate's, and the files are the game's too (its save, its audio,
its cache): a flood of connections that nobody limits ends with the save failing and the accept
loop stalled. So each connection is counted as it is accepted, before a byte of it is read, and
one too many is closed at once. When the box is full, the newcomer does not simply lose: the
oldest connection that has not proved itself (a page that has said a valid hello) at the busiest
address makes way for it, so that the laptop's controls page and the moderator's console still get
in during a flood, and a flood from one address pushes out its own sockets first. The laptop's own
address is held to the total alone: its browser is the controls page, and often a test tablet too.
"""

import asyncio
import ipaddress
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

from aiohttp import web

PER_ADDRESS = 16  # a tablet's page: its WebSocket and a browser's six fetches, with room for a reload
MOST = 4096  # the total, at most, however high the open-files limit is
FEWEST = 64  # the total, at least (a tablet each)
THE_LAPTOP = ("127.0.0.1", "::1")  # held to the total alone


def total_for(open_files: int) -> int:
    """The connections the box keeps at most, given the process's open-files limit: half of it,
    leaving the other half for the game's own files (its save, the audio, the cache, the
    libraries) and for the sockets accepted in one burst before the extra ones are closed."""
    return max(FEWEST, min(MOST, open_files // 2))


@dataclass(eq=False)
class Connection:
    address: str
    transport: asyncio.Transport
    proved: bool = False  # said a valid hello: a tablet on the list, the controls page, the console


class Gate:
    """The open connections, oldest first; which one a newcomer may push out."""

    def __init__(self, most: int, per_address: int = PER_ADDRESS, silent_seconds: float = 5.0):
        self.most, self.per_address = most, per_address
        self.silent_seconds = silent_seconds  # a connection that sends not a byte within this is closed
        self._open: dict[asyncio.Transport, Connection] = {}  # in the order they came

    def __len__(self) -> int:
        return len(self._open)

    def admit(self, transport: asyncio.Transport) -> bool:
        """Count a connection just accepted; False if it must be closed at once. Pushing out
        another to make room closes that one here."""
        address = peer_address(transport)
        ahead = list(self._open.values())
        victim = make_way(ahead, address, self.most, self.per_address)
        if victim is False:
            return False
        if isinstance(victim, Connection):
            self.release(victim.transport)
            victim.transport.abort()
        self._open[transport] = Connection(address, transport)
        return True

    def release(self, transport: asyncio.Transport) -> None:
        self._open.pop(transport, None)

    def prove(self, transport: asyncio.Transport | None, proved: bool = True) -> None:
        """A connection that said a valid hello (or, ``proved`` False, one no longer the page it named)."""
        connection = self._open.get(transport) if transport is not None else None
        if connection is not None:
            connection.proved = proved

    def guard(self, factory: Callable[[], asyncio.Protocol]) -> Callable[[], asyncio.Protocol]:
        """A protocol factory for the listening socket: ``factory``'s protocols, behind the gate."""
        return lambda: _Guarded(self, factory())


def peer_address(transport: asyncio.Transport) -> str:
    """The address a connection comes from, an IPv4 one as such even through an IPv6 socket."""
    peer = transport.get_extra_info("peername")
    if not isinstance(peer, tuple) or not peer:
        return "?"
    try:
        address = ipaddress.ip_address(peer[0])
    except ValueError:
        return str(peer[0])
    mapped = getattr(address, "ipv4_mapped", None)
    return str(mapped or address)


def make_way(ahead: list[Connection], address: str, most: int, per_address: int) -> "Connection | bool":
    """Whether a newcomer from ``address`` gets in past the connections ``ahead`` (oldest first):
    True, straight in; a connection to close for it; or False, it is closed itself.

    Over its address's share, the newcomer may only push out that address's own oldest unproved
    connection; over the total, the oldest unproved one of the address that holds the most.
    """
    if address not in THE_LAPTOP and sum(1 for c in ahead if c.address == address) >= per_address:
        return next((c for c in ahead if c.address == address and not c.proved), False)
    if len(ahead) < most:
        return True
    held = Counter(c.address for c in ahead)
    unproved = [c for c in ahead if not c.proved]
    if not unproved:
        return False
    busiest = max(held[c.address] for c in unproved)
    return next(c for c in unproved if held[c.address] == busiest)


class _Guarded(asyncio.Protocol):
    """aiohttp's protocol for one connection, reached only once the gate has let it in."""

    def __init__(self, gate: Gate, inner: asyncio.Protocol):
        self.gate, self.inner, self.admitted, self.heard = gate, inner, False, False
        self.transport: asyncio.Transport | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)  # a TCP server's
        self.transport = transport
        self.admitted = self.gate.admit(transport)
        if not self.admitted:
            transport.abort()  # closed before a byte is read: the file is free at once
            return
        asyncio.get_running_loop().call_later(self.gate.silent_seconds, self._unless_heard)
        self.inner.connection_made(transport)

    def _unless_heard(self) -> None:
        """Close a connection that has not sent a byte: whatever aiohttp's version does about it,
        a silent socket holds one of the laptop's files no longer than a WebSocket without a hello."""
        if not self.heard and self.transport is not None and not self.transport.is_closing():
            self.transport.abort()

    def connection_lost(self, exc: Exception | None) -> None:
        if self.admitted:
            assert self.transport is not None  # it was made
            self.gate.release(self.transport)
            self.inner.connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if self.admitted:
            self.heard = True
            self.inner.data_received(data)

    def eof_received(self) -> bool | None:
        return self.inner.eof_received() if self.admitted else None

    def pause_writing(self) -> None:
        if self.admitted:
            self.inner.pause_writing()

    def resume_writing(self) -> None:
        if self.admitted:
            self.inner.resume_writing()


class GuardedSite(web.BaseSite):
    """aiohttp's TCP site, its connections counted at the gate."""

    def __init__(self, runner: web.BaseRunner, host: str, port: int, gate: Gate):
        super().__init__(runner)
        self._where, self.gate = (host, port), gate

    @property
    def name(self) -> str:
        return "http://{}:{}".format(*self._where)

    async def start(self) -> None:
        await super().start()
        server = self._runner.server
        assert server is not None  # the runner is set up
        loop = asyncio.get_running_loop()
        self._server = await loop.create_server(self.gate.guard(server), *self._where, backlog=self._backlog)
