"""A corrected result of an event in a closed month (SPEC §17.2): its month's report keeps the prizes as they
were paid, so the difference is posted today, in the open month, when the Treasurer approves it, as he pays
the prizes themselves (an event's cash payout).

Per seat: the corrected prize less what the ledger holds as paid for the event (its payout and the corrections
posted since). A seat owed more takes cash from the box; a seat paid too much gives it back (the posting
records both, so the Treasurer posts it once the money has changed hands). The event's results page keeps
the original places beside the corrected ones (``events.results_history``)."""

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal

from django.db import transaction

from events import hooks as events_hooks
from events.models import Event
from finance.models import Account, Entry, Transaction
from finance.selectors.payouts import (
    event_payout_lines,
    event_payout_prefix,
    payout_correction_prefix,
    payout_corrections_posted,
    payout_held,
    payout_member_names,
)
from finance.services.ledger import EntryLine, Overdrawn, next_key, posted_under_key, transaction_post
from finance.services.payouts import NothingToPay, PayoutLine
from ncpc.core.audit import Actor
from ncpc.core.clock import club_today
from ncpc.core.errors import NcpcError
from ncpc.core.money import ZERO, money_display
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


@transaction.atomic
def payout_correction_post(*, event: Event, actor: Actor, on: dt.date | None = None) -> Booked[Transaction]:
    """Post the difference between the event's corrected prizes and what the ledger holds as paid, dated
    ``on`` (today): the Treasurer's approval of the correction (SPEC §17.2). The event row is locked, so two
    officers posting at once post it once; the second finds nothing left to correct."""
    day = on or club_today()
    event = Event.objects.select_for_update().select_related("season").get(pk=event.pk)
    correction = payout_correction_due(event=event)
    if correction is None:
        raise NothingToPay(
            f"Event {event.number}'s payouts match its results: there is no difference to post."
        )
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
    try:
        txn = transaction_post(
            date=day,
            kind=Transaction.Kind.PAYOUT,
            memo=f"Correction of event {event.number} payouts ({event.season}, {event.date:%b %-d, %Y})",
            lines=entries,
            actor=actor,
            key=next_key(prefix=payout_correction_prefix(event=event)),
        )
    except Overdrawn as exc:  # SPEC §16.3: the difference is paid from cash the box holds
        raise Overdrawn(
            f"{exc} Record the cash drawn from club checking for the correction first (a transfer dated "
            f"{day:%b %-d, %Y}).",
            field=exc.field,
        ) from None
    return Booked(txn)


def payout_correction_view(*, event: Event) -> dict[str, object]:
    """What the payouts page shows of an event in a closed month (empty for any other): the payout as posted
    (its entries), the corrections posted since, and the correction due, or the error that prevents it."""
    if not event_month_closed(event=event):
        return {}
    paid = posted_under_key(prefix=event_payout_prefix(event=event))
    posted = payout_corrections_posted(event=event)
    try:
        due, error = payout_correction_due(event=event), ""
    except NcpcError as exc:
        due, error = None, str(exc)
    return {
        "closed_month": True,
        "paid_entries": _payout_entries(paid) if paid is not None else [],
        "corrections": [(txn, _payout_entries(txn)) for txn in posted],
        "due": due,
        "due_error": error,
    }


def _payout_entries(txn: Transaction) -> list[Entry]:
    """The prizes of a payout posting (its entries of the payouts account), as posted."""
    return [e for e in txn.entries.all() if e.account.code == Account.PAYOUTS]
