"""The moderator's console (issue 28): questions answered at the terminal or on the phone, whichever
is first; the server's guard on it; whole games of every game of many nights played from it, the
tablets learning nothing secret; and the page itself at a phone's size in Chromium."""

import asyncio
import json
import os
import re
import threading
import time

import aiohttp
import click
import pytest
from moderation import Served, bot_game

from narrator.core.deck import usual_deck
from narrator.core.nights import answer_sentences
from narrator.core.vote import Sentences
from narrator.games import GAMES_DIR
from narrator.games.loader import available_games, load_game
from narrator.shell.cli.prompts import Undo
from narrator.shell.speakerbox.forms import fault
from narrator.shell.speakerbox.moderator import Console
from narrator.shell.speakerbox.server import BoxServer
from narrator.shell.speakerbox.state import Box

ONE = {"kind": "one", "question": "Seer points at", "none": True,
       "options": [{"label": "Anna", "value": "Anna"}, {"label": "Bruno", "value": "Bruno"}]}


# --- the forms ----------------------------------------------------------------------------------------

@pytest.mark.parametrize("form, good, bad", [
    (ONE, ["Anna", None], ["Zeno", ["Anna"], {"a": 1}]),
    ({**ONE, "none": False}, ["Bruno"], [None]),
    ({**ONE, "kind": "several", "most": 2}, [["Anna", "Bruno"], None], [[], ["Anna", "Anna"], ["Zeno"], "Anna"]),
    ({"kind": "each", "none": True, "parts": [{"key": "x", "options": ONE["options"]}]}, [{"x": "Anna"}, None],
     [{"y": "Anna"}, {"x": "Zeno"}, {}]),
    ({"kind": "pick", "options": [{"label": "yes", "value": True}, {"label": "no", "value": False}]}, [True, False],
     [None, "yes", 1.5]),
    ({"kind": "count", "most": 3}, [0, 3], [4, -1, True, "2"]),
    ({"kind": "go", "label": "Vote"}, [True], [False, None]),
])
def test_a_form_takes_only_its_own_answers(form, good, bad):
    assert [fault(form, value) for value in good] == [None] * len(good)
    assert all(fault(form, value) is not None for value in bad)
    assert fault(None, "Anna") is not None  # nothing is asked


def test_why_an_answer_is_refused_is_said_in_the_game_s_language():
    from narrator.shell.translation import ENGLISH, SOURCE_LANGUAGE, load_catalog, use

    use(load_catalog("it"), "it")
    try:
        assert fault(ONE, "Zeno") == "non è tra le scelte possibili"
        assert fault({"kind": "count", "most": 3}, 4) == "un numero da 0 a 3"
    finally:
        use(ENGLISH, SOURCE_LANGUAGE)
    assert fault(ONE, "Zeno") == "not one of the options"


# --- the race between the terminal and the phone ---------------------------------------------------------

@pytest.fixture
def typing(monkeypatch):
    """The terminal's input as a pipe (what a test, or a script, types), nothing typed yet."""
    read, write = os.pipe()
    stdin = os.fdopen(read, "r")
    monkeypatch.setattr("sys.stdin", stdin)
    writer = os.fdopen(write, "w")
    yield writer
    writer.close()
    stdin.close()


@pytest.fixture(autouse=True)
def prompts_race(monkeypatch):
    """click's prompts read their lines through the console, as the game's table has them do."""
    import click.termui

    real = Console.__init__

    def made(self, *args, **kwargs):
        real(self, *args, **kwargs)
        monkeypatch.setattr(click.termui, "visible_prompt_func", self.prompt)
    monkeypatch.setattr(Console, "__init__", made)


def answer_soon(console, version, value, replies, delay=0.3):
    threading.Timer(delay, console.offer, args=(version, value, replies.append)).start()


def test_the_phone_answers_while_the_terminal_waits(typing, capsys):
    console, replies, tapped = Console(Undo, (EOFError, click.Abort)), [], []
    answer_soon(console, 1, "Bruno", replies)
    started = time.monotonic()
    value = console.ask({"title": "Night 1", "form": ONE}, lambda: click.prompt("Seer points at"),
                        tapped=lambda value, prompted: tapped.append((value, prompted)))
    assert value == "Bruno" and time.monotonic() - started < 2
    assert tapped == [("Bruno", True)] and replies == [{"type": "taken", "version": 1}]
    assert "Seer points at" in capsys.readouterr().out


def test_the_terminal_answers_and_the_phone_is_then_told_so(typing):
    console, replies = Console(Undo, (EOFError, click.Abort)), []
    typing.write("Anna\n")
    typing.flush()
    assert console.ask({"form": ONE}, lambda: click.prompt("Seer points at")) == "Anna"
    console.offer(1, "Bruno", replies.append)  # the same question, answered late on the phone
    answer_soon(console, 2, "Anna", replies)
    assert console.ask({"form": ONE}, lambda: click.prompt("Seer points at")) == "Anna"
    assert replies[0] == {"type": "not-taken", "version": 1, "reason": "answered"}
    assert replies[1]["type"] == "step" and replies[1]["version"] == 2  # shown what is asked now
    assert replies[2] == {"type": "taken", "version": 2}


