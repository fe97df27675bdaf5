"""Small finance polish: a void reaches the officers asked to approve at their address now; the money field's
refusal names the limit that applies; the reconciliation page opens only for the months statements cover.

Voids: the clock stands at Nov 29, 2026; club checking holds $6,000.00. Ned Stark (Treasurer, treas@…) writes
check #1001 to the Casino for $5,000.00; Pia Park (President, pres@…) and Val Vance (Vice President, vp@…) are
asked to approve it (SPEC §15.6)."""

import datetime as dt
from decimal import Decimal as D

import pytest
from django.core import mail
from django.core.exceptions import ValidationError
from django.urls import reverse

from events.models import Season
from finance.forms import PaymentForm, WsopResultForm
from finance.forms_bank import StatementBalanceForm
from finance.models import Account
from finance.services.checks import disbursement_void
from finance.services.payout_corrections import payout_correction_propose, payout_correction_void
from finance.services.reconciliation import reconciliation_months
from members.models import Person
from ncpc.core.forms import MoneyField
from ncpc.core.models import MailDelivery
from tests.factories import once
from tests.finance.factories import opening_balance
from tests.finance.test_check_approvals import casino_check, named  # noqa: F401 (fixture)
from tests.finance.test_payout_corrections import (  # noqa: F401 (fixtures)
    _bob_won,
    everyone_eligible,
    october,
    officers,
)
from tests.finance.test_trust import own_seat

NOV_29 = dt.date(2026, 11, 29)


def test_an_officer_whose_address_changed_after_the_request_is_told_of_the_void_at_the_new_one(
    named,  # noqa: F811
    today,
    django_capture_on_commit_callbacks,
):
    treasurer, president, vice_president = named
    opening_balance(code=Account.CHECKING, amount="6000.00", actor=treasurer)
    with django_capture_on_commit_callbacks(execute=True):
        check = casino_check(treasurer, president)
    asked = MailDelivery.objects.filter(reference=f"check:{check.pk}")
    assert sorted(asked.values_list("to", flat=True)) == ["pres@example.org", "vp@example.org"]

    # Val changes address after the request went out.
    Person.objects.filter(pk=vice_president.person.pk).update(email="val.new@example.org")
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        disbursement_void(disbursement=check, reason="Wrong amount", actor=treasurer, on=NOV_29)

    assert sorted(m.to[0] for m in mail.outbox) == ["pres@example.org", "val.new@example.org"]
    val = next(m for m in mail.outbox if m.to == ["val.new@example.org"])
    assert val.body.startswith("Hello Val,\n\nCheck #1001 to Casino for $5,000.00 was voided on Nov 29, 2026")
    assert not MailDelivery.objects.filter(reference=f"check:{check.pk}:void", to="vp@example.org").exists()


# The money field's refusal names the limit that applies.


def refusal(field, text: str) -> str:
    with pytest.raises(ValidationError) as refused:
        field.clean(text)
    return refused.value.messages[0]


def test_a_payment_over_the_seasons_limit_is_refused_naming_the_season_rule(season, member, today):
    Season.objects.filter(pk=season.pk).update(money_limit=D("500.00"))
    season.refresh_from_db()
    form = PaymentForm(
        {
            "membership": own_seat(member).pk,
            "date": "2026-11-29",
            "method": "cash",
            "once": once(),
            "amount": "500.01",
        },
        season=season,
    )
    assert not form.is_valid()
    assert form.errors["amount"] == [
        "$500.01 is more than the club's limit of $500.00 for one amount (a rule of the season)."
    ]


def test_without_a_season_the_club_limit_is_named_but_not_as_a_rule_of_the_season():
    assert (
        refusal(MoneyField(), "10000.01")
        == "$10,000.01 is more than the club's limit of $10,000.00 for one amount."
    )


def test_a_bank_statements_balance_names_its_own_limit():
    assert refusal(StatementBalanceForm().fields["balance"], "10000000000") == (
        "$10,000,000,000.00 is more than $9,999,999,999.99, the largest amount a bank statement's balance can be."
    )


