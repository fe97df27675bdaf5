"""The books against the bank (SPEC §17.4, issue 45 item 4): the bank's OFX/QFX or CSV file of a month, each
line matched to a posting of the account (same amount, the check number where there is one, dates at most 5
days apart), the rest listed on both sides and matched by hand; the month closes only when the statement's
closing balance equals the books' balance less the items not yet cleared, or the difference is recorded with
a reason. A payment's check number (from its form or its import) is kept so a deposited check matches.

November 2026, club checking (the club's date is Dec 5, 2026: November is over):
  Nov 1   opening balance                 +1,000.00  (the statement's balance: never outstanding)
  Nov 3   Bob's check #5521 paid in          +410.00  bank: deposit Nov 5            → matched (2 days)
  Nov 6   check #1043 to the card shop       −120.00  bank: check 1043 on Nov 20     → matched (its number)
  Nov 20  check #1044 to the card shop        −75.00  not in the bank                → check outstanding
  Nov 29  Ann's check paid in                  +95.00  not in the bank                → deposit in transit
Books at Nov 30: $1,310.00; less $95.00 in transit, plus $75.00 outstanding: $1,290.00, the statement's
closing balance."""

import datetime as dt
from decimal import Decimal as D
from pathlib import Path

import pytest
import time_machine

from finance.models import Account, BankImport, BankLine, BankReconciliation, Payment
from finance.services.checks import disbursement_approve, disbursement_create
from finance.services.ledger import LedgerError, account_get
from finance.services.month_closing import month_close
from finance.services.payments_import import PaymentLine, payments_record_many
from finance.services.reconciliation import (
    BankFileError,
    CsvColumns,
    LineToMatch,
    Posting,
    ReconciliationError,
    bank_file_import,
    bank_line_match,
    bank_line_unmatch,
    bank_matches,
    check_number_from,
    csv_read,
    difference_record,
    ofx_read,
    posting_fits,
    reconciliation_read,
    statement_balance_record,
)
from ncpc.core.models import AuditEntry
from tests.factories import MembershipFactory, once
from tests.finance.factories import opening_balance, pay

pytestmark = pytest.mark.django_db
NOV = dt.date(2026, 11, 1)
DEC_5 = dt.datetime(2026, 12, 5, 17, 0, tzinfo=dt.UTC)
OFX_NOVEMBER = (Path(__file__).parent / "november.ofx").read_bytes()


# --- pure: check numbers, the matching rule, the files ---


@pytest.mark.parametrize(
    ("text", "number"),
    [
        ("1043", "1043"),
        ("#1043", "1043"),
        ("Chk #1043", "1043"),
        ("chk#1043", "1043"),
        ("Check no. 1043", "1043"),
        ("CHECK NUMBER 1043", "1043"),
        ("ck 0042", "42"),
        ("Venmo", ""),
        ("receipt 12 of 20", ""),
        ("", ""),
    ],
)
def test_a_check_number_is_read_from_a_reference_as_people_write_it(text, number):
    assert check_number_from(text) == number


def line(day: int, amount: str, check: str = "", key: int = 1) -> LineToMatch:
    return LineToMatch(key=key, date=dt.date(2026, 11, day), amount=D(amount), check_number=check)


def posting(day: int, amount: str, check: str = "", entry: int = 10) -> Posting:
    return Posting(entry_id=entry, date=dt.date(2026, 11, day), amount=D(amount), check_number=check)


@pytest.mark.parametrize(
    ("bank", "books", "fits"),
    [
        (line(10, "410.00"), posting(5, "410.00"), True),  # 5 days apart
        (line(11, "410.00"), posting(5, "410.00"), False),  # 6 days apart
        (line(1, "410.00"), posting(6, "410.00"), True),  # 5 days before
        (line(10, "410.00"), posting(10, "410.01"), False),  # another amount
        (
            line(26, "-120.00", "1043"),
            posting(6, "-120.00", "1043"),
            True,
        ),  # the check's number: 20 days later
        (
            line(1, "-120.00", "1043"),
            posting(7, "-120.00", "1043"),
            False,
        ),  # cleared 6 days before it was written
        (line(8, "-120.00", "1043"), posting(6, "-120.00", "1044"), False),  # another check's number
        (line(8, "-120.00", "1043"), posting(6, "-120.00"), True),  # the posting has none: amount and dates
    ],
)
def test_a_bank_line_fits_a_posting_of_the_same_amount_check_number_and_dates_within_five_days(
    bank, books, fits
):
    assert posting_fits(line=bank, posting=books) is fits