def test_a_wrong_answer_is_refused_and_undo_goes_back(typing):
    console, replies = Console(Undo, (EOFError, click.Abort)), []
    console.offer(1, "Zeno", replies.append)
    console.offer(1, "Anna", replies.append)
    check = lambda value: "not Anna" if value == "Anna" else None  # noqa: E731 - the rules' own check
    answer_soon(console, 1, "Bruno", replies)
    assert console.ask({"form": ONE}, lambda: click.prompt("?"), check) == "Bruno"
    assert [reply["type"] for reply in replies] == ["not-taken", "not-taken", "taken"]
    assert replies[1]["message"] == "not Anna"
    console.offer(2, "undo", replies.append)
    with pytest.raises(Undo):
        console.ask({"form": ONE}, lambda: click.prompt("?"))


def test_refused_phone_answers_leave_the_laptop_s_prompt_as_it_was(typing, capsys):
    """Issue 39, point 18: each answer the phone gives that is refused brought the terminal's
    question back, printed again on the same line (eight refusals, eight prompts)."""
    console, replies = Console(Undo, (EOFError, click.Abort)), []
    for index in range(4):
        answer_soon(console, 1, "Zeno", replies, delay=0.3 + 0.25 * index)
    answer_soon(console, 1, "Anna", replies, delay=1.6)
    assert console.ask({"form": ONE}, lambda: click.prompt("Seer points at")) == "Anna"
    assert [reply["type"] for reply in replies] == ["not-taken"] * 4 + ["taken"]
    assert capsys.readouterr().out.count("Seer points at") == 1
    typing.write("Bruno\n")  # the next question is asked afresh
    typing.flush()
    assert console.ask({"form": ONE}, lambda: click.prompt("Seer points at")) == "Bruno"
    assert capsys.readouterr().out.count("Seer points at") == 1


def test_a_closed_terminal_waits_for_the_phone_once_one_is_connected(typing):
    typing.close()
    console = Console(Undo, (EOFError, click.Abort))
    with pytest.raises(click.Abort):  # nobody on the phone: the input's end ends the game, as before
        console.ask({"form": ONE}, lambda: click.prompt("?"))
    console.seen, replies = True, []
    answer_soon(console, 2, "Anna", replies)
    assert console.ask({"form": ONE}, lambda: click.prompt("?")) == "Anna"


# --- the server -----------------------------------------------------------------------------------------

@pytest.fixture
def served():
    console = Console(Undo, (EOFError, click.Abort))
    box = Box(night_length=10.0, phases=[(0.0, "Nightfall"), (2.0, "Seer")], clock=time.monotonic)
    server = BoxServer(box, b"RIFF", {}, time.monotonic, lambda action: None, host="127.0.0.1", port=0,
                       token="laptop", console=console)
    box.on_change = server.broadcast
    server.start()
    console.show({"title": "Night 1", "lines": [], "table": [{"name": "Anna", "card": "Seer", "dead": False}],
                  "form": ONE})
    yield server
    server.stop()


async def said(server, *messages, wait=0.5):
    """What a page that sends ``messages`` hears back."""
    heard = []
    async with aiohttp.ClientSession() as session, session.ws_connect(f"http://127.0.0.1:{server.port}/ws") as ws:
        for message in messages:
            await ws.send_str(message if isinstance(message, str) else json.dumps(message))
        deadline = time.monotonic() + wait
        while time.monotonic() < deadline:
            try:
                heard.append(await ws.receive_json(timeout=deadline - time.monotonic()))
            except (asyncio.TimeoutError, TypeError):
                break
    return heard


def test_only_the_moderators_token_opens_the_console(served):
    for token in ("laptop", "guess", None, 7):
        heard = asyncio.run(said(served, {"type": "hello", "role": "moderator", "token": token},
                                 {"type": "answer", "version": 1, "value": "Anna", "token": token}))
        assert not [message for message in heard if message["type"] == "step"]
        # told once, and let go: the answer after it reaches nobody
        assert [message["type"] for message in heard if message["type"] == "error"] == ["error"]
    heard = asyncio.run(said(served, {"type": "hello", "role": "moderator", "token": served.moderator_token}))
    (step,) = [message for message in heard if message["type"] == "step"]
    assert step["table"][0]["card"] == "Seer" and step["form"] == ONE


def test_malformed_answers_are_refused_without_a_traceback(served, capfd):
    hello = {"type": "hello", "role": "moderator", "token": served.moderator_token}
    asyncio.run(said(served, hello, "{", "[]", {"type": "answer"}, {"type": "answer", "version": [1], "value": {}},
                     {"type": "answer", "version": 1, "value": "x" * 3000}))
    queued = []
    while not served.console._answers.empty():
        queued.append(served.console._answers.get_nowait())
    assert len(queued) == 3  # queued, and refused by the game's thread (its form), never trusted here
    assert all(version != 1 or fault(ONE, value) is not None for version, value, _reply in queued)  # stale, or wrong
    assert "Traceback" not in capfd.readouterr().err


def test_the_tablets_never_see_the_night_parts_names(served):
    tablet = asyncio.run(said(served, {"type": "hello", "role": "tablet", "id": "t"}))
    laptop = asyncio.run(said(served, {"type": "hello", "role": "control", "token": "laptop"}))
    labels = lambda heard: [[phase["label"] for phase in message["night"]["phases"]]  # noqa: E731
                            for message in heard if message["type"] == "state"]
    assert labels(tablet) and all(names == ["", ""] for names in labels(tablet))
    assert ["Nightfall", "Seer"] in labels(laptop)


