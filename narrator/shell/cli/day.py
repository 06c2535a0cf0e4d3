"""The day: ``narrate timer`` alone, and the day that follows the night in a game."""

import sys

import click

from narrator.core.errors import Stopped
from narrator.shell.cli.interface import Command
from narrator.shell.cli.options import (
    VOICE_OPTION_NAMES,
    choose_audio,
    countdown_option,
    day_rules,
    language,
    pick,
    voice_options,
)
from narrator.shell.translation import _, say


@click.command(cls=Command)
@click.argument("duration", default="5m", metavar="DURATION")
@click.option("--lang", "-l", metavar="LANG", help="Language of the spoken warnings: it or en.")
@voice_options
@countdown_option
@click.pass_obj
def timer(env, duration, lang, countdown, **params):
    """Run the day's discussion timer alone, for any game: warnings, countdown, call to vote.

    DURATION is like 5m (the default), 90s, 2m30s or 1:30. Space pauses, + adds 30 seconds,
    Enter calls the vote at once.

    \b
    Examples:
      narrate timer
      narrate timer 3m --lang en
    """
    from narrator.core.day import parse_duration

    run_the_day(env, language(env, lang), parse_duration(duration),
                choose_audio(**pick(params, VOICE_OPTION_NAMES), ambience=None), day_rules(env, countdown))


def wait_for_go() -> bool:
    """Hold the day until the group says go; False when nobody can (standard input is closed)."""
    try:
        click.prompt(_("When the night is over, press Enter to start the day"), default="", show_default=False,
                     prompt_suffix=" ")
    except click.Abort:
        if not sys.stdin.isatty():
            click.echo("\n" + _("narrate: nobody can say go (no keyboard input): the day was not started; "
                              "run 'narrate timer' when the group is ready"), err=True)
            return False
        raise
    return True


def run_the_day(env, lang: str, seconds: int, audio, rules, make_speaker=None) -> None:
    """Speak and show the day until the call to vote; ``Stopped`` when q stops it.

    ``make_speaker``: how lines are said here, when a game of many days has found it already (and
    said why it is not the best way once): else it is found now."""
    from narrator.core.day import DayTimer, day_spoken_keys
    from narrator.shell.audio.clip import prepare_voice
    from narrator.shell.audio.night import voice_source
    from narrator.shell.audio.speaker import speaker_maker
    from narrator.shell.dayrun import DayScreen, run_day
    from narrator.shell.platform.keyboard import keys
    from narrator.shell.platform.screen import draws

    language = env.game.languages[lang]
    texts = {key: language.line(key) for key in day_spoken_keys(rules)}
    if env.speaker is not None:
        speaker, reason = env.speaker(), None
    else:
        source = voice_source(env, lang, audio)
        clips = {key: prepare_voice(source.raw_clip(key, text), 48000, source.cache) for key, text in texts.items()}
        reason = None
        if make_speaker is None:
            make_speaker, reason = speaker_maker(env.sound_problem, env.which)
        speaker = make_speaker(clips)
    if reason:
        click.echo(f"narrate: {say(reason)}", err=True)
    day_timer = DayTimer(rules, seconds, env.clock)
    screen = DayScreen(sys.stderr, interactive=draws(sys.stderr))
    try:
        with keys(sleep=env.sleep) as read_key:
            reached_the_vote = run_day(day_timer, speaker.say, read_key, screen, texts)
    finally:
        speaker.close()
    if not reached_the_vote:
        raise Stopped
