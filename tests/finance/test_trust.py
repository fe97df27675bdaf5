"""Money the club can trust (issue 16; bylaws §4.7, §3.6.3; SPEC §8, §15.6): checks need three officers, the
Treasurer alone moves only the club's own cash, closed months, forms that book once, an append-only ledger,
one money field."""

import datetime as dt
import threading
from decimal import Decimal

import pytest
import time_machine
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import DatabaseError, connection, connections, transaction
from django.test import Client
from django.urls import reverse

from events.models import Season
from finance.forms import PaymentForm
from finance.models import Account, ClosedMonth, Disbursement, Entry, Payment, Transaction, WsopResult
from finance.services.checks import CheckError, disbursement_approve, disbursement_create
from finance.services.escrow import wsop_escrow_move
from finance.services.ledger import (
    MonthClosed,
    NotTheTreasurersAlone,
    account_balance,
    account_get,
    transaction_reverse,
    transfer_post,
)
from finance.services.month_closing import month_close
from finance.services.payments import PaymentError, payment_record
from members.models import Vote
from ncpc.core.forms import MoneyField
from tests.factories import MembershipFactory, member_user, once, season_make
from tests.finance.factories import opening_balance, pay

D = Decimal
pytestmark = pytest.mark.django_db


def own_seat(user):
    return user.person.memberships.get()


def balances():
    return {
        code: account_balance(account=account_get(code))
        for code in (Account.CHECKING, Account.ESCROW, Account.CASH, Account.SUPPLIES, Account.WSOP_EXPENSES)
    }


def escrow_funded(season, treasurer):
    """The season's WSOP money in escrow (§8.1): 11 members → 1 prize, $1,500 + $700 = $2,200."""
    for _ in range(10):
        MembershipFactory(season=season)
    opening_balance(code=Account.CHECKING, amount="2200.00", actor=treasurer)  # SPEC §16.3: money to move
    wsop_escrow_move(season=season, date=dt.date(2026, 9, 1), actor=treasurer)
    assert account_balance(account=account_get(Account.ESCROW)) == D("2200.00")


# --- the money field (one field everywhere) -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "amount"),
    [
        ("0.01", D("0.01")),
        ("12", D("12.00")),
        ("12.5", D("12.50")),
        ("$1,234.50", D("1234.50")),
        ("10000", D("10000.00")),
        (" 110.00 ", D("110.00")),
    ],
)
def test_the_money_field_accepts_amounts_as_people_write_them(text, amount):
    assert MoneyField().clean(text) == amount


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("1E+2", "at most two decimals"),
        ("1e2", "at most two decimals"),
        ("NaN", "at most two decimals"),
        ("Infinity", "at most two decimals"),
        ("12.345", "at most two decimals"),
        ("1,2,3", "at most two decimals"),
        ("abc", "at most two decimals"),
        ("0", "at least $0.01"),
        ("-5", "at least $0.01"),
        ("10000.01", "more than the club's limit of $10,000.00"),
        ("9999999999.99", "more than the club's limit of $10,000.00"),
    ],
)
def test_the_money_field_refuses_exponents_nan_fractions_of_cents_and_amounts_over_the_limit(text, message):
    with pytest.raises(ValidationError, match=message.replace("$", r"\$").replace(".", r"\.")):
        MoneyField().clean(text)


def test_the_payment_form_takes_its_limit_from_the_season_rule(season, member, today):
    Season.objects.filter(pk=season.pk).update(money_limit=D("500.00"))
    season.refresh_from_db()
    data = {"membership": own_seat(member).pk, "date": "2026-11-29", "method": "cash", "once": once()}
    assert PaymentForm({**data, "amount": "500"}, season=season).is_valid()
    form = PaymentForm({**data, "amount": "500.01"}, season=season)
    assert not form.is_valid()
    assert "more than the club's limit of $500.00" in form.errors["amount"][0]


def test_the_service_refuses_an_amount_over_the_seasons_limit_too(season, member, treasurer):
    with pytest.raises(PaymentError, match="limit of \\$10,000.00"):
        pay(membership=own_seat(member), day="2026-11-29", amount="10000.01", actor=treasurer)
    assert Payment.objects.count() == 0


