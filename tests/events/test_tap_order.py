"""The night's order is the order of the taps (SPEC §17.8, issue 46): places follow the time each bust was tapped,
whatever order the phones reconnect in; §6.5 still decides one hand (chips at its start). A bust synced late
re-orders the places while the night is not final (the move due is worked out again from the tables, a move
already made stays with the bust it followed); once final it is parked for the officers. A phone's clock that is
minutes wrong is corrected by the time between its tap and its sending.

Run on both databases: ``DATABASE_URL=postgres://… pytest tests/events/test_tap_order.py``."""

import datetime as dt
from zoneinfo import ZoneInfo

import pytest
import time_machine

from events import selectors
from events.models import Attendance, Elimination, Event, NightChange, NightMove
from events.services import console as console_services
from events.services import night_actions, night_sync
from events.services.places import Bust, bust_places, tapped_after
from events.services.results import bust_record, bust_undo, results_finish, results_reopen
from ncpc.core.models import AuditEntry
from tests.events.factories import night_make
from tests.events.test_night import place

CLUB = ZoneInfo("America/New_York")  # the settings' time zone: the club time messages are written in
T0 = dt.datetime(2026, 12, 12, 20, 0, tzinfo=CLUB)  # the night starts at 8 pm
HAL_TAP = T0 + dt.timedelta(minutes=40, seconds=37)  # phone B taps Hal out
MAX_TAP = T0 + dt.timedelta(minutes=40, seconds=40)  # phone A taps Max out, 3 seconds later


def ms(moment: dt.datetime) -> int:
    return int(moment.timestamp() * 1000)


# ---------------------------------------------------------------------------------------------------------
# The calculator


def test_hands_are_placed_in_the_order_of_their_taps_whatever_order_they_were_recorded_in():
    # Max's bust reached the server first (hand 1), Hal's, tapped 3 seconds earlier, second (hand 2).
    busts = [Bust("max", 1, tapped_at=MAX_TAP), Bust("hal", 2, tapped_at=HAL_TAP)]
    places = bust_places(entrants=["ann", "bob", "hal", "max"], busts=busts)
    assert [(p.place, p.player) for p in places] == [(3, "max"), (4, "hal")]
    assert tapped_after(busts=busts, hand=2) == ["max"]
    assert tapped_after(busts=busts, hand=1) == []


def test_busts_tapped_at_the_same_moment_are_placed_by_hand_and_one_hand_by_its_chips():
    busts = [
        Bust("eve", 2, start_chips=4000, tapped_at=HAL_TAP),
        Bust("dan", 2, start_chips=9000, tapped_at=HAL_TAP),
        Bust("cat", 1, tapped_at=HAL_TAP),
    ]
    places = bust_places(entrants=["ann", "bob", "cat", "dan", "eve"], busts=busts)
    # Same moment: hand 1 went out first (5th); on hand 2 the bigger stack at its start is placed better.
    assert [(p.place, p.player) for p in places] == [(3, "dan"), (4, "eve"), (5, "cat")]


# ---------------------------------------------------------------------------------------------------------
# The device's clock


@pytest.mark.parametrize(
    ("happened_at", "device_at", "sent_at", "expected"),
    [
        # The phone's clock is 5 minutes fast: the tap was 1 min 23 s before the batch arrived at 20:42:00.
        (HAL_TAP + dt.timedelta(minutes=5), ms(HAL_TAP) + 300_000, ms(T0) + 42 * 60_000 + 300_000, HAL_TAP),
        # 7 minutes slow: the same.
        (HAL_TAP - dt.timedelta(minutes=7), ms(HAL_TAP) - 420_000, ms(T0) + 42 * 60_000 - 420_000, HAL_TAP),
        # No clock at sending (a queue kept from before): the device's own reckoning of the server's time.
        (MAX_TAP, ms(HAL_TAP), None, MAX_TAP),
        # The clock went back between the tap and the sending: the difference means nothing.
        (MAX_TAP, ms(HAL_TAP), ms(HAL_TAP) - 1000, MAX_TAP),
        # More than a day between them: not measured either.
        (MAX_TAP, ms(HAL_TAP) - 25 * 3600_000, ms(HAL_TAP), MAX_TAP),
        # Never later than the batch's arrival.
        (T0 + dt.timedelta(hours=2), None, None, T0 + dt.timedelta(minutes=42)),
    ],
)
def test_a_tap_is_timed_by_the_devices_clock_between_the_tap_and_the_sending(
    happened_at, device_at, sent_at, expected
):
    now = T0 + dt.timedelta(minutes=42)
    assert (
        night_sync.tap_time(happened_at=happened_at, device_at=device_at, sent_at=sent_at, now=now)
        == expected
    )


