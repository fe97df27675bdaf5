"""No account below zero (issue 32 part 4, SPEC §16.3): a check, a transfer, the escrow move or the night's cash
prizes that would take an asset account (cash box, checking, WSOP escrow) below zero on its date, or on a later
day of its books, is refused when written and again at the approval that would issue it, with the balance shown.
And the rules the money forms check are the commands' own (issue 32 part 7)."""

import datetime as dt
import threading
import time
from decimal import Decimal

import pytest
import time_machine
from django.db import connection, connections, transaction
from django.urls import reverse

from events.placings import Placing
from finance.models import Account, Disbursement, Transaction
from finance.services.checks import CheckError, disbursement_approve, disbursement_create
from finance.services.escrow import WsopError, wsop_escrow_move, wsop_result_record
from finance.services.event_payouts import event_payout_post
from finance.services.ledger import (
    LedgerError,
    Overdrawn,
    account_balance,
    account_get,
    asset_low_point,
    transfer_post,
)
from tests.factories import MembershipFactory, member_user, once, season_make
from tests.finance.factories import opening_balance

D = Decimal
pytestmark = pytest.mark.django_db


def day(text):
    return dt.date.fromisoformat(text)


def balance(code):
    return account_balance(account=account_get(code))


@pytest.fixture
def demo_books(season, treasurer, president, vice_president):
    """The demo club's books of the issue: $5,122 in checking, then the WSOP money of 16 members ($4,400) to
    escrow: checking holds $722.00, the escrow $4,400.00."""
    for _ in range(13):
        MembershipFactory(season=season)  # 16 members with the three officers
    opening_balance(code=Account.CHECKING, amount="5122.00", actor=treasurer)
    wsop_escrow_move(season=season, date=day("2026-09-01"), actor=treasurer)
    assert (balance(Account.CHECKING), balance(Account.ESCROW)) == (D("722.00"), D("4400.00"))


def write_check(treasurer, president, **kwargs):
    values = {
        "date": day("2026-11-20"),
        "payee": "Card Shop",
        "amount": D("48.00"),
        "memo": "Cards",
        "from_code": Account.CHECKING,
        "to_code": Account.SUPPLIES,
        "check_number": "1001",
        "signers": (president.person, treasurer.person),
        "actor": treasurer,
    }
    return disbursement_create(**(values | kwargs)).record


def test_the_lowest_balance_from_a_day_on_counts_the_later_days_in_order():
    later = [(day("2026-10-01"), D("-500.00")), (day("2026-10-02"), D("100.00"))]
    assert asset_low_point(balance=D("722.00"), later=later) == (D("222.00"), day("2026-10-01"))
    assert asset_low_point(balance=D("722.00"), later=[(day("2026-10-01"), D("5.00"))]) == (D("722.00"), None)


def test_a_5000_check_on_checking_holding_722_is_refused_when_written_with_the_balance_shown(
    demo_books, treasurer, president
):
    with pytest.raises(CheckError) as refused:
        write_check(treasurer, president, amount=D("5000.00"))
    assert str(refused.value).startswith(
        "Club checking holds $722.00 on Nov 20, 2026; a check of $5,000.00 would take it to −$4,278.00"
    )
    assert refused.value.field == "amount"
    assert not Disbursement.objects.exists()
    assert balance(Account.CHECKING) == D("722.00")


def test_a_9000_check_against_4400_of_escrow_never_goes_to_approval(demo_books, treasurer, president):
    with pytest.raises(
        CheckError, match=r"WSOP escrow holds \$4,400.00 on Nov 20, 2026; a check of \$9,000.00 "
    ):
        write_check(
            treasurer, president, amount=D("9000.00"), from_code=Account.ESCROW, to_code=Account.WSOP_EXPENSES
        )
    assert not Disbursement.objects.exists()
    assert balance(Account.ESCROW) == D("4400.00")


def test_a_check_that_empties_the_account_exactly_is_written_and_issued(
    demo_books, treasurer, president, vice_president
):
    check = write_check(treasurer, president, amount=D("722.00"))
    for officer in (treasurer, vice_president, president):
        check = disbursement_approve(disbursement=check, actor=officer, on=day("2026-11-29"))
    assert check.status == Disbursement.Status.ISSUED
    assert balance(Account.CHECKING) == D("0.00")


