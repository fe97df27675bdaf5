"""A corrected result of an event in a closed month (SPEC §17.2): its month's report keeps the prizes as they
were paid, so the difference is posted today, in the open month, approved like a disbursement (§4.7, a check).

The Treasurer or the President proposes the correction: the differences as they stand (per seat: place, paid,
corrected, difference) are kept in a ``PayoutCorrectionProposal``, the proposer's approval counting; the other
officers approve it, each once (an e-mail links to it), and the approval that completes the season's quorum
(three) posts the difference to the ledger dated that day, under the key prefix ``payout_held`` reads. A
proposal whose differences no longer match when approved (the results changed again) is refused; it may be
voided, with a reason, until it is posted.

Per seat: the corrected prize less what the ledger holds as paid for the event (its payout and the corrections
posted since). A seat owed more takes cash from the box; a seat paid too much gives it back (the posting
records both). The event's results page keeps the original places beside the corrected ones
(``events.results_history``)."""

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal

from django.db import IntegrityError, transaction
from django.urls import reverse

from events import hooks as events_hooks
from events.models import Event
from finance.models import (
    Account,
    Entry,
    PayoutCorrectionApproval,
    PayoutCorrectionProposal,
    Transaction,
)
from finance.selectors.payouts import (
    event_payout_lines,
    event_payout_prefix,
    payout_correction_prefix,
    payout_corrections_posted,
    payout_held,
    payout_member_names,
)
from finance.services.checks import (
    approval_request_mails,
    approval_requests_sent,
    approvals_needed,
    awaiting_approvals_text,
    void_mark,
    void_notice_mails,
    void_reason_checked,
    void_text,
)
from finance.services.ledger import (
    EntryLine,
    LedgerError,
    Overdrawn,
    asset_overdraw_check,
    month_open_check,
    next_key,
    posted_under_key,
    transaction_post,
)
from finance.services.payouts import NothingToPay, PayoutLine
from members.selectors import offices_held
from ncpc.core.audit import Actor, actor_signed_in, audit_record
from ncpc.core.clock import club_today
from ncpc.core.errors import NcpcError, NotAllowed
from ncpc.core.mail import site_link
from ncpc.core.models import MailDelivery
from ncpc.core.money import ZERO, money_display
from ncpc.core.permissions import Action, user_can, user_person
from ncpc.core.results import Booked


@dataclass(frozen=True)
class PayoutDifference:
    """One seat whose prize changed: its corrected place (None: no prize any more), what the ledger holds as
    paid, and the corrected prize."""

    membership_id: int
    name: str
    place: int | None
    paid: Decimal
    corrected: Decimal

    @property
    def difference(self) -> Decimal:
        return self.corrected - self.paid


@dataclass(frozen=True)
class PayoutCorrection:
    event: Event
    differences: list[PayoutDifference]

    @property
    def total(self) -> Decimal:
        """What leaves the cash box (negative: what comes back to it)."""
        return sum((d.difference for d in self.differences), ZERO)


def payout_differences(
    *, lines: list[PayoutLine], held: dict[int, Decimal], names: dict[int, str]
) -> list[PayoutDifference]:
    """Pure: the seats whose corrected prize (``lines``) differs from what the ledger holds (``held``), in the
    order of the corrected places, then the seats no longer paid."""
    corrected = {line.membership_id: line for line in lines if line.membership_id is not None}
    found = []
    for membership_id, line in corrected.items():
        paid = held.get(membership_id, ZERO)
        if line.amount != paid:
            who = names.get(membership_id, line.member_key)
            if line.paid_to == "substitute":
                who = f"{line.substitute_name} (substitute for {who})"
            found.append(PayoutDifference(membership_id, who, line.place, paid, line.amount))
    for membership_id, paid in sorted(held.items()):
        if membership_id not in corrected and paid != ZERO:
            found.append(
                PayoutDifference(
                    membership_id, names.get(membership_id, str(membership_id)), None, paid, ZERO
                )
            )
    return found


def event_month_closed(*, event: Event) -> bool:
    """Is the event's day in (or before) a closed month, so that its payouts are corrected today?"""
    return events_hooks.closed_month_refusal(day=event.date) is not None