@pytest.mark.parametrize("sent_at", ["20:42", True, [1], 2.0**60])
def test_a_batch_whose_sending_time_cannot_be_read_is_refused_whole(sent_at):
    data = {"device": "phone-b", "sent_at": sent_at, "changes": []}
    with pytest.raises(night_sync.SyncError, match=r"The batch's sending time \(sent_at\) must be"):
        night_sync.changes_parse(data=data, now=T0)


# ---------------------------------------------------------------------------------------------------------
# Two phones offline (the defect of issue 46)


@pytest.fixture
def night(season):
    """Event 4, 14 players: a-g at table 1 and h-n at table 2 (seats 1-7 of 10), buttons at seat 1; "H Player"
    is Hal and "M Player" is Max, both at table 2. Today is the night."""
    with time_machine.travel(T0, tick=False):
        event, seats = night_make(season=season, players=14)
        place(
            event,
            {1: dict(zip(range(1, 8), "abcdefg")), 2: dict(zip(range(1, 8), "hijklmn"))},
            seats,
            buttons={1: 1, 2: 1},
        )
        yield event, seats


def versions(event):
    return night_sync.night_versions(event=event)


def bust_change(sequence, seen, tapped: dt.datetime, *players, **more):
    return {
        "sequence": sequence,
        "action": "bust",
        "happened_at": ms(tapped),
        "seen": seen,
        "players": [p.pk for p in players],
        **more,
    }


def sync(event, device, changes, *, at: dt.datetime, sent_at: int | None = None):
    """The batch arrives at ``at`` (the server's clock)."""
    data = {"device": device, "changes": changes, **({"sent_at": sent_at} if sent_at is not None else {})}
    with time_machine.travel(at, tick=False):
        return night_sync.batch_sync(event=event, data=data, actor=None)


def places(event):
    """Player key → place of the players out so far, from the night's busts as stored."""
    entrants = [a.pk for a in Attendance.objects.filter(event=event, status__in=Attendance.PLAYING)]
    keys = dict(Attendance.objects.filter(event=event).values_list("pk", "membership__person__key"))
    return {
        keys[p.player]: p.place
        for p in bust_places(entrants=entrants, busts=selectors.event_busts(event=event))
    }


@pytest.mark.django_db
def test_a_bust_synced_late_takes_the_worse_place_and_the_later_bust_moves_up(night):
    event, seats = night
    s = versions(event)  # both phones go offline having seen this
    [first] = sync(
        event, "phone-a", [bust_change(1, s, MAX_TAP, seats["m"])], at=T0 + dt.timedelta(minutes=45)
    )
    assert (first.status, first.message) == ("applied", "Out: M Player.")
    assert places(event) == {"m": 14}

    [late] = sync(
        event, "phone-b", [bust_change(1, s, HAL_TAP, seats["h"])], at=T0 + dt.timedelta(minutes=46)
    )
    assert late.status == "applied"
    assert late.message == (
        "Out: H Player. Tapped at 20:40:37, before busts recorded earlier (the places follow the taps): "
        "M Player (now 13th) moves up."
    )
    assert places(event) == {"h": 14, "m": 13}
    assert list(
        Elimination.objects.filter(event=event).values_list("attendance__membership__person__key", "hand")
    ) == [("h", 2), ("m", 1)]
    assert Elimination.objects.get(attendance=seats["h"]).tapped_at == HAL_TAP
    assert Elimination.objects.get(attendance=seats["m"]).tapped_at == MAX_TAP
    audit = AuditEntry.objects.filter(action="results.bust").order_by("-pk").first()
    assert audit.summary == (
        "Out: H Player 14th (tapped at 20:40:37, before busts recorded earlier; moved up: M Player (now 13th))"
    )
    assert audit.data["moved_up"] == ["M Player (now 13th)"]

    # The console lists the busts newest tap first, each with its tap time and its places.
    state = console_services.console_state(event=event, now=T0 + dt.timedelta(minutes=46))
    assert [
        (b["hand"], b["tapped_at"], [(p["name"], p["place"]) for p in b["players"]]) for b in state["busts"]
    ] == [
        (1, "20:40:40", [("M Player", "13th")]),
        (2, "20:40:37", [("H Player", "14th")]),
    ]


