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
    # The Out list names the winner once final: the one seat of the four not put out.
    (last,) = [seat for key, seat in seats.items() if key not in ("a", "b", "c")]
    assert f"<strong>1st</strong> {last.membership.person} <span" in html["busts"]
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


# ---------------------------------------------------------------------------------------------------------
# The whole night on the console: several out on one hand, removal for abuse


def test_several_out_on_one_hand_from_the_console_are_placed_by_their_chips(officer_client, three):
    from events.models import Elimination

    event, seats = three  # four players: a, b, c and the Vice President
    html = officer_client.get(url(event)).content.decode()
    assert "Several players out on one hand" in html and 'name="chips_' in html
    answer = act(
        officer_client,
        event,
        action="bust",
        player=[seats["a"].pk, seats["b"].pk],
        **{f"chips_{seats['a'].pk}": "3,000", f"chips_{seats['b'].pk}": "5000"},
    ).json()
    assert answer["ok"], answer
    # Four in, two out on one hand: places 3 and 4; more chips at the start of the hand is the better place.
    hand = answer["state"]["busts"][0]["players"]
    assert {p["name"]: p["place"] for p in hand} == {"B Player": "3rd", "A Player": "4th"}
    rows = Elimination.objects.filter(event=event).order_by("attendance__membership__person__key")
    assert [(r.hand, r.start_chips) for r in rows] == [(1, 3000), (1, 5000)]


def test_several_out_on_one_hand_without_a_chip_count_is_refused_with_the_reason(officer_client, three):
    from events.models import Elimination

    event, seats = three
    answer = act(
        officer_client,
        event,
        action="bust",
        player=[seats["a"].pk, seats["b"].pk],
        **{f"chips_{seats['a'].pk}": "3000"},
    )
    assert answer.status_code == 400
    assert answer.json()["error"].startswith("Enter B Player's chip count at the start of the hand")
    assert not Elimination.objects.exists()
    bad = act(officer_client, event, action="bust", player=[seats["a"].pk, seats["b"].pk], chips_x="lots")
    assert bad.status_code == 400 and "whole numbers of chips" in bad.json()["error"]


def test_removal_for_abuse_from_the_console_needs_a_majority_and_keeps_the_officers_who_agreed(
    officer_client, three
):
    from events.models import Elimination

    event, seats = three
    one = act(
        officer_client, event, action="abuse", player=seats["c"].pk, reason="Threw chips", agreed="president"
    )
    assert one.status_code == 400 and "1 of 3 officers agreed" in one.json()["error"]
    answer = act(
        officer_client,
        event,
        action="abuse",
        player=seats["c"].pk,
        reason="Threw chips at the dealer",
        agreed=["vice_president", "president"],
    ).json()
    assert answer["ok"] and answer["message"] == "Removed for abuse: C Player (keeps this place)."
    out = Elimination.objects.get(attendance=seats["c"])
    assert out.removed_for_abuse and out.abuse_agreed == ["president", "vice_president"]
    assert answer["state"]["busts"][0]["players"][0] == {
        "id": seats["c"].pk,
        "name": "C Player",
        "place": "4th",
        "abuse": True,
    }


# ---------------------------------------------------------------------------------------------------------
# The Treasurer on the console: attendance and the door, not the results


@pytest.fixture
def treasurer_client(client, treasurer):
    client.force_login(treasurer)
    return client


def test_the_treasurer_opens_the_console_with_the_door_but_no_results_controls(treasurer_client, three):
    event, seats = three
    page = treasurer_client.get(url(event))
    assert page.status_code == 200
    html = page.content.decode()
    assert f"/finance/door/{event.season.name}/{event.number}/?fragment=1" in html
    assert "data-bust=" not in html and "clock.pause" not in html and ">Undo<" not in html
    assert "Several players out on one hand" not in html and "Remove a player for abuse" not in html
    assert treasurer_client.get(url(event, "state/")).status_code == 200


def test_the_treasurer_marks_an_arrival_but_cannot_enter_a_bust(treasurer_client, three):
    from events.models import Attendance, Elimination

    event, seats = three
    refused = act(treasurer_client, event, action="bust", player=seats["a"].pk)
    assert refused.status_code == 400 and "Your role does not allow this" in refused.json()["error"]
    assert not Elimination.objects.exists()
    Attendance.objects.filter(pk=seats["b"].pk).update(status=Attendance.Status.ABSENT)
    arrived = act(treasurer_client, event, action="arrived", attendance=seats["b"].pk).json()
    assert arrived["ok"] and arrived["message"] == "B Player arrived and plays."


def test_a_member_still_cannot_open_the_console(member_client, three):
    event, _seats = three
    assert member_client.get(url(event)).status_code == 403


def test_several_out_on_one_hand_recorded_offline_replays_with_its_chips(three):
    from events.services import night_actions

    event, seats = three
    event.refresh_from_db()
    done = night_actions.perform(
        "bust",
        event=event,
        actor=None,
        payload={
            "players": [seats["a"].pk, seats["b"].pk],
            "chips": {str(seats["a"].pk): 9000, str(seats["b"].pk): 2000},
        },
        versions={"results": event.results_version},
        offline=True,
    )
    assert done.message == "Out: A Player, B Player."
    assert {e.attendance_id: e.start_chips for e in done.value} == {seats["a"].pk: 9000, seats["b"].pk: 2000}
