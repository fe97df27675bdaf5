"""Late arrival on tournament night (SPEC §4, §15.5; bylaws §5.2, §6.3): when the first and the second hour of
play end on the night's clock, where the clock stood when a call came, and the commands that record a call-in
or take an absent player's chips off.

The first hour ends at the end of level ``late_arrival_levels`` (the second blind change): an absent player's
chips come off then. A member who called in within the first hour and uses the one exemption of the season may
join during the second hour, which ends as long after the first as the first hour lasted; not seated by then,
their chips come off as anyone's (no place, no points, no prize).
"""

import datetime as dt

from django.db import transaction
from django.utils import timezone

from events import selectors
from events.models import Attendance, Event, Night
from events.services import attendance as attendance_services
from events.services.clock import clock_elapsed, late_arrival_deadline
from events.services.night import clock_state_of, night_lock, structure_of
from ncpc.audit import Actor
from ncpc.errors import NcpcError


def first_hour_seconds(*, event: Event) -> float | None:
    """Seconds of play at the end of level ``late_arrival_levels`` (None: the structure has no such level)."""
    rules = selectors.season_rules(event.season)
    structure = rules.blind_structure
    return late_arrival_deadline(structure=structure, levels=rules.late_arrival_levels) if structure else None


def second_hour_seconds(*, event: Event) -> float | None:
    first = first_hour_seconds(event=event)
    return None if first is None else 2 * first


def elapsed_at(*, event: Event, when: dt.datetime, now: dt.datetime) -> float | None:
    """Seconds of play on the night's clock at ``when`` (≤ ``now``); None before the clock has started.

    A time in the past is counted back from the clock now (pauses since then are not subtracted: a call is
    usually recorded right away)."""
    night = Night.objects.filter(event=event).first()
    if night is None or night.started_at is None:
        return None
    if when <= night.started_at:
        return 0.0
    return max(
        0.0, clock_elapsed(state=clock_state_of(night), now=now) - max(0.0, (now - when).total_seconds())
    )


def call_time_read(raw: str, *, event: Event) -> dt.datetime | None | bool:
    """The time of a call typed as HH:MM on the event's evening (club time), past midnight on the next
    calendar day; None when empty (the call is now); False when it cannot be read."""
    raw = raw.strip()
    if not raw:
        return None
    try:
        hour, minute = (int(part) for part in raw.split(":"))
        when = dt.datetime.combine(event.date, dt.time(hour, minute))
    except (TypeError, ValueError):
        return False
    if when.time() < event.starts_at:  # past midnight: the next calendar day
        when += dt.timedelta(days=1)
    return timezone.make_aware(when)


def late_arrival_seconds(*, event: Event) -> float | None:
    """Seconds of play after which absent players' chips come off (the end of level ``late_arrival_levels``)."""
    levels = selectors.season_rules(event.season).late_arrival_levels
    return late_arrival_deadline(structure=structure_of(event), levels=levels)


def late_arrival_due(*, event: Event, night: Night | None, now: dt.datetime | None = None) -> bool:
    deadline = late_arrival_seconds(event=event)
    if night is None or night.started_at is None or deadline is None:
        return False
    return clock_elapsed(state=clock_state_of(night), now=now or timezone.now()) >= deadline


def second_hour_over(*, event: Event, night: Night | None, now: dt.datetime | None = None) -> bool:
    """The second hour of play is over: a member who called in and has not arrived loses the chips (§15.5)."""
    deadline = second_hour_seconds(event=event)
    if night is None or night.started_at is None or deadline is None:
        return False
    return clock_elapsed(state=clock_state_of(night), now=now or timezone.now()) >= deadline


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