def payout_correction_due(*, event: Event) -> PayoutCorrection | None:
    """The correction the event's payouts need, or None: only for final results of an event in a closed month
    whose prizes differ from what the ledger holds (a payout table without a row raises its error)."""
    if event.status != Event.Status.FINAL or not event_month_closed(event=event):
        return None
    lines = event_payout_lines(event=event)
    differences = payout_differences(
        lines=lines, held=payout_held(event=event), names=payout_member_names(season=event.season)
    )
    return PayoutCorrection(event, differences) if differences else None


class CorrectionError(NcpcError):
    pass


def differences_data(correction: PayoutCorrection) -> list[dict[str, object]]:
    """Pure: the differences as a proposal keeps them (JSON): per seat, its place, paid, corrected and difference."""
    return [
        {
            "membership_id": d.membership_id,
            "name": d.name,
            "place": d.place,
            "paid": str(d.paid),
            "corrected": str(d.corrected),
            "difference": str(d.difference),
        }
        for d in correction.differences
    ]


def proposal_differences(*, proposal: PayoutCorrectionProposal) -> list[PayoutDifference]:
    """The differences a proposal keeps, as it stood when proposed."""
    return [
        PayoutDifference(
            int(d["membership_id"]), str(d["name"]), d["place"], Decimal(d["paid"]), Decimal(d["corrected"])
        )
        for d in proposal.differences
    ]


def _due_or_none(*, event: Event) -> PayoutCorrection | None:
    try:
        return payout_correction_due(event=event)
    except NcpcError:
        return None


def proposal_matches(*, proposal: PayoutCorrectionProposal, due: PayoutCorrection | None) -> bool:
    """Does the proposal still say what the event's payouts need (its differences, seat by seat)?"""
    return due is not None and differences_data(due) == proposal.differences


def proposal_current(*, proposal: PayoutCorrectionProposal) -> bool:
    """Does a pending proposal still match the event's payouts (what its approval would check)?"""
    return proposal_matches(proposal=proposal, due=_due_or_none(event=proposal.event))


def proposal_void_text(*, proposal: PayoutCorrectionProposal) -> str:
    """What a voided proposal says of itself: "Payout correction #4 of event 3 was voided on Dec 5, 2026 by
    treas: the cash was not paid." """
    return void_text(voided=proposal)


@transaction.atomic
def payout_correction_propose(
    *, event: Event, actor: Actor, on: dt.date | None = None
) -> Booked[PayoutCorrectionProposal]:
    """Propose the correction of an event of a closed month (SPEC §17.2): its differences as they stand now
    are kept in a proposal, approved like a check (§4.7). The Treasurer or the President proposes it, and
    approves it by proposing it; the other officers in office are e-mailed a link to approve it. The event row
    is locked (as its results are). A proposal of the same differences still pending is returned ``replayed``;
    one of other differences (the results changed again) is voided and replaced. One the cash box does not
    hold today is refused (``correction_overdraw_check``, SPEC §16.3), as a check the account does not hold is
    when written; it is checked again by the approval that would post it."""
    on = on or club_today()
    if not user_can(actor, Action.MANAGE_LEDGER, on=on):
        raise NotAllowed("Only the Treasurer or the President proposes a payout correction.")
    event = Event.objects.select_for_update().select_related("season").get(pk=event.pk)
    if not event_month_closed(event=event):
        raise CorrectionError(f"Event {event.number}'s month is open: its payout is paid out, not corrected.")
    correction = payout_correction_due(event=event)
    if correction is None:
        raise NothingToPay(
            f"Event {event.number}'s payouts match its results: there is no difference to post."
        )
    data = differences_data(correction)
    pending = (
        PayoutCorrectionProposal.objects.select_for_update(of=("self",))
        .filter(event=event, status=PayoutCorrectionProposal.Status.PENDING)
        .first()
    )
    if pending is not None and pending.differences == data:
        return Booked(pending, replayed=True)
    # SPEC §16.3: refused when proposed, as a check is when written, if the cash box cannot pay it today.
    correction_overdraw_check(event=event, correction=correction, day=on)
    if pending is not None:
        _proposal_void(
            proposal=pending,
            reason=f"The results changed: proposed again on {on:%b %-d, %Y}",
            actor=actor,
            on=on,
        )
    proposal = PayoutCorrectionProposal.objects.create(
        event=event,
        differences=data,
        total=correction.total,
        proposed_on=on,
        created_by=actor_signed_in(actor),
    )
    audit_record(
        actor=actor,
        action="finance.payout_correction.propose",
        summary=f"Proposed {proposal}: {money_display(correction.total)} from the cash box",
        target=proposal,
        data={"differences": data},
    )
    person = user_person(actor)
    offices = sorted(offices_held(person=person, on=on)) if person is not None else []
    if offices:  # the quorum is never below three: the proposer's approval alone never posts it
        PayoutCorrectionApproval.objects.create(
            proposal=proposal, officer=person, office=offices[0], user=actor_signed_in(actor)
        )
        audit_record(
            actor=actor,
            action="finance.payout_correction.approve",
            summary=f"Approved {proposal} by proposing it",
            target=proposal,
        )
    correction_approval_request(proposal=proposal, on=on)
    return Booked(proposal)


