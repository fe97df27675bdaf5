"""Changes recorded offline on tournament night (issue 20): a device's queue of busts, undos, table moves and
clock changes is applied in order with the online checks, once however often it is sent; a change another
officer overtook meanwhile waits as a conflict for the Vice President, never merged."""

import datetime as dt
import json
import random

import pytest
import time_machine

from events.models import Elimination, Night, NightChange, NightSeat
from events.services import night_clock, night_seating, night_sync
from events.services.results import bust_record
from ncpc.core.errors import NcpcError
from ncpc.core.models import AuditEntry
from tests.events.factories import night_make

pytestmark = pytest.mark.django_db

T0 = dt.datetime(2026, 12, 12, 19, 0, tzinfo=dt.UTC)
MS0 = int(T0.timestamp() * 1000)


@pytest.fixture
def night(season):
    with time_machine.travel(T0 + dt.timedelta(minutes=30), tick=False):
        event, seats = night_make(season=season, players=12)
        night_seating.seats_draw(event=event, version=0, actor=None, rng=random.Random(7))
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


def out_in_order(event):
    return [(e.hand, e.attendance.membership.person.key) for e in Elimination.objects.filter(event=event)]


def empty_seat(event, table_number):
    taken = set(
        NightSeat.objects.filter(table__event=event, table__number=table_number).values_list(
            "seat", flat=True
        )
    )
    count = event.night_tables.get(number=table_number).seat_count
    return next(s for s in range(1, count + 1) if s not in taken)


def seat_of(seat):
    row = NightSeat.objects.select_related("table").get(attendance=seat)
    return row.table.number, row.seat


def test_two_busts_a_move_and_a_pause_recorded_offline_are_applied_in_order(night):
    event, seats = night
    s = seen(event)
    to = empty_seat(event, 1)
    mover = next(a for k, a in seats.items() if seat_of(a)[0] == 2 and k not in "cd")
    outcomes = sync(
        event,
        "phone-a",
        [
            change(1, "clock", s, minute=0, clock="start"),
            change(2, "bust", s, minute=5, players=[seats["c"].pk]),
            change(3, "bust", s, minute=6, players=[seats["d"].pk]),
            change(4, "move", s, minute=7, player=mover.pk, to_table=1, to_seat=to),
            change(5, "clock", s, minute=10, clock="pause"),
        ],
    )
    assert [o.status for o in outcomes] == ["applied"] * 5
    assert out_in_order(event) == [(1, "c"), (2, "d")]
    assert seat_of(mover) == (1, to)
    night_row = Night.objects.get(event=event)
    # Started and paused when the device said, not when the batch arrived.
    assert night_row.started_at == T0
    assert night_row.paused_at == T0 + dt.timedelta(minutes=10)
    assert seen(event) == {"results": s["results"] + 2, "seats": s["seats"] + 1, "clock": s["clock"] + 2}
    assert AuditEntry.objects.filter(action="night.sync").count() == 1


def test_a_resent_batch_records_nothing_twice(night):
    event, seats = night
    batch = [change(1, "bust", seen(event), players=[seats["c"].pk])]
    first = sync(event, "phone-a", batch)
    again = sync(event, "phone-a", batch)
    assert first[0].status == again[0].status == "applied"
    assert again[0].duplicate and again[0].change_id == first[0].change_id
    assert out_in_order(event) == [(1, "c")]
    assert NightChange.objects.count() == 1


def test_an_out_of_order_batch_is_applied_by_sequence_number(night):
    event, seats = night
    s = seen(event)
    outcomes = sync(
        event,
        "phone-a",
        [
            change(3, "bust", s, minute=7, players=[seats["e"].pk]),
            change(1, "bust", s, minute=5, players=[seats["c"].pk]),
            change(2, "bust", s, minute=6, players=[seats["d"].pk]),
        ],
    )
    assert [o.sequence for o in outcomes] == [1, 2, 3]
    assert out_in_order(event) == [(1, "c"), (2, "d"), (3, "e")]


def test_a_change_whose_predecessor_has_not_arrived_is_held_until_it_does(night):
    event, seats = night
    s = seen(event)
    second = change(2, "bust", s, minute=6, players=[seats["d"].pk])
    held = sync(event, "phone-a", [second])
    assert held[0].status == "held" and not NightChange.objects.exists()
    assert out_in_order(event) == []
    outcomes = sync(event, "phone-a", [change(1, "bust", s, minute=5, players=[seats["c"].pk]), second])
    assert [o.status for o in outcomes] == ["applied", "applied"]
    assert out_in_order(event) == [(1, "c"), (2, "d")]


