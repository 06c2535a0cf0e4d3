"""The terminal as a group meets it: lines that fit any width, a terminal given back intact after
a signal or Ctrl-Z, the same keys in the night and the day, and honest logs when not a terminal."""

import io
import os
import signal
import termios
import time

import pytest

from narrator.core.day import DayTimer
from narrator.shell.audio.console import Console, status_line
from narrator.shell.audio.player import Transport
from narrator.shell.dayrun import DayScreen, layout, run_day
from tests.pseudoterminal import ENTER, SYSTEMS
from tests.test_console import LABELS, logging_console, small_night
from tests.test_day import RULES, FakeClock
from tests.test_playback import portaudio_missing


def test_the_status_line_fits_every_width_even_paused_in_the_longest_phase():
    night = small_night()
    transport = Transport(night)
    transport.position = night.counts[0].start + night.rate
    transport.toggle_pause()
    long_label = {**LABELS, "lupo-mannaro": "Apprendista Stregone e Lupi Mannari"}
    for width in (20, 40, 60, 79, 120):
        line = status_line(transport, long_label, width)
        assert len(line) <= width, (width, line)
    assert "paused: space resumes" in status_line(transport, long_label, 79)
    assert "[" not in status_line(transport, long_label, 40)  # the bar gives way first


def test_a_narrower_terminal_is_followed_without_scrolling():
    night = small_night()
    transport = Transport(night)
    widths = iter([100, 40])
    out = io.StringIO()
    console = Console(out, LABELS, interactive=True, size=lambda: (next(widths), 24))
    console.show(transport)
    first = out.getvalue()
    console.show(transport)
    second = out.getvalue()[len(first):]
    assert len(first.split("\x1b[J")[1]) <= 99
    shown = len(first.split("\x1b[J")[1])
    assert second.startswith(f"\x1b[{-(-shown // 40) - 1}A\r\x1b[J") if shown > 40 else second.startswith("\r\x1b[J")
    assert len(second.split("\x1b[J")[1]) <= 39


@pytest.mark.parametrize("columns, lines", [(40, 10), (80, 24), (30, 8), (12, 4)])
def test_the_day_screen_fits_small_terminals(columns, lines):
    caption = "La discussione è aperta: cercate i lupi prima che sia troppo tardi!"
    for face, state in (("4:59", "space: pause   +: 30 more seconds   Enter: vote now   q: stop"), ("0:00", "")):
        rows = layout(face, caption, state, columns - 1, lines - 1)
        assert len(rows) <= lines - 1
        screen_rows = rows
        out = io.StringIO()
        screen = DayScreen(out, interactive=True, size=lambda: (columns, lines))
        screen.caption = caption
        screen.show(DayTimer(RULES, 299, FakeClock()))
        drawn = out.getvalue().split("\x1b[J")[1].splitlines()
        assert len(drawn) <= lines - 1 and all(len(row) <= columns - 1 for row in drawn), drawn
    assert any("█" in row for row in screen_rows) == (columns >= 23)


def test_logs_say_when_the_night_and_the_day_are_paused():
    _night, transport, out, console = logging_console()
    console.show(transport)
    transport.toggle_pause()
    console.show(transport)
    transport.toggle_pause()
    console.show(transport)
    assert out.getvalue().splitlines()[1:] == ["0:00  paused (space resumes)", "0:00  resumed"]
    clock = FakeClock()
    timer = DayTimer(RULES, 40, clock)
    presses = {3: " ", 6: " "}
    polls = []
    day_log = io.StringIO()

    def read_key(timeout):
        polls.append(timeout)
        clock.sleep(timeout)
        return presses.get(len(polls))

    assert run_day(timer, lambda key: None, read_key, DayScreen(day_log, interactive=False), {}) is True
    assert [line for line in day_log.getvalue().splitlines() if "paused" in line or "resumed" in line] == [
        "0:40  paused (space resumes)", "0:40  resumed"]


def test_q_stops_the_day_as_it_stops_the_night():
    clock = FakeClock()
    polls = []

    def read_key(timeout):
        polls.append(timeout)
        clock.sleep(timeout)
        return "q" if len(polls) == 5 else None

    said = []
    assert run_day(DayTimer(RULES, 40, clock), said.append, read_key, DayScreen(io.StringIO(), False), {}) is False
    assert said == ["day.discuss"]


# --- A real pseudo-terminal (tests/pseudoterminal.py), on Linux and on a simulated Windows and macOS ---

@pytest.mark.skipif(not os.path.exists("/proc/self/stat"), reason="reads process states from /proc")
@pytest.mark.parametrize("system", ["linux"])  # macOS: the same POSIX code; Windows has no Ctrl-Z for a program
def test_ctrl_z_gives_the_terminal_back_and_fg_takes_single_keys_again_then_q_stops_the_day(terminal, system):
    day = terminal("timer", "40s", "--lang", "en", system=system)
    day.wait_for(b"q:stop")
    assert not day.lflag() & termios.ICANON  # single keys while the day runs
    os.killpg(day.process.pid, signal.SIGTSTP)  # what Ctrl-Z sends to the foreground group
    day.wait_state("T")
    assert day.lflag() & termios.ICANON and day.lflag() & termios.ECHO  # the shell gets its terminal back
    os.killpg(day.process.pid, signal.SIGCONT)  # what fg sends
    deadline = time.monotonic() + 10
    while day.lflag() & termios.ICANON:
        assert time.monotonic() < deadline
        time.sleep(0.01)
    os.write(day.leader, b"q")  # no Enter needed
    assert day.finish() == 130
    assert b"narrate: stopped" in day.output
    assert termios.tcgetattr(day.follower) == day.before


