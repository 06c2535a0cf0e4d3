import click

from narrator.cli.interface import Command


@click.command(cls=Command)
@click.pass_obj
def doctor(env):
    """Check what this machine offers: text-to-speech voices, voice packs, sound output.

    \b
    Example:
      narrate doctor
    """
    from narrator.audio.doctor import report

    for line in report(env):
        click.echo(line)
