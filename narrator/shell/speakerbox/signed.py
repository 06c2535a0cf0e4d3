"""The night each tablet fetches with its own signature under it (``narrator.core.signatures``),
when the laptop keeps an ear on the night (``narrate --listen``): made once per night and tablet,
kept while that night is served, and the same signature handed to the laptop's ear to read.

A night of a few minutes is a few million samples: signing one takes a fraction of a second, so
the server does it off its event loop (``BoxServer._night``).
"""

import io
import threading

import numpy as np

from narrator.core import signatures


class SignedNights:
    """The current night's signatures and signed WAVs, by tablet number; another night's are dropped."""

    def __init__(self):
        self._lock = threading.Lock()
        self._night: str | None = None  # the night id they are for
        self._samples: tuple[np.ndarray, int, str] | None = None  # (the night decoded, its rate, its subtype)
        self._signatures: dict[int, np.ndarray] = {}
        self._wavs: dict[int, bytes] = {}

    def signature(self, night_id: str, night_wav: bytes, number: int) -> tuple[np.ndarray, int]:
        """Tablet ``number``'s signature under the night ``night_wav`` (id ``night_id``), and its rate."""
        with self._lock:
            samples, rate, _ = self._decoded(night_id, night_wav)
            if number not in self._signatures:
                self._signatures[number] = signatures.signature(number, samples, rate)
            return self._signatures[number], rate

    def wav(self, night_id: str, night_wav: bytes, number: int) -> bytes:
        """The night as tablet ``number`` plays it: its signature under it, in the night's own format."""
        import soundfile

        signed, rate = self.signature(night_id, night_wav, number)
        with self._lock:
            if self._night == night_id and number in self._wavs:
                return self._wavs[number]
            samples, _, subtype = self._decoded(night_id, night_wav)
        out = io.BytesIO()
        soundfile.write(out, np.clip(samples + signed, -1.0, 1.0), rate, format="WAV", subtype=subtype)
        with self._lock:
            if self._night == night_id:
                self._wavs[number] = out.getvalue()
        return out.getvalue()

    def _decoded(self, night_id: str, night_wav: bytes) -> tuple[np.ndarray, int, str]:
        import soundfile

        if self._night != night_id or self._samples is None:
            info = soundfile.info(io.BytesIO(night_wav))
            samples, rate = soundfile.read(io.BytesIO(night_wav), dtype="float32", always_2d=True)
            self._night, self._signatures, self._wavs = night_id, {}, {}
            self._samples = (samples.mean(axis=1), rate, info.subtype)
        return self._samples
