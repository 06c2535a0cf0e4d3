"""Options shared by several commands, and turning them into core arguments.

The core is imported where an option is turned into its arguments, not at the top: every command
is defined at start-up (``narrate --help`` lists them), and only the one that runs needs it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import click

from narrator.core.choices import COUNT_STYLES, FORMATS
from narrator.shell.translation import _

if TYPE_CHECKING:
    from narrator.core.deck import Deck
    from narrator.core.script import ScriptSettings
    from narrator.shell.environment import Environment

DECK_OPTION_NAMES = ("players", "deck_spec", "add", "remove", "random_deck", "seed", "possible_spec")
SCRIPT_OPTION_NAMES = ("lang", "count_seconds", "count_style", "slot_seconds", "game_options", "variants")


def option_group(decorators):
    """Several click options as one decorator, in the order listed."""
    def decorate(function):
        for decorator in reversed(decorators):
            function = decorator(function)
        return function

    return decorate


class PlayersOption(click.Option):
    """--players, whose help gives the chosen game's range of players (Lupus in Tabula's is not
    Una Notte da Lupi's): filled in only when the help is shown, from the game's file alone."""

    def get_help_record(self, ctx):
        record = super().get_help_record(ctx)
        if record is None or "{players}" not in record[1]:
            return record
        from narrator.games.summary import players_range

        env = ctx.find_root().obj
        players = players_range(env.games_dir / env.game_id) if env is not None else None
        if players is None:  # no game to ask (a broken games folder says so elsewhere)
            return record[0], record[1].replace(" ({players})", "")
        return record[0], record[1].replace("{players}", "{}-{}".format(*players))


deck_options = option_group([
    click.option("--players", "-p", type=int, metavar="N", cls=PlayersOption,
                 help="How many are playing ({players}). Without --deck, picks the recommended deck."),
    click.option("--deck", "-d", "deck_spec", metavar="CARDS|FILE",
                 help="The cards: a comma list such as \"lupo-mannaro x2, veggente, contadino x3, ...\" "
                      "(ids or names, Italian or English) or a YAML deck file."),
    click.option("--add", multiple=True, metavar="ROLE", help="Add one card of ROLE to the deck (repeatable)."),
    click.option("--remove", multiple=True, metavar="ROLE", help="Take one card of ROLE out (repeatable)."),
    click.option("--random", "random_deck", is_flag=True, help="Draw a random legal deck for --players."),
    click.option("--seed", type=int, metavar="N", help="Draw the random deck narrate printed with this seed again "
                                                        "(implies --random)."),
    click.option("--possible", "possible_spec", metavar="CARDS",
                 help="In a game whose group agrees the possible roles: the public list the deck is drawn "
                      "from, written as --deck's cards (default: the game's list for --players)."),
])

lang_option = click.option("--lang", "-l", metavar="LANG",
                           help="Narration language, such as it or en. Default: the system locale's if the game speaks it, else the "
                                "game's own.")

def _interface_language(ctx, param, value: str | None) -> str | None:
    """A language the game speaks, refused as every command's --lang is (the run already speaks
    it: see ``interface.speak_for``)."""
    if value is not None:
        language(ctx.find_root().obj, value)
    return value


# For the commands that only show things: the language they answer in.
interface_lang_option = click.option("--lang", "-l", metavar="LANG", callback=_interface_language,
                                     expose_value=False, help="The language to answer in, such as it or en.")

game_option_options = option_group([
    click.option("--option", "game_options", multiple=True, metavar="NAME=on|off",
                 help="Turn one of the game's narration options on or off, such as nudge=off (repeatable; "
                      "'narrate games' lists each game's options)."),
    click.option("--variant", "variants", multiple=True, metavar="NAME",
                 help="Play a variant of the game, by its option's name or another it is known by ('narrate games' "
                      "lists them): the same as --option NAME=on (repeatable)."),
])

script_options = option_group([
    lang_option,
    click.option("--count-seconds", type=int, metavar="S", help="Seconds each called role gets (default 10)."),
    click.option("--seconds", "slot_seconds", multiple=True, metavar="TURN=S",
                 help="Seconds for one turn of the night, such as veggente=15 (repeatable)."),
    click.option("--count-style", type=click.Choice(COUNT_STYLES), default="edges", show_default=True,
                 help="Count every second aloud (full), only the first two and last three (edges), or none "
                      "aloud (silent)."),
    game_option_options,
])


def format_option(default: str = "text"):
    return click.option("--format", "-f", "fmt", type=click.Choice(FORMATS), default=default, show_default=True,
                        help="Output for people (text) or programs (json, yaml).")


@dataclass(frozen=True)
class DeckChoice:
    deck: Deck
    players: int
    seed: int | None  # the seed a random deck was drawn with


def choose_deck(env: Environment, players, deck_spec, add, remove, random_deck, seed, possible_spec=None,
                options: Mapping[str, bool] | None = None) -> DeckChoice:
    """The deck the options ask for, validated with the game's ``options`` (its defaults when None);
    a deck file is read here. A game that draws its set draws it whenever no deck is given."""
    import random

    from narrator.core.deck import build_deck, deck_from_data, parse_deck_list

    game = env.game
    if seed is not None and not random_deck:  # the seed narrate printed draws the same deck again
        if deck_spec is not None:
            raise click.UsageError(_("--seed draws a random deck again: leave out --deck or --seed"))
        random_deck = True
    base = None
    if deck_spec is not None:
        if _is_deck_file(deck_spec):
            from narrator.games.yamlfile import read_yaml

            base, stated = deck_from_data(game, read_yaml(Path(deck_spec)), deck_spec)
            players = stated if players is None else players
        else:
            base = parse_deck_list(game, deck_spec)
    possible = None
    if possible_spec is not None:
        if not game.chooses_possible:
            raise click.UsageError(_("{game} does not take a list of possible roles: leave out --possible").format(
                game=game.title))
        possible = parse_deck_list(game, possible_spec).as_dict()
    if game.draws_set and base is None:
        random_deck = True
    if random_deck and seed is None:
        seed = env.new_seed()
    rng = random.Random(seed) if random_deck else None
    deck, players = build_deck(game, players=players, base=base, add=add, remove=remove, rng=rng, options=options,
                               possible=possible)
    return DeckChoice(deck, players, seed if random_deck else None)


def _is_deck_file(spec: str) -> bool:
    if spec.lower().endswith((".yaml", ".yml")):
        return True
    try:
        return Path(spec).is_file()
    except (OSError, ValueError):  # longer than a file name can be, or a NUL in it: a list of cards
        return False


def choose_settings(env: Environment, lang, count_seconds, count_style, slot_seconds, game_options, variants=(),
                    night: int = 1) -> ScriptSettings:
    """Narration settings; an option left unsaid keeps the game's default (a game may have none);
    a variant is its option turned on."""
    from narrator.core.script import settings_for

    asked = {env.game.option_named(name): value for name, value in map(_switch, game_options)}
    asked |= {env.game.option_named(name.strip()): True for name in variants}
    example = f"{env.game.night.slots[0].id}=15" if env.game.night.slots else "TURN=15"
    return settings_for(env.game, _lang(env, lang), count_seconds, count_style, asked,
                        dict(_turn_seconds(text, example) for text in slot_seconds), night)


def _turn_seconds(text: str, example: str) -> tuple[str, int]:
    """``veggente=15`` → ``("veggente", 15)``; ``example`` is one in the game's own turn ids."""
    turn, _equals, seconds = text.partition("=")
    if not turn.strip() or not seconds.strip().isascii() or not seconds.strip().isdigit() or len(seconds) > 6:
        raise click.BadParameter(_("'{value}' is not TURN=SECONDS: write it like {example}").format(
            value=text, example=example), param_hint="'--seconds'")
    return turn.strip(), int(seconds)


