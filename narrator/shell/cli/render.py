
import click

from narrator.shell.cli.interface import Command
from narrator.shell.cli.options import (
    AUDIO_OPTION_NAMES,
    audio_options,
    choose_audio,
    deck_options,
    night_from_options,
    output_option,
    pick,
    script_options,
)
from narrator.shell.translation import _


@click.command(cls=Command)
@deck_options
@script_options
@audio_options
@output_option("The file to write: .wav, .flac or .ogg.")
@click.pass_obj
def render(env, output, **params):
    """Write the whole night to one audio file, for any media player or a tablet.

    \b
    Examples:
      narrate render --players 6 -o notte.wav
      narrate render --players 8 --lang en --ambience rain -o night.ogg
    """
    from narrator.core.views import minutes
    from narrator.shell.audio.night import night_audio, write_night

    *_unused, script = night_from_options(env, params)
    night = night_audio(env, script, choose_audio(**pick(params, AUDIO_OPTION_NAMES)))
    write_night(night, output)
    click.echo(_("narrate: wrote {file} ({length}, {rate} Hz mono)").format(
        file=output, length=minutes(round(night.seconds)), rate=night.rate))
