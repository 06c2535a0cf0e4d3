"""``narrate voices``: list, render and record voice packs."""

from pathlib import Path

import click

from narrator.core.errors import NarratorError
from narrator.core.i18n import msg
from narrator.core.names import player_name
from narrator.shell.cli.interface import Group
from narrator.shell.cli.options import engine_option, language
from narrator.shell.platform.hints import microphone_refused
from narrator.shell.translation import _, say

LICENCE_RECORDED = "the recording belongs to whoever recorded it"


def pack_folder(env, text: str) -> Path:
    """A bare name is a pack in the user's packs folder; anything path-like is that path."""
    text = text.strip()
    if text in ("", ".", ".."):
        raise click.BadParameter(_("'{name}' is not a name for a voice pack: give one, such as nonna").format(name=text),
                                 param_hint=_("FOLDER"))
    if "/" in text or "\\" in text or text.startswith((".", "~")):
        return Path(text).expanduser()
    try:
        player_name(text)  # a pack's name follows the rules of a player's: short, printable text
    except NarratorError as error:
        raise click.BadParameter(_("not a name for a voice pack: {reason}").format(reason=say(error)),
                                 param_hint=_("FOLDER")) from None
    return env.user_packs_dir() / text


@click.group(cls=Group)
def voices():
    """Voice packs: recorded lines that narrate speaks with.

    \b
    Examples:
      narrate voices list
      narrate voices record --lang it nonna
      narrate --players 6 --voice-pack nonna
    """


@voices.command("list")
@click.pass_obj
def list_packs(env):
    """List the game's voice packs: those narrate ships and those you made.

    \b
    Example:
      narrate voices list
    """
    from narrator.core.script import every_line
    from narrator.core.views import table
    from narrator.shell.voicepacks import SOURCE_NAMES, find_packs

    rows = [(_("pack"), _("lang"), _("lines"), _("source"), _("name"), _("where"))]
    for pack in find_packs(env.voice_pack_folders()):
        if pack.game != env.game.id:  # another game's lines: 'narrate voices list --game ID' shows them
            continue
        needed = {key for key, _text in every_line(env.game, pack.language)} if pack.language in env.game.languages else set()
        where = _("shipped") if pack.folder.parent == env.voices_dir else str(pack.folder)
        rows.append((pack.folder.name, pack.language, f"{len(needed & set(pack.clips))}/{len(needed)}", _(SOURCE_NAMES[pack.source]),
                     pack.name, where))
    click.echo("\n".join(table(rows)))
    click.echo(_("Your packs live in {folder}").format(folder=env.user_packs_dir()))


def pack_licence(engine) -> str:
    """A rendered pack's licence, in its manifest (data, so in English): the words' and the voice's."""
    return f"MIT, like narrator: text by the narrator developers; {engine.voice_licence}"


@voices.command("render")
@click.option("--lang", "-l", metavar="LANG", help="The language to speak: it or en.")
@engine_option
@click.option("--voice", metavar="NAME", help="The text-to-speech voice ('narrate doctor' lists them).")
@click.option("--rate", type=click.IntRange(80, 400), metavar="WPM", default=150, show_default=True,
              help="Words per minute.")
@click.option("--model", type=click.Path(dir_okay=False, path_type=Path), metavar="FILE",
              help="A Piper voice model (FILE.onnx, with FILE.onnx.json beside it): speak with --engine piper.")
@click.option("--name", metavar="NAME", help="What 'narrate voices list' calls the pack.")
@click.option("--overwrite", is_flag=True, help="Render again into a pack that text-to-speech made before.")
@click.argument("folder", metavar="FOLDER")
@click.pass_obj
def render_voices(env, lang, engine, voice, rate, model, name, overwrite, folder):
    """Speak every line with text-to-speech into a voice pack FOLDER.

    A bare name puts the pack among your packs; a path puts it there. With a Piper voice model
    (Piper is optional: 'narrate doctor' says how to install it), the pack speaks with a neural
    voice.

    \b
    Examples:
      narrate voices render --lang en --voice pico/en-us american
      narrate voices render --lang it --engine pyttsx3 --rate 140 espeak
      narrate voices render --lang it --engine piper --model it_IT-paola-medium.onnx paola
    """
    from narrator.shell.audio.packs import render_pack
    from narrator.shell.audio.tts import MODEL_ENGINES, engine_factory

    lang = language(env, lang)
    if model is not None and engine is None:
        engine = MODEL_ENGINES[0]  # the one engine that speaks with a model file
    factory = engine_factory(engine, model) if engine else env.speech_engine
    if factory is None:
        raise NarratorError(msg("no text-to-speech engine is configured"))
    target = pack_folder(env, folder)
    engine = factory()
    pack = render_pack(env.game, lang, target, engine, voice, rate, name, pack_licence(engine), overwrite,
                       progress=lambda done, total, key: click.echo(f"\r{done}/{total} {key:<28}", nl=False, err=True))
    click.echo("", err=True)
    click.echo(_("narrate: {count} lines in {folder}; play with --voice-pack {name}").format(
        count=len(pack.clips), folder=target, name=folder))


