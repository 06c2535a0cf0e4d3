"""Playing the night: a transport that feeds audio blocks, and players behind one protocol.

``Transport`` is the whole of the timing logic and has no I/O: the audio device asks it for the
next block, and it answers from the night's timeline, which is already sample-exact. It never
sleeps. Pausing, resuming and stopping are short gain ramps, so nothing clicks, and a stop is
silent within 100 ms (a 50 ms fade plus one device block).

Players, chosen in order of preference by ``choose_player``: PortAudio through sounddevice; a
command-line player that exists (pw-play, paplay, aplay, afplay); or a WAV file and where it is.
"""

import shutil
import subprocess
import tempfile
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

import numpy as np

from narrator.core.errors import Interrupted, NarratorError
from narrator.core.i18n import Text, msg
from narrator.shell import platform
from narrator.shell.audio.mix import NightAudio
from narrator.shell.platform.hints import pip_install, portaudio_missing
from narrator.shell.translation import say

PAUSE_FADE = 0.02  # seconds
STOP_FADE = 0.05
BLOCK = 1024  # frames per device callback: about 21 ms at 48 kHz


class PlayerFailed(NarratorError):
    """This player could not make sound; the next one may."""


class Transport:
    """Where playback is in the night, and what the next block sounds like."""

    def __init__(self, night: NightAudio):
        self.night = night
        self.position = 0
        self._gain = 1.0
        self._target = 1.0
        self._fade = PAUSE_FADE
        self.stopping = False
        self._lock = threading.Lock()

    @property
    def paused(self) -> bool:
        return self._target == 0 and not self.stopping

    @property
    def finished(self) -> bool:
        """Nothing more will sound: the night ended, or a stop has faded out."""
        return self.position >= self.night.length or (self.stopping and self._gain == 0)

    def toggle_pause(self) -> None:
        with self._lock:
            if not self.stopping:
                self._target, self._fade = (1.0 if self._target == 0 else 0.0), PAUSE_FADE

    def stop(self) -> None:
        with self._lock:
            self.stopping, self._target, self._fade = True, 0.0, STOP_FADE

    def advance(self, frames: int) -> None:
        """Move on ``frames`` with no sound made, unless paused: the night playing elsewhere."""
        with self._lock:
            self._gain = self._target  # nothing sounds here, so nothing to fade
            if self._target:
                self.position = min(self.position + frames, self.night.length)

    def next_block(self, frames: int) -> np.ndarray:
        """The next ``frames`` samples (zeros once paused or stopped, or past the end)."""
        with self._lock:
            step = 1 / (self._fade * self.night.rate)
            direction = 1 if self._target > self._gain else -1
            ramp = np.clip(self._gain + direction * step * np.arange(1, frames + 1), 0, 1)
            if self._gain == self._target:
                ramp[:] = self._gain
            if self._gain == 0 and self._target == 0:
                return np.zeros(frames, dtype=np.float32)  # paused: time stands still
            audio = self.night.block(self.position, frames)
            out = np.zeros(frames, dtype=np.float32)
            out[:len(audio)] = audio * ramp[:len(audio)]
            self.position += frames
            self._gain = float(ramp[-1])
            return out


class Player(Protocol):
    name: str
    audible: bool  # False for a player that only writes the night to a file for another device

    def play(self, night: NightAudio, session: "Session") -> bool:
        """Play the whole night; True if it ran to the end, False if the user stopped it."""


@dataclass
class Session:
    """What a player needs from the terminal: keys pressed, and somewhere to show progress."""

    read_key: Callable[[float], str | None]  # waits up to the given seconds for a key
    show: Callable[[Transport], None]
    say: Callable[[str], None]


class SounddevicePlayer:
    name = "sounddevice"
    audible = True

    def __init__(self, open_stream: Callable | None = None):
        self._open_stream = open_stream

    def play(self, night: NightAudio, session: Session) -> bool:
        transport = Transport(night)
        done = threading.Event()

        def callback(outdata, frames, time_info, status):
            outdata[:, 0] = transport.next_block(frames)
            if transport.finished:
                raise _callback_stop()

        stream = self._stream(night.rate, callback, done.set)
        stream.start()
        try:
            while not done.is_set():
                session.show(transport)
                key = session.read_key(0.1)
                if key == " ":
                    transport.toggle_pause()
                elif key in ("q", "Q"):
                    transport.stop()
        except (KeyboardInterrupt, Interrupted):
            transport.stop()
        finally:
            done.wait(1.0)
            stream.close()
        session.show(transport)
        return not transport.stopping

    def _stream(self, rate: int, callback, finished):
        if self._open_stream is not None:
            return self._open_stream(samplerate=rate, channels=1, dtype="float32", blocksize=BLOCK,
                                     callback=callback, finished_callback=finished)
        import sounddevice

        return sounddevice.OutputStream(samplerate=rate, channels=1, dtype="float32", blocksize=BLOCK,
                                        callback=callback, finished_callback=finished)


def _callback_stop() -> BaseException:
    try:
        import sounddevice

        return sounddevice.CallbackStop()
    except (ImportError, OSError):
        return StopIteration()


def sounddevice_problem() -> Text | None:
    """Why PortAudio cannot play here, with the fix; None when it can."""
    try:
        import sounddevice
    except OSError:
        return portaudio_missing()
    except ImportError:
        return msg("sounddevice is not installed: {command}", command=pip_install("sounddevice"))
    try:
        sounddevice.query_devices(kind="output")
    except Exception as error:  # sounddevice.PortAudioError, or a bad device setting
        if str(error).startswith(NO_DEFAULT_DEVICE):  # PortAudio's words for "there is none": nothing to add
            return msg("no sound output device: connect speakers or headphones, or pick an output in the system's "
                       "sound settings")
        return msg("no sound output device ({error}): connect speakers or headphones, or pick an output in the "
                   "system's sound settings", error=error)
    return None


