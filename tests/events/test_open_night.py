"""Opening the night (issue 14, "a GET never writes"): the attendance, results and night pages only read;
the officer lists the seats from the roster with one POST, which adds only what is missing."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from events.models import Attendance
from events.services.attendance import attendance_prepare
from ncpc.core.models import AuditEntry
from tests.factories import MembershipFactory, PersonFactory

pytestmark = pytest.mark.django_db

PAGES = ("attendance/", "results/", "night/")
OPEN = "Open the night: list the seats from the roster"


def url(event, name=""):
    return f"/events/{event.season.name}/{event.number}/{name}"


@pytest.fixture
def event(season, today):
    """Event 5 (Dec 12), nobody seated yet; four members besides the officer."""
    for key in "abcd":
        MembershipFactory(
            person=PersonFactory(key=key, first_name=key.upper(), last_name="Player"), season=season
        )
    return season.events.get(number=5)


def writes(queries) -> list[str]:
    return [q["sql"] for q in queries if q["sql"].lstrip().upper().startswith(("INSERT", "UPDATE", "DELETE"))]


@pytest.mark.parametrize("page", PAGES)
def test_opening_a_page_of_a_night_not_yet_opened_writes_nothing(officer_client, event, page):
    audit = AuditEntry.objects.count()
    with CaptureQueriesContext(connection) as captured:
        response = officer_client.get(url(event, page))
    assert response.status_code == 200
    assert writes(captured.captured_queries) == []
    assert not Attendance.objects.filter(event=event).exists()
    assert AuditEntry.objects.count() == audit
    event.refresh_from_db()
    assert event.results_version == 0
    html = response.content.decode()
    assert OPEN in html and url(event, "attendance/prepare/") in html
    assert "5 members on the roster" in html


@pytest.mark.parametrize("page", PAGES)
def test_opening_the_night_lists_the_seats_once_and_returns_to_the_page(officer_client, event, page):
    back = page.rstrip("/")
    response = officer_client.post(
        url(event, "attendance/prepare/"), {"back": back, "confirmed": "1"}, follow=True
    )
    assert response.redirect_chain[-1][0] == url(event, page)
    assert "Seats listed: 5 members from the roster." in response.content.decode()
    assert Attendance.objects.filter(event=event).count() == 5
    assert AuditEntry.objects.filter(action="event.attendance.prepare").count() == 1
    assert OPEN not in response.content.decode()

    audit = AuditEntry.objects.count()
    again = officer_client.post(url(event, "attendance/prepare/"), {"back": back}, follow=True)
    assert "Every member on the roster has a seat already." in again.content.decode()
    assert Attendance.objects.filter(event=event).count() == 5
    assert AuditEntry.objects.count() == audit


def test_a_page_once_open_writes_nothing_either(officer_client, event):
    attendance_prepare(event=event)
    for page in PAGES:
        with CaptureQueriesContext(connection) as captured:
            html = officer_client.get(url(event, page)).content.decode()
        assert writes(captured.captured_queries) == [], page
        assert OPEN not in html


def test_a_member_who_joins_later_gets_a_seat_from_the_same_button(officer_client, event, season):
    attendance_prepare(event=event)
    MembershipFactory(person=PersonFactory(key="e", first_name="E", last_name="Player"), season=season)
    html = officer_client.get(url(event, "attendance/")).content.decode()
    assert "1 member on the roster has no seat at this event yet" in html
    assert "List the new member from the roster" in html
    officer_client.post(url(event, "attendance/prepare/"), {"back": "attendance"})
    assert event.attendances.filter(membership__person__key="e", status=Attendance.Status.EXPECTED).exists()


def test_an_unknown_page_to_return_to_goes_back_to_the_attendance_page(officer_client, event):
    response = officer_client.post(
        url(event, "attendance/prepare/"), {"back": "https://example.com/", "confirmed": "1"}
    )
    assert response.status_code == 302 and response["Location"] == url(event, "attendance/")


def test_members_see_no_button_and_may_not_open_the_night(member_client, event):
    html = member_client.get(url(event, "night/")).content.decode()
    assert OPEN not in html
    assert member_client.get(url(event, "attendance/prepare/")).status_code == 405
    assert member_client.post(url(event, "attendance/prepare/")).status_code == 403
    assert not Attendance.objects.filter(event=event).exists()


def test_a_final_event_offers_no_button(officer_client, season, today):
    from tests.events.factories import night_make

    event, seats = night_make(season=season, number=4, players=2)
    event.status = event.Status.FINAL
    event.save()
    MembershipFactory(person=PersonFactory(key="z", first_name="Z", last_name="Late"), season=season)
    for page in PAGES:
        assert url(event, "attendance/prepare/") not in officer_client.get(url(event, page)).content.decode()
    response = officer_client.post(url(event, "attendance/prepare/"), follow=True)
    assert "The results of this event are final: its seats stay as they are." in response.content.decode()
    assert not event.attendances.filter(membership__person__key="z").exists()
