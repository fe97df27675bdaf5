"""Factories and helpers for events tests: a night with players seated."""

from events.models import Attendance, Event
from events.services.attendance import attendance_prepare
from tests.factories import MembershipFactory, PersonFactory


def night_make(*, season, number: int = 4, players: int = 5) -> tuple[Event, dict[str, Attendance]]:
    """Event ``number`` of ``season`` with ``players`` members (keys a, b, c, …) all seated and playing."""
    for i in range(players):
        key = chr(ord("a") + i)
        MembershipFactory(
            person=PersonFactory(key=key, first_name=key.upper(), last_name="Player"), season=season
        )
    event = season.events.get(number=number)
    attendance_prepare(event=event)
    event.refresh_from_db()
    seats = {a.membership.person.key: a for a in event.attendances.select_related("membership__person")}
    return event, seats
