"""Opening balances (issue 33 item 3, SPEC §16.6): the Treasurer records once per asset account what it held on
the day the club's books start, from the statement of that day, posted against Opening balances and audited;
nothing is dated before that day; a correction is a reversal with a reason, then the right one is recorded."""

import datetime as dt
from decimal import Decimal

import pytest
from django.urls import reverse

from finance.models import Account, OpeningBalance, Transaction
from finance.selectors.ledger import opening_balance_rows, opening_balances_done
from finance.selectors.monthly_report import monthly_report
from finance.services.ledger import (
    BeforeBooksStart,
    account_balance,
    account_get,
    books_start_day,
    transaction_reverse,
    transfer_post,
)
from finance.services.opening import (
    OpeningBalanceError,
    OpeningBalanceRecorded,
    Posted,
    opening_balance_correct,
    opening_balance_record,
    opening_date_problem,
)
from finance.services.payments import PaymentError
from finance.services.payments_import import PaymentLine, payments_record_many
from ncpc.core.models import AuditEntry
from tests.factories import MembershipFactory, once
from tests.finance.factories import pay

D = Decimal
pytestmark = pytest.mark.django_db
URL = "/finance/opening-balances/"


def day(text):
    return dt.date.fromisoformat(text)


def record(code, amount, on="2026-07-31", actor=None, **kwargs):
    return opening_balance_record(code=code, date=day(on), amount=D(amount), actor=actor, **kwargs)


def balance(code, on=None):
    return account_balance(account=account_get(code), on=on)


def report_row(year, month, code):
    report = monthly_report(year=year, month=month, today=dt.date(2026, 11, 29))
    return next(r for r in report.accounts if r.account.code == code)


def test_the_url_name_is_the_page():
    assert reverse("finance:opening_balances") == URL


# --- the command ---


def test_cash_box_and_checking_are_recorded_against_opening_balances_and_audited(treasurer):
    cash = record(Account.CASH, "320.00", actor=treasurer, note="Counted by Tom").record
    checking = record(Account.CHECKING, "3650.00", actor=treasurer).record

    assert (cash.amount, cash.date, cash.note) == (D("320.00"), day("2026-07-31"), "Counted by Tom")
    assert balance(Account.CASH) == D("320.00")
    assert balance(Account.CHECKING) == D("3650.00")
    assert balance(Account.OPENING) == D("-3970.00")
    txn = cash.transaction
    assert txn.kind == Transaction.Kind.OPENING and txn.date == day("2026-07-31")
    assert sorted((e.account.code, e.amount) for e in txn.entries.all()) == [
        (Account.CASH, D("320.00")),
        (Account.OPENING, D("-320.00")),
    ]
    assert checking.recorded_by == treasurer
    audit = AuditEntry.objects.filter(action="finance.opening_balance.record").order_by("pk")
    assert [a.target_id for a in audit] == [str(cash.pk), str(checking.pk)]
    assert audit[0].data["amount"] == "320.00"
    assert books_start_day() == day("2026-07-31")


def test_a_second_opening_balance_for_the_same_account_is_refused_naming_the_first(treasurer):
    record(Account.CASH, "320.00", actor=treasurer)
    with pytest.raises(OpeningBalanceRecorded) as refused:
        record(Account.CASH, "300.00", on="2026-08-01", actor=treasurer)
    message = str(refused.value)
    assert "Cash box has its opening balance already: $320.00 on Jul 31, 2026" in message
    assert "correct it on the opening balances page" in message
    assert balance(Account.CASH) == D("320.00")
    assert OpeningBalance.objects.count() == 1


def test_nothing_can_be_dated_before_the_books_start(season, treasurer):
    record(Account.CASH, "320.00", on="2026-08-10", actor=treasurer)
    with pytest.raises(BeforeBooksStart) as refused:
        transfer_post(
            date=day("2026-08-09"),
            from_code=Account.CASH,
            to_code=Account.CHECKING,
            amount=D("20.00"),
            memo="Deposit",
            actor=treasurer,
        )
    assert str(refused.value) == (
        "The club's books start on Aug 10, 2026 (the first opening balance): nothing can be dated before it, "
        "so not Aug 9, 2026."
    )
    seat = MembershipFactory(season=season)
    with pytest.raises(BeforeBooksStart):
        pay(membership=seat, day="2026-08-09", amount="10.00", actor=treasurer)
    with pytest.raises(PaymentError, match="books start on Aug 10, 2026"):
        payments_record_many(
            lines=[PaymentLine(membership=seat, date=day("2026-08-09"), amount=D("10.00"), method="cash")],
            actor=treasurer,
            source="x.csv",
        )
    assert balance(Account.CASH) == D("320.00")
    # On the day itself and after: fine.
    transfer_post(
        date=day("2026-08-10"),
        from_code=Account.CASH,
        to_code=Account.CHECKING,
        amount=D("20.00"),
        memo="Deposit",
        actor=treasurer,
    )
    assert balance(Account.CASH) == D("300.00")


