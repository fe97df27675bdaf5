"""Closed months (issue 32, SPEC §16.1): months close in order, from the month the books start (the month of the
first ledger transaction); nothing can be dated in or before a closed month, whatever command writes the money,
so a closed month's report (accounts, dues, categories) never changes; every report (page, PDF, CSV, XLSX) says
"Closed on …" or "Draft".

The club's date is Dec 5, 2026 unless a test says otherwise: November is over and may be closed."""

import datetime as dt
import io
from decimal import Decimal

import pytest
import time_machine
from django.urls import reverse
from openpyxl import load_workbook
from pypdf import PdfReader

from events.models import Event
from finance.models import Account, ClosedMonth, Transaction
from finance.selectors.dues import dues_account
from finance.selectors.monthly_report import monthly_report
from finance.services.checks import CheckError, disbursement_approve, disbursement_create
from finance.services.door import door_payment_record
from finance.services.forecast import to_play_at
from finance.services.ledger import (
    LedgerError,
    MonthClosed,
    books_start,
    months_open_before,
    transaction_reverse,
    transfer_post,
)
from finance.services.month_closing import month_close
from finance.services.payments import PaymentError, late_fee_waive
from finance.services.payments_import import PaymentLine, payments_record_many
from tests.factories import MembershipFactory, once
from tests.finance.factories import pay

D = Decimal
pytestmark = pytest.mark.django_db
OCT, NOV = dt.date(2026, 10, 1), dt.date(2026, 11, 1)
DEC_5 = dt.datetime(2026, 12, 5, 17, 0, tzinfo=dt.UTC)  # noon in Cincinnati


@pytest.fixture
def december(today):
    with time_machine.travel(DEC_5, tick=False):
        yield dt.date(2026, 12, 5)


@pytest.fixture
def books(season, treasurer, december):
    """The club's money from October on (the books start in October): Ann paid $310 in cash on Oct 10 (her
    first three installments), Bob $410 by check on Oct 24; $300 of the cash went to checking on Oct 31;
    Ann paid $100 in cash on Nov 14."""
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


def figures(year: int, month: int, today: dt.date = dt.date(2026, 12, 5)) -> tuple:
    """What a month's report says: its accounts, every member's dues, income and expenses by category."""
    report = monthly_report(year=year, month=month, today=today)
    return (
        [(r.account.code, r.opening, r.receipts, r.payments, r.closing) for r in report.accounts],
        [(r.name, r.charged, r.late_fees, r.paid, r.balance, r.good_standing) for r in report.members],
        [(r.label, r.month, r.season) for r in report.income + report.expenses],
    )


def cash_box(year: int, month: int) -> tuple[Decimal, Decimal]:
    """The cash box's opening and closing in a month's report."""
    report = monthly_report(year=year, month=month, today=dt.date(2026, 12, 5))
    row = next(r for r in report.accounts if r.account.code == Account.CASH)
    return row.opening, row.closing


# --- months close in order ------------------------------------------------------------------------------------


def test_the_books_start_in_the_month_of_the_first_ledger_transaction(books):
    assert books_start() == OCT
    assert months_open_before(day=NOV) == [OCT]
    assert months_open_before(day=OCT) == []


def test_november_cannot_be_closed_while_october_is_open_and_once_both_are_a_payment_of_oct_20_is_refused(
    books, treasurer
):
    """The issue's case: November was closed while October was open; a $10 payment dated Oct 20 then changed
    the closed November report (the cash box's opening, Ann's balance)."""
    with pytest.raises(LedgerError, match="Months close in order: October 2026 is still open"):
        month_close(day=NOV, actor=treasurer)
    assert not ClosedMonth.objects.exists()

    month_close(day=OCT, actor=treasurer)
    month_close(day=NOV, actor=treasurer)
    assert sorted(ClosedMonth.objects.values_list("month", flat=True)) == [OCT, NOV]
    closed_october, closed_november = figures(2026, 10), figures(2026, 11)
    assert cash_box(2026, 11) == (D("10.00"), D("110.00"))
    with pytest.raises(MonthClosed, match="October 2026 is closed"):
        pay(membership=books["ann"], day="2026-10-20", amount="10.00", actor=treasurer)
    assert figures(2026, 10) == closed_october and figures(2026, 11) == closed_november
    assert cash_box(2026, 11) == (D("10.00"), D("110.00"))


