"""Members' payments and late-fee waivers (SPEC §7). Commands: each posts, audits, in one transaction."""

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal

from django.db import transaction
from django.utils import timezone

from events.models import Attendance
from events.services.attendance import attendance_after_payment
from finance.models import Account, LateFeeWaiver, Payment, Transaction
from finance.selectors.dues import dues_account
from finance.services.dues import ADMIN_FEE, DUES, LATE_FEE, Charge, MoneyIn
from finance.services.ledger import (
    AlreadyReversed,
    EntryLine,
    KeyUsed,
    LedgerError,
    ReversalOverdraws,
    form_posting_key,
    month_open_check,
    transaction_post,
    transaction_reverse,
)
from finance.services.reconciliation import check_number_from
from members.models import Membership
from ncpc.core.audit import Actor, actor_signed_in, audit_record
from ncpc.core.clock import club_today
from ncpc.core.errors import NcpcError
from ncpc.core.money import ZERO, money_display, quantize
from ncpc.core.results import Booked


class PaymentError(NcpcError):
    pass


class PaymentReversedAlready(PaymentError):
    """The payment was reversed before (its form sent twice, two officers at once): nothing more was booked.
    ``reversal``: the reversing transaction, with who posted it and when."""

    def __init__(self, message: str, *, reversal: Transaction | None):
        super().__init__(message)
        self.reversal = reversal


class PaymentUnconfirmed(PaymentError):
    """The payment asks first (SPEC §16.4): more than the member owes for the rest of the season, or the same
    member and amount recorded a moment ago. Nothing was booked; the officer confirms and sends it again."""

    def __init__(self, questions: Sequence[str]):
        super().__init__(" ".join(questions))
        self.questions = tuple(questions)


# The same member and amount recorded this recently is probably the same payment entered twice (the browser's
# Back button, two officers at the door): the form asks before booking it again (SPEC §16.4).
REPEAT_WINDOW = dt.timedelta(minutes=10)


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


def season_rest_owed(*, charges: Sequence[Charge], payments: Sequence[MoneyIn], on: dt.date) -> Decimal:
    """What a seat owes for the rest of the season on ``on`` (SPEC §16.4): every installment and fee of the
    season, those still ahead included, and the late fees charged by ``on``, less everything paid (zero when
    paid ahead). Late fees after ``on`` are left out: paying now avoids them."""
    charged = sum((c.amount for c in charges if c.kind in (DUES, ADMIN_FEE) or c.date <= on), ZERO)
    paid = sum((p.amount for p in payments), ZERO)
    return max(charged - paid, ZERO)


def payment_recent_same(*, membership: Membership, amount: Decimal, now: dt.datetime) -> Payment | None:
    """The latest payment of the same amount from the same member recorded within ``REPEAT_WINDOW`` before
    ``now`` and not reversed (whatever its method: a door tap counts), if any."""
    return (
        Payment.objects.filter(
            membership=membership,
            amount=amount,
            transaction__created_at__gt=now - REPEAT_WINDOW,
            transaction__created_at__lte=now,
            transaction__reversed_by__isnull=True,
        )
        .select_related("transaction")
        .order_by("-transaction__created_at", "-pk")
        .first()
    )


def _clock_time(moment: dt.datetime) -> str:
    """7:42 pm, in the club's time."""
    local = timezone.localtime(moment)
    return f"{local:%-I:%M} {'am' if local.hour < 12 else 'pm'}"


def payment_questions(*, membership: Membership, date: dt.date, amount: Decimal) -> tuple[str, ...]:
    """What a payment of ``amount`` dated ``date`` must ask before it is booked (SPEC §16.4), none when usual:
    more than the member owes for the rest of the season (both amounts named); the same member and amount
    recorded within the last 10 minutes (when)."""
    questions: list[str] = []
    person = membership.person
    account = dues_account(membership=membership)
    owed = season_rest_owed(charges=account.charges, payments=account.payments, on=date)
    if amount > owed:
        questions.append(
            f"{money_display(amount)} is more than {person} owes for the rest of the season "
            f"({money_display(owed)}). Record it anyway?"
        )
    same = payment_recent_same(membership=membership, amount=amount, now=timezone.now())
    if same is not None:
        questions.append(
            f"{money_display(amount)} from {person}: recorded already at "
            f"{_clock_time(same.transaction.created_at)} (receipt #{same.pk}) — record again?"
        )
    return tuple(questions)