def correction_link(*, proposal: PayoutCorrectionProposal) -> str:
    """The address of the proposal on the payout corrections page, for an e-mail."""
    return site_link(f"{reverse('finance:payout_corrections')}#correction-{proposal.pk}")


def correction_approval_request(*, proposal: PayoutCorrectionProposal, on: dt.date) -> list[MailDelivery]:
    """Queue one e-mail to each officer in office on ``on`` who has not approved ``proposal`` (as a check's,
    ``check_approval_request``): the differences, the approvals it has and needs, and a link to approve it."""
    return approval_request_mails(
        approved=set(proposal.approvals.values_list("officer_id", flat=True)),
        needed=approvals_needed(on=proposal.event.date),
        on=on,
        subject=f"payout correction to approve: event {proposal.event.number}",
        template="finance/email/payout_correction_approval.txt",
        context={
            "proposal": proposal,
            "differences": proposal_differences(proposal=proposal),
            "total": money_display(proposal.total),
            "approvers": [a.officer.full_name for a in proposal.approvals.select_related("officer")],
            "link": correction_link(proposal=proposal),
        },
        reference=f"payout-correction:{proposal.pk}",
    )


@transaction.atomic
def payout_correction_approve(
    *, proposal: PayoutCorrectionProposal, actor: Actor, on: dt.date | None = None
) -> PayoutCorrectionProposal:
    """Record the officer's approval; the approval that completes the season's quorum of different officers
    posts the difference to the ledger, dated that day (an open month). The event row, then the proposal's, are
    locked: two officers approving at once post it once. A proposal whose differences no longer match the
    event's (its results changed again, or another correction was posted) is refused: propose it again."""
    on = on or club_today()
    person = user_person(actor)
    offices = sorted(offices_held(person=person, on=on)) if person is not None else []
    if not offices:
        raise NotAllowed("Only an officer in office may approve a payout correction.")
    event = Event.objects.select_for_update().select_related("season").get(pk=proposal.event_id)
    proposal = (
        PayoutCorrectionProposal.objects.select_for_update(of=("self",))
        .select_related("event", "voided_by")
        .get(pk=proposal.pk)
    )
    if proposal.status == PayoutCorrectionProposal.Status.POSTED:
        return proposal
    if proposal.status == PayoutCorrectionProposal.Status.VOID:
        raise CorrectionError(f"{proposal_void_text(proposal=proposal)} There is nothing to approve.")
    if proposal.approvals.filter(officer=person).exists():
        return proposal
    due = _due_or_none(event=event)
    if due is None or not proposal_matches(proposal=proposal, due=due):
        raise CorrectionError(
            f"Event {event.number}'s payouts changed since {proposal} was proposed on "
            f"{proposal.proposed_on:%b %-d, %Y}: its differences no longer match the results and what the "
            "ledger holds. The Treasurer proposes the correction again on the payouts page (it replaces this one)."
        )
    needed = approvals_needed(on=event.date)
    if proposal.approvals.count() + 1 >= needed:
        # The approval that posts the correction posts it today: refuse before recording anything.
        try:
            month_open_check(day=on)
        except LedgerError as exc:
            raise CorrectionError(str(exc)) from None
        # SPEC §16.3: the cash may have left the box since the correction was proposed.
        correction_overdraw_check(event=event, correction=due, day=on)
    try:
        with transaction.atomic():
            PayoutCorrectionApproval.objects.create(
                proposal=proposal, officer=person, office=offices[0], user=actor_signed_in(actor)
            )
    except IntegrityError:
        return proposal
    audit_record(
        actor=actor,
        action="finance.payout_correction.approve",
        summary=f"Approved {proposal}",
        target=proposal,
    )
    if proposal.approvals.values("officer").distinct().count() >= needed:
        txn = _correction_post(event=event, correction=due, actor=actor, day=on)
        proposal.status = PayoutCorrectionProposal.Status.POSTED
        proposal.transaction = txn
        proposal.posted_on = on
        proposal.save(update_fields=["status", "transaction", "posted_on"])
    return proposal


