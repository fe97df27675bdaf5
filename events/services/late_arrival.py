"""Late arrival on tournament night (SPEC §4, §15.5; bylaws §5.2, §6.3): when the first and the second hour of
play end on the night's clock and where the clock stood when a call came (the
commands that record a call-in or take an absent player's chips off are ``night_arrivals``).

The first hour ends at the end of level ``late_arrival_levels`` (the second blind change): an absent player's
chips come off then. A member who called in within the first hour and uses the one exemption of the season may
join during the second hour, which ends as long after the first as the first hour lasted; not seated by then,
their chips come off as anyone's (no place, no points, no prize).
"""

import datetime as dt

from django.utils import timezone

from events import selectors
from events.models import Event, Night
from events.services.clock import clock_elapsed, late_arrival_deadline
from events.services.night import clock_state_of, structure_of


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
