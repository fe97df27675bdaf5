"""SPEC §16.13, offline conflicts only where they are real (issue 34): a queued change conflicts only with
another screen's change to the same player or seat (or the clock); a change that depends on a parked one is
parked with it; a device id belongs to the login that first used it; bad JSON and junk are refused with a
message, and the open changes of a device are capped."""

import datetime as dt
import json
import random

import pytest
import time_machine
from django.core.management import CommandError, call_command

from events.models import Elimination, Night, NightChange, NightDevice, NightSeat
from events.services import night_clock, night_seating, night_sync
from events.services.results import bust_record
from ncpc.core.errors import NcpcError
from ncpc.core.models import AuditEntry
from tests.events.factories import night_make

T0 = dt.datetime(2026, 12, 12, 19, 0, tzinfo=dt.UTC)
MS0 = int(T0.timestamp() * 1000)


@pytest.fixture
def night(season):
    with time_machine.travel(T0 + dt.timedelta(minutes=30), tick=False):
        event, seats = night_make(season=season, players=12)
        night_seating.seats_draw(event=event, version=0, actor=None, rng=random.Random(7))
        night_clock.clock_command(event=event, action="start", version=0, actor=None, now=T0)
        yield event, seats


def seen(event):
    return night_sync.night_versions(event=event)


def change(sequence, action, seen_, minute=1, **payload):
    return {
        "sequence": sequence,
        "action": action,
        "happened_at": MS0 + minute * 60_000,
        "seen": seen_,
        **payload,
    }


def sync(event, device, changes, actor=None):
    _, parsed = night_sync.changes_parse(
        data={"device": device, "changes": changes}, now=T0 + dt.timedelta(hours=1)
    )
    return night_sync.changes_sync(event=event, device=device, changes=parsed, actor=actor)


def other_screen_bust(event, attendance):
    event.refresh_from_db()
    bust_record(event=event, attendance_ids=[attendance.pk], version=event.results_version, actor=None)


def other_screen_move(event, attendance, table, seat):
    night = Night.objects.get(event=event)
    night_seating.seat_move(
        event=event,
        attendance_id=attendance.pk,
        to_table=table,
        to_seat=seat,
        version=night.seats_version,
        actor=None,
        proposed=False,
    )


def out(event):
    return [e.attendance.membership.person.key for e in Elimination.objects.filter(event=event)]


def seat_of(attendance):
    row = NightSeat.objects.select_related("table").get(attendance=attendance)
    return row.table.number, row.seat


def empty_seats(event, table_number):
    taken = set(
        NightSeat.objects.filter(
            table__event=event, table__number=table_number, attendance__elimination__isnull=True
        ).values_list("seat", flat=True)
    )
    count = event.night_tables.get(number=table_number).seat_count
    return [s for s in range(1, count + 1) if s not in taken]


def at_table(seats, event, number, but=()):
    return [a for k, a in seats.items() if k not in but and seat_of(a)[0] == number]


# --- rule 1: the same player or seat only ----------------------------------------------------------------


@pytest.mark.django_db
def test_the_issues_night_maxs_bust_and_the_pause_apply_anns_bust_and_kims_move_wait(night, vice_president):
    # Phone A offline: Ann out, Max out, Kim moved, clock paused. Phone B meanwhile: Ann out.
    event, seats = night
    ann, max_ = seats["c"], seats["d"]
    kim = at_table(seats, event, 2, but="cd")[0]
    kim_before = seat_of(kim)
    to = empty_seats(event, 1)[0]
    s = seen(event)
    other_screen_bust(event, ann)
    outcomes = sync(
        event,
        "phone-a",
        [
            change(1, "bust", s, minute=5, players=[ann.pk]),
            change(2, "bust", s, minute=6, players=[max_.pk]),
            change(3, "move", s, minute=7, player=kim.pk, to_table=1, to_seat=to),
            change(4, "clock", s, minute=10, clock="pause"),
        ],
        actor=vice_president,
    )
    assert [o.status for o in outcomes] == ["conflict", "applied", "conflict", "applied"]
    assert outcomes[0].message == (
        "C Player was recorded out on another screen meanwhile; this device recorded it too."
    )
    assert outcomes[2].message == "Follows “Bust: C Player” (#1), which waits too: it is parked with it."
    assert out(event) == ["c", "d"]  # Ann by phone B, then Max by phone A
    assert seat_of(kim) == kim_before  # not moved: the tables stay as phone B left them
    assert Night.objects.get(event=event).paused_at == T0 + dt.timedelta(minutes=10)
    parked = NightChange.objects.get(sequence=3)
    assert parked.parked_with == NightChange.objects.get(sequence=1)
    assert night_sync.change_json(change=parked)["parked_with"] == parked.parked_with_id
    assert [night_sync.change_describe(change=r) for r in night_sync.changes_open(event=event)] == [
        "Bust: C Player",
        f"Move: {kim.player_name} to table 1 seat {to}",
    ]


