"""A reversal that takes an account below zero says so before it is booked (issue 45): the reversal form names
the account and the balance it would have, and books it only once the officer ticks that it is to be booked all
the same. A reversal is a correction: it is not refused for that (SPEC §16.3).

The clock stands at Nov 29, 2026. Club checking opens with $100.00 and the cash box with $150.00 (Aug 1). On
Nov 1 the $150.00 of the cash box goes to checking ($250.00 there, the cash box empty); on Nov 2 $200.00 of
checking goes to the cash box ($50.00 left in checking, $200.00 in the cash box). Reversing the Nov 1 deposit
takes its $150.00 out of checking again: $50.00 − $150.00 = −$100.00."""

import datetime as dt
from decimal import Decimal as D

import pytest
from django.urls import reverse

from finance.models import Account, Transaction
from finance.services.ledger import (
    ReversalOverdraws,
    account_balance,
    account_get,
    reversal_overdraws,
    transaction_reverse,
    transfer_post,
)
from tests.finance.factories import opening_balance, pay, seat

NOV_29 = dt.date(2026, 11, 29)
WARNING = "Club checking holds $50.00 on Nov 29, 2026; reversing #{pk} takes $150.00 out of it, so it would go below zero, to −$100.00."


def move(treasurer, day: str, from_code: str, to_code: str, amount: str, memo: str) -> Transaction:
    return transfer_post(
        date=dt.date.fromisoformat(day),
        from_code=from_code,
        to_code=to_code,
        amount=D(amount),
        memo=memo,
        actor=treasurer,
    ).record


@pytest.fixture
def books(treasurer, today):
    opening_balance(code=Account.CHECKING, amount="100.00", actor=treasurer)
    opening_balance(code=Account.CASH, amount="150.00", actor=treasurer)
    deposit = move(treasurer, "2026-11-01", Account.CASH, Account.CHECKING, "150.00", "Cash box to the bank")
    prizes = move(treasurer, "2026-11-02", Account.CHECKING, Account.CASH, "200.00", "Cash for the prizes")
    return deposit, prizes


def checking() -> D:
    return account_balance(account=account_get(Account.CHECKING), on=NOV_29)


def test_the_warning_names_the_account_and_the_balance_it_would_have(books):
    deposit, prizes = books
    assert reversal_overdraws(txn=deposit, date=NOV_29) == [WARNING.format(pk=deposit.pk)]
    # Reversing the Nov 2 move takes $200.00 out of the cash box, which holds $200.00: zero is not below zero.
    assert reversal_overdraws(txn=prizes, date=NOV_29) == []


def test_the_command_refuses_it_unconfirmed_and_books_it_confirmed(books, treasurer):
    deposit, _ = books
    with pytest.raises(ReversalOverdraws) as refused:
        transaction_reverse(
            txn=deposit, date=NOV_29, reason="Counted twice", actor=treasurer, overdraw_confirmed=False
        )
    assert str(refused.value) == WARNING.format(pk=deposit.pk) + " Tick the box to reverse it all the same."
    assert not Transaction.objects.filter(reverses=deposit).exists()
    assert checking() == D("50.00")
    reversal = transaction_reverse(
        txn=deposit, date=NOV_29, reason="Counted twice", actor=treasurer, overdraw_confirmed=True
    )
    assert reversal.reverses == deposit
    assert checking() == D("-100.00")
    assert account_balance(account=account_get(Account.CASH), on=NOV_29) == D("350.00")


def test_the_ledger_page_warns_before_it_is_booked_and_asks_to_confirm(client, books, treasurer):
    deposit, _ = books
    client.force_login(treasurer)
    url = reverse("finance:transaction", args=[deposit.pk])
    page = client.get(url)
    html = page.content.decode()
    assert "This reversal takes an account below zero." in html
    assert WARNING.format(pk=deposit.pk) in html
    assert "Yes, reverse it all the same: the account goes below zero" in html
    # Sent without ticking the box: nothing is booked, the box says why.
    response = client.post(url, {"reason": "Counted twice"})
    assert response.status_code == 200
    assert response.context["form"].errors["confirm_overdraw"] == [
        "Tick the box to reverse it although the account goes below zero."
    ]
    assert not Transaction.objects.filter(reverses=deposit).exists()
    # Ticked: booked, and checking goes to −$100.00.
    response = client.post(url, {"reason": "Counted twice", "confirm_overdraw": "on"})
    reversal = Transaction.objects.get(reverses=deposit)
    assert response.status_code == 302 and response.url == reverse("finance:transaction", args=[reversal.pk])
    assert checking() == D("-100.00")


def test_a_reversal_that_overdraws_nothing_asks_nothing(client, books, treasurer):
    _, prizes = books
    client.force_login(treasurer)
    url = reverse("finance:transaction", args=[prizes.pk])
    assert "below zero" not in client.get(url).content.decode()
    response = client.post(url, {"reason": "Prizes paid from the bank after all"})
    assert response.status_code == 302
    assert Transaction.objects.filter(reverses=prizes).exists()
    assert checking() == D("250.00")


def test_money_that_left_after_the_page_was_shown_is_warned_of_before_booking(client, treasurer, today):
    """The page was shown with nothing to warn of; the $200.00 left checking before the officer sent it."""
    opening_balance(code=Account.CHECKING, amount="100.00", actor=treasurer)
    opening_balance(code=Account.CASH, amount="150.00", actor=treasurer)
    deposit = move(treasurer, "2026-11-01", Account.CASH, Account.CHECKING, "150.00", "Cash box to the bank")
    client.force_login(treasurer)
    url = reverse("finance:transaction", args=[deposit.pk])
    assert "below zero" not in client.get(url).content.decode()  # $250.00 in checking: nothing to say
    move(treasurer, "2026-11-02", Account.CHECKING, Account.CASH, "200.00", "Cash for the prizes")
    response = client.post(url, {"reason": "Counted twice"})
    assert response.status_code == 200
    assert not Transaction.objects.filter(reverses=deposit).exists()
    html = response.content.decode()
    assert WARNING.format(pk=deposit.pk) in html
    assert response.context["form"].errors["confirm_overdraw"] == [
        "Tick the box to reverse it although the account goes below zero."
    ]


def test_the_payment_reversal_page_warns_too(client, treasurer, season, today):
    """A member's $150.00 check is deposited Nov 1; $200.00 of checking went to the cash box Nov 2. Reversing the
    payment (the check bounced) takes its $150.00 out of checking: $50.00 − $150.00 = −$100.00."""
    opening_balance(code=Account.CHECKING, amount="100.00", actor=treasurer)
    payment = pay(membership=seat(season=season), day="2026-11-01", amount="150.00", method="check")
    move(treasurer, "2026-11-02", Account.CHECKING, Account.CASH, "200.00", "Cash for the prizes")
    client.force_login(treasurer)
    html = client.get(reverse("finance:payment_reverse", args=[payment.pk])).content.decode()
    assert WARNING.format(pk=payment.transaction_id) in html
    assert "Reverse it all the same" in html
