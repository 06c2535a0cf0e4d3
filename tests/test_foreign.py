"""Windows and macOS, run on Linux: the seam every system difference goes through, and narrate as
a group meets it on a simulated Windows or macOS (tests/foreign/simulation.py says what is
simulated and how). The pseudo-terminal tests of the night and the day keys are in
test_terminal.py, parametrized over the three systems; here are the rest."""

import ast
import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from tests.conftest import REPO
from tests.foreign import simulation
from tests.pseudoterminal import ENTER, SYSTEMS

PACKAGE = REPO / "narrator"
SEAM = PACKAGE / "shell" / "platform"
ONE_SYSTEM_MODULES = {*simulation.POSIX_ONLY, *simulation.WINDOWS_ONLY, "select"}
FOREIGN = ["windows", "macos"]


def narrate(system: str, *args, cwd: Path, input: str | None = None, timeout: float = 120, **knobs):
    """``narrate ARGS`` as a process on the simulated ``system``, its output as bytes; its home, cache,
    data and configuration its own (in ``cwd``)."""
    env = simulation.environ(system, {**os.environ, "HOME": str(cwd), "XDG_CACHE_HOME": str(cwd / ".cache"),
                                      "XDG_DATA_HOME": str(cwd / ".data"), "XDG_CONFIG_HOME": str(cwd / ".config")},
                             **knobs)
    return subprocess.run([sys.executable, "-m", "narrator", *args], cwd=cwd, env=env, capture_output=True,
                          input=input.encode("utf-8") if input is not None else None, timeout=timeout)


# --- The seam: nothing outside it asks which system it runs on ----------------------------------------

def _modules_outside_the_seam():
    for path in sorted(PACKAGE.rglob("*.py")):
        if SEAM not in path.parents:
            yield path, ast.parse(path.read_text(encoding="utf-8"), str(path))


def test_only_the_seam_imports_a_module_one_system_lacks():
    found = []
    for path, tree in _modules_outside_the_seam():
        for node in ast.walk(tree):
            names = ([alias.name for alias in node.names] if isinstance(node, ast.Import)
                     else [node.module or ""] if isinstance(node, ast.ImportFrom) and node.level == 0 else [])
            found += [f"{path.relative_to(REPO)}:{node.lineno} imports {name}" for name in names
                      if name.split(".")[0] in ONE_SYSTEM_MODULES]
    assert found == []


def test_only_the_seam_asks_os_name_or_sys_platform():
    found = [f"{path.relative_to(REPO)}:{node.lineno}" for path, tree in _modules_outside_the_seam()
             for node in ast.walk(tree) if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
             and (node.value.id, node.attr) in (("os", "name"), ("sys", "platform"))]
    assert found == []


def test_only_the_seam_writes_an_escape_code():
    found = [f"{path.relative_to(REPO)}:{node.lineno}: {node.value[:30]!r}" for path, tree in _modules_outside_the_seam()
             for node in ast.walk(tree) if isinstance(node, ast.Constant) and isinstance(node.value, str)
             and "\x1b" in node.value]
    assert found == []


def test_every_module_of_narrate_imports_on_a_simulated_windows(tmp_path):
    modules = sorted(".".join(path.relative_to(REPO).with_suffix("").parts).removesuffix(".__init__")
                     for path in PACKAGE.rglob("*.py") if path.name != "__main__.py"
                     and ("games" not in path.relative_to(PACKAGE).parts[:1] or path.name != "rules.py"))
    program = ("import importlib, sys\nfailed = []\nfor name in sys.argv[1:]:\n    try:\n"
               "        importlib.import_module(name)\n    except Exception as error:\n"
               "        failed.append(f'{name}: {type(error).__name__}: {error}')\nprint('\\n'.join(failed))\n")
    env = simulation.environ("windows", {**os.environ, "HOME": str(tmp_path)})
    result = subprocess.run([sys.executable, "-c", program, *modules], env=env, capture_output=True, text=True,
                            cwd=tmp_path, timeout=120)
    assert (result.returncode, result.stdout.strip()) == (0, ""), result.stderr
    assert len(modules) > 100


def test_the_simulation_is_windows_where_narrate_could_tell(tmp_path):
    """What the simulated Windows must refuse, it refuses: else every test here would prove nothing."""
    program = """
import select, signal, sys, time
import narrator.shell.platform as seam
try:
    exec("import termios", {"__name__": "narrator.probe"})
    termios = "importable"
except ModuleNotFoundError:
    termios = "missing"
try:
    select.select([sys.stdin], [], [], 0)
    selected = "selected"
except OSError as error:
    selected = error.errno
steps = sorted({round((time.monotonic() * 64) % 1, 6) for _ in range(20000)})
print(seam.SYSTEM, termios, selected, hasattr(signal, "SIGTSTP"), signal.SIGBREAK, steps == [0.0])
"""
    env = simulation.environ("windows", {**os.environ, "HOME": str(tmp_path)})
    result = subprocess.run([sys.executable, "-c", program], env=env, capture_output=True, text=True, timeout=60,
                            stdin=subprocess.PIPE)
    assert result.stdout.split() == ["windows", "missing", "10038", "False", "21", "True"], result.stderr


