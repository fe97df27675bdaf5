"""The season's schedule as iCalendar text (RFC 5545), written by hand: no library needed for a few events.

Times are local to the club (America/New_York) with a VTIMEZONE block, so phones show 7 PM whatever their
own time zone. Lines end in CRLF and are folded at 75 octets, as the RFC requires.
"""

import datetime as dt
from collections.abc import Iterable

from django.utils import timezone
from django.utils.crypto import salted_hmac

EVENT_HOURS = 5  # a tournament night: 19:00 to about midnight (only for the calendar entry's length)

VTIMEZONE = (
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


def ical_escape(text: str) -> str:
    return (
        text.replace("\\", "\\\\")
        .replace(";", "\\;")
        .replace(",", "\\,")
        .replace("\r\n", "\\n")
        .replace("\n", "\\n")
    )


def ical_fold(line: str) -> str:
    """Split a content line into 75-octet pieces, continuation lines starting with a space (RFC 5545 3.1)."""
    raw = line.encode("utf-8")
    if len(raw) <= 75:
        return line
    parts, current, limit = [], b"", 75
    for char in line:
        encoded = char.encode("utf-8")
        if len(current) + len(encoded) > limit:
            parts.append(current.decode("utf-8"))
            current, limit = b"", 74  # the leading space counts
        current += encoded
    parts.append(current.decode("utf-8"))
    return "\r\n ".join(parts)


def _local(day: dt.date, time: dt.time) -> str:
    return dt.datetime.combine(day, time).strftime("%Y%m%dT%H%M%S")


def calendar_text(*, events: Iterable, name: str, host: str, url_for=None) -> str:
    """VCALENDAR with one VEVENT per event. ``url_for(event)`` gives the event page's absolute URL."""
    stamp = timezone.now().astimezone(dt.UTC).strftime("%Y%m%dT%H%M%SZ")
    lines = [
        "BEGIN:VCALENDAR",
        "VERSION:2.0",
        "PRODID:-//NCPC//Club app//EN",
        "CALSCALE:GREGORIAN",
        "METHOD:PUBLISH",
        f"X-WR-CALNAME:{ical_escape(name)}",
        "X-WR-TIMEZONE:America/New_York",
        *VTIMEZONE,
    ]
    for event in events:
        start = dt.datetime.combine(event.date, event.starts_at)
        end = start + dt.timedelta(hours=EVENT_HOURS)
        venue = event.venue
        summary = f"NCPC event {event.number} ({event.season})"
        lines += [
            "BEGIN:VEVENT",
            f"UID:ncpc-{event.season}-{event.number}@{host}",
            f"DTSTAMP:{stamp}",
            f"DTSTART;TZID=America/New_York:{_local(event.date, event.starts_at)}",
            f"DTEND;TZID=America/New_York:{end.strftime('%Y%m%dT%H%M%S')}",
            f"SUMMARY:{ical_escape(summary)}",
            "STATUS:" + ("CONFIRMED" if event.announced_on else "TENTATIVE"),
        ]
        if venue is not None:
            where = f"{venue.name}, {venue.address}" if venue.address else venue.name
            lines.append(f"LOCATION:{ical_escape(where)}")
        else:
            lines.append("DESCRIPTION:" + ical_escape("Venue to be announced."))
        if url_for is not None:
            lines.append(f"URL:{url_for(event)}")
        lines.append("END:VEVENT")
    lines.append("END:VCALENDAR")
    return "\r\n".join(ical_fold(line) for line in lines) + "\r\n"


def calendar_token(*, user) -> str:
    """The secret in a member's personal feed address. It changes when the password changes (revokes it)."""
    return salted_hmac("ncpc.events.calendar", f"{user.pk}:{user.password}", algorithm="sha256").hexdigest()[
        :32
    ]
