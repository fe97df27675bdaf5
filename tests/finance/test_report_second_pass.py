"""The Treasurer's monthly report and workbook, second pass (issue 45 item 6; bylaws §3.6.3, SPEC §15.1,
§16.2, §16.6, §17.1): what is owed and what is paid ahead stay apart in every file, the workbook's sheets have
their totals and the escrow block, the first month's check line counts its opening balances once, a reversal
reads the same in the table and the check line, a month not yet started says so, and the report has one
paid-ahead figure.

The season has the bylaws' dues (SPEC §7): $110 at event 1 (Aug 22, with the $10 admin fee), $100 at events
2–5 (Sep 26, Oct 24, Nov 14, Dec 12); by Nov 29 (the clock) a member has been charged $410."""

import datetime as dt
import io
from decimal import Decimal

import pytest
from django.urls import reverse
from openpyxl import load_workbook
from pypdf import PdfReader

from finance.models import Account, ClosedMonth
from finance.selectors.monthly_report import monthly_report
from finance.selectors.report_record import monthly_report_for
from finance.services.escrow import wsop_escrow_move
from finance.services.month_closing import month_close
from finance.services.opening import opening_balance_record
from finance.services.payments import payment_reverse
from members.services.seats import member_withdraw
from tests.factories import MembershipFactory
from tests.finance.factories import opening_balance, pay

D = Decimal
pytestmark = pytest.mark.django_db
NOV_29 = dt.date(2026, 11, 29)


def sheet_rows(book, name: str) -> list[list]:
    return [[c.value for c in row] for row in book[name].iter_rows(min_row=5)]


def workbook(client, year: int, month: int):
    url = reverse("finance:report", args=(year, month))
    return load_workbook(io.BytesIO(client.get(url, {"format": "xlsx"}).content))


def pdf_text(client, year: int, month: int) -> str:
    url = reverse("finance:report", args=(year, month))
    pdf = PdfReader(io.BytesIO(client.get(url, {"format": "pdf"}).content))
    return "\n".join(page.extract_text() for page in pdf.pages)


def csv_lines(client, year: int, month: int, table: str) -> list[str]:
    url = reverse("finance:report", args=(year, month))
    return client.get(url, {"format": "csv", "table": table}).content.decode("utf-8-sig").splitlines()


# --- 1. Owed and credits apart; a member who left has no credit ---------------------------------------------


@pytest.fixture
def fees(season, treasurer, today):
    """By Nov 29 each seat has been charged $410. The treasurer's seat paid nothing (owes $410); Ann paid $110
    (owes $300); Bob paid $610 ($200 ahead); Cy paid $1,110 ($700 ahead); Dee paid $460 and withdrew on Nov 29
    after event 4: $50 beyond her charges, which the club keeps (§2.12), never a credit; Eve paid $110 and
    withdrew the same day, leaving $300 unpaid (not outstanding fees: listed apart)."""
    ann = MembershipFactory(season=season, person__first_name="Ann", person__last_name="Able")
    bob = MembershipFactory(season=season, person__first_name="Bob", person__last_name="Baker")
    cy = MembershipFactory(season=season, person__first_name="Cy", person__last_name="Cole")
    dee = MembershipFactory(season=season, person__first_name="Dee", person__last_name="Dunn")
    pay(membership=ann, day="2026-08-22", amount="110.00", actor=treasurer)
    pay(membership=bob, day="2026-08-22", amount="610.00", actor=treasurer)
    pay(membership=cy, day="2026-08-22", amount="1110.00", actor=treasurer)
    eve = MembershipFactory(season=season, person__first_name="Eve", person__last_name="Eder")
    pay(membership=dee, day="2026-08-22", amount="460.00", actor=treasurer)
    pay(membership=eve, day="2026-08-22", amount="110.00", actor=treasurer)
    member_withdraw(membership=dee, on=NOV_29)
    member_withdraw(membership=eve, on=NOV_29)
    return {"ann": ann, "bob": bob, "cy": cy, "dee": dee, "eve": eve}