# --- The clock -------------------------------------------------------------------------------------------

def test_the_speaker_box_clock_is_fine_where_windows_monotonic_ticks_in_15_ms_steps(tmp_path):
    program = """
import time
from narrator.shell.environment import Environment
def steps(clock):
    seen, start = {clock()}, time.perf_counter()
    while time.perf_counter() - start < 0.2:
        seen.add(clock())
    values = sorted(seen)
    return min(later - earlier for earlier, later in zip(values, values[1:]))
print(steps(time.monotonic), steps(Environment().clock))
"""
    env = simulation.environ("windows", {**os.environ, "HOME": str(tmp_path)})
    result = subprocess.run([sys.executable, "-c", program], env=env, capture_output=True, text=True, timeout=60)
    monotonic, box = map(float, result.stdout.split())
    assert monotonic == pytest.approx(0.015625)  # the simulation's Windows tick: what the box must not use
    assert box < 0.0001


def test_the_speaker_box_serves_on_windows_without_asking_for_an_open_files_limit(tmp_path):
    """Issue 40, point 3: Windows has no soft limit of open files to raise (nor ``resource``): the box
    serves, its bounds taken from the usual 1,024."""
    program = """
import time
from narrator.shell.speakerbox.server import BoxServer
from narrator.shell.speakerbox.state import Box
box = Box(night_length=1.0, phases=[(0.0, "Nightfall")], clock=time.monotonic)
server = BoxServer(box, b"RIFF", {}, time.monotonic, lambda action: None, host="127.0.0.1", port=0)
server.start()
print(server.port > 0, server._gate.most)
server.stop()
"""
    env = simulation.environ("windows", {**os.environ, "HOME": str(tmp_path)})
    result = subprocess.run([sys.executable, "-c", program], env=env, capture_output=True, text=True, timeout=60)
    assert result.stdout.split() == ["True", "512"], result.stderr


# --- The user's language, where no locale variable names one ------------------------------------------

@pytest.mark.parametrize("system", FOREIGN)
@pytest.mark.parametrize("display, game, heading", [
    ("en-US", "una-notte-da-lupi", "Una Notte da Lupi: deck for 5 players"),  # an English Windows: not Italian
    ("it-IT;en-US", "one-night-ultimate-werewolf", "One Night Ultimate Werewolf: mazzo per 5 giocatori"),
    ("fr-FR;it-IT", "una-notte-da-lupi", "Una Notte da Lupi: mazzo per 5 giocatori"),  # the first it speaks
    ("de-DE", "one-night-ultimate-werewolf", "One Night Ultimate Werewolf: deck for 5 players"),  # the game's own
])
def test_with_no_locale_variable_the_display_language_is_asked(tmp_path, system, display, game, heading):
    result = narrate(system, "--game", game, "deck", "--players", "5", cwd=tmp_path,
                     NARRATOR_FOREIGN_LANGUAGES=display)
    assert result.returncode == 0, result.stderr
    assert result.stdout.decode("cp1252" if system == "windows" else "utf-8").startswith(heading)


# --- Output for programs: UTF-8, whatever the pipe's code page -------------------------------------------

def _programs_output(tmp_path) -> dict:
    from tests.test_game_learts import RECORD
    from tests.test_votes_cli import ISSUE_EXAMPLE

    (tmp_path / "partita.yaml").write_text(ISSUE_EXAMPLE.replace("Anna", "Niccolò"), encoding="utf-8")
    (tmp_path / "record.yaml").write_text(RECORD.replace("Rita", "Niccolò"), encoding="utf-8")
    deck = ["--deck", "lupo-mannaro x2, veggente, truffatore, guastafeste, contadino x2, mitomane"]
    return {
        "votes --json": ["votes", "partita.yaml", "--json"],
        "replay --json": ["--game", "learts-variant", "replay", "record.yaml", "--json"],
        "script --format json": ["script", *deck, "--players", "5", "--format", "json", "--lang", "it"],
        "deck --format json": ["deck", "--players", "5", "--format", "json", "--lang", "it"],
        "roles --format json": ["roles", "--format", "json", "--lang", "it"],
        "games --format json": ["games", "--format", "json"],
        "deck --format yaml": ["deck", "--players", "5", "--format", "yaml", "--lang", "it"],
    }


