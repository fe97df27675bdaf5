"""Issue 43: opening a night not dated today needs the officer's explicit yes, asked by the server as well as by
the browser's confirmation; a night dated today opens at once."""

import datetime as dt

import pytest
import time_machine

from events.models import Attendance
from tests.factories import MembershipFactory, PersonFactory

pytestmark = pytest.mark.django_db


def prepare_url(event) -> str:
    return f"/events/{event.season.name}/{event.number}/attendance/prepare/"


@pytest.fixture
def event(season, today):
    """Event 5 (Sat Dec 12, 2026, a fortnight after today), nobody seated yet; two members besides the officer."""
    for key in "ab":
        MembershipFactory(
            person=PersonFactory(key=key, first_name=key.upper(), last_name="Player"), season=season
        )
    return season.events.get(number=5)


def test_a_night_dated_later_is_not_opened_without_the_confirmation(officer_client, event):
    response = officer_client.post(prepare_url(event), {"back": "attendance"})
    assert response.status_code == 409
    html = response.content.decode()
    assert (
        "Event 5 is dated Sat Dec 12, not today: its results cannot be entered before that day. "
        "Open the night anyway?"
    ) in html
    assert '<input type="hidden" name="confirmed" value="1">' in html
    assert not Attendance.objects.filter(event=event).exists()


def test_the_confirmed_post_opens_the_night_dated_later(officer_client, event):
    response = officer_client.post(prepare_url(event), {"back": "attendance", "confirmed": "1"})
    assert response.status_code == 302
    assert Attendance.objects.filter(event=event).count() == 3


def test_the_button_carries_the_field_its_confirmation_fills_in(officer_client, event):
    html = officer_client.get(f"/events/{event.season.name}/{event.number}/attendance/").content.decode()
    assert 'data-confirm="Event 5 is dated Sat Dec 12, not today' in html
    assert '<input type="hidden" name="confirmed" value="" data-confirmed>' in html


def test_a_night_dated_today_opens_without_a_question(officer_client, event):
    with time_machine.travel(dt.datetime(2026, 12, 12, 22, 0, tzinfo=dt.UTC), tick=False):
        response = officer_client.post(prepare_url(event), {"back": "attendance"})
    assert response.status_code == 302
    assert Attendance.objects.filter(event=event).count() == 3
