"""A moderated game served by a real ``narrate`` and run from the moderator's console, for the tests.

``Served`` starts ``narrate --speaker-box`` in a process (its own data, cache and config folders)
and reads the addresses it prints. ``random_answer`` answers any question the console shows, as a
moderator tapping at random would; ``bot_game`` plays a whole game that way over the console's
WebSocket (pressing Start, skipping each part of the night, calling the vote) while a tablet
listens and keeps every message it is sent.
"""

import asyncio
import codecs
import os
import random
import re
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from test_game_lupus import LOCALES
from test_rounds import NAMES


def written(path: Path) -> str:
    """What a process has written to ``path`` so far: while it writes, the file may end inside a
    character (UTF-8 takes up to four bytes), which is left for the next read instead of failing."""
    return codecs.getincrementaldecoder("utf-8")().decode(path.read_bytes(), final=False)


@dataclass
class Served:
    """``narrate`` serving a moderated game, and what it printed."""

    process: subprocess.Popen
    folder: Path
    tablet: str = ""
    console: str = ""
    token: str = ""

    @classmethod
    def start(cls, folder: Path, game: str, players: int, lang: str = "en", *extra: str, command=None,
              stdin=subprocess.PIPE, preexec_fn=None, environ: dict | None = None) -> "Served":
        folder.mkdir(parents=True, exist_ok=True)
        args = command or ["--game", game, "--players", str(players), "--names", ",".join(NAMES[:players]),
                           "--no-ambience", "--day-seconds", "2", "--speaker-box", "--host", "127.0.0.1",
                           "--port", "0", "--no-laptop-audio", *extra]
        environ = {**os.environ, "LANG": LOCALES[lang], "HOME": str(folder), "XDG_DATA_HOME": str(folder / "data"),
                   "XDG_CACHE_HOME": str(folder / "cache"), "XDG_CONFIG_HOME": str(folder / "config"),
                   **(environ or {})}
        out, err = folder / "out.txt", folder / "err.txt"
        with open(out, "a") as stdout, open(err, "a") as stderr:
            process = subprocess.Popen([sys.executable, "-m", "narrator", *args], stdin=stdin, stdout=stdout,
                                       stderr=stderr, env=environ, cwd=folder, text=True,
                                       preexec_fn=preexec_fn)
        served = cls(process, folder)
        served.wait_for_addresses(len(written(out)) if out.exists() else 0)
        return served

    def wait_for_addresses(self, after: int = 0, seconds: float = 120) -> None:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            printed = self.output()[after:]
            found = re.search(r"(http://\S+)/moderator\?token=(\S+)", printed)
            if found:
                self.tablet, self.token = found[1] + "/", found[2]
                self.console = f"{found[1]}/moderator?token={found[2]}"
                return
            if self.process.poll() is not None:
                break
            time.sleep(0.1)
        raise AssertionError(f"no console address: {self.output()[-2000:]} {self.errors()[-2000:]}")

    def output(self) -> str:
        return written(self.folder / "out.txt")

    def errors(self) -> str:
        return written(self.folder / "err.txt")

    def type(self, *lines: str) -> None:
        self.process.stdin.write("".join(line + "\n" for line in lines))
        self.process.stdin.flush()

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait()


def random_answer(form: dict, rng: random.Random):
    """What a moderator tapping at random answers to a console question of ``form``."""
    kind = form["kind"]
    values = [option["value"] for option in form.get("options", ())]
    if kind == "go":
        return True
    if form.get("none") and rng.random() < 0.1:
        return None
    if kind in ("one", "pick"):
        return rng.choice(values)
    if kind == "several":
        most = min(len(values), form.get("most") or 2)
        return rng.sample(values, rng.randint(min(most, max(1, form.get("least") or 1)), most))
    if kind == "each":
        return {part["key"]: rng.choice([option["value"] for option in part["options"]]) for part in form["parts"]}
    if kind == "count":
        return rng.choice((0, 0, 1))
    if kind == "fields":
        shape = rng.choice(form["forms"])
        return {**shape["fixed"], **{part["key"]: rng.choice([option["value"] for option in part["options"]])
                                     for part in shape["parts"]}}
    raise AssertionError(f"a form the console does not know: {kind}")


@dataclass
class Seen:
    """What a bot-run game showed: every console step, every tablet message, the refusals."""

    steps: list = field(default_factory=list)
    states: list = field(default_factory=list)  # the box's states the console was sent
    tablet: list = field(default_factory=list)  # every message a tablet was sent, as sent (text)
    refused: list = field(default_factory=list)
    kinds: set = field(default_factory=set)
    timeline: list = field(default_factory=list)  # every state and step the console was sent, in order


def bot_game(served: Served, seed: int, seconds: float = 400, kill_at=None) -> Seen:
    """Play the served game to its end from the console's WebSocket, answering at random, with a
    tablet listening; or until a step the console is shown satisfies ``kill_at``, when narrate is
    killed."""
    import aiohttp

    rng = random.Random(seed)
    seen = Seen()
    socket_url = served.tablet + "ws"

    async def tablet(session):
        async with session.ws_connect(socket_url) as ws:
            await ws.send_json({"type": "hello", "role": "tablet", "id": "listener"})
            async for message in ws:
                if message.type == aiohttp.WSMsgType.TEXT:
                    seen.tablet.append(message.data)

    async def console(session):
        async with session.ws_connect(socket_url) as ws:
            await ws.send_json({"type": "hello", "role": "moderator", "token": served.token})
            answered = None
            step = None
            while served.process.poll() is None:
                try:
                    message = await ws.receive_json(timeout=1)
                except (asyncio.TimeoutError, TypeError):
                    continue
                if message.get("type") in ("state", "step"):
                    seen.timeline.append(message)
                if message.get("type") == "state":
                    seen.states.append(message)
                    actions = message["actions"]
                    action = "start" if "start" in actions else "next" if "next" in actions and (
                        message["stage"] == "night" or message["day"] and not message["day"]["voting"]) else None
                    if action:
                        await ws.send_json({"type": "control", "action": action, "token": served.token})
                elif message.get("type") == "step":
                    step = message
                    seen.steps.append(message)
                    if kill_at is not None and kill_at(message):
                        served.process.kill()
                        served.process.wait()
                        return
                    if message["form"] and message["version"] != answered:
                        answered = message["version"]
                        seen.kinds.add(message["form"]["kind"])
                        await ws.send_json({"type": "answer", "token": served.token, "version": answered,
                                            "value": random_answer(message["form"], rng)})
                elif message.get("type") == "not-taken":
                    seen.refused.append(message)
                    if message["reason"] == "wrong" and step and step["version"] == message["version"]:
                        await ws.send_json({"type": "answer", "token": served.token, "version": step["version"],
                                            "value": random_answer(step["form"], rng)})

    async def both():
        async with aiohttp.ClientSession() as session:
            listening = asyncio.ensure_future(tablet(session))
            await console(session)
            await asyncio.sleep(0.2)
            listening.cancel()

    asyncio.run(asyncio.wait_for(both(), seconds))
    return seen
