"""Money pages: who sees what (SPEC §12), the treasurer's actions, the monthly report."""

import datetime as dt
from decimal import Decimal

import pytest
import time_machine
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from events.models import Season
from finance.models import Account, Payment, Transaction
from finance.services.escrow import wsop_result_record
from tests.factories import MembershipFactory, once
from tests.finance.factories import pay

pytestmark = pytest.mark.django_db


def own_seat(user):
    return user.person.memberships.get()


def test_a_member_sees_their_own_statement_on_the_finance_page(member_client, member, treasurer):
    pay(membership=own_seat(member), day="2026-08-22", amount="110.00", actor=treasurer)
    response = member_client.get(reverse("finance:index"), follow=True)
    assert response.redirect_chain[-1][0] == reverse("finance:me")
    page = response.content.decode()
    assert "My dues" in page
    assert "110.00" in page
    assert "Not in good standing" in page  # Nov 29: 410 charged, 110 paid


def test_a_member_cannot_see_another_members_statement_or_receipt(member_client, season, treasurer):
    other = MembershipFactory(season=season)
    payment = pay(membership=other, day="2026-08-22", amount="110.00", actor=treasurer)
    assert member_client.get(reverse("finance:statement", args=[other.pk])).status_code == 403
    assert member_client.get(reverse("finance:receipt", args=[payment.pk])).status_code == 403


@pytest.mark.parametrize(
    ("name", "args"),
    [
        ("finance:payments", []),
        ("finance:transfer", []),
        ("finance:reminders", []),
        ("finance:wsop_escrow", []),
        ("finance:wsop_result", []),
        ("finance:checks", []),
        ("finance:payout_post", [1]),
    ],
)
def test_a_member_posting_to_a_treasurer_page_gets_403(member_client, name, args):
    assert member_client.post(reverse(name, args=args), {"amount": "10.00"}).status_code == 403
    assert Transaction.objects.count() == 0


def test_a_member_cannot_reverse_a_payment_or_waive_a_late_fee(member_client, member, treasurer):
    payment = pay(membership=own_seat(member), day="2026-08-22", amount="110.00", actor=treasurer)
    url = reverse("finance:payment_reverse", args=[payment.pk])
    assert member_client.post(url, {"date": "2026-11-29", "reason": "mine"}).status_code == 403
    url = reverse("finance:waive", args=[own_seat(member).pk])
    assert member_client.post(url, {"fee_date": "2026-12-12", "reason": "please"}).status_code == 403


def test_the_president_may_not_waive_a_late_fee(client, president):
    client.force_login(president)
    url = reverse("finance:waive", args=[own_seat(president).pk])
    assert client.post(url, {"fee_date": "2026-12-12", "reason": "x"}).status_code == 403


def test_anonymous_visitors_are_sent_to_log_in(client, season):
    response = client.get(reverse("finance:report", args=[2026, 11]))
    assert response.status_code == 302
    assert "/accounts/login/" in response["Location"]


def test_the_treasurer_records_a_payment_and_gets_a_receipt(client, treasurer, member):
    client.force_login(treasurer)
    seat = own_seat(member)
    response = client.post(
        reverse("finance:payments"),
        {
            "membership": seat.pk,
            "date": "2026-11-29",
            "amount": "110.00",
            "method": "check",
            "reference": "1044",
            "once": once(),
        },
    )
    payment = Payment.objects.get()
    assert response.status_code == 302
    assert response["Location"] == f"{reverse('finance:payments')}?receipt={payment.pk}"
    assert payment.amount == Decimal("110.00")
    assert payment.transaction.created_by == treasurer
    receipt = client.get(reverse("finance:receipt", args=[payment.pk])).content.decode()
    assert "Receipt #" in receipt and "110.00" in receipt


def test_a_bad_amount_is_a_form_error_not_a_500(client, treasurer, member):
    client.force_login(treasurer)
    response = client.post(
        reverse("finance:payments"),
        {"membership": own_seat(member).pk, "date": "2026-11-29", "amount": "-5", "method": "cash"},
    )
    assert response.status_code == 200
    assert Payment.objects.count() == 0


def test_the_treasurer_reverses_a_payment_with_a_reason_and_history_stays(client, treasurer, member):
    client.force_login(treasurer)
    payment = pay(membership=own_seat(member), day="2026-08-22", amount="110.00", actor=treasurer)
    url = reverse("finance:payment_reverse", args=[payment.pk])
    assert client.get(url).status_code == 200  # asks for confirmation first
    client.post(url, {"reason": "Recorded for the wrong member"})
    assert Transaction.objects.count() == 2
    reversal = Transaction.objects.get(reverses=payment.transaction)
    assert reversal.reason == "Recorded for the wrong member"
    assert reversal.date == dt.date(2026, 11, 29)  # dated today (SPEC §15.6), not the payment's day
    statement = client.get(reverse("finance:statement", args=[own_seat(member).pk])).content.decode()
    assert "reversed Nov 29, 2026" in statement


def test_the_treasurer_waives_a_late_fee(client, treasurer, member):
    seat = own_seat(member)
    with time_machine.travel(dt.datetime(2027, 1, 5, 12, tzinfo=dt.UTC), tick=False):
        client.force_login(treasurer)
        response = client.post(
            reverse("finance:waive", args=[seat.pk]), {"fee_date": "2026-12-12", "reason": "In hospital"}
        )
        assert response.status_code == 302
        page = client.get(reverse("finance:statement", args=[seat.pk])).content.decode()
    assert "waived: In hospital" in page


