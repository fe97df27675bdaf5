"""The console's whole state, which every officer's phone asks for whenever the night changes, reads each of
the night's rows once: 15 queries, however many players are away tonight or have used their late-arrival
exemption at earlier events (issue 44: at most 15, constant in members)."""

import datetime as dt
import random

import pytest
import time_machine
from django.db import connection
from django.test.utils import CaptureQueriesContext

from events.models import Attendance
from events.services import night_clock, night_seating
from events.services.results import bust_record
from tests.events.factories import night_make
from tests.events.test_night_sync_conflicts import T0

pytestmark = pytest.mark.django_db

# 4 for every logged-in request (the club's identity, session, user, the login's person and offices), the event
# with its season, venue and night, the season's rules (four tables in one query), the roster on the night's date,
# the event's seats with members and eliminations, the seats holding chips, the tables, everyone's seats (for the
# names of those who left a seat), the busts, the exemptions of the players away (one query for all), the moves
# after each hand and the count of changes recorded offline waiting = 15.
CONSOLE_STATE = 15


def night_with_away(season, *, away: int):
    """Twelve players seated, the clock running, one out; ``away`` of the others absent, each of whom called
    in late at event 3 (the exemption, §6.3, used there)."""
    event, seats = night_make(season=season, players=12)
    night_seating.seats_draw(event=event, version=0, actor=None, rng=random.Random(7))
    night_clock.clock_command(event=event, action="start", version=0, actor=None, now=T0)
    event.refresh_from_db()
    bust_record(event=event, attendance_ids=[seats["l"].pk], version=event.results_version, actor=None)
    earlier = season.events.get(number=3)
    for key in "abcdefghijk"[:away]:
        Attendance.objects.filter(pk=seats[key].pk).update(status=Attendance.Status.ABSENT)
        Attendance.objects.create(
            event=earlier,
            membership=seats[key].membership,
            status=Attendance.Status.CALLED_IN,
            called_in_at=T0,
        )
    return event


@pytest.mark.parametrize("away", [1, 5])
def test_the_consoles_whole_state_reads_each_row_once(client, season, vice_president, away):
    with time_machine.travel(T0 + dt.timedelta(minutes=30), tick=False):
        event = night_with_away(season, away=away)
        client.force_login(vice_president)
        url = f"/events/{event.season.name}/{event.number}/console/state/"
        client.get(url)
        with CaptureQueriesContext(connection) as queries:
            state = client.get(url).json()
    assert len(queries) == CONSOLE_STATE, "\n".join(q["sql"] for q in queries.captured_queries)
    # What the reads were for: the away players, each with the event where the exemption was used.
    assert len(state["away"]) == away
    assert {row["exemption_used_at"] for row in state["away"]} == {3}
    # Thirteen seats (the twelve players and the Vice President, a member too); the absent do not play (yet);
    # of the others, one is out.
    assert event.attendances.count() == 13
    assert state["entrants"] == 13 - away and len(state["still_in"]) == 12 - away
    event.refresh_from_db()
    assert (
        state["version"] == f"{event.results_version}.{event.night.clock_version}.{event.night.seats_version}"
    )


def test_the_console_says_finishing_mails_the_results_tonight_but_not_for_a_night_entered_days_later(
    client, season, vice_president
):
    season.results_email = True
    season.save(update_fields=["results_email"])
    with time_machine.travel(T0 + dt.timedelta(minutes=30), tick=False):
        event = night_with_away(season, away=1)
        event.date = dt.date(2026, 12, 12)  # tonight: T0 is 19:00 UTC, 14:00 in New York
        event.save(update_fields=["date"])
        client.force_login(vice_president)
        url = f"/events/{event.season.name}/{event.number}/console/state/"
        tonight = client.get(url).json()
    with time_machine.travel(T0 + dt.timedelta(hours=13), tick=False):  # 03:00 the next morning in New York
        after_midnight = client.get(url).json()
    with time_machine.travel(T0 + dt.timedelta(days=3), tick=False):
        entered_later = client.get(url).json()
    assert tonight["results_email"] is True
    assert after_midnight["results_email"] is True
    assert entered_later["results_email"] is False
