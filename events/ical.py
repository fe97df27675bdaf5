"""The season's schedule as iCalendar (RFC 5545), built with the ``icalendar`` library: it escapes every
text (a venue address with a line break, even a lone carriage return, stays one value) and folds the lines.

Times are local to the club (its time zone, ``ncpc.core.identity``) with a VTIMEZONE block, so phones show 7 PM whatever their
own time zone. Each event's UID is the club's: its short name, the season and the event number, at the domain
of the club's sender address (``DEFAULT_FROM_EMAIL``), never the address the feed was fetched from, so a
calendar that subscribes under two names shows each event once, and every download gives the same UIDs. The
feed's PRODID names the club the same way. Each event carries a reminder (VALARM) the day before.
"""

import datetime as dt
from collections.abc import Callable, Iterable
from typing import Any

from django.utils import timezone
from django.utils.crypto import salted_hmac
from icalendar import Alarm, Calendar, Component, Timezone
from icalendar import Event as CalendarEvent

from ncpc.core.identity import club_file_prefix, club_identity, club_zone
from ncpc.core.mail import mail_domain

EVENT_HOURS = 5  # a tournament night: 19:00 to about midnight (only for the calendar entry's length)
# The default zone's block as it always was; another zone's is made by icalendar from the system's zone data.
NEW_YORK = "America/New_York"

VTIMEZONE = "\r\n".join(
    (
        "BEGIN:VTIMEZONE",
        "TZID:America/New_York",
        "BEGIN:DAYLIGHT",
        "TZOFFSETFROM:-0500",
        "TZOFFSETTO:-0400",
        "TZNAME:EDT",
        "DTSTART:19700308T020000",
        "RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=2SU",
        "END:DAYLIGHT",
        "BEGIN:STANDARD",
        "TZOFFSETFROM:-0400",
        "TZOFFSETTO:-0500",
        "TZNAME:EST",
        "DTSTART:19701101T020000",
        "RRULE:FREQ=YEARLY;BYMONTH=11;BYDAY=1SU",
        "END:STANDARD",
        "END:VTIMEZONE",
    )
)


def event_uid(*, season: str, number: int) -> str:
    """ "lakeside-2026-27-4@lakeside.example": the same event has the same UID in every download (a moved
    event keeps its number, §4.4.1), whatever host name the feed was fetched under."""
    return f"{club_file_prefix()}-{season}-{number}@{mail_domain()}"


def calendar_prodid() -> str:
    """The feed's product identifier (RFC 5545 §3.7.3): the club's short name and domain."""
    return f"-//{club_identity().short_name}//{mail_domain()}//EN"


def _vtimezone(zone_name: str) -> Component:
    if zone_name == NEW_YORK:
        return Timezone.from_ical(VTIMEZONE)
    return Timezone.from_tzid(zone_name)


def calendar_text(*, events: Iterable[Any], name: str, url_for: Callable[[Any], str] | None = None) -> str:
    """VCALENDAR with one VEVENT per event. ``url_for(event)`` gives the event page's absolute URL."""
    identity = club_identity()
    zone = club_zone()
    stamp = timezone.now().astimezone(dt.UTC).replace(microsecond=0)
    cal = Calendar()
    cal.add("prodid", calendar_prodid())
    cal.add("version", "2.0")
    cal.add("calscale", "GREGORIAN")
    cal.add("method", "PUBLISH")
    cal.add("x-wr-calname", name)
    cal.add("x-wr-timezone", zone.key)
    cal.add_component(_vtimezone(zone.key))
    for event in events:
        start = dt.datetime.combine(event.date, event.starts_at, tzinfo=zone)
        summary = f"{identity.short_name} event {event.number} ({event.season})"
        item = CalendarEvent()
        item.add("uid", event_uid(season=event.season.name, number=event.number))
        item.add("dtstamp", stamp)
        item.add("dtstart", start)
        item.add("dtend", start + dt.timedelta(hours=EVENT_HOURS))
        item.add("summary", summary)
        item.add("status", "CONFIRMED" if event.announced_on else "TENTATIVE")
        venue = event.venue
        if venue is not None:
            item.add("location", f"{venue.name}, {venue.address}" if venue.address else venue.name)
        else:
            item.add("description", "Venue to be announced.")
        if url_for is not None:
            item.add("url", url_for(event))
        alarm = Alarm()
        alarm.add("action", "DISPLAY")
        alarm.add("description", f"Tomorrow: {summary}, {start:%-I:%M %p}")
        alarm.add("trigger", dt.timedelta(days=-1))
        item.add_component(alarm)
        cal.add_component(item)
    return cal.to_ical().decode("utf-8")


def calendar_token(*, user) -> str:
    """The secret in a member's personal feed address. It changes when the password changes (revokes it)."""
    return salted_hmac("ncpc.events.calendar", f"{user.pk}:{user.password}", algorithm="sha256").hexdigest()[
        :32
    ]
