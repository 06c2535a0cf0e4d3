"""Saying single lines during the day, without blocking the timer."""

import shutil
import subprocess
import tempfile
from collections.abc import Callable, Mapping
from functools import partial
from pathlib import Path
from typing import Protocol

from narrator.core.i18n import Text, msg
from narrator.shell.audio.clip import Clip, write_clip
from narrator.shell.audio.player import (
    COMMAND_PLAYERS,
    available_command_players,
    command_player_works,
    sounddevice_problem,
)


class Speaker(Protocol):
    def say(self, key: str) -> None:
        """Start saying line ``key`` and return at once."""

    def close(self) -> None:
        """Let the last line finish, then let go of the sound output."""


class SounddeviceSpeaker:
    def __init__(self, clips: Mapping[str, Clip]):
        import sounddevice

        self._sd = sounddevice
        self._clips = clips

    def say(self, key: str) -> None:
        clip = self._clips[key]
        self._sd.play(clip.samples, clip.rate)  # replaces whatever was still sounding

    def close(self) -> None:
        self._sd.wait()


class CommandSpeaker:
    """A command-line player per line; the lines are written to files once, up front."""

    def __init__(self, program: str, clips: Mapping[str, Clip], which=shutil.which):
        self._folder = tempfile.TemporaryDirectory(prefix="narrator-day-")
        self._files = {}
        for key, clip in clips.items():
            path = Path(self._folder.name) / f"{key}.wav"
            write_clip(clip, path)
            self._files[key] = path
        self._command = [which(program) or program, *COMMAND_PLAYERS[program]]
        self._running: list[subprocess.Popen] = []

    def say(self, key: str) -> None:
        self._running.append(subprocess.Popen([*self._command, str(self._files[key])],
                                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))

    def close(self) -> None:
        for process in self._running:
            process.wait()
        self._folder.cleanup()


class SilentSpeaker:
    """No way to make sound: the day's screen shows each line as it comes, and that is all."""

    def say(self, key: str) -> None:
        pass

    def close(self) -> None:
        pass


def speaker_maker(problem=sounddevice_problem, which=shutil.which,
                  works=command_player_works) -> tuple[Callable[[Mapping[str, Clip]], Speaker], Text | None]:
    """How to say lines here, found once (probing the sound output, maybe trying a command-line
    player, takes a moment) for a game that makes its lines as it goes; and why a better way is
    missing. A ``SilentSpeaker`` maker when there is none."""
    reason = problem()
    if reason is None:
        return SounddeviceSpeaker, None
    for program in available_command_players(which):
        if works(program, which):
            return partial(CommandSpeaker, program, which=which), msg("{reason}; the day's lines play through {player}",
                                                         reason=reason, player=program)
    return silent_speaker, msg("{reason}; the day's lines are shown on screen only", reason=reason)


def silent_speaker(clips: Mapping[str, Clip]) -> SilentSpeaker:
    return SilentSpeaker()