def correction_lines(*, event: Event, correction: PayoutCorrection) -> list[EntryLine]:
    """Pure: the entries a correction posts: per seat its difference on the payouts account, and their sum
    from the cash box (into it, when the seats give back more than they get; none when they cancel)."""
    entries = [
        EntryLine(
            Account.PAYOUTS,
            d.difference,
            membership_id=d.membership_id,
            memo=(f"Place {d.place}: " if d.place else "No prize now: ")
            + f"{d.name} (paid {money_display(d.paid)}, corrected {money_display(d.corrected)})",
        )
        for d in correction.differences
    ]
    total = correction.total
    if total != ZERO:
        entries.append(EntryLine(Account.CASH, -total, memo=f"Payout correction, event {event.number}"))
    return entries


def _overdrawn_hint(exc: Overdrawn, *, day: dt.date) -> Overdrawn:
    """The refusal of a correction the cash box cannot pay, with the way forward."""
    return Overdrawn(
        f"{exc} Record the cash drawn from club checking for the correction first (a transfer dated "
        f"{day:%b %-d, %Y}).",
        field=exc.field,
    )


def correction_overdraw_check(*, event: Event, correction: PayoutCorrection, day: dt.date) -> None:
    """SPEC §16.3, as for a check (``finance.services.checks``): a correction whose difference the cash box
    does not hold on ``day`` (or on a later day of its books) is refused, when proposed and again at the
    approval that would post it, before anything is recorded. Locks the cash box's row until the command's
    transaction ends, so the posting that follows sees the same balance."""
    try:
        asset_overdraw_check(
            day=day,
            lines=correction_lines(event=event, correction=correction),
            what="this payout correction of {amount}",
        )
    except Overdrawn as exc:
        raise _overdrawn_hint(exc, day=day) from None


def _correction_post(
    *, event: Event, correction: PayoutCorrection, actor: Actor, day: dt.date
) -> Transaction:
    """Post the difference between the event's corrected prizes and what the ledger holds as paid, dated
    ``day``, under the key prefix ``payout_held`` reads."""
    try:
        return transaction_post(
            date=day,
            kind=Transaction.Kind.PAYOUT,
            memo=f"Correction of event {event.number} payouts ({event.season}, {event.date:%b %-d, %Y})",
            lines=correction_lines(event=event, correction=correction),
            actor=actor,
            key=next_key(prefix=payout_correction_prefix(event=event)),
        )
    except Overdrawn as exc:  # SPEC §16.3: the difference is paid from cash the box holds
        raise _overdrawn_hint(exc, day=day) from None


# The longest reason a voided proposal keeps (``PayoutCorrectionProposal.void_reason``).


