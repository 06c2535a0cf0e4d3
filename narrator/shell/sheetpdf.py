"""The moderator's sheet as a print-ready PDF (fpdf2, the speaker card's font).

A sheet to write on by a lamp: the seating as a table (seat, player, card, notes) with rows tall
enough for a pencil, then a grid of the nights and a grid of the days, one row a night (a day),
one column for each thing the game's moderator marks. As many rows as fit two pages, up to one a
player (no game lasts longer); the seating on the front, the grids after it or on the back.
"""

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from narrator.core.errors import NarratorError
from narrator.core.i18n import msg
from narrator.core.sheet import SheetContent
from narrator.shell.cardpdf import FAMILY, PT, bar, new_pdf
from narrator.shell.files import write_atomically

SHEET_SIZES = ("a5", "a4", "letter")  # an A6 grid has no room for a pencil
BODY = {"a5": 9.0, "a4": 11.0, "letter": 11.0}  # points
ROW = 2.6  # a row's height, in lines of body type: room to write a name
LEAST_ROW = 1.7  # the seating's rows may shrink to this for a large group
LEAST_ROUNDS = 4  # fewer rows than this in a grid is no sheet
NUMBER_COLUMN = 1.4  # mm per point of body, at least: the grids' first column, the night's or the day's number


@dataclass(frozen=True)
class _Grid:
    heading: str
    label: str  # the first column's header: "Night"
    columns: tuple[str, ...]


def write_sheet(content: SheetContent, size: str, path: Path) -> tuple[int, int]:
    """Write the sheet to ``path`` (temporary file, then rename); return (pages, rows of each grid)."""
    if size not in SHEET_SIZES:
        raise NarratorError(msg("the moderator's sheet needs room to write in: choose --size {sizes}, not {size}",
                                size=size, sizes=", ".join(SHEET_SIZES)))
    pdf = new_pdf(size)
    pdf.set_title(content.title)
    pdf.add_page()  # fpdf measures lines on a page
    sheet = _Sheet(pdf, BODY[size])
    grids = (_Grid(content.nights, content.night, content.night_columns),
             _Grid(content.days, content.day, content.day_columns))
    room = pdf.h - 2 * pdf.t_margin
    top = sheet.top_height(content)
    front = top + sheet.seating_height(content, room - top)
    plan = _plan(sheet, grids, front, room, len(content.seats))
    if plan is None:
        raise NarratorError(msg("this game's sheet does not fit on {size}: choose a larger --size",
                                size=size.upper()))
    rounds, on_front = plan
    sheet.top(content)
    sheet.seating(content, room - top)
    for index, grid in enumerate(grids):
        if index == on_front:
            pdf.add_page()
        sheet.grid(grid, rounds)
    data = bytes(pdf.output())
    write_atomically(path, lambda temporary: temporary.write_bytes(data))
    return pdf.pages_count, rounds


def _plan(sheet: "_Sheet", grids: Sequence[_Grid], front: float, room: float, players: int) -> tuple[int, int] | None:
    """The most rows each grid can have (up to one a player) and how many grids go on the front:
    both, one (the other on the back) or none (both on the back)."""
    for rounds in range(max(players, LEAST_ROUNDS), LEAST_ROUNDS - 1, -1):
        heights = [sheet.grid_height(grid, rounds) for grid in grids]
        for on_front in (len(grids), 0, 1):
            if front + sum(heights[:on_front]) <= room and sum(heights[on_front:]) <= room:
                return rounds, on_front
    return None