@pytest.mark.parametrize("system", FOREIGN)
def test_every_command_s_output_for_programs_is_utf8_on_every_system(tmp_path, system):
    import yaml

    for name, args in _programs_output(tmp_path).items():
        result = narrate(system, *args, cwd=tmp_path)
        assert result.returncode == 0, (name, result.stderr)
        text = result.stdout.decode("utf-8")  # UnicodeDecodeError: not UTF-8
        data = yaml.safe_load(text) if "yaml" in name else json.loads(text)
        assert data, name
        if name in ("votes --json", "replay --json"):
            assert "Niccolò" in text, name
        if name == "roles --format json":
            assert re.search("[àèéìòù]", text), name  # Italian words with their accents, as UTF-8
    assert "Niccolò".encode("cp1252") != "Niccolò".encode("utf-8")  # what a cp1252 pipe would have carried


# --- Keys at Windows' console ------------------------------------------------------------------------------

@pytest.mark.parametrize("system", SYSTEMS)
def test_the_day_s_keys_answer_on_every_system(terminal, system):
    day = terminal("timer", "40s", "--lang", "en", system=system, columns=80, lines=24)
    day.wait_for(b"Enter: vote now")
    day.type(b"+")  # thirty more seconds: 1:10 (the digits are drawn large, so the vote says it)
    day.type(b" ")
    day.wait_for(b"paused: space resumes")
    day.type(b" ")
    after = len(day.output)
    day.wait_for(b"Enter: vote now", after=after)
    day.type(ENTER)  # the vote, at once
    assert day.finish() == 0
    assert b"Vote called with 1:" in day.output


def test_the_night_s_keys_answer_at_a_windows_console_and_other_keys_are_dropped(terminal):
    night = terminal("--players", "10", "--no-day", "--no-ambience", system="windows", columns=80)
    night.wait_for(b"Deal the cards; press Enter when everyone has theirs (q: stop).")
    assert b"close your eyes" not in night.read(0.5)
    night.type(ENTER)
    night.wait_for(b"close your eyes")
    night.type(b" ")
    night.wait_for(b"paused")
    night.type(b"zz")  # keys that mean nothing: read and dropped
    night.type(b"q")
    assert night.finish() == 130
    assert b"narrate: stopped" in night.output
    assert "►".encode() in night.output or "||".encode() in night.output  # the console font's marks


def test_a_console_that_draws_no_escape_codes_gets_plain_lines(terminal):
    """Windows before 10 (or a console with them turned off) would print ←[J as text."""
    day = terminal("timer", "1s", "--lang", "en", system="windows", NARRATOR_FOREIGN_CONSOLE="legacy")
    assert day.finish() == 0
    assert b"\x1b" not in day.output
    assert b"Time is up." in day.output
    night = terminal("--players", "5", "--no-day", "--no-ambience", "--no-wait", system="windows",
                     NARRATOR_FOREIGN_CONSOLE="legacy")
    night.wait_for(b"close your eyes")
    night.type(b"q")
    night.finish()
    assert b"\x1b" not in night.output


# Ctrl-Break and a closed console window leave no temporary file: test_files.py, with the POSIX signals.


# --- A file another program holds open -------------------------------------------------------------------

def test_a_card_open_in_a_pdf_reader_is_named_and_left_as_it_was(tmp_path):
    card = tmp_path / "tessera.pdf"
    card.write_bytes(b"the card printed yesterday")
    held = narrate("windows", "card", "--players", "6", "-o", "tessera.pdf", cwd=tmp_path,
                   NARRATOR_FOREIGN_HELD=f"{card}=Adobe Acrobat Reader")
    assert held.returncode == 2
    assert held.stderr.decode("cp1252").splitlines() == [
        f"narrate: {card.name} is open in Adobe Acrobat Reader: close it there, then try again; nothing was changed"]
    assert card.read_bytes() == b"the card printed yesterday"
    assert sorted(path.name for path in tmp_path.iterdir() if path.suffix == ".pdf") == ["tessera.pdf"]  # no copy left
    let_go = narrate("windows", "card", "--players", "6", "-o", "tessera.pdf", cwd=tmp_path,
                     NARRATOR_FOREIGN_HELD=f"{card}*3=Adobe Acrobat Reader")  # closed a moment later
    assert let_go.returncode == 0, let_go.stderr
    assert card.read_bytes().startswith(b"%PDF")


def test_a_held_file_is_tried_again_then_named_in_process(tmp_path, monkeypatch):
    import narrator.shell.platform
    from narrator.shell.files import HeldOpenError, write_atomically

    monkeypatch.setattr(narrator.shell.platform, "SYSTEM", "windows")
    refusals = []
    real = os.replace

    def replace(source, target):
        if len(refusals) < 4:
            refusals.append(time.monotonic())
            error = PermissionError(13, "in use", str(target))
            error.winerror = 32
            raise error
        real(source, target)

    monkeypatch.setattr(os, "replace", replace)
    target = tmp_path / "names.json"
    write_atomically(target, lambda path: path.write_text("[]"))
    assert target.read_text() == "[]" and len(refusals) == 4

    def refuse(source, target):
        error = PermissionError(13, "in use", str(target))
        error.winerror = 32
        raise error

    monkeypatch.setattr(os, "replace", refuse)
    started = time.monotonic()
    with pytest.raises(HeldOpenError, match="is open in another program"):
        write_atomically(target, lambda path: path.write_text("[1]"))
    assert 1.5 < time.monotonic() - started < 10  # tried again for about two seconds
    assert target.read_text() == "[]" and sorted(p.name for p in tmp_path.iterdir()) == ["names.json"]


