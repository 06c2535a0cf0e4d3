"""The speaker card as a print-ready PDF (fpdf2, with an embedded Unicode font).

Made to be read in dim light: strong black on white, section bars in white on black, the night's
steps numbered large, role names in bold. Type is as large as the sheet allows: the card's blocks
flow from the front on to the back (A4 holds both sides on one page), at the largest body size at
which they fit, down to a readable floor (``READABLE``, 9 pt). A card that the two sides (A4: the
page) do not hold at that size takes more pages rather than smaller type: the fewest that hold it
at 9 pt or more, at the largest size they hold. The front keeps the night and the back the day
whenever that fits at that size (with more pages, the day opens a page of its own when that fits);
otherwise the night runs on (or the day starts earlier), and a section cut in two is headed again
on the next page, "(continued)". Only a single block taller than a page at 9 pt is set smaller,
down to ``SMALLEST``.

Finding the size is cheap: every word is measured once with the font's widths and the lines are
broken as fpdf breaks them (``Measure``), so each size tried is arithmetic; the card is then drawn
once, and checked to fit.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from narrator.core.choices import SHEETS
from narrator.core.errors import NarratorError
from narrator.core.i18n import msg
from narrator.shell.files import write_atomically

if TYPE_CHECKING:  # the card's content is made by the caller: narrate --help lists the sizes without the core
    from narrator.core.card import Block, CardContent

SIZES = {"a6": (105.0, 148.0), "a5": (148.0, 210.0), "a4": (210.0, 297.0), "letter": (215.9, 279.4)}
assert sorted(SIZES) == sorted(SHEETS)  # the command line offers every one, and only these
MARGINS = {"a6": 6.5, "a5": 7.0, "a4": 10.0, "letter": 10.0}  # mm kept clear for any printer (most ink to 5)
LARGEST = 14.0  # the body size tried first, in points: larger only spreads a short card thin
READABLE = 9.0  # the least body size while more pages can hold the card (issue 39, point 23)
SMALLEST = 5.5  # below this a card is no longer readable in the dark: only for a block taller than a page
STEP = 0.25  # points between the sizes tried
ONE_PAGE = {"a4"}
PT = 25.4 / 72  # millimetres per point
FONTS = Path(__file__).parent / "fonts"
FAMILY = "DejaVuCond"
MARKDOWN_MARKERS = ("**", "__", "~~", "--")  # fpdf's; escaped in the words so that they print as written
KEEP_WITH_NEXT = {"title", "subtitle", "heading", "rule"}  # never the last block of a page


@dataclass(frozen=True)
class Style:
    """How a kind of block is set: its type (times the body size), bold or not, grey, the room
    before and after it (mm per point of body), the line height, whether it sits past the gutter."""

    size: float = 1.0
    bold: bool = False
    grey: int = 0
    before: float = 0.0
    after: float = 0.0
    leading: float = 1.17
    gutter: bool = False


STYLES = {
    "title": Style(size=1.3, bold=True, after=0.12),
    "subtitle": Style(size=1.1, bold=True),
    "heading": Style(size=1.2, bold=True, before=0.25, after=0.15, leading=1.55),  # one line, white on black
    "role": Style(before=0.2, leading=1.2),  # past the gutter when it has a number
    "again": Style(leading=1.2),  # a turn said again: one line, close under the words before it
    "said": Style(leading=1.2, gutter=True),
    "note": Style(size=0.85, grey=60),
    "rule": Style(size=0.95, bold=True, grey=30, before=0.15),
    "text": Style(after=0.05),
}


def _size(body: float, style: Style) -> float:
    """A style's size at ``body`` points: a smaller style (a note) never goes below the readable
    size while the body is at it or above (a note is read in the dark too)."""
    size = body * style.size
    return size if style.size >= 1 else max(size, min(body, READABLE))


@dataclass(frozen=True)
class Layout:
    """The card's pages, each a list of blocks, at ``body`` points."""

    body: float
    pages: tuple[tuple[Block, ...], ...]


