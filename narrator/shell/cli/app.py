"""The ``narrate`` group: plays a game when called with deck options, holds the other commands."""

import click
from click.core import ParameterSource

from narrator import __version__
from narrator.shell.cli.card import card
from narrator.shell.cli.day import timer
from narrator.shell.cli.deck import deck
from narrator.shell.cli.doctor import doctor
from narrator.shell.cli.errors import NarrateGroup
from narrator.shell.cli.flow import play_game
from narrator.shell.cli.games import add_game_option, games
from narrator.shell.cli.options import (
    audio_options,
    day_options,
    dealt_option,
    deck_options,
    script_options,
    wait_option,
)
from narrator.shell.cli.render import render
from narrator.shell.cli.replay import replay
from narrator.shell.cli.resume import resume
from narrator.shell.cli.roles import roles
from narrator.shell.cli.script import script
from narrator.shell.cli.serve import box_options, serve
from narrator.shell.cli.voices import voices
from narrator.shell.cli.votes import votes
from narrator.shell.environment import Environment
from narrator.shell.translation import _

CONTEXT = {"help_option_names": ["-h", "--help"], "max_content_width": 100}


@click.group(cls=NarrateGroup, invoke_without_command=True, context_settings=CONTEXT)
@click.version_option(__version__, "--version", "-V", prog_name="narrate", message="%(prog)s %(version)s",
                      help="Show the version and exit.")  # click's message id, translated when shown
@deck_options
@script_options
@audio_options
@day_options
@dealt_option
@wait_option
@click.option("--speaker-box", is_flag=True, help="Tablets on the local network play the night (see 'narrate serve').")
@box_options
@click.pass_context
def cli(ctx, **params):
    """Be the speaker of a One Night werewolf game, so that everyone plays.

    The game is Una Notte da Lupi unless --game names another ('narrate games' lists them).
    Give the number of players: narrate picks the deck and speaks the night over soft
    drumming, each role in turn with its count, until daybreak. Then it runs the five-minute
    day with spoken warnings, asks who holds which card and who voted whom, and says who
    wins. Space pauses, q stops.

    \b
    Examples:
      narrate --players 6
      narrate --players 8 --lang en
      narrate --players 6 --speaker-box
      narrate --deck "lupo-mannaro x2, veggente, truffatore, guastafeste, contadino x2"
      narrate --game one-night-ultimate-werewolf --players 7
      narrate script --players 10 --format json
    """
    env = ctx.ensure_object(Environment)
    given = [name for name in params if ctx.get_parameter_source(name) is not ParameterSource.DEFAULT]
    if ctx.invoked_subcommand is not None:
        if given:
            option = next(p for p in ctx.command.params if p.name == given[0]).opts[0]
            command = ctx.command.get_command(ctx, ctx.invoked_subcommand)
            if any(option in param.opts for param in command.params):
                raise click.UsageError(_("put {option} after the command: narrate {command} {option} ...").format(
                    option=option, command=ctx.invoked_subcommand))
            raise click.UsageError(_("narrate {command} takes no {option}: leave it out").format(
                option=option, command=ctx.invoked_subcommand))
        return
    if not given:
        click.echo(ctx.get_help())
        return
    play_game(env, params, speaker_box=params["speaker_box"])


for command in (games, script, deck, roles, render, card, timer, votes, replay, resume, serve, voices, doctor):
    cli.add_command(command)
add_game_option(cli)


def main() -> None:
    cli.main(prog_name="narrate")
