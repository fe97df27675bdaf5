"""The money pages attacked as a hurried Treasurer or a hostile member would: odd values in hidden fields, forms
sent twice, hostile bank files, two officers at once. Each attack ends in a refusal or a page that says what
happened, never a 500, a payment booked twice or a wrong amount.

The clock stands at Nov 29, 2026 (the ``today`` fixture); event 5 is on Dec 12, where ann owes $100 to play
(``club`` of test_payment_entry)."""

import datetime as dt
import io
import threading
import time
from decimal import Decimal

import openpyxl
import pytest
import time_machine
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection, connections, transaction  # noqa: F401 - connection: the PostgreSQL-only marks
from django.urls import reverse

from events.models import Event
from finance.models import (
    Account,
    BankImport,
    BankLine,
    BankReconciliation,
    BankStatement,
    Disbursement,
    Payment,
    PayoutCorrectionProposal,
    Transaction,
)
from finance.services.checks import disbursement_create, disbursement_void
from finance.services.door import door_payment_record
from finance.services.ledger import EntryLine, transaction_post
from finance.services.reconciliation import ofx_read
from ncpc.core.errors import NcpcError
from tests.factories import MembershipFactory, PersonFactory, once
from tests.finance import test_correction_approval, test_payment_entry, test_reconciliation
from tests.finance.factories import opening_balance, pay

pytestmark = pytest.mark.django_db
club = test_payment_entry.club  # the fixture: ann owes $100 to play on Dec 12, cal $510


# --- the door list ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("back", ["abc", "-1", "1e30", "999999", "😀", "0001-01-01"])
def test_a_door_tap_whose_next_is_not_a_path_books_once_and_goes_back_to_the_list(
    client, club, season, treasurer, back
):
    client.force_login(treasurer)
    url = reverse("finance:door_list", args=[season.name, 5])
    answer = client.post(
        url, {"membership": club["ann"].pk, "amount": "100.00", "once": once(), "next": back}
    )
    assert answer.status_code == 302 and answer.url == url
    tonight = Payment.objects.get(membership=club["ann"], reference="door, event 5")
    assert tonight.amount == Decimal("100.00")


def test_a_door_tap_may_still_go_back_to_a_page_of_this_site(client, club, season, treasurer):
    client.force_login(treasurer)
    url = reverse("finance:door_list", args=[season.name, 5])
    console = f"/events/{season.name}/5/console/"
    answer = client.post(
        url, {"membership": club["ann"].pk, "amount": "100.00", "once": once(), "next": console}
    )
    assert answer.status_code == 302 and answer.url == console
    away = client.post(
        url,
        {"membership": club["cal"].pk, "amount": "510.00", "once": once(), "next": "https://evil.example/"},
    )
    assert away.status_code == 302 and away.url == url


# --- the bank's file (SPEC §17.4) ---------------------------------------------------------------------------------

OFX_NOVEMBER = test_reconciliation.OFX_NOVEMBER
november, december = test_reconciliation.november, test_reconciliation.december  # the fixtures: Dec 5, 2026


def bank_file_sent(client, treasurer, data: bytes, name: str = "november.ofx"):
    """The Treasurer sends the file on November's reconciliation page; the messages it left, as shown."""
    client.force_login(treasurer)
    url = reverse("finance:reconcile_import", args=["checking", 2026, 11])
    upload = SimpleUploadedFile(name, data, content_type="application/octet-stream")
    columns = {
        "date_column": "Posted",
        "amount_column": "Amount",
        "description_column": "Description",
        "date_format": "%m/%d/%Y",
    }
    answer = client.post(url, {"file": upload, "once": once(), **columns}, follow=True)
    assert answer.redirect_chain == [("/finance/bank/checking/2026/11/", 302)]
    return [str(m) for m in answer.context["messages"]]


@pytest.mark.parametrize(
    ("amount", "shown"),
    [
        (b"1E30", "1E+30"),
        (b"NaN", "NaN"),
        (b"Infinity", "Infinity"),
        (b"99999999999999999999.00", "99999999999999999999.00"),
        (b"-10000000000.00", "-10000000000.00"),
    ],
)
def test_an_ofx_line_no_amount_of_money_can_be_is_refused_and_nothing_is_imported(
    client, november, amount, shown
):
    data = OFX_NOVEMBER.replace(b"<TRNAMT>410.00", b"<TRNAMT>" + amount)
    shown_messages = bank_file_sent(client, november, data)
    assert shown_messages == [f"The line '20261105-1': '{shown}' is not an amount of money."]
    assert not BankImport.objects.exists() and not BankLine.objects.exists()