@transaction.atomic
def payment_record(
    *,
    membership: Membership,
    date: dt.date,
    amount: Decimal,
    method: str,
    reference: str = "",
    check_number: str = "",
    actor: Actor,
    once: str | None = None,
    restoring: bool = False,
    ask: bool = False,
    confirmed: bool = False,
) -> PaymentBooked:
    """Cash goes to the cash box, a check to club checking; the credit is dues and fees received.

    ``check_number``: the member's check's number (SPEC §17.4, so the bank's line of its deposit matches);
    when not given, read from a reference that is one ("1043", "Chk #1043").

    ``restoring``: the payment comes from a season file being restored (``import_season``), the season's
    record: it may be dated after today's club date or inside a closed month; nothing else is relaxed.

    ``once``: the one-time key of the form; the same form sent again (a double click, a retry after a dropped
    connection, a parallel submit) records nothing and returns the first payment, ``replayed``.

    ``ask``: an officer typing the payment in (the payment form): a payment above what the member owes for the
    rest of the season, or the same member and amount recorded within 10 minutes, is refused with its questions
    (``PaymentUnconfirmed``) unless ``confirmed``. The door list pays exactly what is due under a lock, imports
    check "already recorded" at their preview (SPEC §16.10) and a restore is the season's record: they do not
    ask (docs/architecture.md)."""
    existing = payment_by_form(once=once) if once else None
    if existing is None:
        _payment_terms_check(
            membership=membership, date=date, amount=amount, method=method, restoring=restoring
        )
        if ask and not confirmed:
            existing = _payment_ask(membership=membership, date=date, amount=amount, once=once)
    if existing is not None:
        return PaymentBooked(existing, replayed=True)
    payment, replayed = _payment_write(
        membership=membership,
        date=date,
        amount=amount,
        method=method,
        reference=reference,
        check_number=check_number,
        actor=actor,
        once=once,
        restoring=restoring,
    )
    if replayed:
        return PaymentBooked(payment, replayed=True)
    # Seats at open events that this payment puts back in good standing (shown on the receipt's message).
    changed = attendance_after_payment(membership=membership, actor=actor)
    return PaymentBooked(payment, seats_changed=tuple(changed))


def _payment_write(
    *,
    membership: Membership,
    date: dt.date,
    amount: Decimal,
    method: str,
    reference: str,
    check_number: str,
    actor: Actor,
    once: str | None,
    restoring: bool,
) -> tuple[Payment, bool]:
    """The payment posted, saved and audited, and False; or the payment the same form recorded first (a
    parallel request), and True."""
    try:
        txn = _payment_post(
            membership=membership,
            date=date,
            amount=amount,
            method=method,
            reference=reference,
            actor=actor,
            once=once,
            restoring=restoring,
        )
    except KeyUsed:
        # A parallel request with the same form committed first (its insert made this one wait): show that one.
        first = payment_by_form(once=once) if once else None
        if first is None:
            raise
        return first, True
    payment = _payment_saved(
        membership=membership,
        date=date,
        amount=amount,
        method=method,
        reference=reference,
        check_number=check_number,
        txn=txn,
        actor=actor,
    )
    return payment, False


def _payment_post(
    *,
    membership: Membership,
    date: dt.date,
    amount: Decimal,
    method: str,
    reference: str,
    actor: Actor,
    once: str | None,
    restoring: bool,
) -> Transaction:
    """The payment's ledger transaction: into the cash box or checking, out of dues and fees received
    (``KeyUsed`` when the same form's posting committed first)."""
    person = membership.person
    season = membership.season
    return transaction_post(
        date=date,
        kind=Transaction.Kind.PAYMENT,
        memo=f"{person} paid {amount} ({method}{' ' + reference if reference else ''})",
        lines=[
            EntryLine(METHOD_ACCOUNT[method], amount, membership_id=membership.pk),
            EntryLine(Account.DUES, -amount, membership_id=membership.pk, memo=f"Dues and fees, {season}"),
        ],
        actor=actor,
        key=form_posting_key(once) if once else None,
        restoring=restoring,
    )


