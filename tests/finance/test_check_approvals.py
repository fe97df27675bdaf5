"""Checks (§4.7, SPEC §15.6, issue 35): the writer's approval counts, the other officers are asked by e-mail,
the page says "You approved", and every amount in a message is written as money ("$5,000.00")."""

import datetime as dt
from decimal import Decimal as D

import pytest
from django.core import mail
from django.urls import reverse

from finance.models import Account, Disbursement
from finance.services.checks import CheckError, approvals_left_text, disbursement_approve, disbursement_create
from finance.services.ledger import account_balance, account_get
from members.models import Person
from ncpc.core.models import MailDelivery
from tests.factories import once
from tests.finance.factories import opening_balance

NOV_29 = dt.date(2026, 11, 29)


@pytest.fixture
def named(treasurer, president, vice_president):
    """The three officers with names and addresses, as the e-mails greet them."""
    for user, first, last in (
        (treasurer, "Ned", "Stark"),
        (president, "Pia", "Park"),
        (vice_president, "Val", "Vance"),
    ):
        Person.objects.filter(pk=user.person.pk).update(first_name=first, last_name=last)
        user.person.refresh_from_db()
    return treasurer, president, vice_president


def casino_check(treasurer, president, **kwargs):
    values = {
        "date": NOV_29,
        "payee": "Casino",
        "amount": D("5000.00"),
        "memo": "Room for the final",
        "from_code": Account.CHECKING,
        "to_code": Account.SUPPLIES,
        "check_number": "1001",
        "signers": (treasurer.person, president.person),
        "actor": treasurer,
        "on": NOV_29,
    }
    return disbursement_create(**(values | kwargs)).record


def form_data(treasurer, president, **kwargs):
    return {
        "date": "2026-11-29",
        "check_number": "1001",
        "payee": "Casino",
        "amount": "5000",
        "memo": "Room for the final",
        "from_account": Account.CHECKING,
        "to_account": Account.SUPPLIES,
        "signer_1": treasurer.person.pk,
        "signer_2": president.person.pk,
        "once": once(),
    } | kwargs


def test_what_a_check_still_needs_is_said_in_words():
    assert approvals_left_text(approved=1, needed=3) == "2 more officers approve it"
    assert approvals_left_text(approved=2, needed=3) == "1 more officer approves it"
    assert approvals_left_text(approved=1, needed=4) == "3 more officers approve it"


def test_the_treasurer_who_writes_a_check_has_approved_it_and_two_other_officers_issue_it(named, today):
    treasurer, president, vice_president = named
    opening_balance(code=Account.CHECKING, amount="6000.00", actor=treasurer)
    check = casino_check(treasurer, president)
    assert [(a.officer, a.office) for a in check.approvals.all()] == [(treasurer.person, "treasurer")]
    assert str(check) == "Check #1001 to Casino for $5,000.00"
    # Pressing Approve as well changes nothing: one officer is one approval.
    check = disbursement_approve(disbursement=check, actor=treasurer, on=NOV_29)
    assert check.approvals.count() == 1
    check = disbursement_approve(disbursement=check, actor=vice_president, on=NOV_29)
    assert check.status == Disbursement.Status.PENDING  # two of three
    assert account_balance(account=account_get(Account.CHECKING)) == D("6000.00")
    check = disbursement_approve(disbursement=check, actor=president, on=NOV_29)
    assert check.status == Disbursement.Status.ISSUED  # three different officers
    assert account_balance(account=account_get(Account.CHECKING)) == D("1000.00")


def test_a_writer_who_holds_no_office_on_the_day_has_not_approved(named, today):
    treasurer, president, vice_president = named
    opening_balance(code=Account.CHECKING, amount="6000.00", actor=treasurer)
    # The treasurer's term ends on May 31, 2027: a check written after it carries no approval of theirs.
    check = casino_check(treasurer, president, on=dt.date(2027, 6, 1))
    assert check.approvals.count() == 0


def test_the_other_officers_are_emailed_a_link_to_the_check(
    named, today, settings, django_capture_on_commit_callbacks
):
    settings.SITE_URL = "https://ncpc.example"
    treasurer, president, vice_president = named
    opening_balance(code=Account.CHECKING, amount="6000.00", actor=treasurer)
    with django_capture_on_commit_callbacks(execute=True):
        check = casino_check(treasurer, president)
    sent = sorted(mail.outbox, key=lambda m: m.to[0])
    assert [m.to for m in sent] == [["pres@example.org"], ["vp@example.org"]]  # not the writer
    assert sent[0].subject == "NCPC check to approve: Check #1001 to Casino for $5,000.00"
    body = sent[1].body
    assert body.startswith("Hello Val,\n\nCheck #1001 to Casino for $5,000.00 is written and waits")
    assert "1 of 3 has so far (Ned Stark)." in body
    assert "Amount: $5,000.00\n" in body
    assert "Signed by: Ned Stark and Pia Park\n" in body
    assert body.endswith("If something about it is not right, tell the treasurer before you approve.\n")
    assert f"open the check on the club site: https://ncpc.example/finance/checks/#check-{check.pk}\n" in body
    rows = MailDelivery.objects.filter(kind=MailDelivery.Kind.CHECK_APPROVAL)
    assert {(r.to, r.reference, r.status) for r in rows} == {
        ("pres@example.org", f"check:{check.pk}", "sent"),
        ("vp@example.org", f"check:{check.pk}", "sent"),
    }


