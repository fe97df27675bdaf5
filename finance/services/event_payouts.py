"""Paying out an event's cash prizes (command). The amounts come from the pure calculator in
``finance.services.payouts`` through ``finance.selectors.payouts.event_payout_lines``."""

from django.db import transaction

from events.models import Event
from finance.models import Account, Transaction
from finance.selectors.payouts import event_payout_lines, event_payout_prefix
from finance.services.ledger import EntryLine, Overdrawn, next_key, posted_under_key, transaction_post
from finance.services.payouts import NothingToPay
from ncpc.core.audit import Actor
from ncpc.core.money import ZERO
from ncpc.core.results import Booked


def event_payout_key(*, event: Event) -> str:
    return event_payout_prefix(event=event)


@transaction.atomic
def event_payout_post(*, event: Event, actor: Actor) -> Booked[Transaction]:
    """Post the night's cash prizes (cash box → event payouts). Idempotent: an event is paid out once
    (unless that posting was reversed); a second call returns the posting that exists, ``replayed``."""
    event = Event.objects.select_for_update().select_related("season").get(pk=event.pk)
    prefix = event_payout_key(event=event)
    existing = posted_under_key(prefix=prefix)
    if existing is not None:
        return Booked(existing, replayed=True)
    lines = event_payout_lines(event=event)
    if not lines:
        raise NothingToPay(f"Event {event.number} has no results yet, so there is nothing to pay out.")
    entries = []
    for line in lines:
        who = (
            f"{line.substitute_name} (substitute for {line.member_key})"
            if line.paid_to == "substitute"
            else line.member_key
        )
        entries.append(
            EntryLine(
                Account.PAYOUTS,
                line.amount,
                membership_id=line.membership_id,
                memo=f"Place {line.place}: {who}",
            )
        )
    total = sum((line.amount for line in lines), ZERO)
    entries.append(EntryLine(Account.CASH, -total, memo=f"Cash prizes, event {event.number}"))
    try:
        txn = transaction_post(
            date=event.date,
            kind=Transaction.Kind.PAYOUT,
            memo=f"Event {event.number} payouts ({event.season})",
            lines=entries,
            actor=actor,
            key=next_key(prefix=prefix),
        )
    except Overdrawn as exc:  # SPEC §16.3: the prizes are paid from cash the box holds
        raise Overdrawn(
            f"{exc} Record the cash drawn from club checking for the prizes first (a transfer dated "
            f"{event.date:%b %-d, %Y}).",
            field=exc.field,
        ) from None
    return Booked(txn)
