import datetime as dt
from decimal import Decimal

import pytest
import time_machine

from events.models import Attendance
from finance.selectors.dues import amount_owed
from finance.services.payments import payment_record
from members.services.standing import rules_signature_record
from tests.factories import once

pytestmark = pytest.mark.django_db

DECEMBER_EVENT = dt.date(2026, 12, 12)
JANUARY_EVENT = dt.date(2027, 1, 23)


def test_the_attendance_page_says_what_a_member_owes_at_the_door(client, season, member, president, today):
    # Nobody has paid: by the December event the whole schedule of §2.8 is due, $110 + 4 × $100. Paying it at
    # the door that night avoids the $25 late fee of that day.
    membership = member.person.memberships.get()
    rules_signature_record(membership=membership, signed_on=season.start)
    client.force_login(president)  # the President may enter results and record payments
    # "Open the night" (dated later: confirmed): the seats are listed
    client.post("/events/2026-27/5/attendance/prepare/", {"confirmed": "1"})
    html = client.get("/events/2026-27/5/attendance/").content.decode()
    assert "owes <strong>$510.00</strong> by Dec 12" in html
    assert f'href="/finance/payments/?member={membership.pk}"' in html
    # Beside each seat: the substitutes used elsewhere, and the substitute form's fields.
    assert "substitutes used elsewhere: 0/" in html
    seat = Attendance.objects.get(membership=membership, event__number=5)
    assert f'name="s{seat.pk}-name"' in html


@pytest.fixture
def december_event(today):
    """The clock at the December event: a payment is never dated after today."""
    with time_machine.travel(dt.datetime(2026, 12, 12, 20, 0, tzinfo=dt.UTC), tick=False):
        yield DECEMBER_EVENT


def test_paying_what_is_owed_at_the_door_makes_the_member_good_to_play(
    season, member, treasurer, december_event
):
    from finance.selectors.dues import good_standing

    membership = member.person.memberships.get()
    owed = amount_owed(membership=membership, on=DECEMBER_EVENT)
    assert owed == Decimal("510.00")
    payment_record(membership=membership, date=DECEMBER_EVENT, amount=owed, method="cash", actor=treasurer)
    assert good_standing(membership=membership, on=DECEMBER_EVENT)
    assert amount_owed(membership=membership, on=DECEMBER_EVENT) == Decimal("0.00")


def test_a_late_fee_from_an_earlier_month_is_owed_too(season, member, treasurer):
    membership = member.person.memberships.get()
    # $410 paid in August: $100 is still unpaid on Dec 12, so a $25 late fee that day (§2.10), and another on
    # Jan 12 (the same day of the next month). At the January event (Jan 23): $100 + $25 + $25.
    payment_record(
        membership=membership,
        date=dt.date(2026, 8, 1),
        amount=Decimal("410.00"),
        method="check",
        actor=treasurer,
    )
    assert amount_owed(membership=membership, on=JANUARY_EVENT) == Decimal("150.00")


def _listed_unpaid(season, member):
    """Event 5 (Dec 12) with its seats listed while the member has paid nothing: "not in good standing"."""
    from events.models import Attendance
    from events.services.attendance import attendance_prepare

    membership = member.person.memberships.get()
    rules_signature_record(membership=membership, signed_on=season.start)
    event = season.events.get(number=5)
    attendance_prepare(event=event)
    seat = Attendance.objects.get(event=event, membership=membership)
    assert seat.status == Attendance.Status.NOT_IN_GOOD_STANDING
    return membership, event, seat


def test_recording_the_door_payment_puts_the_member_back_in_the_seat_list(
    client, season, member, treasurer, december_event
):
    from events.models import Attendance
    from ncpc.core.models import AuditEntry

    membership, event, seat = _listed_unpaid(season, member)
    version = event.results_version
    client.force_login(treasurer)
    response = client.post(
        "/finance/payments/",
        {
            "membership": membership.pk,
            "date": "2026-12-12",
            "amount": "510.00",
            "method": "cash",
            "once": once(),
        },
        follow=True,
    )
    seat.refresh_from_db()
    event.refresh_from_db()
    assert seat.status == Attendance.Status.EXPECTED
    # The results page's version moves on, so a page showing the old seat list cannot overwrite it.
    assert event.results_version == version + 1
    assert AuditEntry.objects.filter(action="attendance.recheck").count() == 1
    assert "Seat list of event 5 (Dec 12)" in response.content.decode()


def test_a_payment_that_does_not_cover_the_dues_leaves_the_seat_as_it_was(
    season, member, treasurer, december_event
):
    from events.models import Attendance

    membership, event, seat = _listed_unpaid(season, member)
    # $410 covers the installments through November; December's $100 is still unpaid on Dec 12.
    booked = payment_record(
        membership=membership,
        date=dt.date(2026, 12, 12),
        amount=Decimal("410.00"),
        method="cash",
        actor=treasurer,
    )
    seat.refresh_from_db()
    assert seat.status == Attendance.Status.NOT_IN_GOOD_STANDING
    assert booked.seats_changed == ()


def test_a_payment_leaves_the_seats_of_a_final_event_alone(season, member, treasurer, december_event):
    from events.models import Attendance, Event

    membership, event, seat = _listed_unpaid(season, member)
    Event.objects.filter(pk=event.pk).update(status=Event.Status.FINAL)
    payment_record(
        membership=membership,
        date=dt.date(2026, 12, 12),
        amount=Decimal("510.00"),
        method="cash",
        actor=treasurer,
    )
    seat.refresh_from_db()
    assert seat.status == Attendance.Status.NOT_IN_GOOD_STANDING
