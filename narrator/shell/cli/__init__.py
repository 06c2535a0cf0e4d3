"""The ``narrate`` command line: thin commands that parse, call the core and print."""

from narrator.shell.cli.app import cli, main

__all__ = ["cli", "main"]
