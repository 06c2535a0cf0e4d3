"""``narrate --players N``: the game itself. Shows the deck, then speaks the night."""

import click

from narrator.core.errors import Stopped
from narrator.core.script import NightScript, ScriptSettings
from narrator.core.views import minutes
from narrator.shell.cli.options import phase_labels
from narrator.shell.cli.ready import wait_for_group
from narrator.shell.environment import Environment
from narrator.shell.translation import _, say

NIGHT_FILE = "night.wav"


def play(env: Environment, settings: ScriptSettings, script: NightScript, audio, waiting: str | None = None) -> bool:
    """Play the night; True if the group heard it, False if it went to a file.

    How the night will be heard is decided, and said, before anyone closes their eyes; then, when
    it is heard here, the group is waited for (``waiting``: see ``ready.wait_for_group``).
    """
    from narrator.shell.audio.console import terminal_session
    from narrator.shell.audio.night import night_audio, write_night
    from narrator.shell.audio.player import choose_players, plan, play_night

    night = night_audio(env, script, audio)
    if env.player:
        players, reason = [env.player()], None
    else:
        players, reason = choose_players(write_night, env.nights_dir() / NIGHT_FILE, problem=env.sound_problem,
                                         which=env.which)
    first = players[0]
    if reason:
        click.echo(f"narrate: {say(plan(first, reason))}", err=True)
    if not first.audible:
        first.play(night, None)
        click.echo(_("The night ({length}) is in {file}: play it to the group from any media player.").format(
            length=minutes(night.seconds), file=first.path))
        wait_for_group(waiting)  # the cards are dealt before the file starts, as before the laptop plays
        follow(env, settings, night)
        return False
    wait_for_group(waiting)
    click.echo(_("The night lasts {length}. Everyone close your eyes. (space: pause, q: stop)").format(
        length=minutes(night.seconds)))
    with terminal_session(phase_labels(env, settings.lang)) as session:
        completed = play_night(players, night, session)
    if not completed:
        raise Stopped
    return True


def follow(env: Environment, settings: ScriptSettings, night) -> None:
    """While the file plays on another device, this screen shows where the night is, as it does
    when the laptop plays it: whoever holds the phone can follow. Started with Enter as the file
    starts; nothing is followed where no one can press it (standard input closed)."""
    import sys

    from narrator.shell.audio.console import terminal_session
    from narrator.shell.audio.player import follow_night

    try:
        click.prompt(_("Press Enter as it starts playing, and this screen follows the night: who is called, the "
                       "count, the time (space: pause, q: stop)"), default="", show_default=False, prompt_suffix=" ")
    except click.Abort:
        if sys.stdin.isatty():
            raise
        click.echo()  # the question ends its line: what comes next is not written after it
        return
    with terminal_session(phase_labels(env, settings.lang), sleep=env.sleep) as session:
        follow_night(night, session, env.clock)
