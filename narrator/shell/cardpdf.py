"""The speaker card as a print-ready PDF (fpdf2, with an embedded Unicode font).

Made to be read in dim light: strong black on white, section bars in white on black, the night's
steps numbered large, role names in bold. Type is as large as the sheet allows: the card is laid
out at the largest body size that fits, down to a floor below which it asks for a larger sheet.
A6, A5 and Letter cards have two pages (front and back); A4 holds both sides on one page.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from narrator.core.errors import NarratorError
from narrator.core.i18n import msg
from narrator.shell.files import write_atomically

if TYPE_CHECKING:  # the card's content is made by the caller: narrate --help lists the sizes without the core
    from narrator.core.card import Block, CardContent

SIZES = {"a6": (105.0, 148.0), "a5": (148.0, 210.0), "a4": (210.0, 297.0), "letter": (215.9, 279.4)}
MARGINS = {"a6": 7.0, "a5": 9.0, "a4": 12.0, "letter": 12.0}  # mm kept clear for any printer
LARGEST = {"a6": 9.0, "a5": 12.0, "a4": 12.0, "letter": 12.0}  # body size tried first, in points
SMALLEST = 5.5  # below this a card is no longer readable in the dark
ONE_PAGE = {"a4"}
PT = 25.4 / 72  # millimetres per point
FONTS = Path(__file__).parent / "fonts"
FAMILY = "DejaVuCond"


def write_card(content: CardContent, size: str, path: Path) -> tuple[int, float]:
    """Write the card to ``path`` (temporary file, then rename); return (pages, body size in pt)."""
    if size not in SIZES:
        raise NarratorError(msg("no sheet size '{size}': choose one of {sizes}", size=size, sizes=", ".join(SIZES)))
    body = LARGEST[size]
    while body >= SMALLEST:
        pdf = _laid_out(content, size, body)
        if pdf is not None:
            data = bytes(pdf.output())
            write_atomically(path, lambda temporary, data=data: temporary.write_bytes(data))
            return pdf.pages_count, body
        body -= 0.25
    raise NarratorError(msg("this deck's card does not fit on {size} at a readable size: choose a larger --size",
                            size=size.upper()))


def _laid_out(content: CardContent, size: str, body: float):
    """The card laid out at ``body`` points, or None when something would run past the margin."""
    from fpdf import FPDF

    width, height = SIZES[size]
    margin = MARGINS[size]
    pdf = FPDF(unit="mm", format=(width, height))
    pdf.set_auto_page_break(False)
    pdf.set_margins(margin, margin, margin)
    pdf.add_font(FAMILY, "", FONTS / "DejaVuSansCondensed.ttf")
    pdf.add_font(FAMILY, "B", FONTS / "DejaVuSansCondensed-Bold.ttf")
    pdf.set_title(next((b.text for b in content.front if b.kind == "title"), "Speaker card"))
    sides = [content.front + content.back] if size in ONE_PAGE else [content.front, content.back]
    for blocks in sides:
        pdf.add_page()
        for block in blocks:
            _draw(pdf, block, body)
            if pdf.get_y() > height - margin:
                return None
    return pdf


def _draw(pdf, block: Block, body: float) -> None:
    from fpdf.enums import XPos, YPos

    left, width = pdf.l_margin, pdf.w - pdf.l_margin - pdf.r_margin
    gutter = body * 0.8  # mm: room for the step numbers

    def text(size: float, style: str, words: str, indent: float = 0.0, grey: int = 0, space: float = 0.0):
        pdf.set_font(FAMILY, style, size)
        pdf.set_text_color(grey)
        pdf.set_x(left + indent)
        pdf.multi_cell(width - indent, size * PT * 1.22, words, align="L", new_x=XPos.LMARGIN, new_y=YPos.NEXT)
        pdf.set_y(pdf.get_y() + space)

    kind = block.kind
    if kind == "title":
        text(body * 1.3, "B", block.text, space=body * 0.12)
    elif kind == "subtitle":
        text(body * 1.1, "B", block.text)
    elif kind == "heading":
        pdf.set_y(pdf.get_y() + body * 0.25)
        size = body * 1.2
        pdf.set_font(FAMILY, "B", size)
        pdf.set_fill_color(0)
        pdf.set_text_color(255)
        pdf.set_x(left)
        pdf.cell(width, size * PT * 1.55, " " + block.text, fill=True, new_x=XPos.LMARGIN, new_y=YPos.NEXT)
        pdf.set_y(pdf.get_y() + body * 0.15)
    elif kind == "role":
        pdf.set_y(pdf.get_y() + body * 0.2)
        top = pdf.get_y()
        indent = gutter if block.number is not None else 0
        if block.number is not None:
            pdf.set_font(FAMILY, "B", body * 1.6)
            pdf.set_text_color(0)
            pdf.set_xy(left, top - body * 0.06)
            pdf.cell(gutter, body * 1.6 * PT, str(block.number))
            pdf.set_y(top)
        words = f"**{block.text}**" + (f"  {block.detail}" if block.detail else "")
        pdf.set_font(FAMILY, "", body)
        pdf.set_text_color(0)
        pdf.set_x(left + indent)
        pdf.multi_cell(width - indent, body * PT * 1.25, words, align="L", markdown=True,
                       new_x=XPos.LMARGIN, new_y=YPos.NEXT)
    elif kind == "said":
        words = " ".join(f"**{part}**" if bold else part for part, bold in block.parts)
        pdf.set_font(FAMILY, "", body)
        pdf.set_text_color(0)
        pdf.set_x(left + gutter)
        pdf.set_draw_color(0)
        pdf.set_line_width(0.35)
        top = pdf.get_y()
        pdf.multi_cell(width - gutter, body * PT * 1.25, words, align="L", markdown=True,
                       new_x=XPos.LMARGIN, new_y=YPos.NEXT)
        pdf.line(left + gutter - 1.2, top + 0.4, left + gutter - 1.2, pdf.get_y() - 0.4)  # a bar: spoken words
    elif kind == "note":
        text(body * 0.85, "", block.text, grey=60)
    elif kind == "rule":
        pdf.set_y(pdf.get_y() + body * 0.15)
        text(body * 0.95, "B", block.text, grey=30)
    else:  # text
        text(body, "", block.text, space=body * 0.05)