def test_each_posting_matches_one_line_the_check_number_first_then_the_nearest_date():
    lines = [line(10, "-50.00", key=1), line(12, "-50.00", "2001", key=2), line(14, "-50.00", key=3)]
    postings = [
        posting(9, "-50.00", entry=100),
        posting(12, "-50.00", "2001", entry=101),
        posting(13, "-50.00", entry=102),
    ]
    assert bank_matches(lines=lines, postings=postings) == {2: 101, 1: 100, 3: 102}
    # Two equal postings, one bank line: the nearest date.
    assert bank_matches(
        lines=[line(10, "95.00")], postings=[posting(6, "95.00", entry=1), posting(9, "95.00", entry=2)]
    ) == {1: 2}


def test_an_ofx_file_gives_its_lines_and_the_statements_closing_balance():
    bank = ofx_read(data=OFX_NOVEMBER)
    assert [(r.date, r.amount, r.check_number, r.bank_id) for r in bank.rows] == [
        (dt.date(2026, 11, 5), D("410.00"), "", "ofx:20261105-1"),
        (dt.date(2026, 11, 20), D("-120.00"), "1043", "ofx:20261120-1"),
    ]
    assert bank.rows[1].description == "CHECK 1043"
    assert (bank.closing_balance, bank.closing_date) == (D("1290.00"), dt.date(2026, 11, 30))


def test_a_file_that_is_not_ofx_is_refused_with_a_sentence_not_an_error_page():
    with pytest.raises(BankFileError, match="not an OFX or QFX file"):
        ofx_read(data=b"OFXHEADER:100\n<OFX><garbage")


COLUMNS = CsvColumns(date="Posted", amount="Amount", description="Description", check_number="Check #")


def test_a_csv_file_is_read_through_its_mapped_columns():
    data = (
        "\ufeffPosted,Description,Check #,Amount\n"
        "11/05/2026,DEPOSIT,,410.00\n"
        "11/20/2026,CHECK,1043,(120.00)\n"
        "11/21/2026,SERVICE FEE,,-3.00\n"
        "11/21/2026,SERVICE FEE,,-3.00\n"
        ",,,\n"
    ).encode()
    bank = csv_read(data=data, columns=COLUMNS)
    assert [(r.date, r.amount, r.check_number, r.description) for r in bank.rows] == [
        (dt.date(2026, 11, 5), D("410.00"), "", "DEPOSIT"),
        (dt.date(2026, 11, 20), D("-120.00"), "1043", "CHECK"),
        (dt.date(2026, 11, 21), D("-3.00"), "", "SERVICE FEE"),
        (dt.date(2026, 11, 21), D("-3.00"), "", "SERVICE FEE"),
    ]
    # Two equal rows are two lines, each with its own id; the same file read again gives the same ids.
    assert len({r.bank_id for r in bank.rows}) == 4
    assert [r.bank_id for r in csv_read(data=data, columns=COLUMNS).rows] == [r.bank_id for r in bank.rows]


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"Date,Amount\n11/05/2026,410.00\n", "no column 'Posted' for the date"),
        (b"Posted,Amount,Description,Check #\n2026-11-05,410.00,,\n", "Line 2: '2026-11-05' is not a date"),
        (b"Posted,Amount,Description,Check #\n11/05/2026,4x0,,\n", "Line 2: '4x0' is not an amount"),
    ],
)
def test_a_csv_file_that_does_not_fit_its_columns_says_which_line_and_why(data, message):
    with pytest.raises(BankFileError, match=message):
        csv_read(data=data, columns=COLUMNS)


# --- the month against the bank ---


@pytest.fixture
def december(today):
    with time_machine.travel(DEC_5, tick=False):
        yield dt.date(2026, 12, 5)


