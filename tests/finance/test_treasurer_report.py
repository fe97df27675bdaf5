"""The treasurer's monthly report (§3.6.3, SPEC §11, §15.1) on a seeded month: totals that are the sums of
their columns, credits apart from what is owed, income by category, and the report as PDF, CSV and XLSX.

The season has the bylaws' dues (SPEC §7): $110 at event 1 (Aug 22, with the $10 admin fee), $100 at events
2–5; by Nov 29 a member has been charged $410."""

import datetime as dt
import io
from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from openpyxl import load_workbook
from pypdf import PdfReader

from finance.selectors.monthly_report import monthly_report
from tests.factories import MembershipFactory
from tests.finance.factories import opening_balance, pay

pytestmark = pytest.mark.django_db
D = Decimal
NOV = (2026, 11)


@pytest.fixture
def month(season, treasurer, today):
    """Ann paid $110 in August and $300 on Nov 1 (paid up); Bob paid $610 in August ($200 ahead on Nov 29);
    Cy, "=HYPERLINK(…)" by name, paid nothing; the treasurer's own seat paid nothing."""
    ann = MembershipFactory(season=season, person__first_name="Ann", person__last_name="Able")
    bob = MembershipFactory(season=season, person__first_name="Bob", person__last_name="Bähr")
    MembershipFactory(season=season, person__first_name="Cy", person__last_name='=HYPERLINK("http://x")')
    pay(membership=ann, day="2026-08-22", amount="110.00", actor=treasurer)
    pay(membership=ann, day="2026-11-01", amount="300.00", actor=treasurer)
    pay(membership=bob, day="2026-08-22", amount="610.00", actor=treasurer)
    return season


def test_section_3_6_3_outstanding_fees_list_only_members_who_owe_and_the_total_is_their_sum(
    month, treasurer
):
    report = monthly_report(year=2026, month=11, today=dt.date(2026, 11, 29))
    owing = {row.name: row.balance for row in report.owing}
    assert owing == {'Cy =HYPERLINK("http://x")': D("410.00"), treasurer.person.full_name: D("410.00")}
    totals = report.owing_totals
    assert totals.balance == D("820.00") == sum(row.balance for row in report.owing)
    assert totals.charged == D("820.00") and totals.paid == D("0.00") and totals.late_fees == D("0.00")
    # Paid ahead is a credit, never a negative amount owed (SPEC §15.1).
    assert [(row.name, row.credit) for row in report.credits] == [("Bob Bähr", D("200.00"))]
    assert report.credit_total == D("200.00")
    assert all(row.balance > 0 for row in report.owing)


def test_section_3_6_3_income_by_category_for_the_month_and_the_season_to_date(month):
    report = monthly_report(year=2026, month=11, today=dt.date(2026, 11, 29))
    income = {row.label: (row.month, row.season) for row in report.income}
    # November: Ann's $300 paid September's, October's and (ahead) November's installments.
    # Season: two admin fees; dues 100 + 300 (Ann) and 600 (Bob: event 1, four installments ahead and $100
    # beyond the season's dues, all dues paid ahead: the report's one paid-ahead figure is the credits).
    assert income == {
        "Admin fees": (D("0.00"), D("20.00")),
        "Dues": (D("300.00"), D("1000.00")),
        "Late fees": (D("0.00"), D("0.00")),
    }
    assert report.income_total.month == D("300.00")
    assert report.income_total.season == D("1020.00")  # every payment of the season: 110 + 300 + 610


