"""``narrate serve`` and ``narrate --speaker-box``: the tablets on the table are the speaker box."""

import re

import click

from narrator.shell.cli.interface import Command
from narrator.shell.cli.options import (
    audio_options,
    day_options,
    dealt_option,
    deck_options,
    option_group,
    script_options,
    wait_option,
)
from narrator.shell.translation import _

ALL_ADDRESSES = "0.0.0.0"

box_options = option_group([
    click.option("--host", metavar="ADDRESS", default=ALL_ADDRESSES, show_default=True, callback=lambda ctx, param, value: host_name(value),
                 help="Address to serve the tablets on."),
    click.option("--port", type=click.IntRange(0, 65535), metavar="PORT", default=8765, show_default=True,
                 help="Port to serve on (0: any free one)."),
    click.option("--laptop-audio/--no-laptop-audio", default=True, show_default=True,
                 help="Whether the laptop's own speakers play the night too."),
    click.option("--listen", is_flag=True,
                 help="Set each tablet's speaker delay by listening: before the night the laptop's microphone "
                      "hears each tablet play a short hiss, and during it keeps an ear on the tablets, to set them "
                      "again if one drifts (nothing recorded is kept)."),
])


_HOST_LABEL = re.compile(r"(?!-)[A-Za-z0-9-]{1,63}(?<!-)")


def host_name(value: str) -> str:
    """An IP address or a host name as the network spells them; anything else is refused here."""
    if value == ALL_ADDRESSES:
        return value  # the default, on every run of every command: nothing to check, nothing to import
    import ipaddress

    text = value.strip()
    try:
        ipaddress.ip_address(text)
        return text
    except ValueError:
        pass
    labels = text.rstrip(".").split(".")
    if len(text) <= 253 and all(_HOST_LABEL.fullmatch(label) for label in labels) and not text[-1:].isdigit():
        return text
    raise click.BadParameter(_("'{value}' is not an address: give one such as 192.168.1.20 or a host name, or "
                               "leave --host out to serve on every address of this machine").format(value=value))


@click.command(cls=Command)
@deck_options
@script_options
@audio_options
@box_options
@day_options
@dealt_option
@wait_option
@click.pass_obj
def serve(env, **params):
    """Serve the game to tablets on the local network: they play the night in step.

    Prints the address to open on each tablet (and a QR code), and the laptop's own control
    page. Tablets tap to join; the night starts when you press Enter or Start.

    \b
    Examples:
      narrate serve --players 6
      narrate --players 6 --speaker-box --no-laptop-audio
    """
    from narrator.shell.cli.flow import play_game  # the whole game: imported when served, not with narrate

    play_game(env, params, speaker_box=True)
