"""SPEC §17.2, issue 45: an event's date is part of its month's report, so no event moves into or out of a
closed month; issue 47: a past event's page reads as past. The season's events: 1 Aug 22, 2 Sep 26, 3 Oct 24,
4 Nov 14, 5 Dec 12, 6 Jan 23 (2027). The club's date: Dec 5, 2026."""

import datetime as dt

import pytest
import time_machine
from django.contrib.auth import get_user_model
from django.urls import reverse

from events.models import Event
from events.services.event_edit import event_move
from finance.models import ClosedMonth
from ncpc.core.errors import NcpcError

pytestmark = pytest.mark.django_db
DEC_5 = dt.datetime(2026, 12, 5, 17, 0, tzinfo=dt.UTC)


@pytest.fixture
def closed_to_october(season, today):
    """August to October are closed (their reports were presented); the clock reads Dec 5."""
    closer = get_user_model().objects.create(username="closer")
    for month in (8, 9, 10):
        ClosedMonth.objects.create(month=dt.date(2026, month, 1), closed_by=closer)
    with time_machine.travel(DEC_5, tick=False):
        yield


def test_an_event_is_not_moved_into_a_closed_month(season, closed_to_october, vice_president):
    event = season.events.get(number=4)  # Nov 14: November is open
    with pytest.raises(NcpcError) as refused:
        event_move(event=event, date=dt.date(2026, 10, 31), actor=vice_president)
    assert str(refused.value) == (
        "October 2026 is closed (its report was presented): nothing can be dated in it any more. "
        "Date it in the first open month, November 2026, or later."
    )
    assert refused.value.field == "date"
    event.refresh_from_db()
    assert event.date == dt.date(2026, 11, 14)


def test_an_event_is_not_moved_out_of_a_closed_month(season, closed_to_october, vice_president):
    """Event 2 (Sep 26) was never played, but September's report counted it (its late fees): it stays."""
    event = season.events.get(number=2)
    with pytest.raises(NcpcError) as refused:
        event_move(event=event, date=dt.date(2026, 11, 28), actor=vice_president)
    assert str(refused.value) == (
        "Event 2 is on Sep 26, 2026 and September 2026 is closed (its report was presented): the event stays "
        "on its date, which that month's report counted."
    )
    assert refused.value.field == "date"
    event.refresh_from_db()
    assert event.date == dt.date(2026, 9, 26)


def test_moving_between_open_months_still_works(season, closed_to_october, vice_president):
    event = season.events.get(number=4)
    moved = event_move(event=event, date=dt.date(2026, 11, 21), actor=vice_president)
    assert moved.date == dt.date(2026, 11, 21)


def test_the_move_form_shows_the_refusal(season, closed_to_october, vice_president, client):
    client.force_login(vice_president)
    url = reverse("events:event_move", args=(season.name, 4))
    page = client.post(url, {"date": "2026-10-31", "reason": ""}, follow=True).content.decode()
    assert "October 2026 is closed (its report was presented)" in page
    assert Event.objects.get(season=season, number=4).date == dt.date(2026, 11, 14)


def test_a_past_events_page_reads_as_past(season, today, client, vice_president):
    """Nov 29: event 4 (Nov 14) was never announced; event 5 (Dec 12) is 13 days away."""
    client.force_login(vice_president)
    past = client.get(reverse("events:event", args=(season.name, 4))).content.decode()
    assert "Today is less than" not in past
    assert "This event's day, Nov 14, 2026, has passed" in past
    soon = client.get(reverse("events:event", args=(season.name, 5))).content.decode()
    assert "Today is less than 14 days before the event" in soon
    assert "has passed" not in soon