def test_the_treasurer_downloads_the_report_as_pdf_with_the_totals_on_a_letter_page(client, treasurer, month):
    client.force_login(treasurer)
    response = client.get(reverse("finance:report", args=NOV) + "?format=pdf")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    reader = PdfReader(io.BytesIO(response.content))
    assert len(reader.pages) == 1
    width, height = (float(v) for v in reader.pages[0].mediabox.upper_right)
    assert (round(width), round(height)) == (612, 792)  # Letter, portrait, in points
    text = reader.pages[0].extract_text()
    assert "Northern Cincinnati Poker Club" in text
    assert "Page 1 of 1" in text and "Printed Nov 29, 2026" in text
    assert "$820.00" in text  # total outstanding
    assert "credit $200.00" in text and "Bob Bähr" in text
    assert "$1,020.00" in text  # income, season to date


def test_a_twenty_member_club_report_fits_one_letter_page(client, treasurer, month):
    for n in range(17):
        MembershipFactory(
            season=month, person__first_name=f"Member{n}", person__last_name="Longname-Doubleword"
        )
    client.force_login(treasurer)
    response = client.get(reverse("finance:report", args=NOV) + "?format=pdf")
    assert len(PdfReader(io.BytesIO(response.content)).pages) == 1


def test_each_csv_is_one_rectangular_table_with_a_bom_and_no_live_formula(client, treasurer, month):
    client.force_login(treasurer)
    url = reverse("finance:report", args=NOV)
    for table in ("accounts", "categories", "fees", "ledger", "payouts"):
        response = client.get(f"{url}?format=csv&table={table}")
        assert response.status_code == 200, table
        body = response.content.decode("utf-8")
        assert body.startswith("\ufeff"), table
        lines = body.lstrip("\ufeff").splitlines()
        widths = {len(line.split(",")) for line in lines if '"' not in line}
        assert len(widths) <= 1, (table, widths)
    fees = client.get(f"{url}?format=csv&table=fees").content.decode("utf-8").lstrip("\ufeff").splitlines()
    assert fees[0] == "member,dues_and_fees,late_fees,paid,balance,good_standing,report_status"
    assert "Ann Able,410.00,0.00,410.00,0.00,yes,Draft" in fees
    assert "Bob Bähr,410.00,0.00,610.00,-200.00,yes,Draft" in fees  # a number stays a number
    # "Cy =HYPERLINK(…)" starts with a letter: no formula; quoted by the CSV writer for its quotes.
    assert '"Cy =HYPERLINK(""http://x"")",410.00,0.00,0.00,410.00,no,Draft' in fees


def test_a_name_starting_like_a_formula_is_written_as_text(client, treasurer, month):
    MembershipFactory(season=month, person__first_name="@Sum", person__last_name="Evil")
    MembershipFactory(season=month, person__first_name='=HYPERLINK("http://evil")', person__last_name="X")
    client.force_login(treasurer)
    url = reverse("finance:report", args=NOV)
    fees = client.get(f"{url}?format=csv&table=fees").content.decode("utf-8").lstrip("\ufeff").splitlines()
    assert any(line.startswith("'@Sum Evil,") for line in fees)
    assert any(line.startswith('"\'=HYPERLINK(""http://evil"") X",') for line in fees)
    book = load_workbook(io.BytesIO(client.get(f"{url}?format=xlsx").content))
    assert book.sheetnames == [
        "Accounts",
        "Income and expenses",
        "Escrow",
        "Member fees",
        "Payouts",
        "Ledger",
    ]
    names = [row[0].value for row in book["Member fees"].iter_rows(min_row=2)]
    cell = next(row[0] for row in book["Member fees"].iter_rows(min_row=2) if row[0].value == "@Sum Evil")
    assert cell.data_type == "s" and "@Sum Evil" in names
    balance = next(
        row[4].value for row in book["Member fees"].iter_rows(min_row=2) if row[0].value == "Ann Able"
    )
    assert balance == 0  # a number cell, not text