def _payment_saved(
    *,
    membership: Membership,
    date: dt.date,
    amount: Decimal,
    method: str,
    reference: str,
    check_number: str,
    txn: Transaction,
    actor: Actor,
) -> Payment:
    """The payment on its transaction, and its audit row."""
    payment = Payment.objects.create(
        membership=membership,
        date=date,
        amount=amount,
        method=method,
        reference=reference,
        check_number=payment_check_number(method=method, check_number=check_number, reference=reference),
        transaction=txn,
    )
    audit_record(
        actor=actor,
        action="finance.payment",
        summary=f"Payment of {amount} from {membership.person} on {date} ({method})",
        target=payment,
    )
    return payment


def _payment_terms_check(
    *, membership: Membership, date: dt.date, amount: Decimal, method: str, restoring: bool
) -> None:
    """``payment_terms_problem`` raised, the seat read again under its lock (unless ``restoring``), so a payment
    and a removal at the same time do not both happen."""
    seat = membership if restoring else _seat_locked(membership=membership)
    problem = payment_terms_problem(
        membership=seat, date=date, amount=amount, method=method, restoring=restoring
    )
    if problem is not None:
        raise problem


def payment_terms_problem(
    *,
    membership: Membership,
    date: dt.date,
    amount: Decimal | None,
    method: str,
    restoring: bool = False,
    today: dt.date | None = None,
) -> PaymentError | None:
    """What the payment form refuses in a payment before posting it, as the error it raises, or None: a payment
    in cash or by check, not from a member who had left by ``date`` (``departed_payment_problem``), dated in the
    member's season, of an amount the books take (positive, in cents, not above the season's limit) and (unless
    ``restoring``) not after today. The one rule the form (``payment_record``) and the spreadsheet import
    (``payment_line_problem``) both apply (SPEC §17.5); the ledger's own (books' start, closed months) follow
    at posting. ``membership``: with its season and person; ``today``: ``club_today()``, when the caller checks
    many payments. Reads the seat's dues only for a member who left."""
    if method not in METHOD_ACCOUNT:
        return PaymentError("A payment is made in cash or by check.", field="method")
    if not restoring:
        departed = departed_payment_problem(membership=membership, date=date)
        if departed:
            return PaymentError(departed, field="membership")
    season = membership.season
    if not season.start <= date <= season.end:
        return PaymentError(
            f"The date must fall in {season} ({season.start:%b %-d, %Y} – {season.end:%b %-d, %Y}).",
            field="date",
        )
    if amount is None or not isinstance(amount, Decimal) or not amount.is_finite():
        return PaymentError("A payment must be an amount of money.", field="amount")
    if amount <= 0 or quantize(amount) != amount:
        return PaymentError("A payment must be a positive amount in cents.", field="amount")
    # ``amount_check``'s limit (``money_limit_on`` the date): the season's, as the date is in it.
    if amount > season.money_limit:
        return PaymentError(
            f"{money_display(amount)} is more than the club's limit of {money_display(season.money_limit)} "
            "for one amount.",
            field="amount",
        )
    if not restoring and date > (today or club_today()):
        return PaymentError("The date cannot be after today.", field="date")
    return None


def _payment_ask(
    *, membership: Membership, date: dt.date, amount: Decimal, once: str | None
) -> Payment | None:
    """The questions an officer answers before the payment is booked (``payment_questions``), raised as
    ``PaymentUnconfirmed``; or the payment this same form booked meanwhile (a double click), to show again."""
    # The row lock: two officers recording the same payment at once, the second is asked about the first.
    Membership.objects.select_for_update().filter(pk=membership.pk).first()
    if once:
        # A double click waited here for the first click's payment: it is the same form, shown again.
        existing = payment_by_form(once=once)
        if existing is not None:
            return existing
    questions = payment_questions(membership=membership, date=date, amount=amount)
    if questions:
        raise PaymentUnconfirmed(questions)
    return None


