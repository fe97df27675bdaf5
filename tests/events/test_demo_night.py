"""The demo's night in progress (issue 19, item 7): after ``load_demo`` the night console shows seats, a
running clock, busts and a table move to confirm, for the demo's officers. The demo follows the calendar, so
each test freezes the club's clock: on an event's day (the night is today), and between two events (the last
night held is the one left running)."""

import datetime as dt

import pytest
import time_machine
from django.core.management import call_command
from django.test import Client

from events.models import Attendance, Event, Rsvp, Season
from events.services.console import console_state
from standings.selectors import season_standings

pytestmark = pytest.mark.django_db

# Event 4 of 2026-27 is on Saturday Nov 14, 2026 (the 2nd Saturday, SPEC §3): at 9 pm in Cincinnati.
NIGHT_OF_EVENT_4 = dt.datetime(2026, 11, 15, 2, 0, tzinfo=dt.UTC)
BETWEEN_EVENTS_4_AND_5 = dt.datetime(2026, 11, 29, 17, 0, tzinfo=dt.UTC)  # Nov 29, noon
AFTER_EVENT_5 = dt.datetime(2026, 12, 13, 17, 0, tzinfo=dt.UTC)  # event 5: Dec 12


def load_demo():
    call_command("load_demo", stdout=open("/dev/null", "w"))  # noqa: SIM115


def officer(username: str = "vera") -> Client:
    from django.contrib.auth import get_user_model

    client = Client()
    client.force_login(get_user_model().objects.get(username=username))
    return client


def night_facts(event: Event) -> dict:
    state = console_state(event=event)
    return {
        "state": state,
        "seated": sum(1 for t in state["tables"] for s in t["seats"] if s["name"]),
        "busts": [p["name"] for hand in state["busts"] for p in hand["players"]],
        "away": {a["name"]: a for a in state["away"]},
    }


def test_on_the_night_the_demo_runs_it_with_answers_seats_a_running_clock_busts_and_a_move():
    with time_machine.travel(NIGHT_OF_EVENT_4, tick=False):
        load_demo()
        season = Season.objects.get(name="2026-27")
        event = season.events.get(number=4)
        assert event.status == Event.Status.IN_PROGRESS
        facts = night_facts(event)
        state = facts["state"]
        # The clock started 40 minutes ago: level 2 (50/100), 20 minutes left (§6.1's 30-minute levels).
        assert state["clock_started"] and state["clock"]["running"]
        assert state["clock"]["level_number"] == 2
        assert (state["clock"]["small_blind"], state["clock"]["big_blind"]) == (50, 100)
        assert state["clock_text"] == "20:00"
        assert state["drawn"] and len(state["tables"]) == 2
        assert len(facts["busts"]) == 3 and state["entrants"] - len(state["still_in"]) == 3
        assert state["move"] is not None  # a balancing move waits for a tap
        # The members answered from their phones; opening the night applied the answers.
        answers = dict(Rsvp.objects.filter(event=event).values_list("membership__person__key", "answer"))
        assert answers == {"lou": "not_coming", "kim": "late", "cat": "substitute"}
        assert facts["away"]["Kim Albers"]["status"] == Attendance.Status.CALLED_IN
        assert facts["away"]["Kim Albers"]["can_arrive"]
        assert facts["away"]["Lou Tremblay"]["status"] == Attendance.Status.ABSENT
        assert event.attendances.get(membership__person__key="cat").substitute_name == "Dale Whitfield"
        # The night in progress is not in the standings: events 1 to 3 are.
        assert [e.number for e in season_standings(season=season).events] == [1, 2, 3]

        # The home page's "Run the night" leads to the console, which shows it all.
        vera = officer()
        console_url = "/events/2026-27/4/console/"
        assert f'href="{console_url}"' in vera.get("/").content.decode()
        page = vera.get(console_url).content.decode()
        for name in facts["busts"]:
            assert name in page
        assert "Kim Albers" in page and "Dale Whitfield" in page

        # Running the demo again adds nothing.
        before = (event.results_version, state["version"], Attendance.objects.count())
        load_demo()
        event.refresh_from_db()
        assert (
            event.results_version,
            night_facts(event)["state"]["version"],
            Attendance.objects.count(),
        ) == (before)


def test_between_nights_the_demo_leaves_the_last_night_running_and_finishes_it_when_the_next_one_comes():
    with time_machine.travel(BETWEEN_EVENTS_4_AND_5, tick=False):
        load_demo()
        season = Season.objects.get(name="2026-27")
        event = season.events.get(number=4)
        facts = night_facts(event)
        state = facts["state"]
        assert event.status == Event.Status.IN_PROGRESS
        assert state["clock"]["running"] and state["clock"]["level_number"] == 2
        assert len(state["tables"]) == 2 and facts["seated"] >= 12
        assert len(facts["busts"]) == 3 and state["move"] is not None
        # Entered on the night (answers close once the day is past): the late call at 10 minutes of play.
        assert facts["away"]["Kim Albers"]["status"] == Attendance.Status.CALLED_IN
        assert facts["away"]["Lou Tremblay"]["status"] == Attendance.Status.ABSENT
        assert not season.events.get(number=5).attendances.exists()
        assert "Run the night" in officer().get("/events/2026-27/4/").content.decode()
        # The home page offers the night under way to the officers who run it, not to a member.
        home = officer().get("/").content.decode()
        assert (
            'href="/events/2026-27/4/console/"' in home
            and "Run the night: event 4, Nov 14 (under way)" in home
        )
        assert "/console/" not in officer("ann").get("/").content.decode()
        assert [e.number for e in season_standings(season=season).events] == [1, 2, 3]

    with time_machine.travel(AFTER_EVENT_5, tick=False):
        load_demo()
        event.refresh_from_db()
        assert event.status == Event.Status.FINAL  # played out: Kim and Lou never came, their chips came off
        assert set(
            event.attendances.filter(status=Attendance.Status.CHIPS_REMOVED).values_list(
                "membership__person__key", flat=True
            )
        ) == {"kim", "lou"}
        assert season.events.get(number=5).status == Event.Status.IN_PROGRESS
        assert [e.number for e in season_standings(season=season).events] == [1, 2, 3, 4]
