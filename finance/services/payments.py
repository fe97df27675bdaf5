"""Members' payments and late-fee waivers (SPEC §7). Commands: each posts, audits, in one transaction."""

import datetime as dt
from decimal import Decimal

from django.db import transaction

from events.services.attendance import attendance_after_payment
from finance.models import Account, LateFeeWaiver, Payment, Transaction
from finance.selectors import dues_account
from finance.services.dues import LATE_FEE
from finance.services.ledger import EntryLine, LedgerError, transaction_post, transaction_reverse
from members.models import Membership
from ncpc.audit import Actor, actor_signed_in, audit_record
from ncpc.errors import NcpcError
from ncpc.money import quantize


class PaymentError(NcpcError):
    pass


METHOD_ACCOUNT: dict[str, str] = {Payment.Method.CASH: Account.CASH, Payment.Method.CHECK: Account.CHECKING}


@transaction.atomic
def payment_record(
    *, membership: Membership, date: dt.date, amount: Decimal, method: str, reference: str = "", actor: Actor
) -> Payment:
    """Cash goes to the cash box, a check to club checking; the credit is dues and fees received."""
    if amount is None or amount <= 0 or quantize(amount) != amount:
        raise PaymentError("A payment is a positive amount in cents.", field="amount")
    if method not in METHOD_ACCOUNT:
        raise PaymentError("A payment is made in cash or by check.", field="method")
    season = membership.season
    if not season.start <= date <= season.end:
        raise PaymentError(
            f"The date must fall in {season} ({season.start:%b %-d, %Y} – {season.end:%b %-d, %Y}).",
            field="date",
        )
    person = membership.person
    txn = transaction_post(
        date=date,
        kind=Transaction.Kind.PAYMENT,
        memo=f"{person} paid {amount} ({method}{' ' + reference if reference else ''})",
        lines=[
            EntryLine(METHOD_ACCOUNT[method], amount, membership_id=membership.pk),
            EntryLine(Account.DUES, -amount, membership_id=membership.pk, memo=f"Dues and fees, {season}"),
        ],
        actor=actor,
    )
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
    payment.seats_changed = attendance_after_payment(  # type: ignore[attr-defined]  # read by the view
        membership=membership, actor=actor
    )
    return payment


@transaction.atomic
def payment_reverse(*, payment: Payment, date: dt.date, reason: str, actor: Actor) -> Transaction:
    """A payment recorded by mistake (or a bounced check) is reversed; both stay on the statement."""
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