def test_an_ofx_closing_balance_beyond_what_the_books_hold_is_refused_and_nothing_is_kept(client, november):
    data = OFX_NOVEMBER.replace(b"<BALAMT>1290.00", b"<BALAMT>99999999999999999999.00")
    shown = bank_file_sent(client, november, data)
    assert shown == ["The closing balance: '99999999999999999999.00' is not an amount of money."]
    assert not BankReconciliation.objects.exists() and not BankLine.objects.exists()
    # The page still opens, with no statement balance entered.
    assert client.get("/finance/bank/checking/2026/11/").status_code == 200


def test_the_largest_amount_the_books_hold_is_still_read_from_the_bank_file():
    data = OFX_NOVEMBER.replace(b"<TRNAMT>410.00", b"<TRNAMT>-9999999999.99")
    assert ofx_read(data=data).rows[0].amount == Decimal("-9999999999.99")


def test_two_different_ofx_lines_under_one_bank_id_are_refused_the_same_line_twice_is_kept_once(
    client, november
):
    different = OFX_NOVEMBER.replace(b"<FITID>20261120-1", b"<FITID>20261105-1")
    assert bank_file_sent(client, november, different) == [
        "The file gives two different lines the same bank id '20261105-1'; download the month's transactions "
        "from the bank again."
    ]
    assert not BankLine.objects.exists()
    line = b"<STMTTRN><TRNTYPE>DEP<DTPOSTED>20261105<TRNAMT>410.00<FITID>20261105-1<NAME>DEPOSIT</STMTTRN>\n"
    twice = OFX_NOVEMBER.replace(line, line + line)
    assert twice.count(line) == 2
    assert bank_file_sent(client, november, twice) == ["Imported november.ofx: 2 new lines, 2 matched."]
    assert sorted(BankLine.objects.values_list("amount", flat=True)) == [
        Decimal("-120.00"),
        Decimal("410.00"),
    ]


@pytest.mark.parametrize(
    ("row", "message"),
    [
        (
            '11/05/2026,"' + "x" * 200_000 + '",410.00\n',
            "This is not a CSV file the app can read (field larger than field limit (131072)).",
        ),
        (
            "11/05/2026,x,99999999999999999999.00\n",
            "Line 2: '99999999999999999999.00' is not an amount of money.",
        ),
    ],
)
def test_a_hostile_csv_bank_file_is_refused_with_a_sentence(client, november, row, message):
    data = ("Posted,Description,Amount\n" + row).encode()
    assert bank_file_sent(client, november, data, name="november.csv") == [message]
    assert not BankLine.objects.exists()


def test_a_statement_balance_above_the_seasons_money_limit_is_what_the_bank_says_and_is_kept(
    client, november
):
    """The money limit ($10,000 by default) guards one amount the club moves; a statement's closing balance
    is what the account holds (twenty members' dues are $10,000 alone)."""
    client.force_login(november)
    url = reverse("finance:reconcile_balance", args=["checking", 2026, 11])
    answer = client.post(url, {"balance": "$12,345.67"}, follow=True)
    assert [str(m) for m in answer.context["messages"]] == ["The statement's closing balance is $12,345.67."]
    assert BankReconciliation.objects.get().statement_balance == Decimal("12345.67")
    beyond = client.post(url, {"balance": "10000000000.00"}, follow=True)
    (refused,) = [str(m) for m in beyond.context["messages"]]
    assert refused.startswith("Closing balance on the statement: $10,000,000,000.00 is more than")
    assert BankReconciliation.objects.get().statement_balance == Decimal("12345.67")


# --- the bank statements (SPEC §17.3) -----------------------------------------------------------------------------