def test_the_workbook_totals_what_is_owed_and_what_is_paid_ahead_apart_as_the_page_does(
    client, treasurer, fees
):
    client.force_login(treasurer)
    page = client.get(reverse("finance:report", args=(2026, 11))).content.decode()
    # The page: $710 owed by two members ($410 + $300), $900 paid ahead by two ($200 + $700).
    assert "Total outstanding (2 members)" in page and "$710.00" in page
    assert "Total credits (2 members)" in page and "credit $900.00" in page

    rows = {r[0]: r for r in sheet_rows(workbook(client, 2026, 11), "Member fees")}
    # Not one total netting them ("credit $190.00": 710 − 900): owed and credits on rows of their own.
    assert rows["Total owed (2 members)"][1:6] == [820, 0, 110, 710, None]
    assert rows["Total credits (2 members)"][1:6] == [None, None, None, -900, None]
    assert rows["Unpaid when they left (1 member)"][1:6] == [None, None, None, 300, None]
    assert rows["Eve Eder (left after event 4)"][1:6] == [410, 0, 110, 300, "no: withdrew Nov 29, 2026"]
    assert not any(str(name).startswith("Total (") for name in rows)


def test_a_member_who_left_shows_no_credit_in_the_workbook_the_csv_or_the_pdf(client, treasurer, fees):
    client.force_login(treasurer)
    dee = "Dee Dunn (left after event 4)"
    kept = "no: withdrew Nov 29, 2026; $50.00 kept by the club (§2.12)"
    rows = {r[0]: r for r in sheet_rows(workbook(client, 2026, 11), "Member fees")}
    # Charged $410, paid $460: nothing unpaid, no credit; the $50 is the club's.
    assert rows[dee][1:6] == [410, 0, 460, 0, kept]
    assert f'{dee},410.00,0.00,460.00,0.00,"{kept}",Draft' in csv_lines(client, 2026, 11, "fees")
    text = pdf_text(client, 2026, 11)
    assert "credit $50.00" not in text
    assert "Total credits (2) credit $900.00" in text
    assert "Dee Dunn (left after event 4) Withdrew, Nov 29, 2026 $460.00 $50.00" in text


# --- 2. Totals on the Payouts and Ledger sheets; an Escrow sheet; money headings right-aligned --------------


def test_the_payouts_and_ledger_sheets_end_with_their_totals(client, treasurer, season, monkeypatch):
    from tests.standings.factories import FakeResults, seats

    people = seats(season, 10)  # and the treasurer: 11 members → $165, $100, $65 at event 1 (Aug 22)
    FakeResults(monkeypatch, season).set(1, people)
    pay(membership=people[0], day="2026-08-22", amount="110.00", actor=treasurer)
    pay(membership=people[1], day="2026-08-22", amount="610.00", actor=treasurer)
    client.force_login(treasurer)
    book = workbook(client, 2026, 8)
    payouts = sheet_rows(book, "Payouts")
    assert payouts[-1] == ["Total (3 places paid)", None, None, None, 330]
    assert [r[4] for r in payouts[:-1]] == [165, 100, 65]
    assert book["Payouts"].cell(row=5 + len(payouts) - 1, column=1).font.b
    ledger = sheet_rows(book, "Ledger")
    # Two payments, each cash in and dues out: four entries, whose total is zero (every transaction balances).
    assert [r[4] for r in ledger[:-1]] == [110, -110, 610, -610]
    assert ledger[-1] == ["Total (4 entries)", None, None, None, 0, None]
    # The CSV files stay one rectangular table of entries: no total row there.
    assert csv_lines(client, 2026, 8, "payouts")[-1] == "1,2026-08-22,3,M03 Test,65.00,Draft"


def test_the_workbook_has_the_escrow_block_and_right_aligned_money_headings(client, season, treasurer):
    """Eleven members (ten and the treasurer): one WSOP prize, $1,500 entry + $700 expenses = $2,200 to
    escrow (SPEC §5), moved from checking on Sep 1."""
    for _ in range(10):
        MembershipFactory(season=season)
    opening_balance(code=Account.CHECKING, amount="2200.00", day="2026-09-01", actor=treasurer)
    wsop_escrow_move(season=season, date=dt.date(2026, 9, 1), actor=treasurer)
    client.force_login(treasurer)
    book = workbook(client, 2026, 9)
    assert book.sheetnames == [
        "Accounts",
        "Income and expenses",
        "Escrow",
        "Member fees",
        "Payouts",
        "Ledger",
    ]
    escrow = sheet_rows(book, "Escrow")
    assert escrow == [
        ["Escrow balance at Sep 30, 2026", 2200],
        ["Season allocation: 1 prize(s), entries + expenses", 2200],
        ["Moved to escrow", dt.datetime(2026, 9, 1)],
    ]
    headings = {
        sheet: {c.value: c.alignment.horizontal for c in book[sheet][4]}
        for sheet in ("Accounts", "Member fees", "Escrow", "Ledger")
    }
    assert headings["Accounts"]["Account"] is None
    assert {headings["Accounts"][h] for h in ("Opening", "Money in", "Money out", "Closing")} == {"right"}
    assert headings["Member fees"]["Member"] is None and headings["Member fees"]["Good standing"] is None
    assert {headings["Member fees"][h] for h in ("Dues and fees", "Late fees", "Paid", "Balance")} == {
        "right"
    }
    assert headings["Escrow"] == {"WSOP escrow": None, "Amount or date": "right"}
    assert headings["Ledger"]["Amount"] == "right" and headings["Ledger"]["Memo"] is None