def test_a_payment_form_shows_0_01_accepted_and_1e2_refused(client, treasurer, member):
    client.force_login(treasurer)
    data = {"membership": own_seat(member).pk, "date": "2026-11-29", "method": "cash"}
    response = client.post(reverse("finance:payments"), {**data, "amount": "1E+2", "once": once()})
    assert response.status_code == 200 and "at most two decimals" in response.content.decode()
    assert Payment.objects.count() == 0
    client.post(reverse("finance:payments"), {**data, "amount": "0.01", "once": once()})
    assert Payment.objects.get().amount == D("0.01")


def test_a_payment_cannot_be_dated_after_today(client, treasurer, member):
    client.force_login(treasurer)
    data = {"membership": own_seat(member).pk, "amount": "110", "method": "cash", "once": once()}
    response = client.post(reverse("finance:payments"), {**data, "date": "2026-11-30"})
    assert "cannot be after today" in response.content.decode()
    with pytest.raises(PaymentError, match="after today"):
        pay(membership=own_seat(member), day="2026-11-30", amount="110.00", actor=treasurer)
    assert Payment.objects.count() == 0


# --- forms that book once -----------------------------------------------------------------------------------


def test_the_payment_form_sent_twice_books_one_payment_and_shows_the_first_receipt(client, treasurer, member):
    client.force_login(treasurer)
    data = {
        "membership": own_seat(member).pk,
        "date": "2026-11-29",
        "amount": "110.00",
        "method": "cash",
        "once": once(),
    }
    first = client.post(reverse("finance:payments"), data)
    again = client.post(reverse("finance:payments"), data, follow=True)
    payment = Payment.objects.get()
    assert first["Location"] == f"{reverse('finance:payments')}?receipt={payment.pk}"
    assert again.redirect_chain[-1][0] == f"{reverse('finance:payments')}?receipt={payment.pk}"
    assert f"Already recorded: receipt #{payment.pk}" in again.content.decode()
    assert Transaction.objects.count() == 1
    assert account_balance(account=account_get(Account.CASH)) == D("110.00")


def test_a_payment_form_without_its_one_time_key_books_nothing(client, treasurer, member):
    client.force_login(treasurer)
    data = {"membership": own_seat(member).pk, "date": "2026-11-29", "amount": "110.00", "method": "cash"}
    response = client.post(reverse("finance:payments"), data)
    assert response.status_code == 200 and "reload the page" in response.content.decode()
    response = client.post(reverse("finance:payments"), {**data, "once": "<script>"})
    assert response.status_code == 200 and Payment.objects.count() == 0


def test_the_payment_page_issues_a_one_time_key_with_the_form(client, treasurer):
    client.force_login(treasurer)
    page = client.get(reverse("finance:payments")).content.decode()
    assert 'type="hidden" name="once"' in page
    assert "js/once.js" in page  # the buttons disable on submit


def test_the_transfer_form_sent_twice_posts_once(client, treasurer):
    opening_balance(code=Account.CASH, amount="250.00", actor=treasurer)  # SPEC §16.3: the cash to deposit
    client.force_login(treasurer)
    data = {
        "date": "2026-11-29",
        "from_account": Account.CASH,
        "to_account": Account.CHECKING,
        "amount": "250",
        "memo": "Cash box deposited",
        "once": once(),
    }
    client.post(reverse("finance:transfer"), data)
    again = client.post(reverse("finance:transfer"), data, follow=True)
    assert Transaction.objects.filter(kind=Transaction.Kind.TRANSFER).count() == 1
    assert "Already recorded" in again.content.decode()
    assert account_balance(account=account_get(Account.CHECKING)) == D("250.00")


def test_the_check_form_sent_twice_writes_one_check_and_check_numbers_are_unique(
    client, treasurer, president, vice_president
):
    opening_balance(code=Account.CHECKING, amount="48.00", actor=treasurer)  # SPEC §16.3: the check's money
    client.force_login(treasurer)
    data = {
        "date": "2026-11-29",
        "check_number": "1001",
        "payee": "Card Shop",
        "amount": "48",
        "memo": "Cards",
        "from_account": Account.CHECKING,
        "to_account": Account.SUPPLIES,
        "signer_1": treasurer.person.pk,
        "signer_2": president.person.pk,
        "once": once(),
    }
    client.post(reverse("finance:checks"), data)
    again = client.post(reverse("finance:checks"), data, follow=True)
    assert Disbursement.objects.count() == 1
    assert "Already recorded" in again.content.decode()
    other = client.post(reverse("finance:checks"), {**data, "once": once()})
    assert other.status_code == 200 and "Check number 1001 of Club checking is written already" in (
        other.content.decode()
    )
    assert Disbursement.objects.count() == 1


