"""``narrate serve`` and ``narrate --speaker-box``: the tablets on the table are the speaker box."""

import re

import click

from narrator.cli.interface import Command
from narrator.cli.options import (
    AUDIO_OPTION_NAMES,
    DAY_OPTION_NAMES,
    audio_options,
    choose_audio,
    day_length,
    day_options,
    day_rules,
    deck_options,
    night_from_options,
    option_group,
    phase_labels,
    pick,
    script_options,
)
from narrator.i18n import _, active_catalog

BOX_OPTION_NAMES = ("host", "port", "laptop_audio")
ALL_ADDRESSES = "0.0.0.0"

box_options = option_group([
    click.option("--host", metavar="ADDRESS", default=ALL_ADDRESSES, show_default=True, callback=lambda ctx, param, value: host_name(value),
                 help="Address to serve the tablets on."),
    click.option("--port", type=click.IntRange(0, 65535), metavar="PORT", default=8765, show_default=True,
                 help="Port to serve on (0: any free one)."),
    click.option("--laptop-audio/--no-laptop-audio", default=True, show_default=True,
                 help="Whether the laptop's own speakers play the night too."),
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


def play_with_box(env, params, day_seconds: int | None, names: str | None) -> None:
    from narrator.cli.votes import check_names
    from narrator.speakerbox.game import run_box_game
    from narrator.views import deck_text

    choice, settings, script = night_from_options(env, params)
    if names is not None and day_seconds is not None:
        check_names(env, names, choice.players)  # before the night, not after the day
    click.echo(deck_text(env.game, choice.deck, choice.players, settings.lang, active_catalog()))
    click.echo()
    run_box_game(env, choice, settings, script, choose_audio(**pick(params, AUDIO_OPTION_NAMES)),
                 day_seconds=day_seconds, names=names, labels=phase_labels(env, settings.lang),
                 rules=day_rules(env, params["countdown"]) if day_seconds is not None else None,
                 **pick(params, BOX_OPTION_NAMES))


@click.command(cls=Command)
@deck_options
@script_options
@audio_options
@box_options
@day_options
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
    play_with_box(env, params, day_length(env, **pick(params, DAY_OPTION_NAMES)), params["names"])
