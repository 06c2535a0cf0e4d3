"""What this machine can do for narrate: engine and voices, packs, sound output, the fallback."""

import platform
import sys

from narrator import __version__
from narrator.audio.player import available_command_players, command_player_works
from narrator.environment import Environment
from narrator.errors import NarratorError
from narrator.voicepacks import find_packs


def report(env: Environment) -> list[str]:
    """What this machine offers, a line each; playback is judged exactly as a game judges it."""
    lines = [f"narrate {__version__}, Python {sys.version.split()[0]}, {platform.system()}"]
    lines += _speech(env)
    lines += _packs(env)
    reason = env.sound_problem()
    lines.append("Sound output: " + (_device() if reason is None else reason))
    commands = available_command_players(env.which)
    working = [program for program in commands if reason is not None and command_player_works(program, env.which)]
    shown = [program if reason is None or program in working else f"{program} (cannot play here)"
             for program in commands]
    lines.append("Command-line players: " + (", ".join(shown) if shown else "none"))
    if reason is None:
        use = "sounddevice (PortAudio)"
    elif working:
        use = f"{working[0]} (no pause)"
    else:
        use = f"a file in {env.nights_dir()}, written instead of played"
    lines.append(f"Playback would use: {use}")
    clips = list((env.cache_dir / "clips").glob("*/*.wav"))
    lines.append(f"Cache: {env.cache_dir} ({len(clips)} spoken lines)")
    return lines


def _speech(env: Environment) -> list[str]:
    from narrator.audio.tts import choose_voice

    if env.speech_engine is None:
        return ["Text-to-speech: none configured"]
    try:
        engine = env.speech_engine()
        voices = engine.voices()
    except NarratorError as error:
        return [f"Text-to-speech: unavailable: {error}"]
    lines = [f"Text-to-speech ({engine.name}): {len(voices)} voices"]
    for lang in sorted(env.game.languages):
        try:
            voice = choose_voice(engine, lang)
            others = sum(1 for v in voices if v.speaks(lang)) - 1
            lines.append(f"  {lang}: {voice.id} ({voice.name})" + (f", and {others} more" if others > 0 else ""))
        except NarratorError as error:
            lines.append(f"  {lang}: {error}")
    return lines


def _packs(env: Environment) -> list[str]:
    packs = find_packs(env.voice_pack_folders())
    lines = ["Voice packs:" if packs else "Voice packs: none"]
    for pack in packs:
        where = "shipped" if pack.folder.parent == env.voices_dir else str(pack.folder)
        lines.append(f"  {pack.folder.name}: {pack.language}, {len(pack.clips)} lines, {pack.source}, {where}")
    lines.append(f"  your packs go in {env.user_packs_dir()}")
    return lines


def _device() -> str:
    import sounddevice

    default = sounddevice.query_devices(kind="output")
    outputs = [device["name"] for device in sounddevice.query_devices() if device["max_output_channels"] > 0]
    others = [name for name in outputs if name != default["name"]]
    listed = f"; also {', '.join(others)}" if others else ""
    return f"ok: {default['name']} ({int(default['default_samplerate'])} Hz){listed}"
