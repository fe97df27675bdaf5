"""Checks (bylaws §4.7, SPEC §15.6): every disbursement except an event's cash payouts is a check. It is issued
(posted to the ledger) only once a quorum of different officers approved it (the season's ``check_approvals``,
three), and it names the two officers who sign it. Money leaves the WSOP escrow and reaches an expense only so.

SPEC §17.2: a check is not written dated in (or before) a closed month. One written before its month closed
and approved after is posted the day of its last approval, as every check is: the ledger and the checks list
both show that day (the list shows the day written on the check as well). A check not yet issued may be voided
with a reason by those who write checks; an issued one is reversed on the ledger instead.
"""

import datetime as dt
from collections.abc import Iterable
from decimal import Decimal
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Q
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone

from events.models import Season
from finance.models import Account, Disbursement, DisbursementApproval, PayoutCorrectionProposal, Transaction
from finance.services.ledger import (
    EntryLine,
    LedgerError,
    account_get,
    amount_check,
    asset_overdraw_check,
    closed_month_refusal,
    date_not_future_check,
    month_open_check,
    transaction_post,
)
from members.models import Person
from members.selectors import officer_holders, offices_held
from ncpc.core.audit import Actor, actor_signed_in, audit_record
from ncpc.core.clock import club_today
from ncpc.core.errors import NcpcError, NotAllowed
from ncpc.core.identity import club_identity
from ncpc.core.mail import Mail, mail_queue, site_link
from ncpc.core.models import MailDelivery
from ncpc.core.money import money_display
from ncpc.core.permissions import Action, user_can, user_person
from ncpc.core.results import Booked
from ncpc.core.text import text_problem

FROM_ACCOUNTS = (Account.CHECKING, Account.ESCROW)
# Supplies and WSOP expenses; cash for the club's cash box; checking, for money taken out of the escrow.
TO_ACCOUNTS = (Account.SUPPLIES, Account.WSOP_EXPENSES, Account.CASH, Account.CHECKING)
# The bylaws' quorum (§4.7), used when no season covers the check's date; a season's own is its rule.
DEFAULT_APPROVALS = 3


class CheckError(NcpcError):
    pass


# The longest payee, purpose and check number the books keep (``Disbursement``'s fields): the form says so
# too, but the command refuses a longer one itself.
PAYEE_MAX, MEMO_MAX, NUMBER_MAX = 120, 200, 20


def check_lines(*, check: Disbursement) -> list[EntryLine]:
    """The entries a check posts when it is issued: its amount from the account it is drawn on."""
    return [
        EntryLine(check.to_account.code, check.amount, memo=check.payee),
        EntryLine(check.from_account.code, -check.amount),
    ]


def approvals_needed(*, on: dt.date) -> int:
    """The season's quorum of officers for a check (``Season.check_approvals``)."""
    found = (
        Season.objects.filter(start__lte=on, end__gte=on).values_list("check_approvals", flat=True).first()
    )
    return max(found or DEFAULT_APPROVALS, DEFAULT_APPROVALS)


def disbursement_by_form(*, once: str) -> Disbursement | None:
    return Disbursement.objects.filter(form_key=once).first()


@transaction.atomic
def disbursement_create(
    *,
    date: dt.date,
    payee: str,
    amount: Decimal,
    memo: str,
    from_code: str,
    to_code: str,
    check_number: str,
    signers: tuple[Person, Person],
    actor: Actor,
    once: str | None = None,
    on: dt.date | None = None,
) -> Booked[Disbursement]:
    """Write a check (pending until approved). ``signers``: the two officers who sign it (§4.7), in office on
    its date. ``once``: the form's one-time key; the same form sent again returns the first check, ``replayed``.

    A writer who is an officer in office on ``on`` (the day it is written, today when not given) approves it by
    writing it (SPEC §15.6: the quorum is of different officers, the writer one of them). Every other officer
    in office then gets an e-mail asking them to approve it, with a link to the checks page (queued: sent
    after this commits, so a mail server that is down refuses nothing here)."""
    on = on or club_today()
    if once:
        existing = disbursement_by_form(once=once)
        if existing is not None:
            return Booked(existing, replayed=True)
    check_number = _check_details_check(
        date=date,
        payee=payee,
        amount=amount,
        memo=memo,
        from_code=from_code,
        to_code=to_code,
        check_number=check_number,
        signers=signers,
    )
    from_account = _check_account_check(
        from_code=from_code, date=date, amount=amount, check_number=check_number
    )
    check, replayed = _check_row_create(
        date=date,
        payee=payee,
        amount=amount,
        memo=memo,
        check_number=check_number,
        from_account=from_account,
        to_code=to_code,
        signers=signers,
        actor=actor,
        once=once,
    )
    if replayed:
        return Booked(check, replayed=True)
    audit_record(actor=actor, action="finance.check.create", summary=f"{check} ({memo})", target=check)
    _writer_approval(check=check, actor=actor, on=on)
    check_approval_request(check=check, on=on)
    return Booked(check)


