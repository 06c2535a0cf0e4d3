import click

from narrator.shell.cli.interface import Command, echo_data
from narrator.shell.cli.options import format_option, lang_option, language
from narrator.shell.translation import active_catalog


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
    from narrator.core.views import dump, roles_data, roles_text

    lang = language(env, lang)
    if fmt == "text":
        click.echo(roles_text(env.game, lang, active_catalog()))
    else:
        echo_data(dump(roles_data(env.game, lang), fmt))