# What PortAudio says when the system has no default output device (device -1).
NO_DEFAULT_DEVICE = "Error querying device -1"


COMMAND_PLAYERS = {  # program: arguments before the file
    "pw-play": [], "paplay": [], "aplay": ["-q"], "afplay": [],
}


class CommandPlayer:
    """A player program the system has; it plays a rendered file. Pausing is not possible."""

    audible = True

    def __init__(self, program: str, write_wav: Callable[[NightAudio, Path], None]):
        self.name = program
        self._write_wav = write_wav

    def play(self, night: NightAudio, session: Session) -> bool:
        with tempfile.TemporaryDirectory(prefix="narrator-") as folder:
            path = Path(folder) / "night.wav"
            self._write_wav(night, path)
            process = subprocess.Popen([shutil.which(self.name) or self.name, *COMMAND_PLAYERS[self.name], str(path)],
                                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
            try:
                while process.poll() is None:
                    key = session.read_key(0.2)
                    if key in ("q", "Q"):
                        process.terminate()
                        process.wait()
                        return False
            except (KeyboardInterrupt, Interrupted):
                process.terminate()
                process.wait()
                return False
            if process.returncode != 0:
                assert process.stderr is not None  # started with a pipe
                message = (process.stderr.read() or "").strip().splitlines()
                raise PlayerFailed(msg("{player} could not play ({reason})", player=self.name,
                                          reason=message[-1] if message else process.returncode))
            return True


class FilePlayer:
    """No way to make sound here: write the night to ``path`` for another device to play.

    ``path`` is one fixed file in the user's data folder, replaced each time, so that nights
    do not pile up and nothing lands in the working folder unasked.
    """

    name = "file"
    audible = False

    def __init__(self, path: Path, write_wav: Callable[[NightAudio, Path], None]):
        self.path = path
        self._write_wav = write_wav

    def play(self, night: NightAudio, session: Session) -> bool:
        from narrator.shell.files import HeldOpenError

        self.path.parent.mkdir(parents=True, exist_ok=True)
        try:
            self._write_wav(night, self.path)
        except HeldOpenError as held:  # last night's file, still open in a player: this one goes beside it
            beside = next(path for number in range(2, 1000)
                          if not (path := self.path.with_stem(f"{self.path.stem}-{number}")).exists())
            self._write_wav(night, beside)
            session.say("narrate: " + say(msg("{file} is still open in another program: tonight's night is in {other}",
                                              file=held.path, other=beside)))
            self.path = beside
        return True


def follow_night(night: NightAudio, session: Session, clock: Callable[[], float]) -> bool:
    """Show the night on this screen as it plays on another device (the file on a phone), from
    the moment it was started there, by the clock: the part of the night, the count, the time.
    Space pauses (as the other device is paused), q stops following. True if followed to the end."""
    transport = Transport(night)
    last = clock()
    try:
        while not transport.finished:
            session.show(transport)
            key = session.read_key(0.1)
            now = clock()
            transport.advance(round((now - last) * night.rate))  # up to the key, which acts from then on
            last = now
            if key == " ":
                transport.toggle_pause()
            elif key in ("q", "Q"):
                transport.stop()
                transport.advance(0)
    except (KeyboardInterrupt, Interrupted):
        transport.stop()
        transport.advance(0)
    session.show(transport)
    return not transport.stopping


def command_player_works(program: str, which: Callable[[str], str | None] = shutil.which) -> bool:
    """Whether ``program`` can make sound here at all: a tenth of a second of silence, tried once."""
    import wave

    with tempfile.TemporaryDirectory(prefix="narrator-probe-") as folder:
        path = Path(folder) / "silence.wav"
        with wave.open(str(path), "wb") as out:
            out.setnchannels(1)
            out.setsampwidth(2)
            out.setframerate(48000)
            out.writeframes(bytes(2 * 4800))
        try:
            return subprocess.run([which(program) or program, *COMMAND_PLAYERS[program], str(path)],
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=10).returncode == 0
        except (OSError, subprocess.TimeoutExpired):
            return False


def available_command_players(which: Callable[[str], str | None] = shutil.which) -> list[str]:
    """The command-line players this system has (Windows has none narrate could call)."""
    if platform.windows():
        return []
    return [program for program in COMMAND_PLAYERS if which(program)]


def choose_players(write_wav, night_file: Path, problem=sounddevice_problem, which=shutil.which,
                   works=command_player_works) -> tuple[list, Text | None]:
    """The players to try, best first, and why the best of all (PortAudio) is not among them.

    Command-line players are tried on a moment of silence first, so that what will happen is
    known, and said, before the night starts.
    """
    reason = problem()
    if reason is None:
        return [SounddevicePlayer()], None
    commands = available_command_players(which)
    working = [CommandPlayer(program, write_wav) for program in commands if works(program, which)]
    return [*working, FilePlayer(night_file, write_wav)], reason


def plan(player, reason: "Text | str | BaseException") -> Text:
    """One line saying how the night will be heard when it is not the best way (``reason``)."""
    if not player.audible:
        return msg("{reason}; the night will be written to {file} instead of played", reason=reason, file=player.path)
    return msg("{reason}; the night plays through {player} (no pause)", reason=reason, player=player.name)


def play_night(players: list, night: NightAudio, session: Session) -> bool:
    """Play with the first player that works; a fallback during the night is announced in one line."""
    for index, player in enumerate(players):
        try:
            return player.play(night, session)
        except PlayerFailed as error:
            if index == len(players) - 1:
                raise
            session.say(f"narrate: {say(plan(players[index + 1], error))}")
    raise PlayerFailed(msg("no way to play the night here"))