def _check_row_create(
    *,
    date: dt.date,
    payee: str,
    amount: Decimal,
    memo: str,
    check_number: str,
    from_account: Account,
    to_code: str,
    signers: tuple[Person, Person],
    actor: Actor,
    once: str | None,
) -> tuple[Disbursement, bool]:
    """The check's row, and False; or the check the same form wrote first (a parallel request), and True. A
    check number of the account written already is a CheckError."""
    first, second = signers
    try:
        with transaction.atomic():
            check = Disbursement.objects.create(
                date=date,
                payee=payee.strip(),
                amount=amount,
                memo=memo.strip(),
                check_number=check_number,
                from_account=from_account,
                to_account=account_get(to_code),
                signer_1=first,
                signer_2=second,
                form_key=once or None,
                created_by=actor_signed_in(actor),
            )
    except IntegrityError:
        # A parallel request committed first: the same form (show its check), or the same check number.
        existing = disbursement_by_form(once=once) if once else None
        if existing is None:
            raise CheckError(
                f"Check number {check_number} of {from_account} is written already.", field="check_number"
            ) from None
        return existing, True
    return check, False


def _check_details_check(
    *,
    date: dt.date,
    payee: str,
    amount: Decimal,
    memo: str,
    from_code: str,
    to_code: str,
    check_number: str,
    signers: tuple[Person, Person],
) -> str:
    """The checks of what a check says, each refusal naming the form's field; returns its number, trimmed."""
    try:
        amount_check(amount=amount, day=date, what="A check")
        date_not_future_check(day=date)
    except LedgerError as exc:
        raise CheckError(str(exc), field=exc.field) from None
    # SPEC §17.2: a closed month's report is final, and a check dated in it would belong to it.
    refusal = closed_month_refusal(day=date)
    if refusal is not None:
        raise CheckError(refusal, field="date")
    if from_code not in FROM_ACCOUNTS or to_code not in TO_ACCOUNTS or from_code == to_code:
        raise CheckError("Checks are drawn on club checking or the WSOP escrow account.", field="to_account")
    if not payee.strip():
        raise CheckError("Name the payee.", field="payee")
    if len(payee.strip()) > PAYEE_MAX:
        raise CheckError(f"The payee's name is longer than {PAYEE_MAX} characters.", field="payee")
    if not memo.strip():
        raise CheckError("Say what the check pays for.", field="memo")
    if len(memo.strip()) > MEMO_MAX:
        raise CheckError(f"The purpose is longer than {MEMO_MAX} characters.", field="memo")
    check_number = check_number.strip()
    if not check_number:
        raise CheckError("Give the check's number.", field="check_number")
    if len(check_number) > NUMBER_MAX:
        raise CheckError(f"A check number has at most {NUMBER_MAX} characters.", field="check_number")
    first, second = signers
    if first.pk == second.pk:
        raise CheckError("A check needs two different officers' signatures (§4.7).", field="signer_2")
    for signer in signers:
        if not offices_held(person=signer, on=date):
            raise CheckError(f"{signer} is not an officer on {date:%b %-d, %Y}.", field="signer_1")
    return check_number


def _check_account_check(*, from_code: str, date: dt.date, amount: Decimal, check_number: str) -> Account:
    """The account the check is drawn on, when it holds the amount on the check's date and has no check of that
    number yet. SPEC §16.3: refused when written if the account does not hold the amount (the account row is
    locked until this transaction ends); refused again by the approval that would issue it."""
    from_account = account_get(from_code)
    try:
        asset_overdraw_check(day=date, lines=[EntryLine(from_code, -amount)], what="a check of {amount}")
    except LedgerError as exc:
        raise CheckError(str(exc), field=exc.field) from None
    if Disbursement.objects.filter(from_account=from_account, check_number=check_number).exists():
        raise CheckError(
            f"Check number {check_number} of {from_account} is written already.", field="check_number"
        )
    return from_account


