import click

from narrator.shell.cli.interface import Command, echo_data
from narrator.shell.cli.options import (
    deck_options,
    format_option,
    night_from_options,
    script_options,
)
from narrator.shell.translation import _, active_catalog


@click.command(cls=Command)
@deck_options
@script_options
@click.option("--voice-pack", metavar="DIR|NAME", help="Time the lines by this voice pack (default: the language's).")
@click.option("--night", "night_number", type=click.IntRange(1, 99), metavar="N", default=1, show_default=True,
              help="Which night, in a game of many nights (some turns come only on some nights).")
@format_option()
@click.pass_obj
def script(env, fmt, voice_pack, night_number, **params):
    """Print the night, line by line, with the time each line starts.

    Every role of the deck that wakes is called in the rulebook's order, even when its
    card may lie in the centre. Times are those of the audio, measured from the voice
    pack; a line the pack lacks is estimated.

    \b
    Examples:
      narrate script --players 6
      narrate script --players 10 --lang en --count-style full
      narrate script --deck mydeck.yaml --format json
    """
    from narrator.core.timeline import script_timeline
    from narrator.core.views import dump, script_data, script_text
    from narrator.shell.voicepacks import default_pack, resolve_pack

    if voice_pack is not None and not voice_pack.strip():  # as every command that takes a pack refuses it
        raise click.BadParameter(_("give a voice pack's name or folder ('narrate voices list' shows them), or leave "
                                   "--voice-pack out"), param_hint="'--voice-pack'")
    choice, settings, night = night_from_options(env, params, night_number)
    folders = env.voice_pack_folders()
    pack = resolve_pack(voice_pack, folders, env.game_id) if voice_pack else default_pack(settings.lang, env.game_id, folders)
    durations = {key: clip.seconds for key, clip in pack.clips.items()} if pack else {}
    timeline, measured = script_timeline(night, durations)
    if fmt == "text":
        click.echo(script_text(env.game, night, timeline, not measured, active_catalog()))
    else:
        echo_data(dump(script_data(env.game, night, timeline, estimated=not measured), fmt))