def test_an_opening_balance_dated_after_postings_is_refused(season, treasurer):
    seat = MembershipFactory(season=season)
    pay(membership=seat, day="2026-08-05", amount="100.00", actor=treasurer)
    with pytest.raises(OpeningBalanceError) as refused:
        record(Account.CHECKING, "3650.00", on="2026-08-31", actor=treasurer)
    assert "postings dated before Aug 31, 2026" in str(refused.value)
    assert "dated no later than Aug 5, 2026" in str(refused.value)
    # The cash box took the payment: its statement of that day would count it twice.
    with pytest.raises(OpeningBalanceError, match="Cash box already has postings dated on or before Aug 5"):
        record(Account.CASH, "320.00", on="2026-08-05", actor=treasurer)
    # Checking took nothing: its balance of the payment's day may be recorded, and before it, the cash box's.
    record(Account.CHECKING, "3650.00", on="2026-08-05", actor=treasurer)
    record(Account.CASH, "320.00", on="2026-07-31", actor=treasurer)
    assert books_start_day() == day("2026-07-31")
    assert balance(Account.CASH) == D("420.00")


def test_a_statement_dated_before_the_books_start_moves_it_earlier_while_nothing_is_before_it(treasurer):
    record(Account.CHECKING, "3650.00", on="2026-07-31", actor=treasurer)
    record(Account.CASH, "320.00", on="2026-07-15", actor=treasurer)
    assert books_start_day() == day("2026-07-15")


@pytest.mark.parametrize(
    ("amount", "on", "field", "text"),
    [
        ("-1.00", "2026-07-31", "amount", "zero or more"),
        ("1.005", "2026-07-31", "amount", "in cents"),
        ("10000.01", "2026-07-31", "amount", "limit of $10,000.00"),
        ("320.00", "2026-11-30", "date", "after today"),
    ],
)
def test_a_bad_amount_or_date_is_refused_on_its_field(treasurer, amount, on, field, text):
    with pytest.raises(OpeningBalanceError if field == "amount" else Exception) as refused:
        record(Account.CASH, amount, on=on, actor=treasurer)
    assert refused.value.field == field and text in str(refused.value)
    assert not OpeningBalance.objects.exists()


def test_only_an_asset_account_has_an_opening_balance(treasurer):
    with pytest.raises(OpeningBalanceError, match="cash box, club checking or the WSOP escrow"):
        record(Account.DUES, "10.00", actor=treasurer)


def test_a_zero_balance_is_recorded_and_posts_nothing(treasurer):
    escrow = record(Account.ESCROW, "0.00", actor=treasurer).record
    assert escrow.amount == D("0.00") and escrow.transaction is None
    assert not Transaction.objects.exists()
    assert books_start_day() == day("2026-07-31")


def test_a_correction_is_a_reversal_with_a_reason_then_the_right_balance_is_recorded(treasurer, today):
    cash = record(Account.CASH, "320.00", actor=treasurer).record
    with pytest.raises(OpeningBalanceError, match="Say why"):
        opening_balance_correct(opening=cash, on=today, reason="  ", actor=treasurer)

    corrected = opening_balance_correct(opening=cash, on=today, reason="Miscounted: $302", actor=treasurer)

    assert corrected.corrected_on == today and corrected.correction_reason == "Miscounted: $302"
    reversal = corrected.reversal
    assert reversal.reverses_id == cash.transaction_id and reversal.reason == "Miscounted: $302"
    assert reversal.date == today
    assert balance(Account.CASH) == D("0.00")
    assert AuditEntry.objects.filter(
        action="finance.opening_balance.correct", reason="Miscounted: $302"
    ).exists()
    with pytest.raises(Exception, match="corrected already"):
        opening_balance_correct(opening=cash, on=today, reason="again", actor=treasurer)

    again = record(Account.CASH, "302.00", actor=treasurer).record
    assert balance(Account.CASH) == D("302.00")
    assert balance(Account.CASH, on=day("2026-08-31")) == D("622.00")  # until the reversal of Nov 29
    rows = {r.account.code: r for r in opening_balance_rows()}
    assert rows[Account.CASH].recorded == again
    assert rows[Account.CASH].corrected == [cash]


def test_the_ledger_page_does_not_reverse_an_opening_balance_but_its_correction_may_empty_the_escrow(
    treasurer, today
):
    escrow = record(Account.ESCROW, "1200.00", actor=treasurer).record
    with pytest.raises(Exception, match="correct it on the opening balances page"):
        transaction_reverse(txn=escrow.transaction, date=today, reason="wrong", actor=treasurer)
    opening_balance_correct(opening=escrow, on=today, reason="It was checking's", actor=treasurer)
    assert balance(Account.ESCROW) == D("0.00")


