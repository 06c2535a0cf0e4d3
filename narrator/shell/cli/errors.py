"""One place where every failure becomes one line on stderr and an exit status."""

import sys

import click

from narrator.core.errors import Interrupted, NarratorError, Stopped, Terminated
from narrator.core.i18n import os_reason
from narrator.shell.cli.interface import LazyGroup, speaking, translated
from narrator.shell.translation import _, say

EXIT_BAD_INPUT = 2
EXIT_SYSTEM = 1
EXIT_INTERRUPTED = 130

LONG_VALUE = 120  # a value the user gave that is longer than this is quoted back only in part...
MAX_QUOTED = 40  # ...its first characters (a path of ordinary length is shown whole)
MAX_LINE = 300  # an error line never grows past this, whatever it quotes


class NarrateGroup(LazyGroup):
    """A click group whose errors are one line each, never a traceback or a usage dump, and that
    speaks the game's language from its first word."""

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt:
            raise Interrupted from None

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):
        # standalone_mode is taken for click's signature only: errors are always handled here.
        for stream in (sys.stdout, sys.stderr):  # a file name that is not UTF-8 is shown escaped, not a crash
            if hasattr(stream, "reconfigure"):
                stream.reconfigure(errors="backslashreplace")
        arguments = sys.argv[1:] if args is None else list(args)
        env = None
        try:
            from narrator.shell.environment import Environment  # a Ctrl-C while importing is caught too
            from narrator.shell.yamlcache import parsed_yaml_kept

            env = extra["obj"] = extra.get("obj") or Environment()
            with parsed_yaml_kept(env.cache_dir), speaking(env, arguments), translated(self):
                if any("\x00" in argument for argument in arguments):
                    fail(_("narrate: an argument holds a NUL character; no file, name or value can: type it again"))
                self._run(args, prog_name, complete_var, extra, arguments)
        except (KeyboardInterrupt, Interrupted, Terminated) as stop:  # before the run's own handlers
            self._stopped(stop, env, arguments)
        except Exception as error:  # (Python's own machinery may wrap the signal: see stop_within)
            stop = stop_within(error)
            if stop is None:
                raise
            self._stopped(stop, env, arguments)

    @staticmethod
    def _stopped(stop: BaseException, env, arguments: list[str]) -> None:
        from narrator.shell.environment import Environment

        with speaking(env or Environment(), arguments):
            if isinstance(stop, Terminated):
                fail(_("narrate: stopped by a signal"), 128 + stop.signal_number)
            fail(_("narrate: interrupted"), EXIT_INTERRUPTED)

    def _run(self, args, prog_name, complete_var, extra, arguments) -> None:
        long_values = sorted({text for argument in arguments for text in (argument, argument.strip())
                              if len(text) > LONG_VALUE}, key=len, reverse=True)

        def elided(message: str) -> str:
            return elide(message, long_values)

        try:
            result = super().main(args, prog_name or "narrate", complete_var, standalone_mode=False, **extra)
        except click.exceptions.NoArgsIsHelpError as error:
            click.echo(error.ctx.get_help())  # a group called alone: its help, as 'narrate' alone shows
            result = 0
        except click.UsageError as error:
            where = error.ctx.command_path if error.ctx else "narrate"
            fail(_("{command}: {message} (see '{command} --help')").format(
                command=where, message=shorter(elided(error.format_message()))))
        except click.ClickException as error:
            fail(f"narrate: {elided(error.format_message())}", error.exit_code or EXIT_BAD_INPUT)
        except NarratorError as error:
            fail(f"narrate: {elided(say(error))}")
        except Stopped:
            fail(_("narrate: stopped"), EXIT_INTERRUPTED)
        except click.Abort as error:
            click.echo()  # a prompt was waiting: end its line, so that the message has its own
            if isinstance(error.__context__, EOFError):  # click re-raises a prompt's end of input as Abort
                fail(_("narrate: the input ended before every question was answered"))
            fail(_("narrate: interrupted"), EXIT_INTERRUPTED)
        except (KeyboardInterrupt, Interrupted):
            fail(_("narrate: interrupted"), EXIT_INTERRUPTED)
        except Terminated as signal:
            fail(_("narrate: stopped by a signal"), 128 + signal.signal_number)
        except BrokenPipeError:
            sys.stderr.close()  # the reader went away (narrate script | head): nothing left to say
            sys.exit(0)
        except MemoryError:
            fail(_("narrate: out of memory: the input is far larger than a game needs"), EXIT_SYSTEM)
        except OSError as error:  # a name too long, a folder that vanished, a permission: the user can fix it
            where = f"{error.filename}: " if error.filename else ""
            fail(f"narrate: {elided(where + say(os_reason(error)))}")
        sys.exit(result if isinstance(result, int) else 0)


def stop_within(error: BaseException) -> BaseException | None:
    """The Ctrl-C or ending signal an error was raised from, if any. A command imports what it
    needs when it runs, and a signal that lands while Python makes a class there (a dataclass's
    fields) reaches narrate wrapped in a RuntimeError ("Error calling __set_name__"); any error
    raised while a signal unwinds carries it too. It is still the user's Ctrl-C, to be answered
    in one line, not a traceback; an error with no signal behind it is left as it is."""
    seen, current = set(), error
    while current is not None and id(current) not in seen:
        if isinstance(current, (KeyboardInterrupt, Interrupted, Terminated)):
            return current
        seen.add(id(current))
        current = current.__cause__ or current.__context__
    return None


def elide(message: str, long_values: list[str]) -> str:
    """Each over-long value the user gave, wherever the message quotes it, cut to its start."""
    for value in long_values:
        if value in message:
            message = message.replace(value, value[:MAX_QUOTED - 10] + "…")
    return message


def one_line(message: str) -> str:
    """A message as one short printable line: white space folded, odd bytes escaped, length capped."""
    text = printable(" ".join(message[:4 * MAX_LINE].split()))
    return text if len(text) <= MAX_LINE else text[:MAX_LINE - 1] + "…"


def shorter(message: str, room: int = MAX_LINE - 60) -> str:
    """A message cut to leave room for what follows it on the line (the help pointer)."""
    text = one_line(message)
    return text if len(text) <= room else text[:room - 1] + "…"


def printable(text: str) -> str:
    """Undecodable bytes (file names, arguments) and control characters shown as escapes."""
    text = text.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
    return "".join(char if char.isprintable() else repr(char)[1:-1] for char in text)


def fail(message: str, status: int = EXIT_BAD_INPUT) -> None:
    click.echo(one_line(message), err=True)
    sys.exit(status)
