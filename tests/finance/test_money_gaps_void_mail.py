"""Voiding a check or a payout correction tells the officers who were asked to approve it, and the one who
wrote or proposed it, that it was voided and why: one e-mail each, queued as the approval requests are and sent
once the void commits. The officer who voided it is not mailed (they know), nor is anyone when it is voided
again (nothing changed).

Checks: the clock stands at Nov 29, 2026; club checking holds $6,000.00. Ned Stark (Treasurer, treas@…) writes
check #1001 to the Casino for $5,000.00; Pia Park (President, pres@…) and Val Vance (Vice President, vp@…) are
asked to approve it (SPEC §15.6: the writer's approval counts, three are needed, bylaws §4.7).

Payout corrections: the club of ``test_payout_corrections`` (event 3 corrected after October closed, Bob +$65,
Ann −$65; the clock at Dec 5, 2026): the Treasurer proposes it, Hal (Vice President, hal@…) and Ida (President,
ida@…) are asked to approve it."""

import datetime as dt

import pytest
from django.core import mail
from django.urls import reverse

from finance.models import Account
from finance.services.checks import CheckError, disbursement_approve, disbursement_void
from finance.services.payout_corrections import (
    payout_correction_approve,
    payout_correction_propose,
    payout_correction_void,
)
from ncpc.core.models import MailDelivery
from tests.finance.factories import opening_balance
from tests.finance.test_check_approvals import casino_check, named  # noqa: F401 (fixture)
from tests.finance.test_correction_approval import _cy_fourth
from tests.finance.test_payout_corrections import (  # noqa: F401 (fixtures)
    _bob_won,
    everyone_eligible,
    october,
    officers,
)

NOV_29 = dt.date(2026, 11, 29)
CASINO = "Check #1001 to Casino for $5,000.00"


@pytest.fixture
def written(named, today, settings):  # noqa: F811
    """The check Ned wrote, and the three officers (Ned, Pia, Val); the outbox emptied of its requests."""
    settings.SITE_URL = "https://ncpc.example"
    treasurer, president, vice_president = named
    opening_balance(code=Account.CHECKING, amount="6000.00", actor=treasurer)
    check = casino_check(treasurer, president)
    mail.outbox.clear()
    return check, treasurer, president, vice_president


def sent_to() -> list[str]:
    return sorted(m.to[0] for m in mail.outbox)


def test_a_voided_check_tells_the_officers_asked_to_approve_it_with_the_reason(
    written, django_capture_on_commit_callbacks
):
    check, treasurer, _, _ = written
    with django_capture_on_commit_callbacks(execute=True):
        disbursement_void(
            disbursement=check, reason="The casino wants cash, not a check.", actor=treasurer, on=NOV_29
        )
    assert sent_to() == ["pres@example.org", "vp@example.org"]  # not the Treasurer, who voided it
    message = sorted(mail.outbox, key=lambda m: m.to[0])[1]
    assert message.subject == f"NCPC check voided: {CASINO}"
    assert message.body.startswith(
        f"Hello Val,\n\n{CASINO} was voided on Nov 29, 2026 by treas: The casino wants cash, not a check.\n\n"
        "It is not issued: nothing is posted to the ledger, and it needs no more approvals."
    )
    assert "Amount: $5,000.00\n" in message.body
    assert "Purpose: Room for the final\n" in message.body
    assert message.body.endswith(
        f"The checks list shows it voided: https://ncpc.example/finance/checks/#check-{check.pk}\n"
    )
    rows = MailDelivery.objects.filter(reference=f"check:{check.pk}:void")
    assert {(r.kind, r.to, r.status) for r in rows} == {
        (MailDelivery.Kind.CHECK_APPROVAL, "pres@example.org", "sent"),
        (MailDelivery.Kind.CHECK_APPROVAL, "vp@example.org", "sent"),
    }

    # Voided again: nothing changed, no one is mailed again.
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        again = disbursement_void(disbursement=check, reason="twice", actor=treasurer, on=NOV_29)
    assert again.replayed
    assert mail.outbox == []


def test_the_writer_is_told_when_another_officer_voids_the_check(written, django_capture_on_commit_callbacks):
    """Val approved it; Pia (President, who writes checks too) voids it: Ned, who wrote it, and Val are told."""
    check, _, president, vice_president = written
    disbursement_approve(disbursement=check, actor=vice_president, on=NOV_29)
    with django_capture_on_commit_callbacks(execute=True):
        disbursement_void(disbursement=check, reason="Wrong amount", actor=president, on=NOV_29)
    assert sent_to() == ["treas@example.org", "vp@example.org"]
    ned = next(m for m in mail.outbox if m.to == ["treas@example.org"])
    assert ned.body.startswith(f"Hello Ned,\n\n{CASINO} was voided on Nov 29, 2026 by pres: Wrong amount.\n")