def test_the_wsop_winnings_form_and_the_club_vote_form_sent_twice_record_once(
    client, treasurer, president, season, monkeypatch
):
    representative = MembershipFactory(season=season)
    # Winnings are recorded only for a member who goes (SPEC §15.3): this one qualified.
    monkeypatch.setattr(
        "finance.hooks.wsop_statuses.answer", lambda *, season: {representative.pk: "qualified"}
    )
    client.force_login(treasurer)
    data = {"representative": representative.pk, "gross": "$3,600", "tips": "50", "once": once()}
    client.post(reverse("finance:wsop_result"), data)
    again = client.post(reverse("finance:wsop_result"), data, follow=True)
    assert WsopResult.objects.get().gross == D("3600.00")
    assert "Already recorded" in again.content.decode()
    client.force_login(president)
    vote = {"kind": "other", "subject": "New cards", "held_on": "2026-11-29", "yes": 2, "no": 0, "abstain": 0}
    vote["once"] = once()
    client.post(reverse("members:vote_record"), vote)
    again = client.post(reverse("members:vote_record"), vote, follow=True)
    assert Vote.objects.count() == 1
    assert "Already recorded" in again.content.decode()


def test_the_payout_button_pressed_twice_pays_the_night_out_once_6_2(client, season, treasurer, monkeypatch):
    from events.placings import Placing

    seats = [MembershipFactory(season=season) for _ in range(15)]  # 16 with the treasurer: 145, 95, 70, 50
    event = season.events.get(number=1)
    result = [Placing(place=i, membership_id=s.pk, member_key=s.person.key) for i, s in enumerate(seats, 1)]
    monkeypatch.setattr("events.selectors.event_placings", lambda *, event: result)
    opening_balance(code=Account.CASH, amount="360.00", actor=treasurer)  # SPEC §16.3: the prizes' cash
    client.force_login(treasurer)
    client.post(reverse("finance:payout_post", args=[event.pk]))
    again = client.post(reverse("finance:payout_post", args=[event.pk]), follow=True)
    assert "was paid out already" in again.content.decode()
    assert Transaction.objects.filter(kind=Transaction.Kind.PAYOUT).count() == 1
    assert account_balance(account=account_get(Account.PAYOUTS)) == D("360.00")


