"""A closed month is final (SPEC §17.1, issue 45): closing a month keeps its report as data, and the closed
month's page, CSV, XLSX and PDF are built from that record, never recomputed; what changes later (a name, a
departure, a member admitted) never shows in them.

The club's date is Dec 5, 2026: October and November are over and may be closed."""

import datetime as dt
import importlib
import io
import re
from decimal import Decimal

import pytest
import time_machine
from django.apps import apps as django_apps
from django.urls import reverse
from openpyxl import load_workbook
from pypdf import PdfReader

from finance.models import Account, ClosedMonth
from finance.selectors.monthly_report import monthly_report
from finance.selectors.report_record import (
    month_report_complete,
    monthly_report_for,
    report_from_record,
    report_record,
)
from finance.services.ledger import transfer_post
from finance.services.month_closing import month_close
from tests.factories import MembershipFactory
from tests.finance.factories import pay

D = Decimal
pytestmark = pytest.mark.django_db
DEC_5 = dt.datetime(2026, 12, 5, 17, 0, tzinfo=dt.UTC)


@pytest.fixture
def december(today):
    with time_machine.travel(DEC_5, tick=False):
        yield dt.date(2026, 12, 5)


@pytest.fixture
def books(season, treasurer, december):
    """Ann paid $310 in cash on Oct 10, Bob $410 by check on Oct 24; $300 of the cash went to checking on
    Oct 31; Ann paid $100 in cash on Nov 14."""
    ann = MembershipFactory(season=season, person__first_name="Ann", person__last_name="Able")
    bob = MembershipFactory(season=season, person__first_name="Bob", person__last_name="Baker")
    pay(membership=ann, day="2026-10-10", amount="310.00", actor=treasurer)
    pay(membership=bob, day="2026-10-24", amount="410.00", actor=treasurer, method="check")
    transfer_post(
        date=dt.date(2026, 10, 31),
        from_code=Account.CASH,
        to_code=Account.CHECKING,
        amount=D("300.00"),
        memo="Deposit",
        actor=treasurer,
    )
    pay(membership=ann, day="2026-11-14", amount="100.00", actor=treasurer)
    return {"ann": ann, "bob": bob}


def _without_token(html: str) -> str:
    """The page with its per-request CSRF token blanked (a form's hidden field, not the report)."""
    return re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"', 'name="csrfmiddlewaretoken" value=""', html)


def what_a_reader_gets(client, year: int, month: int) -> dict[str, object]:
    """The month's page (its content), its five CSV tables, the workbook's cells and the PDF's text."""
    url = reverse("finance:report", args=(year, month))
    html = _without_token(client.get(url).content.decode())
    # The page's content, the report (the navigation above it names whoever reads it).
    files: dict[str, object] = {"page": html[html.index('<main class="container') : html.index("</main>")]}
    for table in ("accounts", "categories", "fees", "ledger", "payouts"):
        files[table] = client.get(url, {"format": "csv", "table": table}).content
    workbook = load_workbook(io.BytesIO(client.get(url, {"format": "xlsx"}).content))
    files["xlsx"] = [
        [list(row) for row in sheet.iter_rows(values_only=True)] for sheet in workbook.worksheets
    ]
    pdf = PdfReader(io.BytesIO(client.get(url, {"format": "pdf"}).content))
    files["pdf"] = [page.extract_text() for page in pdf.pages]
    return files


def test_a_closed_months_page_and_files_stay_as_they_were_when_it_closed(client, books, season, treasurer):
    treasurer.first_name, treasurer.last_name = "Tina", "Till"
    treasurer.save()
    month_close(day=dt.date(2026, 10, 1), actor=treasurer)
    month_close(day=dt.date(2026, 11, 1), actor=treasurer)
    client.force_login(treasurer)
    before = what_a_reader_gets(client, 2026, 11)
    assert b"Ann Able" in before["fees"]
    assert " by Tina Till: the report was presented" in str(before["page"])

    # Later: Ann changes her name, Bob leaves after event 4, a new member is admitted, the cash account is
    # renamed.
    person = books["ann"].person
    person.last_name = "Archer"
    person.save()
    bob = books["bob"]
    bob.left_after_event = 4
    bob.left_on = dt.date(2026, 12, 3)
    bob.how_left = bob.HowLeft.WITHDREW
    bob.save()
    MembershipFactory(season=season, person__first_name="Cy", person__last_name="Cole")
    Account.objects.filter(code=Account.CASH).update(name="Cash tin")
    treasurer.first_name, treasurer.last_name = "Tess", "Newname"
    treasurer.save()
    # The computed report does change: it is not what a closed month shows.
    names = [r.name for r in monthly_report(year=2026, month=11, today=dt.date(2026, 12, 5)).members]
    assert "Ann Archer" in names
    assert "Bob Baker (left after event 4)" in names

    after = what_a_reader_gets(client, 2026, 11)
    for key in before:
        assert after[key] == before[key], f"the closed report's {key} changed"
    assert "Ann Archer" not in str(after)
    assert "left after event 4" not in str(after)
    assert "Cy Cole" not in str(after)
    assert "Cash tin" not in str(after)
    assert "Newname" not in str(after)


