import click

from narrator.core.choices import SHEETS
from narrator.shell.cli.interface import Command
from narrator.shell.cli.options import deck_options, night_from_options, output_option, script_options
from narrator.shell.translation import _, ngettext


@click.command(cls=Command)
@deck_options
@script_options
@click.option("--size", "-s", type=click.Choice(SHEETS),
              help="Sheet size: A6 and A5 print front and back, A4 holds both on one page; a card they hold only "
                   "under 9 pt takes more pages (default: A5; the moderator's sheet A4).")
@click.option("--day-minutes", type=click.IntRange(1, 60), metavar="M",
              help="The day's length, as printed on the back (default: the game's).")
@click.option("--sheet", is_flag=True,
              help="A game with a moderator: print the moderator's sheet instead, the seating with each player's "
                   "card and a grid of nights and days to mark.")
@click.option("--names", metavar="NAMES", help='With --sheet: the players in seating order, "Anna,Bruno,..." '
                                               "(else numbered seats, the names written in by hand); without "
                                               "--players, as many play as are named.")
@click.option("--deal", is_flag=True, help="With --sheet: narrate deals the cards and prints who holds which (else a "
                                          "column to write them in).")
@click.option("--saved", metavar="[FILE]", is_flag=False, flag_value="", default=None,
              help="The card (with --sheet: the sheet, its players and the cards they were dealt) of a game of many "
                   "nights narrate keeps: the set in play, drawn or not, with its options and language. Without "
                   "FILE, the game saved most recently that is not over (with --game, of that game).")
@output_option("The PDF file to write.")
@click.pass_obj
def card(env, size, day_minutes, sheet, names, deal, saved, output, **params):
    """Print the speaker card for this deck: the night in order, the day, how the vote works.

    With --sheet, a game with a moderator prints the moderator's sheet instead: the seating,
    with each player's card, and a grid of the nights and one of the days, with a column for
    each thing the moderator marks (who was protected, seen, killed, lynched...).

    \b
    Examples:
      narrate card --players 8 -o tessera.pdf
      narrate card --players 8 --lang en --size a5 -o card.pdf
      narrate --game lupus-in-tabula card --players 12 --sheet --names "Anna,Bruno,..." -o foglio.pdf
      narrate card --saved --sheet -o foglio.pdf
    """
    from narrator.core.card import deck_card
    from narrator.shell.cardpdf import write_card

    if saved is not None:
        _refuse_with_saved(params, names, deal)
    if not sheet and (names is not None or deal):
        raise click.UsageError(_("{option} goes with --sheet").format(option="--names" if names is not None else "--deal"))
    if sheet and day_minutes is not None:
        raise click.UsageError(_("--day-minutes is printed on the card: leave it out with --sheet"))
    if sheet and names is not None and params["players"] is None and params["deck_spec"] is None:
        from narrator.shell.cli.votes import check_names

        params["players"] = len(check_names(env, names, None))  # as many as are named
    seating, cards = None, None
    if saved is not None:
        choice, settings, seating, cards, minutes = _saved_game(env, saved)
        day_minutes = day_minutes or minutes
    else:
        choice, settings, _script = night_from_options(env, params)
        if choice.seed is not None and params["seed"] is None:
            _say_game_in_play(env)
    if sheet:
        _write_sheet(env, choice, settings, size or "a4", names, deal, output, seating, cards)
        return
    content = deck_card(env.game, choice.deck, choice.players, settings, day_minutes)
    size = size or "a5"
    pages, body = write_card(content, size, output)
    click.echo(ngettext("narrate: wrote {file} ({size}, {count} page, text at {points} pt)",
                        "narrate: wrote {file} ({size}, {count} pages, text at {points} pt)", pages).format(
        file=output, size=size.upper(), count=pages, points=f"{body:g}"))


def _say_game_in_play(env) -> None:
    """A new draw while a game of this game is kept unfinished: the card of a game in play is
    asked for with --saved, and a new draw is easily taken for it."""
    from narrator.shell.cli.resume import game_of
    from narrator.shell.savedgames import FOLDER, unfinished

    # (a file that cannot be read as a game is resume's to name: not this command's business)
    if any(game_of(path) == env.game.id for path in unfinished(env.data_home / FOLDER)):
        click.echo(_("narrate: a new draw, not the set of the game in play: 'narrate card --saved' prints "
                     "that one"), err=True)


def _refuse_with_saved(params: dict, names, deal: bool) -> None:
    """The options that would choose the deck, the narration or the players, refused in one line
    with --saved: the saved game says them all."""
    context = click.get_current_context()
    given = [param.opts[0] for param in context.command.params if param.name in params
             and context.get_parameter_source(param.name) is click.core.ParameterSource.COMMANDLINE]
    given += ["--names"] * (names is not None) + ["--deal"] * deal
    if given:
        raise click.UsageError(_("--saved prints the saved game as it is played: leave out {option}").format(
            option=given[0]))


def _saved_game(env, file: str):
    """The deck, the settings, the seating, the cards dealt and the day's minutes of a saved game
    (``file``, or the latest not over when empty): the set in play, never a new draw."""
    from pathlib import Path

    from narrator.core.errors import NarratorError
    from narrator.core.i18n import msg
    from narrator.core.rounds import check_setup
    from narrator.shell.cli.options import DeckChoice
    from narrator.shell.cli.resume import chosen_game
    from narrator.shell.cli.rounds import check_options, saved_deck, saved_settings

    saved = chosen_game(env, Path(file) if file else None, env.game_id if env.game_given else None)
    check_options(env.game, saved)
    options, setup = saved.options, saved.setup
    try:
        check_setup(env.game, setup)  # a file edited by hand: refused as 'narrate resume' refuses it
    except NarratorError as error:
        raise NarratorError(msg("{file}: {error}", file=saved.path, error=error.message)) from None
    settings, deck = saved_settings(env.game, saved), saved_deck(env.game, saved)
    return (DeckChoice(deck, len(setup.seating), None), settings, list(setup.seating), setup.cards,
            options["day_seconds"] / 60)


def _write_sheet(env, choice, settings, size: str, names, deal: bool, output, seating=None, cards=None) -> None:
    """The moderator's sheet (narrator.core.sheet), refused in one line for a game without a moderator."""
    from narrator.core.sheet import has_sheet, sheet_content
    from narrator.shell.cli.rounds import dealt_cards
    from narrator.shell.cli.votes import check_names
    from narrator.shell.sheetpdf import write_sheet

    game = env.game
    if not has_sheet(game, choice.deck, settings.options):
        if not game.moderated(choice.deck.role_ids, settings.options):
            raise click.UsageError(_("--sheet is the moderator's sheet, and this game of {game} has no "
                                     "moderator").format(game=game.title))
        raise click.UsageError(_("{game} has no moderator's sheet").format(game=game.title))
    if names is not None:
        seating = check_names(env, names, choice.players)
    seats = seating or [str(number) for number in range(1, choice.players + 1)]
    if deal:
        cards = dealt_cards(env, seats, choice.deck)
    content = sheet_content(game, choice.deck, settings.lang, settings.options, choice.players, seating, cards)
    pages, rounds = write_sheet(content, size, output)
    click.echo(ngettext("narrate: wrote {file} ({size}, {count} page, {rounds} nights and days to mark)",
                        "narrate: wrote {file} ({size}, {count} pages, {rounds} nights and days to mark)",
                        pages).format(file=output, size=size.upper(), count=pages, rounds=rounds))
    if deal:
        click.echo(_("narrate: hand out the cards as the sheet says, then play with --dealt and type them in"))
