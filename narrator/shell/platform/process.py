"""How narrate is told to end, besides Ctrl-C, on each system.

POSIX: SIGTERM (a ``kill``) and SIGHUP (the terminal closed). Windows: Ctrl-Break (SIGBREAK) and
the console window closed, which is no signal but a call from the console in a thread of its
own; both unwind as SIGTERM does, so that no temporary file is left behind.
"""

import signal

from narrator.shell import platform


def ending_signals() -> tuple[int, ...]:
    """The signals that ask narrate to end here, beside SIGINT (Ctrl-C)."""
    names = ("SIGTERM", "SIGBREAK") if platform.windows() else ("SIGTERM", "SIGHUP")
    return tuple(getattr(signal, name) for name in names if hasattr(signal, name))


def on_window_closed() -> None:
    """Where closing the window is no signal (Windows), have it unwind the main thread as SIGTERM
    does (its handler: ``narrator.shell.launch``)."""
    if not platform.windows():
        return
    import _thread

    from narrator.shell.platform import win32

    win32.on_console_close(lambda: _thread.interrupt_main(signal.SIGTERM))