def write_card(content: CardContent, size: str, path: Path) -> tuple[int, float]:
    """Write the card to ``path`` (temporary file, then rename); return (pages, body size in pt)."""
    if size not in SIZES:
        raise NarratorError(msg("no sheet size '{size}': choose one of {sizes}", size=size, sizes=", ".join(SIZES)))
    measure = Measure(size)
    below = LARGEST + STEP
    while True:
        layout = lay_out(content, size, measure, below=below)
        if layout is None:
            raise NarratorError(msg("this deck's card does not fit on {size} at a readable size: choose a larger "
                                    "--size", size=size.upper()))
        pdf = _drawn(layout, size, content)
        if pdf is not None:
            break
        below = layout.body  # measured and drawn disagree (never seen): the next size down
    data = bytes(pdf.output())
    write_atomically(path, lambda temporary: temporary.write_bytes(data))
    return pdf.pages_count, layout.body


def lay_out(content: CardContent, size: str, measure: "Measure | None" = None,
            below: float = LARGEST + STEP) -> Layout | None:
    """The card at the largest body size under ``below`` at which it fits the sheet's sides (two,
    A4 one page); when they hold it at no size from ``READABLE`` up, on the fewest pages that hold
    it at ``READABLE`` or more, at the largest size those pages hold. None when not even one
    block fits a page at a readable size."""
    measure = measure or Measure(size)
    readable = _sizes(below, READABLE)
    fewest = _paginate(content, size, readable[-1], measure, pages=None) if readable else None
    if fewest is not None:
        for pages in range(sides(size), len(fewest) + 1):
            for body in readable:
                laid = _paginate(content, size, body, measure, pages)
                if laid is not None:
                    return Layout(body, laid)
    for body in _sizes(min(below, READABLE), SMALLEST):  # a block taller than a page at a readable size
        laid = _paginate(content, size, body, measure, pages=None)
        if laid is not None:
            return Layout(body, laid)
    return None


def sides(size: str) -> int:
    """The sides of a sheet a card is printed on: one for A4, two (front and back) otherwise."""
    return 1 if size in ONE_PAGE else 2


def _sizes(below: float, least: float) -> list[float]:
    """The body sizes tried, largest first: every ``STEP`` under ``below`` down to ``least``."""
    sizes, body = [], below - STEP
    while body >= least - 1e-9:
        sizes.append(body)
        body -= STEP
    return sizes


def _paginate(content: CardContent, size: str, body: float, measure: "Measure",
              pages: int | None = -1) -> tuple | None:
    """The blocks page by page at ``body`` points on at most ``pages`` pages (the sheet's sides
    when -1, as many as it takes when None), or None when they do not fit. The night ends a page
    and the day opens the next when that fits; else each page is filled as full as it can be, with
    the section a cut falls in headed again on the next page."""
    most = sides(size) if pages == -1 else pages
    blocks = content.front + content.back
    heights = [measure.height(block, body) for block in blocks]
    natural = len(content.front)
    if 0 < natural < len(blocks) and _may_cut(blocks, natural) and (most is None or most > 1):
        laid = _fill(content, blocks, heights, body, measure, (natural,))
        if laid is not None and (most is None or len(laid) <= most):
            return laid
    laid = _fill(content, blocks, heights, body, measure, ())
    return laid if laid is not None and (most is None or len(laid) <= most) else None


def _fill(content: CardContent, blocks: Sequence[Block], heights: Sequence[float], body: float,
          measure: "Measure", breaks: tuple[int, ...]) -> tuple | None:
    """The blocks on pages filled in turn, each as full as it holds, a page turned at each of
    ``breaks`` too; None when a page cannot hold even its first blocks that may not be parted."""
    laid: list[tuple[Block, ...]] = []
    start = 0
    while start < len(blocks):
        heading = _continued(content, blocks, start) if start else ()
        room = measure.room - sum(measure.height(block, body) for block in heading)
        stop = min([cut for cut in breaks if cut > start] + [len(blocks)])
        end, used = start, 0.0
        for index in range(start, stop):
            used += heights[index]
            if used > room:
                break
            if index + 1 == stop or _may_cut(blocks, index + 1):
                end = index + 1
        if end == start:
            return None
        laid.append(tuple(heading) + tuple(blocks[start:end]))
        start = end
    return tuple(laid)


