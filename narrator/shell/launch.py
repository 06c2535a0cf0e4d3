"""The console entry point, kept as light as it can be.

Importing the command line takes a few tens of milliseconds. A Ctrl-C then must end narrate as
quietly as one pressed later: while importing, SIGINT only sets a flag (raised in the middle of
an import, a KeyboardInterrupt can land in one of importlib's callbacks, where Python prints it
as an "ignored exception" and carries on), and the flag is acted on once the imports are done.
Once running, Ctrl-C raises ``Interrupted`` rather than a KeyboardInterrupt, which click would
meet first while parsing the arguments (and answer with a blank line before narrate's own).
SIGTERM and SIGHUP (a closed terminal, a ``kill``), and on Windows Ctrl-Break and a closed console
window, unwind like Ctrl-C does, so that nothing narrate was writing is left behind.
"""

import signal


def main() -> None:
    pressed = []
    signal.signal(signal.SIGINT, lambda number, frame: pressed.append(number))
    try:
        # PyYAML is not imported here: the game's files are read parsed from the cache
        # (narrator.shell.yamlcache), and PyYAML only when one is new.
        from narrator.core.errors import Interrupted, Terminated
        from narrator.shell.cli.app import main as run
        from narrator.shell.cli.errors import EXIT_INTERRUPTED, fail
        from narrator.shell.platform.process import ending_signals, on_window_closed  # before Ctrl-C raises
    finally:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    if pressed:
        import sys

        from narrator.shell.cli.interface import speak_for
        from narrator.shell.environment import Environment
        from narrator.shell.translation import _

        speak_for(Environment(), sys.argv[1:])
        fail(_("narrate: interrupted"), EXIT_INTERRUPTED)

    def interrupt(signal_number, frame):
        raise Interrupted  # not a KeyboardInterrupt: click, parsing the arguments, would print a blank line first

    def terminate(signal_number, frame):
        raise Terminated(signal_number)

    signal.signal(signal.SIGINT, interrupt)
    for number in ending_signals():
        signal.signal(number, terminate)
    on_window_closed()
    try:
        run()
    finally:  # the work is done: a Ctrl-C while Python shuts down would only print its noise
        signal.signal(signal.SIGINT, signal.SIG_IGN)
