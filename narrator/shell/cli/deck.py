import click

from narrator.shell.cli.interface import Command, echo_data
from narrator.shell.cli.options import (
    DECK_OPTION_NAMES,
    choose_deck,
    choose_settings,
    deck_options,
    format_option,
    game_option_options,
    lang_option,
    language,
    pick,
    say_seed,
)
from narrator.shell.translation import active_catalog


@click.command(cls=Command)
@deck_options
@game_option_options
@lang_option
@format_option()
@click.pass_obj
def deck(env, lang, fmt, game_options, variants, **params):
    """Show a deck and check it against the rules.

    A deck has one card per player plus those the game leaves undealt, and keeps the game's
    rules: roles that go in only all together, roles that never share a deck. 'narrate roles'
    lists the roles.

    \b
    Examples:
      narrate deck --players 7
      narrate deck --players 6 --add mitomane --remove contadino
      narrate deck --deck "lupo-mannaro x2, veggente, truffatore, guastafeste, contadino x2"
      narrate deck --players 8 --random --seed 42
    """
    from narrator.core.views import deck_data, deck_text, dump

    options = choose_settings(env, lang, None, "edges", (), game_options, variants).options
    choice = choose_deck(env, **pick(params, DECK_OPTION_NAMES), options=options)
    say_seed(choice)
    lang = language(env, lang)
    if fmt == "text":
        click.echo(deck_text(env.game, choice.deck, choice.players, lang, active_catalog(), options))
    else:
        echo_data(dump(deck_data(env.game, choice.deck, choice.players, lang), fmt))