def test_another_officers_bust_of_a_different_player_does_not_hold_up_an_offline_bust(night):
    # SPEC §16.13: a change conflicts only with changes to the same player made meanwhile.
    event, seats = night
    s = seen(event)  # the phone goes offline having seen this
    event.refresh_from_db()
    bust_record(event=event, attendance_ids=[seats["e"].pk], version=event.results_version, actor=None)
    # Tapped at 19:31, after the other screen's bust at 19:30: placed after it (SPEC §17.8).
    outcomes = sync(event, "phone-a", [change(1, "bust", s, minute=31, players=[seats["c"].pk])])
    assert [o.status for o in outcomes] == ["applied"]
    assert out_in_order(event) == [(1, "e"), (2, "c")]
    assert night_sync.changes_open(event=event) == []


def test_the_same_bust_on_two_screens_is_shown_as_a_conflict_and_cannot_be_kept_twice(night, vice_president):
    event, seats = night
    s = seen(event)
    event.refresh_from_db()
    bust_record(event=event, attendance_ids=[seats["c"].pk], version=event.results_version, actor=None)
    [outcome] = sync(event, "phone-a", [change(1, "bust", s, players=[seats["c"].pk])])
    assert outcome.status == "conflict"
    assert outcome.message.startswith("C Player was recorded out on another screen meanwhile")
    with pytest.raises(NcpcError, match="out already"):
        night_sync.change_resolve(
            event=event, change_id=outcome.change_id, choice="mine", actor=vice_president
        )
    night_sync.change_resolve(event=event, change_id=outcome.change_id, choice="theirs", actor=vice_president)
    assert out_in_order(event) == [(1, "c")]
    with pytest.raises(NcpcError, match="settled already"):
        night_sync.change_resolve(
            event=event, change_id=outcome.change_id, choice="drop", actor=vice_president
        )
    assert AuditEntry.objects.filter(action="night.sync_resolve").count() == 1


def test_an_undo_after_a_parked_bust_waits_with_it_and_a_dropped_change_is_not_recorded(
    night, vice_president
):
    event, seats = night
    s = seen(event)
    event.refresh_from_db()
    bust_record(event=event, attendance_ids=[seats["c"].pk], version=event.results_version, actor=None)
    outcomes = sync(
        event, "phone-a", [change(1, "bust", s, players=[seats["c"].pk]), change(2, "undo", s, bust=1)]
    )
    assert [o.status for o in outcomes] == ["conflict", "conflict"]
    assert outcomes[1].message == "Follows “Bust: C Player” (#1), which waits too: it is parked with it."
    night_sync.change_resolve(
        event=event, change_id=outcomes[0].change_id, choice="drop", actor=vice_president
    )
    assert NightChange.objects.get(sequence=1).status == NightChange.Status.DROPPED
    assert out_in_order(event) == [(1, "c")]


def test_another_screens_clock_change_does_not_hold_up_a_bust(night):
    event, seats = night
    s = seen(event)
    night_clock.clock_command(event=event, action="start", version=s["clock"], actor=None, now=T0)
    [outcome] = sync(event, "phone-a", [change(1, "bust", s, players=[seats["c"].pk])])
    assert outcome.status == "applied"


def test_a_move_after_the_devices_own_undo_is_not_taken_for_another_screens_change(night):
    # The undo reseats the player back in (the seating moves too): the device's next move is still its own.
    event, seats = night
    s = seen(event)
    to = empty_seat(event, 1)
    mover = next(a for k, a in seats.items() if seat_of(a)[0] == 2 and k != "c")
    outcomes = sync(
        event,
        "phone-a",
        [
            change(1, "bust", s, minute=5, players=[seats["c"].pk]),
            change(2, "undo", s, minute=6, bust=1),  # its own bust, whose hand it did not know yet
            change(3, "move", s, minute=7, player=mover.pk, to_table=1, to_seat=to),
        ],
    )
    assert [o.status for o in outcomes] == ["applied"] * 3
    assert out_in_order(event) == []
    assert seat_of(mover) == (1, to)