def test_no_console_without_a_moderator():
    box = Box(night_length=10.0, phases=[], clock=time.monotonic)
    server = BoxServer(box, b"RIFF", {}, time.monotonic, lambda action: None, host="127.0.0.1", port=0)
    server.start()
    try:
        async def get(path):
            async with aiohttp.ClientSession() as session, session.get(f"http://127.0.0.1:{server.port}{path}") as got:
                return got.status
        assert asyncio.run(get("/moderator")) == 404
        heard = asyncio.run(said(server, {"type": "hello", "role": "moderator", "token": server.moderator_token}))
        assert [message["type"] for message in heard if message["type"] != "state"] == ["error"]
    finally:
        server.stop()


# --- whole games from the console ------------------------------------------------------------------------

def secret_words(game_id: str, lang: str, players: int) -> set[str]:
    """What a tablet must never be told: a role's name, a player's name."""
    from moderation import NAMES

    game = load_game(GAMES_DIR / game_id)
    language = game.languages[lang]
    return {language.role_name(role.id) for role in game.roles} | set(NAMES[:players])


def moderated_games(table: int = 10) -> list[tuple[str, int, str, bool]]:
    """Every game of many nights that a moderator plays from the console, as played here: its
    players (``table``, within the game's range), a language (each of its own in turn) and whether
    it is started by 'narrate serve' (every other game) or by 'narrate --speaker-box'."""
    found = []
    for game_id in available_games(GAMES_DIR):
        game = load_game(GAMES_DIR / game_id)
        players = min(max(table, game.min_players), game.max_players)
        if game.plays_rounds and game.moderated(usual_deck(game, players).role_ids, game.option_defaults):
            languages = sorted(game.languages)
            found.append((game_id, players, languages[len(found) % len(languages)], len(found) % 2 == 1))
    return found


@pytest.mark.parametrize("game_id, players, lang, serve", moderated_games(table=8))
def test_a_whole_game_from_the_console_tells_the_tablets_nothing_secret(tmp_path, game_id, players, lang, serve):
    command = None
    if serve:  # 'narrate serve' too serves the console
        from moderation import NAMES

        command = ["--game", game_id, "serve", "--players", str(players), "--names", ",".join(NAMES[:players]),
                   "--no-ambience", "--day-seconds", "2", "--host", "127.0.0.1", "--port", "0", "--no-laptop-audio"]
    served = Served.start(tmp_path, game_id, players, lang, "--lang", lang, command=command and [*command, "--lang", lang])
    try:
        seen = bot_game(served, seed=players)
        assert served.process.wait(timeout=30) == 0, served.errors()[-2000:]
    finally:
        served.stop()
    (saved,) = (tmp_path / "data" / "narrator" / "games").glob("[!.]*.json")
    assert json.loads(saved.read_text())["over"] is True
    assert seen.steps[-1]["form"] is None and seen.steps[-1]["table"]  # the end, and the cards
    assert any(step["form"] for step in seen.steps) and not [r for r in seen.refused if r["reason"] != "wrong"]
    told_only_what_was_said(seen, game_id, lang, players)
    assert "Traceback" not in served.errors()
    game = load_game(GAMES_DIR / game_id)
    notes, deaths, days_came = along(game, json.loads(saved.read_text()), lang)
    shown = {note for step in seen.steps for note in step["notes"]}
    assert shown == notes  # the game's own state, as its rules tell it, on the console
    printed = [line.strip() for step in seen.steps for line in step["lines"]]
    assert all(death in printed for death in deaths)  # each dawn's dead and why (a random game may have none)
    kept = [line.strip() for step in seen.steps for earlier in step["before"] for line in earlier["lines"]]
    assert all(death in kept for death in deaths)  # still shown in the step after the dawn (issue 39, point 15)
    logged = {line.strip() for step in seen.steps for earlier in step["log"] for line in earlier["lines"]}
    assert all(death in logged for death in deaths) and len(logged) > 10  # and in the page's log
    moments = {step["form"]["question"] for step in seen.steps if step["form"] and step["form"]["kind"] == "go"}
    assert not [line for line in logged if line.startswith(tuple(moments))]  # the log keeps choices, not buttons
    say = Sentences(game.languages[lang])
    # each answer's words, up to the player's name where one is told (the Ladra shown the mystic's holder)
    answers = tuple(say(key, name="\0").split("\0")[0] for key in answer_sentences(game.rules))
    told = [step["told"] for step in seen.steps if step["told"]]
    assert all(text.startswith(answers) for text in told)  # the answer to nod at, shown large
    assert told or game_id != "lupus-in-tabula"  # the Seer is answered every night she points
    titles = tuple(text for key, text in game.languages[lang].vote.items() if key.startswith("title_"))
    assert not titles or any(step["title"].startswith(titles) for step in seen.steps if step["form"])  # point 17
    forms = [step["form"] for step in seen.steps if step["form"]]
    assert not [form for form in forms if re.search(r"\b(Enter|Invio)\b", form.get("question") or "")]  # a phone
    assert not [line for step in seen.steps for line in step["lines"] if re.search(r"\b(Enter|Invio)\b", line)]
    counts = [count for state in seen.states if state["stage"] == "night" for count in state["night"]["counts"]]
    assert counts and all(count["seconds"] > 0 and count["start"] >= 0 for count in counts)  # the turns' counts
    days = [step for step in seen.steps if any(re.match(r"(Day|Giorno) \d+\. ", line) for line in step["lines"])]
    # a random game may end at its first dawn (LeartS' cacciatore shooting both lupi at his door): no day then
    assert bool(days) == days_came and all(re.match(r"(Day|Giorno) \d+", step["title"]) for step in days)  # titled so
    assert any(state["stage"] == "day" for state in seen.states) == days_came  # on every page, on the clock or off it


