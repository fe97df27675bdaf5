"""The whole night on the console (issue 34): a night not dated today asks before it is run, the leftovers
after the results are final, several players out on one hand, removal for abuse, the door and the Treasurer."""

import datetime as dt

import pytest
import time_machine

from events.models import Event
from events.services import console as console_services
from tests.events.factories import night_make

pytestmark = pytest.mark.django_db


def url(event, name=""):
    return f"/events/{event.season.name}/{event.number}/console/{name}"


def act(client, event, **data):
    data.setdefault("version", console_services.night_version(event=event))
    return client.post(url(event, "act/"), data, HTTP_ACCEPT="application/json")


# ---------------------------------------------------------------------------------------------------------
# A night not dated today


def test_a_night_dated_later_says_its_results_cannot_be_entered_before_its_date():
    event = Event(number=4, date=dt.date(2026, 12, 12))
    note = console_services.night_date_note(event=event, doing="Start the clock", today=dt.date(2026, 12, 3))
    assert note == (
        "Event 4 is dated Sat Dec 12, not today: its results cannot be entered before that day. "
        "Start the clock anyway?"
    )


def test_a_night_dated_earlier_says_so_and_a_night_dated_today_asks_nothing():
    event = Event(number=3, date=dt.date(2026, 12, 1))
    assert console_services.night_date_note(event=event, today=dt.date(2026, 12, 3)) == (
        "Event 3 was dated Tue Dec 1, not today."
    )
    assert console_services.night_date_note(event=event, today=dt.date(2026, 12, 1)) == ""


def test_the_console_of_a_later_night_asks_before_opening_drawing_and_starting_the_clock(
    officer_client, season
):
    event = season.events.get(number=5)
    day_before = dt.datetime.combine(event.date - dt.timedelta(days=9), dt.time(18), tzinfo=dt.UTC)
    with time_machine.travel(day_before, tick=False):
        html = officer_client.get(url(event)).content.decode()
        assert "its results cannot be entered before that day. Open the night anyway?" in html
        night_make(season=season, number=5, players=4)
        html = officer_client.get(url(event)).content.decode()
    assert "its results cannot be entered before that day. Draw the seats anyway?" in html
    assert "its results cannot be entered before that day. Start the clock anyway?" in html


def test_the_console_of_tonight_asks_nothing_about_the_date(officer_client, season):
    event = season.events.get(number=5)
    night_make(season=season, number=5, players=4)
    with time_machine.travel(dt.datetime.combine(event.date, dt.time(18), tzinfo=dt.UTC), tick=False):
        html = officer_client.get(url(event)).content.decode()
    assert "anyway?" not in html


# ---------------------------------------------------------------------------------------------------------
# After the night


@pytest.fixture
def three(season, today):
    """Four players at one table (a, b, c and the Vice President), the clock running."""
    from events.services import night_clock
    from events.services.night_seating import seats_draw

    event, seats = night_make(season=season, players=3)
    seats_draw(event=event, version=0, actor=None)
    night_clock.clock_command(event=event, action="start", version=0, actor=None)
    return event, seats


def test_the_clock_stops_when_the_results_are_final(officer_client, three):
    event, seats = three
    assert act(officer_client, event, action="bust", player=seats["a"].pk).json()["ok"]
    assert act(officer_client, event, action="bust", player=seats["b"].pk).json()["ok"]
    assert act(officer_client, event, action="bust", player=seats["c"].pk).json()["ok"]
    answer = act(officer_client, event, action="finish").json()
    assert answer["ok"], answer
    clock = answer["state"]["clock"]
    assert clock["paused"] and not clock["running"] and clock["final"]
    html = answer["state"]["html"]
    assert "Results final" in html["clock"]
    assert "tap a player who is out" not in html["tables"]
    left = clock["seconds_left"]
    with time_machine.travel(dt.timedelta(minutes=10)):
        later = officer_client.get(url(event, "state/")).json()["clock"]
    assert later["seconds_left"] == left  # stopped, not ticking


def test_one_player_at_a_table_reads_1_player(officer_client, three):
    event, seats = three
    act(officer_client, event, action="bust", player=seats["a"].pk)
    act(officer_client, event, action="bust", player=seats["b"].pk)
    html = act(officer_client, event, action="bust", player=seats["c"].pk).json()["state"]["html"]["tables"]
    assert "1 player<" in html and "1 players" not in html


def test_the_console_links_the_printable_event_sheet(officer_client, three):
    event, _seats = three
    html = officer_client.get(url(event)).content.decode()
    assert f'href="/events/{event.season.name}/{event.number}/sheet/"' in html


def test_an_empty_night_says_where_to_open_it_without_left_or_right(officer_client, season):
    event = season.events.get(number=5)
    html = officer_client.get(url(event)).content.decode()
    assert "on the left" not in html and "open the night first (the button under Attendance)" in html