@pytest.mark.django_db
def test_another_screens_bust_of_someone_else_does_not_hold_up_an_undo_free_batch(night):
    event, seats = night
    s = seen(event)
    other_screen_bust(event, seats["e"])  # at 19:30
    # Tapped at 19:31 and 19:32: placed after the other screen's bust (SPEC §17.8).
    outcomes = sync(
        event,
        "phone-a",
        [
            change(1, "bust", s, minute=31, players=[seats["c"].pk]),
            change(2, "bust", s, minute=32, players=[seats["d"].pk]),
        ],
    )
    assert [o.status for o in outcomes] == ["applied", "applied"]
    assert out(event) == ["e", "c", "d"]


@pytest.mark.django_db
def test_a_move_of_a_player_another_screen_moved_meanwhile_is_a_conflict(night):
    event, seats = night
    kim = at_table(seats, event, 2)[0]
    first, second = empty_seats(event, 1)[:2]
    s = seen(event)
    other_screen_move(event, kim, 1, first)
    [outcome] = sync(event, "phone-a", [change(1, "move", s, player=kim.pk, to_table=1, to_seat=second)])
    assert outcome.status == "conflict"
    assert outcome.message == f"{kim.player_name} was moved on another screen meanwhile."
    assert seat_of(kim) == (1, first)


@pytest.mark.django_db
def test_a_move_after_another_screen_moved_someone_else_elsewhere_is_applied(night):
    event, seats = night
    bob, kim = at_table(seats, event, 2)[:2]
    first, second = empty_seats(event, 1)[:2]
    s = seen(event)
    other_screen_move(event, bob, 1, first)
    [outcome] = sync(event, "phone-a", [change(1, "move", s, player=kim.pk, to_table=1, to_seat=second)])
    assert outcome.status == "applied"
    assert seat_of(kim) == (1, second) and seat_of(bob) == (1, first)


@pytest.mark.django_db
def test_a_move_into_a_seat_another_screen_filled_meanwhile_is_a_conflict(night):
    event, seats = night
    bob, kim = at_table(seats, event, 2)[:2]
    target = empty_seats(event, 1)[0]
    s = seen(event)
    other_screen_move(event, bob, 1, target)
    [outcome] = sync(event, "phone-a", [change(1, "move", s, player=kim.pk, to_table=1, to_seat=target)])
    assert outcome.status == "conflict"
    assert outcome.message == f"Table 1 seat {target} changed on another screen meanwhile."


@pytest.mark.django_db
def test_a_move_of_a_player_another_screen_put_out_is_a_conflict_not_a_refusal(night):
    event, seats = night
    kim = at_table(seats, event, 2)[0]
    s = seen(event)
    other_screen_bust(event, kim)
    [outcome] = sync(
        event, "phone-a", [change(1, "move", s, player=kim.pk, to_table=1, to_seat=empty_seats(event, 1)[0])]
    )
    assert outcome.status == "conflict"
    assert (
        outcome.message
        == f"{kim.player_name} was recorded out on another screen meanwhile: this device moved them."
    )


@pytest.mark.django_db
def test_a_clock_change_conflicts_with_another_screens_clock_change_only(night):
    event, seats = night
    s = seen(event)
    other_screen_bust(event, seats["e"])
    [applied] = sync(event, "phone-a", [change(1, "clock", s, minute=5, clock="pause")])
    assert applied.status == "applied"
    s = seen(event)
    night_clock.clock_command(
        event=event, action="resume", version=s["clock"], actor=None, now=T0 + dt.timedelta(minutes=8)
    )
    [parked] = sync(event, "phone-b", [change(1, "clock", s, minute=9, clock="resume")])
    assert parked.status == "conflict"
    assert parked.message == "The clock changed on another screen while this device was offline."


