"""``narrate --players N``: the game itself. Shows the deck, then speaks the night."""

import click

from narrator.cli.errors import EXIT_INTERRUPTED
from narrator.cli.options import DeckChoice, phase_labels
from narrator.environment import Environment
from narrator.script import NightScript, ScriptSettings
from narrator.views import deck_text, minutes


def play(env: Environment, choice: DeckChoice, settings: ScriptSettings, script: NightScript, audio) -> None:
    from narrator.audio.console import terminal_session
    from narrator.audio.night import night_audio, write_night
    from narrator.audio.player import choose_players, play_night

    click.echo(deck_text(env.game, choice.deck, choice.players, settings.lang))
    click.echo()
    night = night_audio(env, script, audio)
    players, reason = ([env.player()], None) if env.player else choose_players(write_night, env.output_dir)
    click.echo(f"The night lasts {minutes(night.seconds)}. "
               "Everyone close your eyes. (space: pause, q: stop)")
    with terminal_session(phase_labels(env, settings.lang)) as session:
        completed = play_night(players, night, session, reason)
    if not completed:
        click.echo("narrate: stopped", err=True)
        raise SystemExit(EXIT_INTERRUPTED)