def _writer_approval(*, check: Disbursement, actor: Actor, on: dt.date) -> None:
    """A writer who is an officer in office on ``on`` approves the check by writing it (SPEC §15.6)."""
    writer = user_person(actor)
    offices = sorted(offices_held(person=writer, on=on)) if writer is not None else []
    if offices:
        # The quorum is never below three (``approvals_needed``): the writer's approval alone never issues it.
        DisbursementApproval.objects.create(
            disbursement=check, officer=writer, office=offices[0], user=actor_signed_in(actor)
        )
        audit_record(
            actor=actor,
            action="finance.check.approve",
            summary=f"Approved {check} by writing it",
            target=check,
        )


def check_link(*, check: Disbursement) -> str:
    """The address of the check on the checks page, for an e-mail."""
    return site_link(f"{reverse('finance:checks')}#check-{check.pk}")


def check_approval_request(*, check: Disbursement, on: dt.date) -> list[MailDelivery]:
    """Queue one e-mail to each officer in office on ``on`` who has not approved ``check``: what the check is,
    how many approvals it has and needs, and a link to approve it. Officers without an address are skipped."""
    return approval_request_mails(
        approved=set(check.approvals.values_list("officer_id", flat=True)),
        needed=approvals_needed(on=check.date),
        on=on,
        subject=f"check to approve: {check}",
        template="finance/email/check_approval.txt",
        context={
            "check": check,
            "amount": money_display(check.amount),
            "approvers": [a.officer.full_name for a in check.approvals.select_related("officer")],
            "link": check_link(check=check),
        },
        reference=f"check:{check.pk}",
    )


def approval_requests_sent(*, asked: str) -> int:
    """How many officers were e-mailed to approve what ``asked`` names (``check:<id>``,
    ``payout-correction:<id>``, the approval requests' reference)."""
    return MailDelivery.objects.filter(kind=MailDelivery.Kind.CHECK_APPROVAL, reference=asked).count()


def awaiting_approvals_text(*, done: str, approved: int, needed: int, then: str, asked: int) -> str:
    """Pure: what the officer who wrote a check (or proposed a correction) is told: ``done`` ("Check #12 to …
    written"), with their approval if given, what ``then`` happens once the rest approve ("it is issued"), and
    how many officers were e-mailed a link to approve it."""
    text = done
    if approved:
        text += f" with your approval ({approved} of {needed})"
    text += f"; {then} once {approvals_left_text(approved=approved, needed=needed)}."
    if asked:
        text += f" {asked} officer{'s were' if asked != 1 else ' was'} e-mailed a link to approve it."
    return text


def check_written_text(*, check: Disbursement) -> str:
    """The message after writing ``check`` (``awaiting_approvals_text``)."""
    return awaiting_approvals_text(
        done=f"{check} written",
        approved=check.approvals.count(),
        needed=approvals_needed(on=check.date),
        then="it is issued",
        asked=approval_requests_sent(asked=f"check:{check.pk}"),
    )


def void_mark(*, voided: Any, void_status: str, on: dt.date, reason: str, actor: Actor, action: str) -> None:
    """Mark a check or a payout correction ``voided`` (locked by the caller, not yet void) void on ``on`` with
    ``reason``, audited as ``action``; the caller tells the officers (``void_notice_mails``)."""
    voided.status = void_status
    voided.voided_on = on
    voided.voided_by = actor_signed_in(actor)
    voided.void_reason = reason
    voided.save(update_fields=["status", "voided_on", "voided_by", "void_reason"])
    audit_record(actor=actor, action=action, summary=f"Voided {voided}", target=voided, reason=reason)


def approvals_left_text(*, approved: int, needed: int) -> str:
    """Pure: what a check still needs, as the checks page says it: "2 more officers approve it"."""
    left = max(needed - approved, 0)
    return f"{left} more officer approves it" if left == 1 else f"{left} more officers approve it"