def told_only_what_was_said(seen, game_id: str, lang: str, players: int) -> None:
    """A tablet was told in words only what was said aloud (issue 40, point 2): the lines it was
    told to say carry their words, a day's and the game's result is only lines said, and nothing
    else it got names a player or a role."""
    secrets = secret_words(game_id, lang, players)
    messages = [json.loads(text) for text in seen.tablet]
    said = {message["text"] for message in messages if message["type"] == "say"}  # aloud, to everyone
    assert said and not [message for message in messages if message["type"] == "say" and not message["text"]]
    results = [line for message in messages for line in message.get("result") or ()]
    assert results and set(results) <= said
    for message in messages:
        if message["type"] == "say":
            continue
        message.pop("result", None)
        shown = json.dumps(message, ensure_ascii=False)
        assert not [word for word in secrets if word in shown], message
    assert len(seen.tablet) > 10


def along(game, saved: dict, lang: str) -> tuple[set[str], list[str], bool]:
    """Along a saved game, as its rules tell it: every note for the moderator, each dawn's deaths
    and why, in order, and whether a day came."""
    from narrator.core.rounds import DawnStep, DayStep, Rounds, notes_for, setup_from_dict

    rounds, notes, deaths, days_came = Rounds(game, setup_from_dict(saved["setup"])), set(), [], False
    say = Sentences(game.languages[lang])
    for entry in [*saved["entries"], None]:
        step = rounds.step
        days_came = days_came or isinstance(step, DayStep)
        notes.update(notes_for(game, step.state, say, getattr(step, "tonight", {})))
        if isinstance(step, DawnStep) and step.dawn is not None:
            deaths += [say(f"reason_{reason}", name=name, players=len(step.state.seating))
                       for reason, name in step.dawn.reasons]
        if entry is not None:
            rounds.enter(entry)
    return notes, deaths, days_came


def test_a_game_killed_in_the_day_resumes_with_the_console_and_the_tablets_at_once(tmp_path):
    """narrate killed at a vote: ``narrate resume`` serves the console and the tablets again at
    once (not only at the next night), at the same address with the same token, and the game is
    played from the console to its end."""
    first, resumed = Served.start(tmp_path, "lupus-in-tabula", 8, "en", "--port", str(free_port())), None
    try:
        voting = re.compile(r"'s vote, day|, day \d+: ")  # a voter's step, in a round the game names or not
        before = bot_game(first, seed=3, kill_at=lambda step: bool(step["form"]) and bool(voting.search(step["title"])))
        assert first.process.returncode != 0 and voting.search(before.steps[-1]["title"])
        resumed = Served.start(tmp_path, "lupus-in-tabula", 8, "en", command=["resume"])
        assert resumed.console == first.console
        controls = re.findall(r"This laptop's controls: (\S+)", resumed.output())
        assert len(controls) == 2 and controls[0] == controls[1]  # the controls page's address is kept too
        after = bot_game(resumed, seed=4)
        assert resumed.process.wait(timeout=30) == 0, resumed.errors()[-2000:]
    finally:
        for run in (first, resumed):
            if run is not None:
                run.stop()
    asked = [step for step in after.steps if step["form"]]
    assert asked[0]["title"] == before.steps[-1]["title"]  # back where it stopped
    # ...at once (issue 39, point 16): the vote is on every page and its question on the phone, with
    # no Start to press and no night on the tablets
    first = after.timeline.index(asked[0])
    states = [message for message in after.timeline[:first] if message["type"] == "state"]
    assert states and all(state["stage"] == "day" and state["day"]["voting"] for state in states), states
    (saved,) = (tmp_path / "data" / "narrator" / "games").glob("[!.]*.json")
    assert json.loads(saved.read_text())["over"] is True
    assert "Resumed at" in resumed.output() and "Traceback" not in resumed.errors()


# --- the page, at a phone's size ---------------------------------------------------------------------------

# What the phone shows, in one look (each look is a round trip to the browser, and a game takes
# hundreds): whether Start and Next show, and the step on the phone with its buttons' heights.
LOOK = """() => {
  const shows = (action) => !!document.querySelector(`#controls button[data-action=${action}]`)?.offsetParent;
  const step = view && view.form && {
    form: view.form, version: view.version, heading: document.querySelector('#question h2')?.textContent,
    heights: [...document.querySelectorAll('#question button, #undo')].filter((b) => b.offsetParent)
      .map((b) => b.getBoundingClientRect().height)};
  return {start: shows('start'), next: shows('next'), step};
}"""


