"""The door list on an event night (issue 17): one tap records the usual amount a member must pay to play.

The amount is recomputed under a lock on the member's seat, so two taps (a double tap, or two officers' phones)
book once: the same form's one-time key finds the first payment; another form finds the amount changed."""

import datetime as dt
from decimal import Decimal

from django.db import transaction

from events.models import Event
from finance.models import Payment
from finance.selectors.dues import dues_account
from finance.services.forecast import to_play_at
from finance.services.payments import (
    PaymentBooked,
    PaymentError,
    departed_payment_check,
    payment_by_form,
    payment_record,
)
from members.models import Membership
from ncpc.core.audit import Actor
from ncpc.core.money import money_display


class DoorAmountChanged(PaymentError):
    pass


@transaction.atomic
def door_payment_record(
    *, event: Event, membership: Membership, expected: Decimal, on: dt.date, actor: Actor, once: str
) -> PaymentBooked:
    """Record ``expected`` in cash, dated ``on``, if it is still what the member must pay to play at ``event``;
    else refuse with what it is now. The same form sent again returns the first payment (``replayed``)."""
    if membership.season_id != event.season_id:
        raise PaymentError("This member holds no seat in the event's season.")
    if on > event.date:
        raise PaymentError(
            f"Event {event.number} was on {event.date:%b %-d}: record a later payment on the payment form."
        )
    first = payment_by_form(once=once)
    if first is not None:
        return PaymentBooked(first, replayed=True)
    # The row lock: a second tap waits here until the first one commits, then finds its payment.
    Membership.objects.select_for_update().filter(pk=membership.pk).first()
    first = payment_by_form(once=once)
    if first is not None:
        return PaymentBooked(first, replayed=True)
    departed_payment_check(membership=membership, date=on)
    account = dues_account(membership=membership)
    now = to_play_at(charges=account.charges, payments=account.payments, on=event.date, event_date=event.date)
    person = membership.person
    if now <= 0:
        raise DoorAmountChanged(f"{person} has nothing more to pay to play on {event.date:%b %-d}.")
    if now != expected:
        raise DoorAmountChanged(
            f"The amount changed: {person} must now pay {money_display(now)} to play "
            f"(the list said {money_display(expected)}). Check the list and tap again."
        )
    return payment_record(
        membership=membership,
        date=on,
        amount=now,
        method=Payment.Method.CASH,
        reference=f"door, event {event.number}",
        actor=actor,
        once=once,
    )
