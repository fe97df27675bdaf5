"""A payment at the door puts a member back in good standing, and the who's-coming answer kept on the seat is
written there (SPEC §16.5): the real dues, the real door payment, no hook replaced.

Ned paid $310.00 on Aug 22 and must pay $200.00 more to play on Dec 12 (event 5; worked out in
``tests/finance/test_payment_guard.py``); he signed the rules. He answered on Nov 29 at 12:00 UTC (7:00 am in
New York)."""

import datetime as dt
from decimal import Decimal

import pytest
import time_machine

from events.models import Attendance, Event
from events.services.rsvp import night_open, rsvp_answer
from finance.services.door import door_payment_record
from members.models import RulesSignature
from tests.factories import MembershipFactory, PersonFactory, once
from tests.finance.factories import pay

pytestmark = pytest.mark.django_db

ANSWERED = dt.datetime(2026, 11, 29, 12, 0, tzinfo=dt.UTC)
DOOR = dt.datetime(2026, 12, 13, 0, 40, tzinfo=dt.UTC)  # Dec 12, 7:40 pm in New York


@pytest.fixture
def ned(season, today, treasurer):
    membership = MembershipFactory(
        season=season, person=PersonFactory(key="ned", first_name="Ned", last_name="Guard")
    )
    pay(membership=membership, day="2026-08-22", amount="310.00", actor=treasurer)
    RulesSignature.objects.create(membership=membership, signed_on=dt.date(2026, 8, 22))
    return membership


def at_the_door(*, event, ned, treasurer):
    with time_machine.travel(DOOR, tick=False):
        return door_payment_record(
            event=event,
            membership=ned,
            expected=Decimal("200.00"),
            on=dt.date(2026, 12, 12),
            actor=treasurer,
            once=once(),
        )


def test_the_late_member_pays_at_the_door_and_is_called_in_at_the_time_he_called(season, ned, treasurer):
    event = Event.objects.get(season=season, number=5)
    rsvp_answer(event=event, membership=ned, answer="late", exemption=True, actor=None)
    opened = night_open(event=event, actor=treasurer)
    seat = Attendance.objects.get(event=event, membership=ned)
    assert (opened.answers.kept, seat.status) == (1, "not_in_good_standing")

    booked = at_the_door(event=event, ned=ned, treasurer=treasurer)

    assert [s.status for s in booked.seats_changed] == ["called_in"]
    seat.refresh_from_db()
    assert (seat.status, seat.called_in_at) == ("called_in", ANSWERED)


def test_the_substitute_takes_the_seat_when_the_member_pays_at_the_door(season, ned, treasurer):
    event = Event.objects.get(season=season, number=5)
    rsvp_answer(
        event=event,
        membership=ned,
        answer="substitute",
        substitute_name="Sam Jones",
        not_professional=True,
        actor=None,
    )
    night_open(event=event, actor=treasurer)

    at_the_door(event=event, ned=ned, treasurer=treasurer)

    seat = Attendance.objects.select_related("membership__person").get(event=event, membership=ned)
    assert (seat.status, seat.player_name, seat.prize_to) == (
        "expected",
        "Sam Jones (for Ned Guard)",
        "member",
    )