def test_a_mail_server_that_is_down_writes_the_check_all_the_same(
    client, named, today, monkeypatch, django_capture_on_commit_callbacks
):
    from django.core.mail.backends.locmem import EmailBackend

    def down(self, messages):
        raise ConnectionRefusedError(111, "Connection refused")

    monkeypatch.setattr(EmailBackend, "send_messages", down)
    treasurer, president, _ = named
    opening_balance(code=Account.CHECKING, amount="6000.00", actor=treasurer)
    client.force_login(treasurer)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(reverse("finance:checks"), form_data(treasurer, president))
    assert response.status_code == 302
    check = Disbursement.objects.get()
    assert check.approvals.get().officer == treasurer.person
    statuses = MailDelivery.objects.filter(reference=f"check:{check.pk}").values_list("status", flat=True)
    assert sorted(statuses) == ["retrying", "retrying"]  # tried again later; nothing refused


def test_the_checks_page_says_what_was_written_and_you_approved_in_money(client, named, today):
    treasurer, president, vice_president = named
    opening_balance(code=Account.CHECKING, amount="6000.00", actor=treasurer)
    client.force_login(treasurer)
    page = client.post(
        reverse("finance:checks"), form_data(treasurer, president), follow=True
    ).content.decode()
    check = Disbursement.objects.get()
    assert (
        "Check #1001 to Casino for $5,000.00 written with your approval (1 of 3); it is issued once 2 more "
        "officers approve it. 2 officers were e-mailed a link to approve it." in page
    )
    assert f'id="check-{check.pk}"' in page
    assert "You approved" in page
    assert reverse("finance:check_approve", args=[check.pk]) not in page  # no Approve button for the writer

    client.force_login(vice_president)
    page = client.get(reverse("finance:checks")).content.decode()
    assert reverse("finance:check_approve", args=[check.pk]) in page and "You approved" not in page
    page = client.post(reverse("finance:check_approve", args=[check.pk]), follow=True).content.decode()
    assert (
        "You approved Check #1001 to Casino for $5,000.00 (2 of 3); it is issued once 1 more officer "
        "approves it." in page
    )
    assert "You approved</div>" in page
    assert reverse("finance:check_approve", args=[check.pk]) not in page

    client.force_login(president)
    page = client.post(reverse("finance:check_approve", args=[check.pk]), follow=True).content.decode()
    assert "Approved: Check #1001 to Casino for $5,000.00 is issued." in page


def test_amounts_over_the_limit_are_written_as_money_on_the_check_and_transfer_pages(client, named, today):
    treasurer, president, _ = named
    client.force_login(treasurer)
    page = client.post(
        reverse("finance:checks"), form_data(treasurer, president, amount="12000")
    ).content.decode()
    assert "$12,000.00 is more than the club&#x27;s limit of $10,000.00 for one amount" in page
    with pytest.raises(CheckError, match=r"^\$10,000\.01 is more than the club's limit of \$10,000\.00 "):
        casino_check(treasurer, president, amount=D("10000.01"))
    page = client.post(
        reverse("finance:transfer"),
        {
            "date": "2026-11-29",
            "from_account": Account.CASH,
            "to_account": Account.CHECKING,
            "amount": "10500.50",
            "memo": "Deposit",
            "once": once(),
        },
    ).content.decode()
    assert "$10,500.50 is more than the club&#x27;s limit of $10,000.00 for one amount" in page
    assert Disbursement.objects.count() == 0


def test_a_posted_transfer_says_its_amount_as_money(client, named, today):
    treasurer, _, _ = named
    opening_balance(code=Account.CASH, amount="4320.00", actor=treasurer)
    client.force_login(treasurer)
    page = client.post(
        reverse("finance:transfer"),
        {
            "date": "2026-11-29",
            "from_account": Account.CASH,
            "to_account": Account.CHECKING,
            "amount": "4320",
            "memo": "Deposit",
            "once": once(),
        },
        follow=True,
    ).content.decode()
    assert ": $4,320.00." in page
