"""The terminal during the night: the status line, and keys read from a real pseudo-terminal."""

import io
import os
import pty
import termios

import numpy as np

from narrator.core.deck import recommended_deck
from narrator.core.script import generate_script, settings_for
from narrator.shell.audio.clip import Clip
from narrator.shell.audio.console import Console, keys, status_line
from narrator.shell.audio.mix import MixSettings, build_night
from narrator.shell.audio.player import Transport
from tests.conftest import make_env

LABELS = {"night": "Nightfall", "lupo-mannaro": "Lupi Mannari", "veggente": "Veggente", "guastafeste": "Guastafeste",
          "truffatore": "Truffatore", "dawn": "Daybreak"}


def small_night():
    env = make_env()
    script = generate_script(env.game, recommended_deck(env.game, 3), settings_for(env.game, "it"))
    rate = 8000
    clips = {cue.key: Clip(np.full(rate // 2, 0.1, dtype=np.float32), rate) for cue in script.cues()}
    return build_night(script, clips, None, MixSettings(rate=rate))


def test_status_line_shows_time_bar_phase_and_count():
    night = small_night()
    transport = Transport(night)
    window = night.counts[1]  # the Veggente's count
    transport.position = window.start + 3 * night.rate + 10
    line = status_line(transport, LABELS)
    total = int(night.seconds)
    assert line.startswith(f"▶ {transport.position // night.rate // 60}:")
    assert f" / {total // 60}:{total % 60:02d} [" in line
    assert line.endswith("] Veggente  4/10")
    transport.toggle_pause()
    assert status_line(transport, LABELS).startswith("❚❚ ") and "paused: space resumes" in status_line(transport, LABELS)


def test_log_lists_every_phase_once_in_order_even_if_looked_at_rarely():
    night, transport, out, console = logging_console()
    for position in (0, night.length // 3, night.length):
        transport.position = position
        console.show(transport)
    phases = [line.split("  ", 1)[1] for line in out.getvalue().splitlines()]
    assert phases == ["Nightfall", "Lupi Mannari", "Veggente", "Guastafeste", "Truffatore", "Daybreak"]


def logging_console():
    """A night, its transport and a console writing plain log lines into a string."""
    night = small_night()
    out = io.StringIO()
    return night, Transport(night), out, Console(out, LABELS, interactive=False)


def test_interactive_console_redraws_one_line():
    night = small_night()
    transport = Transport(night)
    out = io.StringIO()
    console = Console(out, LABELS, interactive=True)
    console.show(transport)
    transport.position = night.length // 2
    console.show(transport)
    console.say("narrate: a message")
    console.finish()
    text = out.getvalue()
    assert text.count("\r") == 2 and text.endswith("\nnarrate: a message\n")


def test_keys_on_a_real_terminal_need_no_enter_and_the_terminal_is_restored():
    leader, follower = pty.openpty()
    try:
        before = termios.tcgetattr(follower)
        with open(follower, "r", closefd=False) as terminal, keys(terminal) as read_key:
            during = termios.tcgetattr(follower)
            assert not during[3] & termios.ICANON  # cbreak: one key at a time
            assert during[3] & termios.ISIG  # Ctrl-C still interrupts
            os.write(leader, b" ")
            assert read_key(1.0) == " "
            os.write(leader, b"q")
            assert read_key(1.0) == "q"
            assert read_key(0.05) is None
        assert termios.tcgetattr(follower) == before
    finally:
        os.close(leader)
        os.close(follower)


def test_keys_without_a_terminal_never_arrive():
    with keys(io.StringIO()) as read_key:
        assert read_key(0.01) is None
