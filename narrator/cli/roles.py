import click

from narrator.cli.interface import Command
from narrator.cli.options import format_option, lang_option, language
from narrator.i18n import active_catalog
from narrator.views import dump, roles_data, roles_text


@click.command(cls=Command)
@lang_option
@format_option()
@click.pass_obj
def roles(env, lang, fmt):
    """List every role in the box: names, copies, side, night order.

    \b
    Example:
      narrate roles --lang en
    """
    lang = language(env, lang)
    click.echo(roles_text(env.game, lang, active_catalog()) if fmt == "text" else dump(roles_data(env.game, lang), fmt))
