"""A payout correction that the cash box cannot pay is refused as a check that its account cannot pay is (SPEC
§16.3: no account below zero; §17.2: a correction is approved like a disbursement): when it is proposed, and
again at the approval that would post it, before anything is recorded, naming what the box holds and the way
forward (cash drawn from club checking first).

The club of ``test_payout_corrections``: the cash box opened with $500.00 (Aug 1); event 3 (Oct 24) paid Ann
$165.00, Bob $100.00 and Cy $65.00 from it ($170.00 left); August to October are closed; the clock stands at
Dec 5, 2026. Then, on Dec 5, the night's payout is reversed on the ledger by mistake (the prizes were handed
out): the box holds $500.00 again on the books and the ledger holds nothing paid for event 3, so the correction
due pays the three prizes again, $330.00 from the cash box. Cash banked goes to club checking and comes back."""

import datetime as dt
import html
from decimal import Decimal as D

import pytest
from django.urls import reverse

from finance.models import Account, PayoutCorrectionProposal, Transaction
from finance.services.ledger import (
    Overdrawn,
    account_balance,
    account_get,
    transaction_reverse,
    transfer_post,
)
from finance.services.payout_corrections import (
    payout_correction_approve,
    payout_correction_due,
    payout_correction_propose,
)
from ncpc.core.models import AuditEntry, MailDelivery
from tests.finance.test_payout_corrections import (  # noqa: F401 (fixtures)
    _bob_won,
    everyone_eligible,
    october,
    officers,
)

DEC_5 = dt.date(2026, 12, 5)
REFUSED = (
    "Cash box holds {held} on Dec 5, 2026; this payout correction of $330.00 would take it to {after} (the "
    "club's accounts never go below zero). Nothing was recorded. Record the cash drawn from club checking for "
    "the correction first (a transfer dated Dec 5, 2026)."
)


def cash() -> D:
    return account_balance(account=account_get(Account.CASH))


def move(treasurer, from_code: str, to_code: str, amount: str, memo: str) -> None:
    transfer_post(
        date=DEC_5, from_code=from_code, to_code=to_code, amount=D(amount), memo=memo, actor=treasurer
    )


def corrections(event) -> list[Transaction]:
    return list(Transaction.objects.filter(key__startswith=f"payout-correction:event:{event.pk}:"))


@pytest.fixture
def unpaid(october, treasurer):  # noqa: F811
    """The night's payout reversed on Dec 5: the correction due is the three prizes, $330.00."""
    event, seats = october
    paid = Transaction.objects.get(key=f"payout:event:{event.pk}:")
    transaction_reverse(txn=paid, date=DEC_5, reason="Believed the prizes were not paid", actor=treasurer)
    assert cash() == D("500.00")
    event.refresh_from_db()  # final since the night
    assert payout_correction_due(event=event).total == D("330.00")
    return event, seats


def test_a_correction_the_cash_box_cannot_pay_is_not_proposed(unpaid, treasurer):
    """$450.00 of the box banked: $50.00 left, $330.00 asked of it: −$280.00. Nothing is recorded (no proposal,
    no approval, no e-mail); once $300.00 comes back from checking ($350.00), it is proposed."""
    event, _ = unpaid
    move(treasurer, Account.CASH, Account.CHECKING, "450.00", "Cash box to the bank")
    audited = AuditEntry.objects.count()
    with pytest.raises(Overdrawn) as refused:
        payout_correction_propose(event=event, actor=treasurer)
    assert str(refused.value) == REFUSED.format(held="$50.00", after="−$280.00")
    assert not PayoutCorrectionProposal.objects.exists()
    assert not MailDelivery.objects.exists()
    assert AuditEntry.objects.count() == audited
    assert cash() == D("50.00")

    move(treasurer, Account.CHECKING, Account.CASH, "300.00", "Cash for the correction")
    proposal = payout_correction_propose(event=event, actor=treasurer).record
    assert proposal.total == D("330.00") and proposal.approvals.count() == 1


def test_the_payouts_page_says_why_it_is_not_proposed(unpaid, treasurer, client):
    event, _ = unpaid
    move(treasurer, Account.CASH, Account.CHECKING, "450.00", "Cash box to the bank")
    client.force_login(treasurer)
    response = client.post(reverse("finance:payout_post", args=(event.pk,)), follow=True)
    assert response.status_code == 200
    assert REFUSED.format(held="$50.00", after="−$280.00") in html.unescape(response.content.decode())
    assert not PayoutCorrectionProposal.objects.exists()


def test_cash_banked_after_the_proposal_refuses_the_approval_that_would_post_it(unpaid, treasurer):
    """Proposed with $500.00 in the box; Hal approves (2 of 3); $450.00 is banked ($50.00 left). Ida's approval,
    the third, would post $330.00: refused, and not recorded. $280.00 back from checking: the box holds exactly
    $330.00, and her approval posts the correction, leaving $0.00 (zero is not below zero)."""
    event, _ = unpaid
    proposal = payout_correction_propose(event=event, actor=treasurer).record
    hal, ida = officers("hal", "ida")
    payout_correction_approve(proposal=proposal, actor=hal)
    move(treasurer, Account.CASH, Account.CHECKING, "450.00", "Cash box to the bank")

    with pytest.raises(Overdrawn) as refused:
        payout_correction_approve(proposal=proposal, actor=ida)
    assert str(refused.value) == REFUSED.format(held="$50.00", after="−$280.00")
    assert proposal.approvals.count() == 2
    assert not AuditEntry.objects.filter(action="finance.payout_correction.approve", actor=ida).exists()
    assert corrections(event) == []
    assert cash() == D("50.00")

    move(treasurer, Account.CHECKING, Account.CASH, "280.00", "Cash for the correction")
    posted = payout_correction_approve(proposal=proposal, actor=ida)
    assert posted.status == PayoutCorrectionProposal.Status.POSTED
    assert [t.pk for t in corrections(event)] == [posted.transaction_id]
    assert cash() == D("0.00")


def test_a_correction_whose_differences_cancel_needs_no_cash(october, treasurer):  # noqa: F811
    """Bob won, Ann 2nd: +$65.00 and −$65.00. With the box's $170.00 banked, the correction takes nothing from
    it, and is proposed and posted."""
    event, seats = october
    move(treasurer, Account.CASH, Account.CHECKING, "170.00", "Cash box to the bank")
    assert cash() == D("0.00")
    _bob_won(event, seats, treasurer)
    proposal = payout_correction_propose(event=event, actor=treasurer).record
    for officer in officers("hal", "ida"):
        proposal = payout_correction_approve(proposal=proposal, actor=officer)
    assert proposal.status == PayoutCorrectionProposal.Status.POSTED
    assert cash() == D("0.00")