# --- A whole game at the terminal ---------------------------------------------------------------------

def typist(screen, lines: list[str], seconds: float = 300) -> None:
    """Answer each question ``screen`` asks with the next of ``lines``, as a moderator at the keyboard
    would: typed once the question is on the screen (click's prompts end with ': ') and narrate has
    gone quiet, never ahead (a screen of single keys throws away what was typed before it ended)."""
    deadline, answered = time.monotonic() + seconds, 0
    while screen.process.poll() is None:
        assert time.monotonic() < deadline, screen.text()[-2000:]
        before = len(screen.output)
        screen.read(0.3)
        quiet = len(screen.output) == before
        tail = screen.output[answered:].rstrip(b" ")
        if quiet and screen.output[answered:].endswith(b": ") and tail and lines:
            screen.type(lines.pop(0).encode("utf-8") + ENTER)
            answered = len(screen.output)
            screen.read(0.05)


# Windows only: a macOS terminal reads keys and lines as Linux's does (the same POSIX code, tested
# at the terminal in test_terminal.py on both); a whole game there would prove nothing more.
@pytest.mark.parametrize("system", ["windows"])
def test_a_whole_lupus_game_is_played_at_the_terminal(terminal, tmp_path, system):
    from test_game_lupus import command, lupus_env, planned_game
    from test_rounds import NAMES

    from narrator.games import GAMES_DIR
    from narrator.games.loader import load_game

    game = load_game(GAMES_DIR / "lupus-in-tabula")
    # seed 12: two nights and two days, 18 answers typed (a longer game proves no more here)
    rounds, typed = planned_game(game, lupus_env(tmp_path), 8, seed=12, **{"vecchio-saggio": True})
    data = tmp_path / "data"
    screen = terminal(*command(8, NAMES[:8], "vecchio-saggio=on", day_seconds=2), system=system, columns=100,
                      lines=30, XDG_DATA_HOME=str(data), XDG_CACHE_HOME=str(tmp_path / "cache"))
    screen.wait_for(b"Deal the cards; press Enter when everyone has theirs (q: stop).")
    screen.type(ENTER)
    typist(screen, list(typed))
    assert screen.finish() == 0, screen.text()[-2000:]
    (saved,) = (data / "narrator" / "games").glob("[!.]*.json")
    kept = json.loads(saved.read_text(encoding="utf-8"))
    assert kept["entries"] == rounds.entries and kept["over"] is True
    assert "The game is over." in screen.text()


# --- The seam's pieces, on each system ------------------------------------------------------------------

@pytest.fixture
def on(monkeypatch):
    """``on("windows")``: narrate's seam answers for that system, in this process."""
    import narrator.shell.platform

    def set_system(system: str) -> None:
        monkeypatch.setattr(narrator.shell.platform, "SYSTEM", system)

    return set_system


def _interfaces(table: dict[str, str]):
    import socket
    from collections import namedtuple

    Address = namedtuple("Address", "family address")
    Stats = namedtuple("Stats", "isup")
    return ({name: [Address(socket.AF_INET, address)] for name, address in table.items()},
            {name: Stats(True) for name in table})


@pytest.mark.parametrize("system, table, first", [
    ("windows", {"Tailscale": "100.101.102.103", "VMware Network Adapter VMnet8": "192.168.117.1",
                 "VirtualBox Host-Only Network": "192.168.56.1", "vEthernet (WSL)": "172.29.208.1",
                 "Bluetooth Network Connection": "192.168.44.1", "Wi-Fi": "192.168.1.23"}, "Wi-Fi"),
    ("windows", {"Ethernet 2": "100.64.0.7", "Ethernet": "10.0.0.5"}, "Ethernet"),  # a VPN's Ethernet 2: not private
    ("macos", {"bridge100": "192.168.64.1", "utun3": "10.8.0.2", "awdl0": "192.168.9.9", "en0": "192.168.1.40"},
     "en0"),
    ("unix", {"docker0": "172.17.0.1", "tailscale0": "100.90.1.2", "wlp2s0": "192.168.1.23"}, "wlp2s0"),
])
def test_the_qr_code_points_at_the_wifi_by_each_system_s_names(on, system, table, first):
    from narrator.shell.speakerbox.server import network_addresses

    on(system)
    networks = network_addresses(*_interfaces(table))
    assert networks[0] == (first, table[first])
    assert len(networks) == len(table)