def tap_through(page, current, rng, interrupt_after=None, interrupt=None, type_every=None, seconds=300, shots=None):
    """Play the served game (``current()``: the narrate serving it now) to its end by taps on the
    console page: Start, Next (twice: it asks to confirm), and a random answer to every question;
    ``interrupt(page)`` once after ``interrupt_after`` answers; every ``type_every``-th question
    of names answered at the laptop's terminal instead, the page following. Returns every kind of
    question met with the smallest button height seen for it, and the answers tapped and typed."""
    kinds, answered, tapped, typed, last = {}, 0, 0, 0, None
    deadline = time.monotonic() + seconds
    page.add_init_script(f"({SENT})()")  # (after a reload too)
    page.evaluate(SENT)
    while current().process.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
        look = page.evaluate(LOOK)  # at one moment: a day's question may end by its clock in the next
        if look["start"] and tap(page.locator("#controls button[data-action=start]")):
            continue
        following = page.locator("#controls button[data-action=next]")
        if look["next"] and tap(following):
            tap(following)  # to confirm
            continue
        shown = look["step"]
        if not shown or shown["version"] == last:
            continue
        form, version, last = shown["form"], shown["version"], shown["version"]
        heights = shown["heights"]
        assert shown["heading"] == form["question"] or not form["question"]
        if shots is not None and form["kind"] not in kinds:  # the first step of each kind, for a human to look at
            page.screenshot(path=str(shots / f"{len(kinds):02d}-{form['kind']}.png"), full_page=True)
        kinds[form["kind"]] = min(heights + [kinds.get(form["kind"], 1e9)])
        answered += 1
        if type_every and form["kind"] == "one" and answered % type_every == 0:
            current().type(rng.choice(form["options"])["label"])  # at the laptop: the page moves on by itself
            page.wait_for_function(f"view.version !== {version}", timeout=20000)
            typed += 1
        else:
            for grid in page.locator("#question .names").all():  # a name in each grid (one per chooser),
                names = grid.locator("button:not(.none)")  # as many as a question of several needs at least
                wanted = max(1, form.get("least") or 0) if form["kind"] == "several" else 1
                for index in rng.sample(range(names.count()), min(wanted, names.count())):
                    names.nth(index).click()
            if form["kind"] == "count":  # hands for a name: none, or every hand (someone is sent away, and
                for _ in range(rng.choice([0, 0, form["most"]])):  # the game ends within a few days)
                    page.click("#question .count button >> nth=1")  # +
            # Confirm (or the day's go): tapped again while it is the step on the phone and cannot be
            # tapped yet; not tapped at all when the step has gone (a day's clock may have ended it)
            while not tap(page.locator("#question button.go").last) and time.monotonic() < deadline \
                    and page.evaluate("view && view.version") == version:
                time.sleep(0.05)
            tapped += page.evaluate("(version) => window.sentAnswers.has(version)", version)  # (see SENT)
        if answered == interrupt_after:
            interrupt(page)
            last = None
    return kinds, tapped, typed


SENT = """() => {
  // The steps the page sent an answer for, as it sends it: a tap can go through and still time
  // out in Playwright on a loaded machine (seen once: one answer more at the laptop than counted).
  if (window.sentAnswers) return;
  window.sentAnswers = new Set();
  const send = WebSocket.prototype.send;
  WebSocket.prototype.send = function (data) {
    try { const message = JSON.parse(data); if (message.type === "answer") window.sentAnswers.add(message.version); }
    catch (error) { /* not ours */ }
    return send.call(this, data);
  };
}"""


def tap(button) -> bool:
    """Tap a button if it shows, and say whether it was tapped. The page may hide it between the
    look and the tap (the laptop's state arriving just then, as on a loaded machine): then it was
    not for tapping any more, and is not waited for."""
    from playwright.sync_api import TimeoutError as Timeout

    if not button.is_visible():
        return False
    try:
        button.click(timeout=500)  # (a tap that the page took takes milliseconds: the loop comes back to one that did not)
    except Timeout:
        return False
    return True


def free_port() -> int:
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.mark.parametrize("game_id, players, lang, interruption", [("lupus-in-tabula", 8, "en", "reload"),
                                                                   ("learts-variant", 9, "it", "killed"),
                                                                   ("wherewolf-in-tabula", 8, "it", "reload"),
                                                                   ("wherewolf-revised", 8, "en", "killed")])