def check_issued(*, number: str, amount: str, day: dt.date, officers) -> None:
    treasurer, president, vice_president = officers
    check = disbursement_create(
        date=day,
        payee="Card shop",
        amount=D(amount),
        memo="Cards",
        from_code=Account.CHECKING,
        to_code=Account.SUPPLIES,
        check_number=number,
        signers=(treasurer.person, president.person),
        actor=treasurer,
        on=day,
    ).record
    disbursement_approve(disbursement=check, actor=president, on=day)
    disbursement_approve(disbursement=check, actor=vice_president, on=day)


@pytest.fixture
def november(season, treasurer, president, vice_president, december):
    opening_balance(amount="1000.00", day="2026-11-01")
    bob = MembershipFactory(season=season, person__first_name="Bob", person__last_name="Baker")
    ann = MembershipFactory(season=season, person__first_name="Ann", person__last_name="Able")
    pay(
        membership=bob,
        day="2026-11-03",
        amount="410.00",
        method="check",
        reference="Chk #5521",
        actor=treasurer,
    )
    officers = (treasurer, president, vice_president)
    check_issued(number="1043", amount="120.00", day=dt.date(2026, 11, 6), officers=officers)
    check_issued(number="1044", amount="75.00", day=dt.date(2026, 11, 20), officers=officers)
    pay(membership=ann, day="2026-11-29", amount="95.00", method="check", actor=treasurer)
    return treasurer


def ofx_import(treasurer, data=OFX_NOVEMBER, key=None):
    return bank_file_import(
        code=Account.CHECKING, month=NOV, name="november.ofx", data=data, actor=treasurer, once=key or once()
    )


def test_a_months_ofx_file_matches_the_cleared_and_lists_the_outstanding_check_and_the_deposit_in_transit(
    november,
):
    booked = ofx_import(november)
    assert (booked.record.added, booked.record.matched, booked.record.already) == (2, 2, 0)
    rec = reconciliation_read(account=account_get(Account.CHECKING), month=NOV)
    assert rec.book_balance == D("1310.00")
    assert [(i.date, i.amount, i.check_number) for i in rec.checks_outstanding] == [
        (dt.date(2026, 11, 20), D("-75.00"), "1044")
    ]
    assert [(i.date, i.amount) for i in rec.deposits_in_transit] == [(dt.date(2026, 11, 29), D("95.00"))]
    assert [(ln.amount, ln.entry.transaction.date, ln.matched) for ln in rec.matched] == [
        (D("410.00"), dt.date(2026, 11, 3), "auto"),
        (D("-120.00"), dt.date(2026, 11, 6), "auto"),
    ]
    assert rec.bank_only == ()
    assert (rec.statement_balance, rec.adjusted_balance, rec.difference, rec.state) == (
        D("1290.00"),
        D("1290.00"),
        D("0.00"),
        "reconciled",
    )
    audit = AuditEntry.objects.get(action="finance.bank.import")
    assert (
        audit.summary
        == "Imported november.ofx for Club checking, November 2026: 2 new lines, 0 seen before, 2 matched"
    )


def test_a_deposited_check_matches_by_the_check_number_its_payment_kept(november):
    # The bank lists Bob's check by its number, deposited 15 days after it was paid (too far for the dates).
    data = OFX_NOVEMBER.replace(
        b"<DTPOSTED>20261105<TRNAMT>410.00<FITID>20261105-1<NAME>DEPOSIT",
        b"<DTPOSTED>20261118<TRNAMT>410.00<FITID>20261105-1<CHECKNUM>5521<NAME>DEPOSITED ITEM",
    )
    assert ofx_import(november, data=data).record.matched == 2
    deposit = BankLine.objects.get(amount=D("410.00"))
    assert deposit.entry.transaction.payment.check_number == "5521"


def test_the_payment_keeps_the_check_number_of_its_reference_and_the_import_keeps_it_too(
    season, treasurer, today
):
    opening_balance(amount="10.00", day="2026-11-01")
    bob = MembershipFactory(season=season)
    paid = pay(
        membership=bob,
        day="2026-11-03",
        amount="410.00",
        method="check",
        reference="Chk #5521",
        actor=treasurer,
    )
    cash = pay(
        membership=bob, day="2026-11-04", amount="10.00", method="cash", reference="1043", actor=treasurer
    )
    imported = payments_record_many(
        lines=[
            PaymentLine(
                membership=bob,
                date=dt.date(2026, 11, 5),
                amount=D("20.00"),
                method="check",
                reference="ck 1050",
            ),
            PaymentLine(
                membership=bob,
                date=dt.date(2026, 11, 5),
                amount=D("30.00"),
                method="check",
                reference="Venmo",
            ),
        ],
        actor=treasurer,
        source="payments.csv",
    )
    assert [p.check_number for p in (paid, cash, *imported)] == ["5521", "", "1050", ""]


