"""Writing an event's results from history (the season file import, SPEC §13), not from tournament night.

Places are given, not computed from busts; the eliminations are written in the same order so that every page
that reads them (and the places calculator) agrees. No results e-mail is sent for history.
"""

import datetime as dt
from dataclasses import dataclass
from typing import Any

from django.db import transaction

from events import selectors
from events.models import Attendance, Elimination, Event, Venue
from ncpc.core.audit import Actor, audit_record


@dataclass(frozen=True)
class HistoryResult:
    membership: Any  # members.Membership (a layer above)
    place: int | None
    status: str  # Attendance.Status value; "expected" for a placed player
    substitute_name: str = ""
    prize_to: str = "member"
    removed_for_abuse: bool = False


@transaction.atomic
def event_history_write(
    *, event: Event, date: dt.date, venue: Venue | None, results: list[HistoryResult], actor: Actor = None
) -> Event:
    event.date = date
    event.venue = venue
    event.announced_on = event.announced_on or (date - dt.timedelta(days=30))
    if results:
        event.status = Event.Status.FINAL
    event.save()
    placed = sorted((r for r in results if r.place is not None), key=lambda r: r.place or 0)
    rows: dict[int, Attendance] = {}
    for r in results:
        rows[r.membership.pk] = Attendance.objects.create(
            event=event,
            membership=r.membership,
            status=Attendance.Status.EXPECTED if r.place is not None else r.status,
            substitute_name=r.substitute_name,
            prize_to=r.prize_to,
            place=r.place,
        )
    # The last place went out on hand 1, the runner-up on the last hand; the winner has no elimination.
    for hand, r in enumerate(reversed(placed[1:]), start=1):
        Elimination.objects.create(
            event=event, attendance=rows[r.membership.pk], hand=hand, removed_for_abuse=r.removed_for_abuse
        )
    if placed and placed[0].removed_for_abuse:
        Elimination.objects.create(
            event=event, attendance=rows[placed[0].membership.pk], hand=len(placed), removed_for_abuse=True
        )
    if results:
        event.final_placings = selectors.placings_snapshot(
            selectors.season_placings(events=[event])[event.pk]
        )
        event.save(update_fields=["final_placings"])
    audit_record(
        actor=actor,
        action="event.history",
        target=event,
        summary=f"Imported the results of {event}: {len(placed)} places",
    )
    return event
