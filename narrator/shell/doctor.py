"""What this machine can do for narrate: engine and voices, packs, sound output, the fallback, the
microphone ``--listen`` records from."""

import sys

from narrator import __version__
from narrator.core.errors import NarratorError
from narrator.shell import platform
from narrator.shell.audio.player import available_command_players, command_player_works
from narrator.shell.environment import Environment
from narrator.shell.translation import _, ngettext, say
from narrator.shell.voicepacks import SOURCE_NAMES, find_packs


def report(env: Environment) -> list[str]:
    """What this machine offers, a line each; playback is judged exactly as a game judges it."""
    lines = [f"narrate {__version__}, Python {sys.version.split()[0]}, {platform.name()}"]
    lines += _speech(env)
    lines += _packs(env)
    reason = env.sound_problem()
    lines.append(_("Sound output: {state}").format(state=_device() if reason is None else say(reason)))
    commands = available_command_players(env.which)
    working = [program for program in commands if reason is not None and command_player_works(program, env.which)]
    shown = [program if reason is None or program in working else _("{player} (cannot play here)").format(
        player=program) for program in commands]
    lines.append(_("Command-line players: {players}").format(players=", ".join(shown) if shown else _("none")))
    if reason is None:
        use = "sounddevice (PortAudio)"
    elif working:
        use = _("{player} (no pause)").format(player=working[0])
    else:
        use = _("a file in {folder}, written instead of played").format(folder=env.nights_dir())
    lines.append(_("Playback would use: {player}").format(player=use))
    lines.append(_("Microphone (for --listen): {state}").format(state=_microphone()))
    clips = list((env.cache_dir / "clips").glob("*/*.wav"))
    lines.append(_("Cache: {folder} ({count} spoken lines)").format(folder=env.cache_dir, count=len(clips)))
    return lines


def _speech(env: Environment) -> list[str]:
    from narrator.shell.audio.tts import choose_voice

    if env.speech_engine is None:
        return [_("Text-to-speech: none configured")]
    try:
        engine = env.speech_engine()
        voices = engine.voices()
    except NarratorError as error:
        return [_("Text-to-speech: unavailable: {reason}").format(reason=say(error))]
    lines = [ngettext("Text-to-speech ({engine}): {count} voice", "Text-to-speech ({engine}): {count} voices",
                      len(voices)).format(engine=engine.name, count=len(voices))]
    for lang in sorted(env.game.languages):
        try:
            voice = choose_voice(engine, lang)
            others = sum(1 for v in voices if v.speaks(lang)) - 1
            more = ngettext(", and {count} more", ", and {count} more", others).format(count=others) if others else ""
            lines.append(f"  {lang}: {voice.id} ({voice.name}){more}")
        except NarratorError as error:
            lines.append(f"  {lang}: {say(error)}")
    for name, factory in env.speech_engines().items():  # what --engine NAME would speak with
        if name == engine.name:
            continue
        try:
            others = factory().voices()
        except NarratorError as error:
            lines.append("  " + _("--engine {engine}: unavailable: {reason}").format(engine=name, reason=say(error)))
            continue
        speaking = [lang for lang in sorted(env.game.languages) if any(voice.speaks(lang) for voice in others)]
        lines.append("  " + ngettext("--engine {engine}: {count} voice ({languages})",
                                     "--engine {engine}: {count} voices ({languages})", len(others)).format(
            engine=name, count=len(others), languages=", ".join(speaking) or "-"))
    return lines


def _packs(env: Environment) -> list[str]:
    packs = find_packs(env.voice_pack_folders())
    lines = [_("Voice packs:") if packs else _("Voice packs: none")]
    for pack in packs:
        where = _("shipped") if pack.folder.parent == env.voices_dir else str(pack.folder)
        lines.append("  " + _("{pack}: {language}, {count} lines, {source}, {where}").format(
            pack=pack.folder.name, language=pack.language, count=len(pack.clips), source=_(SOURCE_NAMES[pack.source]), where=where))
    lines.append("  " + _("your packs go in {folder}").format(folder=env.user_packs_dir()))
    return lines


def _device() -> str:
    import sounddevice

    default = sounddevice.query_devices(kind="output")
    outputs = [device["name"] for device in sounddevice.query_devices() if device["max_output_channels"] > 0]
    others = [name for name in outputs if name != default["name"]]
    listed = _("; also {devices}").format(devices=", ".join(others)) if others else ""
    return _("ok: {device} ({rate} Hz)").format(device=default["name"], rate=int(default["default_samplerate"])) + listed


def _microphone() -> str:
    """The input ``--listen`` would record from, by name; nothing is recorded here. (Whether the
    system lets narrate use it shows only when it records: Windows and macOS then give zeros, which
    a round names with the setting to open.)"""
    from narrator.shell.platform.hints import portaudio_missing

    try:
        import sounddevice
    except OSError:
        return say(portaudio_missing())
    try:
        device = sounddevice.query_devices(kind="input")
    except (sounddevice.PortAudioError, ValueError):  # (no default input: PortAudio's device -1)
        return _("none: connect one or pick an input in the system's sound settings")
    return _("ok: {device}").format(device=device["name"])
