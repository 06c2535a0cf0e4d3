"""The speaker box's web server (aiohttp), running in a thread of its own beside the game.

It serves exactly its own assets, by exact name (nothing is looked up on disk from a request,
so no path can climb out), the night's audio and the day's lines, and one WebSocket per tablet:
tablets ask the time (for their clock offset, several times a second for as long as the game
lasts), say how they are doing, and receive the game's state when it changes and a heartbeat
every few seconds; only a client that presents the secret token may start, pause or move the game
on, and it is told what became of every press and how each tablet is doing. A misbehaving client gets an
error message or a 4xx, and the server carries on: connections are bounded per address and in all
(``gate``), a socket that says no valid hello within a few seconds is closed, a request not sent in
full within a few seconds is closed, a tablet that stops reading is dropped (it reconnects when it can) without
holding the others up, a WebSocket from another site's page or through a host name that is not
this machine's is refused, and whatever goes wrong is at most one line on the laptop's terminal.
"""

import asyncio
import ipaddress
import json
import logging
import math
import secrets
import socket
import sys
import threading
import weakref
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

import numpy as np
from aiohttp import WSCloseCode, WSMsgType, web

from narrator.core import arrivals
from narrator.core.i18n import ENGLISH, N_, Catalog
from narrator.shell.speakerbox.gate import PER_ADDRESS, Gate, GuardedSite, total_for
from narrator.shell.speakerbox.moderator import Console
from narrator.shell.speakerbox.page import filled_page
from narrator.shell.speakerbox.signed import SignedNights
from narrator.shell.speakerbox.state import Box
from narrator.shell.translation import SOURCE_LANGUAGE, _

STATIC = Path(__file__).parent / "static"
ASSETS = {"/": ("index.html", "text/html"), "/box.js": ("box.js", "text/javascript"),
          "/box.css": ("box.css", "text/css"), "/moderator": ("moderator.html", "text/html"),
          "/moderator.js": ("moderator.js", "text/javascript"), "/moderator.css": ("moderator.css", "text/css")}
PAGES = ("/", "/moderator")  # filled with the game's language
MAX_MESSAGE = 4096
ACTIONS = ("start", "pause", "resume", "next")
NOT_NOW = {  # why an action that does not apply at this stage is refused
    "start": N_("The night has already started."),
    "pause": N_("Nothing is running that could be paused."),
    "resume": N_("Nothing is paused."),
    "next": N_("There is nothing to move on from now."),
}
ONLY_THE_LAPTOP = N_("only the laptop controls the game")
REQUEST_SECONDS = 5  # a request must arrive whole within this (aiohttp's keep-alive timer closes it)
SEND_SECONDS = 5  # a tablet that has not taken a message within this is dropped
WRONG_TOKEN = 4403  # the close code of a page whose token is not this game's: it stops trying (box.js, moderator.js)
HELLO_SECONDS = 5  # a WebSocket that has not said a valid hello within this is closed (a page says it at once)
CLOSE_SECONDS = 1  # at the end, how long a page has to answer the box's goodbye before it is cut off
HEARTBEAT_SECONDS = 2  # every page hears from the laptop at least this often
GONE_SECONDS = 120  # a tablet gone for this long leaves the controls page's list
MAX_TABLETS = 64  # tablets listed at most: a new one past this pushes out one never in step, else the longest gone
MAX_REFUSED = 16  # refused tablets the controls page lists (the latest)
LIST_SECONDS = 0.25  # the controls page hears the tablets' list at most this often (changes coalesced)
ONLY_THE_MODERATOR = N_("only the moderator's console, opened by the address narrate printed, may do this")
TOO_MANY = N_("The speaker box already has as many tablets as it takes, so this one plays nothing.")
REMOVED = N_("The laptop's controls page took this tablet off its list, so it plays nothing.")
NO_SUCH_TABLET = N_("That tablet is no longer on the list.")
MOST_DELAY_MS = 1000  # a speaker's delay the controls page may set, either way (a Bluetooth one is ~300 ms)
NOT_LISTENING = N_("The laptop listens to the tablets only when narrate was started with --listen.")
DELAY_RANGE = N_("A speaker's delay is a number of milliseconds, from -{most} to {most}.")


@dataclass
class Tablet:
    """One tablet as the controls page lists it: numbered as it first joined, kept across reloads."""

    n: int
    connected: bool = True
    heard: float = 0.0  # server time of its last message
    report: dict | None = None
    reported: float = 0.0  # server time of its last report
    socket: int = 0  # which connection is its latest
    proved: bool = False  # it has been in step or played: a real tablet, never pushed out for a newcomer
    delay_ms: float = 0  # how late its speaker sounds beyond what its page can see (set on the controls page)
    missed: bool = False  # the laptop listened (--listen) and did not hear its code
    unheard: bool = False  # --listen: not heard by the laptop yet, its page plays the night silent until it is
    since: float | None = None  # server time since which it has reported itself in step (None: it is not)
    steady: float | None = None  # ...and believed its output's timestamps (None: it does not now)
    left_out: float | None = None  # server time its page last left out a code it was told to play (--listen)
    in_doubt: float | None = None  # server time its page last played a code with its timestamps in doubt
    still: float | None = None  # server time its page last said its timestamps hold still since such a play

    def as_dict(self, now: float) -> dict:
        report = self.report or {}
        return {"n": self.n, "refused": False, "connected": self.connected, "silent": round(now - self.heard, 1),
                "synced": report.get("synced") is True, "playing": report.get("playing") is True,
                "loading": report.get("loading") is True, "sound_off": report.get("sound") is False,
                "may_lock": report.get("awake") is False,
                "rtt": _number(report.get("rtt")),
                "error": _number(report.get("error")), "delay_ms": self.delay_ms,
                "missed": self.missed, "unheard": self.unheard}