class _Screen:
    """A terminal that draws (a pseudo-terminal's file), for the QR code's colours."""

    def __init__(self, drawing: bool):
        import pty

        self.leader, self.follower = pty.openpty()
        self.drawing = drawing

    def fileno(self):
        if not self.drawing:
            raise OSError("not a terminal")
        return self.follower

    def close(self):
        os.close(self.leader)
        os.close(self.follower)


def test_the_qr_code_gives_every_module_its_colour_so_a_light_terminal_shows_it_right():
    """Terminal.app's default is dark text on white: plain half blocks, drawn in the text's colour,
    came out inverted there. Each half block now says both its colours."""
    import segno

    from narrator.shell.platform.screen import DARK, LIGHT, qr_code

    modules = [[bool(module) for module in row]
               for row in segno.make("http://192.168.1.23:8765/", error="m").matrix_iter(border=4)]
    screen = _Screen(drawing=True)
    try:
        text = qr_code(modules, screen)
    finally:
        screen.close()
    seen = []
    for line in text.split("\n"):
        assert line.endswith("\x1b[0m")  # the terminal's own colours back at each line's end
        body = line.removesuffix("\x1b[0m")
        assert re.sub(r"\x1b\[38;5;\d+;48;5;\d+m", "", body) == "▀" * len(modules[0])  # nothing but half blocks
        top, bottom, colours = [], [], None
        for colour in re.findall(r"(?:\x1b\[38;5;(\d+;48;5;\d+)m)?▀", body):
            colours = tuple(int(part) for part in colour.split(";48;5;")) if colour else colours
            assert colours is not None and set(colours) <= {DARK, LIGHT}  # both set before the first block
            top.append(colours[0] == DARK)
            bottom.append(colours[1] == DARK)
        seen += [top, bottom]
    assert seen[:len(modules)] == modules
    assert all(not any(row) for row in seen[len(modules):])  # an odd last row is padded with light


def test_the_qr_code_is_plain_blocks_where_nothing_draws_colours():
    from narrator.shell.platform.screen import qr_code

    modules = [[True, False], [False, True], [True, True]]
    assert qr_code(modules, _Plain()) == "▄▀\n▄▄"  # light text on dark: a light module is a drawn half


class _Plain:
    def fileno(self):
        raise OSError("a file")


@pytest.mark.parametrize("system, marks", [("windows", ("►", "||", "■")), ("macos", ("▶", "❚❚", "■")),
                                           ("unix", ("▶", "❚❚", "■"))])
def test_the_night_s_marks_are_in_the_console_s_font(on, system, marks):
    from narrator.shell.audio.console import status_line
    from narrator.shell.audio.player import Transport
    from tests.test_console import LABELS, small_night

    on(system)
    transport = Transport(small_night())
    assert status_line(transport, LABELS).startswith(marks[0] + " ")
    transport.toggle_pause()
    assert status_line(transport, LABELS).startswith(marks[1] + " ")
    transport.stop()
    assert status_line(transport, LABELS).startswith(marks[2] + " ")


@pytest.mark.parametrize("system, words, wanted", [
    ("unix", ["/usr/bin/python3", "-m", "pip", "install", "werewolf-narrator[piper]"],
     "/usr/bin/python3 -m pip install 'werewolf-narrator[piper]'"),
    ("windows", [r"C:\Program Files\Python311\python.exe", "-m", "pip", "install", "werewolf-narrator[piper]"],
     r"& 'C:\Program Files\Python311\python.exe' -m pip install 'werewolf-narrator[piper]'"),
    ("windows", [r"C:\Users\Anna\narrator\.venv\Scripts\python.exe", "-m", "pip", "install", "py-nanotts"],
     r"C:\Users\Anna\narrator\.venv\Scripts\python.exe -m pip install py-nanotts"),
    ("windows", [r"C:\Users\O'Brien\py.exe", "-m", "pip"], r"& 'C:\Users\O''Brien\py.exe' -m pip"),
])
def test_an_install_hint_pastes_into_the_user_s_shell(on, system, words, wanted):
    from narrator.shell.platform.hints import command_line

    on(system)
    assert command_line(words) == wanted


@pytest.mark.parametrize("system", ["windows", "macos"])
def test_no_debian_hint_is_shown_on_windows_or_macos(on, system):
    from narrator.shell.platform import hints
    from narrator.shell.translation import say

    on(system)
    said = [say(hint) for hint in (hints.portaudio_missing(), hints.system_voice_missing(),
                                   hints.language_voice_missing(), hints.microphone_refused(),
                                   hints.read_only(Path("partita.json")), hints.nobody_joined(8765))]
    assert not any("apt-get" in text or "Debian" in text for text in said), said
    assert ("chmod" in said[4]) == (system == "macos")  # macOS' Terminal has chmod; Windows has Properties
    assert ("Settings ›" if system == "windows" else "System Settings ›") in said[1]