def test_a_whole_game_by_taps_on_a_phone(browser, tmp_path, game_id, players, lang, interruption):
    """A whole game tapped on a phone: one with the page reloaded and the laptop's terminal
    answering some questions in turn with the phone; one whose narrate is killed in the middle
    and resumed, the page coming back to it by itself (same address, same token)."""
    import random

    runs = [Served.start(tmp_path, game_id, players, lang, "--lang", lang, "--port", str(free_port()))]

    def interrupt(page):
        if interruption == "reload":
            page.reload()
        else:
            runs[-1].process.kill()
            runs[-1].process.wait()
            page.wait_for_function("document.getElementById('status').classList.contains('trouble')", timeout=10000)
            page.evaluate("view = null")  # from here on, only what the resumed game sends
            runs.append(Served.start(tmp_path, game_id, players, lang, command=["resume"]))
            assert runs[-1].console == runs[0].console  # the address on the phone still opens the game
            page.wait_for_function("view !== null && state !== null", timeout=20000)
            # where the game is, at once, before any Start (issue 39, point 16)
            assert page.evaluate("view.title") and page.locator("#cards li").count() == players
            waits = page.evaluate("state.stage === 'waiting'")
            assert page.text_content("#question") != ("Niente da inserire: ascolta." if waits else "")
            page.screenshot(path=str(tmp_path / "resumed.png"), full_page=True)
        page.wait_for_function("view !== null", timeout=20000)

    try:
        page = browser.new_page(viewport={"width": 390, "height": 844})
        page.goto(runs[0].console)
        page.wait_for_function("view !== null", timeout=20000)
        assert page.title() == {"en": "narrate · moderator", "it": "narrate · moderatore"}[lang]
        assert page.locator("#cards li").count() == players  # the secret table, from the start
        kinds, tapped, typed = tap_through(page, lambda: runs[-1], random.Random(5), interrupt_after=6,
                                           interrupt=interrupt, type_every=3 if interruption == "reload" else None,
                                           shots=tmp_path)
        assert runs[-1].process.wait(timeout=30) == 0, runs[-1].errors()[-2000:]
        page.wait_for_timeout(300)
        page.screenshot(path=str(tmp_path / "end.png"))
        assert page.text_content("#lines") and page.locator("#cards li.dead").count() >= 1
        assert page.text_content("#status") == {"en": "Game over", "it": "Partita finita"}[lang]
    finally:
        for run in runs:
            run.stop()
    assert "one" in kinds and all(height >= 44 for height in kinds.values()), kinds
    saved = json.loads(next((tmp_path / "data" / "narrator" / "games").glob("[!.]*.json")).read_text())
    assert saved["over"] is True
    mark = {"en": "(from the moderator's phone)", "it": "(dal telefono del moderatore)"}[lang]
    if interruption == "reload":
        assert typed >= 2 and runs[0].output().count(mark) == tapped  # each answer tapped, and only those
    else:
        assert len(runs) == 2  # resumed
        assert "each" in kinds or game_id != "learts-variant"  # LeartS' pack's choice, one name per wolf
        assert runs[1].output().count(mark) >= 3


WORD_LINES = """(button, word) => {  // the lines a word of a button's text is laid out on
  const text = button.firstChild, range = document.createRange(), at = text.data.indexOf(word);
  range.setStart(text, at);
  range.setEnd(text, at + word.length);
  return range.getClientRects().length;
}"""
LONG = "Massimiliano Della Torre"  # 24 characters (issue 39, point 20)
NAMES8 = [{"label": name, "value": name} for name in ("Anna", "Bruno", "Carla", "Dario", "Elena", "Fabio", LONG,
                                                       "Pierfrancescogiuseppe")]
EVERY_KIND = {  # a step of each kind the console shows, as the laptop sends them
    "one": {"kind": "one", "question": "Seer points at", "none": True, "options": NAMES8},
    "several": {"kind": "several", "question": "Ghosts point at", "none": True, "most": 2, "least": 1,
                "options": NAMES8, "count": "up to 2 names"},
    "each": {"kind": "each", "question": "The pack chooses", "none": True, "parts": [
        {"key": "a", "name": "Leader", "label": "Leader points at", "options": NAMES8},
        {"key": "b", "name": "Second", "label": "Second points at", "options": NAMES8}]},
    "pick": {"kind": "pick", "question": "Is the game over?",
             "options": [{"label": "yes", "value": True}, {"label": "no", "value": False}]},
    "count": {"kind": "count", "question": "Hands for Anna", "most": 7},
    "go": {"kind": "go", "question": "When the talk is over:", "label": "Vote now"},
    "fields": {"kind": "fields", "question": "The Mage", "none": True, "forms": [
        {"fixed": {"turn": "mago"}, "parts": [{"key": "recruit", "label": "recruits", "options": NAMES8}]},
        {"fixed": {"turn": "pass"}, "parts": []}]},
    "listen": None,
}


def test_a_page_of_another_game_says_so_and_stops_knocking(browser, served):
    """A controls page or a console whose token is not this game's (left open from another game):
    the laptop says so and lets it go, and the page says so for good instead of reconnecting every
    few seconds (each try would hold one of the laptop's connections)."""
    pages = {"/?token=old": ("#trouble-title", "#trouble-hint"), "/moderator?token=old": ("#lost-title", "#lost-hint")}
    for address, (title, hint) in pages.items():
        page = browser.new_page()
        page.goto(f"http://127.0.0.1:{served.port}{address}")
        page.wait_for_function(f"document.querySelector('{title}').textContent === \"This address is not the game's\"",
                               timeout=10000)
        assert page.is_visible(title) and "open the address narrate printed" in page.text_content(hint)
        time.sleep(2.5)  # a page that kept knocking would be back by now (it tries again within a second)
        assert served.connected() == 0
        page.close()


