from pathlib import Path

import click

from narrator.cli.options import (
    AUDIO_OPTION_NAMES,
    DECK_OPTION_NAMES,
    SCRIPT_OPTION_NAMES,
    audio_options,
    choose_audio,
    choose_deck,
    choose_settings,
    deck_options,
    pick,
    say_seed,
    script_options,
)
from narrator.script import generate_script


@click.command()
@deck_options
@script_options
@audio_options
@click.option("--output", "-o", type=click.Path(dir_okay=False, path_type=Path), required=True,
              help="The file to write: .wav, .flac or .ogg.")
@click.pass_obj
def render(env, output, **params):
    """Write the whole night to one audio file, for any media player or a tablet.

    \b
    Examples:
      narrate render --players 6 -o notte.wav
      narrate render --players 8 --lang en --ambience rain -o night.ogg
    """
    from narrator.audio.night import night_audio, write_night

    choice = choose_deck(env, **pick(params, DECK_OPTION_NAMES))
    say_seed(choice)
    script = generate_script(env.game, choice.deck, choose_settings(env, **pick(params, SCRIPT_OPTION_NAMES)))
    night = night_audio(env, script, choose_audio(**pick(params, AUDIO_OPTION_NAMES)))
    write_night(night, output)
    seconds = int(round(night.seconds))
    click.echo(f"narrate: wrote {output} ({seconds // 60}:{seconds % 60:02d}, {night.rate} Hz mono)")