def test_several_open_months_are_all_named_oldest_first(season, treasurer, december):
    seat = MembershipFactory(season=season)
    pay(membership=seat, day="2026-08-22", amount="110.00", actor=treasurer)
    with pytest.raises(
        LedgerError,
        match="August 2026, September 2026 and October 2026 are still open. Close them first, oldest first, "
        "then November 2026",
    ):
        month_close(day=NOV, actor=treasurer)
    month_close(day=dt.date(2026, 8, 1), actor=treasurer)
    with pytest.raises(LedgerError, match="September 2026 and October 2026 are still open"):
        month_close(day=NOV, actor=treasurer)
    month_close(day=dt.date(2026, 9, 1), actor=treasurer)
    month_close(day=OCT, actor=treasurer)
    assert month_close(day=NOV, actor=treasurer).month == NOV


def test_with_nothing_ever_posted_any_month_that_is_over_may_be_closed(season, treasurer, december):
    assert books_start() is None
    assert month_close(day=NOV, actor=treasurer).month == NOV


# --- nothing dated in or before a closed month ----------------------------------------------------------------


def test_a_month_closed_before_an_earlier_open_one_still_takes_nothing_dated_before_it(books, treasurer):
    """Books closed out of order before this rule (November closed, October open): October is locked too."""
    ClosedMonth.objects.create(month=NOV, closed_by=treasurer)
    closed_november = figures(2026, 11)
    with pytest.raises(MonthClosed, match="November 2026 is closed .* nothing can be dated in or before it"):
        pay(membership=books["ann"], day="2026-10-20", amount="10.00", actor=treasurer)
    assert figures(2026, 11) == closed_november


COMMANDS = {
    "a cash payment": lambda c: pay(membership=c["ann"], day="2026-10-20", amount="10.00", actor=c["by"]),
    "a payment dated before the books started": lambda c: pay(
        membership=c["cy"], day="2026-09-20", amount="15.00", actor=c["by"]
    ),
    "a check payment": lambda c: pay(
        membership=c["bob"], day="2026-11-30", amount="20.00", actor=c["by"], method="check"
    ),
    "a payment at the door": lambda c: door_payment_record(
        event=c["october_event"],
        membership=c["cy"],
        expected=c["cy_owes"],
        on=c["october_event"].date,
        actor=c["by"],
        once=once(),
    ),
    "an imported payment": lambda c: payments_record_many(
        lines=[PaymentLine(c["cy"], dt.date(2026, 10, 20), D("30.00"), "cash", line=2)],
        actor=c["by"],
        source="payments.csv",
    ),
    "a reversal dated in the closed month": lambda c: transaction_reverse(
        txn=c["ann_october"], date=dt.date(2026, 10, 31), reason="Wrong member", actor=c["by"]
    ),
    "a transfer": lambda c: transfer_post(
        date=dt.date(2026, 11, 30),
        from_code=Account.CHECKING,
        to_code=Account.CASH,
        amount=D("40.00"),
        memo="Prize cash",
        actor=c["by"],
    ),
}


@pytest.mark.parametrize("command", COMMANDS, ids=list(COMMANDS))
def test_no_command_dates_money_in_or_before_a_closed_month_and_the_closed_reports_stay_as_they_were(
    books, season, treasurer, command
):
    cy = MembershipFactory(season=season, person__first_name="Cy", person__last_name="Cole")
    october_event = Event.objects.get(season=season, number=3)
    assert october_event.date.month == 10
    account = dues_account(membership=cy)
    context = {
        **books,
        "by": treasurer,
        "cy": cy,
        "october_event": october_event,
        "cy_owes": to_play_at(
            charges=account.charges,
            payments=account.payments,
            on=october_event.date,
            event_date=october_event.date,
        ),
        "ann_october": books["ann"].payments.get(date=dt.date(2026, 10, 10)).transaction,
    }
    month_close(day=OCT, actor=treasurer)
    month_close(day=NOV, actor=treasurer)
    closed_october, closed_november = figures(2026, 10), figures(2026, 11)
    posted = Transaction.objects.count()
    with pytest.raises((MonthClosed, PaymentError), match="is closed"):
        COMMANDS[command](context)
    assert Transaction.objects.count() == posted
    assert figures(2026, 10) == closed_october and figures(2026, 11) == closed_november