def test_a_phone_whose_network_goes_silent_says_so_and_comes_back_to_the_step_in_hand(browser, served):
    """The phone's link dies without a word (nothing comes, nothing closes): within its few
    seconds of silence the console says the connection is lost, takes a new one, shows the step
    the laptop is at now, and a tap reaches the laptop again. A tap with no connection at all
    says it was not sent."""
    import queue

    from boxnet import JitterProxy

    offered, offer = queue.Queue(), served.console.offer
    served.console.offer = lambda version, value, reply: (offered.put((version, value)), offer(version, value, reply))
    proxy = JitterProxy(served.port).start()
    try:
        page = browser.new_page(viewport={"width": 390, "height": 844})
        page.goto(f"http://127.0.0.1:{proxy.port}/moderator?token={served.moderator_token}")
        page.wait_for_function("view !== null", timeout=10000)
        proxy.stall()
        went = time.monotonic()
        page.wait_for_function("document.getElementById('status').classList.contains('trouble')", timeout=15000)
        assert time.monotonic() - went < 5 + 5  # its silence (5 s) and a moment to notice: not a minute
        covered = "[[20, 20], [195, 420], [370, 820]].every(([x, y]) => document.elementFromPoint(x, y).closest('#lost'))"
        assert page.is_visible("#lost") and page.evaluate(covered)  # unmissable, nothing to tap under it (point 18)
        assert page.text_content("#lost-title") == "Connection lost"
        page.wait_for_function("!document.getElementById('status').classList.contains('trouble')", timeout=15000)
        assert not page.is_visible("#lost")
        served.console.show({"title": "Night 2", "lines": [], "table": [], "form": ONE})  # the laptop moved on
        page.wait_for_function("view.title === 'Night 2'", timeout=10000)
        page.click("#question .names button:not(.none) >> nth=1")
        page.click("#question button.go >> nth=-1")
        assert offered.get(timeout=10) == (served.console.version, ONE["options"][1]["value"])
        page.evaluate("socket.onclose = null; socket.close(); socket = null")  # gone, and no new one coming
        page.click("#question .names button:not(.none) >> nth=0")
        page.click("#question button.go >> nth=-1")
        assert page.text_content("#feedback") == "Not sent: no connection to the laptop. Tap again once it is back."
        assert page.evaluate("document.getElementById('feedback').classList.contains('refused')")
        page.wait_for_timeout(500)
        assert offered.empty()
    finally:
        proxy.stop()


def test_every_kind_of_step_fits_a_phone_and_the_night_shows_the_turn_and_its_count(browser, served, tmp_path):
    """Each kind of step, shown as the laptop sends it, on a phone held upright: its words are
    there, every button is at least 44 px high, nothing is wider than the screen; a screenshot of
    each is kept. The night's state shows the part being called and the seconds its count has left."""
    page = browser.new_page(viewport={"width": 390, "height": 844})
    page.goto(f"http://127.0.0.1:{served.port}/moderator?token={served.moderator_token}")
    page.wait_for_function("view !== null", timeout=10000)
    table = [{"name": option["label"], "card": "Seer" if index % 2 else "Guardian Angel", "dead": index == 2}
             for index, option in enumerate(NAMES8)]
    for kind, form in EVERY_KIND.items():
        step = {"type": "step", "version": 50, "title": f"Night 2, {kind}", "lines": ["A line printed."],
                "table": table, "notes": ["Lovers: Anna and Bruno."], "form": form, "over": False,
                "told": "" if form else "Nod: YES, a wolf (Anna)",
                "before": [{"title": "The dawn after night 1", "lines": ["The wolves kill Bruno."]}],
                "log": [{"title": "Night 1, Seer", "lines": ["Seer points at: Anna"]},
                        {"title": "The dawn after night 1", "lines": ["The wolves kill Bruno."]}]}
        page.evaluate("(step) => receive(step)", step)
        page.screenshot(path=str(tmp_path / f"{kind}.png"), full_page=True)
        assert (tmp_path / f"{kind}.png").stat().st_size > 5000
        shown = page.text_content("main")
        wanted = [step["title"], "A line printed.", "Lovers: Anna and Bruno.", *([form["question"]] if form else [])]
        assert [text for text in wanted if text not in shown] == [], kind
        assert page.text_content("#before") == "The dawn after night 1The wolves kill Bruno."  # kept (point 15)
        assert page.is_visible("#before") and page.is_visible("#log summary")
        assert page.text_content("#log-steps").startswith("The dawn after night 1")  # the latest first
        assert page.locator("#cards li.dead").count() == 1
        heights = page.evaluate("[...document.querySelectorAll('button')].filter((b) => b.offsetParent)"
                                ".map((b) => b.getBoundingClientRect().height)")
        assert heights and min(heights) >= 44, (kind, heights)
        assert page.evaluate("document.documentElement.scrollWidth") <= 390, kind
        # long names fit (issue 39, point 20): no button's text spills out, a name stays clear of its card,
        # and a name breaks between its words, never inside one
        spilled = page.evaluate("[...document.querySelectorAll('#question button, #cards li span')]"
                                ".filter((b) => b.scrollWidth > b.clientWidth + 1).map((b) => b.textContent)")
        assert spilled == [], (kind, spilled)
        gaps = page.evaluate("[...document.querySelectorAll('#cards li')].map((row) => "
                             "row.children[1].getBoundingClientRect().left - row.children[0].getBoundingClientRect().right)")
        assert min(gaps) >= 8, (kind, gaps)
        if kind in ("one", "several", "each"):
            long_button = page.locator(f"#question .names button:text-is('{LONG}') >> nth=0")
            assert long_button.evaluate("(b) => b.getBoundingClientRect().height") <= 2 * 1.2 * 1.2 * 18 + 20
            assert long_button.evaluate(WORD_LINES, "Massimiliano") == 1, kind  # on one line, not "Massimilian o"
        assert page.is_visible("#told") == (form is None)
        if kind == "several":  # how many it takes, and why Confirm waits (issue 39, point 17)
            assert page.text_content("#question .how-many") == "up to 2 names"
            for name in range(3):
                page.click(f"#question .names button:not(.none) >> nth={name}")
            assert page.is_disabled("#question button.go")
            assert page.text_content("#question .listen") == "3 chosen: 2 at most"
            page.click("#question .names button:not(.none) >> nth=0")
            assert page.is_enabled("#question button.go") and page.text_content("#question .listen") == "2 chosen"
        if kind == "fields":  # one way to say "none of these", not one per shape and one for the form
            assert page.locator("#question button", has_text="Not this one").count() == 1
        if kind == "each":  # Confirm waits for a name from each chooser, and says whose is missing
            page.click("#question .names >> nth=0 >> button >> nth=1")
            assert page.is_disabled("#question button.go")
            assert page.text_content("#question .listen") == "Still to choose: Second"
        if kind == "one":  # taking back the last answer asks for a second tap
            offered: list = []
            served.console.offer = lambda version, value, reply, offered=offered: offered.append(value)
            page.click("#undo")
            assert page.text_content("#undo") == "Tap again to take back the last answer" and offered == []
            page.click("#undo")
            page.wait_for_timeout(300)
            assert offered == ["undo"] and page.text_content("#undo") == "Take back the last answer"
        if form is None:  # a step with nothing to enter: listen, and the answer to nod at, large
            assert page.is_visible(".listen") and not page.is_visible("#undo")
            assert page.text_content("#told") == "Nod: YES, a wolf (Anna)"
            assert page.evaluate("parseFloat(getComputedStyle(document.getElementById('told')).fontSize)") >= 28
    server_now = page.evaluate("now() + offset")
    night = {"anchor_time": server_now, "anchor_offset": 5.05, "running": True, "stop_time": None, "length": 30,
             "phases": [{"start": 0, "label": "Nightfall"}, {"start": 3, "label": "Seer"}],
             "counts": [{"start": 4, "seconds": 10}]}
    state = {"type": "state", "stage": "night", "now": server_now, "night": night, "day": None, "actions": ["pause"]}
    page.evaluate("(state) => receive(state)", state)
    assert page.text_content("#stage") == "Night · Seer · count: 9 s left"
    page.evaluate("(state) => receive(state)", {**state, "night": {**night, "running": False, "anchor_offset": 20}})
    assert page.text_content("#stage") == "Paused · Seer"
    page.evaluate("(state) => receive(state)", {**state, "night": {**night, "running": False, "anchor_offset": 30}})
    assert page.text_content("#stage") == "Night · Seer"  # skipped to its end: the turn is on, not paused
    day = {"deadline": None, "paused_left": 125.3, "voting": False}  # paused: the clock stands still
    page.evaluate("(state) => receive(state)", {**state, "stage": "day", "day": day, "actions": ["resume", "next"]})
    assert page.text_content("#stage") == "Day · paused · 2:06"  # the day's clock
    page.evaluate("(state) => receive(state)", {**state, "stage": "day", "day": {**day, "voting": True}, "actions": []})
    assert page.text_content("#stage") == "Vote!"
    open_day = {"deadline": None, "paused_left": None, "voting": False}  # a day off the clock (issue 39, point 14)
    page.evaluate("(state) => receive(state)", {**state, "stage": "day", "day": open_day, "actions": []})
    assert page.text_content("#stage") == "Day · The discussion is on." and not page.is_visible("#controls")