# --- rule 2: parked with the change it depends on --------------------------------------------------------


@pytest.mark.django_db
def test_a_parked_move_is_kept_only_after_the_bust_it_follows_is_settled(night, vice_president):
    event, seats = night
    ann = seats["c"]
    kim = at_table(seats, event, 2, but="c")[0]
    to = empty_seats(event, 1)[0]
    s = seen(event)
    other_screen_bust(event, ann)
    bust, move = sync(
        event,
        "phone-a",
        [change(1, "bust", s, players=[ann.pk]), change(2, "move", s, player=kim.pk, to_table=1, to_seat=to)],
    )
    with pytest.raises(NcpcError, match="follows “Bust: C Player”, which still waits: settle that one first"):
        night_sync.change_resolve(event=event, change_id=move.change_id, choice="mine", actor=vice_president)
    night_sync.change_resolve(event=event, change_id=bust.change_id, choice="theirs", actor=vice_president)
    night_sync.change_resolve(event=event, change_id=move.change_id, choice="mine", actor=vice_president)
    assert seat_of(kim) == (1, to)
    assert night_sync.changes_open(event=event) == []


@pytest.mark.django_db
def test_a_change_of_another_player_after_a_parked_move_is_not_parked(night):
    event, seats = night
    kim = at_table(seats, event, 2)[0]
    first, second = empty_seats(event, 1)[:2]
    s = seen(event)
    other_screen_move(event, kim, 1, first)
    outcomes = sync(
        event,
        "phone-a",
        [
            change(1, "move", s, player=kim.pk, to_table=1, to_seat=second),
            change(2, "bust", s, players=[seats["c"].pk]),
            change(3, "bust", s, players=[kim.pk]),
        ],
    )
    # Ann's bust has nothing to do with Kim's move; Kim's own bust follows Kim's parked move.
    assert [o.status for o in outcomes] == ["conflict", "applied", "conflict"]
    assert out(event) == ["c"]


# --- rule 3: a device id belongs to its first login ------------------------------------------------------


@pytest.mark.django_db
def test_another_login_sending_under_a_device_id_is_refused_and_audited(night, vice_president, president):
    event, seats = night
    s = seen(event)
    [first] = sync(event, "vp-phone", [change(1, "bust", s, players=[seats["c"].pk])], actor=vice_president)
    assert first.status == "applied"
    assert NightDevice.objects.get(device="vp-phone").user == vice_president
    with pytest.raises(night_sync.DeviceNotYours, match="belongs to another officer's login"):
        sync(event, "vp-phone", [change(2, "bust", s, players=[seats["d"].pk])], actor=president)
    refused = AuditEntry.objects.get(action="night.sync_device_refused")
    assert refused.actor == president and refused.data == {"device": "vp-phone", "owner": vice_president.pk}
    assert NightChange.objects.count() == 1 and out(event) == ["c"]
    # The Vice President's own next change is hers, not a duplicate of the President's number.
    [second] = sync(event, "vp-phone", [change(2, "bust", s, players=[seats["e"].pk])], actor=vice_president)
    assert second.status == "applied" and not second.duplicate
    assert out(event) == ["c", "e"]


def url(event, name):
    return f"/events/{event.season.name}/{event.number}/night/{name}"


def post_json(client, path, body):
    return client.post(path, body, content_type="application/json", HTTP_ACCEPT="application/json")


@pytest.mark.django_db
def test_the_sync_page_answers_403_with_the_reason_to_another_login(client, night, vice_president, president):
    event, seats = night
    s = seen(event)
    body = json.dumps({"device": "vp-phone", "changes": [change(1, "bust", s, players=[seats["c"].pk])]})
    client.force_login(vice_president)
    with time_machine.travel(T0 + dt.timedelta(hours=1), tick=False):
        assert post_json(client, url(event, "sync/"), body).status_code == 200
        client.force_login(president)
        answer = post_json(client, url(event, "sync/"), body)
    assert answer.status_code == 403
    assert answer.json()["error"].startswith("This device id belongs to another officer's login")