def test_a_correction_is_dated_today_and_shows_in_the_open_month(books, treasurer):
    month_close(day=OCT, actor=treasurer)
    month_close(day=NOV, actor=treasurer)
    closed_november = figures(2026, 11)
    bobs_check = books["bob"].payments.get().transaction
    reversal = transaction_reverse(
        txn=bobs_check, date=dt.date(2026, 12, 5), reason="Bounced", actor=treasurer
    )
    assert reversal.date == dt.date(2026, 12, 5)
    assert figures(2026, 11) == closed_november
    report = monthly_report(year=2026, month=12, today=dt.date(2026, 12, 5))
    checking = next(r for r in report.accounts if r.account.code == Account.CHECKING)
    # The reversal takes the bounced check back out of the money in (as the income's dues, the check line).
    assert (checking.opening, checking.money_in, checking.payments, checking.closing) == (
        D("710.00"),
        D("-410.00"),
        D("0.00"),
        D("300.00"),
    )


def test_the_last_approval_cannot_issue_a_check_dated_before_a_closed_month(
    books, treasurer, president, vice_president
):
    check = disbursement_create(
        date=dt.date(2026, 10, 25),
        payee="Card Shop",
        amount=D("20.00"),
        memo="Cards",
        from_code=Account.CHECKING,
        to_code=Account.SUPPLIES,
        check_number="502",
        signers=(president.person, treasurer.person),
        actor=treasurer,
    ).record
    disbursement_approve(disbursement=check, actor=treasurer, on=dt.date(2026, 10, 31))
    disbursement_approve(disbursement=check, actor=vice_president, on=dt.date(2026, 10, 31))
    month_close(day=OCT, actor=treasurer)
    month_close(day=NOV, actor=treasurer)
    with pytest.raises(CheckError, match="October 2026 is closed"):
        disbursement_approve(disbursement=check, actor=president, on=dt.date(2026, 10, 31))
    check = disbursement_approve(disbursement=check, actor=president, on=dt.date(2026, 12, 5))
    assert check.transaction.date == dt.date(2026, 12, 5)


def test_a_late_fee_is_not_waived_in_a_closed_month(season, treasurer):
    """A waiver lowers a member's dues from its day on: it is dated like money."""
    seat = MembershipFactory(season=season)
    with time_machine.travel(dt.datetime(2027, 1, 5, 17, tzinfo=dt.UTC), tick=False):
        month_close(day=dt.date(2026, 12, 1), actor=treasurer)
        january_5 = dt.date(2027, 1, 5)
        december = figures(2026, 12, today=january_5)
        assert [row[2] for row in december[1] if row[0] == str(seat.person)] == [D("25.00")]  # its late fee
        with pytest.raises(PaymentError, match="December 2026 is closed"):
            late_fee_waive(
                membership=seat,
                fee_date=dt.date(2026, 12, 12),
                on=dt.date(2026, 12, 20),
                reason="Hospital",
                actor=treasurer,
            )
        assert figures(2026, 12, today=january_5) == december
        late_fee_waive(
            membership=seat, fee_date=dt.date(2026, 12, 12), on=january_5, reason="Hospital", actor=treasurer
        )
        assert figures(2026, 12, today=january_5) == december


# --- the close page -------------------------------------------------------------------------------------------


