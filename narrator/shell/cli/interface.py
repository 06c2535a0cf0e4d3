"""The command line's language: chosen once at start, for our messages and click's alike.

The interface speaks the language of the narration: ``--lang`` when given (looked for before
click parses, so that ``--help`` anywhere on the line is already translated), else the system
locale's, as the narration does. Help texts stay English in the command objects (they are the
catalog's message ids) and are translated for as long as a run lasts.
"""

import inspect
from collections.abc import Iterator, Sequence
from contextlib import contextmanager

import click

from narrator.core.i18n import Catalog
from narrator.shell import translation as i18n
from narrator.shell.translation import _

LANG_OPTIONS = ("--lang", "-l")

# click translates its own messages with the standard gettext functions, imported into these
# modules at their import; pointing those names at our catalog makes click speak the game's language.
_CLICK_MODULES = ("core", "decorators", "exceptions", "formatting", "parser", "termui", "types", "utils")


def echo_data(text: str) -> None:
    """Print ``text`` (JSON or YAML, for programs) as UTF-8, whatever the output's own encoding:
    piped, Windows' standard output is in the ANSI code page (cp1252), where "Niccolò" would
    reach a program as bytes that are not UTF-8."""
    click.echo(text.encode("utf-8"))


def value_asked(arguments: Sequence[str], long: str, short: str | None = None) -> str | None:
    """The value an option is given on the command line, if any (the last one wins, as in click)."""
    found = None
    for index, argument in enumerate(arguments):
        if argument == "--":
            break
        if argument in (long, short) and index + 1 < len(arguments):
            found = arguments[index + 1]
        elif argument.startswith(long + "="):
            found = argument.split("=", 1)[1]
        elif short and argument.startswith(short) and not argument.startswith("--") and len(argument) > 2:
            found = argument[len(short):]
    return found.strip() if found else None


def language_asked(arguments: Sequence[str]) -> str | None:
    """The value of ``--lang``/``-l`` on the command line, if any."""
    found = value_asked(arguments, *LANG_OPTIONS)
    return found.lower() if found else None


def interface_language(env, arguments: Sequence[str]) -> str:
    """The language the run speaks: the one asked for if the game has it, else the default."""
    asked_game = value_asked(arguments, "--game")
    if asked_game is not None:
        from narrator.games.summary import available_games

        if asked_game in available_games(env.games_dir):
            env.use_game(asked_game)  # its languages, and its default one, decide
    asked = language_asked(arguments)
    if asked is not None and asked in env.game_language_ids():
        return asked
    return env.default_language()


def speak_for(env, arguments: Sequence[str]) -> None:
    """Speak the language this run asks for, from here on."""
    speak(interface_language(env, arguments), env.cache_dir)


@contextmanager
def speaking(env, arguments: Sequence[str]) -> Iterator[None]:
    """The language this run asks for while it lasts; the one before it afterwards (a process that
    runs narrate more than once, such as the tests, starts each run from the same state)."""
    before = (i18n.active_catalog(), i18n.active_language())
    speak_for(env, arguments)
    try:
        yield
    finally:
        _use(*before)


def speak(language: str, cache_dir) -> None:
    """Use ``language`` for every message from here on, ours and click's."""
    _use(i18n.load_catalog(language, cache_dir), language)


def _use(catalog: Catalog, language: str) -> None:
    i18n.use(catalog, language)
    import importlib

    for name in _CLICK_MODULES:
        module = importlib.import_module(f"click.{name}")
        if hasattr(module, "_"):
            vars(module)["_"] = catalog.gettext
        if hasattr(module, "ngettext"):
            vars(module)["ngettext"] = catalog.ngettext


def help_message_id(help_text: str) -> str:
    """How a help text is keyed in the catalogs: as click shows it, indentation removed."""
    return inspect.cleandoc(help_text)


# What the catalogs translate on each command, besides its parameters' help and metavar.
_COMMAND_TEXTS = ("help", "short_help", "options_metavar", "subcommand_metavar")


