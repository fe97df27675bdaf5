"""The waiting list (§2.5): ordered entries; the first open entry is the first alternate (commands)."""

import datetime as dt

from django.db import transaction
from django.db.models import Max

from members.models import Membership, Person, WaitingListEntry
from ncpc.core.audit import Actor, audit_record
from ncpc.core.errors import ConcurrentChange, NcpcError

WAITING = WaitingListEntry.Status.WAITING


@transaction.atomic
def waiting_list_add(
    *, person: Person, on: dt.date, sponsor: Person | None = None, notes: str = "", actor: Actor = None
) -> WaitingListEntry:
    if WaitingListEntry.objects.filter(person=person, status=WAITING).exists():
        raise NcpcError(f"{person} is on the waiting list already.")
    if Membership.objects.filter(
        person=person, season__start__lte=on, season__end__gte=on, left_after_event__isnull=True
    ).exists():
        raise NcpcError(f"{person} holds a seat already.")
    if person.is_professional:
        raise NcpcError(f"{person} is a professional gambler and cannot join the club (§2.4).")
    # Lock the open entries so two officers adding at once do not take the same position.
    last = (
        WaitingListEntry.objects.select_for_update()
        .filter(status=WAITING)
        .aggregate(last=Max("position"))["last"]
    )
    entry = WaitingListEntry.objects.create(
        person=person, position=(last or 0) + 1, sponsor=sponsor, added_on=on, notes=notes
    )
    audit_record(
        actor=actor,
        action="member.waiting_list.add",
        target=entry,
        summary=f"Put {person} on the waiting list at position {entry.position}",
        reason=notes,
    )
    return entry


@transaction.atomic
def waiting_list_move(
    *, entry: WaitingListEntry, up: bool, at: int | None = None, actor: Actor = None
) -> None:
    """Swap the entry with its neighbour above (``up``) or below. ``at``: the entry's place (1 = first) on the
    page the officer moved it from; when it has another place now (the move sent twice, or another officer's),
    nothing moves."""
    entries = list(WaitingListEntry.objects.select_for_update().filter(status=WAITING))
    ids = [e.pk for e in entries]
    if entry.pk not in ids:
        raise ConcurrentChange("That entry is no longer on the waiting list; reload the page.")
    index = ids.index(entry.pk)
    if at is not None and at != index + 1:
        raise ConcurrentChange(
            f"{entry.person} is at place {index + 1} of the waiting list now, not {at} as the page showed "
            "(moved already, or the list changed): nothing more was moved. Check the order below."
        )
    other_index = index - 1 if up else index + 1
    if not 0 <= other_index < len(entries):
        raise NcpcError(f"{entry.person} is already {'first' if up else 'last'} on the waiting list.")
    mine, other = entries[index], entries[other_index]
    mine.position, other.position = other.position, mine.position
    if mine.position == other.position:  # equal positions (should not happen): make them distinct
        mine.position += -1 if up else 1
    WaitingListEntry.objects.bulk_update([mine, other], ["position"])
    audit_record(
        actor=actor,
        action="member.waiting_list.move",
        target=mine,
        summary=f"Moved {mine.person} {'up' if up else 'down'} the waiting list, above {other.person}"
        if up
        else f"Moved {mine.person} down the waiting list, below {other.person}",
    )


@transaction.atomic
def waiting_list_withdraw(
    *, entry: WaitingListEntry, on: dt.date, reason: str = "", actor: Actor = None
) -> WaitingListEntry:
    """The person leaves the list (declined a seat, lost interest, …); the next one becomes first alternate."""
    entry = WaitingListEntry.objects.select_for_update().get(pk=entry.pk)
    if entry.status != WAITING:
        raise ConcurrentChange(f"{entry.person} is no longer waiting; reload the page.")
    entry.status = WaitingListEntry.Status.WITHDRAWN
    entry.closed_on = on
    entry.save(update_fields=["status", "closed_on"])
    audit_record(
        actor=actor,
        action="member.waiting_list.withdraw",
        target=entry,
        summary=f"Took {entry.person} off the waiting list",
        reason=reason,
    )
    if entry.offered_on is not None:  # they declined an offered seat: it passes to the next alternate
        offer_seat_to_first_alternate(on=on, actor=actor)
    return entry


def offer_seat_to_first_alternate(*, on: dt.date, actor: Actor = None) -> WaitingListEntry | None:
    """A seat was freed and not sold or ceded (§2.5, §5.5.3.1): offer it to the first alternate.

    Call inside the freeing command's transaction. The offer is taken up by admitting the alternate
    (``member_admit``) or passed on when they withdraw from the list.
    """
    entry = WaitingListEntry.objects.select_for_update().filter(status=WAITING).first()
    if entry is None or entry.offered_on is not None:
        return entry
    entry.offered_on = on
    entry.save(update_fields=["offered_on"])
    audit_record(
        actor=actor,
        action="member.waiting_list.offer",
        target=entry,
        summary=f"Offered the free seat to the first alternate, {entry.person}",
    )
    return entry
