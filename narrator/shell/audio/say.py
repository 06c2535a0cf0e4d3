"""macOS' own voices through its ``say`` command, which writes a line straight into a file.

macOS has no SVOX Pico wheel, and pyttsx3's driver there (NSSpeechSynthesizer, deprecated by
Apple) is reported to hang and to save empty files. ``say`` is the same system voices with
none of that: one process a line, waited for at most ``TIMEOUT`` seconds. The text goes in a
file (``-f``), so a line that starts with a dash is never taken for an option.
"""

import re
import shutil
import subprocess
import tempfile
from pathlib import Path

from narrator.core.errors import NarratorError
from narrator.core.i18n import msg
from narrator.shell.audio.clip import Clip, read_clip
from narrator.shell.audio.tts import EngineUnavailable, Voice

TIMEOUT = 60  # seconds for one line; a long line takes a second or two
RATE = 22050
# "Alice               it_IT    # Salve, mi chiamo Alice e sono una voce italiana."
_VOICE = re.compile(r"^(?P<name>\S.*?)\s+(?P<code>[a-z]{2,3}[_-][A-Za-z0-9_-]+)\s+#")


class SayEngine:
    name = "say"
    voice_licence = "spoken by a macOS system voice, under its licence"

    def __init__(self) -> None:
        self._voices: list[Voice] | None = None

    def voices(self) -> list[Voice]:
        if self._voices is None:
            listed = self._run(["-v", "?"]).stdout
            self._voices = [Voice(f"say/{found['name']}", found["name"], (found["code"],))
                            for found in map(_VOICE.match, listed.splitlines()) if found]
        return self._voices

    def synthesize(self, text: str, voice: Voice, rate: int) -> Clip:
        with tempfile.TemporaryDirectory(prefix="narrator-say-") as folder:
            words, path = Path(folder) / "line.txt", Path(folder) / "line.wav"
            words.write_text(text, encoding="utf-8")
            self._run(["-v", voice.name, "-r", str(rate), "-f", str(words), "-o", str(path),
                       "--file-format=WAVE", f"--data-format=LEI16@{RATE}"])
            if not path.is_file() or path.stat().st_size <= 44:
                raise NarratorError(msg("{engine}: no audio was written for {text}", engine=self.name,
                                        text=repr(text[:40])))
            return read_clip(path)

    def _run(self, arguments: list[str]) -> subprocess.CompletedProcess:
        program = shutil.which("say")
        if program is None:
            raise EngineUnavailable(msg("macOS' 'say' command is not here: use --engine pyttsx3 or a voice pack"))
        try:
            result = subprocess.run([program, *arguments], capture_output=True, text=True, timeout=TIMEOUT)
        except subprocess.TimeoutExpired:
            raise NarratorError(msg("{engine} did not finish within {seconds} s", engine=self.name,
                                    seconds=TIMEOUT)) from None
        except OSError as error:
            raise EngineUnavailable(msg("{engine} did not start ({error})", engine=self.name, error=error)) from None
        if result.returncode != 0:
            lines = result.stderr.strip().splitlines()
            raise NarratorError(msg("{engine} failed ({reason})", engine=self.name,
                                    reason=lines[-1] if lines else result.returncode))
        return result
