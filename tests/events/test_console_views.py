"""The night console's pages (issue 19): the page, the live state endpoint and the one action endpoint;
officers run the night, members do not; no page load is needed for a bust with a table move."""

import re

import pytest

from events.models import Elimination, NightMove
from events.services import console as console_services
from tests.events.factories import night_make
from tests.events.test_night import place
from tests.events.test_night_pages import no_inline_code

pytestmark = pytest.mark.django_db


def url(event, name=""):
    return f"/events/{event.season.name}/{event.number}/console/{name}"


@pytest.fixture
def night(season, today):
    """Seven at table 1, six at table 2 (13 players): two out at table 2 puts the tables three apart."""
    event, seats = night_make(season=season, players=13)
    place(
        event,
        {1: dict(zip(range(1, 8), "abcdefg")), 2: dict(zip(range(1, 7), "hijklm"))},
        seats,
        buttons={1: 1, 2: 1},
    )
    return event, seats


def act(client, event, **data):
    data.setdefault("version", console_services.night_version(event=event))
    return client.post(url(event, "act/"), data, HTTP_ACCEPT="application/json")


def test_the_console_shows_the_clock_the_tables_and_bust_buttons(officer_client, night):
    event, seats = night
    page = officer_client.get(url(event))
    assert page.status_code == 200
    html = page.content.decode()
    no_inline_code(html)
    assert "Level 1" in html and "Table 1" in html and "Table 2" in html
    assert f'data-bust="{seats["a"].pk}"' in html
    assert 'src="/static/events/console.js"' in html or "events/console.js" in html
    assert "TV clock" in html


def test_members_cannot_open_the_console_its_state_or_act(member_client, night):
    event, seats = night
    assert member_client.get(url(event)).status_code == 403
    assert member_client.get(url(event, "state/")).status_code == 403
    answer = member_client.post(
        url(event, "act/"), {"action": "bust", "player": seats["a"].pk, "version": "0.0.0"}
    )
    assert answer.status_code == 403
    assert not Elimination.objects.exists()


def test_the_state_answers_204_while_the_version_is_unchanged(officer_client, night):
    event, _seats = night
    state = officer_client.get(url(event, "state/")).json()
    assert set(state["html"]) == {"clock", "attendance", "tables", "busts"}
    unchanged = officer_client.get(url(event, "state/"), {"since": state["version"]})
    assert unchanged.status_code == 204 and unchanged.content == b""
    assert officer_client.get(url(event, "state/"), {"since": "0.0.0"}).status_code == 200


def test_a_bust_answers_with_the_move_due_and_one_tap_confirms_it(officer_client, night):
    event, seats = night
    first = act(officer_client, event, action="bust", player=seats["l"].pk)
    assert first.status_code == 200 and first.json()["ok"]
    answer = act(officer_client, event, action="bust", player=seats["m"].pk).json()
    assert answer["ok"] and answer["message"] == "Out: M Player."
    move = answer["state"]["move"]
    assert (move["from_table"], move["to_table"]) == (1, 2)
    assert "Done: " in answer["state"]["html"]["tables"]
    done = act(
        officer_client,
        event,
        action="move",
        player=move["player"],
        to_table=move["to_table"],
        to_seat=move["to_seat"],
    ).json()
    assert done["ok"], done
    assert done["state"]["move"] is None
    assert NightMove.objects.filter(event=event).count() == 1


def test_the_same_bust_from_two_consoles_is_recorded_once(officer_client, night):
    event, seats = night
    seen = console_services.night_version(event=event)
    assert act(officer_client, event, action="bust", player=seats["a"].pk, version=seen).status_code == 200
    second = act(officer_client, event, action="bust", player=seats["a"].pk, version=seen)
    assert second.status_code == 409
    body = second.json()
    assert body["conflict"] and "out of date" in body["error"]
    assert body["state"]["version"] == console_services.night_version(event=event)
    assert Elimination.objects.filter(attendance=seats["a"]).count() == 1


def test_undo_of_any_bust_through_the_console(officer_client, night):
    event, seats = night
    act(officer_client, event, action="bust", player=seats["a"].pk)
    act(officer_client, event, action="bust", player=seats["b"].pk)
    hand = Elimination.objects.get(attendance=seats["a"]).hand
    answer = act(officer_client, event, action="undo", hand=hand).json()
    assert answer["ok"] and "A Player back in" in answer["message"]
    assert [b["players"][0]["name"] for b in answer["state"]["busts"]] == ["B Player"]


def test_without_javascript_a_plain_form_works_and_returns_to_the_console(officer_client, night):
    event, seats = night
    answer = officer_client.post(
        url(event, "act/"),
        {"action": "bust", "player": seats["a"].pk, "version": console_services.night_version(event=event)},
    )
    assert answer.status_code == 302 and answer["Location"].startswith(url(event))
    page = officer_client.get(answer["Location"]).content.decode()
    assert "Out: A Player." in page


def test_bad_input_is_a_clear_answer_never_a_500(officer_client, night):
    event, _seats = night
    for data in (
        {"action": "nonsense"},
        {"action": "bust", "player": "x"},
        {"action": "undo", "hand": 99},
        {"action": "called", "attendance": 1, "called_at": "late"},
        {"action": "clock.fly"},
        {"action": "bust", "version": "garbage"},
    ):
        answer = act(officer_client, event, **data)
        assert answer.status_code in (400, 409), (data, answer.status_code)
        assert answer.json()["error"]


def test_clock_changes_through_the_console(officer_client, night):
    event, _seats = night
    answer = act(officer_client, event, action="clock.start").json()
    assert answer["ok"] and answer["state"]["clock"]["running"]
    assert re.search(r"\d+:\d\d", answer["state"]["clock_text"])


def test_the_finish_dialog_says_the_results_are_emailed(officer_client, night, today):
    event, seats = night
    event.date = today  # tonight's night (one entered days later sends no results e-mail)
    event.save(update_fields=["date"])
    for key in "abcdefghijklm":  # the officer is a member too, and wins
        act(officer_client, event, action="bust", player=seats[key].pk)
    html = officer_client.get(url(event)).content.decode()
    assert "e-mailed to every member" in html


@pytest.mark.parametrize("number", ["999999999999999999999", "-99999999999999999999", "1e9", "", "x"])
@pytest.mark.parametrize("action", ["bust", "undo", "arrived", "seat", "move"])
def test_a_number_out_of_any_range_is_refused_not_a_server_error(officer_client, night, action, number):
    event, seats = night
    answer = act(
        client=officer_client, event=event, action=action, player=number, hand=number, to_table=number
    )
    assert answer.status_code == 400
    assert answer.json()["error"]
    assert not Elimination.objects.exists()