def test_closing_keeps_the_report_as_data_in_the_closed_month(books, treasurer):
    month_close(day=dt.date(2026, 10, 1), actor=treasurer)
    record = ClosedMonth.objects.get(month=dt.date(2026, 10, 1)).report
    assert record["format"] == 1
    assert (record["year"], record["month"], record["as_of"]) == (2026, 10, "2026-10-31")
    cash = next(r for r in record["accounts"] if r["account"]["code"] == Account.CASH)
    assert (cash["opening"], cash["money_in"], cash["transfers_out"], cash["closing"]) == (
        "0.00",
        "310.00",
        "300.00",
        "10.00",
    )
    paid = {r["name"]: r["paid"] for r in record["members"]}
    assert (paid["Ann Able"], paid["Bob Baker"]) == ("310.00", "410.00")
    assert [row[4] for row in record["ledger"]] == [
        "310.00",
        "-310.00",
        "410.00",
        "-410.00",
        "300.00",
        "-300.00",
    ]


def test_the_record_rebuilds_the_same_report(books, treasurer):
    report = month_report_complete(year=2026, month=10, today=dt.date(2026, 12, 5))
    rebuilt = report_from_record(report_record(report))
    assert rebuilt == report
    assert rebuilt.ledger is not None
    assert [(r.date, r.amount) for r in rebuilt.ledger[:2]] == [
        (dt.date(2026, 10, 10), D("310.00")),
        (dt.date(2026, 10, 10), D("-310.00")),
    ]
    assert [r.membership.person.user_id for r in rebuilt.members] == [
        r.membership.person.user_id for r in report.members
    ]


def test_an_open_month_and_a_month_closed_before_records_were_kept_are_computed(books, treasurer):
    month_close(day=dt.date(2026, 10, 1), actor=treasurer)
    ClosedMonth.objects.filter(month=dt.date(2026, 10, 1)).update(report=None)
    computed = monthly_report(year=2026, month=10, today=dt.date(2026, 12, 5))
    assert monthly_report_for(year=2026, month=10, today=dt.date(2026, 12, 5)) == computed
    november = monthly_report_for(year=2026, month=11, today=dt.date(2026, 12, 5))
    assert november.closed is None
    assert november == monthly_report(year=2026, month=11, today=dt.date(2026, 12, 5))


def test_a_month_closed_before_records_were_kept_gets_its_record_from_the_migration(books, treasurer):
    month_close(day=dt.date(2026, 10, 1), actor=treasurer)
    kept = ClosedMonth.objects.get(month=dt.date(2026, 10, 1)).report
    ClosedMonth.objects.update(report=None)
    migration = importlib.import_module("finance.migrations.0009_closed_month_report_record")
    migration.closed_months_recorded(django_apps, None)
    assert ClosedMonth.objects.get(month=dt.date(2026, 10, 1)).report == kept


def test_a_member_reads_their_own_row_of_a_closed_month_from_its_record(client, books, member, treasurer):
    month_close(day=dt.date(2026, 10, 1), actor=treasurer)
    person = member.person
    named = str(person)
    person.first_name, person.last_name = "Mo", "Member"
    person.save()
    client.force_login(member)
    fees = client.get(
        reverse("finance:report", args=(2026, 10)), {"format": "csv", "table": "fees"}
    ).content.decode()
    lines = fees.splitlines()
    assert len(lines) == 2
    assert lines[0] == "\ufeffmember,dues_and_fees,late_fees,paid,balance,good_standing,report_status"
    assert lines[1].startswith(f"{named},")
    assert "Mo Member" not in fees
    assert "Ann Able" not in fees