def test_the_same_file_imported_twice_adds_no_line_and_the_same_form_twice_imports_once(november):
    key = once()
    first = ofx_import(november, key=key)
    again = ofx_import(november, key=key)
    assert again.replayed and again.record.bank_import == first.record.bank_import
    second = ofx_import(november)
    assert (second.record.added, second.record.already, second.record.matched) == (0, 2, 0)
    assert BankLine.objects.count() == 2
    assert BankImport.objects.count() == 2


def test_a_line_not_in_the_books_is_matched_by_hand_and_can_be_undone(november, treasurer):
    # The bank's deposit came 9 days after the payment: too far apart to match on its own.
    data = OFX_NOVEMBER.replace(b"<DTPOSTED>20261105", b"<DTPOSTED>20261112")
    ofx_import(november, data=data)
    checking = account_get(Account.CHECKING)
    rec = reconciliation_read(account=checking, month=NOV)
    assert [(ln.date, ln.amount) for ln in rec.bank_only] == [(dt.date(2026, 11, 12), D("410.00"))]
    assert rec.in_transit_total == D("505.00")
    assert rec.difference == D("410.00")
    bob_paid = Payment.objects.get(amount=D("410.00")).transaction.entries.get(account=checking)
    bank_line_match(line_id=rec.bank_only[0].pk, entry_id=bob_paid.pk, actor=treasurer)
    rec = reconciliation_read(account=checking, month=NOV)
    assert (rec.bank_only, rec.in_transit_total, rec.difference) == ((), D("95.00"), D("0.00"))
    assert rec.matched[0].matched == "hand"
    bank_line_unmatch(line_id=rec.matched[0].pk, actor=treasurer)
    assert reconciliation_read(account=checking, month=NOV).difference == D("410.00")
    assert list(
        AuditEntry.objects.filter(action__startswith="finance.bank.")
        .values_list("action", flat=True)
        .order_by("pk")
    ) == [
        "finance.bank.import",
        "finance.bank.match",
        "finance.bank.unmatch",
    ]


def test_a_hand_match_needs_the_same_amount_and_a_posting_not_matched_already(november, treasurer):
    ofx_import(november, data=OFX_NOVEMBER.replace(b"<DTPOSTED>20261105", b"<DTPOSTED>20261112"))
    checking = account_get(Account.CHECKING)
    line_ = reconciliation_read(account=checking, month=NOV).bank_only[0]
    ann_paid = Payment.objects.get(amount=D("95.00")).transaction.entries.get(account=checking)
    with pytest.raises(ReconciliationError, match=r"The posting is \$95.00, the bank's line \$410.00"):
        bank_line_match(line_id=line_.pk, entry_id=ann_paid.pk, actor=treasurer)
    check_1043 = BankLine.objects.get(check_number="1043").entry
    with pytest.raises(ReconciliationError, match="only the same amount"):
        bank_line_match(line_id=line_.pk, entry_id=check_1043.pk, actor=treasurer)


def test_the_month_closes_only_once_reconciled(november, treasurer):
    checking = account_get(Account.CHECKING)
    ofx_import(november, data=OFX_NOVEMBER.replace(b"<BALAMT>1290.00", b"<BALAMT>1287.00"))
    assert reconciliation_read(account=checking, month=NOV).difference == D("-3.00")
    with pytest.raises(LedgerError) as refused:
        month_close(day=NOV, actor=treasurer)
    assert str(refused.value) == (
        "November 2026 cannot close yet. Club checking for November 2026 is not reconciled: the statement says "
        "$1,287.00, the books less the items not yet cleared $1,290.00 (difference −$3.00). Match the bank's "
        "lines, or record the difference with a reason."
    )
    statement_balance_record(code=Account.CHECKING, month=NOV, balance=D("1290.00"), actor=treasurer)
    assert month_close(day=NOV, actor=treasurer).month == NOV