def test_what_narrate_printed_is_read_whole_even_when_a_character_is_cut(tmp_path):
    """narrate may be writing out.txt in the middle of a character when a test reads it."""
    from moderation import written

    path = tmp_path / "out.txt"
    path.write_bytes("Città".encode()[:-1])  # the à half written
    assert written(path) == "Citt"
    path.write_bytes("Città".encode())
    assert written(path) == "Città"


def test_a_question_of_several_names_says_how_many_in_the_game_s_language():
    """Issue 39, point 17: "The wolves attack" took three names for two attacks, and said nothing
    of how many; the form now says it, as the phone shows it under the question."""
    from narrator.core.state import Ask
    from narrator.shell.speakerbox.forms import for_ask
    from narrator.shell.translation import ENGLISH, SOURCE_LANGUAGE, load_catalog, use

    names = ("Anna", "Bruno", "Carla")
    attacks = Ask("lupi", "players", ("Anna",), names, most=2)
    curse = Ask("curse", "players", ("Anna",), names, most=2, least=2)
    assert for_ask(attacks, "The wolves attack", None)["count"] == "up to two names"
    assert for_ask(curse, "The Necromancer curses", None)["count"] == "two names"
    assert "count" not in for_ask(Ask("any", "players", ("Anna",), names), "Ghosts point at", None)
    use(load_catalog("it"), "it")
    try:
        assert for_ask(attacks, "I lupi attaccano", None)["count"] == "fino a due nomi"
    finally:
        use(ENGLISH, SOURCE_LANGUAGE)


@pytest.mark.parametrize("game_id", [game_id for game_id in available_games(GAMES_DIR)])
def test_what_a_game_says_to_its_moderator_fits_the_phone_as_well_as_the_keyboard(game_id):
    """Issue 39, point 17: the game's sentences for the moderator (its vote: section) are shown on
    the phone too, where there is no Enter key to press and nothing to type: "(Invio: accusa come
    gli altri)" read on a phone whose button says "Nessuno"."""
    game = load_game(GAMES_DIR / game_id)
    keyboard = re.compile(r"\b(Enter|Invio|type|typed|scrivi|premi|press)\b")
    for lang, language in game.languages.items():
        assert not {key: text for key, text in language.vote.items() if keyboard.search(text)}, lang