def test_the_same_form_sent_twice_books_once(treasurer):
    key = once()
    first = record(Account.CASH, "320.00", actor=treasurer, once=key)
    second = record(Account.CASH, "320.00", actor=treasurer, once=key)
    assert not first.replayed and second.replayed
    assert second.record == first.record
    assert OpeningBalance.objects.count() == 1
    assert Transaction.objects.count() == 1
    assert balance(Account.CASH) == D("320.00")


def test_opening_balances_done_once_every_asset_account_has_one(treasurer, today):
    assert not opening_balances_done()
    record(Account.CASH, "320.00", actor=treasurer)
    checking = record(Account.CHECKING, "3650.00", actor=treasurer).record
    assert not opening_balances_done()
    record(Account.ESCROW, "0.00", actor=treasurer)
    assert opening_balances_done()
    opening_balance_correct(opening=checking, on=today, reason="Wrong statement", actor=treasurer)
    assert not opening_balances_done()


@pytest.mark.parametrize(
    ("on", "start", "first", "first_here", "correcting", "refused"),
    [
        ("2026-07-31", None, None, None, False, None),
        ("2026-08-31", None, "2026-08-05", None, False, "postings dated before Aug 31"),
        ("2026-08-05", None, "2026-08-05", None, False, None),
        ("2026-08-05", "2026-07-31", "2026-08-05", "2026-08-05", False, "on or before Aug 5"),
        ("2026-11-29", "2026-07-31", "2026-08-05", "2026-08-05", True, None),
        ("2026-07-01", "2026-07-31", None, None, True, None),
    ],
)
def test_opening_date_problem(on, start, first, first_here, correcting, refused):
    def posted(text):
        return Posted(pk=7, date=day(text), memo="Ann paid 100.00") if text else None

    problem = opening_date_problem(
        day=day(on),
        account_name="Cash box",
        start=day(start) if start else None,
        first_posting=posted(first),
        first_account_posting=posted(first_here),
        correcting=correcting,
    )
    assert (problem is None) if refused is None else (refused in problem)


# --- the monthly report ---


def test_the_monthly_report_shows_them_as_the_first_months_opening_and_the_next_months(treasurer):
    record(Account.CASH, "320.00", actor=treasurer)
    record(Account.CHECKING, "3650.00", actor=treasurer)

    july_cash, july_checking = report_row(2026, 7, Account.CASH), report_row(2026, 7, Account.CHECKING)
    assert (july_cash.opening, july_cash.receipts, july_cash.payments, july_cash.closing) == (
        D("320.00"),
        D("0.00"),
        D("0.00"),
        D("320.00"),
    )
    assert (july_checking.opening, july_checking.receipts, july_checking.closing) == (
        D("3650.00"),
        D("0.00"),
        D("3650.00"),
    )
    assert report_row(2026, 8, Account.CASH).opening == D("320.00")
    assert report_row(2026, 8, Account.CHECKING).opening == D("3650.00")
    assert report_row(2026, 8, Account.ESCROW).opening == D("0.00")


def test_a_correction_in_a_later_month_is_that_months_money_out_and_in(treasurer, today):
    cash = record(Account.CASH, "320.00", actor=treasurer).record
    opening_balance_correct(opening=cash, on=today, reason="Miscounted", actor=treasurer)
    record(Account.CASH, "302.00", on="2026-11-29", actor=treasurer)
    november = report_row(2026, 11, Account.CASH)
    assert (november.opening, november.receipts, november.payments, november.closing) == (
        D("320.00"),
        D("302.00"),
        D("320.00"),
        D("302.00"),
    )
    assert report_row(2026, 7, Account.CASH).opening == D("320.00")


# --- the page ---


def _form(code, amount, on="2026-07-31", key=None, **extra):
    return {
        "account": code,
        f"{code}-date": on,
        f"{code}-amount": amount,
        f"{code}-note": "",
        f"{code}-once": key or once(),
        **extra,
    }


def test_the_page_asks_for_confirmation_then_books(client, treasurer):
    client.force_login(treasurer)
    page = client.get(URL)
    assert page.status_code == 200
    assert page.content.decode().count("Not recorded yet") == 3

    key = once()
    asked = client.post(URL, _form(Account.CASH, "320", key=key))
    text = asked.content.decode()
    assert asked.status_code == 200 and "Book this opening balance?" in text
    assert "Cash box" in text and "$320.00" in text and "Jul 31, 2026" in text
    assert not OpeningBalance.objects.exists()

    booked = client.post(URL, _form(Account.CASH, "320", key=key, **{"cash_box-confirm": "1"}), follow=True)
    assert "Recorded the opening balance of Cash box: $320.00 on Jul 31, 2026." in booked.content.decode()
    assert balance(Account.CASH) == D("320.00")
    assert booked.content.decode().count("Not recorded yet") == 2


