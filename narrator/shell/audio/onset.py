"""Where a spoken word is heard to start: its perceived onset, not its first sample.

A count word begins with breath or a soft consonant well before the ear hears the number (20 to
170 ms with the shipped voices), so a word placed by its first sample sounds late and the beats
come unevenly. The onset here is the first moment the word's short-term level (10 ms windows)
comes within ``ONSET_DB`` of its loudest: the attack of its first vowel, which is where a listener
places the beat.
"""

import numpy as np

ONSET_WINDOW_SECONDS = 0.01
ONSET_DB = -12.0  # the level, below the word's loudest 10 ms, at which it is heard to begin


def perceived_onset(samples: np.ndarray, rate: int) -> int:
    """The sample at which the word is heard to start (0 for silence or a clip shorter than a window)."""
    frame = max(1, int(rate * ONSET_WINDOW_SECONDS))
    if len(samples) < frame:
        return 0
    squares = np.concatenate(([0.0], np.cumsum(np.square(samples, dtype=np.float64))))
    envelope = np.sqrt((squares[frame:] - squares[:-frame]) / frame)  # window starting at each sample
    loudest = float(envelope.max())
    if loudest <= 0:
        return 0
    first = int(np.argmax(envelope >= loudest * 10 ** (ONSET_DB / 20)))
    return first + frame // 2  # the middle of the first window that reaches the level
