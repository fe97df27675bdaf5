"""Files members and officers download: one rectangular table per CSV file, or one workbook with a sheet per
table. Money written to a file is data, never a formula (STYLE.md, OWASP "CSV injection")."""

import csv
import datetime as dt
import io
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from decimal import Decimal

from django.http import HttpResponse
from openpyxl import Workbook
from openpyxl.utils import get_column_letter

# A cell a spreadsheet program would read as a formula or a command.
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
_SAFE_FILENAME = re.compile(r"[^A-Za-z0-9._-]+")

Cell = str | int | Decimal | dt.date | None


@dataclass(frozen=True)
class Table:
    """One rectangular table: a header row and rows of the same width."""

    name: str  # the sheet's name, and the CSV file's suffix
    header: Sequence[str]
    rows: list[Sequence[Cell]] = field(default_factory=list)


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


def xlsx_bytes(tables: Iterable[Table]) -> bytes:
    """A workbook with one sheet per table. Text cells are stored as text, never as formulas."""
    book = Workbook()
    book.remove(book.active)
    for table in tables:
        sheet = book.create_sheet(title=_SAFE_FILENAME.sub(" ", table.name)[:31] or "Sheet")
        sheet.append(list(table.header))
        for row in table.rows:
            sheet.append([v if isinstance(v, (int, Decimal, dt.date)) or v is None else str(v) for v in row])
        for cells in sheet.iter_rows():
            for cell in cells:
                if isinstance(cell.value, str):
                    cell.data_type = "s"  # openpyxl would store "=…" as a formula
                elif isinstance(cell.value, Decimal):
                    cell.number_format = "#,##0.00"
                elif isinstance(cell.value, dt.date):
                    cell.number_format = "yyyy-mm-dd"
        sheet.freeze_panes = "A2"
        for index, header in enumerate(table.header, start=1):
            width = max([len(str(header))] + [len(_csv_cell(r[index - 1])) for r in table.rows])
            sheet.column_dimensions[get_column_letter(index)].width = min(max(width + 2, 8), 48)
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def xlsx_response(tables: Iterable[Table], *, name: str) -> HttpResponse:
    response = HttpResponse(
        xlsx_bytes(tables), content_type="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
    )
    response["Content-Disposition"] = f'attachment; filename="{filename(name)}.xlsx"'
    return response