@transaction.atomic
def disbursement_approve(*, disbursement: Disbursement, actor: Actor, on: dt.date) -> Disbursement:
    """Record the officer's approval; the approval that completes the quorum of different officers issues the
    check: it is posted to the ledger, dated that day. The same officer approving twice changes nothing."""
    person = user_person(actor)
    offices = sorted(offices_held(person=person, on=on)) if person is not None else []
    if not offices:
        raise NotAllowed("Only an officer in office may approve a check.")
    check = (
        Disbursement.objects.select_for_update()
        .select_related("from_account", "to_account")
        .get(pk=disbursement.pk)
    )
    if check.status == Disbursement.Status.ISSUED:
        return check
    if check.status == Disbursement.Status.VOID:
        raise CheckError(f"{check_void_text(check=check)} There is nothing to approve.")
    if check.approvals.filter(officer=person).exists():
        return check
    needed = approvals_needed(on=check.date)
    if check.approvals.count() + 1 >= needed:
        # The approval that issues the check posts it today: refuse before recording anything.
        try:
            month_open_check(day=on)
            # SPEC §16.3: the money may have left the account since the check was written.
            asset_overdraw_check(
                day=on, lines=check_lines(check=check), what="issuing this check of {amount}"
            )
        except LedgerError as exc:
            raise CheckError(str(exc)) from None
    try:
        with transaction.atomic():
            DisbursementApproval.objects.create(
                disbursement=check, officer=person, office=offices[0], user=actor_signed_in(actor)
            )
    except IntegrityError:
        return check
    audit_record(actor=actor, action="finance.check.approve", summary=f"Approved {check}", target=check)
    if check.approvals.values("officer").distinct().count() >= needed:
        txn = transaction_post(
            date=on,
            kind=Transaction.Kind.CHECK,
            memo=f"Check {check.check_number} to {check.payee}: {check.memo}".replace("Check  ", "Check "),
            lines=check_lines(check=check),
            actor=actor,
            key=f"check:{check.pk}:",
        )
        check.status = Disbursement.Status.ISSUED
        check.transaction = txn
        check.issued_on = on
        check.save(update_fields=["status", "transaction", "issued_on"])
    return check


# The longest reason a voided check or payout correction keeps (``void_reason``).
VOID_REASON_MAX = 500


def void_text(*, voided: Disbursement | PayoutCorrectionProposal) -> str:
    """What a voided check (or payout correction) says of itself: "Check #1001 to Casino for $5,000.00 was
    voided on Dec 6, 2026 by treas: wrong amount." """
    text = f"{voided} was voided"
    if voided.voided_on:
        text += f" on {voided.voided_on:%b %-d, %Y}"
    if voided.voided_by is not None:
        text += f" by {voided.voided_by.username}"
    reason = voided.void_reason.strip().rstrip(".")
    return f"{text}: {reason}." if reason else f"{text}."


def check_void_text(*, check: Disbursement) -> str:
    return void_text(voided=check)


def void_reason_checked(reason: str | None, *, what: str, error: type[NcpcError]) -> str:
    """The reason a check or a payout correction is voided, stripped: required, and at most VOID_REASON_MAX
    characters (``what``: "check", "correction")."""
    reason = (reason or "").strip()
    if not reason:
        raise error(f"Say why the {what} is voided.", field="reason")
    if len(reason) > VOID_REASON_MAX:
        raise error(f"The reason is longer than {VOID_REASON_MAX} characters.", field="reason")
    # Shown to the officers and e-mailed to them: a control or direction character would garble both.
    if problem := text_problem(reason, lines=True):
        raise error(problem, field="reason")
    return reason


def approval_request_mails(
    *,
    approved: set[int],
    needed: int,
    on: dt.date,
    subject: str,
    template: str,
    context: dict[str, Any],
    reference: str,
) -> list[MailDelivery]:
    """Queue one e-mail to each officer in office on ``on`` who has not approved (``approved``: their person
    ids) and has an address: ``template`` with ``context``, the person, the approvals counted and needed and the
    club. What a check's and a payout correction's approval requests share (``reference`` names which)."""
    asked = [p for p in officer_holders(on=on).values() if p.pk not in approved and p.email]
    return _officer_mails(
        persons=asked,
        subject=subject,
        template=template,
        context={**context, "approved": len(approved), "needed": needed},
        reference=reference,
    )


def _officer_mails(
    *, persons: Iterable[Person], subject: str, template: str, context: dict[str, Any], reference: str
) -> list[MailDelivery]:
    """Queue one e-mail to each of ``persons`` (once each, by person id): ``template`` with ``context``, the
    person and the club, the subject after the club's short name. Sent after the transaction commits."""
    club = club_identity()
    unique = {p.pk: p for p in persons}
    mails = [
        Mail(
            to=person.email,
            subject=f"{club.short_name} {subject}",
            body=render_to_string(template, {**context, "person": person, "club": club}),
        )
        for person in sorted(unique.values(), key=lambda p: p.pk)
    ]
    if not mails:
        return []
    return mail_queue(kind=MailDelivery.Kind.CHECK_APPROVAL, messages=mails, reference=reference)