_ON, _OFF = ("on", "yes", "true", "1", "si", "sì"), ("off", "no", "false", "0")


def _switch(text: str) -> tuple[str, bool]:
    """``nudge=off`` → ``("nudge", False)``; the game checks the name."""
    name, _equals, value = text.partition("=")
    value = value.strip().casefold()
    if not name.strip() or value not in (*_ON, *_OFF):
        raise click.BadParameter(_("'{value}' is not NAME=on or NAME=off: write it like nudge=off").format(value=text),
                                 param_hint="'--option'")
    return name.strip(), value in _ON


def language(env: Environment, lang: str | None) -> str:
    from narrator.core.script import settings_for

    return settings_for(env.game, _lang(env, lang)).lang


def _lang(env: Environment, lang: str | None) -> str:
    return lang.strip().lower() if lang else env.default_language()


def pick(params: dict, names: tuple[str, ...]) -> dict:
    return {name: params[name] for name in names}


def say_seed(choice: DeckChoice) -> None:
    if choice.seed is not None:
        click.echo(_("narrate: random deck drawn with --seed {seed}").format(seed=choice.seed), err=True)


VOICE_OPTION_NAMES = ("engine", "voice", "rate", "voice_pack")
AUDIO_OPTION_NAMES = (*VOICE_OPTION_NAMES, "ambience", "no_ambience")

engine_option = click.option(
    "--engine", metavar="NAME", help="The text-to-speech engine: pico (SVOX Pico, the default where installed), "
                                     "pyttsx3 (the system's voices: eSpeak NG, SAPI5, macOS) or piper (a neural voice "
                                     "model: 'narrate voices render --model').")

voice_options = option_group([
    engine_option,
    click.option("--voice", metavar="NAME",
                 help="Speak every line with this text-to-speech voice ('narrate doctor' lists them)."),
    click.option("--rate", type=int, metavar="WPM", help="Text-to-speech pace in words per minute (80-400)."),
    click.option("--voice-pack", metavar="DIR|NAME", help="Speak with this voice pack ('narrate voices list')."),
])

audio_options = option_group([
    voice_options,
    click.option("--ambience", metavar="NAME|FILE", default="drums", show_default=True,
                 help="Background under the night: drums, rain, wind, or a WAV/FLAC/OGG file."),
    click.option("--no-ambience", is_flag=True, help="No background: the voice alone."),
])