@pytest.mark.skipif(portaudio_missing(), reason="PortAudio (libportaudio2) is not installed")
@pytest.mark.parametrize("system", ["linux"])  # macOS: the same; Windows: Ctrl-Break, in test_foreign.py
def test_sigterm_during_the_night_gives_the_terminal_back_with_echo(terminal, system):
    night = terminal("--players", "10", "--no-day", "--no-ambience", system=system)
    night.wait_for(b"Deal the cards; press Enter when everyone has theirs (q: stop).")
    assert b"close your eyes" not in night.read(0.5)  # nobody has a card yet: the night waits
    night.type(ENTER)  # a single key: everyone has theirs
    night.wait_for(b"close your eyes")
    os.write(night.leader, b" ")  # pause: ALSA's null device would play the whole night in a moment
    night.wait_for(b"paused")
    os.killpg(night.process.pid, signal.SIGTERM)
    assert night.finish() == 128 + signal.SIGTERM
    assert termios.tcgetattr(night.follower) == night.before
    assert termios.tcgetattr(night.follower)[3] & termios.ECHO
    assert b"narrate: stopped by a signal" in night.output


@pytest.mark.parametrize("system", SYSTEMS)
@pytest.mark.parametrize("stop", ["q", "Ctrl-C"])
def test_q_or_ctrl_c_while_the_cards_are_dealt_stops_before_a_sound(terminal, stop, system):
    night = terminal("--players", "5", "--no-day", "--no-ambience", system=system)
    night.wait_for(b"Deal the cards; press Enter")
    if stop == "q":
        os.write(night.leader, b"q")  # no Enter needed
    else:
        os.killpg(night.process.pid, signal.SIGINT)  # what Ctrl-C sends to the foreground group
    assert night.finish() == 130
    assert (b"narrate: stopped" if stop == "q" else b"narrate: interrupted") in night.output
    assert b"close your eyes" not in night.output and b"The night lasts" not in night.output
    assert termios.tcgetattr(night.follower) == night.before


@pytest.mark.parametrize("system", ["linux", "windows"])  # macOS draws as Linux does
def test_messages_and_the_day_screen_stay_within_a_40_column_terminal(terminal, system):
    day = terminal("timer", "3s", "--lang", "en", columns=40, lines=10, system=system)
    assert day.finish() == 0
    text = day.output.decode(errors="replace").replace("\r\n", "\n")
    assert text.count("\x1b[J") >= 3  # redrawn in place, every second
    for chunk in text.split("\x1b[J")[1:]:
        for row in chunk.split("\x1b[")[0].split("\n"):
            assert len(row) <= 39, row



def test_the_day_digits_grow_with_the_terminal_and_are_redrawn_on_resize():
    sizes = iter([(80, 24), (80, 24), (160, 50), (40, 10)])
    out = io.StringIO()
    screen = DayScreen(out, interactive=True, size=lambda: next(sizes))
    timer = DayTimer(RULES, 299, FakeClock())
    drawn = []
    for _ in range(4):
        before = len(out.getvalue())
        screen.show(timer)
        drawn.append(out.getvalue()[before:])
    assert drawn[1] == ""  # nothing changed: nothing redrawn

    def digit_rows(text):
        return [row for row in text.split("\x1b[J")[1].splitlines() if "█" in row]

    at_80, at_160, at_40 = (digit_rows(text) for text in (drawn[0], drawn[2], drawn[3]))
    assert len(at_80) == 15 and len(at_160) == 30 and len(at_40) == 5  # 3, 6 (the width allows no more), 1 times 5
    assert max(len(row) for row in at_160) <= 159 and max(len(row) for row in at_80) <= 79
    rows_at_80 = len(drawn[0].split("\x1b[J")[1].splitlines())
    assert drawn[2].startswith(f"\x1b[{rows_at_80}A\r\x1b[J")  # the old screen is cleared, not scrolled


def test_a_line_edited_at_the_console_prompt_survives_ctrl_z_and_fg(monkeypatch):
    """The moderator's console prompt reads a line key by key (cbreak, no echo): Ctrl-Z gives the
    shell its terminal back as it was, and fg takes the line's own mode up again, as the single
    keys of the night and the day do (found in review: the prompt's mode had no such handlers)."""
    import pty
    import sys

    from narrator.shell.platform.keyboard import Lines

    leader, follower = pty.openpty()
    try:
        monkeypatch.setattr(sys, "stdin", os.fdopen(os.dup(follower), "r"))
        before = termios.tcgetattr(follower)
        handlers = signal.getsignal(signal.SIGTSTP), signal.getsignal(signal.SIGCONT)
        with Lines().editing("> "):
            editing = termios.tcgetattr(follower)
            assert not editing[3] & (termios.ICANON | termios.ECHO)
            assert signal.getsignal(signal.SIGTSTP) not in handlers  # Ctrl-Z is narrate's to handle
            termios.tcsetattr(follower, termios.TCSANOW, before)  # what the suspend gives the shell
            signal.getsignal(signal.SIGCONT)(signal.SIGCONT, None)  # fg
            assert termios.tcgetattr(follower)[3] == editing[3]
        assert (signal.getsignal(signal.SIGTSTP), signal.getsignal(signal.SIGCONT)) == handlers
        assert termios.tcgetattr(follower) == before
    finally:
        sys.stdin.close()
        os.close(leader)
        os.close(follower)