@pytest.mark.django_db
def test_the_final_places_follow_the_taps(season):
    with time_machine.travel(T0, tick=False):
        event, seats = night_make(season=season, players=4)
    s = versions(event)
    sync(event, "phone-a", [bust_change(1, s, MAX_TAP, seats["d"])], at=T0 + dt.timedelta(minutes=45))
    sync(event, "phone-b", [bust_change(1, s, HAL_TAP, seats["c"])], at=T0 + dt.timedelta(minutes=46))
    with time_machine.travel(T0 + dt.timedelta(minutes=50), tick=False):
        event.refresh_from_db()
        bust_record(event=event, attendance_ids=[seats["b"].pk], version=event.results_version, actor=None)
        event.refresh_from_db()
        results_finish(event=event, version=event.results_version, actor=None)
    assert dict(Attendance.objects.filter(event=event).values_list("membership__person__key", "place")) == {
        "a": 1,
        "b": 2,
        "d": 3,
        "c": 4,
    }


@pytest.mark.django_db
def test_a_bust_tapped_online_is_timed_by_the_server_and_placed_after_earlier_taps(night):
    event, seats = night
    s = versions(event)
    online = T0 + dt.timedelta(minutes=44)
    with time_machine.travel(online, tick=False):
        night_actions.perform(
            "bust", event=event, actor=None, payload={"player": str(seats["a"].pk)}, versions=versions(event)
        )
    assert Elimination.objects.get(attendance=seats["a"]).tapped_at == online
    # A phone's bust tapped at 20:40:37 that reaches the server after it is placed before it.
    sync(event, "phone-b", [bust_change(1, s, HAL_TAP, seats["h"])], at=T0 + dt.timedelta(minutes=46))
    assert places(event) == {"h": 14, "a": 13}
    # An online bust never moves anyone up: its tap is now, after every bust recorded.
    with time_machine.travel(T0 + dt.timedelta(minutes=47), tick=False):
        done = night_actions.perform(
            "bust", event=event, actor=None, payload={"player": str(seats["b"].pk)}, versions=versions(event)
        )
    assert done.message == "Out: B Player."
    assert places(event) == {"h": 14, "a": 13, "b": 12}


@pytest.mark.django_db
def test_a_phone_whose_clock_is_minutes_fast_is_placed_where_it_tapped(night):
    event, seats = night
    s = versions(event)
    fast = dt.timedelta(minutes=5)
    sync(event, "phone-a", [bust_change(1, s, MAX_TAP, seats["m"])], at=T0 + dt.timedelta(minutes=45))
    # Phone B's clock is 5 minutes fast and it never heard the server's time: its own reading of the tap is
    # 20:45:37, after Max's. It sends at 20:51:00 by its clock, 20:46:00 by the server's.
    arrival = T0 + dt.timedelta(minutes=46)
    [late] = sync(
        event,
        "phone-b",
        [bust_change(1, s, HAL_TAP + fast, seats["h"], device_at=ms(HAL_TAP + fast))],
        at=arrival,
        sent_at=ms(arrival + fast),
    )
    assert late.status == "applied"
    assert Elimination.objects.get(attendance=seats["h"]).tapped_at == HAL_TAP
    assert NightChange.objects.get(device="phone-b").happened_at == HAL_TAP
    assert places(event) == {"h": 14, "m": 13}


@pytest.mark.django_db
def test_the_move_due_after_a_late_bust_is_worked_out_again_and_a_move_made_stays_with_its_bust(night):
    event, seats = night
    s = versions(event)
    sync(event, "phone-a", [bust_change(1, s, MAX_TAP, seats["m"])], at=T0 + dt.timedelta(minutes=45))
    # Tables of 7 and 6: in balance.
    assert console_services.night_overview(event=event).next_move is None

    sync(event, "phone-b", [bust_change(1, s, HAL_TAP, seats["h"])], at=T0 + dt.timedelta(minutes=46))
    # Hal's bust, placed before Max's, leaves tables of 7 and 5: a player of table 1 moves to table 2.
    move = console_services.night_overview(event=event).next_move
    assert move is not None and (move.from_table, move.to_table) == (1, 2)

    with time_machine.travel(T0 + dt.timedelta(minutes=47), tick=False):
        night_actions.perform(
            "move",
            event=event,
            actor=None,
            payload={"player": move.player, "to_table": move.to_table, "to_seat": move.to_seat},
            versions=versions(event),
        )
    # The move follows the bust the server had just recorded when it was made: Hal's (hand 2), though it is
    # not the newest tap. Its undo takes the move back; the places of the others follow the taps again.
    made = NightMove.objects.get(event=event)
    assert made.after_hand == 2
    state = console_services.console_state(event=event, now=T0 + dt.timedelta(minutes=47))
    assert [(b["hand"], b["moves"]) for b in state["busts"]] == [(1, False), (2, True)]

    event.refresh_from_db()
    with time_machine.travel(T0 + dt.timedelta(minutes=48), tick=False):
        done = bust_undo(event=event, hand=2, version=event.results_version, actor=None)
    assert not NightMove.objects.filter(event=event).exists()
    assert any(line.startswith("H Player back in") for line in done)
    assert places(event) == {"m": 14}