def output_option(help: str):
    """``-o FILE``: a file to write, never empty and never a folder."""
    return click.option("--output", "-o", type=click.Path(dir_okay=False, path_type=Path), required=True,
                        callback=_output_file, help=help)


def _output_file(ctx, param, value: Path | None) -> Path | None:
    if value is not None and not value.name:
        raise click.BadParameter(_("give a file name, such as notte.wav or tessera.pdf"), ctx, param)
    return value


def choose_audio(engine, voice, rate, voice_pack, ambience="drums", no_ambience=False):
    """Audio options as the audio layer takes them (imported here, so quick commands stay light)."""
    from narrator.shell.audio.night import AudioChoice
    from narrator.shell.audio.tts import engines_here

    if rate is not None and not 80 <= rate <= 400:
        raise click.BadParameter(_("{rate} words per minute is out of reach: choose 80 to 400").format(rate=rate),
                                 param_hint="'--rate'")
    if engine is not None and engine not in engines_here():
        raise click.BadParameter(_("no text-to-speech engine '{engine}': choose one of {engines}").format(
            engine=engine, engines=", ".join(engines_here())), param_hint="'--engine'")
    if voice_pack is not None and not voice_pack.strip():
        raise click.BadParameter(_("give a voice pack's name or folder ('narrate voices list' shows them), or leave "
                                   "--voice-pack out"), param_hint="'--voice-pack'")
    if voice is not None and not voice.strip():
        raise click.BadParameter(_("give a voice's name ('narrate doctor' lists them), or leave --voice out"),
                                 param_hint="'--voice'")
    if voice_pack and (voice or rate or engine):
        raise click.UsageError(_("--voice-pack speaks recorded lines; --engine, --voice and --rate are for "
                                 "text-to-speech: choose one"))
    return AudioChoice(engine=engine, voice=voice, rate=rate, voice_pack=voice_pack,
                       ambience=None if no_ambience else ambience)


def phase_labels(env: Environment, lang: str) -> dict[str, str]:
    """What the terminal calls each part of the night while it plays."""
    from narrator.core.script import INTRO_PHASE, OUTRO_PHASE

    language = env.game.languages[lang]
    labels = {slot.id: language.slot_name(slot, slot.cards({role.id: role.copies for role in env.game.roles})) for slot in env.game.night.slots}
    return {**labels, INTRO_PHASE: language.moments["night"], OUTRO_PHASE: language.moments["dawn"]}


def night_from_options(env: Environment, params: dict, night: int = 1):
    """The deck, the narration settings and the script of night ``night`` that a command's options ask for."""
    from narrator.core.script import generate_script

    settings = choose_settings(env, **pick(params, SCRIPT_OPTION_NAMES), night=night)
    choice = choose_deck(env, **pick(params, DECK_OPTION_NAMES), options=settings.options)
    say_seed(choice)
    return choice, settings, generate_script(env.game, choice.deck, settings)


DAY_OPTION_NAMES = ("day_minutes", "day_seconds", "no_day", "names")
BOX_OPTION_NAMES = ("host", "port", "laptop_audio", "listen")  # the speaker box's (shell/cli/serve.py)

DAY_SECONDS = 3600  # the longest day (--day-seconds), and what a resumed game may hold
COUNTDOWN = 30  # the most seconds counted down aloud before the vote (--countdown)

countdown_option = click.option("--countdown", type=click.IntRange(1, COUNTDOWN), metavar="S",
                                help="Count the last S seconds of the day aloud (default: the game's, 3).")

dealt_option = click.option(
    "--dealt", is_flag=True,
    help="A game with a moderator: the cards are dealt already; type who holds which (else narrate deals).")

wait_option = click.option(
    "--no-wait", is_flag=True,
    help="Start the night at once, for a group that dealt first (else narrate waits for Enter).")

day_options = option_group([
    click.option("--day-minutes", type=click.IntRange(1, 60), metavar="M", help="Length of the day's discussion (5)."),
    click.option("--day-seconds", type=click.IntRange(1, DAY_SECONDS), metavar="S", help="...or give it in seconds."),
    click.option("--no-day", is_flag=True, help="Stop at daybreak: no timed day and no vote."),
    click.option("--names", metavar="NAMES", help='The players in seating order, for the vote: "Anna,Bruno,...".'),
    countdown_option,
])


def day_rules(env: Environment, countdown: int | None):
    """The game's day, with the countdown the options ask for."""
    from dataclasses import replace

    if env.game.day is None:
        raise click.UsageError(_("{game} has no timed day").format(game=env.game.title))
    return env.game.day if countdown is None else replace(env.game.day, countdown=countdown)


def day_length(env: Environment, day_minutes, day_seconds, no_day, names) -> int | None:
    """Seconds of discussion the options ask for; None when there is to be no day."""
    if no_day:
        return None
    if env.game.day is None:  # a game with no timed day: the night is the whole of narrate's part
        if day_minutes or day_seconds:
            raise click.UsageError(_("{game} has no timed day").format(game=env.game.title))
        return None
    return day_seconds or (day_minutes or 0) * 60 or env.game.day.seconds
