"""Issue 35: the report and the statement as a member reads them, the workbook as a report, the PDF handed
round at the meeting.

The season has the bylaws' dues (SPEC §7): $110 at event 1 (Aug 22, with the $10 admin fee), $100 at events
2–5 (Sep 26, Oct 24, Nov 14, Dec 12 in the test season); the clock stands at Nov 29, 2026."""

import io
import re

import pytest
from django.urls import reverse
from openpyxl import load_workbook
from pypdf import PdfReader

from tests.factories import MembershipFactory
from tests.finance.factories import pay

pytestmark = pytest.mark.django_db
NOV = (2026, 11)


@pytest.fixture
def bob(season, treasurer, today):
    """Bob paid $610 on Aug 22: $110 for event 1 and $500 ahead; by Nov 29 he has been charged $410."""
    bob = MembershipFactory(season=season, person__first_name="Bob", person__last_name="Bähr")
    pay(membership=bob, day="2026-08-22", amount="610.00", actor=treasurer)
    return bob


def statement_table(page: str) -> str:
    return page[
        page.index('<h2 class="h5">Statement</h2>') : page.index("</table>", page.index("Statement</h2>"))
    ]


def test_a_statement_shows_a_paid_ahead_balance_as_a_credit_never_a_negative_amount(client, treasurer, bob):
    client.force_login(treasurer)
    page = client.get(reverse("finance:statement", args=[bob.pk])).content.decode()
    table = statement_table(page)
    # Aug 22: charged $110, paid $610 → $500 ahead; each $100 installment takes $100 off: 400, 300, 200.
    for credit in ("credit $500.00", "credit $400.00", "credit $300.00", "credit $200.00"):
        assert credit in table
    assert "−$" not in table and "-$" not in table
    # On a phone the payment reads as one, not as a negative amount.
    assert "paid $610.00" in table


def test_the_running_month_reads_to_date_with_its_date_and_a_past_month_its_whole_days(
    client, treasurer, bob
):
    client.force_login(treasurer)
    november = client.get(reverse("finance:report", args=NOV)).content.decode()
    assert "accounts for Nov 1–29, 2026 (to date)" in november
    assert "Escrow balance at Nov 29, 2026" in november and "Nov 30" not in november
    # The month's column: "November to date", "Nov to date" on a phone (the full name broke inside the word).
    assert (
        '<span class="d-none d-sm-inline">November</span><span class="d-sm-none">Nov</span> to date'
        in november
    )
    october = client.get(reverse("finance:report", args=(2026, 10))).content.decode()
    assert "accounts for Oct 1–31, 2026;" in october and "(to date)" not in october
    assert "Escrow balance at Oct 31, 2026" in october
    pdf = PdfReader(io.BytesIO(client.get(reverse("finance:report", args=NOV) + "?format=pdf").content))
    text = pdf.pages[0].extract_text()
    assert "Accounts for Nov 1–29, 2026 (to date)" in text and "Escrow balance at Nov 29, 2026" in text


def test_the_workbook_is_a_report_title_plain_headings_totals_formats_and_print_setup(client, treasurer, bob):
    client.force_login(treasurer)
    book = load_workbook(io.BytesIO(client.get(reverse("finance:report", args=NOV) + "?format=xlsx").content))
    assert book.sheetnames == [
        "Accounts",
        "Income and expenses",
        "Escrow",
        "Member fees",
        "Payouts",
        "Ledger",
    ]
    for sheet in book.worksheets:
        assert sheet["A1"].value == (
            "Northern Cincinnati Poker Club · Treasurer's report, November 2026 · season 2026-27"
        ), sheet.title
        assert sheet["A1"].font.b
        assert sheet["A2"].value.startswith("Draft: November 2026 is not closed"), sheet.title
        assert "Accounts for Nov 1–29, 2026 (to date)" in sheet["A2"].value
        # Fit to one page wide, as many pages down as needed; landscape when wider than five columns.
        assert sheet.sheet_properties.pageSetUpPr.fitToPage
        assert sheet.page_setup.fitToWidth == 1 and sheet.page_setup.fitToHeight == 0
        wide = sheet.max_column > 5
        assert sheet.page_setup.orientation == ("landscape" if wide else "portrait"), sheet.title
        assert sheet.print_title_rows == "$4:$4"  # the headings repeat on every printed page
        assert "&P" in sheet.oddFooter.center.text
    fees = book["Member fees"]
    assert [c.value for c in fees[4]] == [
        "Member",
        "Dues and fees",
        "Late fees",
        "Paid",
        "Balance",
        "Good standing",
    ]
    rows = {r[0].value: r for r in fees.iter_rows(min_row=5)}
    bob_row = rows["Bob Bähr"]
    # Bob: charged $410, paid $610: a balance of −200 stored as a number, shown as a credit.
    assert bob_row[4].value == -200 and "credit" in bob_row[4].number_format
    assert bob_row[1].number_format == '"$"#,##0.00;"−$"#,##0.00'
    # The total rows are values, not formulas, owed and paid ahead apart: the treasurer's seat owes $410
    # (charged $410, paid nothing); Bob has paid $200 ahead.
    owed = rows["Total owed (1 member)"]
    assert [c.value for c in owed[1:5]] == [410, 0, 0, 410] and owed[0].font.b
    credits = rows["Total credits (1 member)"]
    assert [c.value for c in credits[1:5]] == [None, None, None, -200] and credits[0].font.b
    categories = book["Income and expenses"]
    assert [c.value for c in categories[4]] == ["Kind", "Category", "November to date", "Season to date"]
    labels = [r[1].value for r in categories.iter_rows(min_row=5)]
    assert "Total income" in labels and "Total expenses" in labels
    assert not any(isinstance(c.value, str) and c.value.startswith("=") for s in book for r in s for c in r)
    august = reverse("finance:report", args=(2026, 8)) + "?format=xlsx"
    ledger = load_workbook(io.BytesIO(client.get(august).content))["Ledger"]
    date_cell = ledger["A5"]  # Bob's payment of Aug 22
    assert date_cell.value.date().isoformat() == "2026-08-22" and date_cell.number_format == "mmm d, yyyy"


def test_the_pdf_reads_at_9_points_or_more_says_draft_on_top_and_numbers_its_pages(client, treasurer, bob):
    client.force_login(treasurer)
    content = client.get(reverse("finance:report", args=NOV) + "?format=pdf").content
    reader = PdfReader(io.BytesIO(content))
    assert len(reader.pages) == 1
    text = reader.pages[0].extract_text()
    assert text.startswith("Draft") or "Draft" in text.splitlines()[0]
    assert "Page 1 of 1" in text
    # Every font size set in the page's content stream: the body at 9.5 pt; only the footer is smaller.
    stream = reader.pages[0].get_contents().get_data().decode("latin-1")
    sizes = sorted({float(s) for s in re.findall(r"/F\d+ ([\d.]+) Tf", stream)})
    assert sizes[0] >= 8.5 and 9.5 in sizes
