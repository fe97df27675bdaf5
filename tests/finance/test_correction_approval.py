"""SPEC §17.2, issue 45 item 2: the payout difference of a closed month's event is approved like a check (§4.7).

The club of ``test_payout_corrections``: event 3 (Oct 24, 2026) had 11 members on its roster, the payout table
paid Ann $165 (1st), Bob $100 (2nd), Cy $65 (3rd); August to October are closed; the results were then corrected
(Bob won, Ann 2nd): Bob is owed +$65, Ann gives back $65. The clock stands at Dec 5, 2026. The officers: the
Treasurer (treas, the 11th member, absent that night), Hal (Vice President) and Ida (President), both on the
roster. The season's quorum is three different officers; the Treasurer's proposal counts as his approval."""

import datetime as dt
import threading
import time
from decimal import Decimal

import pytest
from django.db import connection, connections, transaction
from django.urls import reverse

from finance.models import PayoutCorrectionProposal, Transaction
from finance.selectors.payouts import payout_held
from finance.services.payout_corrections import (
    CorrectionError,
    payout_correction_approve,
    payout_correction_propose,
    payout_correction_void,
)
from ncpc.core.errors import NotAllowed
from ncpc.core.models import AuditEntry, MailDelivery
from tests.factories import UserFactory
from tests.finance.test_payout_corrections import (  # noqa: F401 (fixtures)
    _bob_won,
    _bust,
    everyone_eligible,
    october,
    officers,
)

D = Decimal
pytestmark = pytest.mark.django_db
DEC_5 = dt.date(2026, 12, 5)


def postings(event):
    return list(Transaction.objects.filter(key__startswith=f"payout-correction:event:{event.pk}:"))


@pytest.fixture
def proposed(october, treasurer):  # noqa: F811
    """The results corrected (Bob won), and the Treasurer's proposal."""
    event, seats = october
    _bob_won(event, seats, treasurer)
    return event, seats, payout_correction_propose(event=event, actor=treasurer).record


def _cy_fourth(event, seats, treasurer):
    """A second correction of the results: Di outlasted Cy, so Di was 3rd ($65) and Cy 4th (no prize)."""
    from events.services.results import bust_undo, results_finish, results_reopen

    event.refresh_from_db()
    results_reopen(event=event, version=event.results_version, actor=treasurer, reason="Di outlasted Cy")
    event.refresh_from_db()
    di_hand = event.eliminations.get(attendance=seats["di"]).hand
    for hand in sorted(
        set(event.eliminations.filter(hand__gte=di_hand).values_list("hand", flat=True)), reverse=True
    ):
        event.refresh_from_db()
        bust_undo(event=event, hand=hand, version=event.results_version, actor=treasurer)
    for name in ("cy", "di", "ann"):
        _bust(event, seats[name])
    event.refresh_from_db()
    results_finish(event=event, version=event.results_version, actor=treasurer)
    event.refresh_from_db()


def test_the_proposal_keeps_the_difference_as_it_stands_audited_with_the_proposers_approval(
    proposed, treasurer
):
    event, seats, proposal = proposed
    bob, ann = seats["bob"].membership_id, seats["ann"].membership_id
    assert proposal.status == PayoutCorrectionProposal.Status.PENDING
    assert proposal.proposed_on == DEC_5
    assert proposal.differences == [
        {"membership_id": bob, "name": "Bob Test", "place": 1, "paid": "100.00", "corrected": "165.00",
         "difference": "65.00"},
        {"membership_id": ann, "name": "Ann Test", "place": 2, "paid": "165.00", "corrected": "100.00",
         "difference": "-65.00"},
    ]  # fmt: skip
    assert proposal.total == D("0.00")
    assert [a.officer.user for a in proposal.approvals.all()] == [treasurer]
    assert list(
        AuditEntry.objects.filter(action__startswith="finance.payout_correction")
        .order_by("pk")
        .values_list("action", flat=True)
    ) == ["finance.payout_correction.propose", "finance.payout_correction.approve"]
    assert postings(event) == []  # nothing posted before the quorum
    assert payout_held(event=event)[bob] == D("100.00")


def test_each_other_officer_is_emailed_a_link_to_approve_it(proposed):
    event, _, proposal = proposed
    mails = MailDelivery.objects.filter(reference=f"payout-correction:{proposal.pk}").order_by("to")
    assert [m.to for m in mails] == ["hal@example.org", "ida@example.org"]  # the Treasurer approved already
    body = mails[0].body
    assert "1 of 3 has so far" in body
    assert "Place 1: Bob Test, paid $100.00, corrected $165.00, difference $65.00" in body
    assert "Place 2: Ann Test, paid $165.00, corrected $100.00, difference −$65.00" in body
    assert f"/finance/payouts/corrections/#correction-{proposal.pk}" in body


