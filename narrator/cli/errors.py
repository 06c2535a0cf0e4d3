"""One place where every failure becomes one line on stderr and an exit status."""

import sys

import click

from narrator.errors import NarratorError

EXIT_BAD_INPUT = 2
EXIT_SYSTEM = 1
EXIT_INTERRUPTED = 130


class NarrateGroup(click.Group):
    """A click group whose errors are one line each, never a traceback or a usage dump."""

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):
        # standalone_mode is taken for click's signature only: errors are always handled here.
        try:
            result = super().main(args, prog_name or "narrate", complete_var, standalone_mode=False, **extra)
        except click.UsageError as error:
            where = error.ctx.command_path if error.ctx else "narrate"
            _fail(f"{where}: {_one_line(error.format_message())} (see '{where} --help')")
        except click.ClickException as error:
            _fail(f"narrate: {_one_line(error.format_message())}", error.exit_code or EXIT_BAD_INPUT)
        except NarratorError as error:
            _fail(f"narrate: {_one_line(str(error))}")
        except (click.Abort, KeyboardInterrupt):
            _fail("narrate: interrupted", EXIT_INTERRUPTED)
        except BrokenPipeError:
            sys.stderr.close()  # the reader went away (narrate script | head): nothing left to say
            sys.exit(0)
        except OSError as error:  # the machine, not the input: a full disk, a vanished folder
            where = f"{error.filename}: " if error.filename else ""
            _fail(f"narrate: {where}{error.strerror or error}", EXIT_SYSTEM)
        sys.exit(result if isinstance(result, int) else 0)


def _one_line(message: str) -> str:
    return " ".join(message.split())


def _fail(message: str, status: int = EXIT_BAD_INPUT) -> None:
    click.echo(message, err=True)
    sys.exit(status)
