"""The night's late-arrival commands (SPEC §4, §15.5; bylaws §6.3): record a member's call-in and exemption,
or take an absent player's chips off, on the times ``late_arrival`` computes. Apart from those rules because
attendance itself asks them (a late seat is refused after the first hour) and these commands record attendance.
"""

import datetime as dt

from django.db import transaction

from events import selectors
from events.models import Attendance, Event, Night
from events.services import attendance as attendance_services
from events.services.late_arrival import late_arrival_due, second_hour_over
from events.services.night import night_lock
from ncpc.core.audit import Actor
from ncpc.core.errors import NcpcError


def _late_arrival_not_yet(event: Event) -> str:
    level = selectors.season_rules(event.season).late_arrival_levels
    return f"Absent players' chips come off at the end of level {level} (§6.3), not before."


def _removable(*, row: Attendance, night: Night, now: dt.datetime | None) -> bool:
    if row.status == Attendance.Status.ABSENT:
        return late_arrival_due(event=night.event, night=night, now=now)
    return row.status == Attendance.Status.CALLED_IN and second_hour_over(
        event=night.event, night=night, now=now
    )


@transaction.atomic
def late_arrival_settle(
    *,
    event: Event,
    attendance_id: int,
    use_exemption: bool,
    version: int,
    actor: Actor,
    called_at: dt.datetime | None = None,
    now: dt.datetime | None = None,
) -> Attendance:
    """At the end of level ``late_arrival_levels`` an absent player's chips come off (no place, no points, no
    prize), unless they called in within the first hour and use their one exemption this season (``called_at``:
    when the call came, default now); they may then join during the second hour, after which their chips come
    off too if they have not arrived (SPEC §15.5)."""
    night = night_lock(event=event)
    row = Attendance.objects.filter(event=night.event, pk=attendance_id).first()
    if row is None or row.status not in Attendance.AWAY:
        raise NcpcError("That player is not absent (any more).")
    if use_exemption:
        if row.status == Attendance.Status.CALLED_IN:
            raise NcpcError("That player's call is recorded already.")
        status = Attendance.Status.CALLED_IN
    else:
        if not _removable(row=row, night=night, now=now):
            if row.status == Attendance.Status.CALLED_IN:
                raise NcpcError(
                    "A member who called in may join until the end of the second hour of play (§6.3): "
                    "their chips come off only then."
                )
            raise NcpcError(_late_arrival_not_yet(night.event))
        status = Attendance.Status.CHIPS_REMOVED
    return attendance_services.attendance_set(
        event=night.event,
        attendance_id=attendance_id,
        status=status,
        version=version,
        actor=actor,
        called_at=called_at,
        now=now,
    )


@transaction.atomic
def late_arrivals_remove_all(
    *, event: Event, version: int, actor: Actor, now: dt.datetime | None = None
) -> int:
    """Remove the chips of every player still absent after the first hour, and of every member who called in
    and has not arrived after the second (after the officer has recorded any exemptions)."""
    night = night_lock(event=event)
    if not late_arrival_due(event=night.event, night=night, now=now):
        raise NcpcError(_late_arrival_not_yet(night.event))
    rows = [
        row
        for row in Attendance.objects.filter(event=night.event, status__in=Attendance.AWAY).order_by("pk")
        if _removable(row=row, night=night, now=now)
    ]
    for row in rows:
        attendance_services.attendance_set(
            event=night.event,
            attendance_id=row.pk,
            status=Attendance.Status.CHIPS_REMOVED,
            version=version,
            actor=actor,
            now=now,
        )
        version += 1
    return len(rows)