def void_notice_mails(
    *,
    voided: Disbursement | PayoutCorrectionProposal,
    asked: str,
    approvers: Iterable[int],
    subject: str,
    template: str,
    context: dict[str, Any],
) -> list[MailDelivery]:
    """Queue one e-mail to each officer told of ``voided`` before: those asked to approve it (the approval
    requests under the reference ``asked``), those who approved it (``approvers``: their person ids) and the
    officer who wrote (or proposed) it, but not the one who voided it, who knows: ``template`` with
    ``context``, the void's text (``void_text``), the person and the club. Sent as the approval requests are
    (``approval_request_mails``), under the reference ``<asked>:void``; those without an address are skipped.

    The officers asked are found as the requests chose them, by who they are, not by the addresses the requests
    went to: those in office on the day ``voided`` was written (its ``created_at``, the club's date), when
    requests were sent under ``asked``. Each is mailed at their address now, so one whose e-mail changed since
    is still told."""
    asked_ids: list[int] = []
    if MailDelivery.objects.filter(kind=MailDelivery.Kind.CHECK_APPROVAL, reference=asked).exists():
        requested_on = timezone.localtime(voided.created_at).date()
        asked_ids = [person.pk for person in officer_holders(on=requested_on).values()]
    told = Person.objects.filter(
        Q(pk__in=list(approvers)) | Q(pk__in=asked_ids) | Q(user_id=voided.created_by_id)
    ).exclude(email="")
    if voided.voided_by_id is not None:
        told = told.exclude(user_id=voided.voided_by_id)
    return _officer_mails(
        persons=told,
        subject=subject,
        template=template,
        context={**context, "void_text": void_text(voided=voided)},
        reference=f"{asked}:void",
    )


def check_void_notice(*, check: Disbursement) -> list[MailDelivery]:
    """Tell the officers asked to approve ``check`` (and its writer) that it was voided, with the reason
    (``void_notice_mails``): what the check was, and a link to the checks list, which shows it voided."""
    return void_notice_mails(
        voided=check,
        asked=f"check:{check.pk}",
        approvers=check.approvals.values_list("officer_id", flat=True),
        subject=f"check voided: {check}",
        template="finance/email/check_void.txt",
        context={"check": check, "amount": money_display(check.amount), "link": check_link(check=check)},
    )


@transaction.atomic
def disbursement_void(
    *, disbursement: Disbursement, reason: str, actor: Actor, on: dt.date | None = None
) -> Booked[Disbursement]:
    """Void a check not yet issued (it was refused, or written wrong): it keeps its number, waits for no more
    approvals, and the checks list shows it voided with ``reason``. Those who write checks void them (the
    Treasurer, and the President). The officers asked to approve it, and its writer, are e-mailed that it was
    voided and why (``check_void_notice``, sent after this commits). A check voided already is returned
    ``replayed`` (and mails no one again). An issued check is posted: it is not voided but reversed on the
    ledger, with a reason."""
    on = on or club_today()
    if not user_can(actor, Action.MANAGE_LEDGER, on=on):
        raise NotAllowed("Only the Treasurer or the President voids a check.")
    reason = void_reason_checked(reason, what="check", error=CheckError)
    # Locked as its approval locks it: a void and the approval that would issue it never both happen.
    check = (
        Disbursement.objects.select_for_update(of=("self",))
        .select_related("from_account", "to_account", "transaction", "voided_by")
        .get(pk=disbursement.pk)
    )
    if check.status == Disbursement.Status.VOID:
        return Booked(check, replayed=True)
    if check.status == Disbursement.Status.ISSUED:
        posted = f" (transaction #{check.transaction_id})" if check.transaction_id else ""
        issued = f" on {check.issued_on:%b %-d, %Y}" if check.issued_on else ""
        raise CheckError(
            f"{check} was issued{issued}{posted}: a posted check is not voided. Reverse its transaction on the "
            "ledger, with your reason."
        )
    void_mark(
        voided=check,
        void_status=Disbursement.Status.VOID,
        on=on,
        reason=reason,
        actor=actor,
        action="finance.check.void",
    )
    check_void_notice(check=check)
    return Booked(check)