# --- rule 4: bad JSON, unknown actions, the cap ----------------------------------------------------------


@pytest.mark.django_db
def test_a_sync_body_of_50000_nested_brackets_is_a_400_with_a_message(client, night, vice_president):
    event, _ = night
    client.force_login(vice_president)
    answer = post_json(client, url(event, "sync/"), "[" * 50_000)
    assert answer.status_code == 400
    assert (
        answer.json()["error"] == "The body nests deeper than 64 levels: it is not something this app sends."
    )
    assert not NightChange.objects.exists()


@pytest.mark.django_db
def test_an_unknown_action_refuses_the_batch_before_anything_is_stored(client, night, vice_president):
    event, seats = night
    s = seen(event)
    client.force_login(vice_president)
    body = {
        "device": "phone-a",
        "changes": [change(1, "bust", s, players=[seats["c"].pk]), change(2, "finish", s)],
    }
    answer = post_json(client, url(event, "sync/"), json.dumps(body))
    assert answer.status_code == 400
    assert answer.json()["error"] == (
        "Change #2 is of an unknown kind ('finish'): a device sends bust, undo, move or clock."
    )
    assert not NightChange.objects.exists() and out(event) == []


@pytest.mark.parametrize(
    "item, message",
    [
        (
            {"action": "bust", "players": "c"},
            r"Change #1 \(bust\) must name its players as a list of 1 to 20\.",
        ),
        ({"action": "bust", "players": ["x"]}, r"Change #1 \(bust\) names a player that is not a number\."),
        ({"action": "move", "player": 3, "to_table": 1}, r"Change #1 \(move\) needs to seat as a number\."),
        ({"action": "clock", "clock": "explode"}, r"Change #1 \(clock\) must be one of start, pause"),
        ({"action": ["bust"]}, r"Change #1 is of an unknown kind"),
    ],
)
def test_malformed_fields_are_refused_when_the_batch_is_read(item, message):
    with pytest.raises(night_sync.SyncError, match=message):
        night_sync.changes_parse(
            data={"device": "p", "changes": [{"sequence": 1, "happened_at": MS0, **item}]}, now=T0
        )


def test_fields_a_change_does_not_use_are_not_kept():
    _, [parsed] = night_sync.changes_parse(
        data={
            "device": "p",
            "changes": [
                {"sequence": 1, "happened_at": MS0, "action": "clock", "clock": "pause", "junk": "x" * 999}
            ],
        },
        now=T0,
    )
    assert parsed.payload == {"clock": "pause"}


@pytest.mark.django_db
def test_open_changes_of_a_device_are_capped_and_the_rest_held_with_a_message(client, night, vice_president):
    event, _ = night
    s = seen(event)
    junk = [change(n, "bust", s, players=[999_000 + n]) for n in range(1, 61)]
    outcomes = sync(event, "phone-a", junk)
    assert [o.status for o in outcomes] == ["refused"] * 50 + ["held"] * 10
    assert outcomes[-1].message == (
        "50 changes of this device wait on the conflicts page: the Vice President settles or drops them, "
        "then the rest are sent."
    )
    assert NightChange.objects.count() == 50
    client.force_login(vice_president)
    page = client.get(url(event, "conflicts/")).content.decode()
    assert page.count("data-conflict=") == 50
    night_sync.change_resolve(
        event=event, change_id=outcomes[0].change_id, choice="drop", actor=vice_president
    )
    again = sync(event, "phone-a", junk[50:])
    assert [o.status for o in again] == ["refused"] + ["held"] * 9


# --- rule 4: the season file ------------------------------------------------------------------------------


@pytest.mark.django_db
def test_import_season_refuses_a_deeply_nested_file_with_a_message_not_a_traceback(tmp_path):
    path = tmp_path / "nested.json"
    path.write_text("[" * 50_000)
    with pytest.raises(CommandError, match="nests deeper than 64 levels"):
        call_command("import_season", str(path))


@pytest.mark.django_db
def test_import_season_says_where_a_file_stops_being_json(tmp_path):
    path = tmp_path / "broken.json"
    path.write_text('{"format": "ncpc-season/1",\n "events": [}')
    with pytest.raises(CommandError, match=r"is not valid JSON: Expecting value \(line 2, column 13\)\."):
        call_command("import_season", str(path))
