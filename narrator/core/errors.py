"""Errors the user can fix. Each carries one line that says what is wrong and how to fix it.

The message is a ``Text`` (see narrator.core.i18n), so that the command line prints it in the game's
language; it prints the message alone (no traceback) and exits with status 2.
"""

from narrator.core.i18n import Text


class NarratorError(Exception):
    """Something the user asked for or gave us cannot be used as it is."""

    def __init__(self, message: Text):
        super().__init__(message)
        self.message = message

    def __str__(self) -> str:
        return str(self.message)


class DataError(NarratorError):
    """A data file (role catalog, narration script, deck file) is malformed."""


class UnknownRoleError(NarratorError):
    """A role name matched nothing in the catalog."""


class DeckError(NarratorError):
    """A deck breaks one of the game's rules."""


class Terminated(BaseException):
    """The process was asked to end (SIGTERM, SIGHUP): unwind, so temporary files are removed and
    the terminal restored, then exit with 128 + the signal's number."""

    def __init__(self, signal_number: int):
        super().__init__(signal_number)
        self.signal_number = signal_number


class Stopped(Exception):
    """The group stopped the game with q: not a failure, and nothing more to say than that."""


class Interrupted(BaseException):
    """Ctrl-C, carried past click (which would print a stray blank line for a KeyboardInterrupt)."""
