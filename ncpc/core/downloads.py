"""Files members and officers download: one rectangular table per CSV file, or one workbook with a sheet per
table. Money written to a file is data, never a formula (STYLE.md, OWASP "CSV injection")."""

import csv
import datetime as dt
import io
import re
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal

from django.http import HttpResponse
from openpyxl import Workbook
from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE
from openpyxl.styles import Alignment, Font
from openpyxl.utils import get_column_letter
from openpyxl.worksheet.properties import PageSetupProperties

# A cell a spreadsheet program would read as a formula or a command.
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
_SAFE_FILENAME = re.compile(r"[^A-Za-z0-9._-]+")
# Characters a sheet's name may not have (Excel refuses them).
_SAFE_SHEET = re.compile(r"[\\/*?:\[\]]+")

Cell = str | int | Decimal | dt.date | None


@dataclass(frozen=True)
class Table:
    """One rectangular table: a header row and rows of the same width. A workbook shows ``labels`` (plain
    headings, "Dues and fees") over the columns when given, else the header; the rows whose index is in
    ``totals`` in bold; a column whose index is in ``formats`` with that number format (a credit, say)."""

    name: str  # the sheet's name, and the CSV file's suffix
    header: Sequence[str]
    rows: list[Sequence[Cell]] = field(default_factory=list)
    labels: Sequence[str] = ()
    totals: Collection[int] = ()
    formats: Mapping[int, str] = field(default_factory=dict)


# Number formats of a workbook: money as the pages show it ($1,234.50, −$12.00), dates as "Nov 14, 2026".
MONEY_FORMAT = '"$"#,##0.00;"−$"#,##0.00'
CREDIT_FORMAT = '"$"#,##0.00;"credit $"#,##0.00'  # a negative balance is a credit, never a negative amount
DATE_FORMAT = "mmm d, yyyy"
# A sheet wider than this many columns prints landscape.
_PORTRAIT_COLUMNS = 5


def neutral_text(value: str) -> str:
    """Text that starts like a formula gets a leading apostrophe, so a spreadsheet shows it as typed."""
    return "'" + value if value.startswith(_FORMULA_START) else value


def _csv_cell(value: Cell) -> str:
    if value is None:
        return ""
    if isinstance(value, dt.date):
        return value.isoformat()
    if isinstance(value, (int, Decimal)):
        # Numbers stay plain numbers (a negative amount is a number, not a formula).
        return str(value)
    return neutral_text(str(value))


def filename(*parts: str) -> str:
    return "-".join(_SAFE_FILENAME.sub("-", p).strip("-") for p in parts if p)


def csv_response(table: Table, *, name: str) -> HttpResponse:
    """``table`` as a UTF-8 CSV with a byte-order mark (so that Excel reads accented names right)."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow([neutral_text(h) for h in table.header])
    for row in table.rows:
        writer.writerow([_csv_cell(v) for v in row])
    response = HttpResponse(("\ufeff" + out.getvalue()).encode(), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename(name)}.csv"'
    return response


def _shown_width(value: Cell) -> int:
    """About how many characters a cell shows in a workbook (money with its $ and commas)."""
    if isinstance(value, Decimal):
        return len(f"${abs(value):,.2f}") + (7 if value < 0 else 0)
    if isinstance(value, dt.date):
        return 12
    return len(_csv_cell(value))


def xlsx_bytes(tables: Iterable[Table], *, title: Sequence[str] = ()) -> bytes:
    """A workbook with one sheet per table, each a report that prints: the ``title`` lines on top (the club,
    the report, whether it is a draft), plain headings, total rows in bold (values, not formulas), money and
    dates in their formats, fit to one page wide (landscape when wide), page numbers in the footer. Text
    cells are stored as text, never as formulas."""
    book = Workbook()
    book.remove(book.active)
    for table in tables:
        sheet = book.create_sheet(title=_SAFE_SHEET.sub(" ", table.name)[:31] or "Sheet")
        for index, line in enumerate(title):
            sheet.append([line])
            sheet.cell(row=index + 1, column=1).font = Font(bold=index == 0, size=14 if index == 0 else 11)
        if title:
            sheet.append([])
        header_row = len(title) + 2 if title else 1  # the title, a blank row, the headings
        labels = list(table.labels) if table.labels else list(table.header)
        sheet.append(labels)
        for cell in sheet[header_row]:
            cell.font = Font(bold=True)
            # A money column's heading stands over its amounts, right-aligned as numbers are.
            if any(isinstance(r[cell.column - 1], Decimal) for r in table.rows if len(r) >= cell.column):
                cell.alignment = Alignment(horizontal="right")
        for row in table.rows:
            # A control character a workbook cannot hold (a bank's or an import's text) is left out, not a 500.
            sheet.append(
                [
                    v
                    if isinstance(v, (int, Decimal, dt.date)) or v is None
                    else ILLEGAL_CHARACTERS_RE.sub("", str(v))
                    for v in row
                ]
            )
        for offset, cells in enumerate(sheet.iter_rows(min_row=1)):
            for cell in cells:
                if isinstance(cell.value, str):
                    cell.data_type = "s"  # openpyxl would store "=…" as a formula
                elif isinstance(cell.value, Decimal):
                    cell.number_format = table.formats.get(cell.column - 1, MONEY_FORMAT)
                elif isinstance(cell.value, dt.date):
                    cell.number_format = DATE_FORMAT
            if offset - header_row in table.totals:
                for cell in cells:
                    cell.font = Font(bold=True)
        sheet.freeze_panes = f"A{header_row + 1}"
        sheet.print_title_rows = f"{header_row}:{header_row}"
        for index, label in enumerate(labels, start=1):
            width = max([len(label)] + [_shown_width(r[index - 1]) for r in table.rows])
            sheet.column_dimensions[get_column_letter(index)].width = min(max(width + 2, 8), 48)
        sheet.sheet_properties.pageSetUpPr = PageSetupProperties(fitToPage=True)
        sheet.page_setup.fitToWidth = 1
        sheet.page_setup.fitToHeight = 0  # as many pages down as the rows need
        sheet.page_setup.paperSize = sheet.PAPERSIZE_LETTER
        sheet.page_setup.orientation = "landscape" if len(labels) > _PORTRAIT_COLUMNS else "portrait"
        sheet.oddFooter.center.text = "Page &P of &N"
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def xlsx_response(tables: Iterable[Table], *, name: str, title: Sequence[str] = ()) -> HttpResponse:
    response = HttpResponse(
        xlsx_bytes(tables, title=title),
        content_type="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    )
    response["Content-Disposition"] = f'attachment; filename="{filename(name)}.xlsx"'
    return response