@pytest.mark.parametrize("month", ["0001-01", "1999-12"])
def test_a_statement_of_a_month_before_the_reports_start_is_refused_on_its_month(
    client, settings, tmp_path, december, treasurer, month
):
    """The month pages and reconciliations start in January 2000: a statement kept before it had a link to a page
    that does not exist (404), from the statements list and the page the form went back to."""
    settings.MEDIA_ROOT = tmp_path / "media"
    opening_balance(amount="1000.00", day="2026-11-01")
    client.force_login(treasurer)
    upload = SimpleUploadedFile("old.pdf", b"%PDF-1.4\n%%EOF\n", content_type="application/pdf")
    answer = client.post(
        reverse("finance:bank_statements"),
        {"account": "checking", "month": month, "file": upload, "reason": "", "once": once()},
    )
    assert answer.status_code == 200
    assert answer.context["form"].errors == {
        "month": ["Statements are kept from January 2000 on (the reports start there)."]
    }
    assert not BankStatement.objects.exists()


# --- the checks list ----------------------------------------------------------------------------------------------


def test_a_long_unbroken_payee_purpose_or_void_reason_wraps_in_its_cell_of_the_checks_list(
    client, season, treasurer, president
):
    """A payee of 120 letters with no space (the form allows it), its purpose and a void reason of 500 pushed the
    checks table to 4,579 px on a 1,280 px screen: the amounts, approvals and buttons were off the page. Each of
    those cells may break a word (Bootstrap's ``text-break``); measured in Chromium, the page is 1,280 px again."""
    opening_balance(amount="1000.00", day="2026-11-01")
    check = disbursement_create(
        date=dt.date(2026, 11, 29),
        payee="P" * 120,
        amount=Decimal("999.99"),
        memo="M" * 200,
        from_code=Account.CHECKING,
        to_code=Account.SUPPLIES,
        check_number="7" * 20,
        signers=(treasurer.person, president.person),
        actor=treasurer,
        on=dt.date(2026, 11, 29),
    ).record
    disbursement_void(disbursement=check, reason="V" * 500, actor=treasurer)
    client.force_login(treasurer)
    page = client.get(reverse("finance:checks")).content.decode()
    assert f'<td class="text-break" data-label="Payee"><span>{"P" * 120} ' in page
    assert f'<td class="small text-break" data-label="Purpose"><div>{"M" * 200}<div' in page
    assert f'<div class="small text-break" data-void-reason>2026-11-29 by treas: {"V" * 500}</div>' in page


def test_a_long_unbroken_payment_reference_wraps_in_the_payments_list_and_the_members_statement(
    client, club, treasurer
):
    """A reference of 80 characters with no space (the form allows it) took the payments list to 1,614 px and
    the statement to 1,409 px on a 1,280 px screen; those cells may break a word now."""
    reference = "R" * 80
    pay(membership=club["ann"], day="2026-11-29", amount="100.00", method="check", reference=reference)
    client.force_login(treasurer)
    listed = client.get(reverse("finance:payments")).content.decode()
    assert (
        f'<td class="text-break" data-label="Method"><span>Check <small class="text-muted">{reference}</small>'
        in listed
    )
    statement = client.get(reverse("finance:statement", args=[club["ann"].pk])).content.decode()
    (cell,) = [line for line in statement.splitlines() if reference in line]
    assert '<td class="text-break">' in cell


# --- two officers at once (PostgreSQL) --------------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif("connection.vendor != 'postgresql'", reason="parallel transactions need PostgreSQL")
def test_two_phones_tapping_the_same_member_at_the_door_book_the_hundred_dollars_once(season, treasurer):
    """Two officers' phones, each with its own list (two one-time keys), tap Dan's $100 at the same moment:
    the second waits for the first's row lock, then finds nothing more to pay. One payment of exactly $100."""
    seat = MembershipFactory(
        season=season, person=PersonFactory(key="dan", first_name="Dan", last_name="Door")
    )
    pay(membership=seat, day="2026-08-22", amount="410.00", actor=treasurer)
    event = Event.objects.get(season=season, number=5)
    holds, may_commit = threading.Event(), threading.Event()
    outcomes: dict[str, str] = {}

    def tap(name: str, *, first: bool) -> None:
        try:
            with time_machine.travel(dt.datetime(2026, 12, 12, 20, 0, tzinfo=dt.UTC), tick=False):
                if not first:
                    holds.wait(10)
                with transaction.atomic():
                    booked = door_payment_record(
                        event=event,
                        membership=seat,
                        expected=Decimal("100.00"),
                        on=dt.date(2026, 12, 12),
                        actor=treasurer,
                        once=once(),
                    )
                    if first:
                        holds.set()
                        may_commit.wait(10)
                outcomes[name] = f"paid {booked.record.amount}"
        except NcpcError as exc:
            outcomes[name] = str(exc)
        finally:
            connections.close_all()

    threads = [
        threading.Thread(target=tap, args=("first",), kwargs={"first": True}),
        threading.Thread(target=tap, args=("second",), kwargs={"first": False}),
    ]
    for t in threads:
        t.start()
    holds.wait(10)
    time.sleep(0.5)
    assert "second" not in outcomes  # it waits on the member's row
    may_commit.set()
    for t in threads:
        t.join(20)
    assert outcomes == {
        "first": "paid 100.00",
        "second": "Dan Door has nothing more to pay to play on Dec 12.",
    }
    tonight = Payment.objects.filter(membership=seat, date=dt.date(2026, 12, 12))
    assert list(tonight.values_list("amount", flat=True)) == [Decimal("100.00")]