def test_the_last_approval_is_refused_when_the_money_left_after_the_check_was_written(
    demo_books, treasurer, president, vice_president
):
    check = write_check(treasurer, president, amount=D("500.00"))  # checking holds $722.00: written
    transfer_post(
        date=day("2026-11-25"),
        from_code=Account.CHECKING,
        to_code=Account.CASH,
        amount=D("300.00"),
        memo="Cash for the prizes",
        actor=treasurer,
    )
    disbursement_approve(disbursement=check, actor=treasurer, on=day("2026-11-29"))
    disbursement_approve(disbursement=check, actor=vice_president, on=day("2026-11-29"))
    with pytest.raises(CheckError) as refused:
        disbursement_approve(disbursement=check, actor=president, on=day("2026-11-29"))
    assert str(refused.value).startswith(
        "Club checking holds $422.00 on Nov 29, 2026; issuing this check of $500.00 would take it to −$78.00"
    )
    check.refresh_from_db()
    assert check.status == Disbursement.Status.PENDING
    assert check.approvals.count() == 2
    assert not Transaction.objects.filter(kind=Transaction.Kind.CHECK).exists()
    assert balance(Account.CHECKING) == D("422.00")
    # The cash goes back to the bank; the same approval now issues the check.
    transfer_post(
        date=day("2026-11-29"),
        from_code=Account.CASH,
        to_code=Account.CHECKING,
        amount=D("100.00"),
        memo="Deposit",
        actor=treasurer,
    )
    check = disbursement_approve(disbursement=check, actor=president, on=day("2026-11-29"))
    assert check.status == Disbursement.Status.ISSUED
    assert balance(Account.CHECKING) == D("22.00")


def test_the_check_page_shows_the_refusal_on_the_amount_and_writes_nothing(
    client, demo_books, treasurer, president
):
    client.force_login(treasurer)
    response = client.post(
        reverse("finance:checks"),
        {
            "date": "2026-11-20",
            "check_number": "1001",
            "payee": "Card Shop",
            "amount": "5000",
            "memo": "Cards",
            "from_account": Account.CHECKING,
            "to_account": Account.SUPPLIES,
            "signer_1": president.person.pk,
            "signer_2": treasurer.person.pk,
            "once": once(),
        },
    )
    assert response.status_code == 200
    assert "Club checking holds $722.00 on Nov 20, 2026" in response.content.decode()
    assert response.context["form"].errors["amount"]
    assert not Disbursement.objects.exists()


def test_a_transfer_from_a_cash_box_holding_less_is_refused(season, treasurer, today):
    opening_balance(code=Account.CASH, amount="110.00", actor=treasurer)
    with pytest.raises(Overdrawn) as refused:
        transfer_post(
            date=day("2026-11-29"),
            from_code=Account.CASH,
            to_code=Account.CHECKING,
            amount=D("200.00"),
            memo="Deposit",
            actor=treasurer,
        )
    assert str(refused.value).startswith(
        "Cash box holds $110.00 on Nov 29, 2026; a transfer of $200.00 would take it to −$90.00"
    )
    assert (balance(Account.CASH), balance(Account.CHECKING)) == (D("110.00"), D("0.00"))


def test_a_backdated_transfer_that_would_overdraw_a_later_day_is_refused(season, treasurer, today):
    opening_balance(code=Account.CHECKING, amount="722.00", actor=treasurer)
    move = {"from_code": Account.CHECKING, "to_code": Account.CASH, "memo": "Cash drawn", "actor": treasurer}
    transfer_post(date=day("2026-11-20"), amount=D("500.00"), **move)
    with pytest.raises(Overdrawn) as refused:
        transfer_post(date=day("2026-10-01"), amount=D("300.00"), **move)
    assert str(refused.value).startswith(
        "Club checking holds $722.00 on Oct 1, 2026 and $222.00 on Nov 20, 2026; a transfer of $300.00 would "
        "take it to −$78.00"
    )
    assert balance(Account.CHECKING) == D("222.00")


def test_the_wsop_money_does_not_move_to_escrow_from_a_checking_account_without_it(season, treasurer, today):
    for _ in range(15):
        MembershipFactory(season=season)  # 16 members: $4,400 to escrow
    opening_balance(code=Account.CHECKING, amount="1000.00", actor=treasurer)
    with pytest.raises(
        Overdrawn, match=r"moving \$4,400.00 of WSOP money to escrow would take it to −\$3,400.00"
    ):
        wsop_escrow_move(season=season, date=day("2026-09-01"), actor=treasurer)
    assert (balance(Account.CHECKING), balance(Account.ESCROW)) == (D("1000.00"), D("0.00"))