@transaction.atomic
def payout_correction_void(
    *, proposal: PayoutCorrectionProposal, reason: str, actor: Actor, on: dt.date | None = None
) -> Booked[PayoutCorrectionProposal]:
    """Void a proposal not yet posted, with a reason (as a check, ``disbursement_void``): those who propose
    them (the Treasurer, the President). The officers asked to approve it, and its proposer, are e-mailed that
    it was voided and why (``correction_void_notice``; so are they when a new proposal replaces it). One voided
    already is returned ``replayed`` (and mails no one again); a posted one is reversed on the ledger
    instead."""
    on = on or club_today()
    if not user_can(actor, Action.MANAGE_LEDGER, on=on):
        raise NotAllowed("Only the Treasurer or the President voids a payout correction.")
    reason = void_reason_checked(reason, what="correction", error=CorrectionError)
    locked = (
        PayoutCorrectionProposal.objects.select_for_update(of=("self",))
        .select_related("event", "voided_by")
        .get(pk=proposal.pk)
    )
    if locked.status == PayoutCorrectionProposal.Status.VOID:
        return Booked(locked, replayed=True)
    if locked.status == PayoutCorrectionProposal.Status.POSTED:
        raise CorrectionError(
            f"{locked} was posted on {locked.posted_on:%b %-d, %Y} (transaction #{locked.transaction_id}): a "
            "posted correction is not voided. Reverse its transaction on the ledger, with your reason."
        )
    _proposal_void(proposal=locked, reason=reason, actor=actor, on=on)
    return Booked(locked)


def _proposal_void(*, proposal: PayoutCorrectionProposal, reason: str, actor: Actor, on: dt.date) -> None:
    void_mark(
        voided=proposal,
        void_status=PayoutCorrectionProposal.Status.VOID,
        on=on,
        reason=reason,
        actor=actor,
        action="finance.payout_correction.void",
    )
    correction_void_notice(proposal=proposal)


def correction_proposed_text(*, proposal: PayoutCorrectionProposal) -> str:
    """The message after proposing ``proposal``, as a written check's (``awaiting_approvals_text``)."""
    return awaiting_approvals_text(
        done=f"{proposal} proposed",
        approved=proposal.approvals.count(),
        needed=approvals_needed(on=proposal.event.date),
        then="it is posted, dated that day,",
        asked=approval_requests_sent(asked=f"payout-correction:{proposal.pk}"),
    )


def correction_void_notice(*, proposal: PayoutCorrectionProposal) -> list[MailDelivery]:
    """Tell the officers asked to approve ``proposal`` (and its proposer) that it was voided, with the reason,
    as a voided check's are told (``void_notice_mails``): the differences it proposed, and a link to it."""
    return void_notice_mails(
        voided=proposal,
        asked=f"payout-correction:{proposal.pk}",
        approvers=proposal.approvals.values_list("officer_id", flat=True),
        subject=f"payout correction voided: event {proposal.event.number}",
        template="finance/email/payout_correction_void.txt",
        context={
            "proposal": proposal,
            "differences": proposal_differences(proposal=proposal),
            "total": money_display(proposal.total),
            "link": correction_link(proposal=proposal),
        },
    )


def payout_correction_view(*, event: Event) -> dict[str, object]:
    """What the payouts page shows of an event in a closed month (empty for any other): the payout as posted
    (its entries), the corrections posted since, the correction due (or the error that prevents it), and the
    proposal awaiting approvals, if any, with whether it still matches what is due."""
    if not event_month_closed(event=event):
        return {}
    paid = posted_under_key(prefix=event_payout_prefix(event=event))
    posted = payout_corrections_posted(event=event)
    try:
        due, error = payout_correction_due(event=event), ""
    except NcpcError as exc:
        due, error = None, str(exc)
    pending = (
        PayoutCorrectionProposal.objects.filter(event=event, status=PayoutCorrectionProposal.Status.PENDING)
        .select_related("event")
        .prefetch_related("approvals__officer")
        .first()
    )
    return {
        "closed_month": True,
        "paid_entries": _payout_entries(paid) if paid is not None else [],
        "corrections": [(txn, _payout_entries(txn)) for txn in posted],
        "due": due,
        "due_error": error,
        "pending": pending,
        "pending_matches": pending is not None and proposal_matches(proposal=pending, due=due),
        "needed": approvals_needed(on=event.date),
    }


def _payout_entries(txn: Transaction) -> list[Entry]:
    """The prizes of a payout posting (its entries of the payouts account), as posted."""
    return [e for e in txn.entries.all() if e.account.code == Account.PAYOUTS]
