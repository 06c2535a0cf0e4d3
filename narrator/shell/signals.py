"""Holding back the signals that stop narrate while a step must not be cut in half."""

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType

from narrator.shell.platform.process import ending_signals

_HELD = (signal.SIGINT, *ending_signals())


@contextmanager
def signals_held() -> Iterator[None]:
    """Ctrl-C and the signals that end narrate (SIGTERM, SIGHUP; Ctrl-Break on Windows) wait
    until the block is done.

    Meanwhile a signal is only noted; its own handler runs as the block ends, and narrate stops
    there as it would anywhere else. Uses: libsndfile writes through Python callbacks, where an
    exception a handler raises is printed as "ignored" and lost; a temporary file must not be
    created without its cleanup being armed. Masking the signal is not enough: the kernel may
    hand a process's signal to another thread (numpy's, the speech engine's), and Python then
    runs the handler in the main thread at its next instruction, wherever that is.
    """
    if threading.current_thread() is not threading.main_thread():  # only the main thread handles signals
        yield
        return
    noted: list[tuple[int, FrameType | None]] = []
    previous = {number: signal.signal(number, lambda number, frame: noted.append((number, frame)))
                for number in _HELD}
    try:
        yield
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)
        for number, frame in noted:
            handler = previous[number]
            if callable(handler):
                handler(number, frame)
            elif handler == signal.SIG_DFL:
                signal.raise_signal(number)