@dataclass
class Refused:
    """A tablet turned away (the list full, or taken off it), as the controls page lists it."""

    n: int
    since: float  # server time it was turned away

    def as_dict(self, now: float) -> dict:
        return {"n": self.n, "refused": True, "waiting": round(now - self.since)}


def code_url(number: int) -> str:
    return f"/codes/{number}.wav"


def code_wav(number: int) -> bytes:
    """Tablet ``number``'s listening code as a WAV file."""
    import io

    import soundfile

    from narrator.core.arrivals import code
    from narrator.shell.speakerbox.listen import RATE

    out = io.BytesIO()
    soundfile.write(out, code(number, RATE), RATE, format="WAV", subtype="PCM_16")
    return out.getvalue()


def room_for_one(tablets: dict[str, Tablet]) -> str | None:
    """Which tablet makes way for a new one when the list is full: one that joined but was never
    in step nor played (the one gone, else the one silent longest: a page that names itself
    under made-up ids is that), then the one gone longest; None when every one is real and here."""
    never = [(tablet.connected, tablet.heard, key) for key, tablet in tablets.items() if not tablet.proved]
    if never:
        return min(never)[2]
    gone = [(tablet.heard, key) for key, tablet in tablets.items() if not tablet.connected]
    return min(gone)[1] if gone else None


def _number(value) -> float | None:
    """A number a tablet reported, or None for anything else it may have sent."""
    return value if isinstance(value, (int, float)) and not isinstance(value, bool) else None