def test_each_officer_approves_once_and_the_third_posts_it_dated_that_day(proposed, treasurer):
    event, seats, proposal = proposed
    hal, ida = officers("hal", "ida")
    payout_correction_approve(proposal=proposal, actor=treasurer)  # his approval is counted already
    payout_correction_approve(proposal=proposal, actor=hal)
    payout_correction_approve(proposal=proposal, actor=hal)
    assert proposal.approvals.count() == 2 and postings(event) == []
    done = payout_correction_approve(proposal=proposal, actor=ida)
    assert done.status == PayoutCorrectionProposal.Status.POSTED and done.posted_on == DEC_5
    [txn] = postings(event)
    assert done.transaction == txn and txn.date == DEC_5
    assert payout_held(event=event)[seats["bob"].membership_id] == D("165.00")
    assert payout_held(event=event)[seats["ann"].membership_id] == D("100.00")
    assert (
        payout_correction_approve(proposal=proposal, actor=ida).status
        == PayoutCorrectionProposal.Status.POSTED
    )
    assert len(postings(event)) == 1


def test_only_an_officer_in_office_approves(proposed):
    _, _, proposal = proposed
    with pytest.raises(NotAllowed):
        payout_correction_approve(proposal=proposal, actor=UserFactory())


def test_results_changed_again_refuse_the_approval_and_proposing_again_replaces_it(proposed, treasurer):
    event, seats, proposal = proposed
    hal, ida = officers("hal", "ida")
    payout_correction_approve(proposal=proposal, actor=hal)
    _cy_fourth(event, seats, treasurer)
    with pytest.raises(CorrectionError) as refused:
        payout_correction_approve(proposal=proposal, actor=ida)
    assert str(refused.value) == (
        f"Event 3's payouts changed since Payout correction #{proposal.pk} of event 3 was proposed on Dec 5, "
        "2026: its differences no longer match the results and what the ledger holds. The Treasurer proposes "
        "the correction again on the payouts page (it replaces this one)."
    )
    assert postings(event) == [] and proposal.approvals.count() == 2

    again = payout_correction_propose(event=event, actor=treasurer).record
    proposal.refresh_from_db()
    assert proposal.status == PayoutCorrectionProposal.Status.VOID
    assert proposal.void_reason == "The results changed: proposed again on Dec 5, 2026"
    assert [(d["name"], d["place"], d["difference"]) for d in again.differences] == [
        ("Bob Test", 1, "65.00"),
        ("Ann Test", 2, "-65.00"),
        ("Di Test", 3, "65.00"),
        ("Cy Test", None, "-65.00"),
    ]
    for officer in (hal, ida):
        payout_correction_approve(proposal=again, actor=officer)
    [txn] = postings(event)
    held = payout_held(event=event)
    assert (held[seats["bob"].membership_id], held[seats["ann"].membership_id]) == (D("165.00"), D("100.00"))
    assert (held[seats["di"].membership_id], held[seats["cy"].membership_id]) == (D("65.00"), D("0.00"))


def test_proposing_the_same_difference_twice_returns_the_first(proposed, treasurer):
    event, _, proposal = proposed
    booked = payout_correction_propose(event=event, actor=treasurer)
    assert booked.replayed and booked.record == proposal
    assert PayoutCorrectionProposal.objects.count() == 1


def test_a_void_needs_a_reason_and_the_ledger_keepers_and_then_nothing_is_approved(proposed, treasurer):
    event, _, proposal = proposed
    hal, ida = officers("hal", "ida")
    with pytest.raises(CorrectionError, match="Say why the correction is voided."):
        payout_correction_void(proposal=proposal, reason="  ", actor=treasurer)
    with pytest.raises(NotAllowed):
        payout_correction_void(proposal=proposal, reason="No", actor=hal)  # the Vice President
    payout_correction_void(proposal=proposal, reason="Counted wrong", actor=treasurer)
    assert AuditEntry.objects.filter(action="finance.payout_correction.void", reason="Counted wrong").exists()
    with pytest.raises(CorrectionError) as refused:
        payout_correction_approve(proposal=proposal, actor=hal)
    assert str(refused.value) == (
        f"Payout correction #{proposal.pk} of event 3 was voided on Dec 5, 2026 by treas: Counted wrong. "
        "There is nothing to approve."
    )
    assert payout_correction_void(proposal=proposal, reason="Again", actor=treasurer).replayed
    assert postings(event) == []


