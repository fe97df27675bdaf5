"""Issue 46, the night's third pass (everything but the tap order): the conflicts page names who recorded each
side of a conflict, when (club time) and what it changes, with "Keep mine" only for the officer who recorded
it; the console's ≈1 s poll brings the count of changes waiting; a console that may not settle them does not
ask, and is refused without a traceback; a huge batch is refused in JSON; a late answer recorded on the event
page carries the time of the call; the home page's next event is not tonight's finished one."""

import datetime as dt
import json
import logging
import random

import pytest
import time_machine

from events.models import Event, NightChange, Rsvp
from events.services import console as console_services
from events.services import night_clock, night_seating
from events.services.results import bust_record
from members.models import Person
from tests.events.factories import night_make
from tests.events.test_night_sync_conflicts import T0, change, seen, sync
from tests.factories import MembershipFactory, PersonFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def night(season):
    """Event 4: twelve players drawn to their seats, the clock started at 19:00 UTC (2 pm in New York)."""
    with time_machine.travel(T0 + dt.timedelta(minutes=30), tick=False):
        event, seats = night_make(season=season, players=12)
        night_seating.seats_draw(event=event, version=0, actor=None, rng=random.Random(7))
        night_clock.clock_command(event=event, action="start", version=0, actor=None, now=T0)
        yield event, seats


def full_name(user):
    return Person.objects.get(user=user).full_name


def conflicts_url(event):
    return f"/events/{event.season.name}/{event.number}/night/conflicts/"


def parked_bust(event, seats, *, recorder, other):
    """``other`` records C out online at 19:20 UTC; ``recorder``'s phone, offline since before, had recorded C out
    at 19:05 UTC and reaches the server at 19:40: the phone's bust waits as a conflict."""
    s = seen(event)
    with time_machine.travel(T0 + dt.timedelta(minutes=20), tick=False):
        event.refresh_from_db()
        bust_record(event=event, attendance_ids=[seats["c"].pk], version=event.results_version, actor=other)
    with time_machine.travel(T0 + dt.timedelta(minutes=40), tick=False):
        (outcome,) = sync(
            event, "phone-a", [change(1, "bust", s, minute=5, players=[seats["c"].pk])], recorder
        )
    assert outcome.status == NightChange.Status.CONFLICT
    return NightChange.objects.get(pk=outcome.change_id)


def test_the_conflicts_page_names_who_recorded_each_side_when_and_what_it_changes(
    client, night, vice_president, president
):
    event, seats = night
    parked_bust(event, seats, recorder=vice_president, other=president)
    client.force_login(president)
    page = client.get(conflicts_url(event)).content.decode()
    # The phone's side: the Vice President, tapped at 14:05:00 New York time (19:05 UTC), C out.
    assert "Bust: C Player" in page
    assert f"by {full_name(vice_president)}, tapped at 14:05:00" in page
    # The server's side: the President recorded C out (first out of 12) at 14:20:00.
    assert "Out: C Player 12th" in page
    assert f"by {full_name(president)}, recorded at 14:20:00" in page
    # Not the President's change: no "Keep mine" for someone else's, and no device id.
    assert "Apply this change" in page and "Keep what the server has" in page
    assert "Keep mine" not in page and "Keep theirs" not in page
    assert "phone-a" not in page


def test_the_officer_who_recorded_the_change_is_offered_keep_mine_or_keep_theirs(
    client, night, vice_president, president
):
    event, seats = night
    parked_bust(event, seats, recorder=vice_president, other=president)
    client.force_login(vice_president)
    page = client.get(conflicts_url(event)).content.decode()
    assert "Keep mine" in page and "Keep theirs" in page
    assert "Apply this change" not in page
    assert "Yours (recorded offline)" in page and "Theirs (on the server)" in page


def test_a_change_parked_by_a_sync_comes_with_the_consoles_next_state_poll(
    client, night, vice_president, president
):
    event, seats = night
    client.force_login(president)
    state_url = f"/events/{event.season.name}/{event.number}/console/state/"
    before = client.get(state_url).json()
    assert before["conflicts"] == 0
    parked_bust(event, seats, recorder=vice_president, other=president)
    version = console_services.night_version(event=event)
    # The night's version moved with the President's bust; the console has heard it and still shows 0 waiting.
    answer = client.get(state_url, {"since": version, "conflicts": "0"})
    assert answer.status_code == 200
    assert answer.json()["conflicts"] == 1
    assert client.get(state_url, {"since": version, "conflicts": "1"}).status_code == 204


