"""The console entry point, kept as light as it can be.

Importing the command line takes a few tens of milliseconds; a Ctrl-C in that time must end
narrate as quietly as one pressed later, with no traceback. SIGTERM and SIGHUP (a closed
terminal, a ``kill``) unwind like Ctrl-C does, so that nothing narrate was writing is left behind.
"""

import sys


def main() -> None:
    try:
        import signal

        from narrator.cli.app import main as run
        from narrator.errors import Terminated
    except KeyboardInterrupt:
        sys.stderr.write("narrate: interrupted\n")
        raise SystemExit(130) from None

    def terminate(signal_number, frame):
        raise Terminated(signal_number)

    for name in ("SIGTERM", "SIGHUP"):
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), terminate)
    run()
