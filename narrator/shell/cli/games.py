"""``narrate games`` and ``--game``: the games narrate can narrate, found by their folder."""

import click

from narrator.core.errors import NarratorError
from narrator.core.i18n import msg
from narrator.shell.cli.interface import Command, echo_data
from narrator.shell.cli.options import format_option, interface_lang_option
from narrator.shell.translation import active_catalog, say


@click.command(cls=Command)
@format_option()
@interface_lang_option
@click.pass_obj
def games(env, fmt):
    """List the games narrate can narrate, with their players and languages.

    \b
    Examples:
      narrate games
      narrate --game una-notte-da-lupi --players 6
    """
    from narrator.core.views import dump, games_data, games_text
    from narrator.games.loader import load_game
    from narrator.games.summary import available_games

    found = [load_game(env.games_dir / game_id) for game_id in available_games(env.games_dir)]
    if fmt == "text":
        click.echo(games_text(found, active_catalog()))
    else:
        echo_data(dump(games_data(found), fmt))


def choose_game(ctx, param, value: str | None) -> None:
    """``--game ID``: narrate that game from here on; an id that is no game is one line and the list."""
    if value is None:
        return
    try:
        use_game(ctx.obj, value)
    except NarratorError as error:
        raise click.BadParameter(say(error), ctx, param) from None
    ctx.obj.game_given = True


def use_game(env, game_id: str) -> None:
    """Narrate ``game_id`` from now on; a ``NarratorError`` with the list when there is no such game."""
    from narrator.games.summary import available_games

    known = available_games(env.games_dir)
    if game_id not in known:
        raise NarratorError(msg("no game '{game}': choose one of {games}", game=game_id, games=", ".join(known)))
    env.use_game(game_id)


def add_game_option(command: click.Command) -> None:
    """Give ``command`` and every command under it the ``--game`` option (first, so it is read first)."""
    command.params.insert(0, click.Option(
        ["--game"], metavar="GAME", is_eager=True, expose_value=False, callback=choose_game,
        help="The game to narrate, by its id ('narrate games' lists them)."))
    for sub in getattr(command, "commands", {}).values():
        add_game_option(sub)