def test_the_close_page_lists_the_earlier_open_months_and_refuses_naming_them(client, books, treasurer):
    client.force_login(treasurer)
    url = reverse("finance:report", args=(2026, 11))
    page = client.get(url).content.decode()
    assert "Draft: November 2026 is not closed" in page
    assert "Months close in order: close" in page
    assert f'href="{reverse("finance:report", args=(2026, 10))}">October 2026</a>' in page
    assert "Close November 2026 (report presented)" not in page
    response = client.post(reverse("finance:report_close", args=(2026, 11)), follow=True)
    assert "Months close in order: October 2026 is still open." in response.content.decode()
    assert not ClosedMonth.objects.exists()

    october = client.get(reverse("finance:report", args=(2026, 10))).content.decode()
    assert "Close October 2026 (report presented)" in october and "Months close in order" not in october
    client.post(reverse("finance:report_close", args=(2026, 10)))
    page = client.get(url).content.decode()
    assert "Close November 2026 (report presented)" in page and "Months close in order" not in page


# --- every report says closed or draft ------------------------------------------------------------------------


def _pdf_text(client, url: str) -> str:
    return PdfReader(io.BytesIO(client.get(url + "?format=pdf").content)).pages[0].extract_text()


def _csv_lines(client, url: str, table: str) -> list[str]:
    return client.get(f"{url}?format=csv&table={table}").content.decode("utf-8-sig").splitlines()


def test_every_report_file_says_draft_until_the_month_is_closed_then_the_day_it_was(client, books, treasurer):
    client.force_login(treasurer)
    url = reverse("finance:report", args=(2026, 10))
    assert "Draft" in _pdf_text(client, url)
    for table in ("accounts", "categories", "fees", "ledger", "payouts"):
        lines = _csv_lines(client, url, table)
        assert lines[0].endswith(",report_status"), table
        assert all(line.endswith(",Draft") for line in lines[1:]), table
    assert "Ann Able,310.00,0.00,310.00,0.00,yes,Draft" in _csv_lines(client, url, "fees")
    # The workbook says it in the title rows of every sheet (issue 35: a workbook that is a report).
    book = load_workbook(io.BytesIO(client.get(url + "?format=xlsx").content))
    for sheet in book.worksheets:
        assert sheet["A2"].value.startswith("Draft: October 2026 is not closed"), sheet.title

    month_close(day=OCT, actor=treasurer)
    text = _pdf_text(client, url)
    assert "Closed on Dec 5, 2026" in text and "Draft" not in text
    assert "Closed on Dec 5, 2026" in client.get(url).content.decode()
    assert "Ann Able,310.00,0.00,310.00,0.00,yes,Closed on 2026-12-05" in _csv_lines(client, url, "fees")
    book = load_workbook(io.BytesIO(client.get(url + "?format=xlsx").content))
    assert all(sheet["A2"].value.startswith("Closed on Dec 5, 2026. ") for sheet in book.worksheets)
    # November is still a draft, everywhere.
    november = reverse("finance:report", args=(2026, 11))
    assert "Draft" in _pdf_text(client, november)
    assert "Draft: November 2026 is not closed" in client.get(november).content.decode()
    assert _csv_lines(client, november, "accounts")[1].endswith(",Draft")


def test_a_member_reads_draft_or_closed_too(client, books, member, treasurer):
    client.force_login(member)
    url = reverse("finance:report", args=(2026, 10))
    assert "Draft: October 2026 is not closed" in client.get(url).content.decode()
    assert "Draft" in _pdf_text(client, url)
    month_close(day=OCT, actor=treasurer)
    assert "Closed on Dec 5, 2026" in _pdf_text(client, url)
    assert _csv_lines(client, url, "fees")[1].endswith(",Closed on 2026-12-05")


def test_a_member_admitted_after_a_closed_month_is_not_in_its_report(books, treasurer):
    """Found by tests/test_club_year.py: a member admitted in December showed, with $0.00, in the closed
    October report."""
    month_close(day=OCT, actor=treasurer)
    october = figures(2026, 10)
    assert {"Ann Able", "Bob Baker"} <= {row[0] for row in october[1]}
    MembershipFactory(
        season=books["ann"].season,
        joined_on=dt.date(2026, 12, 5),
        person__first_name="Cal",
        person__last_name="Cole",
    )
    assert figures(2026, 10) == october  # Cal is not in it
    assert "Cal Cole" in [
        row.name for row in monthly_report(year=2026, month=12, today=dt.date(2026, 12, 5)).members
    ]