def _may_cut(blocks: Sequence[Block], cut: int) -> bool:
    """Whether the page may turn before ``blocks[cut]``: never after a heading, a title or a rule,
    nor between a turn of the night and the words said in it."""
    last, following = blocks[cut - 1], blocks[cut]
    return last.kind not in KEEP_WITH_NEXT and not (last.kind == "role" and following.kind == "said")


def _continued(content: CardContent, blocks: Sequence[Block], cut: int) -> tuple[Block, ...]:
    """The heading that opens the back when the cut falls inside a section: "The night (continued)"."""
    from narrator.core.card import Block

    if blocks[cut].kind == "heading":
        return ()
    section = next((block for block in reversed(blocks[:cut]) if block.kind == "heading"), None)
    return () if section is None else (Block("heading", content.continued.format(heading=section.text)),)


def new_pdf(size: str):
    """An empty PDF of the sheet ``size``, its margins set and the card's font loaded."""
    from fpdf import FPDF

    margin = MARGINS[size]
    pdf = FPDF(unit="mm", format=SIZES[size])
    pdf.set_auto_page_break(False)
    pdf.set_margins(margin, margin, margin)
    pdf.add_font(FAMILY, "", FONTS / "DejaVuSansCondensed.ttf")
    pdf.add_font(FAMILY, "B", FONTS / "DejaVuSansCondensed-Bold.ttf")
    return pdf


class Measure:
    """The height of each block at a body size, without drawing: each word's width is read once
    from the font (at 1 pt: widths grow with the size), and lines are broken where fpdf's
    ``multi_cell`` breaks them, at the last space that fits."""

    def __init__(self, size: str):
        self.pdf = new_pdf(size)
        width, height = SIZES[size]
        margin = MARGINS[size]
        self.room = height - 2 * margin  # mm of a page's height for the blocks
        self.width = width - 2 * margin
        self._words: dict[tuple, list[tuple[float, float]]] = {}

    def height(self, block: Block, body: float) -> float:
        style = STYLES.get(block.kind, STYLES["text"])
        size = _size(body, style)
        space = (style.before + style.after) * body
        if block.kind == "heading":
            return space + size * PT * style.leading
        return space + self.lines(block, body) * size * PT * style.leading

    def lines(self, block: Block, body: float) -> int:
        """How many lines ``multi_cell`` takes for the block's words at ``body`` points."""
        style = STYLES.get(block.kind, STYLES["text"])
        size = _size(body, style)
        room = (self.width - _indent(block, body) - 2 * self.pdf.c_margin) / size  # in mm at 1 pt
        lines, line = 1, None
        for space, word in self._words_of(block):
            if line is None:
                line = word
            elif line + space + word <= room + 1e-9:
                line += space + word
            else:
                lines, line = lines + 1, word
            while line > room:  # a word wider than the line is cut where it overflows
                lines, line = lines + 1, line - room
        return lines

    def _words_of(self, block: Block) -> list[tuple[float, float]]:
        """Each word of the block as (the width of the space before it, its width), in mm at 1 pt."""
        key = (block.kind, block.text, block.detail, block.parts)
        if key not in self._words:
            style = STYLES.get(block.kind, STYLES["text"])
            words: list[list[float]] = [[0.0, 0.0]]
            for part, bold in _fragments(block, style):
                stripped = part.lstrip(" ")
                self.pdf.set_font(FAMILY, "", 1)  # leading spaces are set outside the bold
                for _space in range(len(part) - len(stripped)):
                    words.append([self.pdf.get_string_width(" "), 0.0])
                self.pdf.set_font(FAMILY, "B" if bold else "", 1)
                for index, word in enumerate(stripped.split(" ")):
                    if index:
                        words.append([self.pdf.get_string_width(" "), 0.0])
                    words[-1][1] += self.pdf.get_string_width(word)
            self._words[key] = [(space, width) for space, width in words]
        return self._words[key]