class _Sheet:
    def __init__(self, pdf, body: float):
        self.pdf = pdf
        self.body = body
        self.width = pdf.w - pdf.l_margin - pdf.r_margin
        self.row = body * PT * ROW

    def _lines(self, words: str, width: float, size: float, bold: bool) -> int:
        from fpdf.enums import MethodReturnValue

        self.pdf.set_font(FAMILY, "B" if bold else "", size)
        return len(self.pdf.multi_cell(width, 1, words, dry_run=True, output=MethodReturnValue.LINES))

    def _text(self, words: str, size: float, bold: bool = False, after: float = 0.0) -> None:
        from fpdf.enums import XPos, YPos

        self.pdf.set_font(FAMILY, "B" if bold else "", size)
        self.pdf.set_text_color(0)
        self.pdf.multi_cell(self.width, size * PT * 1.2, words, new_x=XPos.LMARGIN, new_y=YPos.NEXT)
        self.pdf.set_y(self.pdf.get_y() + after)

    def top_height(self, content: SheetContent) -> float:
        body = self.body
        return (self._lines(content.title, self.width, body * 1.3, True) * body * 1.3 * PT * 1.2 + body * 0.1 +
                self._lines(content.deck, self.width, body * 1.1, True) * body * 1.1 * PT * 1.2 +
                self._lines(content.cards, self.width, body, False) * body * PT * 1.2 + body * 0.2)

    def top(self, content: SheetContent) -> None:
        body = self.body
        self._text(content.title, body * 1.3, bold=True, after=body * 0.1)
        self._text(content.deck, body * 1.1, bold=True)
        self._text(content.cards, body, after=body * 0.2)

    def heading_height(self) -> float:
        return self.body * 1.2 * PT * 1.55 + self.body * 0.4

    def heading(self, words: str) -> None:
        pdf, size = self.pdf, self.body * 1.2
        pdf.set_y(pdf.get_y() + self.body * 0.2)
        bar(pdf, words, size, size * PT * 1.55)
        pdf.set_y(pdf.get_y() + self.body * 0.2)

    def _seat_widths(self, content: SheetContent) -> list[float]:
        self.pdf.set_font(FAMILY, "B", self.body)
        seat = max(self.pdf.get_string_width(content.seat_headers[0]), self.pdf.get_string_width("00")) + 4
        rest = self.width - seat
        return [seat, rest * 0.36, rest * 0.32, rest * 0.32]

    def seating_height(self, content: SheetContent, room: float) -> float:
        header = self._header_height(content.seat_headers, self._seat_widths(content))
        return self.heading_height() + header + len(content.seats) * self._seat_row(content, room)

    def _seat_row(self, content: SheetContent, room: float) -> float:
        """The seating's row height: the full row, or less for a large group, down to ``LEAST_ROW``."""
        header = self._header_height(content.seat_headers, self._seat_widths(content))
        left = room - self.heading_height() - header
        return max(min(self.row, left / len(content.seats)), self.body * PT * LEAST_ROW)

    def seating(self, content: SheetContent, room: float) -> None:
        self.heading(content.seating)
        widths = self._seat_widths(content)
        self._header(content.seat_headers, widths)
        row = self._seat_row(content, room)
        for index, seat in enumerate(content.seats):
            self._row((str(seat.number), seat.name, seat.card, ""), widths, row, index)

    def _grid_widths(self, grid: _Grid) -> list[float]:
        self.pdf.set_font(FAMILY, "B", self.body * 0.9)
        number = max(self.body * NUMBER_COLUMN, self.pdf.get_string_width(grid.label) + 3)
        each = (self.width - number) / max(len(grid.columns), 1)
        return [number, *(each for _column in grid.columns)]

    def grid_height(self, grid: _Grid, rounds: int) -> float:
        widths = self._grid_widths(grid)
        return self.heading_height() + self._header_height((grid.label, *grid.columns), widths) + rounds * self.row

    def grid(self, grid: _Grid, rounds: int) -> None:
        self.heading(grid.heading)
        widths = self._grid_widths(grid)
        self._header((grid.label, *grid.columns), widths)
        for index in range(rounds):
            self._row((str(index + 1), *("" for _column in grid.columns)), widths, self.row, index)

    def _header_size(self, labels: Sequence[str], widths: Sequence[float]) -> float:
        """The headers' type: a little under the body, smaller if a word would not fit its column."""
        self.pdf.set_font(FAMILY, "B", 1)
        fits = [(width - 1 - 2 * self.pdf.c_margin) / max(self.pdf.get_string_width(word) for word in label.split())
                for label, width in zip(labels, widths, strict=True) if label.split()]
        return min([self.body * 0.9, *fits])

    def _header_height(self, labels: Sequence[str], widths: Sequence[float]) -> float:
        size = self._header_size(labels, widths)
        lines = max(self._lines(label, width - 1, size, True) for label, width in zip(labels, widths, strict=True))
        return lines * size * PT * 1.2 + 2

    def _header(self, labels: Sequence[str], widths: Sequence[float]) -> None:
        """The column headers, wrapped in their columns, bold on grey."""
        pdf, size = self.pdf, self._header_size(labels, widths)
        top, height = pdf.get_y(), self._header_height(labels, widths)
        x = pdf.l_margin
        pdf.set_draw_color(0)
        pdf.set_line_width(0.3)
        for label, width in zip(labels, widths, strict=True):
            pdf.set_fill_color(215)
            pdf.rect(x, top, width, height, style="DF")
            pdf.set_font(FAMILY, "B", size)
            pdf.set_text_color(0)
            pdf.set_xy(x + 0.5, top + 1)
            pdf.multi_cell(width - 1, size * PT * 1.2, label, align="L")
            x += width
        pdf.set_xy(pdf.l_margin, top + height)

    def _row(self, cells: Sequence[str], widths: Sequence[float], height: float, index: int) -> None:
        """A row of cells to write in, every other one lightly shaded to keep the eye on its line."""
        pdf = self.pdf
        top, x = pdf.get_y(), pdf.l_margin
        pdf.set_draw_color(0)
        pdf.set_line_width(0.3)
        for column, (words, width) in enumerate(zip(cells, widths, strict=True)):
            pdf.set_fill_color(238 if index % 2 else 255)
            pdf.rect(x, top, width, height, style="DF")
            if words:
                pdf.set_font(FAMILY, "B" if column == 0 else "", self.body)
                pdf.set_text_color(0)
                pdf.set_xy(x, top)
                pdf.cell(width, height, words, align="C" if column == 0 else "L")
            x += width
        pdf.set_xy(pdf.l_margin, top + height)
