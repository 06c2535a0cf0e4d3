
import click

from narrator.shell.cardpdf import SIZES
from narrator.shell.cli.interface import Command
from narrator.shell.cli.options import deck_options, night_from_options, output_option, script_options
from narrator.shell.translation import ngettext


@click.command(cls=Command)
@deck_options
@script_options
@click.option("--size", "-s", type=click.Choice(sorted(SIZES)), default="a5", show_default=True,
              help="Sheet size: A6 and A5 print front and back, A4 holds both on one page.")
@click.option("--day-minutes", type=click.IntRange(1, 60), metavar="M",
              help="The day's length, as printed on the back (default: the game's).")
@output_option("The PDF file to write.")
@click.pass_obj
def card(env, size, day_minutes, output, **params):
    """Print the speaker card for this deck: the night in order, the day, how the vote works.

    \b
    Examples:
      narrate card --players 8 -o tessera.pdf
      narrate card --players 8 --lang en --size a5 -o card.pdf
    """
    from narrator.core.card import card_content
    from narrator.core.card import day_minutes as game_day_minutes
    from narrator.core.script import night_scripts
    from narrator.shell.cardpdf import write_card

    choice, settings, _script = night_from_options(env, params)
    scripts = night_scripts(env.game, choice.deck, settings)
    content = card_content(env.game, choice.deck, choice.players, scripts,
                           game_day_minutes(env.game) if day_minutes is None else day_minutes)
    pages, body = write_card(content, size, output)
    click.echo(ngettext("narrate: wrote {file} ({size}, {count} page, text at {points} pt)",
                        "narrate: wrote {file} ({size}, {count} pages, text at {points} pt)", pages).format(
        file=output, size=size.upper(), count=pages, points=f"{body:g}"))
