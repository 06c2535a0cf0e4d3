"""How to fix what is missing, in the words of the system the user has.

A hint is a command to paste or a setting to open. Debian's ``apt-get`` means nothing on
Windows or a Mac, and a command with a quoted path, pasted into PowerShell, needs ``&`` before it.
"""

import re
import sys

from narrator.core.i18n import Text, msg
from narrator.shell import platform

_PLAIN = re.compile(r"[\w@%+=:,./\\-]+")


def command_line(words: list[str]) -> str:
    """``words`` as one command to paste into the user's shell: PowerShell on Windows, a POSIX
    shell elsewhere (where ``[`` in an extra would be a wildcard)."""
    if not platform.windows():
        import shlex

        return shlex.join(words)
    quoted = [word if word and _PLAIN.fullmatch(word) else "'" + word.replace("'", "''") + "'" for word in words]
    return ("& " if quoted[0] != words[0] else "") + " ".join(quoted)


def pip_install(*requirements: str) -> str:
    """The command that installs ``requirements`` where this narrate runs: the running
    interpreter's pip (a bare ``pip`` may be another Python's, or none)."""
    return command_line([sys.executable, "-m", "pip", "install", *requirements])


def portaudio_missing() -> Text:
    """PortAudio did not load: Linux packages it apart; Windows' and macOS' sounddevice carries it."""
    if platform.windows() or platform.macos():
        return msg("PortAudio did not load: reinstall sounddevice, which carries it here: {command}",
                   command=pip_install("--force-reinstall", "sounddevice"))
    return msg("PortAudio is missing: on Debian/Ubuntu, sudo apt-get install libportaudio2")


def system_voice_missing() -> Text:
    """The system's text-to-speech did not start, and where to get it."""
    if platform.windows():
        return msg("add a voice in Settings › Time & language › Speech")
    if platform.macos():
        return msg("add a voice in System Settings › Accessibility › Spoken Content")
    return msg("on Debian/Ubuntu: sudo apt-get install libespeak-ng1")


def language_voice_missing() -> Text:
    """No voice of the system speaks the language, and where to add one."""
    if platform.windows() or platform.macos():
        return system_voice_missing()
    return msg("install one (espeak-ng-data on Debian/Ubuntu)")


def microphone_refused() -> Text:
    """What to open when the microphone gave pure silence: Windows and macOS hand an app that may
    not use the microphone a stream of zeros, not an error."""
    if platform.windows():
        return msg("allow the microphone in Settings › Privacy & security › Microphone (desktop apps too)")
    if platform.macos():
        return msg("allow the terminal to use the microphone in System Settings › Privacy & Security › Microphone")
    return msg("check that the microphone is connected and not muted in the system's sound settings")


def read_only(path) -> Text:
    """How to make a read-only saved game writable again."""
    if platform.windows():
        return msg("{file} is read-only: untick Read-only in its Properties to go on with the game", file=path)
    return msg("{file} is read-only: make it writable (chmod u+w) to go on with the game", file=path)


def nobody_joined(port: int) -> Text:
    """No tablet has reached the laptop for a while: what usually keeps them out on this system."""
    if platform.windows():
        return msg("no tablet has joined yet. If they cannot open the page, Windows' firewall may be keeping them "
                   "out: set this Wi-Fi to Private (Settings › Network & internet › Wi-Fi › its properties), and "
                   "allow Python on private networks when Windows asks")
    if platform.macos():
        return msg("no tablet has joined yet. If they cannot open the page, the firewall may be keeping them out: "
                   "allow incoming connections for Python in System Settings › Network › Firewall › Options")
    return msg("no tablet has joined yet. If they cannot open the page, check that they are on the laptop's Wi-Fi "
               "and that no firewall blocks port {port}", port=port)