def test_nobody_joined_is_said_once_after_a_minute_without_tablets():
    from narrator.shell.speakerbox.game import LONELY_SECONDS, Lonely

    now, joined, said = [0.0], [0], []
    lonely = Lonely(lambda: now[0], lambda: joined[0], lambda: said.append(now[0]))
    for step in range(0, 200):
        now[0] = step
        lonely()
    assert said == [LONELY_SECONDS]
    now[0], said[:] = 0.0, []
    lonely = Lonely(lambda: now[0], lambda: joined[0], lambda: said.append(now[0]))
    joined[0] = 1
    for step in range(0, 200):
        now[0] = step
        lonely()
    assert said == []  # a tablet came: nothing keeps them out


# --- Pico under a user folder with an accent ---------------------------------------------------------------

@pytest.mark.parametrize("windows_gives", ["a short name", "no short name, but ProgramData", "no plain name at all"])
def test_pico_speaks_from_a_folder_whose_name_has_an_accent(tmp_path, windows_gives):
    """C:\\Users\\Niccolò\\...: Pico's C library opens its voices by an ANSI name (simulated: the UTF-8
    name read as cp1252, as Windows' fopen reads it), so narrate hands it a plain name."""
    py_nanotts = pytest.importorskip("py_nanotts")
    user = tmp_path / "Niccolò"
    shutil.copytree(Path(py_nanotts.__file__).parent, user / "site" / "py_nanotts")
    (tmp_path / "NICCOL~1").symlink_to(user)
    shared = tmp_path / "ProgramData"
    shared.mkdir()
    knobs = {"a short name": {"NARRATOR_FOREIGN_SHORT_NAMES": f"{user}={tmp_path / 'NICCOL~1'}"},
             "no short name, but ProgramData": {"ProgramData": str(shared)},
             "no plain name at all": {}}[windows_gives]
    work = tmp_path / "work"
    work.mkdir()
    result = narrate("windows", "render", "--players", "3", "--voice", "pico/it-IT", "--lang", "it", "-o",
                     "notte.wav", cwd=work, PYTHONPATH=os.pathsep.join(filter(None, [str(user / "site"),
                                                                                     os.environ.get("PYTHONPATH")])),
                     **knobs)
    err = result.stderr.decode("cp1252")
    if windows_gives == "no plain name at all":
        assert result.returncode == 2
        (line,) = err.splitlines()  # one line, no traceback
        assert line.startswith(f"narrate: SVOX Pico non riesce ad aprire le sue voci in {user}")
        return
    assert result.returncode == 0, err
    assert (work / "notte.wav").stat().st_size > 1_000_000
    copies = list(shared.glob("narrator/*/lang/it-IT_ta.bin"))
    assert len(copies) == (1 if "ProgramData" in windows_gives else 0)


def test_macos_speaks_with_its_own_say_voices(tmp_path, monkeypatch):
    """No Pico wheel on macOS, no pyttsx3: the system's ``say`` writes each line into a file."""
    from narrator.shell.audio.say import SayEngine

    doctor = narrate("macos", "doctor", "--lang", "en", cwd=tmp_path).stdout.decode()
    assert "Text-to-speech (say): 3 voices" in doctor and "  it: say/Alice (Alice)" in doctor  # the default engine
    assert ", macOS" in doctor.splitlines()[0]
    assert "--engine pico: unavailable: SVOX Pico has no wheel for macOS: use --engine say" in doctor
    assert "--engine pyttsx3: unavailable: pyttsx3 is not installed" in doctor  # not asked for on macOS
    monkeypatch.setenv("PATH", f"{simulation.HERE / 'bin'}{os.pathsep}{os.environ['PATH']}")
    engine = SayEngine()
    alice = next(voice for voice in engine.voices() if voice.speaks("it"))
    clip = engine.synthesize("-q Il villaggio si sveglia", alice, 150)  # a dash first: never taken for an option
    assert clip.rate == 22050 and clip.seconds == pytest.approx(5 * 60 / 150, abs=0.01)  # the stand-in: 5 words


# --- What the system keeps from narrate, said where to allow it ----------------------------------------

class _RefusedMicrophone:
    """What Windows and macOS hand an app that may not use the microphone: zeros, not an error."""

    def record(self, stop, levels=None):
        from narrator.shell.audio.clip import Clip

        stop.wait(5)
        return Clip(np.zeros(48000 * 2, dtype=np.float32), 48000)

    def play(self, clip):
        raise AssertionError("nothing was recorded to play back")


