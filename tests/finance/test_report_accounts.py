"""Issue 35: the monthly report's Accounts explain themselves: per asset account its opening, money in, money
out, transfers between the club's own accounts apart, and closing; a total row; and a check line under the
table worked out from the report's own totals (opening + income − expenses = closing), on the page and in the
PDF, CSV and XLSX."""

import datetime as dt
import io
from decimal import Decimal

import pytest
from django.core.management import call_command
from django.urls import reverse
from openpyxl import load_workbook
from pypdf import PdfReader

from finance.models import Account
from finance.selectors.monthly_report import monthly_report
from finance.services.ledger import transfer_post
from tests.factories import MembershipFactory
from tests.finance.factories import opening_balance, pay

pytestmark = pytest.mark.django_db
D = Decimal


def rows(report):
    return {
        r.account.code: (r.opening, r.money_in, r.money_out, r.transfers_in, r.transfers_out, r.closing)
        for r in report.accounts
    }


@pytest.fixture
def demo(today):
    call_command("load_demo", stdout=io.StringIO())


def test_the_demos_november_shows_the_deposit_and_the_escrow_move_as_transfers(demo, client, today):
    """The demo's November (event 4, Nov 14): ten members pay $100 cash at the door (cash box +$1,000), Hal
    pays $200 by check (checking +$200); the cash box's $4,320 is deposited at the bank and the WSOP money,
    $4,400 (two prizes), moves from checking to escrow. Income $1,200, no expenses. The openings are
    October's closings."""
    october = monthly_report(year=2026, month=10, today=today)
    report = monthly_report(year=2026, month=11, today=today)
    closed_october = {r.account.code: r.closing for r in october.accounts}
    assert closed_october == {
        Account.CHECKING: D("650.00"),
        Account.ESCROW: D("0.00"),
        Account.CASH: D("3320.00"),
    }
    assert rows(report) == {
        # opening, money in, money out, transfers in, transfers out, closing
        Account.CHECKING: (D("650.00"), D("200.00"), D("0.00"), D("4320.00"), D("4400.00"), D("770.00")),
        Account.ESCROW: (D("0.00"), D("0.00"), D("0.00"), D("4400.00"), D("0.00"), D("4400.00")),
        Account.CASH: (D("3320.00"), D("1000.00"), D("0.00"), D("0.00"), D("4320.00"), D("0.00")),
    }
    t = report.accounts_total
    assert (t.opening, t.money_in, t.money_out, t.transfers_in, t.transfers_out, t.closing) == (
        D("3970.00"),
        D("1200.00"),
        D("0.00"),
        D("8720.00"),
        D("8720.00"),
        D("5170.00"),
    )
    check = report.accounts_check
    assert check.adds_up
    line = "opening $3,970.00 + income $1,200.00 − expenses $0.00 = closing $5,170.00"
    assert check.text == line
    # The same on the page, in the CSV, the workbook and the PDF.
    from django.contrib.auth import get_user_model

    client.force_login(get_user_model().objects.get(username="tom"))
    url = reverse("finance:report", args=(2026, 11))
    page = client.get(url).content.decode()
    assert f"Check:</strong> {line}." in page
    assert "Transfers in" in page and "$8,720.00" in page
    csv = client.get(f"{url}?format=csv&table=accounts").content.decode("utf-8-sig").splitlines()
    assert csv[0] == "account,opening,money_in,money_out,transfers_in,transfers_out,closing,report_status"
    assert "Club checking,650.00,200.00,0.00,4320.00,4400.00,770.00,Draft" in csv
    assert "Total,3970.00,1200.00,0.00,8720.00,8720.00,5170.00,Draft" in csv
    assert csv[-1] == f'"Check: {line}",,,,,,,Draft'
    book = load_workbook(io.BytesIO(client.get(f"{url}?format=xlsx").content))
    values = [[c.value for c in r] for r in book["Accounts"].iter_rows()]
    assert ["Total", 3970, 1200, 0, 8720, 8720, 5170] in values
    assert [f"Check: {line}", None, None, None, None, None, None] in values
    pdf = PdfReader(io.BytesIO(client.get(f"{url}?format=pdf").content))
    assert len(pdf.pages) == 1  # the demo's club of 16 on one Letter page
    text = pdf.pages[0].extract_text()
    assert f"Check: {line}." in text
    assert "Total $3,970.00 $1,200.00 $0.00 $8,720.00 $8,720.00 $5,170.00" in text


def test_a_transfer_is_neither_money_in_nor_out_and_an_opening_balance_is_its_own_term(
    season, treasurer, today
):
    """September by hand: checking gets $2,200 put in as an opening balance (not through the opening-balance
    page, so not the books' first month: neither income nor an expense); Ann pays $110 cash on Sep 12 and the
    $110 is deposited on Sep 20. Checking: 0 + 2,200 in + 110 transferred in = 2,310; cash box: 0 + 110 in −
    110 transferred out = 0. Check: 0 + income 110 − expenses 0 + opening balances 2,200 = 2,310."""
    ann = MembershipFactory(season=season, person__first_name="Ann", person__last_name="Able")
    opening_balance(code=Account.CHECKING, amount="2200.00", day="2026-09-01", actor=treasurer)
    pay(membership=ann, day="2026-09-12", amount="110.00", actor=treasurer)
    transfer_post(
        date=dt.date(2026, 9, 20),
        from_code=Account.CASH,
        to_code=Account.CHECKING,
        amount=D("110.00"),
        memo="Deposit",
        actor=treasurer,
    )
    report = monthly_report(year=2026, month=9, today=today)
    assert rows(report) == {
        Account.CHECKING: (D("0.00"), D("2200.00"), D("0.00"), D("110.00"), D("0.00"), D("2310.00")),
        Account.ESCROW: (D("0.00"),) * 6,
        Account.CASH: (D("0.00"), D("110.00"), D("0.00"), D("0.00"), D("110.00"), D("0.00")),
    }
    check = report.accounts_check
    assert check.adds_up and check.corrections == D("2200.00")
    assert check.text == (
        "opening $0.00 + income $110.00 − expenses $0.00 + opening balances $2,200.00 = closing $2,310.00"
    )
    # October opens with September's closings and nothing moved: every term but the opening is zero.
    october = monthly_report(year=2026, month=10, today=today)
    assert october.accounts_check.text == (
        "opening $2,310.00 + income $0.00 − expenses $0.00 = closing $2,310.00"
    )