def test_the_treasurers_console_does_not_ask_for_conflicts_and_is_refused_without_a_traceback(
    client, night, treasurer, caplog
):
    event, _ = night
    client.force_login(treasurer)
    console = client.get(f"/events/{event.season.name}/{event.number}/console/").content.decode()
    assert "night/conflicts/" not in console
    with caplog.at_level(logging.WARNING, logger="django.request"):
        answer = client.get(conflicts_url(event), HTTP_ACCEPT="application/json")
        page = client.get(conflicts_url(event))
    assert answer.status_code == 403
    assert answer.json() == {"error": "Only the Vice President settles the changes recorded offline."}
    assert page.status_code == 403
    assert [r for r in caplog.records if r.exc_info] == []


def test_a_ten_megabyte_batch_is_refused_in_json(client, night, vice_president):
    event, _ = night
    client.force_login(vice_president)
    body = json.dumps({"device": "phone-a", "changes": [], "junk": "x" * 10_000_000})
    answer = client.post(
        f"/events/{event.season.name}/{event.number}/night/sync/",
        body,
        content_type="application/json",
        HTTP_ACCEPT="application/json",
    )
    assert answer.status_code == 400
    assert answer.json() == {"error": "The batch is too large: send the changes in several smaller batches."}
    assert not NightChange.objects.exists()


def test_a_change_with_unreadable_chip_counts_is_refused_when_the_batch_is_read(
    client, night, vice_president
):
    event, seats = night
    client.force_login(vice_president)
    bust = change(1, "bust", seen(event), players=[seats["c"].pk, seats["d"].pk])
    bust["chips"] = {str(seats["c"].pk): "lots", str(seats["d"].pk): 5000}
    with time_machine.travel(T0 + dt.timedelta(minutes=40), tick=False):
        answer = client.post(
            f"/events/{event.season.name}/{event.number}/night/sync/",
            json.dumps({"device": "phone-a", "changes": [bust]}),
            content_type="application/json",
            HTTP_ACCEPT="application/json",
        )
    assert answer.status_code == 400
    assert answer.json()["error"] == "Change #1 (bust) has chip counts that cannot be read."
    assert not NightChange.objects.exists()


# --- the event page's late answer ---------------------------------------------------------------------------


def test_an_officer_records_a_late_answer_with_the_time_of_the_call(client, season, today, vice_president):
    # Nov 29, 2026, 7:00 am in New York (12:00 UTC); event 5 is on Dec 12. Xavier phoned at 6:40.
    xavier = MembershipFactory(
        person=PersonFactory(key="x", first_name="Xavier", last_name="Player"), season=season
    )
    client.force_login(vice_president)
    page = client.get("/events/2026-27/5/").content.decode()
    assert 'name="called_at"' in page
    answer = client.post(
        "/events/2026-27/5/rsvp/record/",
        {"membership": xavier.pk, "answer": "late", "called_at": "06:40"},
        follow=True,
    )
    assert "Coming late (called in Nov 29, 6:40 AM, no exemption)" in answer.content.decode()
    rsvp = Rsvp.objects.get(membership=xavier)
    assert rsvp.called_in_at == dt.datetime(2026, 11, 29, 11, 40, tzinfo=dt.UTC)


def test_a_call_time_later_than_now_is_a_form_error(client, season, today, vice_president):
    xavier = MembershipFactory(
        person=PersonFactory(key="x", first_name="Xavier", last_name="Player"), season=season
    )
    client.force_login(vice_president)
    answer = client.post(
        "/events/2026-27/5/rsvp/record/",
        {"membership": xavier.pk, "answer": "late", "called_at": "13:30"},
        follow=True,
    )
    assert answer.status_code == 200
    assert "The time of the call (13:30) is later than now (7:00 AM): enter the time the member phoned." in (
        answer.content.decode()
    )
    assert not Rsvp.objects.filter(membership=xavier).exists()


# --- the home page ------------------------------------------------------------------------------------------


def test_the_home_page_shows_the_next_night_not_tonights_finished_one(client, season, today, member):
    # Event 4 played tonight (Nov 29) and made final; event 5 is on Saturday Dec 12.
    Event.objects.filter(season=season, number=4).update(date=today, status=Event.Status.FINAL)
    client.force_login(member)
    page = client.get("/").content.decode()
    next_card = page[page.index("Next event") :][:400]
    assert "Saturday, December 12" in next_card
    assert "Sunday, November 29" not in next_card