def test_an_ofx_file_of_a_month_with_no_line_keeps_its_closing_balance(client, november):
    """A bank's file for a quiet month has no transaction list at all, only its balance (it was a server error)."""
    start = OFX_NOVEMBER.index(b"<BANKTRANLIST>")
    end = OFX_NOVEMBER.index(b"</BANKTRANLIST>") + len(b"</BANKTRANLIST>")
    quiet = OFX_NOVEMBER[:start] + OFX_NOVEMBER[end:]
    assert bank_file_sent(client, november, quiet) == ["Imported november.ofx: 0 new lines, 0 matched."]
    assert not BankLine.objects.exists()
    assert BankReconciliation.objects.get().statement_balance == Decimal("1290.00")


def test_an_investment_accounts_ofx_file_is_refused_with_a_sentence(client, november):
    investments = (
        OFX_NOVEMBER.split(b"<BANKMSGSRSV1>")[0]
        + b"<INVSTMTMSGSRSV1><INVSTMTTRNRS><TRNUID>1<STATUS><CODE>0<SEVERITY>INFO</STATUS><INVSTMTRS>"
        b"<DTASOF>20261130<CURDEF>USD<INVACCTFROM><BROKERID>b<ACCTID>1</INVACCTFROM><INVTRANLIST>"
        b"<DTSTART>20261101<DTEND>20261130<BUYSTOCK><INVBUY><INVTRAN><FITID>y<DTTRADE>20261105</INVTRAN>"
        b"<SECID><UNIQUEID>123456789<UNIQUEIDTYPE>CUSIP</SECID><UNITS>1<UNITPRICE>1<TOTAL>-1<SUBACCTSEC>CASH"
        b"<SUBACCTFUND>CASH</INVBUY><BUYTYPE>BUY</BUYSTOCK></INVTRANLIST></INVSTMTRS></INVSTMTTRNRS>"
        b"</INVSTMTMSGSRSV1></OFX>\n"
    )
    assert bank_file_sent(client, november, investments) == [
        "The file is an investment account's statement, not a bank account's: download the bank account's "
        "transactions as OFX, QFX or CSV."
    ]
    assert not BankImport.objects.exists()


# --- control characters and direction controls in the money forms' words ------------------------------------------