# --- 3. The books' first month counts its opening balances once --------------------------------------------


def test_the_first_months_check_line_counts_the_opening_balances_once(client, season, treasurer, today):
    """The books start on Aug 1 with $849.55 in the cash box and $4,000 in checking: August's opening is
    $4,849.55, and they are not added again as "opening balances". Ann pays $110 on Aug 22."""
    opening_balance_record(code=Account.CASH, date=dt.date(2026, 8, 1), amount=D("849.55"), actor=treasurer)
    opening_balance_record(
        code=Account.CHECKING, date=dt.date(2026, 8, 1), amount=D("4000.00"), actor=treasurer
    )
    ann = MembershipFactory(season=season, person__first_name="Ann", person__last_name="Able")
    pay(membership=ann, day="2026-08-22", amount="110.00", actor=treasurer)
    line = "opening $4,849.55 + income $110.00 − expenses $0.00 = closing $4,959.55"
    check = monthly_report(year=2026, month=8, today=today).accounts_check
    assert check.text == line and check.adds_up and check.corrections == D("0.00")

    client.force_login(treasurer)
    assert (
        f"Check:</strong> {line}." in client.get(reverse("finance:report", args=(2026, 8))).content.decode()
    )
    assert csv_lines(client, 2026, 8, "accounts")[-1] == f'"Check: {line}",,,,,,,Draft'
    accounts = sheet_rows(workbook(client, 2026, 8), "Accounts")
    assert accounts[-2] == ["Total", 4849.55, 110, 0, 0, 0, 4959.55]
    assert accounts[-1] == [f"Check: {line}", None, None, None, None, None, None]
    assert f"Check: {line}." in pdf_text(client, 2026, 8)


def test_a_first_month_no_season_covers_shows_its_opening_balances_as_its_opening_only(treasurer, today):
    opening_balance_record(code=Account.CASH, date=dt.date(2026, 7, 31), amount=D("849.55"), actor=treasurer)
    opening_balance_record(
        code=Account.CHECKING, date=dt.date(2026, 7, 31), amount=D("4000.00"), actor=treasurer
    )
    check = monthly_report(year=2026, month=7, today=today).accounts_check
    assert check.text == "opening $4,849.55 + money in $0.00 − money out $0.00 = closing $4,849.55"


# --- 4. A reversal reads the same in the table and the check line ------------------------------------------


def test_a_payment_booked_and_reversed_in_the_month_is_no_money_in_nor_income(
    client, season, treasurer, today
):
    """Nov 14: Ann's $110 in cash is recorded, and reversed on Nov 20 (entered by mistake); Bob pays $100 in
    cash. The cash box took in $100 in the month and that is the month's income: the table and the check
    line say the same $100 (not money in $210 and money out $110 against income $100)."""
    ann = MembershipFactory(season=season, person__first_name="Ann", person__last_name="Able")
    bob = MembershipFactory(season=season, person__first_name="Bob", person__last_name="Baker")
    wrong = pay(membership=ann, day="2026-11-14", amount="110.00", actor=treasurer)
    payment_reverse(payment=wrong, date=dt.date(2026, 11, 20), reason="Entered by mistake", actor=treasurer)
    pay(membership=bob, day="2026-11-14", amount="100.00", actor=treasurer)
    report = monthly_report(year=2026, month=11, today=today)
    cash = next(r for r in report.accounts if r.account.code == Account.CASH)
    assert (cash.opening, cash.money_in, cash.money_out, cash.closing) == (
        D("0.00"),
        D("100.00"),
        D("0.00"),
        D("100.00"),
    )
    total = report.accounts_total
    assert (total.money_in, total.money_out) == (report.income_total.month, report.expense_total.month)
    line = "opening $0.00 + income $100.00 − expenses $0.00 = closing $100.00"
    assert report.accounts_check.text == line
    client.force_login(treasurer)
    assert "Total,0.00,100.00,0.00,0.00,0.00,100.00,Draft" in csv_lines(client, 2026, 11, "accounts")
    assert "Total $0.00 $100.00 $0.00 $0.00 $0.00 $100.00" in pdf_text(client, 2026, 11)