def test_a_member_gets_only_their_own_fees_and_no_ledger(client, member, month, treasurer):
    pay(membership=member.person.memberships.get(), day="2026-08-22", amount="110.00", actor=treasurer)
    client.force_login(member)
    url = reverse("finance:report", args=NOV)
    fees = client.get(f"{url}?format=csv&table=fees").content.decode("utf-8").lstrip("\ufeff").splitlines()
    assert fees[1:] == [f"{member.person.full_name},410.00,0.00,110.00,300.00,no,Draft"]
    assert client.get(f"{url}?format=csv&table=ledger").status_code == 404
    text = PdfReader(io.BytesIO(client.get(f"{url}?format=pdf").content)).pages[0].extract_text()
    assert "Bob Bähr" not in text and "Your account" in text
    page = client.get(url).content.decode()
    assert "Bob Bähr" not in page and "you owe $300.00" in page


def test_section_6_2_event_payouts_name_the_members_not_their_logins(client, treasurer, season, monkeypatch):
    from tests.standings.factories import FakeResults, seats

    people = seats(season, 10)  # and the treasurer: 11 members → $165, $100, $65
    FakeResults(monkeypatch, season).set(1, people)
    client.force_login(treasurer)
    page = client.get(reverse("finance:payouts")).content.decode()
    first = page.index("Event 1 ·")
    card = page[first : page.index("Event 2 ·")]
    assert "M01 Test" in card and "M02 Test" in card and "M03 Test" in card
    assert ">m01<" not in card
    assert "$165.00" in card and "$100.00" in card and "$65.00" in card and "$330.00" in card
    rows = client.get(reverse("finance:report", args=(2026, 8)) + "?format=csv&table=payouts")
    lines = rows.content.decode("utf-8-sig").splitlines()
    assert lines == [
        "event,date,place,paid_to,amount,report_status",
        "1,2026-08-22,1,M01 Test,165.00,Draft",
        "1,2026-08-22,2,M02 Test,100.00,Draft",
        "1,2026-08-22,3,M03 Test,65.00,Draft",
    ]


def test_the_report_shows_the_escrow_move_and_the_closing_read_with_the_months_sums(season, treasurer):
    """The escrow move's day and the month's closing come with the month's sums (one query less each); the
    closing itself is read only for a month that was closed."""
    from finance.models import Account
    from finance.services.escrow import wsop_escrow_move
    from finance.services.month_closing import month_close

    for _ in range(10):
        MembershipFactory(season=season)
    before = monthly_report(year=2026, month=9, today=dt.date(2026, 11, 29))
    assert before.wsop_posted_on is None and before.closed is None
    # SPEC §16.3: the money to move; the books start in September (§16.1: months close in order from there).
    opening_balance(code=Account.CHECKING, amount="2200.00", day="2026-09-01", actor=treasurer)
    wsop_escrow_move(season=season, date=dt.date(2026, 9, 1), actor=treasurer)
    september = monthly_report(year=2026, month=9, today=dt.date(2026, 11, 29))
    assert september.wsop_posted_on == dt.date(2026, 9, 1)
    assert september.closed is None
    with CaptureQueriesContext(connection) as open_month:
        monthly_report(year=2026, month=9, today=dt.date(2026, 11, 29))
    closing = month_close(day=dt.date(2026, 9, 1), actor=treasurer)
    with CaptureQueriesContext(connection) as closed_month:
        closed = monthly_report(year=2026, month=9, today=dt.date(2026, 11, 29))
    assert closed.closed == closing and closed.closed.closed_by == treasurer
    assert len(closed_month) == len(open_month) + 1
    # The other months of the season show the same move and are not closed.
    october = monthly_report(year=2026, month=10, today=dt.date(2026, 11, 29))
    assert october.wsop_posted_on == dt.date(2026, 9, 1) and october.closed is None


def test_a_month_no_season_covers_and_a_ledger_with_no_account_have_no_escrow_move_nor_closing(db):
    from finance.models import Account

    assert not Account.objects.exists()  # nothing was ever posted: the closing and the move are read apart
    report = monthly_report(year=2019, month=3, today=dt.date(2026, 11, 29))
    assert report.season is None and report.wsop_posted_on is None and report.closed is None
