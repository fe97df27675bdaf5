"""One registry of the night's actions (issue 31): the same action sent by the console's POST, replayed from a
device's offline queue, or posted by a plain form (no JavaScript) writes the same rows and the same audit."""

import json

import pytest
from django.utils import timezone

from events.models import Elimination, Night
from events.services import console as console_services
from events.services import night_actions, night_sync
from ncpc.core.errors import NcpcError
from ncpc.core.models import AuditEntry
from tests.events.factories import night_make
from tests.events.test_night import place
from tests.factories import member_user

pytestmark = pytest.mark.django_db

PATHS = ("console", "offline", "form")


@pytest.fixture
def night(season, today):
    event, seats = night_make(season=season, players=13)
    place(
        event,
        {1: dict(zip(range(1, 8), "abcdefg")), 2: dict(zip(range(1, 7), "hijklm"))},
        seats,
        buttons={1: 1, 2: 1},
    )
    return event, seats


def base(event):
    return f"/events/{event.season.name}/{event.number}/"


def send(client, event, path, action, *, offline_action=None, **fields):
    """One action by one path: ``fields`` as the console's form posts them; ``offline_action`` and the offline
    change's own fields (``players``, ``clock``) when the device says it differently."""
    if path == "offline":
        versions = night_sync.night_versions(event=event)
        sequence = night_sync.NightChange.objects.filter(device="phone-1").count() + 1
        change = {
            "sequence": sequence,
            "happened_at": int(timezone.now().timestamp() * 1000),
            "action": offline_action or action,
            "seen": versions,
            **fields,
        }
        answer = client.post(
            base(event) + "night/sync/",
            json.dumps({"device": "phone-1", "changes": [change]}),
            content_type="application/json",
        )
        assert answer.status_code == 200
        assert answer.json()["outcomes"][0]["status"] == "applied", answer.json()
        return
    data = {"action": action, "version": console_services.night_version(event=event), **fields}
    if path == "console":
        answer = client.post(base(event) + "console/act/", data, HTTP_ACCEPT="application/json")
        assert answer.status_code == 200 and answer.json()["ok"], answer.json()
    else:  # the console's plain form, without JavaScript: a redirect back with a message
        answer = client.post(base(event) + "console/act/", data)
        assert answer.status_code == 302


def audit(event, *actions):
    return [(a.action, a.summary) for a in AuditEntry.objects.filter(action__in=actions).order_by("pk")]


@pytest.mark.parametrize("path", PATHS)
def test_a_bust_and_its_undo_are_one_action_by_every_path(officer_client, night, path):
    event, seats = night
    player = seats["h"].pk
    if path == "offline":
        send(officer_client, event, path, "bust", players=[player])
    else:
        send(officer_client, event, path, "bust", player=player)
    assert list(Elimination.objects.filter(event=event).values_list("attendance_id", "hand")) == [(player, 1)]
    assert audit(event, "results.bust") == [("results.bust", "Out: H Player 14th")]
    send(officer_client, event, path, "undo", hand=1)
    assert not Elimination.objects.filter(event=event).exists()
    assert audit(event, "results.undo") == [
        ("results.undo", f"Undid the bust of hand 1 at {event}: H Player back in at table 2 seat 1")
    ]


@pytest.mark.parametrize("path", ("console", "offline", "clock page"))
def test_a_clock_start_is_one_action_by_every_path(officer_client, night, path):
    event, _seats = night
    if path == "clock page":  # the TV clock's plain form (events.views.night.clock_action)
        answer = officer_client.post(base(event) + "clock/action/", {"action": "start", "version": 0})
        assert answer.status_code == 302
    elif path == "offline":
        send(officer_client, event, path, "clock.start", offline_action="clock", clock="start")
    else:
        send(officer_client, event, path, "clock.start")
    night_row = Night.objects.get(event=event)
    assert night_row.clock_version == 1
    assert night_row.started_at == timezone.now() and night_row.paused_at is None
    assert [a for a, _ in audit(event, "clock.start")] == ["clock.start"]