def test_a_difference_recorded_with_a_reason_lets_the_month_close_while_it_stays_the_difference(
    november, treasurer
):
    checking = account_get(Account.CHECKING)
    ofx_import(november, data=OFX_NOVEMBER.replace(b"<BALAMT>1290.00", b"<BALAMT>1287.00"))
    with pytest.raises(ReconciliationError, match="Say why"):
        difference_record(code=Account.CHECKING, month=NOV, reason="  ", actor=treasurer)
    record = difference_record(
        code=Account.CHECKING, month=NOV, reason="Bank fee, posted in December", actor=treasurer
    )
    assert (record.difference, record.difference_reason) == (D("-3.00"), "Bank fee, posted in December")
    assert reconciliation_read(account=checking, month=NOV).state == "difference explained"
    # The statement's balance typed again differently: the recorded difference no longer explains it.
    statement_balance_record(code=Account.CHECKING, month=NOV, balance=D("1280.00"), actor=treasurer)
    with pytest.raises(LedgerError, match="difference −\\$10.00"):
        month_close(day=NOV, actor=treasurer)
    statement_balance_record(code=Account.CHECKING, month=NOV, balance=D("1287.00"), actor=treasurer)
    month_close(day=NOV, actor=treasurer)
    # Closed: the month's reconciliation no longer changes.
    with pytest.raises(ReconciliationError, match="November 2026 is closed"):
        statement_balance_record(code=Account.CHECKING, month=NOV, balance=D("1290.00"), actor=treasurer)
    with pytest.raises(ReconciliationError, match="November 2026 is closed"):
        ofx_import(november)
    assert BankReconciliation.objects.get().statement_balance == D("1287.00")


def test_a_bank_file_with_no_statement_balance_asks_for_it_before_the_month_closes(november, treasurer):
    # The bank's balance is of a day in December (the file was downloaded then): not November's closing one.
    ofx_import(november, data=OFX_NOVEMBER.replace(b"<DTASOF>20261130", b"<DTASOF>20261203"))
    with pytest.raises(LedgerError, match="enter the statement's closing balance"):
        month_close(day=NOV, actor=treasurer)


def test_a_month_with_no_statement_and_no_bank_file_closes_as_before(november, treasurer):
    assert month_close(day=NOV, actor=treasurer).month == NOV


def test_a_check_outstanding_in_november_clears_in_december(november, treasurer):
    ofx_import(november)
    statement_balance_record(code=Account.CHECKING, month=NOV, balance=D("1290.00"), actor=treasurer)
    month_close(day=NOV, actor=treasurer)
    december_ofx = (
        OFX_NOVEMBER.replace(b"20261105", b"20261202")
        .replace(b"<TRNAMT>410.00", b"<TRNAMT>95.00")
        .replace(b"20261120", b"20261203")
        .replace(
            b"<TRNAMT>-120.00<FITID>20261203-1<CHECKNUM>1043<NAME>CHECK 1043",
            b"<TRNAMT>-75.00<FITID>20261203-1<CHECKNUM>1044<NAME>CHECK 1044",
        )
        .replace(b"<DTASOF>20261130", b"<DTASOF>20261204")
        .replace(b"<BALAMT>1290.00", b"<BALAMT>1310.00")
    )
    with time_machine.travel(dt.datetime(2027, 1, 5, 17, 0, tzinfo=dt.UTC), tick=False):
        booked = bank_file_import(
            code=Account.CHECKING,
            month=dt.date(2026, 12, 1),
            name="december.ofx",
            data=december_ofx,
            actor=treasurer,
        )
        assert (booked.record.added, booked.record.matched) == (2, 2)
        rec = reconciliation_read(account=account_get(Account.CHECKING), month=dt.date(2026, 12, 1))
    assert (rec.checks_outstanding, rec.deposits_in_transit, rec.book_balance) == ((), (), D("1310.00"))
    # November's reconciliation is as it was: the check cleared in December was outstanding at its end.
    nov = reconciliation_read(account=account_get(Account.CHECKING), month=NOV)
    assert [i.amount for i in nov.checks_outstanding] == [D("-75.00")]
    assert nov.difference == D("0.00")