def test_wsop_winnings_and_tips_name_their_own_limit():
    fields = WsopResultForm.base_fields
    assert refusal(fields["gross"], "10000000000") == (
        "$10,000,000,000.00 is more than $9,999,999,999.99, the largest amount winnings can be."
    )
    assert refusal(fields["tips"], "10000000000") == (
        "$10,000,000,000.00 is more than $9,999,999,999.99, the largest amount tips can be."
    )


def test_a_money_column_names_the_largest_amount_it_holds():
    """Season.money_limit is a column of 12 digits, 2 after the point: at most $9,999,999,999.99."""
    field = MoneyField(max_digits=12, decimal_places=2)
    assert refusal(field, "10000000000") == (
        "$10,000,000,000.00 is more than $9,999,999,999.99, the largest amount this field holds."
    )


def test_a_field_with_its_own_limit_and_no_name_says_so():
    assert refusal(MoneyField(limit=D("50.00")), "50.01") == (
        "$50.01 is more than $50.00, the largest amount this field takes."
    )


# The reconciliation page opens from January 2000 to the month after the club's today (Nov 29, 2026: December).


@pytest.mark.parametrize(
    ("today_", "months"),
    [
        (dt.date(2026, 11, 29), (dt.date(2000, 1, 1), dt.date(2026, 12, 1))),
        (dt.date(2026, 12, 31), (dt.date(2000, 1, 1), dt.date(2027, 1, 1))),
        (dt.date(2027, 1, 1), (dt.date(2000, 1, 1), dt.date(2027, 2, 1))),
    ],
)
def test_the_reconciliation_opens_from_january_2000_to_next_month(today_, months):
    assert reconciliation_months(today=today_) == months


@pytest.fixture
def reconciler(client, treasurer, today):
    opening_balance(code=Account.CHECKING, amount="6000.00", actor=treasurer)
    client.force_login(treasurer)
    return client


def reconcile_url(year: int, month: int) -> str:
    return reverse("finance:reconcile", args=[Account.CHECKING, year, month])


@pytest.mark.parametrize(("year", "month"), [(2027, 1), (2027, 6), (2200, 12), (1999, 12)])
def test_a_month_after_next_or_before_2000_has_no_reconciliation_page(reconciler, year, month):
    assert reconciler.get(reconcile_url(year, month)).status_code == 404


def test_next_months_page_opens_without_a_link_further_on(reconciler):
    response = reconciler.get(reconcile_url(2026, 12))
    assert response.status_code == 200
    page = response.content.decode()
    assert f'href="{reconcile_url(2026, 11)}"' in page
    assert reconcile_url(2027, 1) not in page


def test_january_2000_opens_without_a_link_back_to_1999(reconciler):
    response = reconciler.get(reconcile_url(2000, 1))
    assert response.status_code == 200
    page = response.content.decode()
    assert "/1999/12/" not in page
    assert f'href="{reconcile_url(2000, 2)}"' in page


def test_a_form_sent_for_a_month_the_page_does_not_open_for_is_a_404(reconciler):
    response = reconciler.post(
        reverse("finance:reconcile_balance", args=[Account.CHECKING, 2200, 12]), {"balance": "1.00"}
    )
    assert response.status_code == 404


def test_a_voided_correction_reaches_an_officer_at_the_address_they_changed_to(
    october,  # noqa: F811
    treasurer,
    django_capture_on_commit_callbacks,
):
    """The club of ``test_payout_corrections`` (event 3 corrected after October closed): the Treasurer proposes
    it, Hal (hal@…) and Ida (ida@…) are asked to approve it; Ida's address changes before the void."""
    event, seats = october
    _bob_won(event, seats, treasurer)
    with django_capture_on_commit_callbacks(execute=True):
        proposal = payout_correction_propose(event=event, actor=treasurer).record
    asked = MailDelivery.objects.filter(reference=f"payout-correction:{proposal.pk}")
    assert sorted(asked.values_list("to", flat=True)) == ["hal@example.org", "ida@example.org"]
    _, ida = officers("hal", "ida")
    Person.objects.filter(pk=ida.person.pk).update(email="ida.new@example.org")
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        payout_correction_void(proposal=proposal, reason="Paid by check instead", actor=treasurer)
    assert sorted(m.to[0] for m in mail.outbox) == ["hal@example.org", "ida.new@example.org"]