def test_the_monthly_report_shows_the_treasurer_every_member_and_prints_and_downloads(
    client, treasurer, season
):
    late = MembershipFactory(season=season, person__first_name="Ned", person__last_name="Never")
    client.force_login(treasurer)
    response = client.get(reverse("finance:report", args=[2026, 11]))
    page = response.content.decode()
    assert response.status_code == 200
    assert "Ned Never" in page
    assert "Club checking" in page and "WSOP escrow" in page and "Cash box" in page
    assert 'class="navbar' in page and "d-print-none" in page
    csv = client.get(reverse("finance:report", args=[2026, 11]) + "?format=csv")
    assert csv["Content-Type"].startswith("text/csv")
    body = csv.content.decode()
    assert "Ned Never,410.00,0.00,0.00,410.00,no" in body
    assert late.pk


def test_a_member_sees_club_totals_but_not_other_members_dues_in_the_report(member_client, season):
    MembershipFactory(season=season, person__first_name="Ned", person__last_name="Never")
    page = member_client.get(reverse("finance:report", args=[2026, 11])).content.decode()
    assert "Ned Never" not in page
    assert "Club totals" in page
    body = member_client.get(reverse("finance:report", args=[2026, 11]) + "?format=csv").content.decode()
    assert "Ned Never" not in body


def test_the_current_report_redirects_to_this_month(member_client):
    response = member_client.get(reverse("finance:report_current"))
    assert response["Location"] == reverse("finance:report", args=[2026, 11])


def test_the_home_page_shows_my_dues(member_client, member, treasurer):
    pay(membership=own_seat(member), day="2026-08-22", amount="410.00", actor=treasurer)
    page = member_client.get("/").content.decode()
    assert "My dues" in page
    assert "Good standing" in page


@pytest.mark.parametrize(
    "name",
    [
        "finance:index",
        "finance:payments",
        "finance:ledger",
        "finance:transfer",
        "finance:payouts",
        "finance:wsop",
        "finance:checks",
        "finance:reminders",
        "finance:me",
    ],
)
def test_every_treasurer_page_renders(client, treasurer, name):
    client.force_login(treasurer)
    assert client.get(reverse(name)).status_code == 200


def test_a_vice_president_approves_a_check_on_the_checks_page_and_the_third_approval_issues_it(
    client, treasurer, president, vice_president
):
    from finance.models import Account, Disbursement
    from finance.services.checks import disbursement_approve, disbursement_create
    from tests.finance.factories import opening_balance

    opening_balance(code=Account.CHECKING, amount="48.00", actor=treasurer)  # SPEC §16.3: the check's money
    check = disbursement_create(
        date=dt.date(2026, 11, 29),
        payee="Card Shop",
        amount=Decimal("48.00"),
        memo="Cards",
        from_code=Account.CHECKING,
        to_code=Account.SUPPLIES,
        check_number="1001",
        signers=(treasurer.person, president.person),
        actor=treasurer,
    ).record
    disbursement_approve(disbursement=check, actor=treasurer, on=dt.date(2026, 11, 29))
    disbursement_approve(disbursement=check, actor=president, on=dt.date(2026, 11, 29))
    client.force_login(vice_president)
    home = client.get("/").content.decode()
    assert "Checks awaiting your approval" in home and "Card Shop" in home
    assert client.get(reverse("finance:checks")).status_code == 200
    client.post(reverse("finance:check_approve", args=[check.pk]))
    assert Disbursement.objects.get().status == Disbursement.Status.ISSUED
    assert "Checks awaiting your approval" not in client.get("/").content.decode()


def test_the_wsop_page_shows_the_seasons_shares_of_winnings(client, treasurer, season, monkeypatch):
    Season.objects.filter(pk=season.pk).update(
        late_joiner_share_pct=Decimal("2.00"), declined_share_pct=Decimal("4.50")
    )
    representative, declined = MembershipFactory(season=season), MembershipFactory(season=season)
    statuses = {representative.pk: "replacement", declined.pk: "declined"}
    monkeypatch.setattr("finance.hooks.wsop_statuses.answer", lambda *, season: statuses)
    MembershipFactory(season=season, first_event=5)  # a late joiner
    wsop_result_record(
        season=season,
        representative=representative,
        gross=Decimal("3600"),
        tips=Decimal("50"),
        declined=declined,
        actor=treasurer,
    )
    client.force_login(treasurer)
    page = client.get(reverse("finance:wsop")).content.decode()
    assert "(late joiner, 2%)" in page
    assert "(declined qualifier, 4.5%)" in page
    assert "1%" not in page and "3%" not in page
    # Money written one way (the bylaws' example, §9.2: $3,550 net, 60% to the representative, 40% shared).
    assert "gross $3,600.00, tips $50.00, net $3,550.00" in page
    assert "Representative keeps <strong>$2,130.00</strong>; the club's $1,420.00 is shared" in page


@pytest.mark.parametrize(
    "url", [reverse("finance:index"), reverse("finance:ledger"), reverse("finance:report", args=[2026, 11])]
)
def test_the_ledger_pages_of_a_new_club_show_the_accounts_at_zero_and_create_none(client, treasurer, url):
    # A GET never writes: the standard accounts are created by the first posting, not by looking at the books.
    client.force_login(treasurer)
    with CaptureQueriesContext(connection) as captured:
        page = client.get(url).content.decode()
    assert not [q["sql"] for q in captured.captured_queries if q["sql"].startswith(("INSERT", "UPDATE"))]
    assert not Account.objects.exists()
    assert "Club checking" in page and "Cash box" in page and "WSOP escrow" in page