def test_a_posted_correction_is_not_voided(proposed, treasurer):
    _, _, proposal = proposed
    for officer in officers("hal", "ida"):
        payout_correction_approve(proposal=proposal, actor=officer)
    with pytest.raises(CorrectionError, match="a posted correction is not voided"):
        payout_correction_void(proposal=proposal, reason="Too late", actor=treasurer)


def test_the_last_approval_is_not_dated_in_a_closed_month(proposed):
    event, _, proposal = proposed
    hal, ida = officers("hal", "ida")
    payout_correction_approve(proposal=proposal, actor=hal)
    with pytest.raises(CorrectionError, match="October 2026"):
        payout_correction_approve(proposal=proposal, actor=ida, on=dt.date(2026, 10, 30))
    assert postings(event) == [] and proposal.approvals.count() == 2


def test_the_officers_approve_on_the_corrections_page_and_finance_counts_it(proposed, treasurer, client):
    event, _, proposal = proposed
    hal, ida = officers("hal", "ida")
    client.force_login(treasurer)
    page = client.get(reverse("finance:index")).content.decode()
    assert "1 payout correction(s) awaiting approval" in page
    client.force_login(hal)
    page = client.get(reverse("finance:payout_corrections")).content.decode()
    assert f'id="correction-{proposal.pk}"' in page and "Approve</button>" in page
    assert "Void</button>" not in page  # the Vice President does not void
    url = reverse("finance:payout_correction_approve", args=(proposal.pk,))
    page = client.post(url, follow=True).content.decode()
    assert (
        f"You approved Payout correction #{proposal.pk} of event 3 (2 of 3); it is posted once 1 more officer "
        "approves it." in page
    )
    assert "You approved</div>" in page
    client.force_login(ida)
    page = client.post(url, follow=True).content.decode()
    [txn] = postings(event)
    assert (
        f"Approved: Payout correction #{proposal.pk} of event 3 is posted, dated today (#{txn.pk})." in page
    )
    client.force_login(treasurer)
    assert (
        "payout correction(s) awaiting approval" not in client.get(reverse("finance:index")).content.decode()
    )


def test_the_void_form_on_the_corrections_page(proposed, treasurer, client):
    _, _, proposal = proposed
    client.force_login(treasurer)
    url = reverse("finance:payout_correction_void", args=(proposal.pk,))
    page = client.post(url, {"reason": ""}, follow=True).content.decode()
    assert "Say why the correction is voided." in page
    page = client.post(url, {"reason": "Paid by check instead"}, follow=True).content.decode()
    assert (
        f"Payout correction #{proposal.pk} of event 3 was voided on Dec 5, 2026 by treas: Paid by check instead."
        in page
    )
    proposal.refresh_from_db()
    assert proposal.status == PayoutCorrectionProposal.Status.VOID
    client.force_login(officers("hal")[0])
    assert client.post(url, {"reason": "x"}).status_code == 403


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif("connection.vendor != 'postgresql'", reason="parallel transactions need PostgreSQL")
def test_two_officers_approving_at_once_post_it_once(proposed):
    """Hal's and Ida's approvals sent at the same moment (the Treasurer's counted): the second waits for the
    first, then completes the quorum; the difference is posted once, never twice and never not at all."""
    assert connection.vendor == "postgresql"
    event, _, proposal = proposed
    hal, ida = officers("hal", "ida")
    holds, may_commit = threading.Event(), threading.Event()
    outcomes: dict[str, str] = {}

    def run_first():
        try:
            with transaction.atomic():
                payout_correction_approve(proposal=proposal, actor=hal)
                holds.set()
                may_commit.wait(10)
            outcomes["hal"] = "done"
        finally:
            connections.close_all()

    def run_second():
        try:
            holds.wait(10)
            payout_correction_approve(proposal=proposal, actor=ida)
            outcomes["ida"] = "done"
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run_first), threading.Thread(target=run_second)]
    for t in threads:
        t.start()
    holds.wait(10)
    time.sleep(0.5)
    assert "ida" not in outcomes  # she waits for the lock
    may_commit.set()
    for t in threads:
        t.join(20)
    assert outcomes == {"hal": "done", "ida": "done"}
    proposal.refresh_from_db()
    assert proposal.status == PayoutCorrectionProposal.Status.POSTED
    assert proposal.approvals.count() == 3
    assert len(postings(event)) == 1