@pytest.mark.parametrize("system, where", [("windows", "Settings › Privacy & security › Microphone"),
                                           ("macos", "System Settings › Privacy & Security › Microphone"),
                                           ("unix", "not muted in the system's sound settings")])
def test_a_microphone_the_system_keeps_from_narrate_is_named_with_the_setting(on, tmp_path, system, where):
    from click.testing import CliRunner

    from narrator.shell.cli import cli
    from tests.conftest import make_env

    on(system)
    env = make_env(recorder=_RefusedMicrophone, data_home=tmp_path / "data")
    result = CliRunner().invoke(cli, ["voices", "record", "--lang", "en", "nonna"], obj=env,
                                input="\n\ns\nq\n")  # record, stop, skip, quit
    assert result.exit_code == 0, result.output
    assert "the microphone gave nothing but silence: " in result.output and where in result.output


def test_a_speech_worker_that_never_answers_is_ended_not_waited_for(monkeypatch, tmp_path):
    from narrator.shell.audio import tts
    from narrator.shell.audio.tts import EngineUnavailable, Pyttsx3Engine, Voice

    engine = Pyttsx3Engine()
    silent = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True)
    voice = Voice("stuck", "Stuck", ("en",))
    engine._workers[(voice.id, 150)] = silent
    monkeypatch.setattr(tts, "REPLY_SECONDS", 0.5)
    started = time.monotonic()
    with pytest.raises(EngineUnavailable, match="did not answer within 0.5 s"):
        engine.synthesize("hello", voice, 150)
    assert time.monotonic() - started < 5
    assert silent.poll() is not None and engine._workers == {}  # ended, and a new one would be started


# --- A save that fails mid-game, a night file held open: the game goes on --------------------------------

def test_a_save_refused_in_the_middle_of_a_game_is_said_and_the_game_goes_on(tmp_path, monkeypatch):
    from test_game_lupus import command, invoke, lupus_env, planned_game, saved_game
    from test_rounds import NAMES

    from narrator.games import GAMES_DIR
    from narrator.games.loader import load_game
    from narrator.shell import savedgames
    from narrator.shell.files import HeldOpenError

    game = load_game(GAMES_DIR / "lupus-in-tabula")
    env = lupus_env(tmp_path)
    rounds, typed = planned_game(game, env, 8, seed=12, **{"vecchio-saggio": True})
    real, saves = savedgames.SavedGame.save, []

    def held_for_a_while(self):
        saves.append(len(self.entries))
        if 3 <= len(saves) <= 5:  # an antivirus scanning it, say: three saves refused
            raise HeldOpenError(self.path, ["Windows Defender"])
        real(self)

    monkeypatch.setattr(savedgames.SavedGame, "save", held_for_a_while)
    result = invoke(env, command(8, NAMES[:8], "vecchio-saggio=on"), ["", *typed])
    assert result.exit_code == 0, result.output
    assert result.output.count("is open in Windows Defender; the game goes on and is saved again after the next "
                               "answer") == 3
    assert saved_game(env)["entries"] == rounds.entries and saved_game(env)["over"] is True


def test_a_night_file_still_open_in_a_player_is_written_beside_it(tmp_path):
    from narrator.shell.audio.player import FilePlayer, Session
    from narrator.shell.files import HeldOpenError
    from tests.test_console import small_night

    night_file = tmp_path / "nights" / "night.wav"
    written = []

    def write(night, path):
        if path == night_file and path.exists():
            raise HeldOpenError(path, [])
        path.write_bytes(b"RIFF")
        written.append(path.name)

    said = []
    player = FilePlayer(night_file, write)
    session = Session(read_key=lambda timeout: None, show=lambda transport: None, say=said.append)
    assert player.play(small_night(), session) and player.play(small_night(), session)
    assert written == ["night.wav", "night-2.wav"]
    assert said == [f"narrate: {night_file} is still open in another program: tonight's night is in "
                    f"{tmp_path / 'nights' / 'night-2.wav'}"]


# --- The moderator's console races the terminal ------------------------------------------------------------

