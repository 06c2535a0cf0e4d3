import click

from narrator.cli.options import (
    DECK_OPTION_NAMES,
    SCRIPT_OPTION_NAMES,
    choose_deck,
    choose_settings,
    deck_options,
    format_option,
    pick,
    say_seed,
    script_options,
)
from narrator.script import generate_script
from narrator.timeline import estimated_timeline
from narrator.views import dump, script_data, script_text


@click.command()
@deck_options
@script_options
@format_option()
@click.pass_obj
def script(env, fmt, **params):
    """Print the night, line by line, with the time each line starts.

    Every role of the deck that wakes is called in the rulebook's order, even when its
    card may lie in the centre. Times are estimated until the lines are recorded.

    \b
    Examples:
      narrate script --players 6
      narrate script --players 10 --lang en --count-style full
      narrate script --deck mydeck.yaml --format json
    """
    choice = choose_deck(env, **pick(params, DECK_OPTION_NAMES))
    say_seed(choice)
    settings = choose_settings(env, **pick(params, SCRIPT_OPTION_NAMES))
    night = generate_script(env.game, choice.deck, settings)
    timeline = estimated_timeline(night)
    if fmt == "text":
        click.echo(script_text(env.game, night, timeline, estimated=True))
    else:
        click.echo(dump(script_data(env.game, night, timeline, estimated=True), fmt))