@pytest.mark.django_db
def test_a_bust_synced_after_the_final_is_parked_for_the_officers(season):
    with time_machine.travel(T0, tick=False):
        event, seats = night_make(season=season, players=4)
    s = versions(event)
    # Online: D out at 20:50, C at 20:55, B at 21:00; the results are made final at 21:01.
    for minutes, key in ((50, "d"), (55, "c"), (60, "b")):
        with time_machine.travel(T0 + dt.timedelta(minutes=minutes), tick=False):
            event.refresh_from_db()
            bust_record(
                event=event, attendance_ids=[seats[key].pk], version=event.results_version, actor=None
            )
    with time_machine.travel(T0 + dt.timedelta(minutes=61), tick=False):
        event.refresh_from_db()
        results_finish(event=event, version=event.results_version, actor=None)
    final_places = {"a": 1, "b": 2, "c": 3, "d": 4}

    def final():
        return dict(Attendance.objects.filter(event=event).values_list("membership__person__key", "place"))

    assert final() == final_places
    # A phone that lost the Wi-Fi at 20:30 comes back at 21:10: it had tapped C out at 20:40:37.
    [parked] = sync(
        event, "phone-b", [bust_change(1, s, HAL_TAP, seats["c"])], at=T0 + dt.timedelta(minutes=70)
    )
    assert parked.status == "conflict"
    assert parked.message == (
        "This bust was tapped at 20:40:37 but reached the server after the results of event 4 were made "
        "final, so the final places stay as they are. To count it, reopen the results for a correction, "
        "then keep it; otherwise drop it."
    )
    event.refresh_from_db()
    assert event.status == Event.Status.FINAL
    assert final() == final_places
    assert NightChange.objects.get(device="phone-b").status == NightChange.Status.CONFLICT

    # The officers reopen the results, undo the bust recorded for C at 20:55 and keep the phone's: C is placed
    # at 20:40:37, before D, and the results are final again.
    with time_machine.travel(T0 + dt.timedelta(minutes=75), tick=False):
        event.refresh_from_db()
        results_reopen(event=event, version=event.results_version, actor=None, reason="C went out at 20:40")
        event.refresh_from_db()
        bust_undo(event=event, hand=2, version=event.results_version, actor=None)
        row = night_sync.change_resolve(event=event, change_id=parked.change_id, choice="mine", actor=None)
        assert row.status == NightChange.Status.KEPT_MINE
        assert Elimination.objects.get(attendance=seats["c"]).tapped_at == HAL_TAP
        event.refresh_from_db()
        results_finish(event=event, version=event.results_version, actor=None)
    assert final() == {"a": 1, "b": 2, "d": 3, "c": 4}


@pytest.mark.django_db
def test_an_undo_synced_after_the_final_is_parked_too(season):
    with time_machine.travel(T0, tick=False):
        event, seats = night_make(season=season, players=3)
    for minutes, key in ((50, "c"), (60, "b")):
        with time_machine.travel(T0 + dt.timedelta(minutes=minutes), tick=False):
            event.refresh_from_db()
            bust_record(
                event=event, attendance_ids=[seats[key].pk], version=event.results_version, actor=None
            )
    s = versions(event)
    with time_machine.travel(T0 + dt.timedelta(minutes=61), tick=False):
        event.refresh_from_db()
        results_finish(event=event, version=event.results_version, actor=None)
    tapped = T0 + dt.timedelta(minutes=60, seconds=30)
    undo = {"sequence": 1, "action": "undo", "hand": 2, "happened_at": ms(tapped), "seen": s}
    [parked] = sync(event, "phone-b", [undo], at=T0 + dt.timedelta(minutes=70))
    assert parked.status == "conflict"
    assert parked.message.startswith(
        "This undo was tapped at 21:00:30 but reached the server after the results"
    )
    assert Elimination.objects.filter(event=event).count() == 2
