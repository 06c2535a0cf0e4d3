"""Errors the user can fix. Each carries one line that says what is wrong and how to fix it.

The command line prints the message alone (no traceback) and exits with status 2.
"""


class NarratorError(Exception):
    """Something the user asked for or gave us cannot be used as it is."""


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


class Interrupted(BaseException):
    """Ctrl-C, carried past click (which would print a stray blank line for a KeyboardInterrupt)."""