def test_a_void_refused_mails_no_one(written, django_capture_on_commit_callbacks):
    check, treasurer, _, _ = written
    with django_capture_on_commit_callbacks(execute=True), pytest.raises(CheckError, match="Say why"):
        disbursement_void(disbursement=check, reason="  ", actor=treasurer, on=NOV_29)
    assert mail.outbox == []
    assert not MailDelivery.objects.filter(reference__endswith=":void").exists()


def test_the_void_page_voids_it_and_the_officers_are_told(
    written, client, django_capture_on_commit_callbacks
):
    check, treasurer, _, _ = written
    client.force_login(treasurer)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            reverse("finance:check_void", args=[check.pk]), {"reason": "Wrong amount"}, follow=True
        )
    assert f"{CASINO} was voided on Nov 29, 2026 by treas: Wrong amount. It waits for no approvals." in (
        response.content.decode()
    )
    assert sent_to() == ["pres@example.org", "vp@example.org"]


# --- Payout corrections ---


@pytest.fixture
def proposal(october, treasurer, settings):  # noqa: F811
    settings.SITE_URL = "https://ncpc.example"
    event, seats = october
    _bob_won(event, seats, treasurer)
    proposed = payout_correction_propose(event=event, actor=treasurer).record
    mail.outbox.clear()
    return proposed


def test_a_voided_correction_tells_the_officers_asked_to_approve_it_with_the_reason(
    proposal, treasurer, django_capture_on_commit_callbacks
):
    hal, _ = officers("hal", "ida")
    payout_correction_approve(proposal=proposal, actor=hal)
    with django_capture_on_commit_callbacks(execute=True):
        payout_correction_void(proposal=proposal, reason="Paid by check instead", actor=treasurer)
    assert sent_to() == ["hal@example.org", "ida@example.org"]
    message = sorted(mail.outbox, key=lambda m: m.to[0])[1]
    assert message.subject == "NCPC payout correction voided: event 3"
    assert message.body.startswith(
        f"Hello Ida,\n\nPayout correction #{proposal.pk} of event 3 was voided on Dec 5, 2026 by treas: Paid by "
        "check instead.\n\nIt is not posted: nothing changes in the ledger, and it needs no more approvals."
    )
    assert "Place 1: Bob Test, paid $100.00, corrected $165.00, difference $65.00" in message.body
    assert "Place 2: Ann Test, paid $165.00, corrected $100.00, difference −$65.00" in message.body
    assert "From the cash box: $0.00\n" in message.body
    assert message.body.endswith(
        "The payout corrections page shows it voided: "
        f"https://ncpc.example/finance/payouts/corrections/#correction-{proposal.pk}\n"
    )
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        assert payout_correction_void(proposal=proposal, reason="again", actor=treasurer).replayed
    assert mail.outbox == []


def test_the_proposer_is_told_when_the_president_voids_it(
    proposal, treasurer, client, django_capture_on_commit_callbacks
):
    _, ida = officers("hal", "ida")
    client.force_login(ida)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            reverse("finance:payout_correction_void", args=[proposal.pk]),
            {"reason": "Wrong event"},
            follow=True,
        )
    assert (
        f"Payout correction #{proposal.pk} of event 3 was voided on Dec 5, 2026 by ida: Wrong event. It waits "
        "for no approvals; nothing is posted."
    ) in response.content.decode()
    # The Treasurer proposed it, Hal was asked; Ida voided it.
    assert sent_to() == ["hal@example.org", treasurer.person.email]


def test_a_correction_replaced_by_a_new_proposal_is_voided_with_a_mail_and_the_new_one_asked_for(
    proposal, treasurer, django_capture_on_commit_callbacks
):
    """The results changed again (Di outlasted Cy): proposing again voids the first proposal ("The results
    changed") and asks for the new one; Hal and Ida get one of each."""
    event = proposal.event
    seats = {a.membership.person.key: a for a in event.attendances.select_related("membership__person")}
    _cy_fourth(event, seats, treasurer)
    with django_capture_on_commit_callbacks(execute=True):
        again = payout_correction_propose(event=event, actor=treasurer).record
    subjects = sorted((m.to[0], m.subject) for m in mail.outbox)
    assert subjects == [
        ("hal@example.org", "NCPC payout correction to approve: event 3"),
        ("hal@example.org", "NCPC payout correction voided: event 3"),
        ("ida@example.org", "NCPC payout correction to approve: event 3"),
        ("ida@example.org", "NCPC payout correction voided: event 3"),
    ]
    voided = next(m for m in mail.outbox if "voided" in m.subject)
    assert (
        f"Payout correction #{proposal.pk} of event 3 was voided on Dec 5, 2026 by treas: The results changed: "
        "proposed again on Dec 5, 2026." in voided.body
    )
    assert again.pk != proposal.pk
