import click

from narrator.shell.cli.interface import Command
from narrator.shell.cli.options import interface_lang_option


@click.command(cls=Command)
@interface_lang_option
@click.pass_obj
def doctor(env):
    """Check what this machine offers: text-to-speech voices, voice packs, sound output, microphone.

    \b
    Example:
      narrate doctor
    """
    from narrator.shell.doctor import report

    for line in report(env):
        click.echo(line)