# --- 5. A month not started names its own period --------------------------------------------------------


def test_a_future_months_page_names_its_own_period_and_says_it_has_not_started(client, treasurer, fees):
    client.force_login(treasurer)
    page = client.get(reverse("finance:report", args=(2027, 1))).content.decode()
    assert "accounts for Jan 1–31, 2027 (not started); dues as of Nov 29, 2026" in page
    assert "January 2027 has not started" in page
    assert "Jan 1–29, 2026" not in page and "(to date)" not in page and "January to date" not in page
    book = workbook(client, 2027, 1)
    assert book["Accounts"]["A2"].value == (
        "Draft: January 2027 has not started; its opening is the accounts as they stand on Nov 29, 2026. "
        "Accounts for Jan 1–31, 2027 (not started); dues as of Nov 29, 2026."
    )
    assert [c.value for c in book["Income and expenses"][4]][2] == "January"
    assert "Accounts for Jan 1–31, 2027 (not started)" in pdf_text(client, 2027, 1).replace("\n", " ")
    # The running month still reads to date.
    november = client.get(reverse("finance:report", args=(2026, 11))).content.decode()
    assert "accounts for Nov 1–29, 2026 (to date)" in november


# --- 6. One paid-ahead figure ----------------------------------------------------------------------------


def test_the_report_has_one_paid_ahead_figure_the_members_credits(client, treasurer, fees):
    """Bob's $610 paid event 1 ($110), the four later installments ($400) and $100 beyond the season's dues;
    Cy's $1,110 the same and $600 beyond. Once the income showed that $700 as "Paid ahead (credit on account)"
    while the Paid ahead table said $900 (Bob $200 + Cy $700, what they paid beyond their charges to Nov 29).
    The table is the figure §3.6.3's outstanding fees need; the income counts all of it as dues."""
    report = monthly_report(year=2026, month=11, today=NOV_29)
    income = {r.label: r.season for r in report.income}
    # Season dues: Ann 100, Bob 600, Cy 1,100, Dee 450 less the $50 she forfeited on leaving (Nov 29), Eve 100.
    assert income == {
        "Admin fees": D("50.00"),
        "Dues": D("2300.00"),
        "Late fees": D("0.00"),
        "Forfeited by members who left (§2.12)": D("50.00"),
    }
    assert report.income_total.season == D("2400.00")  # 110 + 610 + 1,110 + 460 + 110
    assert report.credit_total == D("900.00")
    client.force_login(treasurer)
    page = client.get(reverse("finance:report", args=(2026, 11))).content.decode()
    assert "credit on account" not in page and "$700.00" in page
    assert page.count('<h3 class="h6">Paid ahead</h3>') == 1
    categories = "\n".join(csv_lines(client, 2026, 11, "categories"))
    assert "ahead" not in categories.lower()


# --- Closed months keep their record ---------------------------------------------------------------------


def test_a_closed_months_workbook_has_the_new_totals_from_its_kept_record(client, treasurer, fees):
    month_close(day=dt.date(2026, 8, 1), actor=treasurer)
    record = ClosedMonth.objects.get(month=dt.date(2026, 8, 1)).report
    assert record["format"] == 1
    assert monthly_report_for(year=2026, month=8, today=NOV_29).closed is not None
    client.force_login(treasurer)
    rows = {r[0]: r for r in sheet_rows(workbook(client, 2026, 8), "Member fees")}
    # Aug 31: each seat charged $110; the treasurer's owes $110; Bob $500, Cy $1,000, Dee $350 ahead.
    assert rows["Total owed (1 member)"][1:5] == [110, 0, 0, 110]
    assert rows["Total credits (3 members)"][1:5] == [None, None, None, -1850]
