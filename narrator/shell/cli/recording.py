"""One take of ``narrate voices record``: recording until Enter with a live level meter, then
what the reader should know about the processed take (length, room noise, clipping, a count
word too long)."""

import math
import sys
import threading
from typing import TextIO

import click

from narrator.core.script import COUNT_WORD_SECONDS
from narrator.shell.audio.clip import Clip
from narrator.shell.audio.studio import CLIPPED_LEVEL, Take
from narrator.shell.platform.screen import CLEAR_TO_END_OF_LINE, draws, erase_line
from narrator.shell.terminal import fit, size_of
from narrator.shell.translation import _

METER_FLOOR_DB = -60.0  # the meter's left end; full scale is its right end
METER_REDRAW_SECONDS = 0.1


def meter_text(peak: float, clipped: bool, width: int) -> str:
    """A level meter ``width`` characters wide: a bar for the loudest sample since the last
    redraw, its level in dBFS, and a warning once the take has clipped."""
    level = 20 * math.log10(peak) if peak > 0 else float("-inf")
    shown = f"{level:5.0f} dBFS" if level > -100 else " -inf dBFS"
    warning = "  " + _("CLIPPING: too loud") if clipped else ""
    bar_width = max(0, width - len(shown) - len(warning) - 3)
    filled = 0 if level == float("-inf") else round(bar_width * min(1.0, max(0.0, 1 - level / METER_FLOOR_DB)))
    return fit(f"[{'#' * filled}{'.' * (bar_width - filled)}] {shown}{warning}", width)


class LevelMeter:
    """The recording's level, redrawn in place ten times a second on a terminal (nothing in a log).

    ``hear`` is called from the audio thread with each block's peak; a thread of its own draws,
    so the audio callback never waits for the terminal.
    """

    def __init__(self, out: TextIO, interactive: bool, prompt: str, size=None):
        self.out = out
        self.interactive = interactive
        self.prompt = prompt
        self.size = size or size_of(out)
        self.peak = 0.0
        self.clipped = False
        self._stop = threading.Event()
        self._drawer: threading.Thread | None = None

    def hear(self, peak: float) -> None:
        self.peak = max(self.peak, peak)
        self.clipped = self.clipped or peak >= CLIPPED_LEVEL

    def start(self) -> None:
        if self.interactive:
            self._drawer = threading.Thread(target=self._draw_until_stopped, daemon=True)
            self._drawer.start()

    def stop(self) -> None:
        self._stop.set()
        if self._drawer is not None:
            self._drawer.join()
            self.out.write(erase_line())  # a redraw that raced the Enter key may have reached the next line
            self.out.flush()

    def draw(self) -> None:
        columns, _lines = self.size()
        peak, self.peak = self.peak, 0.0
        room = columns - len(self.prompt) - 3
        meter = "  " + meter_text(peak, self.clipped, min(room, 50)) if room > 12 else ""
        self.out.write("\r" + fit(f"  {self.prompt}{meter}", columns - 1) + CLEAR_TO_END_OF_LINE)
        self.out.flush()

    def _draw_until_stopped(self) -> None:
        while not self._stop.wait(METER_REDRAW_SECONDS):
            self.draw()


def record_take(recorder, out: TextIO | None = None) -> Clip:
    """Record in the background while the prompt waits for Enter, the meter running on a
    terminal; errors come back to this thread."""
    out = out if out is not None else sys.stderr
    prompt = _("recording... Enter: stop")
    meter = LevelMeter(out, interactive=draws(out), prompt=prompt)
    stop = threading.Event()
    result: dict = {}

    def record():
        try:
            result["clip"] = recorder.record(stop, meter.hear)
        except Exception as error:  # handed back to the main thread below
            result["error"] = error

    worker = threading.Thread(target=record, daemon=True)
    worker.start()
    meter.start()
    try:
        click.prompt("  " + prompt, default="", show_default=False)
    finally:
        stop.set()
        worker.join()
        meter.stop()
    if "error" in result:
        raise result["error"]
    return result["clip"]


def take_report(raw: Clip, take: Take, count_word: bool) -> list[str]:
    """What the reader hears about a take: how much voice it kept, the room, and what to fix."""
    lines = [_("{kept} s of voice from a {taken} s take; room noise {floor} dBFS").format(
        kept=f"{take.clip.seconds:.1f}", taken=f"{raw.seconds:.1f}", floor=f"{take.noise_floor_db:.0f}")]
    if take.clipped_samples:
        lines.append(_("warning: the take clipped ({count} samples at full scale): move back from the microphone "
                       "or turn its input down, then record it again").format(count=take.clipped_samples))
    if count_word and take.clip.seconds > COUNT_WORD_SECONDS:
        lines.append(_("warning: this number lasts {seconds} s, more than {limit} s: it will run into the next one "
                       "when every second is spoken; say it quicker").format(
            seconds=f"{take.clip.seconds:.2f}", limit=COUNT_WORD_SECONDS))
    return lines
