"""A reversal sent twice (the form's button pressed again, or two officers reversing the same payment) books
once: the second sees that it was reversed already, by whom and when, where the form was, never an error at
the top of the page and never a 500.

The clock stands at Nov 29, 2026, 12:00 UTC: 7:00 am in the club's time zone (America/New_York, EST). A member
paid $110.00 in cash on Nov 1; the cash box holds it (and club checking $100.00 since Aug 1, the books' start).
The Treasurer (login "treas") reverses it, "Counted twice"; the President sends the same reversal after him."""

import datetime as dt
from decimal import Decimal as D

import pytest
from django.contrib.messages import constants as message_levels
from django.urls import reverse

from finance.models import Account, Transaction
from finance.services.ledger import account_balance, account_get
from tests.finance.factories import opening_balance, pay, seat

NOV_29 = dt.date(2026, 11, 29)
REASON = "Counted twice"


@pytest.fixture
def payment(season, treasurer, today):
    opening_balance(code=Account.CHECKING, amount="100.00", actor=treasurer)
    return pay(membership=seat(season=season), day="2026-11-01", amount="110.00", actor=treasurer)


def cash() -> D:
    return account_balance(account=account_get(Account.CASH), on=NOV_29)


def reversed_text(what: str, reversal: Transaction) -> str:
    return (
        f"{what} was reversed already, on Nov 29, 2026 at 7:00 am by treas (#{reversal.pk}: {REASON}). "
        "Nothing more was booked."
    )


def errors_at_the_top(response) -> list[str]:
    return [str(m) for m in response.context["messages"] if m.level == message_levels.ERROR]


def test_the_payment_reversal_sent_twice_books_once_and_says_who_reversed_it_and_when(
    client, payment, treasurer
):
    client.force_login(treasurer)
    url = reverse("finance:payment_reverse", args=[payment.pk])
    first = client.post(url, {"reason": REASON})
    assert first.status_code == 302 and first.url == reverse("finance:receipt", args=[payment.pk])
    reversal = Transaction.objects.get(reverses=payment.transaction)
    assert cash() == D("0.00")
    books = Transaction.objects.count()

    again = client.post(url, {"reason": REASON})
    assert again.status_code == 200
    html = again.content.decode()
    assert reversed_text(f"Receipt #{payment.pk}", reversal) in html
    assert "Reverse it</button>" not in html  # no form to send a third time
    assert f'href="{reverse("finance:receipt", args=[payment.pk])}"' in html
    assert errors_at_the_top(again) == []
    assert Transaction.objects.count() == books
    assert cash() == D("0.00")


def test_a_second_officer_who_opened_the_page_before_the_reversal_is_told_on_it(
    client, payment, treasurer, president
):
    url = reverse("finance:payment_reverse", args=[payment.pk])
    client.force_login(president)
    assert "Reverse it</button>" in client.get(url).content.decode()
    client.force_login(treasurer)
    client.post(url, {"reason": REASON})
    reversal = Transaction.objects.get(reverses=payment.transaction)

    client.force_login(president)
    response = client.post(url, {"reason": "Bounced"})
    assert response.status_code == 200
    assert reversed_text(f"Receipt #{payment.pk}", reversal) in response.content.decode()
    assert errors_at_the_top(response) == []
    assert Transaction.objects.filter(reverses=payment.transaction).count() == 1
    # Opened again later, the page says so in place of the form.
    html = client.get(url).content.decode()
    assert reversed_text(f"Receipt #{payment.pk}", reversal) in html
    assert "<form" not in html.split("data-reversed-already", 1)[1].split("</main>", 1)[0]


def test_a_reversal_booked_between_the_pages_check_and_the_command_is_refused_the_same_way(
    client, payment, treasurer, president, monkeypatch
):
    """The page found no reversal, and the other officer's committed before this one's command locked the
    payment's transaction: the command refuses it (PaymentReversedAlready), and the page says the same."""
    client.force_login(treasurer)
    url = reverse("finance:payment_reverse", args=[payment.pk])
    client.post(url, {"reason": REASON})
    reversal = Transaction.objects.get(reverses=payment.transaction)
    books = Transaction.objects.count()
    monkeypatch.setattr("finance.views.payments.reversal_of", lambda *, txn: None)

    client.force_login(president)
    # The box ticked: the page, blind to the reversal, took the payment for one the cash box cannot give back.
    response = client.post(url, {"reason": "Bounced", "confirm_overdraw": "on"})
    assert response.status_code == 200
    assert reversed_text(f"Receipt #{payment.pk}", reversal) in response.content.decode()
    assert errors_at_the_top(response) == []
    assert Transaction.objects.count() == books


def test_the_ledgers_reversal_sent_twice_books_once_and_says_who_reversed_it_and_when(
    client, payment, treasurer, president
):
    url = reverse("finance:transaction", args=[payment.transaction_id])
    client.force_login(president)
    assert "Correct it with a reversing transaction" in client.get(url).content.decode()
    client.force_login(treasurer)
    first = client.post(url, {"reason": REASON})
    reversal = Transaction.objects.get(reverses=payment.transaction)
    assert first.status_code == 302 and first.url == reverse("finance:transaction", args=[reversal.pk])
    books = Transaction.objects.count()

    client.force_login(president)
    response = client.post(url, {"reason": "Bounced"}, follow=True)
    assert response.status_code == 200
    assert response.redirect_chain == [(url, 302)]  # back on the transaction, now marked reversed
    html = response.content.decode()
    assert reversed_text(f"Transaction #{payment.transaction_id}", reversal) in html
    assert f"#{reversal.pk}</a> — {REASON}" in html  # its "Reversed by" line
    assert "Correct it with a reversing transaction" not in html
    assert errors_at_the_top(response) == []
    assert Transaction.objects.count() == books
    assert cash() == D("0.00")