def test_reversing_an_issued_check_puts_the_money_back_in_the_escrow(
    season, treasurer, president, vice_president
):
    escrow_funded(season, treasurer)
    check = _check(treasurer, president)
    for officer in (treasurer, president, vice_president):
        check = disbursement_approve(disbursement=check, actor=officer, on=dt.date(2026, 11, 29))
    transaction_reverse(
        txn=check.transaction, date=dt.date(2026, 11, 29), reason="Check voided", actor=treasurer
    )
    assert account_balance(account=account_get(Account.ESCROW)) == D("2200.00")
    assert account_balance(account=account_get(Account.WSOP_EXPENSES)) == D("0.00")


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif("connection.vendor != 'postgresql'", reason="parallel transactions need PostgreSQL")
def test_two_parallel_submits_of_the_payment_form_book_one_payment():
    assert connection.vendor == "postgresql"
    with time_machine.travel(dt.datetime(2026, 11, 29, 12, 0, tzinfo=dt.UTC), tick=False):
        season = season_make(2026)
        treasurer = member_user(season=season, username="treas", office="treasurer")
        member = member_user(season=season, username="ann")
        seat_pk = own_seat(member).pk
        key = once()
        barrier = threading.Barrier(2)
        outcomes = []

        def submit():
            try:
                client = Client()
                client.force_login(get_user_model().objects.get(pk=treasurer.pk))
                barrier.wait()
                response = client.post(
                    reverse("finance:payments"),
                    {
                        "membership": seat_pk,
                        "date": "2026-11-29",
                        "amount": "110",
                        "method": "cash",
                        "once": key,
                    },
                )
                outcomes.append(response.status_code)
            finally:
                connections.close_all()

        threads = [threading.Thread(target=submit) for _ in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert outcomes == [302, 302]
        assert Payment.objects.count() == 1
        assert Transaction.objects.count() == 1
        assert account_balance(account=account_get(Account.CASH)) == D("110.00")


# --- §4.7: the Treasurer alone; checks need three officers ----------------------------------------------------


def test_the_transfer_page_offers_only_the_cash_box_and_checking(client, treasurer):
    client.force_login(treasurer)
    page = client.get(reverse("finance:transfer")).content.decode()
    assert 'value="cash_box"' in page and 'value="checking"' in page
    for code in (Account.ESCROW, Account.SUPPLIES, Account.WSOP_EXPENSES, Account.OPENING, Account.DUES):
        assert f'value="{code}"' not in page


@pytest.mark.parametrize(
    ("from_code", "to_code"),
    [
        (Account.ESCROW, Account.CASH),
        (Account.ESCROW, Account.CHECKING),
        (Account.CHECKING, Account.SUPPLIES),
        (Account.CASH, Account.WSOP_EXPENSES),
        (Account.OPENING, Account.CHECKING),
    ],
)
def test_the_treasurer_alone_cannot_move_escrow_or_expense_money_15_6(
    client, treasurer, season, from_code, to_code
):
    escrow_funded(season, treasurer)
    before = balances()
    client.force_login(treasurer)
    response = client.post(
        reverse("finance:transfer"),
        {
            "date": "2026-11-29",
            "from_account": from_code,
            "to_account": to_code,
            "amount": "100",
            "memo": "x",
            "once": once(),
        },
    )
    assert response.status_code == 200  # the form again, with its error
    assert balances() == before
    with pytest.raises(NotTheTreasurersAlone):
        transfer_post(
            date=dt.date(2026, 11, 29),
            from_code=from_code,
            to_code=to_code,
            amount=D("100"),
            memo="x",
            actor=treasurer,
        )
    assert balances() == before


def test_undoing_the_escrow_move_by_a_reversal_is_refused_money_leaves_the_escrow_only_by_check(
    season, treasurer
):
    escrow_funded(season, treasurer)
    move = Transaction.objects.get(kind=Transaction.Kind.WSOP_ESCROW)
    with pytest.raises(NotTheTreasurersAlone, match="only by a check"):
        transaction_reverse(txn=move, date=dt.date(2026, 11, 29), reason="oops", actor=treasurer)
    assert account_balance(account=account_get(Account.ESCROW)) == D("2200.00")


def _check(treasurer, president, **kwargs):
    values = {
        "date": dt.date(2026, 11, 20),
        "payee": "WSOP",
        "amount": D("1500.00"),
        "memo": "Main event entry",
        "from_code": Account.ESCROW,
        "to_code": Account.WSOP_EXPENSES,
        "check_number": "501",
        "signers": (president.person, treasurer.person),
        "actor": treasurer,
    }
    return disbursement_create(**(values | kwargs)).record


def test_an_escrow_check_with_two_approvals_is_not_issued_with_three_it_is_4_7(
    season, treasurer, president, vice_president
):
    escrow_funded(season, treasurer)
    check = _check(treasurer, president)
    disbursement_approve(disbursement=check, actor=treasurer, on=dt.date(2026, 11, 29))
    check = disbursement_approve(disbursement=check, actor=vice_president, on=dt.date(2026, 11, 29))
    assert check.status == Disbursement.Status.PENDING
    assert account_balance(account=account_get(Account.ESCROW)) == D("2200.00")
    check = disbursement_approve(disbursement=check, actor=president, on=dt.date(2026, 11, 29))
    assert check.status == Disbursement.Status.ISSUED
    assert account_balance(account=account_get(Account.ESCROW)) == D("700.00")
    assert account_balance(account=account_get(Account.WSOP_EXPENSES)) == D("1500.00")


def test_the_check_quorum_is_the_seasons_rule_and_never_below_three(
    season, treasurer, president, vice_president
):
    Season.objects.filter(pk=season.pk).update(check_approvals=4)
    fourth = member_user(season=season, username="past_pres", office="president")
    opening_balance(code=Account.CHECKING, amount="1500.00", actor=treasurer)
    check = _check(treasurer, president, from_code=Account.CHECKING, to_code=Account.SUPPLIES, memo="Cards")
    for officer in (treasurer, president, vice_president):
        check = disbursement_approve(disbursement=check, actor=officer, on=dt.date(2026, 11, 29))
    assert check.status == Disbursement.Status.PENDING
    check = disbursement_approve(disbursement=check, actor=fourth, on=dt.date(2026, 11, 29))
    assert check.status == Disbursement.Status.ISSUED
    season.check_approvals = 2
    with pytest.raises(ValidationError):
        season.full_clean()


def test_a_check_names_two_different_signing_officers(season, treasurer, president, member):
    with pytest.raises(CheckError, match="two different officers"):
        _check(treasurer, president, signers=(treasurer.person, treasurer.person))
    with pytest.raises(CheckError, match="is not an officer"):
        _check(treasurer, president, signers=(treasurer.person, member.person))
    with pytest.raises(CheckError, match="number"):
        _check(treasurer, president, check_number=" ")
    assert Disbursement.objects.count() == 0


def test_officers_see_the_checks_awaiting_their_approval_on_the_home_page(
    client, season, treasurer, president, vice_president, member
):
    opening_balance(code=Account.CHECKING, amount="1500.00", actor=treasurer)
    check = _check(
        treasurer, president, from_code=Account.CHECKING, to_code=Account.SUPPLIES, payee="Card Shop"
    )
    disbursement_approve(disbursement=check, actor=treasurer, on=dt.date(2026, 11, 29))
    client.force_login(treasurer)
    assert "Checks awaiting your approval" not in client.get("/").content.decode()  # approved already
    client.force_login(president)
    assert "Card Shop" in client.get("/").content.decode()
    client.force_login(member)
    assert "Checks awaiting your approval" not in client.get("/").content.decode()


# --- §3.6.3, §15.6: closed months -----------------------------------------------------------------------------


def test_an_entry_dated_in_a_closed_month_is_refused_and_a_correction_is_a_reversal_dated_today(
    client, season, treasurer, member
):
    payment = pay(membership=own_seat(member), day="2026-10-24", amount="110.00", actor=treasurer)
    client.force_login(treasurer)
    page = client.get(reverse("finance:report", args=[2026, 10])).content.decode()
    assert "Close October 2026" in page and "data-confirm" in page
    client.post(reverse("finance:report_close", args=[2026, 10]))
    assert ClosedMonth.objects.get().month == dt.date(2026, 10, 1)
    assert "Closed on" in client.get(reverse("finance:report", args=[2026, 10])).content.decode()
    with pytest.raises(MonthClosed, match="October 2026 is closed"):
        pay(membership=own_seat(member), day="2026-10-30", amount="10.00", actor=treasurer)
    with pytest.raises(MonthClosed):
        transfer_post(
            date=dt.date(2026, 10, 31),
            from_code=Account.CASH,
            to_code=Account.CHECKING,
            amount=D("110.00"),
            memo="late deposit",
            actor=treasurer,
        )
    data = {"membership": own_seat(member).pk, "date": "2026-10-30", "amount": "10", "method": "cash"}
    response = client.post(reverse("finance:payments"), {**data, "once": once()})
    assert response.status_code == 200 and "October 2026 is closed" in response.content.decode()
    # The correction: a reversal dated today, in November's report.
    client.post(reverse("finance:payment_reverse", args=[payment.pk]), {"reason": "Wrong member"})
    reversal = Transaction.objects.get(reverses=payment.transaction)
    assert reversal.date == dt.date(2026, 11, 29)
    assert Payment.objects.count() == 1


def test_a_month_not_over_cannot_be_closed_and_only_the_treasurer_closes(client, season, treasurer, member):
    from finance.services.ledger import LedgerError

    with pytest.raises(LedgerError, match="not over"):
        month_close(day=dt.date(2026, 11, 1), actor=treasurer)
    client.force_login(member)
    assert client.post(reverse("finance:report_close", args=[2026, 10])).status_code == 403
    assert "Close October" not in client.get(reverse("finance:report", args=[2026, 10])).content.decode()
    assert ClosedMonth.objects.count() == 0


def test_a_check_is_not_issued_into_a_closed_month(season, treasurer, president, vice_president):
    # The books start in November (SPEC §16.1: months close in order from there).
    opening_balance(code=Account.CHECKING, amount="1500.00", day="2026-11-01", actor=treasurer)
    check = _check(treasurer, president, from_code=Account.CHECKING, to_code=Account.SUPPLIES, memo="Cards")
    disbursement_approve(disbursement=check, actor=treasurer, on=dt.date(2026, 11, 29))
    disbursement_approve(disbursement=check, actor=vice_president, on=dt.date(2026, 11, 29))
    with time_machine.travel(dt.datetime(2026, 12, 5, 12, tzinfo=dt.UTC), tick=False):
        month_close(day=dt.date(2026, 11, 1), actor=treasurer)
    with pytest.raises(CheckError, match="November 2026 is closed"):
        disbursement_approve(disbursement=check, actor=president, on=dt.date(2026, 11, 29))
    check = disbursement_approve(disbursement=check, actor=president, on=dt.date(2026, 12, 5))
    assert check.transaction.date == dt.date(2026, 12, 5)


# --- the append-only ledger (a trigger in the database) -------------------------------------------------------


def test_an_update_or_delete_of_a_ledger_row_raises_in_the_database(season, treasurer, member):
    payment = pay(membership=own_seat(member), day="2026-11-29", amount="110.00", actor=treasurer)
    txn = payment.transaction
    entry = txn.entries.first()
    attempts = [
        lambda: Transaction.objects.filter(pk=txn.pk).update(memo="changed"),
        lambda: Entry.objects.filter(pk=entry.pk).update(amount=D("1.00")),
        lambda: Entry.objects.filter(pk=entry.pk).delete(),
        lambda: connection.cursor().execute("DELETE FROM finance_transaction WHERE id = %s", [txn.pk]),
        lambda: connection.cursor().execute(
            "UPDATE finance_entry SET amount = 0.5 WHERE id = %s", [entry.pk]
        ),
    ]
    for attempt in attempts:
        with pytest.raises(DatabaseError, match="append-only"), transaction.atomic():
            attempt()
    txn.refresh_from_db()
    assert txn.memo.startswith(str(member.person)) and txn.entries.count() == 2
    assert account_balance(account=account_get(Account.CASH)) == D("110.00")


def test_finance_records_are_read_only_in_the_admin(client, season, treasurer, member):
    payment = pay(membership=own_seat(member), day="2026-11-29", amount="110.00", actor=treasurer)
    admin = get_user_model().objects.create_superuser("root", "root@example.org", "x")
    client.force_login(admin)
    assert client.get("/admin/finance/transaction/").status_code == 200
    assert client.get(f"/admin/finance/transaction/{payment.transaction.pk}/change/").status_code == 200
    assert client.get("/admin/finance/transaction/add/").status_code == 403
    assert client.post(f"/admin/finance/payment/{payment.pk}/delete/", {"post": "yes"}).status_code == 403
    assert Payment.objects.count() == 1


def test_the_season_restore_still_removes_a_seasons_money_records(season, treasurer, member):
    from finance.services.purge import finance_season_purge

    pay(membership=own_seat(member), day="2026-11-29", amount="110.00", actor=treasurer)
    finance_season_purge(season=season)
    assert Transaction.objects.count() == 0 and Entry.objects.count() == 0
    # The unlock lasted only for that transaction.
    payment_record(
        membership=own_seat(member), date=dt.date(2026, 11, 29), amount=D("1"), method="cash", actor=treasurer
    )
    with pytest.raises(DatabaseError, match="append-only"), transaction.atomic():
        Entry.objects.all().delete()


def test_the_season_rules_and_their_tables_take_money_through_the_same_field():
    from events.forms import DuesFormSet, PayoutFormSet, SeasonRulesForm

    rules = SeasonRulesForm()
    for name in ("dues_per_event", "admin_fee", "late_fee", "wsop_entry", "money_limit"):
        assert isinstance(rules.fields[name], MoneyField)
    assert rules.fields["wsop_entry"].clean("$1,500") == D("1500.00")
    with pytest.raises(ValidationError):
        rules.fields["wsop_entry"].clean("1.5E+3")
    assert rules.fields["late_fee"].clean("0") == D("0.00")  # a rule may be zero
    assert isinstance(PayoutFormSet().forms[0].fields["first"], MoneyField)
    assert isinstance(DuesFormSet().forms[0].fields["amount"], MoneyField)
