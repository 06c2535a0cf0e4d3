"""One place where every failure becomes one line on stderr and an exit status."""

import re
import sys

import click

from narrator.errors import NarratorError, Terminated

EXIT_BAD_INPUT = 2
EXIT_SYSTEM = 1
EXIT_INTERRUPTED = 130

MAX_QUOTED = 40  # characters of a bad value quoted back; the rest is elided
MAX_LINE = 300  # an error line never grows past this, whatever it quotes


class NarrateGroup(click.Group):
    """A click group whose errors are one line each, never a traceback or a usage dump."""

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):
        # standalone_mode is taken for click's signature only: errors are always handled here.
        try:
            result = super().main(args, prog_name or "narrate", complete_var, standalone_mode=False, **extra)
        except click.exceptions.NoArgsIsHelpError as error:
            click.echo(error.ctx.get_help())  # a group called alone: its help, as 'narrate' alone shows
            result = 0
        except click.UsageError as error:
            where = error.ctx.command_path if error.ctx else "narrate"
            fail(f"{where}: {one_line(error.format_message())} (see '{where} --help')")
        except click.ClickException as error:
            fail(f"narrate: {one_line(error.format_message())}", error.exit_code or EXIT_BAD_INPUT)
        except NarratorError as error:
            fail(f"narrate: {one_line(str(error))}")
        except (click.Abort, KeyboardInterrupt):
            fail("narrate: interrupted", EXIT_INTERRUPTED)
        except Terminated as signal:
            fail("narrate: stopped by a signal", 128 + signal.signal_number)
        except BrokenPipeError:
            sys.stderr.close()  # the reader went away (narrate script | head): nothing left to say
            sys.exit(0)
        except MemoryError:
            fail("narrate: out of memory: the input is far larger than a game needs", EXIT_SYSTEM)
        except OSError as error:  # the machine, not the input: a full disk, a vanished folder
            where = f"{error.filename}: " if error.filename else ""
            fail(f"narrate: {one_line(where + str(error.strerror or error))}", EXIT_SYSTEM)
        sys.exit(result if isinstance(result, int) else 0)


def one_line(message: str) -> str:
    """A message as one short printable line: long quoted values elided, odd bytes escaped."""
    text = re.sub(r"'([^']{%d,})'" % (MAX_QUOTED + 1), lambda match: f"'{match[1][:MAX_QUOTED - 10]}…'", message)
    text = printable(" ".join(text[:4 * MAX_LINE].split()))
    return text if len(text) <= MAX_LINE else text[:MAX_LINE - 1] + "…"


def printable(text: str) -> str:
    """Undecodable bytes (file names, arguments) and control characters shown as escapes."""
    text = text.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
    return "".join(char if char.isprintable() else repr(char)[1:-1] for char in text)


def fail(message: str, status: int = EXIT_BAD_INPUT) -> None:
    click.echo(message, err=True)
    sys.exit(status)