def test_the_nights_cash_prizes_are_not_paid_from_an_empty_cash_box(season, treasurer, monkeypatch, today):
    seats = [MembershipFactory(season=season) for _ in range(15)]  # 16 with the treasurer: $360 of prizes
    event = season.events.get(number=1)
    result = [Placing(place=i, membership_id=s.pk, member_key=s.person.key) for i, s in enumerate(seats, 1)]
    monkeypatch.setattr("events.selectors.event_placings", lambda *, event: result)
    with pytest.raises(
        Overdrawn, match=r"Cash box holds \$0.00 on .*; cash prizes of \$360.00 would take it"
    ):
        event_payout_post(event=event, actor=treasurer)
    assert not Transaction.objects.filter(kind=Transaction.Kind.PAYOUT).exists()
    opening_balance(code=Account.CHECKING, amount="400.00", actor=treasurer)
    transfer_post(
        date=event.date,
        from_code=Account.CHECKING,
        to_code=Account.CASH,
        amount=D("360.00"),
        memo="Cash drawn for the prizes",
        actor=treasurer,
    )
    event_payout_post(event=event, actor=treasurer)
    assert balance(Account.CASH) == D("0.00")


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif("connection.vendor != 'postgresql'", reason="parallel transactions need PostgreSQL")
def test_two_officers_drawing_on_one_account_at_once_cannot_both_overdraw_it():
    assert connection.vendor == "postgresql"
    with time_machine.travel(dt.datetime(2026, 11, 29, 12, 0, tzinfo=dt.UTC), tick=False):
        season = season_make(2026)
        treasurer = member_user(season=season, username="treas", office="treasurer")
        opening_balance(code=Account.CHECKING, amount="722.00", actor=treasurer)
        move = {
            "date": day("2026-11-29"),
            "from_code": Account.CHECKING,
            "to_code": Account.CASH,
            "amount": D("500.00"),
            "memo": "Cash drawn",
            "actor": treasurer,
        }
        first_holds_lock, first_may_commit = threading.Event(), threading.Event()
        outcomes: dict[str, str] = {}

        def first():
            try:
                with transaction.atomic():
                    transfer_post(**move)
                    first_holds_lock.set()
                    first_may_commit.wait(10)
                outcomes["first"] = "posted"
            finally:
                connections.close_all()

        def second():
            try:
                first_holds_lock.wait(10)
                transfer_post(**move)
                outcomes["second"] = "posted"
            except Overdrawn as exc:
                outcomes["second"] = str(exc)
            finally:
                connections.close_all()

        threads = [threading.Thread(target=first), threading.Thread(target=second)]
        for t in threads:
            t.start()
        first_holds_lock.wait(10)
        time.sleep(0.5)
        assert "second" not in outcomes  # it waits for the account's lock
        first_may_commit.set()
        for t in threads:
            t.join(20)
        assert outcomes["first"] == "posted"
        assert outcomes["second"].startswith(
            "Club checking holds $222.00 on Nov 29, 2026; a transfer of $500.00"
        )
        assert Transaction.objects.filter(kind=Transaction.Kind.TRANSFER).count() == 1
        assert balance(Account.CHECKING) == D("222.00")


# --- part 7: what the money forms check, the commands check too ----------------------------------------------


@pytest.mark.parametrize(
    ("field", "value"),
    [("payee", "P" * 121), ("memo", "M" * 201), ("check_number", "1" * 21)],
)
def test_a_check_with_a_payee_purpose_or_number_longer_than_the_books_keep_is_refused_by_the_command(
    demo_books, treasurer, president, field, value
):
    with pytest.raises(CheckError) as refused:
        write_check(treasurer, president, **{field: value})
    assert refused.value.field == field
    assert not Disbursement.objects.exists()


def test_a_transfer_memo_longer_than_the_books_keep_is_refused_not_cut(season, treasurer, today):
    opening_balance(code=Account.CASH, amount="110.00", actor=treasurer)
    with pytest.raises(LedgerError) as refused:
        transfer_post(
            date=day("2026-11-29"),
            from_code=Account.CASH,
            to_code=Account.CHECKING,
            amount=D("10.00"),
            memo="x" * 201,
            actor=treasurer,
        )
    assert refused.value.field == "memo"
    assert not Transaction.objects.filter(kind=Transaction.Kind.TRANSFER).exists()


@pytest.mark.parametrize(
    ("gross", "tips", "field"),
    [(D("3600.005"), D("0.00"), "gross"), (D("3600.00"), D("1E+11"), "tips"), (D("NaN"), D("0.00"), "gross")],
)
def test_wsop_winnings_not_in_cents_or_beyond_what_the_books_hold_are_refused_by_the_command(
    season, treasurer, gross, tips, field
):
    seat = MembershipFactory(season=season)
    with pytest.raises(WsopError) as refused:
        wsop_result_record(season=season, representative=seat, gross=gross, tips=tips, actor=treasurer)
    assert refused.value.field == field
