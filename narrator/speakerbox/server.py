"""The speaker box's web server (aiohttp), running in a thread of its own beside the game.

It serves exactly its own assets, by exact name (nothing is looked up on disk from a request,
so no path can climb out), the night's audio and the day's lines, and one WebSocket per tablet:
tablets ask the time (for their clock offset) and receive the game's state; only a client that
presents the secret token may start, pause or move the game on. A misbehaving client gets an
error message or a 4xx, and the server carries on.
"""

import asyncio
import json
import secrets
import socket
import threading
import weakref
from collections.abc import Callable
from pathlib import Path

from aiohttp import WSMsgType, web

from narrator.speakerbox.state import Box

STATIC = Path(__file__).parent / "static"
ASSETS = {"/": ("index.html", "text/html"), "/box.js": ("box.js", "text/javascript"),
          "/box.css": ("box.css", "text/css")}
MAX_MESSAGE = 4096
ACTIONS = ("start", "pause", "next")


class BoxServer:
    def __init__(self, box: Box, night_wav: bytes, clips: dict[str, bytes], clock: Callable[[], float],
                 control: Callable[[str], None], host: str = "0.0.0.0", port: int = 8765,
                 token: str | None = None):
        self.box = box
        self.night_wav = night_wav
        self.clips = clips
        self.clock = clock
        self.control = control  # applies a control action (start, pause, next) to the game
        self.host, self.port = host, port
        self.token = token or secrets.token_urlsafe(16)
        self._assets = {path: ((STATIC / name).read_bytes(), kind) for path, (name, kind) in ASSETS.items()}
        self._sockets: weakref.WeakSet = weakref.WeakSet()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._runner: web.AppRunner | None = None
        self._thread: threading.Thread | None = None

    # --- running ---------------------------------------------------------------------------

    def start(self) -> None:
        """Start serving in a background thread; return once the port is bound (or raise)."""
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
        app.router.add_get("/{path:.*}", self._asset)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self.port)
        await site.start()
        self.port = site._server.sockets[0].getsockname()[1]  # the real port when 0 was asked for

    def stop(self) -> None:
        if self._loop is not None and self._loop.is_running():
            self._loop.call_soon_threadsafe(self._loop.stop)
        if self._thread is not None:
            self._thread.join(5)

    # --- telling the tablets ------------------------------------------------------------------

    def broadcast(self, message: dict | None = None) -> None:
        """Send a message (the state, by default) to every tablet; callable from any thread."""
        if self._loop is None or not self._loop.is_running():
            return
        text = json.dumps(message or self.box.snapshot())
        self._loop.call_soon_threadsafe(lambda: asyncio.ensure_future(self._send_all(text)))

    async def _send_all(self, text: str) -> None:
        for ws in list(self._sockets):
            if not ws.closed:
                try:
                    await ws.send_str(text)
                except (ConnectionError, RuntimeError):
                    pass  # a tablet that went away; it will reconnect and be told again

    def say(self, key: str, lead: float = 0.3) -> None:
        """Have every tablet say a day line, all at the same moment a little ahead."""
        self.broadcast({"type": "say", "key": key, "at": self.clock() + lead})

    # --- requests ------------------------------------------------------------------------------

    async def _asset(self, request: web.Request) -> web.Response:
        path = "/" + request.match_info["path"]
        if path not in self._assets:
            raise web.HTTPNotFound(text="not here\n")
        body, kind = self._assets[path]
        return web.Response(body=body, content_type=kind, headers={"Cache-Control": "no-store"})

    async def _night(self, request: web.Request) -> web.Response:
        return web.Response(body=self.night_wav, content_type="audio/wav")

    async def _clip(self, request: web.Request) -> web.Response:
        key = request.match_info["key"].removesuffix(".wav")
        if key not in self.clips:
            raise web.HTTPNotFound(text="no such line\n")
        return web.Response(body=self.clips[key], content_type="audio/wav")

    async def _websocket(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(max_msg_size=MAX_MESSAGE, heartbeat=10)
        if not ws.can_prepare(request).ok:
            raise web.HTTPBadRequest(text="this address takes a WebSocket\n")
        await ws.prepare(request)
        self._sockets.add(ws)
        await ws.send_str(json.dumps(self.box.snapshot()))
        async for message in ws:
            if message.type != WSMsgType.TEXT:
                continue
            reply = self._answer(message.data)
            if reply is not None:
                await ws.send_str(json.dumps(reply))
        self._sockets.discard(ws)
        return ws

    def _answer(self, data: str) -> dict | None:
        try:
            message = json.loads(data)
            kind = message["type"]
        except (ValueError, TypeError, KeyError):
            return {"type": "error", "message": "not a message this server understands"}
        if kind == "ping":
            return {"type": "pong", "sent": message.get("sent"), "server": self.clock()}
        if kind == "control":
            if not isinstance(message.get("token"), str) or not secrets.compare_digest(message["token"], self.token):
                return {"type": "error", "message": "only the laptop controls the game"}
            if message.get("action") not in ACTIONS:
                return {"type": "error", "message": f"no action {message.get('action')!r}"}
            self.control(message["action"])
            return None
        return {"type": "error", "message": f"no message type {kind!r}"}


def local_addresses() -> list[str]:
    """This machine's IPv4 addresses other than loopback, from its own name (no traffic sent)."""
    try:
        infos = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)
    except OSError:
        return []
    return sorted({info[4][0] for info in infos if not info[4][0].startswith("127.")})