def _texts_of(command: click.Command, every: bool = False) -> Iterator[tuple[object, str]]:
    """(object, attribute) for every piece of interface text a command and its parameters hold: in
    the commands loaded so far, or with ``every`` in all of them (importing those not yet loaded)."""
    for name in _COMMAND_TEXTS:
        if getattr(command, name, None):
            yield command, name
    for param in command.params:
        for name in ("help", "metavar"):
            if getattr(param, name, None):
                yield param, name
    if every and isinstance(command, LazyGroup):
        yield from ((command, name) for name in command.summaries)
        subs = [command.get_command(None, name) for name in command.list_commands(None)]
    else:
        subs = getattr(command, "commands", {}).values()
    for sub in subs:
        yield from _texts_of(sub, every)


def command_message_ids(command: click.Command) -> Iterator[str]:
    """Every message id a command tree shows (for dev/catalog.py)."""
    for thing, name in _texts_of(command, every=True):
        text = thing.summaries[name] if isinstance(thing, LazyGroup) and name in thing.summaries else getattr(
            thing, name)
        yield help_message_id(text)


_changed: list[list[tuple[object, str, str]]] = []  # while translated() lasts: the texts it has changed


def _translate(command: click.Command) -> None:
    """Put the texts of ``command`` in the language in use, if a translated() is in force."""
    if _changed:
        for thing, name in _texts_of(command):
            text = getattr(thing, name)
            _changed[-1].append((thing, name, text))
            setattr(thing, name, _(help_message_id(text)))


@contextmanager
def translated(command: click.Command) -> Iterator[None]:
    """The command tree in the language in use while a run lasts; English again afterwards.

    The command objects keep English, the catalogs' message ids, so that a process that runs
    narrate twice (the tests) can run it in two languages. A command loaded during the run is
    translated as it loads.
    """
    _changed.append([])
    try:
        _translate(command)
        yield
    finally:
        for thing, name, text in reversed(_changed.pop()):
            setattr(thing, name, text)


class TranslatedHelp:
    """Mixed into click's Command and Group: the help option speaks the language in use (click
    makes it once and keeps it, in whatever language was in use then)."""

    def get_help_option(self, ctx):
        option = super().get_help_option(ctx)  # type: ignore[misc]  # a mixin: click's class is next in line
        if option is not None:
            option.help = _("Show this message and exit.")
        return option


class Command(TranslatedHelp, click.Command):
    pass


class Group(TranslatedHelp, click.Group):
    command_class = Command
    group_class = type  # subgroups are of this class too


class LazyGroup(Group):
    """A group whose commands are imported only when one is called (or its own help asked for).

    ``lazy`` maps each command's name to ``"module:attribute"``; ``summaries`` gives the line
    each has in the group's list of commands, so that ``--help`` imports none of them (a quick
    command then loads only what it needs). ``prepare`` runs on each command as it loads.
    """

    def __init__(self, *args, lazy: dict[str, str] | None = None, summaries: dict[str, str] | None = None,
                 prepare=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.lazy = dict(lazy or {})
        self.summaries = dict(summaries or {})
        self.prepare = prepare or (lambda command: None)

    def list_commands(self, ctx) -> list[str]:
        return sorted({*self.commands, *self.lazy})

    def get_command(self, ctx, name: str):
        if name not in self.commands and name in self.lazy:
            import importlib

            module, attribute = self.lazy[name].split(":")
            command = getattr(importlib.import_module(module), attribute)
            self.prepare(command)
            _translate(command)
            self.commands[name] = command
        return super().get_command(ctx, name)

    def format_commands(self, ctx, formatter) -> None:
        rows = [(name, _(self.summaries[name]) if name in self.summaries
                 else self.get_command(ctx, name).get_short_help_str(formatter.width))
                for name in self.list_commands(ctx)]
        if rows:
            with formatter.section(_("Commands")):
                formatter.write_dl(rows)


def confirm(question: str, default: bool = True) -> bool:
    """A yes/no question answered in the language in use (click's confirm knows only y/n)."""
    yes = {"y", "yes", _("y"), _("yes")}
    no = {"n", "no", _("n"), _("no")}

    def answer(value: str) -> bool:
        value = value.strip().casefold()
        if value in yes:
            return True
        if value in no:
            return False
        raise click.BadParameter(_("answer {yes} or {no}").format(yes=_("y"), no=_("n")))

    suffix = _("[Y/n]") if default else _("[y/N]")
    return click.prompt(f"{question} {suffix}", default=_("y") if default else _("n"), show_default=False,
                        value_proc=answer)