def payment_check_number(*, method: str, check_number: str, reference: str) -> str:
    """The check number a payment keeps (SPEC §17.4): the one given, else its reference when that is a check
    number ("1043", "#1043", "Chk #1043"); none for cash. Pure."""
    if method != Payment.Method.CHECK:
        return ""
    return check_number_from(check_number) or check_number_from(reference)


def departed_payment_check(*, membership: Membership, date: dt.date) -> None:
    """No payment dated on or after the day a member left the seat (removed, withdrew, sold or ceded it) is
    booked for them (SPEC §16.2): what they paid stays the club's (§2.12), and money back to one is a check.
    Money received while they held the seat (dated before) may still be recorded. Read under a lock on the
    seat, so a payment and a removal at the same time do not both happen."""
    problem = departed_payment_problem(membership=_seat_locked(membership=membership), date=date)
    if problem:
        raise PaymentError(problem, field="membership")


def _seat_locked(*, membership: Membership) -> Membership:
    """The seat read again under its row lock, with its season and person."""
    return (
        Membership.objects.select_for_update(of=("self",))
        .select_related("season", "person")
        .get(pk=membership.pk)
    )


def departed_payment_problem(*, membership: Membership, date: dt.date) -> str | None:
    """Why a payment dated ``date`` is not booked for this seat's member, who left it on or before that day
    (SPEC §16.2), or None: the one rule the payment form (``departed_payment_check``, under the seat's lock)
    and the spreadsheet import (``payment_line_problem``, SPEC §17.5) both apply. ``membership``: as read now,
    with its season and person."""
    if membership.left_after_event is None:
        return None
    left_on = dues_account(membership=membership).left_on.get(membership.pk)
    if left_on is None or date < left_on:
        return None
    how = membership.get_how_left_display().lower() if membership.how_left else "left"
    return (
        f"{membership.person} left the club on {left_on:%b %-d, %Y} ({how}): no payment is booked for a member "
        "who left. What they paid stays with the club (§2.12); money given back to them is a check."
    )


def reversal_of(*, txn: Transaction) -> Transaction | None:
    """The transaction that reversed ``txn``, with who posted it, if any."""
    return Transaction.objects.filter(reverses=txn).select_related("created_by").first()


def reversed_already_text(*, what: str, reversal: Transaction | None) -> str:
    """What a reversal form sent again says (the form sent twice, or a second officer): "Receipt #5 was
    reversed already, on Dec 6, 2026 at 7:42 pm by treas (#12: Check bounced). Nothing more was booked." """
    text = f"{what} was reversed already"
    if reversal is not None:
        moment = reversal.created_at
        text += f", on {timezone.localtime(moment):%b %-d, %Y} at {_clock_time(moment)}"
        if reversal.created_by is not None:
            text += f" by {reversal.created_by.get_username()}"
        reason = reversal.reason.strip().rstrip(".")
        text += f" (#{reversal.pk}: {reason})" if reason else f" (#{reversal.pk})"
    return f"{text}. Nothing more was booked."


@transaction.atomic
def payment_reverse(
    *, payment: Payment, date: dt.date, reason: str, actor: Actor, overdraw_confirmed: bool | None = None
) -> Transaction:
    """A payment recorded by mistake (or a bounced check) is reversed; both stay on the statement, the receipt
    marked "reversed". The pages date it today (SPEC §15.6). ``overdraw_confirmed``: as ``transaction_reverse``
    (False: one taking an account below zero is refused with ReversalOverdraws until the officer ticks it).
    A payment reversed already (the form sent twice, two officers) books nothing more: PaymentReversedAlready
    says by whom and when."""
    try:
        return transaction_reverse(
            txn=payment.transaction,
            date=date,
            reason=reason,
            actor=actor,
            overdraw_confirmed=overdraw_confirmed,
        )
    except ReversalOverdraws:
        raise
    except AlreadyReversed:
        reversal = reversal_of(txn=payment.transaction)
        raise PaymentReversedAlready(
            reversed_already_text(what=f"Receipt #{payment.pk}", reversal=reversal), reversal=reversal
        ) from None
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
    # The waiver lowers the dues from its day on: not in or before a closed month (SPEC §16.1).
    try:
        month_open_check(day=max(on, fee_date))
    except LedgerError as exc:
        raise PaymentError(str(exc), field="fee_date") from None
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
