"""PDF reports made on the server (fpdf2, pure Python: nothing to install beside the project). Every page
carries the club's name and the report's title at the top, and the print date and "page N of M" at the
bottom. Text is set in DejaVu Sans Condensed, vendored under static/, so accented names print."""

import datetime as dt
from collections.abc import Sequence
from pathlib import Path

from django.conf import settings
from django.http import HttpResponse
from fpdf import FPDF
from fpdf.fonts import FontFace

from ncpc.core.downloads import filename
from ncpc.core.identity import club_identity

_FONT_DIR = Path(settings.BASE_DIR) / "static" / "vendor" / "dejavu"
_FAMILY = "DejaVu"


class ClubPDF(FPDF):
    """A Letter page (portrait or landscape) with the club's header and footer."""

    def __init__(
        self, *, title: str, printed: dt.datetime, landscape: bool = False, marker: str = "", size: float = 8
    ) -> None:
        """``marker``: a word set apart at the top right of every page ("Draft", "Closed on Dec 2, 2026");
        ``size``: the body text's size in points (notes; tables and headings follow it)."""
        super().__init__(orientation="L" if landscape else "P", unit="mm", format="Letter")
        self.report_title = title
        self.marker = marker
        self.body_size = size
        self.club_name = club_identity().name
        self.printed = printed
        self.add_font(_FAMILY, "", str(_FONT_DIR / "DejaVuSansCondensed.ttf"))
        self.add_font(_FAMILY, "B", str(_FONT_DIR / "DejaVuSansCondensed-Bold.ttf"))
        self.set_margins(12, 12, 12)
        self.set_auto_page_break(auto=True, margin=14)
        self.set_title(f"{self.club_name}: {title}")
        self.set_author(self.club_name)
        self.set_creator(self.club_name)
        self.add_page()

    def header(self) -> None:
        if self.marker:
            self.set_font(_FAMILY, "B", 11)
            self.cell(0, 6, self.marker, align="R")
            self.set_x(self.l_margin)
        self.set_font(_FAMILY, "B", 11)
        self.cell(0, 6, self.club_name, new_x="LMARGIN", new_y="NEXT")
        self.set_font(_FAMILY, "", 10)
        self.cell(0, 5, self.report_title, new_x="LMARGIN", new_y="NEXT")
        self.ln(2)

    def footer(self) -> None:
        self.set_y(-10)
        self.set_font(_FAMILY, "", max(7.5, self.body_size - 1))
        self.cell(0, 4, f"Printed {self.printed:%b %-d, %Y %H:%M}", align="L")
        self.set_x(self.l_margin)
        self.cell(0, 4, f"Page {self.page_no()} of {{nb}}", align="R")

    def heading(self, text: str) -> None:
        self.ln(1)
        size = self.body_size + 1.5
        self.set_font(_FAMILY, "B", size)
        self.cell(0, max(5, size * 0.5), text, new_x="LMARGIN", new_y="NEXT")

    def note(self, text: str, *, bold: bool = False) -> None:
        self.set_font(_FAMILY, "B" if bold else "", self.body_size)
        self.multi_cell(0, self.body_size * 0.5, text, new_x="LMARGIN", new_y="NEXT")

    def grid(
        self,
        header: Sequence[str],
        rows: Sequence[Sequence[str]],
        *,
        widths: Sequence[float],
        right: Sequence[int] = (),
        bold_last: bool = False,
        bold_rows: Sequence[int] = (),
        size: float = 7.5,
        fill: bool = False,
    ) -> None:
        """A table: ``widths`` in millimetres, ``right`` the columns aligned right (numbers), ``bold_rows``
        the rows (by index) set in bold, such as totals; ``bold_last``: the last row is. ``fill``: the widths
        are proportions, scaled to the page's width."""
        if fill:
            scale = self.epw / sum(widths)
            widths = [w * scale for w in widths]
        self.set_font(_FAMILY, "", size)
        aligns = ["RIGHT" if i in right else "LEFT" for i in range(len(header))]
        with self.table(
            col_widths=tuple(widths),
            width=sum(widths),
            align="LEFT",
            text_align=tuple(aligns),
            line_height=size * (0.42 if size < 9 else 0.39),
            padding=(0.35, 1.2),
            headings_style=FontFace(emphasis="BOLD", fill_color=(235, 235, 235)),
            borders_layout="HORIZONTAL_LINES",
        ) as table:
            table.row(list(header))
            bold = set(bold_rows) | ({len(rows) - 1} if bold_last else set())
            for index, values in enumerate(rows):
                table.row(list(values), style=FontFace(emphasis="BOLD") if index in bold else None)
        self.ln(0.5)

    def response(self, *, name: str) -> HttpResponse:
        response = HttpResponse(bytes(self.output()), content_type="application/pdf")
        response["Content-Disposition"] = f'inline; filename="{filename(name)}.pdf"'
        return response