@pytest.mark.parametrize(
    ("url_name", "field", "value"),
    [
        ("finance:transfer", "memo", "Deposit\x07"),
        ("finance:checks", "payee", "\u202eCard shop"),
        ("finance:checks", "memo", "Cards\x1b[2J"),
        ("finance:payments", "reference", "Chk\x0b1043"),
    ],
)
def test_a_money_forms_words_with_a_control_character_or_direction_control_are_refused_on_their_field(
    client, club, season, treasurer, president, url_name, field, value
):
    """A control character in a memo made the month's workbook a server error for every reader (openpyxl
    refuses it), the closed month's kept report included; a right-to-left override turned round every line of the
    ledger shown after it. Each is refused on its field, with the reason, and nothing is booked."""
    opening_balance(amount="1000.00", day="2026-11-01")
    opening_balance(code=Account.CASH, amount="100.00", day="2026-11-01")
    client.force_login(treasurer)
    data = {
        "finance:transfer": {
            "date": "2026-11-29",
            "from_account": "cash_box",
            "to_account": "checking",
            "amount": "10.00",
            "memo": "Deposit",
        },
        "finance:checks": {
            "date": "2026-11-29",
            "check_number": "1043",
            "payee": "Card shop",
            "amount": "20.00",
            "memo": "Cards",
            "from_account": "checking",
            "to_account": "supplies",
            "signer_1": treasurer.person.pk,
            "signer_2": president.person.pk,
        },
        "finance:payments": {
            "membership": club["cal"].pk,
            "date": "2026-11-29",
            "amount": "100.00",
            "method": "check",
            "reference": "1043",
        },
    }[url_name]
    transactions, checks, payments = (
        Transaction.objects.count(),
        Disbursement.objects.count(),
        Payment.objects.count(),
    )
    answer = client.post(reverse(url_name), {**data, field: value, "once": once()})
    assert answer.status_code == 200
    (problem,) = answer.context["form"].errors[field]
    assert problem.startswith(
        ("This holds a control character (code ", "This holds a direction control (code U+202E)")
    )
    assert (Transaction.objects.count(), Disbursement.objects.count(), Payment.objects.count()) == (
        transactions,
        checks,
        payments,
    )


def test_the_months_workbook_leaves_out_a_control_character_kept_in_a_memo(client, season, treasurer):
    """A memo kept before the forms refused them (or from an import) no longer makes the workbook a 500."""
    opening_balance(amount="1000.00", day="2026-11-01")
    transaction_post(
        date=dt.date(2026, 11, 20),
        kind=Transaction.Kind.TRANSFER,
        memo="=Deposit\x07 bell",
        lines=[EntryLine(Account.CASH, Decimal("5.00")), EntryLine(Account.CHECKING, Decimal("-5.00"))],
        actor=treasurer,
    )
    client.force_login(treasurer)
    answer = client.get(reverse("finance:report", args=[2026, 11]), {"format": "xlsx"})
    assert answer.status_code == 200
    ledger = openpyxl.load_workbook(io.BytesIO(answer.content))["Ledger"]
    memos = [row[5] for row in ledger.iter_rows(values_only=True) if row[5] and "bell" in str(row[5])]
    assert memos == ["=Deposit bell", "=Deposit bell"]  # text, not a formula: its cells are strings
    cells = [row[5] for row in ledger.iter_rows() if row[5].value and "bell" in str(row[5].value)]
    assert {c.data_type for c in cells} == {"s"}


def test_a_bank_files_words_keep_no_nul_control_character_or_direction_control(client, november):
    """PostgreSQL refuses a NUL in a text column (the import was a server error there); a right-to-left override
    in the bank's words turned round the lines of the reconciliation after it."""
    data = OFX_NOVEMBER.replace(b"<NAME>DEPOSIT", b"<NAME>DEP\x00OS\x07IT")
    assert bank_file_sent(client, november, data) == ["Imported november.ofx: 2 new lines, 2 matched."]
    assert sorted(BankLine.objects.values_list("description", flat=True)) == ["CHECK 1043", "DEPOSIT"]
    csv_file = "Posted,Description,Amount\n11/21/2026,\u202eSERVICE FEE,-3.00\n".encode()
    assert bank_file_sent(client, november, csv_file, name="fees.csv") == [
        "Imported fees.csv: 1 new lines, 0 matched."
    ]
    assert BankLine.objects.get(amount=Decimal("-3.00")).description == "SERVICE FEE"


proposed = test_correction_approval.proposed  # the fixture: event 3's payout correction, proposed on Dec 5


def test_a_payout_corrections_void_reason_with_a_direction_control_is_refused_and_it_stays_pending(
    proposed, treasurer, client
):
    """The void of a payout correction takes its reason from the request as typed (no form): the command
    refuses what the money forms refuse, and the reason is e-mailed to the officers."""
    _, _, proposal = proposed
    client.force_login(treasurer)
    url = reverse("finance:payout_correction_void", args=(proposal.pk,))
    page = client.post(url, {"reason": "Paid \u202eby check"}, follow=True)
    assert [str(m) for m in page.context["messages"]] == [
        "This holds a direction control (code U+202E) that would turn round the text shown after it: write it "
        "without."
    ]
    proposal.refresh_from_db()
    assert proposal.status == PayoutCorrectionProposal.Status.PENDING