def _fragments(block: Block, style: Style) -> list[tuple[str, bool]]:
    """The block's words as printed, in runs of one style."""
    if block.kind in ("role", "again"):
        return [(block.text, True)] + ([("  " + block.detail, False)] if block.detail else [])
    if block.kind == "said":
        runs: list[tuple[str, bool]] = []
        for index, (words, bold) in enumerate(block.parts):
            runs.append(((" " if index else "") + words, bold))
        return runs
    if block.kind == "heading":
        return [(" " + block.text, True)]
    return [(block.text, style.bold)]


def _markdown(runs: Sequence[tuple[str, bool]]) -> str:
    def escaped(words: str) -> str:
        for marker in MARKDOWN_MARKERS:
            words = words.replace(marker, "\\" + marker)
        return words

    out = []
    for words, bold in runs:
        stripped = words.lstrip(" ")
        lead = words[:len(words) - len(stripped)]
        out.append(lead + (f"**{escaped(stripped)}**" if bold and stripped else escaped(stripped)))
    return "".join(out)


def _indent(block: Block, body: float) -> float:
    style = STYLES.get(block.kind, STYLES["text"])
    return _gutter(body) if style.gutter or block.number is not None else 0.0


def _gutter(body: float) -> float:
    return body * 0.8  # mm: room for the step numbers


def _drawn(layout: Layout, size: str, content: CardContent):
    """The card drawn as laid out, or None if anything runs past the bottom margin."""
    pdf = new_pdf(size)
    pdf.set_title(next((b.text for b in content.front if b.kind == "title"), "Speaker card"))
    bottom = SIZES[size][1] - MARGINS[size]
    for page in layout.pages:
        pdf.add_page()
        for block in page:
            _draw(pdf, block, layout.body)
        if pdf.get_y() > bottom + 0.01:
            return None
    return pdf


def bar(pdf, words: str, size: float, height: float) -> None:
    """A section's heading: ``words`` in white bold on a black bar across the page (the card's and
    the moderator's sheet's)."""
    from fpdf.enums import XPos, YPos

    pdf.set_font(FAMILY, "B", size)
    pdf.set_fill_color(0)
    pdf.set_text_color(255)
    pdf.set_x(pdf.l_margin)
    pdf.cell(pdf.w - pdf.l_margin - pdf.r_margin, height, " " + words, fill=True, new_x=XPos.LMARGIN,
             new_y=YPos.NEXT)


def _draw(pdf, block: Block, body: float) -> None:
    from fpdf.enums import XPos, YPos

    style = STYLES.get(block.kind, STYLES["text"])
    left, width = pdf.l_margin, pdf.w - pdf.l_margin - pdf.r_margin
    size = _size(body, style)
    indent = _indent(block, body)
    pdf.set_y(pdf.get_y() + style.before * body)
    top = pdf.get_y()
    if block.kind == "heading":
        bar(pdf, block.text, size, size * PT * style.leading)
    else:
        if block.number is not None:  # a turn's number: large, or as large as fits the gutter
            number = str(block.number)
            pdf.set_font(FAMILY, "B", 1)
            points = min(body * 1.6, (_gutter(body) - body * 0.12) / pdf.get_string_width(number))
            pdf.set_font(FAMILY, "B", points)
            pdf.set_text_color(0)
            pdf.set_xy(left - pdf.c_margin, top - body * 0.06)
            pdf.cell(_gutter(body), body * 1.6 * PT, number)
            pdf.set_y(top)
        pdf.set_font(FAMILY, "", size)
        pdf.set_text_color(style.grey)
        pdf.set_x(left + indent)
        pdf.multi_cell(width - indent, size * PT * style.leading, _markdown(_fragments(block, style)), align="L",
                       markdown=True, new_x=XPos.LMARGIN, new_y=YPos.NEXT)
        if block.kind == "said":  # a bar: spoken words
            pdf.set_draw_color(0)
            pdf.set_line_width(0.35)
            pdf.line(left + indent - 1.2, top + 0.4, left + indent - 1.2, pdf.get_y() - 0.4)
    pdf.set_y(pdf.get_y() + style.after * body)