def test_the_page_sent_twice_books_once(client, treasurer):
    client.force_login(treasurer)
    data = _form(Account.CHECKING, "3,650.00", **{"checking-confirm": "1"})
    client.post(URL, data)
    again = client.post(URL, data, follow=True)
    assert "Already recorded" in again.content.decode()
    assert OpeningBalance.objects.count() == 1
    assert balance(Account.CHECKING) == D("3650.00")


def test_the_page_shows_a_refusal_on_the_form(client, treasurer):
    client.force_login(treasurer)
    record(Account.CASH, "320.00", actor=treasurer)
    response = client.post(URL, _form(Account.CASH, "300", **{"cash_box-confirm": "1"}))
    assert response.status_code == 200
    assert "Cash box has its opening balance already: $320.00 on Jul 31, 2026" in response.content.decode()
    response = client.post(URL, _form(Account.CHECKING, "abc"))
    assert response.status_code == 200 and "Write an amount" in response.content.decode()
    response = client.post(URL, {"account": "dues_income"})
    assert response.status_code == 302
    assert OpeningBalance.objects.count() == 1


def test_correcting_on_the_page_then_recording_again(client, treasurer):
    client.force_login(treasurer)
    cash = record(Account.CASH, "320.00", actor=treasurer).record
    url = reverse("finance:opening_balance_correct", args=[cash.pk])
    assert "Correct the opening balance of Cash box?" in client.get(url).content.decode()
    assert client.post(url, {"reason": ""}).status_code == 200  # the reason is required
    done = client.post(url, {"reason": "Miscounted"}, follow=True)
    assert "is corrected" in done.content.decode()
    assert balance(Account.CASH) == D("0.00")
    client.post(URL, _form(Account.CASH, "302", **{"cash_box-confirm": "1"}))
    assert balance(Account.CASH) == D("302.00")


def test_the_president_may_record_them_too(client, president):
    client.force_login(president)
    client.post(URL, _form(Account.CASH, "320", **{"cash_box-confirm": "1"}))
    assert balance(Account.CASH) == D("320.00")


def test_a_plain_member_gets_403_and_nothing_is_booked(member_client, vice_president, treasurer):
    assert member_client.get(URL).status_code == 403
    response = member_client.post(URL, _form(Account.CASH, "320", **{"cash_box-confirm": "1"}))
    assert response.status_code == 403
    cash = record(Account.CHECKING, "3650.00", actor=treasurer).record
    url = reverse("finance:opening_balance_correct", args=[cash.pk])
    assert member_client.post(url, {"reason": "mine"}).status_code == 403
    assert OpeningBalance.objects.filter(corrected_on__isnull=True).count() == 1
    assert balance(Account.CASH) == D("0.00")


def test_the_vice_president_may_not(client, vice_president):
    client.force_login(vice_president)
    assert client.get(URL).status_code == 403
    assert client.post(URL, _form(Account.CASH, "320", **{"cash_box-confirm": "1"})).status_code == 403
    assert not OpeningBalance.objects.exists()


def test_the_finance_tabs_link_the_page(client, treasurer):
    client.force_login(treasurer)
    assert URL in client.get("/finance/ledger/").content.decode()


def test_change_on_the_confirmation_goes_back_to_the_filled_form_and_books_nothing(client, treasurer):
    client.force_login(treasurer)
    key = once()
    back = client.post(URL, _form(Account.CASH, "320.00", key=key, edit="1"))
    text = back.content.decode()
    assert back.status_code == 200 and 'value="320.00"' in text and key in text
    assert "Book this opening balance?" not in text
    assert not OpeningBalance.objects.exists()


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("account", "²"),
        ("account", "\x00"),
        ("cash_box-amount", "1e400"),
        ("cash_box-amount", "NaN"),
        ("cash_box-amount", "-0.01"),
        ("cash_box-amount", "9" * 30),
        ("cash_box-date", "2026-02-30"),
        ("cash_box-date", "0001-01-01"),
        ("cash_box-note", "x" * 201),
        ("cash_box-once", "not-a-key"),
        ("cash_box-confirm", "😀"),
    ],
)
def test_odd_input_on_the_page_is_refused_and_books_nothing(client, treasurer, field, value):
    client.force_login(treasurer)
    data = _form(Account.CASH, "320.00", **{"cash_box-confirm": "1"})
    data[field] = value
    response = client.post(URL, data)
    assert response.status_code in (200, 302, 400)
    if field != "cash_box-confirm":
        assert not OpeningBalance.objects.exists()