class BoxServer:
    def __init__(self, box: Box, night_wav: bytes, clips: dict[str, bytes], clock: Callable[[], float],
                 control: Callable[[str], None], host: str = "0.0.0.0", port: int = 8765,
                 token: str | None = None, language: str = SOURCE_LANGUAGE, catalog: Catalog = ENGLISH,
                 request_seconds: float = REQUEST_SECONDS, send_seconds: float = SEND_SECONDS,
                 console: Console | None = None, moderator_token: str | None = None,
                 hello_seconds: float = HELLO_SECONDS, connections: int | None = None, per_address: int = PER_ADDRESS,
                 speech: list[tuple[float, float]] | None = None):
        self.box = box
        self.listen: Callable[[], None] | None = None  # asks for a round of listening (--listen, ``listening``)
        self.hush_unheard = False  # a tablet that joins plays the night silent until the laptop has heard it
        self.signed: SignedNights | None = None  # each tablet's night with its signature under it (``sign_nights``)
        self.request_seconds, self.send_seconds = request_seconds, send_seconds  # the limits a peer has
        self.hello_seconds = hello_seconds
        self._bounds = (connections, per_address)  # None: from the open-files limit, when serving starts
        # a tablet that holds another night's must fetch it; ``speech``: where its voice sounds (seconds)
        self._night_audio = (secrets.token_hex(8), night_wav, list(speech or []))
        self.clips = clips
        self.clock = clock
        self.control = control  # applies a control action (start, pause, next) to the game
        self.host, self.port = host, port
        self.token = token or secrets.token_urlsafe(16)
        self.console = console  # a game with a moderator: the moderator's console (its own token)
        self.moderator_token = moderator_token or secrets.token_urlsafe(16)
        self.catalog = catalog
        self.language = language  # a page of another language (left open from another game) reloads
        self._assets = {path: ((STATIC / name).read_bytes(), kind) for path, (name, kind) in ASSETS.items()}
        for path in PAGES:
            page = (STATIC / ASSETS[path][0]).read_text(encoding="utf-8")
            self._assets[path] = (filled_page(page, language, catalog), "text/html")
        if console is None:
            for path in ("/moderator", "/moderator.js", "/moderator.css"):
                del self._assets[path]
        else:
            console.send = self.tell_moderators
        self._sockets: weakref.WeakSet = weakref.WeakSet()
        self._controls: weakref.WeakSet = weakref.WeakSet()  # the sockets that gave the token
        self._moderators: weakref.WeakSet = weakref.WeakSet()  # the sockets that gave the moderator's token
        self._tablets: dict[str, Tablet] = {}  # by the id each tablet page keeps across reloads
        self._tablet_of: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
        self._refused: dict[str, Refused] = {}  # by page id: the tablets turned away, the latest MAX_REFUSED
        self._waiting: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # a refused tablet's socket: its id
        self._list_due = False  # a list for the controls page is on its way
        self._list_sent = float("-inf")  # when the last one went (the loop's own clock)
        self._transports: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
        self._greeted: weakref.WeakSet = weakref.WeakSet()  # the sockets that said a valid hello
        self._gate = Gate(0)  # made when serving starts
        self._loop: asyncio.AbstractEventLoop | None = None
        self._runner: web.AppRunner | None = None
        self._thread: threading.Thread | None = None

    def joined(self) -> int:
        """How many tablets have joined so far (gone ones included)."""
        return len(self._tablets)

    # --- running ---------------------------------------------------------------------------

    def start(self) -> None:
        """Start serving in a background thread; return once the port is bound (or raise).

        The process's open-files limit is raised first, and the connections kept at most are
        derived from it (``gate``): a flood meets the box's bounds, never the system's."""
        from narrator.shell.platform.limits import raise_open_files

        connections, per_address = self._bounds
        self._gate = Gate(connections or total_for(raise_open_files()), per_address, self.hello_seconds)
        ready: dict = {}
        started = threading.Event()

        def run():
            loop = asyncio.new_event_loop()
            self._loop = loop
            try:
                loop.run_until_complete(self._serve())
            except OSError as error:
                ready["error"] = error
                started.set()
                return
            started.set()
            loop.run_forever()
            self._heartbeat_task.cancel()
            assert self._runner is not None  # _serve made it
            loop.run_until_complete(self._runner.cleanup())
            loop.close()

        self._thread = threading.Thread(target=run, name="speaker-box", daemon=True)
        self._thread.start()
        started.wait(10)
        if "error" in ready:
            raise ready["error"]

    async def _serve(self) -> None:
        app = web.Application(client_max_size=MAX_MESSAGE)
        app.router.add_get("/ws", self._websocket)
        app.router.add_get("/night.wav", self._night)
        app.router.add_get("/clips/{key}", self._clip)
        app.router.add_get("/codes/{n}", self._code)
        app.router.add_get("/{path:.*}", self._asset)
        quiet_logs()
        self._runner = web.AppRunner(app, access_log=None, keepalive_timeout=self.request_seconds)
        await self._runner.setup()
        site = GuardedSite(self._runner, self.host, self.port, self._gate)
        await site.start()
        self.port = self._runner.addresses[0][1]  # the real port when 0 was asked for
        self._heartbeat_task = asyncio.ensure_future(self._heartbeat())

    async def _heartbeat(self) -> None:
        """Every page hears from the laptop every few seconds, so that one that hears nothing knows
        the connection is in trouble; the controls page hears how each tablet is doing."""
        while True:
            await asyncio.sleep(HEARTBEAT_SECONDS)
            await self._send_all(json.dumps({"type": "heartbeat", "server": self.clock()}))
            self._send_tablets()

    def _send_tablets(self) -> None:
        """The tablets' list to the controls pages, soon: changes that come together make one list
        (a page saying hello over and over must not make the laptop send the list each time)."""
        if self._list_due or self._loop is None:
            return
        self._list_due = True
        wait = max(0.0, self._list_sent + LIST_SECONDS - self._loop.time())
        self._loop.call_later(wait, self._flush_tablets)

    def _flush_tablets(self) -> None:
        assert self._loop is not None  # the loop calls it
        self._list_due, self._list_sent = False, self._loop.time()
        now = self.clock()
        for key, tablet in list(self._tablets.items()):
            if not tablet.connected and now - tablet.heard > GONE_SECONDS:
                del self._tablets[key]
        for key, refused in list(self._refused.items()):
            if now - refused.since > GONE_SECONDS and key not in self._waiting.values():
                del self._refused[key]
        listed = [tablet.as_dict(now) for tablet in self._tablets.values()]
        listed += [refused.as_dict(now) for refused in self._refused.values()]
        text = json.dumps({"type": "tablets", "tablets": listed, "listening": self.listen is not None})
        for ws in list(self._controls):
            if not ws.closed:
                asyncio.ensure_future(self._send(ws, text))

    def stop(self) -> None:
        """Close every page's connection (saying the box is going away), then stop serving: the
        server's shutdown would otherwise wait for each open connection to time out."""
        if self._loop is not None and self._loop.is_running():
            closing = asyncio.run_coroutine_threadsafe(self._close_all(), self._loop)
            try:
                closing.result(CLOSE_SECONDS + 1)
            except (TimeoutError, asyncio.TimeoutError, RuntimeError):
                pass  # stopped all the same below
            self._loop.call_soon_threadsafe(self._loop.stop)
        if self._thread is not None:
            self._thread.join(5)

    async def _close_all(self) -> None:
        async def close(ws):
            try:
                await asyncio.wait_for(ws.close(code=WSCloseCode.GOING_AWAY), CLOSE_SECONDS)
            except (asyncio.TimeoutError, ConnectionError, RuntimeError):
                transport = self._transports.pop(ws, None)
                if transport is not None:
                    transport.abort()
        await asyncio.gather(*(close(ws) for ws in list(self._sockets)), return_exceptions=True)

    # --- telling the tablets ------------------------------------------------------------------

    def broadcast(self, message: dict | None = None) -> None:
        """Send a message (the state, by default) to every tablet; callable from any thread."""
        if self._loop is None or not self._loop.is_running():
            return
        message = message or self.snapshot()
        text, public = json.dumps(message), json.dumps(for_tablets(message))
        self._in_loop(lambda: asyncio.ensure_future(self._send_all(text, public)))

    def snapshot(self) -> dict:
        """The box's state, with the identity of the night this server plays and the lines it can
        say (the tablets fetch them ahead: a line fetched when it is due would be late)."""
        return {**self.box.snapshot(), "night_id": self.night_id, "clips": sorted(self.clips),
                "language": self.language}

    def load_night(self, night_wav: bytes, speech: list[tuple[float, float]] | None = None) -> None:
        """Serve another night's audio from now on (a game of many nights); tablets holding the
        last one see its new id in the next state and fetch it."""
        self._night_audio = (secrets.token_hex(8), night_wav, list(speech or []))

    def sign_nights(self) -> None:
        """From now on each tablet fetches the night with its own signature under it, for the
        laptop's ear to tell it from the others (``narrator.core.signatures``)."""
        if self.signed is None:
            self.signed = SignedNights()

    def unsign_nights(self) -> None:
        """From now on each tablet fetches the night as it is: the laptop cannot listen (a hiss
        for nobody)."""
        self.signed = None

    def signature(self, number: int) -> tuple[str, np.ndarray, int] | None:
        """The current night's id, tablet ``number``'s signature under it and its rate (None when
        the nights are not signed)."""
        if self.signed is None:
            return None
        night_id, night_wav, _ = self._night_audio
        return (night_id, *self.signed.signature(night_id, night_wav, number))

    def add_clip(self, key: str, wav: bytes) -> None:
        """A line made during the game (a sentence with a player's name), for ``say``."""
        self.clips = {**self.clips, key: wav}

    @property
    def night_id(self) -> str:
        return self._night_audio[0]

    @property
    def night_wav(self) -> bytes:
        return self._night_audio[1]

    async def _send_all(self, text: str, public: str | None = None) -> None:
        """``text`` to the pages that gave a token; ``public`` (when given) to the tablets."""
        await asyncio.gather(*(self._send(ws, text if public is None or self._trusted(ws) else public)
                               for ws in list(self._sockets) if not ws.closed))

    def _trusted(self, ws) -> bool:
        return ws in self._controls or ws in self._moderators

    async def _send(self, ws: web.WebSocketResponse, text: str) -> None:
        """One tablet's message; one that does not take it in time is cut off, and will reconnect."""
        try:
            await asyncio.wait_for(ws.send_str(text), self.send_seconds)
        except (ConnectionError, RuntimeError):
            pass  # a tablet that went away; it will reconnect and be told again
        except asyncio.TimeoutError:
            self._sockets.discard(ws)
            transport = self._transports.pop(ws, None)
            if transport is not None:
                transport.abort()

    def connected(self) -> int:
        """How many pages hold a live connection now."""
        return sum(1 for ws in list(self._sockets) if not ws.closed)

    def tell_moderators(self, message: dict) -> None:
        """Send a message to every moderator's console (never to a tablet); callable from any thread."""
        self._post(self._moderators, message)

    def _reply_to(self, ws) -> Callable[[dict], None]:
        """How the game's thread answers one console page."""
        return lambda message: self._post((ws,), message)

    def _post(self, sockets, message: dict) -> None:
        """Send ``message`` to ``sockets`` (those still open when it goes) from any thread."""
        text = json.dumps(message)

        def send():
            for ws in list(sockets):
                if not ws.closed:
                    asyncio.ensure_future(self._send(ws, text))
        self._in_loop(send)

    def say(self, key: str, lead: float = 0.3, text: str = "") -> None:
        """Have every tablet say a line, all at the same moment a little ahead; ``text`` is its words
        (said aloud: a tablet may show them, and is told nothing else of the game in words)."""
        self.broadcast({"type": "say", "key": key, "at": self.clock() + lead, "text": text})

    # --- requests ------------------------------------------------------------------------------

    async def _asset(self, request: web.Request) -> web.Response:
        path = "/" + request.match_info["path"]
        if path not in self._assets:
            raise web.HTTPNotFound(text=_("Nothing here: the speaker box is at /") + "\n")
        body, kind = self._assets[path]
        return web.Response(body=body, content_type=kind, headers={"Cache-Control": "no-store"})

    async def _night(self, request: web.Request) -> web.Response:
        night_id, night_wav, speech = self._night_audio  # one night's together, whichever is current
        # Where its voice sounds: a correction a page cannot make slowly waits for a moment without it.
        spans = json.dumps([[round(start, 3), round(end, 3)] for start, end in speech], separators=(",", ":"))
        tablet = await self._fetching(request.query.get("page")) if self.signed is not None else None
        if tablet is not None and self.signed is not None:
            signed = self.signed
            night_wav = await asyncio.get_running_loop().run_in_executor(None, signed.wav, night_id, night_wav, tablet.n)
        return web.Response(body=night_wav, content_type="audio/wav",
                            headers={"Cache-Control": "no-store", "X-Night-Id": night_id, "X-Night-Speech": spans})

    async def _fetching(self, page: str | None) -> "Tablet | None":
        """The tablet whose page (its id) fetches the night. A page asks for the night as soon as it
        is told the state, which can be before its hello is read: that is waited for, a second at
        most (a page not known by then gets the night unsigned, and the ear does not hear it)."""
        if not page:
            return None
        for _try in range(20):
            if (tablet := self._tablets.get(page[:40])) is not None:
                return tablet
            await asyncio.sleep(0.05)
        return None

    async def _clip(self, request: web.Request) -> web.Response:
        key = request.match_info["key"].removesuffix(".wav")
        if key not in self.clips:
            raise web.HTTPNotFound(text=_("No such line in this night.") + "\n")
        return web.Response(body=self.clips[key], content_type="audio/wav", headers={"Cache-Control": "no-store"})

    async def _code(self, request: web.Request) -> web.Response:
        """A tablet's listening code (``narrator.core.arrivals``), made on demand: a few kB."""
        number = request.match_info["n"].removesuffix(".wav")
        if not number.isdigit() or not 0 < int(number) <= 10_000:
            raise web.HTTPNotFound(text=_("No such code.") + "\n")
        return web.Response(body=code_wav(int(number)), content_type="audio/wav", headers={"Cache-Control": "no-store"})

    async def _websocket(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(max_msg_size=MAX_MESSAGE, heartbeat=10)
        if not ws.can_prepare(request).ok:
            raise web.HTTPBadRequest(text=_("This address is for the speaker box page, not for a browser.") + "\n")
        refusal = foreign_request(request.headers.get("Host", ""), request.headers.get("Origin"))
        if refusal:
            raise web.HTTPForbidden(text=refusal + "\n")
        await ws.prepare(request)
        self._sockets.add(ws)
        if request.transport is not None:
            self._transports[ws] = request.transport
        silent = asyncio.get_running_loop().call_later(self.hello_seconds, self._unless_greeted, ws)
        await self._send(ws, json.dumps(for_tablets(self.snapshot())))
        try:
            async for message in ws:
                if message.type != WSMsgType.TEXT:
                    continue
                reply = self._answer(message.data, ws)
                if reply is not None:
                    await ws.send_str(json.dumps(reply))
                if reply is not None and reply.get("stale"):  # a page of another game: told, then let go
                    await ws.close(code=WRONG_TOKEN)
                    break
        finally:
            silent.cancel()
            self._sockets.discard(ws)
            tablet = self._tablet_of.get(ws)
            if tablet is not None and tablet.socket == id(ws):  # after a reload the old socket may close later
                tablet.connected = False
                self._send_tablets()
        return ws

    def _unless_greeted(self, ws) -> None:
        """Close a socket that has not said a valid hello in time: every page says it as it opens,
        so a silent one only holds one of the laptop's open files."""
        if ws not in self._greeted:
            self._sockets.discard(ws)
            transport = self._transports.pop(ws, None)
            if transport is not None:
                transport.abort()

    def _greet(self, ws, proved: bool = True) -> None:
        """A socket that said a valid hello stays open; ``proved``: a page the laptop keeps (the
        controls page, the console, a tablet on the list), never pushed out to let another in."""
        if ws is None:
            return
        self._greeted.add(ws)
        self._gate.prove(self._transports.get(ws), proved)

    def _hello(self, message: dict, ws) -> dict | None:
        if message.get("role") == "moderator":
            if self.console is None or not self._has_token(message, self.moderator_token):
                return {"type": "error", "message": self.catalog.gettext(ONLY_THE_MODERATOR), "stale": True}
            self._moderators.add(ws)
            self._greet(ws)
            self.console.seen = True
            asyncio.ensure_future(self._send(ws, json.dumps(self.snapshot())))
            return self.console.view
        if message.get("role") == "control":
            if not self._has_token(message):
                return {"type": "error", "message": self.catalog.gettext(ONLY_THE_LAPTOP), "stale": True}
            self._controls.add(ws)
            self._greet(ws)
            self._send_tablets()
            return self.snapshot()  # with what only the laptop's pages see
        key = str(message.get("id"))[:40]
        tablet = self._tablets.get(key)
        earlier = self._tablet_of.get(ws)
        if earlier is not None and earlier is not tablet and earlier.socket == id(ws):
            # one tablet per socket: a page that names itself again is that tablet, not one more
            self._tablets = {name: other for name, other in self._tablets.items() if other is not earlier}
        admission = None
        if tablet is None:
            if len(self._tablets) >= MAX_TABLETS and not self._make_room():
                return self._refuse(key, ws, TOO_MANY)
            tablet = self._tablets[key] = Tablet(n=self._number_for(key), unheard=self.hush_unheard)
            if self._refused.pop(key, None) is not None:
                admission = {"type": "admitted"}  # its screen said it was turned away: no more
        self._waiting.pop(ws, None)
        for other, named in list(self._tablet_of.items()):
            if named is tablet and other is not ws:  # its page reloaded: the old socket is nobody's now
                self._gate.prove(self._transports.get(other), False)
        tablet.connected, tablet.heard, tablet.socket = True, self.clock(), id(ws)
        self._tablet_of[ws] = tablet
        self._greet(ws)
        self._send_tablets()
        # the answer tells the page its speaker's delay before its first sound (a reloaded page too)
        return {**self._delay_message(tablet), **(admission or {})}

    def _number_for(self, key: str) -> int:
        """A tablet's number on the controls page: the one it had while refused, else the next."""
        if key in self._refused:
            return self._refused[key].n
        return 1 + max((listed.n for _key, listed in self._listed()), default=0)

    def _numbered(self, number) -> "Tablet | None":
        """The tablet listed as ``number`` (None: no tablet is)."""
        return next((listed for listed in self._tablets.values() if listed.n == number), None)

    def _listed(self) -> list[tuple[str, "Tablet | Refused"]]:
        """Every tablet the controls page lists, refused ones after, by page id."""
        return [*self._tablets.items(), *self._refused.items()]

    def _make_room(self) -> bool:
        """Make room for a new tablet (``room_for_one``); one pushed out while its page is open is
        told so, and listed as refused. False when every tablet listed is real and here."""
        key = room_for_one(self._tablets)
        if key is None:
            return False
        pushed = self._tablets.pop(key)
        ws = self._socket_of(pushed)
        if ws is not None:
            asyncio.ensure_future(self._send(ws, json.dumps(self._refuse(key, ws, TOO_MANY, pushed.n))))
        return True

    def _socket_of(self, tablet: Tablet):
        """The open socket of a tablet's page, if it has one."""
        if not tablet.connected:
            return None
        return next((ws for ws, named in list(self._tablet_of.items()) if named is tablet and id(ws) == tablet.socket
                     and not ws.closed), None)

    def _refuse(self, key: str, ws, reason: str, n: int | None = None) -> dict:
        """Turn a tablet away: listed as refused on the controls page (by the number it had, if
        it had one), its socket kept (it joins when a place is freed) but pushed out first when the
        box is short of connections; the message its screen shows."""
        self._tablet_of.pop(ws, None)
        if ws is not None:
            self._greet(ws, proved=False)
            self._waiting[ws] = key
        if key not in self._refused:
            self._refused[key] = Refused(n=n or self._number_for(key), since=self.clock())
            while len(self._refused) > MAX_REFUSED:
                del self._refused[next(iter(self._refused))]
        self._send_tablets()
        return {"type": "refused-tablet", "message": self.catalog.gettext(reason)}

    def _remove(self, message: dict) -> dict:
        """The controls page takes a tablet off the list (or off the refused ones): its place goes
        to the tablet refused longest ago whose page is still open."""
        number = message.get("tablet")
        key = next((key for key, listed in self._listed() if listed.n == number and isinstance(number, int)), None)
        if key is None:
            return {"type": "refused", "action": "remove", "message": self.catalog.gettext(NO_SUCH_TABLET)}
        if key in self._refused:
            del self._refused[key]
        else:
            removed = self._tablets.pop(key)
            ws = self._socket_of(removed)
            if ws is not None:
                self._tablet_of.pop(ws, None)
                self._greet(ws, proved=False)
                tell = {"type": "refused-tablet", "message": self.catalog.gettext(REMOVED)}
                asyncio.ensure_future(self._send(ws, json.dumps(tell)))
            self._admit_waiting()
        self._send_tablets()
        return {"type": "done", "action": "remove"}

    def _delay(self, message: dict) -> dict:
        """The controls page sets how late a tablet's speaker sounds beyond what its page can see (a
        far or Bluetooth speaker): kept with the tablet for the whole game and told to its page,
        which plays that much earlier, from its first sound after a reload too."""
        number, delay = message.get("tablet"), message.get("ms")
        tablet = self._numbered(number)
        if tablet is None or not isinstance(number, int):
            return {"type": "refused", "action": "delay", "message": self.catalog.gettext(NO_SUCH_TABLET)}
        if not isinstance(delay, int | float) or isinstance(delay, bool) or not abs(delay) <= MOST_DELAY_MS:
            return {"type": "refused", "action": "delay", "message": self.catalog.gettext(DELAY_RANGE).format(
                most=MOST_DELAY_MS)}  # (not abs <= most: NaN, which Python's JSON reads, is refused too)
        self._set_delay(tablet, round(delay, arrivals.PLACES))
        return {"type": "done", "action": "delay"}

    def _set_delay(self, tablet: Tablet, delay: float) -> None:
        tablet.delay_ms, tablet.unheard = delay, False  # (set by ear on the controls page, or by a round)
        self._tell_delay(tablet)
        self._send_tablets()

    def _tell_delay(self, tablet: Tablet) -> None:
        """Its page is told its speaker's delay, and whether it waits to be heard (``_delay_message``)."""
        if (ws := self._socket_of(tablet)) is not None:
            asyncio.ensure_future(self._send(ws, json.dumps(self._delay_message(tablet))))

    def _delay_message(self, tablet: Tablet) -> dict:
        """What a tablet's page is told of its speaker's delay (seconds: it plays that much earlier);
        with "type" "admitted" instead, the same also lets a refused tablet in. "unheard": the laptop
        listens (--listen) and has not heard it yet: its page plays the night silent until it has.
        "code" (when the laptop listens): its listening code, which the page fetches at once, so
        that a round need not wait for it (``listen.LEAD``)."""
        message = {"type": "delay", "seconds": tablet.delay_ms / 1000, "unheard": tablet.unheard}
        return {**message, "code": code_url(tablet.n)} if self.listen is not None else message

    def _listen(self, message: dict) -> dict:
        """The controls page asks the laptop to listen to the tablets again (``--listen``)."""
        if self.listen is None:
            return {"type": "refused", "action": "listen", "message": self.catalog.gettext(NOT_LISTENING)}
        self.listen()
        return {"type": "done", "action": "listen"}

    # --- listening (--listen: narrator.shell.speakerbox.listen); callable from any thread ---------------

    most_delay_ms = MOST_DELAY_MS

    def connected_tablets(self) -> dict[int, int]:
        """The tablets connected now, in step or not: {number: connection}."""
        return {tablet.n: tablet.socket for tablet in list(self._tablets.values()) if tablet.connected}

    def ready_tablets(self, settled: float) -> dict[int, int]:
        """The tablets in step for at least ``settled`` seconds, with sound: {number: connection}
        (a reloaded page is another connection)."""
        now = self.clock()
        return {tablet.n: tablet.socket for tablet in list(self._tablets.values())
                if tablet.connected and tablet.since is not None and now - tablet.since >= settled}

    def steady_tablets(self, settled: float) -> set[int]:
        """The tablets in step whose page has believed its output's timestamps for at least
        ``settled`` seconds: one that does not holds its course, and a speaker delay set meanwhile
        is taken only once it believes them again, with its own correction (the ear waits)."""
        now = self.clock()
        return {tablet.n for tablet in list(self._tablets.values())
                if tablet.connected and tablet.steady is not None and now - tablet.steady >= settled}

    def reckoned(self, since: float) -> dict[int, float]:
        """How far off the laptop's playhead each tablet's page last found itself (seconds, + ahead),
        by the timestamps it believed then, from a report sent since server time ``since``: such a
        page steers only by what it finds, so one in step by them does not move by itself."""
        found = {}
        for tablet in list(self._tablets.values()):
            report = tablet.report or {}
            error = _number(report.get("error"))
            if tablet.connected and tablet.reported >= since and report.get("trusted") is True and \
                    error is not None and math.isfinite(error):
                found[tablet.n] = float(error)
        return found

    def play_codes(self, moments: dict[int, tuple[float, ...]]) -> None:
        """Each tablet plays its code (``/codes/N.wav``), heard at each of its moments (server time)."""
        def send():
            for tablet in list(self._tablets.values()):
                ws = self._socket_of(tablet)
                if tablet.n in moments and ws is not None:
                    message = {"type": "code", "url": code_url(tablet.n), "at": list(moments[tablet.n])}
                    asyncio.ensure_future(self._send(ws, json.dumps(message)))
        self._in_loop(send)

    def codes_left_out(self, since: float) -> set[int]:
        """The tablets whose page said it left out a code since server time ``since``: it could not
        place it (its output's timestamps fell in doubt), so its silence says nothing of its sound."""
        return {tablet.n for tablet in list(self._tablets.values())
                if tablet.left_out is not None and tablet.left_out >= since}

    def codes_in_doubt(self, since: float) -> set[int]:
        """The tablets whose page said it played a code with its timestamps in doubt (by a little:
        box.js's ``smallDoubt``) since server time ``since``: a delay set by it may be a few ms off."""
        return {tablet.n for tablet in list(self._tablets.values())
                if tablet.in_doubt is not None and tablet.in_doubt >= since}

    def still_in_doubt(self) -> set[int]:
        """The tablets whose page played a code in doubt and has not said since that its timestamps
        hold still: heard again now, such a page would play in doubt again."""
        return {tablet.n for tablet in list(self._tablets.values())
                if tablet.in_doubt is not None and (tablet.still is None or tablet.still < tablet.in_doubt)}

    def delays(self) -> dict[int, float]:
        return {tablet.n: tablet.delay_ms for tablet in list(self._tablets.values())}

    def set_delay(self, number: int, delay: float) -> None:
        """Tablet ``number``'s speaker delay (ms), as the controls page sets it (a round of listening)."""
        def apply():
            tablet = self._numbered(number)
            if tablet is not None:
                tablet.missed = False
                self._set_delay(tablet, round(max(-MOST_DELAY_MS, min(MOST_DELAY_MS, delay)), arrivals.PLACES))
        self._in_loop(apply)

    def heard_off(self, number: int, seconds: float) -> None:
        """Tablet ``number`` was heard ``seconds`` later than the others (earlier: negative) while its
        page held its course, its output's timestamps in doubt: its page moves its course by that
        (box.js ``heardOff``). Not its speaker's delay: a page in doubt takes a new one only once it
        believes its timestamps again, on top of its own correction then, and goes too far."""
        def send():
            tablet = self._numbered(number)
            if tablet is not None and (ws := self._socket_of(tablet)) is not None:
                asyncio.ensure_future(self._send(ws, json.dumps({"type": "heard", "seconds": round(seconds, 6)})))
        self._in_loop(send)

    def mark_missed(self, numbers) -> None:
        """The tablets whose code the laptop did not hear: the controls page names them, and one
        that was waiting to be heard plays as it is."""
        def apply():
            for tablet in list(self._tablets.values()):
                if tablet.n in numbers:
                    tablet.missed = True
                    self._hear_anyway(tablet)
            self._send_tablets()
        self._in_loop(apply)

    def listening(self, ask: Callable[[], None]) -> None:
        """The laptop listens from now on (``--listen``): ``ask`` is the controls page's Listen,
        a tablet that joins waits to be heard, and every page fetches its code ahead (one that
        joined before is told again)."""
        self.listen, self.hush_unheard = ask, True

        def apply():
            for tablet in list(self._tablets.values()):
                self._tell_delay(tablet)
            self._send_tablets()
        self._in_loop(apply)

    def play_unheard(self) -> None:
        """The laptop cannot listen (its microphone failed): every tablet plays as it is, and one
        that joins from now on too."""
        self.hush_unheard = False

        def apply():
            for tablet in list(self._tablets.values()):
                self._hear_anyway(tablet)
            self._send_tablets()
        self._in_loop(apply)

    def _hear_anyway(self, tablet: Tablet) -> None:
        if tablet.unheard:
            tablet.unheard = False
            self._tell_delay(tablet)

    def _in_loop(self, call: Callable[[], object]) -> None:
        """Run ``call`` in the server's own thread, from any thread (nothing, once it has stopped)."""
        if self._loop is not None and self._loop.is_running():
            self._loop.call_soon_threadsafe(call)

    def _admit_waiting(self) -> None:
        """A place is free: the tablet refused longest ago whose page is open takes it at once."""
        waiting = [(self._refused[key].since, id(ws), ws, key) for ws, key in list(self._waiting.items())
                   if key in self._refused and not ws.closed]
        if not waiting:
            return
        _since, _id, ws, key = min(waiting)
        admission = self._hello({"type": "hello", "role": "tablet", "id": key}, ws)
        asyncio.ensure_future(self._send(ws, json.dumps(admission)))
        asyncio.ensure_future(self._send(ws, json.dumps(for_tablets(self.snapshot()))))

    def _has_token(self, message: dict, token: str | None = None) -> bool:
        given = message.get("token")
        return isinstance(given, str) and secrets.compare_digest(given.encode(errors="replace"),
                                                                 (token or self.token).encode())

    def _controls_game(self, message: dict) -> bool:
        """The laptop's controls page, or the moderator's console, may start, pause and move on."""
        return self._has_token(message) or (self.console is not None and
                                            self._has_token(message, self.moderator_token))

    def _answer(self, data: str, ws=None) -> dict | None:
        try:
            message = json.loads(data)
        except (ValueError, RecursionError):
            message = None
        if not isinstance(message, dict) or not isinstance(message.get("type"), str):
            return {"type": "error", "message": "not a message this server understands"}
        kind = message["type"][:40]
        tablet = self._tablet_of.get(ws) if ws is not None else None
        if tablet is not None:
            tablet.heard = self.clock()
        if kind == "ping":
            return {"type": "pong", "sent": message.get("sent"), "server": self.clock()}
        if kind == "hello":
            return self._hello(message, ws)
        if kind == "report":
            if tablet is not None:
                tablet.report, tablet.reported = message, self.clock()
                # in step: its clock known and its sound on. Its output's timestamps may still be in
                # doubt now and then: the page knows best, as each play of a code is due, whether it
                # can place it, and leaves out one it cannot (``codes_left_out``).
                in_step = message.get("synced") is True and message.get("sound") is not False
                tablet.since = (tablet.since or self.clock()) if in_step else None
                tablet.steady = (tablet.steady or self.clock()) if in_step and message.get("trusted") is True else None
                tablet.proved = tablet.proved or message.get("synced") is True or message.get("playing") is True
            return None
        if kind == "code left out":  # (its timestamps in doubt, or told too late: not a tablet unheard)
            if tablet is not None:
                tablet.left_out = self.clock()
            return None
        if kind == "code in doubt":  # (played, placed by timestamps in doubt by a little)
            if tablet is not None:
                tablet.in_doubt = self.clock()
            return None
        if kind == "still":  # (its timestamps hold still since: heard again, it would be placed by them)
            if tablet is not None:
                tablet.still = self.clock()
            return None
        tablets_action = {"remove": self._remove, "delay": self._delay, "listen": self._listen}.get(str(message.get("action")))
        if kind == "control" and tablets_action is not None:  # the tablets' list: the laptop's page alone
            if not self._has_token(message):
                return {"type": "error", "message": self.catalog.gettext(ONLY_THE_LAPTOP)}
            return tablets_action(message)
        if kind == "control":
            action = message.get("action")
            if not self._controls_game(message):
                return {"type": "error", "message": self.catalog.gettext(ONLY_THE_LAPTOP)}
            if action not in ACTIONS:
                return {"type": "error", "message": f"no action {str(action)[:40]!r}"}
            if action not in self.box.actions():
                return {"type": "refused", "action": action, "message": self.catalog.gettext(NOT_NOW[action])}
            self.control(action)
            return {"type": "done", "action": action}
        if kind == "answer":
            if ws not in self._moderators or self.console is None:
                return {"type": "error", "message": self.catalog.gettext(ONLY_THE_MODERATOR)}
            self.console.offer(message.get("version"), message.get("value"), self._reply_to(ws))
            return None
        return {"type": "error", "message": f"no message type {kind!r}"}


def for_tablets(message: dict) -> dict:
    """A message as the tablets get it: a state without the names of the night's parts (a turn is
    named after its character: the laptop's pages show them, a tablet on the table never does)."""
    if message.get("type") != "state":
        return message
    night = message["night"]
    return {**message, "night": {**night, "phases": [{**phase, "label": ""} for phase in night["phases"]]}}


def foreign_request(host: str, origin: str | None) -> str | None:
    """Why a WebSocket request does not come from a page this server gave, or None.

    The Host must name this machine by address (or as localhost), which defeats DNS rebinding;
    an Origin, when the browser sends one, must be that same host, which defeats another site's
    page opening a socket to the box from the laptop's own browser.
    """
    name = urlsplit(f"//{host}").hostname or ""
    if name != "localhost" and name != socket.gethostname().lower():
        try:
            ipaddress.ip_address(name)
        except ValueError:
            return _("open the speaker box by the address narrate printed")
    if origin is not None and urlsplit(origin).netloc.lower() != host.lower():
        return _("only the speaker box's own page may connect here")
    return None


def network_addresses(interfaces: dict | None = None, stats: dict | None = None) -> list[tuple[str, str]]:
    """(interface, IPv4 address) of every network this machine is on, the likely Wi-Fi or LAN first.

    Loopback and link-local addresses are left out (no tablet can reach them), and so are
    interfaces that are down; virtual ones (containers, VPNs) come last, as each system names
    them (``narrator.shell.platform.network``).
    """
    from narrator.shell.platform.network import rank

    if interfaces is None:
        import psutil

        interfaces, stats = psutil.net_if_addrs(), psutil.net_if_stats()
    found = []
    for name, addresses in interfaces.items():
        if stats is not None and name in stats and not stats[name].isup:
            continue
        for address in addresses:
            if address.family != socket.AF_INET:
                continue
            ip = ipaddress.ip_address(address.address)
            if ip.is_loopback or ip.is_link_local or ip.is_unspecified:
                continue
            found.append((name, address.address))
    return sorted(found, key=lambda found: rank(*found))


class _OneLine(logging.Handler):
    """aiohttp's and asyncio's complaints as one line each, never a traceback on the laptop."""

    def emit(self, record: logging.LogRecord) -> None:
        reason = ""
        if record.exc_info and record.exc_info[1] is not None:
            error = record.exc_info[1]
            reason = f" ({type(error).__name__}: {str(error)[:80]})"
        try:
            line = _("narrate: speaker box: {message}").format(message=record.getMessage()[:120] + reason)
            sys.stderr.write(f"\n{line}\n")
            sys.stderr.flush()
        except (OSError, ValueError):
            pass


def quiet_logs() -> None:
    for name in ("aiohttp", "asyncio"):
        logger = logging.getLogger(name)
        if not any(isinstance(handler, _OneLine) for handler in logger.handlers):
            logger.addHandler(_OneLine(logging.WARNING))
        logger.propagate = False
