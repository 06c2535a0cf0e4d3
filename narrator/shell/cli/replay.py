"""``narrate replay``: a game of many nights as it was played, settled by the rules."""

import json
from pathlib import Path

import click

from narrator.shell.cli.games import use_game
from narrator.shell.cli.interface import Command, echo_data
from narrator.shell.cli.options import language


@click.command(cls=Command)
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path), metavar="FILE")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON, for programs.")
@click.option("--lang", "-l", metavar="LANG", help="Language of the result: it or en.")
@click.pass_obj
def replay(env, file, as_json, lang):
    """Settle a record of a game of many nights: who died at each dawn and each day and why, what
    each character was told, and who won.

    FILE is YAML: the game's options, the players clockwise with their cards, and each round as
    it was played, keyed by the game's action keys (the README shows one).

    \b
    Examples:
      narrate replay partita.yaml
      narrate --game learts-variant replay partita.yaml --json
    """
    from narrator.core.errors import NarratorError
    from narrator.core.i18n import msg
    from narrator.core.replay import replay as settle
    from narrator.games.yamlfile import read_yaml

    data = read_yaml(file, plain_text_scalars=True)
    file_game = data.get("game") if isinstance(data, dict) else None
    if file_game is not None:
        if env.game_given and str(file_game) != env.game.id:
            raise NarratorError(msg("{file}: a record of {recorded}, not of {game}: leave out --game or give --game "
                                    "{recorded}", file=file, recorded=file_game, game=env.game.id))
        use_game(env, str(file_game))
    lang = language(env, lang)
    replayed = settle(env.game, data, str(file))
    if as_json:
        echo_data(json.dumps(replayed.as_dict(), ensure_ascii=False))
        return
    for line in replay_lines(env.game, replayed, lang):
        click.echo(line)


def replay_lines(game, replayed, lang: str) -> list[str]:
    """The result in the game's words: each round's dead, why, what each was told, and the end."""
    from narrator.core.vote import Sentences
    from narrator.shell.cli.words import announced, ending, named, said_answer
    from narrator.shell.translation import _

    sentences = Sentences(game.languages[lang])
    language = game.languages[lang]
    lines = []
    for result in replayed.rounds:
        players = len(replayed.setup.seating)
        if result.night is not None:
            lines.append(_("Night {night}").format(night=result.night))
            lines += ["  " + sentences(f"reason_{reason}", name=name, players=players)
                      for reason, name in result.reasons]
            lines += ["  " + line for line in announced(game, result.step.dawn, sentences)]
            for key, answer in result.answers.items():
                lines.append("  " + _("{key}: {answer}").format(key=named(game, language, key),
                                                               answer=said_answer(game, sentences, key, answer)))
        else:
            lines.append(_("Day {night}").format(night=result.day))
            step = result.step
            lines += ["  " + line for line in game.rules.explain_day(game, step.procedure, step.verdict, sentences)]
            lines += ["  " + sentences(f"reason_{reason}", name=name, players=players)
                      for reason, name in result.reasons]
            lines += ["  " + line for line in announced(game, step.dusk, sentences)]
        dead = ", ".join(result.dead) or _("nobody")
        lines.append("  " + _("Dead: {names}").format(names=dead))
        if result.revived:
            lines.append("  " + _("Back to life: {names}").format(names=", ".join(result.revived)))
    over = replayed.over
    if over is None:
        lines.append(_("The game goes on."))
    else:
        lines += ending(language, over.sides)
        lines.append(_("Winners: {names}").format(names=", ".join(over.winners or ())))
    return lines

