"""``narrate resume``: continue a game of many nights where it stopped."""

from pathlib import Path

import click

from narrator.core.errors import NarratorError
from narrator.core.i18n import msg
from narrator.shell.cli.games import use_game
from narrator.shell.cli.interface import Command, confirm, speak
from narrator.shell.translation import _, say


@click.command(cls=Command)
@click.argument("file", required=False, type=click.Path(dir_okay=False, path_type=Path), metavar="FILE")
@click.option("--no-wait", is_flag=True, help="Go on at once (else narrate waits for Enter before the first sound).")
@click.pass_obj
def resume(env, file, no_wait):
    """Continue a game of many nights where it stopped: after Ctrl-C, q, a crash or a closed lid.

    Without FILE, the game saved most recently that is not over. Every entry was saved as it
    was typed; the part of the night or the day that was under way starts again.

    \b
    Examples:
      narrate resume
    """
    saved = chosen_game(env, file)
    speak(saved.lang, env.cache_dir)  # the game's language, whatever the locale
    from narrator.shell.cli.rounds import run_rounds

    run_rounds(env, saved, None if no_wait else "go-on")


def chosen_game(env, file: Path | None, game_id: str | None = None):
    """The game saved in ``file``, or without it the one saved most recently that is not over (of
    ``game_id`` when given; a newer file that cannot be read is named, and passed over only when
    the user says so), its game narrated from now on: what 'narrate resume' goes on with and
    'narrate card --saved' prints."""
    from narrator.shell.savedgames import FOLDER, load, saved_games  # only here: every other command starts without it

    if file is None:
        found = saved_games(env.data_home / FOLDER)
        if game_id is not None:
            found = [(path, problem) for path, problem in found if problem is not None or game_of(path) == game_id]
        games = [path for path, problem in found if problem is None]
        if not games:
            if found:  # only files that cannot be resumed: the newest one says why
                path, problem = found[0]
                raise NarratorError(msg("{file}: {problem}", file=path, problem=problem))
            raise NarratorError(msg("no game to resume in {folder}: start one, such as 'narrate --game "
                                    "lupus-in-tabula --players 8'", folder=env.data_home / FOLDER))
        file = games[0]
        newer = [(path, problem) for path, problem in found[:found.index((file, None))] if problem is not None]
        if newer:  # the newest save cannot be read: say so, and go on with an older game only if asked to
            for path, problem in newer:
                click.echo(_("narrate: {file}: {problem}").format(file=path, problem=say(problem)), err=True)
            if not confirm(_("Go on with the older game saved in {file}?").format(file=file), default=False):
                raise NarratorError(msg("no game resumed: 'narrate resume FILE' goes on with the one you name"))
    saved = load(file)
    if saved.over:
        raise NarratorError(msg("{file}: that game is over; start a new one", file=file))
    use_game(env, saved.game_id)
    if saved.lang not in env.game.languages:
        raise NarratorError(msg("{file}: {game} has no language '{lang}'", file=file, game=env.game.title,
                                lang=saved.lang))
    return saved


def game_of(path: Path) -> str | None:
    """The id of the game saved in ``path``, or None when it cannot be read as one."""
    from narrator.shell.savedgames import load

    try:
        return load(path).game_id
    except NarratorError:
        return None
