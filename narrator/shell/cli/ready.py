"""Before the first sound: the group deals the cards (or sits down again) and says when it is ready.

The deck and the setup are on the screen; nobody has a card yet. Enter starts the night, q (or
Ctrl-C) stops before a sound is made. ``--no-wait`` is for a group that dealt before starting.
"""

import sys

import click

from narrator.core.errors import Stopped
from narrator.core.i18n import N_
from narrator.shell.platform.keyboard import is_terminal, keys
from narrator.shell.translation import _

DEAL = N_("Deal the cards; press Enter when everyone has theirs (q: stop).")
GO_ON = N_("Press Enter when everyone is back at the table (q: stop).")
START = N_("Everyone has their card: press Enter to start the night (q: stop).")

BOX_DEAL = N_("Deal the cards; when everyone has theirs and the tablets have joined, press Enter here (or Start on "
              "the controls page). q stops.")
BOX_GO_ON = N_("When everyone is back at the table and the tablets have joined, press Enter here (or Start on the "
               "controls page). q stops.")
BOX_START = N_("Everyone has their card: when the tablets have joined, press Enter here (or Start on the controls "
                "page). q stops.")
BOX_AT_ONCE = N_("Press Enter here (or Start on the controls page) to begin the night. q stops.")

# What the box asks for at the laptop, by what it waits for (None: --no-wait).
BOX_TEXTS = {"deal": BOX_DEAL, "start": BOX_START, "go-on": BOX_GO_ON, None: BOX_AT_ONCE}
LAPTOP_TEXTS = {"deal": DEAL, "start": START, "go-on": GO_ON}


def wait_for_group(waiting: str | None) -> None:
    """Hold until the group is ready, when ``waiting`` says for what ("deal": the narrator
    dealt and the cards go round now; "start": the moderator dealt and typed them; "go-on": a
    resumed game; None: not at all).

    At a terminal a single key answers: Enter goes on, q stops (``Stopped``). From a pipe a line
    answers the same way; a closed input cannot answer, so the night starts, and that is said.
    """
    if waiting is None:
        return
    stdin = sys.stdin
    if is_terminal(stdin):
        with keys(stdin) as read_key:  # single keys from now: a key pressed once the line shows counts
            click.echo(_(LAPTOP_TEXTS[waiting]))
            _until_enter(read_key)
        return
    click.echo(_(LAPTOP_TEXTS[waiting]))
    line = stdin.readline()
    if not line:
        click.echo(_("narrate: no keyboard input to wait on: the night starts now (--no-wait says so)"), err=True)
    elif line.strip().lower() == "q":
        raise Stopped


def _until_enter(read_key) -> None:
    while True:
        key = read_key(0.2)
        if key in ("\n", "\r"):
            return
        if key in ("q", "Q"):
            raise Stopped

