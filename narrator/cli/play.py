"""``narrate --players N``: the game itself."""

import click

from narrator.cli.options import DeckChoice
from narrator.environment import Environment
from narrator.script import ScriptSettings, generate_script
from narrator.timeline import estimated_timeline
from narrator.views import deck_text, script_text

AUDIO_NOT_YET = ("narrate cannot speak yet: audio arrives in a later version. Until then, "
                 "one player reads the night above aloud, keeping to the times.")


def play(env: Environment, choice: DeckChoice, settings: ScriptSettings) -> None:
    """Show the deck and the night; audio playback is not built yet, so say so plainly."""
    night = generate_script(env.game, choice.deck, settings)
    click.echo(deck_text(env.game, choice.deck, choice.players, settings.lang))
    click.echo()
    click.echo(script_text(env.game, night, estimated_timeline(night), estimated=True))
    click.echo()
    click.echo(AUDIO_NOT_YET)
