"""Members' payments and late-fee waivers (SPEC §7). Commands: each posts, audits, in one transaction."""

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal

from django.db import transaction

from events.models import Attendance
from events.services.attendance import attendance_after_payment
from finance.models import Account, LateFeeWaiver, Payment, Transaction
from finance.selectors import dues_account
from finance.services.dues import LATE_FEE
from finance.services.ledger import (
    EntryLine,
    KeyUsed,
    LedgerError,
    amount_check,
    date_not_future_check,
    form_posting_key,
    transaction_post,
    transaction_reverse,
)
from members.models import Membership
from ncpc.core.audit import Actor, actor_signed_in, audit_record
from ncpc.core.errors import NcpcError
from ncpc.core.results import Booked


class PaymentError(NcpcError):
    pass


METHOD_ACCOUNT: dict[str, str] = {Payment.Method.CASH: Account.CASH, Payment.Method.CHECK: Account.CHECKING}


@dataclass(frozen=True)
class PaymentBooked(Booked[Payment]):
    """A payment booked once; ``seats_changed``: the seats at open events this payment put back in good
    standing (shown on the receipt's message; none when the form was sent before)."""

    seats_changed: tuple[Attendance, ...] = ()


def payment_by_form(*, once: str) -> Payment | None:
    """The payment a form with this one-time key recorded, if any."""
    return (
        Payment.objects.filter(transaction__key=form_posting_key(once))
        .select_related("membership__person")
        .first()
    )


@transaction.atomic
def payment_record(
    *,
    membership: Membership,
    date: dt.date,
    amount: Decimal,
    method: str,
    reference: str = "",
    actor: Actor,
    once: str | None = None,
    restoring: bool = False,
) -> PaymentBooked:
    """Cash goes to the cash box, a check to club checking; the credit is dues and fees received.

    ``restoring``: the payment comes from a season file being restored (``import_season``), the season's
    record: it may be dated after today's club date or inside a closed month; nothing else is relaxed.

    ``once``: the one-time key of the form; the same form sent again (a double click, a retry after a dropped
    connection, a parallel submit) records nothing and returns the first payment, ``replayed``."""
    if once:
        existing = payment_by_form(once=once)
        if existing is not None:
            return PaymentBooked(existing, replayed=True)
    if method not in METHOD_ACCOUNT:
        raise PaymentError("A payment is made in cash or by check.", field="method")
    if not restoring:
        departed_payment_check(membership=membership, date=date)
    season = membership.season
    if not season.start <= date <= season.end:
        raise PaymentError(
            f"The date must fall in {season} ({season.start:%b %-d, %Y} – {season.end:%b %-d, %Y}).",
            field="date",
        )
    try:
        amount_check(amount=amount, day=date, what="A payment")
        if not restoring:
            date_not_future_check(day=date)
    except LedgerError as exc:
        raise PaymentError(str(exc), field=exc.field) from None
    person = membership.person
    try:
        txn = transaction_post(
            date=date,
            kind=Transaction.Kind.PAYMENT,
            memo=f"{person} paid {amount} ({method}{' ' + reference if reference else ''})",
            lines=[
                EntryLine(METHOD_ACCOUNT[method], amount, membership_id=membership.pk),
                EntryLine(
                    Account.DUES, -amount, membership_id=membership.pk, memo=f"Dues and fees, {season}"
                ),
            ],
            actor=actor,
            key=form_posting_key(once) if once else None,
            restoring=restoring,
        )
    except KeyUsed:
        # A parallel request with the same form committed first (its insert made this one wait): show that one.
        first = payment_by_form(once=once) if once else None
        if first is None:
            raise
        return PaymentBooked(first, replayed=True)
    payment = Payment.objects.create(
        membership=membership, date=date, amount=amount, method=method, reference=reference, transaction=txn
    )
    audit_record(
        actor=actor,
        action="finance.payment",
        summary=f"Payment of {amount} from {person} on {date} ({method})",
        target=payment,
    )

    # Seats at open events that this payment puts back in good standing (shown on the receipt's message).
    changed = attendance_after_payment(membership=membership, actor=actor)
    return PaymentBooked(payment, seats_changed=tuple(changed))


def departed_payment_check(*, membership: Membership, date: dt.date) -> None:
    """No payment dated on or after the day a member left the seat (removed, withdrew, sold or ceded it) is
    booked for them (SPEC §16.2): what they paid stays the club's (§2.12), and money back to one is a check.
    Money received while they held the seat (dated before) may still be recorded. Read under a lock on the
    seat, so a payment and a removal at the same time do not both happen."""
    seat = Membership.objects.select_for_update().select_related("season", "person").get(pk=membership.pk)
    if seat.left_after_event is None:
        return
    left_on = dues_account(membership=seat).left_on.get(seat.pk)
    if left_on is None or date < left_on:
        return
    how = seat.get_how_left_display().lower() if seat.how_left else "left"
    raise PaymentError(
        f"{seat.person} left the club on {left_on:%b %-d, %Y} ({how}): no payment is booked for a member who "
        "left. What they paid stays with the club (§2.12); money given back to them is a check.",
        field="membership",
    )


@transaction.atomic
def payment_reverse(*, payment: Payment, date: dt.date, reason: str, actor: Actor) -> Transaction:
    """A payment recorded by mistake (or a bounced check) is reversed; both stay on the statement, the receipt
    marked "reversed". The pages date it today (SPEC §15.6)."""
    try:
        return transaction_reverse(txn=payment.transaction, date=date, reason=reason, actor=actor)
    except LedgerError as exc:
        raise PaymentError(str(exc), field=exc.field) from None


@transaction.atomic
def late_fee_waive(
    *, membership: Membership, fee_date: dt.date, on: dt.date, reason: str, actor: Actor
) -> LateFeeWaiver:
    """Treasurer only (the view checks Action.WAIVE_LATE_FEES). The fee must have been charged."""
    reason = (reason or "").strip()
    if not reason:
        raise PaymentError("Say why the late fee is waived.", field="reason")
    account = dues_account(membership=membership)
    holders = [h.pk for h in account.holders]
    if not any(c.kind == LATE_FEE and c.date == fee_date for c in account.charges):
        raise PaymentError(f"No late fee was charged on {fee_date:%b %-d, %Y}.", field="fee_date")
    if LateFeeWaiver.objects.filter(membership__in=holders, fee_date=fee_date).exists():
        raise PaymentError(f"The late fee of {fee_date:%b %-d, %Y} is waived already.", field="fee_date")
    waiver = LateFeeWaiver.objects.create(
        membership=membership,
        fee_date=fee_date,
        on=max(on, fee_date),
        reason=reason,
        created_by=actor_signed_in(actor),
    )
    audit_record(
        actor=actor,
        action="finance.late_fee_waiver",
        summary=f"Waived the late fee of {fee_date} for {membership.person}",
        target=waiver,
        reason=reason,
    )
    return waiver