def test_a_move_into_a_taken_seat_is_refused_with_the_online_message(night):
    event, seats = night
    mover = next(a for a in seats.values() if seat_of(a)[0] == 2)
    sitter = next(a for a in seats.values() if seat_of(a)[0] == 1)
    table, seat = seat_of(sitter)
    [outcome] = sync(
        event, "phone-a", [change(1, "move", seen(event), player=mover.pk, to_table=table, to_seat=seat)]
    )
    assert outcome.status == "refused"
    assert outcome.message == f"Table {table} seat {seat} is taken by {sitter.player_name}."
    assert seat_of(mover)[0] == 2


def test_a_bust_of_a_player_out_already_on_the_same_device_is_refused(night):
    event, seats = night
    s = seen(event)
    outcomes = sync(
        event,
        "phone-a",
        [change(1, "bust", s, players=[seats["c"].pk]), change(2, "bust", s, players=[seats["c"].pk])],
    )
    assert [o.status for o in outcomes] == ["applied", "refused"]
    assert "out already" in outcomes[1].message


@pytest.mark.parametrize(
    "data, message",
    [
        (None, "Send"),
        ({"device": "", "changes": []}, "device id"),
        ({"device": "a b", "changes": []}, "device id"),
        ({"device": "p", "changes": {}}, "must be a list"),
        ({"device": "p", "changes": [{"action": "bust", "happened_at": MS0}]}, "sequence number"),
        ({"device": "p", "changes": [{"sequence": 1, "action": "bust"}]}, "no time"),
        ({"device": "p", "changes": [{"sequence": 1, "happened_at": "soon"}]}, "no time"),
        (
            {
                "device": "p",
                "changes": [
                    {"sequence": 1, "happened_at": MS0, "action": "undo", "hand": 1},
                    {"sequence": 1, "happened_at": MS0, "action": "undo", "hand": 1},
                ],
            },
            "appears twice",
        ),
    ],
)
def test_a_batch_that_cannot_be_read_is_refused_with_a_message(data, message):
    with pytest.raises(night_sync.SyncError, match=message):
        night_sync.changes_parse(data=data, now=T0)


@pytest.mark.parametrize(
    "fields",
    [{}, {"hand": None}, {"hand": "last"}, {"hand": True}, {"bust": "x"}, {"hand": 1, "bust": 1}],
    ids=["none", "null", "text", "true", "bust-text", "both"],
)
def test_an_undo_that_names_no_bust_is_refused_with_the_batch(fields):
    """SPEC §17.8: an undo names the bust it undoes (its hand, or the device's own bust); without one the
    batch is refused and nothing is stored."""
    with pytest.raises(night_sync.SyncError) as refused:
        night_sync.changes_parse(
            data={
                "device": "p",
                "changes": [{"sequence": 1, "happened_at": MS0, "action": "undo", **fields}],
            },
            now=T0,
        )
    assert str(refused.value) == (
        "Change #1 (undo) must name the bust it undoes: its hand, or the sequence number of this "
        "device's own bust recorded offline."
    )


def test_an_undo_of_the_devices_own_bust_undoes_that_hand_not_the_last(night):
    event, seats = night
    s = seen(event)
    outcomes = sync(
        event,
        "phone-a",
        [
            change(1, "bust", s, minute=5, players=[seats["c"].pk]),
            change(2, "bust", s, minute=6, players=[seats["d"].pk]),
            change(3, "undo", s, minute=7, bust=1),
        ],
    )
    assert [o.status for o in outcomes] == ["applied"] * 3
    assert out_in_order(event) == [(2, "d")]
    assert (
        night_sync.change_describe(change=NightChange.objects.get(sequence=3)) == "Undo the bust of change #1"
    )


def test_an_undo_of_a_bust_the_device_never_recorded_is_refused(night):
    event, seats = night
    s = seen(event)
    outcomes = sync(
        event,
        "phone-a",
        [change(1, "bust", s, players=[seats["c"].pk]), change(2, "undo", s, bust=7)],
    )
    assert [o.status for o in outcomes] == ["applied", "refused"]
    assert outcomes[1].message == "The bust this undo names (change #7 of this device) is not recorded."
    assert out_in_order(event) == [(1, "c")]


