"""The ``narrate`` group: plays a game when called with deck options, holds the other commands."""

import click
from click.core import ParameterSource

from narrator import __version__
from narrator.shell.cli.errors import NarrateGroup
from narrator.shell.cli.games import add_game_option
from narrator.shell.cli.options import (
    audio_options,
    day_options,
    dealt_option,
    deck_options,
    script_options,
    wait_option,
)
from narrator.shell.cli.serve import box_options
from narrator.shell.environment import Environment
from narrator.shell.translation import _

CONTEXT = {"help_option_names": ["-h", "--help"], "max_content_width": 100}

# Every command, imported only when called: name, where it is, and its line in 'narrate --help'.
COMMANDS = {
    "card": ("narrator.shell.cli.card:card", "Print the speaker card, or the moderator's sheet."),
    "deck": ("narrator.shell.cli.deck:deck", "Show a deck and check it against the rules."),
    "doctor": ("narrator.shell.cli.doctor:doctor", "Check the voices, voice packs and sound output here."),
    "games": ("narrator.shell.cli.games:games", "List the games, with their players and languages."),
    "render": ("narrator.shell.cli.render:render", "Write the whole night to one audio file."),
    "replay": ("narrator.shell.cli.replay:replay", "Settle a record of a game of many nights."),
    "resume": ("narrator.shell.cli.resume:resume", "Continue a game of many nights where it stopped."),
    "roles": ("narrator.shell.cli.roles:roles", "List every role in the box."),
    "script": ("narrator.shell.cli.script:script", "Print the night, line by line, with its times."),
    "serve": ("narrator.shell.cli.serve:serve", "Serve the game to tablets on the local network."),
    "timer": ("narrator.shell.cli.day:timer", "Run the day's discussion timer alone."),
    "voices": ("narrator.shell.cli.voices:voices", "Voice packs: recorded lines to speak with."),
    "votes": ("narrator.shell.cli.votes:votes", "Settle the vote by the rules: who is lynched, who wins."),
}


@click.group(cls=NarrateGroup, invoke_without_command=True, context_settings=CONTEXT,
             lazy={name: where for name, (where, _summary) in COMMANDS.items()},
             summaries={name: summary for name, (_where, summary) in COMMANDS.items()}, prepare=add_game_option)
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
    if not env.games_dir.is_dir():  # NARRATOR_GAMES named a folder that is not there
        raise click.UsageError(_("no folder of games at {folder}: NARRATOR_GAMES names the folder that holds "
                                 "game folders (leave it unset for the games narrate ships)").format(
                                     folder=env.games_dir))
    given = [name for name in params if ctx.get_parameter_source(name) is not ParameterSource.DEFAULT]
    if ctx.invoked_subcommand is not None:
        command = ctx.command.get_command(ctx, ctx.invoked_subcommand)
        carried = {param.name: params[name] for name in given for param in command.params
                   if name in ANYWHERE and param.name == name}
        if carried:  # the command's own default now, unless it is given after the command too
            ctx.default_map = {**(ctx.default_map or {}), ctx.invoked_subcommand: carried}
            given = [name for name in given if name not in carried]
        if given:
            option = next(p for p in ctx.command.params if p.name == given[0]).opts[0]
            if any(option in param.opts for param in command.params):
                raise click.UsageError(_("put {option} after the command: narrate {command} {option} ...").format(
                    option=option, command=ctx.invoked_subcommand))
            raise click.UsageError(_("narrate {command} takes no {option}: leave it out").format(
                option=option, command=ctx.invoked_subcommand))
        return
    if not given:
        click.echo(ctx.get_help())
        return
    if params["listen"] and not params["speaker_box"]:
        raise click.UsageError(_("--listen sets the tablets of the speaker box: add --speaker-box (or use "
                                 "'narrate serve')"))
    from narrator.shell.cli.flow import play_game

    play_game(env, params, speaker_box=params["speaker_box"])


# Options that may come before any command that takes them, as --game may: they say which game and
# in which language, not how one command runs (those go after the command: narrate script --players 6).
ANYWHERE = ("lang",)

add_game_option(cli)


def main() -> None:
    cli.main(prog_name="narrate")