@pytest.mark.parametrize("system", SYSTEMS)
def test_the_terminal_and_the_phone_race_for_each_question_on_every_system(terminal, tmp_path, system):
    """A moderated game served to tablets, on a pseudo-terminal: the first question answered on the
    phone, the next typed at the laptop (a Windows console cannot be polled with select: its keys are
    gathered into a line), the one after on the phone again."""
    import asyncio

    import aiohttp
    from test_rounds import NAMES

    screen = terminal("--game", "lupus-in-tabula", "--players", "8", "--names", ",".join(NAMES[:8]), "--no-ambience",
                      "--day-seconds", "2", "--speaker-box", "--host", "127.0.0.1", "--port", "0",
                      "--no-laptop-audio", system=system, columns=120, lines=40,
                      XDG_DATA_HOME=str(tmp_path / "data"), XDG_CACHE_HOME=str(tmp_path / "cache"))
    screen.wait_for(b"/moderator?token=", seconds=60)
    screen.read(0.3)
    found = re.search(rb"(http://\S+)/moderator\?token=(\S+)", screen.output)
    base, token = found[1].decode(), found[2].decode()
    answered = []  # (by whom, the question's version)

    async def console():
        async with aiohttp.ClientSession() as session, session.ws_connect(base + "/ws") as ws:
            await ws.send_json({"type": "hello", "role": "moderator", "token": token})
            deadline = time.monotonic() + 120
            while len(answered) < 3:
                assert time.monotonic() < deadline, (answered, screen.text()[-1500:])
                try:
                    message = await ws.receive_json(timeout=0.5)
                except (asyncio.TimeoutError, TypeError):
                    continue
                if message.get("type") == "state":
                    actions = message["actions"]
                    action = "start" if "start" in actions else "next" if "next" in actions and (
                        message["stage"] == "night" or message["day"] and not message["day"]["voting"]) else None
                    if action:
                        await ws.send_json({"type": "control", "action": action, "token": token})
                elif message.get("type") == "step" and message["form"] and (
                        not answered or message["version"] > answered[-1][1]):
                    form = message["form"]
                    if len(answered) == 1:  # this one at the laptop's keyboard, once its prompt is up
                        typed = {"go": "", "count": "0"}.get(form["kind"])
                        typed = typed if typed is not None else str(form["options"][0]["value"])
                        await asyncio.get_running_loop().run_in_executor(None, screen.wait_for, b": ", 30,
                                                                         len(screen.output) - 200)
                        screen.type(typed.encode() + ENTER)
                        answered.append(("terminal", message["version"]))
                    else:
                        from moderation import random_answer

                        await ws.send_json({"type": "answer", "token": token, "version": message["version"],
                                            "value": random_answer(form, __import__("random").Random(1))})
                        answered.append(("phone", message["version"]))

    asyncio.run(asyncio.wait_for(console(), 180))
    screen.read(1.0)
    text = screen.text()
    assert [who for who, _version in answered] == ["phone", "terminal", "phone"]
    assert text.count("(from the moderator's phone)") == 2, text[-2000:]
    assert "Traceback" not in text


def test_a_terminal_whose_single_keys_cannot_be_read_takes_each_key_with_enter_and_says_so(monkeypatch, capsys):
    import pty

    from narrator.shell.platform import keyboard

    def no_single_keys(fd):
        raise OSError(25, "Inappropriate ioctl for device")

    monkeypatch.setattr(keyboard, "_terminal_keys", no_single_keys)
    leader, follower = pty.openpty()
    try:
        with open(follower, "r", closefd=False) as terminal:
            monkeypatch.setattr(sys, "stdin", terminal)
            with keyboard.keys(terminal) as read_key:
                os.write(leader, b" \n")
                assert read_key(2.0) == " "
                os.write(leader, b"\n")
                assert read_key(2.0) == "\n"
                os.write(leader, b"q\n")
                assert read_key(2.0) == "q"
                assert read_key(0.05) is None
    finally:
        os.close(leader)
        os.close(follower)
    assert "this terminal gives no single keys (" in capsys.readouterr().err


def test_keys_not_read_when_a_screen_ends_answer_no_question_on_a_terminal():
    """A key pressed as the night ends (after the last look) must not begin the next answer."""
    import pty
    import termios

    from narrator.shell.platform.keyboard import keys

    leader, follower = pty.openpty()
    try:
        with open(follower, "r", closefd=False) as terminal:
            with keys(terminal) as read_key:
                assert read_key(0.05) is None
                os.write(leader, b"zz")  # pressed, never read
                time.sleep(0.1)
            assert termios.tcgetattr(follower)[3] & termios.ICANON
            os.write(leader, b"Anna\n")
            assert terminal.readline() == "Anna\n"
    finally:
        os.close(leader)
        os.close(follower)


def test_keys_not_read_when_a_screen_ends_answer_no_question_at_a_windows_console(on, monkeypatch):
    import pty
    import types

    from narrator.shell.platform.keyboard import keys

    pending = list("zz")
    console = types.SimpleNamespace(kbhit=lambda: bool(pending), getwch=lambda: pending.pop(0))
    monkeypatch.setitem(sys.modules, "msvcrt", console)
    on("windows")
    leader, follower = pty.openpty()
    try:
        with open(follower, "r", closefd=False) as terminal, keys(terminal) as read_key:
            pending.append("\x00")  # an arrow key: two characters, both dropped
            pending.append("H")
            pending.append(" ")
            assert read_key(0.5) == "z" and read_key(0.5) == "z" and read_key(0.5) == " "
            pending.extend("Anna")  # typed as the screen ends, never read by it
    finally:
        os.close(leader)
        os.close(follower)
    assert pending == []  # drained: the next question starts empty
