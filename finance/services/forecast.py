"""What a member owes next, before it is late (§2.6–2.10, SPEC §7): one calculator for the statement, the home
panel and (later) reminders and the payment form. Pure: no ORM.

A seat's charges (``finance.services.dues.dues_charges``) list the whole season: the dues installments on their
events' dates, and the late fees that *would* be charged if nothing more were paid. So what lies ahead of a date
is read off the same list.
"""

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal

from finance.services.dues import ADMIN_FEE, DUES, LATE_FEE, WAIVER, Charge, MoneyIn
from ncpc.core.money import ZERO

_BASE = (DUES, ADMIN_FEE)


@dataclass(frozen=True)
class DuesOutlook:
    on: dt.date
    balance: Decimal  # as of ``on``: positive owes, negative paid ahead
    next_event: dt.date | None  # the next event on or after ``on``
    due_at_next_event: Decimal  # dues and fees that fall due from tomorrow through the next event
    to_play: Decimal  # what must be paid by the next event's date (at the door counts) to play there
    late_fee: Decimal  # the next late fee, if what is owed by its date stays unpaid (zero: none ahead)
    late_fee_date: dt.date | None
    avoid_late_fee: Decimal  # what must be paid by ``late_fee_date`` to avoid it
    # The day the member left the seat, when by ``on`` (SPEC §16.2): nothing ahead, no credit.
    left_on: dt.date | None = None

    @property
    def credit(self) -> Decimal:
        """Paid ahead; none for a member who left: what they paid stays the club's (§2.12)."""
        return -self.balance if self.balance < 0 and self.left_on is None else ZERO

    @property
    def forfeited(self) -> Decimal:
        """What a member who left had paid beyond their charges: the club's (§2.12)."""
        return -self.balance if self.balance < 0 and self.left_on is not None else ZERO


def _sum(
    items: Sequence[Charge], *, kinds: tuple[str, ...], through: dt.date, after: dt.date | None = None
) -> Decimal:
    return sum(
        (
            c.amount
            for c in items
            if c.kind in kinds and c.date <= through and (after is None or c.date > after)
        ),
        ZERO,
    )


def to_play_at(
    *, charges: Sequence[Charge], payments: Sequence[MoneyIn], on: dt.date, event_date: dt.date
) -> Decimal:
    """What must be paid by ``event_date`` (payments counted up to ``on``) to be in good standing there (§2.17):
    the dues and fees charged by the event's date, and the late fees charged before it. A late fee dated the
    event's day itself is left out: it is charged only if dues are still unpaid that day, and a payment dated
    that day counts (SPEC §7), so paying the rest at the door avoids it."""
    paid = sum((p.amount for p in payments if p.date <= on), ZERO)
    late = sum(
        (c.amount for c in charges if c.kind in (LATE_FEE, WAIVER) and c.date <= on and c.date < event_date),
        ZERO,
    )
    return max(_sum(charges, kinds=_BASE, through=event_date) + late - paid, ZERO)


def dues_outlook(
    *,
    charges: Sequence[Charge],
    payments: Sequence[MoneyIn],
    event_dates: Sequence[dt.date],
    on: dt.date,
    left_on: dt.date | None = None,
) -> DuesOutlook:
    """The account on ``on`` and what lies ahead: the next event's charges, what the member must have paid to
    play at it, and the next late fee with what avoids it. ``left_on``: the day the member left the seat; from
    then on nothing lies ahead (never "may play", nothing to pay: SPEC §16.2)."""
    paid = sum((p.amount for p in payments if p.date <= on), ZERO)
    late_so_far = _sum(charges, kinds=(LATE_FEE, WAIVER), through=on)
    balance = _sum(charges, kinds=_BASE, through=on) + late_so_far - paid
    if left_on is not None and on >= left_on:
        return DuesOutlook(on, balance, None, ZERO, ZERO, ZERO, None, ZERO, left_on=left_on)

    upcoming = sorted(d for d in event_dates if d >= on)
    next_event = upcoming[0] if upcoming else None
    due_next = to_play = ZERO
    if next_event is not None:
        due_next = _sum(charges, kinds=_BASE, through=next_event, after=on)
        # Paid now, no late fee falls before the event; one due earlier than it is the outlook's late fee below.
        to_play = to_play_at(charges=charges, payments=payments, on=on, event_date=next_event)

    # The next late fee is the next one in the seat's fee list: ``dues_charges`` lists a late fee only where the
    # dues and fees charged by its date exceed what is paid by that day (§2.10), so what avoids it is that
    # difference, read off the same charges and payments (never a second reckoning of the rule).
    fee = next((c for c in charges if c.kind == LATE_FEE and c.date > on), None)
    late_fee, late_date, avoid = ZERO, None, ZERO
    if fee is not None:
        paid_by_then = sum((p.amount for p in payments if p.date <= fee.date), ZERO)
        late_fee, late_date = fee.amount, fee.date
        avoid = _sum(charges, kinds=_BASE, through=fee.date) - paid_by_then
    return DuesOutlook(
        on=on,
        balance=balance,
        next_event=next_event,
        due_at_next_event=due_next,
        to_play=to_play,
        late_fee=late_fee,
        late_fee_date=late_date,
        avoid_late_fee=avoid,
    )
