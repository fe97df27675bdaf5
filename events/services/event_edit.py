"""Venues, moving an event and announcing it (SPEC §3, bylaws §4.4–4.6). Commands with audit rows."""

import datetime as dt

from django.db import IntegrityError, transaction

from events import hooks
from events.errors import AnnouncementLate
from events.models import Event, Venue
from events.selectors import season_rules
from ncpc.core.audit import Actor, audit_record
from ncpc.core.clock import club_today
from ncpc.core.errors import NcpcError
from ncpc.core.identity import club_identity


@transaction.atomic
def venue_save(*, venue: Venue | None, name: str, address: str, active: bool, actor: Actor) -> Venue:
    name = " ".join(name.split())
    if not name:
        raise NcpcError("A venue needs a name.", field="name")
    clash = Venue.objects.filter(name__iexact=name)
    if venue is not None:
        clash = clash.exclude(pk=venue.pk)
    if clash.exists():
        raise NcpcError(f"A venue named {name} exists already.", field="name")
    created = venue is None
    if venue is not None and (venue.name, venue.address, venue.active) == (name, address.strip(), active):
        return venue  # saved as it was (sent twice): nothing to record
    venue = venue or Venue()
    venue.name, venue.address, venue.active = name, address.strip(), active
    try:
        with transaction.atomic():  # the same name saved at once by a double click: the database keeps one
            venue.save()
    except IntegrityError:
        raise NcpcError(f"A venue named {name} exists already.", field="name") from None
    audit_record(
        actor=actor,
        action="venue.create" if created else "venue.update",
        target=venue,
        summary=f"{'Added' if created else 'Changed'} venue {venue}{'' if active else ' (not in use)'}",
    )
    return venue


def announcement_is_late(*, event_date: dt.date, announced_on: dt.date, days_ahead: int) -> bool:
    """Announced less than ``days_ahead`` days before the event (§4.6: at least 2 weeks in advance)."""
    return (event_date - announced_on).days < days_ahead


@transaction.atomic
def event_move(
    *, event: Event, date: dt.date, actor: Actor, reason: str = "", vote_id: int | None = None
) -> Event:
    """Move an event to another date (§4.4.1); it keeps its number. A moved event must be announced again.

    Into a month that would then hold more of the season's events than its schedule plans (one, two in
    February), only with a recorded majority vote of the members (§4.4.2, SPEC §15.7): ``vote_id``."""
    locked = Event.objects.select_for_update().select_related("season").get(pk=event.pk)
    if locked.status != Event.Status.SCHEDULED:
        raise NcpcError("Results are being entered for this event: it cannot be moved any more.")
    if not locked.season.contains(date):
        raise NcpcError(
            f"{date:%b %-d, %Y} is outside season {locked.season} "
            f"({locked.season.start:%b %-d, %Y} – {locked.season.end:%b %-d, %Y}).",
            field="date",
        )
    if date == locked.date:
        raise NcpcError("That is the event's date already.", field="date")
    _closed_month_check(event=locked, date=date)
    clash = locked.season.events.filter(date=date).exclude(pk=locked.pk).first()
    if clash:
        raise NcpcError(f"Event {clash.number} is on {date:%b %-d, %Y} already.", field="date")
    planned = sum(1 for month, _nth in season_rules(locked.season).schedule if month == date.month)
    in_month = locked.season.events.filter(date__year=date.year, date__month=date.month).exclude(pk=locked.pk)
    over = in_month.count() + 1 > max(planned, 1)
    if over and vote_id not in {pk for pk, _label in hooks.month_votes(season=locked.season)}:
        raise NcpcError(
            f"{date:%B %Y} would hold {in_month.count() + 1} events: two events in one month need a recorded "
            "majority vote of the members (§4.4.2). The President records it under Club votes; then choose it here.",
            field="vote",
        )
    old = locked.date
    locked.date = date
    was_announced = locked.announced_on is not None
    locked.announced_on = None
    locked.announced_late = False
    locked.save(update_fields=["date", "announced_on", "announced_late"])
    audit_record(
        actor=actor,
        action="event.move",
        target=locked,
        summary=f"Moved event {locked.number} of {locked.season} from {old:%b %-d} to {date:%b %-d, %Y}"
        + (" (to be announced again)" if was_announced else ""),
        reason=reason,
        data={"from": old.isoformat(), "to": date.isoformat()} | ({"vote": vote_id} if over else {}),
    )
    return locked


def _closed_month_check(*, event: Event, date: dt.date) -> None:
    """SPEC §17.2: an event's date is part of its month's report (who owed a late fee on it, its payouts), so
    an event is never moved out of a closed month (nor out of a month before one), nor into one."""
    leaving = hooks.closed_month_refusal(day=event.date)
    if leaving is not None:
        closed = leaving.split(":", 1)[0]  # "October 2026 is closed (its report was presented)"
        raise NcpcError(
            f"Event {event.number} is on {event.date:%b %-d, %Y} and {closed}: the event stays on its date, "
            "which that month's report counted.",
            field="date",
        )
    arriving = hooks.closed_month_refusal(day=date)
    if arriving is not None:
        raise NcpcError(arriving, field="date")


@transaction.atomic
def event_announce(
    *, event: Event, venue: Venue, actor: Actor, confirm_late: bool = False, on: dt.date | None = None
) -> Event:
    """Announce the event with its venue. Later than the season's notice period (§4.6) only when the officer
    confirms it explicitly; the event is then shown as announced late."""
    locked = Event.objects.select_for_update().select_related("season").get(pk=event.pk)
    day = on or club_today()
    if not venue.active:
        raise NcpcError(f"{venue} is not in use any more.", field="venue")
    days = season_rules(locked.season).announce_days_ahead
    late = announcement_is_late(event_date=locked.date, announced_on=day, days_ahead=days)
    if late and not confirm_late:
        raise AnnouncementLate(
            f"Event {locked.number} is on {locked.date:%b %-d, %Y}, less than {days} days from now: "
            f"{club_identity().rule_book} want {days} days' notice (§4.6). Tick the confirmation to announce it late anyway.",
            field="confirm_late",
        )
    if (locked.venue_id, locked.announced_on, locked.announced_late) == (venue.pk, day, late):
        return locked  # announced so already today (sent twice): nothing to record
    locked.venue = venue
    locked.announced_on = day
    locked.announced_late = late
    locked.save(update_fields=["venue", "announced_on", "announced_late"])
    audit_record(
        actor=actor,
        action="event.announce",
        target=locked,
        summary=f"Announced event {locked.number} of {locked.season} at {venue}"
        + (" (late)" if late else ""),
        data={"venue": venue.pk, "late": late},
    )
    return locked
