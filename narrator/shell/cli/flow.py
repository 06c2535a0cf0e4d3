"""One game, from the deck to the verdict, wherever it is heard: this laptop or the speaker box.

The flow is the same for both; a *table* is where the night and the day are heard (the laptop's
sound, or the tablets), and the vote is always asked and settled here, at the laptop.
"""

import click

from narrator.shell.cli.day import run_the_day, wait_for_go
from narrator.shell.cli.options import (
    AUDIO_OPTION_NAMES,
    BOX_OPTION_NAMES,
    DAY_OPTION_NAMES,
    choose_audio,
    day_length,
    day_rules,
    night_from_options,
    phase_labels,
    pick,
)
from narrator.shell.cli.votes import ask_ballots, check_names
from narrator.shell.translation import _, active_catalog


class LaptopTable:
    """This laptop's own sound (or a file, when it has none) as the game's table."""

    def __init__(self, env, settings, script, audio, rules, waiting: str | None):
        self.env, self.settings, self.script, self.audio, self.rules = env, settings, script, audio, rules
        self.waiting = waiting

    def night(self) -> bool:
        from narrator.shell.cli.play import play

        return play(self.env, self.settings, self.script, self.audio, self.waiting)

    def day(self, seconds: int) -> None:
        run_the_day(self.env, self.settings.lang, seconds, self.audio, self.rules)

    def show_result(self, lines: list[str]) -> None:
        pass  # the verdict is on the laptop's screen already

    def close(self) -> None:
        pass


def open_box(env, params, settings, script, audio, rules, waiting: str | None):
    from narrator.shell.cli.ready import BOX_TEXTS
    from narrator.shell.speakerbox.game import BoxTable

    return BoxTable(env, script, audio, settings.lang, phase_labels(env, settings.lang), rules, waiting=waiting,
                    ready=_(BOX_TEXTS[waiting]), say=click.echo, warn=lambda text: click.echo(text, err=True), **pick(params, BOX_OPTION_NAMES))


def play_game(env, params, speaker_box: bool) -> None:
    """The deck, the night, the day, the vote and the verdict, as the options ask."""
    from narrator.core.views import deck_text
    from narrator.core.vote import resolve_vote
    from narrator.core.votes_view import vote_text

    if env.game.plays_rounds and not params.get("no_day"):
        from narrator.shell.cli.rounds import start_rounds

        start_rounds(env, {**params, "speaker_box": speaker_box})
        return
    if params.get("dealt"):
        raise click.UsageError(_("--dealt is for a game of many nights with a moderator"))
    day_seconds = day_length(env, **pick(params, DAY_OPTION_NAMES))
    choice, settings, script = night_from_options(env, params)
    if params["names"] is not None and day_seconds is not None:
        check_names(env, params["names"], choice.players)  # before the night, not after the day
    audio = choose_audio(**pick(params, AUDIO_OPTION_NAMES))
    rules = day_rules(env, params["countdown"]) if day_seconds is not None else None
    click.echo(deck_text(env.game, choice.deck, choice.players, settings.lang, active_catalog(), settings.options))
    click.echo()
    waiting = None if params["no_wait"] else "deal"
    if speaker_box:
        table = open_box(env, params, settings, script, audio, rules, waiting)
    else:
        table = LaptopTable(env, settings, script, audio, rules, waiting)
    try:
        heard = table.night()
        if day_seconds is None or (not heard and not wait_for_go()):
            return
        table.day(day_seconds)
        if env.game.rules is None:  # a game without vote rules: the group settles it by the rulebook
            return
        ballots, answers = ask_ballots(env, params["names"], settings.lang, deck=choice.deck,
                                       players=choice.players)
        result = resolve_vote(env.game, ballots, answers, settings.lang, choice.deck)
        click.echo(vote_text(env.game, ballots, result, settings.lang, active_catalog()))
        table.show_result(list(result.explanation))
    finally:
        table.close()
