"""``narrate resume``: continue a game of many nights where it stopped."""

from pathlib import Path

import click

from narrator.core.errors import NarratorError
from narrator.core.i18n import msg
from narrator.shell.cli.games import use_game
from narrator.shell.cli.interface import Command, speak


@click.command(cls=Command)
@click.argument("file", required=False, type=click.Path(dir_okay=False, path_type=Path), metavar="FILE")
@click.pass_obj
def resume(env, file):
    """Continue a game of many nights where it stopped: after Ctrl-C, q, a crash or a closed lid.

    Without FILE, the game saved most recently that is not over. Every entry was saved as it
    was typed; the part of the night or the day that was under way starts again.

    \b
    Examples:
      narrate resume
    """
    from narrator.shell.savedgames import FOLDER, load, unfinished  # only here: every other command starts without it

    if file is None:
        found = unfinished(env.data_home / FOLDER)
        if not found:
            raise NarratorError(msg("no game to resume in {folder}: start one, such as 'narrate --game "
                                    "lupus-in-tabula --players 8'", folder=env.data_home / FOLDER))
        file = found[0]
    saved = load(file)
    if saved.over:
        raise NarratorError(msg("{file}: that game is over; start a new one", file=file))
    use_game(env, saved.game_id)
    if saved.lang not in env.game.languages:
        raise NarratorError(msg("{file}: {game} has no language '{lang}'", file=file, game=env.game.title,
                                lang=saved.lang))
    speak(saved.lang, env.cache_dir)  # the game's language, whatever the locale
    from narrator.shell.cli.rounds import run_rounds

    run_rounds(env, saved)
