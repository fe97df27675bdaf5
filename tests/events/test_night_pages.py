"""Tournament night pages: members watch the clock and the seats, officers run them; no inline script or
style (the site's Content-Security-Policy forbids them)."""

import re

import pytest

from events.models import Attendance, Night, NightSeat
from tests.events.factories import night_make

pytestmark = pytest.mark.django_db


def url(event, name):
    return f"/events/{event.season.name}/{event.number}/{name}"


@pytest.fixture
def event(season, today):
    event, seats = night_make(season=season, players=12)
    seats["a"].status = Attendance.Status.ABSENT
    seats["a"].save()
    return event


def no_inline_code(html: str) -> None:
    assert not re.search(r"<script(?![^>]*\b(src|type=\"application/json\"))", html)
    assert " style=" not in html and "onclick=" not in html and "onsubmit=" not in html


def test_a_member_may_watch_the_clock_and_its_state(member_client, event):
    page = member_client.get(url(event, "clock/"))
    assert page.status_code == 200
    html = page.content.decode()
    no_inline_code(html)
    assert "Level 1" in html and "30:00" in html and "A Player" in html
    assert 'data-clock-action="start"' not in html  # no controls for a member
    state = member_client.get(url(event, "clock/state/")).json()
    assert (state["level_number"], state["small_blind"], state["big_blind"], state["seconds_left"]) == (
        1,
        25,
        50,
        1800,
    )
    assert state["absent"] == ["A Player"]


@pytest.mark.parametrize(
    "path, data",
    [
        ("clock/action/", {"action": "start", "version": 0}),
        ("night/draw/", {"version": 0}),
        ("night/move/", {"version": 0, "player": 1, "to_table": 1, "to_seat": 1}),
        ("night/button/", {"version": 0, "table": 1, "seat": 1}),
        ("night/final/", {"version": 0}),
        ("night/late/", {"version": 0, "all": "1"}),
        ("night/seat/", {"version": 0, "attendance": 1}),
    ],
)
def test_a_member_cannot_run_the_night(member_client, event, path, data):
    assert member_client.post(url(event, path), data).status_code == 403
    assert not Night.objects.filter(event=event, started_at__isnull=False).exists()
    assert not NightSeat.objects.exists()


def test_an_officer_starts_and_pauses_the_clock_from_the_page(officer_client, event):
    answer = officer_client.post(
        url(event, "clock/action/"), {"action": "start", "version": 0}, HTTP_ACCEPT="application/json"
    )
    assert answer.status_code == 200 and answer.json()["state"]["running"]
    stale = officer_client.post(
        url(event, "clock/action/"), {"action": "pause", "version": 0}, HTTP_ACCEPT="application/json"
    )
    assert stale.status_code == 409 and "changed meanwhile" in stale.json()["error"]
    assert not stale.json()["state"]["paused"]
    # Without JavaScript: a plain form post and a redirect back to the clock.
    plain = officer_client.post(url(event, "clock/action/"), {"action": "pause", "version": 1})
    assert plain.status_code == 302 and plain["Location"].endswith("/clock/")
    assert officer_client.get(url(event, "clock/state/")).json()["paused"]


def test_a_clock_asking_since_its_state_hears_204_until_something_but_the_time_changes(
    member_client, officer_client, event
):
    first = member_client.get(url(event, "clock/state/")).json()
    since = first["since"]
    # Only the time moves: no body; the page goes on counting down.
    quiet = member_client.get(url(event, "clock/state/"), {"since": since})
    assert quiet.status_code == 204 and quiet.content == b""
    # The clock starts on another phone: the next poll carries the whole state, with a new "since".
    officer_client.post(url(event, "clock/action/"), {"action": "start", "version": 0})
    moved = member_client.get(url(event, "clock/state/"), {"since": since})
    assert moved.status_code == 200 and moved.json()["started"] is True
    assert moved.json()["since"] != since
    # A stale or made-up "since" is answered in full, never with an error.
    assert member_client.get(url(event, "clock/state/"), {"since": "x.y"}).status_code == 200


def test_an_officer_draws_the_seats_and_prints_them(officer_client, event):
    page = officer_client.get(url(event, "night/"))
    no_inline_code(page.content.decode())
    assert "Draw the seats" in page.content.decode()
    officer_client.post(url(event, "night/draw/"), {"version": 0})
    # The 12 players and the officer, who is a member too.
    assert NightSeat.objects.filter(table__event=event).count() == event.attendances.count() == 13
    page = officer_client.get(url(event, "night/")).content.decode()
    assert "Redraw the seats" in page and "Table 2" in page and "absent" in page
    assert 'data-confirm="Draw every seat again?' in page
    printed = officer_client.get(url(event, "night/seats/")).content.decode()
    no_inline_code(printed)
    assert "Seat cards" in printed and "A Player" in printed


def test_the_event_and_results_pages_link_to_the_clock_and_the_night(officer_client, event):
    for path in ("", "results/"):
        html = officer_client.get(url(event, path)).content.decode()
        assert url(event, "clock/") in html and url(event, "night/") in html


def test_the_night_page_shows_the_late_arrival_prompt_after_level_two(officer_client, event):
    import datetime as dt

    import time_machine

    start = dt.datetime(2026, 12, 12, 19, 0, tzinfo=dt.UTC)
    Night.objects.create(event=event, started_at=start)
    with time_machine.travel(start + dt.timedelta(minutes=61), tick=False):
        html = officer_client.get(url(event, "night/")).content.decode()
        assert "End of level 2: remove the chips" in html and "Remove chips" in html
        officer_client.post(
            url(event, "night/late/"),
            {"version": event.results_version, "attendance": event.attendances.get(status="absent").pk},
        )
    assert event.attendances.filter(status=Attendance.Status.CHIPS_REMOVED).count() == 1