def test_a_time_in_the_future_is_taken_as_now_and_iso_times_are_read():
    _, [late, iso] = night_sync.changes_parse(
        data={
            "device": "p",
            "changes": [
                {"sequence": 1, "happened_at": MS0 + 3_600_000, "action": "undo", "hand": 1},
                {"sequence": 2, "happened_at": "2026-12-12T18:30:00Z", "action": "undo", "hand": 1},
            ],
        },
        now=T0,
    )
    assert late.happened_at == T0
    assert iso.happened_at == T0 - dt.timedelta(minutes=30)


# --- the pages --------------------------------------------------------------------------------------------


def url(event, name):
    return f"/events/{event.season.name}/{event.number}/night/{name}"


def post_json(client, path, data):
    return client.post(
        path, json.dumps(data), content_type="application/json", HTTP_ACCEPT="application/json"
    )


def test_an_officer_syncs_and_settles_a_conflict_from_the_pages(client, vice_president, night):
    event, seats = night
    client.force_login(vice_president)
    s = seen(event)
    event.refresh_from_db()
    bust_record(event=event, attendance_ids=[seats["c"].pk], version=event.results_version, actor=None)
    with time_machine.travel(T0 + dt.timedelta(hours=1), tick=False):
        answer = post_json(
            client,
            url(event, "sync/"),
            {"device": "phone-a", "changes": [change(1, "bust", s, players=[seats["c"].pk])]},
        )
    assert answer.status_code == 200
    body = answer.json()
    assert body["outcomes"][0]["status"] == "conflict" and body["open"] == 1
    assert body["versions"] == seen(event)
    listed = client.get(url(event, "conflicts/"), HTTP_ACCEPT="application/json").json()
    assert [c["what"] for c in listed["conflicts"]] == ["Bust: C Player"]
    page = client.get(url(event, "conflicts/")).content.decode()
    assert "Bust: C Player" in page and "Keep mine" in page
    pk = listed["conflicts"][0]["id"]
    with time_machine.travel(T0 + dt.timedelta(hours=1), tick=False):
        done = client.post(url(event, f"conflicts/{pk}/"), {"choice": "theirs"})
    assert done.status_code == 302
    assert out_in_order(event) == [(1, "c")]
    assert NightChange.objects.get(pk=pk).status == NightChange.Status.KEPT_THEIRS


def test_a_sync_that_is_not_json_gets_a_message_not_a_500(client, vice_president, night):
    event, _ = night
    client.force_login(vice_president)
    answer = client.post(url(event, "sync/"), "{not json", content_type="application/json")
    assert answer.status_code == 400 and answer.json()["error"].startswith("The body is not valid JSON: ")


def test_a_member_cannot_sync_nor_see_or_settle_conflicts(member_client, night):
    event, seats = night
    s = seen(event)
    answer = post_json(
        member_client,
        url(event, "sync/"),
        {"device": "m", "changes": [change(1, "bust", s, players=[seats["c"].pk])]},
    )
    assert answer.status_code == 403
    assert member_client.get(url(event, "conflicts/")).status_code == 403
    assert member_client.post(url(event, "conflicts/1/"), {"choice": "drop"}).status_code == 403
    assert out_in_order(event) == [] and not NightChange.objects.exists()


def test_the_clock_plan_holds_what_a_screen_needs_to_run_the_clock_offline(member_client, night):
    event, _ = night
    night_clock.clock_command(event=event, action="start", version=0, actor=None, now=T0)
    night_clock.clock_command(
        event=event, action="pause", version=1, actor=None, now=T0 + dt.timedelta(minutes=10)
    )
    plan = member_client.get(f"/events/{event.season.name}/{event.number}/clock/plan/").json()
    assert plan["version"] == 2
    assert plan["started_at"] == MS0
    assert plan["paused_at"] == MS0 + 10 * 60_000
    assert plan["paused_seconds"] == 0 and plan["shift_seconds"] == 0
    # The bylaws' structure: 30-minute levels from 25/50, then 50/100; chips off after level 2 (§6.3).
    assert plan["structure"][:2] == [
        {"kind": "level", "small_blind": 25, "big_blind": 50, "ante": 0, "minutes": 30, "note": ""},
        {"kind": "level", "small_blind": 50, "big_blind": 100, "ante": 0, "minutes": 30, "note": ""},
    ]
    assert plan["late_arrival_levels"] == 2