@voices.command("record")
@click.option("--lang", "-l", metavar="LANG", help="The language you will read in: it or en.")
@click.option("--name", metavar="NAME", help="What 'narrate voices list' calls the pack.")
@click.argument("folder", metavar="FOLDER")
@click.pass_obj
def record_voices(env, lang, name, folder):
    """Record your own narrator, line by line, into a voice pack FOLDER.

    Each line is shown; Enter starts recording and Enter stops it, with a level meter running
    meanwhile. The take is cleaned as the game will play it (rumble filtered out, the key clicks
    and the room's noise before and after the voice cut, its loudness set like every other
    line) and you hear it back, then keep it or record it again. Stop whenever you like:
    running the same command again carries on from the first line not yet recorded. Lines you
    skip are spoken by text-to-speech.

    \b
    Example:
      narrate voices record --lang it nonna
      narrate --players 6 --voice-pack nonna
    """
    from narrator.core.script import count_line_keys, every_line
    from narrator.shell.audio.packs import add_recording, open_or_start_pack
    from narrator.shell.audio.recorder import kept_from
    from narrator.shell.audio.studio import process_take
    from narrator.shell.cli.recording import record_take, take_report

    lang = language(env, lang)
    target = pack_folder(env, folder)
    pack = open_or_start_pack(env.game, lang, target, name, _(LICENCE_RECORDED))
    recorder = env.recorder() if env.recorder else _microphone()
    lines = every_line(env.game, lang)
    todo = [(key, text) for key, text in lines if key not in pack.clips]
    click.echo(_("Recording '{name}' in {folder}: {done} of {total} lines done.").format(
        name=pack.name, folder=target, done=len(lines) - len(todo), total=len(lines)))
    click.echo(_("Enter starts and stops a recording; s skips a line; q stops (run the command again to go on)."))
    position = {key: number for number, (key, _text) in enumerate(lines, start=1)}
    counts = set(count_line_keys(env.game))
    for key, line in todo:
        click.echo(f"\n[{position[key]}/{len(lines)}] {key}\n  {line}")
        answer = click.prompt("  " + _("Enter: record, s: skip, q: quit"), default="",
                              show_default=False).strip().lower()
        if answer == "q":
            break
        if answer == "s":
            continue
        while True:
            raw = record_take(recorder)
            take = process_take(raw)
            if take.silent:
                if kept_from(raw.samples):
                    click.echo("  " + _("the microphone gave nothing but silence: {fix}").format(
                        fix=say(microphone_refused())))
                else:
                    click.echo("  " + _("nothing above the room's noise was recorded: check the microphone"))
                choice = click.prompt("  " + _("Enter: record again, s: skip"), default="",
                                      show_default=False).strip().lower()
                if choice == "s":
                    break
                continue
            recorder.play(take.clip)  # the take as the game will play it
            for report in take_report(raw, take, key in counts):
                click.echo("  " + report)
            choice = click.prompt("  " + _("Enter: keep, r: record again"), default="",
                                  show_default=False).strip().lower()
            if choice != "r":
                pack = add_recording(pack, key, line, take.clip)
                click.echo("  " + _("kept ({seconds} s)").format(seconds=f"{pack.clips[key].seconds:.1f}"))
                break
    done = sum(1 for key, _text in lines if key in pack.clips)
    click.echo("\n" + _("narrate: {done} of {total} lines recorded in {folder}; play with --voice-pack {name}").format(
        done=done, total=len(lines), folder=target, name=folder))


def _microphone():
    from narrator.shell.audio.recorder import MicrophoneRecorder

    return MicrophoneRecorder()