def test_the_registry_refuses_an_unknown_action_and_offline_what_needs_the_server(night):
    event, seats = night
    with pytest.raises(NcpcError, match="Unknown action"):
        night_actions.perform("nap", event=event, actor=None, payload={}, versions={})
    # Drawing the seats again needs the server: a device may not queue it.
    with pytest.raises(NcpcError, match="Unknown kind of change"):
        night_actions.perform("draw", event=event, actor=None, payload={}, versions={}, offline=True)


def test_a_member_without_the_right_is_refused_by_the_registry(night):
    event, seats = night
    member = member_user(season=event.season, username="plain")
    outcome = night_actions.attempt(
        "bust",
        event=event,
        actor=member,
        payload={"player": seats["a"].pk},
        versions=night_sync.night_versions(event=event),
    )
    assert not outcome.ok and "does not allow" in outcome.error
    assert not Elimination.objects.exists()


UNDO_REFUSED = "The undo names no bust (its hand is missing or not a number): nothing was undone."


@pytest.mark.parametrize("hand", [None, "", "last", "1.5"], ids=["missing", "empty", "text", "fraction"])
@pytest.mark.parametrize("path", ("console", "form", "results page", "offline"))
def test_an_undo_that_names_no_bust_is_a_400_by_every_path_and_undoes_nothing(
    officer_client, night, path, hand
):
    """SPEC §17.8: an undo names the bust it undoes; without one (or one that is not a number) it is refused,
    never taken for the last bust."""
    event, seats = night
    send(officer_client, event, "console", "bust", player=seats["h"].pk)
    fields = {} if hand is None else {"hand": hand}
    version = console_services.night_version(event=event)
    if path == "offline":
        change = {
            "sequence": 1,
            "happened_at": 0,
            "action": "undo",
            "seen": night_sync.night_versions(event=event),
        }
        answer = officer_client.post(
            base(event) + "night/sync/",
            json.dumps({"device": "phone-1", "changes": [{**change, **fields}]}),
            content_type="application/json",
        )
        assert answer.status_code == 400
        assert answer.json() == {
            "error": "Change #1 (undo) must name the bust it undoes: its hand, or the sequence "
            "number of this device's own bust recorded offline."
        }
        assert not night_sync.NightChange.objects.exists()
    elif path == "console":
        answer = officer_client.post(
            base(event) + "console/act/",
            {"action": "undo", "version": version, **fields},
            HTTP_ACCEPT="application/json",
        )
        assert answer.status_code == 400
        assert (answer.json()["ok"], answer.json()["error"]) == (False, UNDO_REFUSED)
    else:
        url, data = (
            ("console/act/", {"action": "undo", "version": version})
            if path == "form"
            else ("results/undo/", {"version": version.split(".")[0]})
        )
        answer = officer_client.post(base(event) + url, {**data, **fields})
        assert answer.status_code == 400
        assert answer.content.decode() == UNDO_REFUSED
    assert list(Elimination.objects.filter(event=event).values_list("attendance_id", "hand")) == [
        (seats["h"].pk, 1)
    ]
    assert audit(event, "results.undo") == []


def test_the_results_page_runs_its_bust_and_undo_through_the_registry(officer_client, night):
    """The results page's forms are the registry's actions: the same rows, audit and messages as the console."""
    event, seats = night
    event.refresh_from_db()
    answer = officer_client.post(
        base(event) + "results/bust/",
        {"version": event.results_version, "player": seats["h"].pk},
        follow=True,
    )
    assert "Out: H Player." in answer.content.decode()
    event.refresh_from_db()
    answer = officer_client.post(
        base(event) + "results/undo/", {"version": event.results_version, "hand": 1}, follow=True
    )
    assert "Undone: H Player back in at table 2 seat 1." in answer.content.decode()
    assert audit(event, "results.bust", "results.undo") == [
        ("results.bust", "Out: H Player 14th"),
        ("results.undo", f"Undid the bust of hand 1 at {event}: H Player back in at table 2 seat 1"),
    ]
