"""Tournament night on the server: the clock's stored state, the seat draw, balancing, the final table and
late arrivals (SPEC §4, bylaws §5.2, §5.8, §6.1, §6.3–6.7). Numbers come from the bylaws: 30-minute levels
starting 25/50 then 50/100, chips of absent players off at the end of level 2 (60 minutes), tables of 9,
a final table of 10."""

import datetime as dt
import random

import pytest
import time_machine

from events.errors import ExemptionUsed
from events.models import Attendance, NightSeat, NightTable, Season
from events.services import console as console_services
from events.services import night as night_services
from events.services import night_arrivals, night_clock, night_seating
from events.services.results import bust_record
from events.services.seating import Table, forbidden_seats
from ncpc.core.errors import ConcurrentChange, NcpcError
from ncpc.core.models import AuditEntry
from tests.events.factories import night_make

pytestmark = pytest.mark.django_db

T0 = dt.datetime(2026, 12, 12, 19, 0, tzinfo=dt.UTC)


def at(minutes: float) -> dt.datetime:
    return T0 + dt.timedelta(minutes=minutes)


def act(event, action):
    version = (
        night_services.night_of(event=event).clock_version if night_services.night_of(event=event) else 0
    )
    return night_clock.clock_command(event=event, action=action, version=version, actor=None)


def shown(event):
    state = night_clock.clock_payload(event=event)
    return state["level_number"], state["small_blind"], state["big_blind"], state["seconds_left"]


def seats_version(event):
    night = night_services.night_of(event=event)
    return night.seats_version if night else 0


def draw(event, seed=1, confirm=False):
    return night_seating.seats_draw(
        event=event, version=seats_version(event), actor=None, confirm_redraw=confirm, rng=random.Random(seed)
    )


def bust(event, seat):
    event.refresh_from_db()
    bust_record(event=event, attendance_ids=[seat.pk], version=event.results_version, actor=None)


def seated_at(event):
    """{table number: {seat: player key}} of the players still holding chips."""
    return {
        t.number: {s: key for s, key in t.seats.items()} for t in night_seating.calculator_tables(event=event)
    }


# --- the clock ------------------------------------------------------------------------------------------


def test_the_clock_state_lives_on_the_server_across_start_pause_resume_skip_and_back(season):
    event, _ = night_make(season=season, players=3)
    with time_machine.travel(T0, tick=False) as traveller:
        assert shown(event) == (1, 25, 50, 30 * 60)
        act(event, "start")
        traveller.move_to(at(10))
        assert shown(event) == (1, 25, 50, 20 * 60)
        act(event, "pause")
        traveller.move_to(at(25))
        assert shown(event) == (1, 25, 50, 20 * 60)  # paused: no time passes
        act(event, "resume")
        traveller.move_to(at(30))
        assert shown(event) == (1, 25, 50, 15 * 60)  # 10 min played, 15 paused, 5 more played
        act(event, "skip")
        assert shown(event) == (2, 50, 100, 30 * 60)
        traveller.move_to(at(31))
        assert shown(event) == (2, 50, 100, 29 * 60)
        act(event, "back")
        assert shown(event) == (1, 25, 50, 30 * 60)
        # A reload is just another read: nothing was counted down in the database.
        night = night_services.night_of(event=event)
        assert night.started_at == T0 and night.paused_at is None
        assert night.paused_seconds == 15 * 60
    assert [e.action for e in AuditEntry.objects.filter(action__startswith="clock.").order_by("pk")] == [
        "clock.start",
        "clock.pause",
        "clock.resume",
        "clock.skip",
        "clock.back",
    ]


def test_a_clock_command_from_a_stale_page_is_refused(season):
    event, _ = night_make(season=season, players=3)
    with time_machine.travel(T0, tick=False):
        night_clock.clock_command(event=event, action="start", version=0, actor=None)
        with pytest.raises(ConcurrentChange):
            night_clock.clock_command(event=event, action="pause", version=0, actor=None)
        night_clock.clock_command(event=event, action="pause", version=1, actor=None)
    assert night_clock.clock_payload(event=event)["paused"]


def test_pausing_a_paused_clock_or_skipping_before_the_start_is_refused(season):
    event, _ = night_make(season=season, players=3)
    with pytest.raises(NcpcError, match="not started"):
        night_clock.clock_command(event=event, action="skip", version=0, actor=None)
    act(event, "start")
    act(event, "pause")
    with pytest.raises(NcpcError, match="paused already"):
        act(event, "pause")


def test_the_clock_shows_players_left_and_the_average_stack(season):
    event, seats = night_make(season=season, players=4)
    bust(event, seats["a"])
    state = night_clock.clock_payload(event=event)
    # 4 × 10,000 chips over 3 players left
    assert (state["players_left"], state["players_started"], state["average_stack"]) == (3, 4, 13_333)


# --- the seat draw --------------------------------------------------------------------------------------


def test_the_draw_seats_everyone_expected_exactly_once_with_absent_players_spread(season):
    event, seats = night_make(season=season, players=23)
    for key in "abc":
        seats[key].status = Attendance.Status.ABSENT
        seats[key].save()
    seats["d"].status = Attendance.Status.NOT_IN_GOOD_STANDING  # cannot play: no seat
    seats["d"].save()
    draw(event)
    rows = list(NightSeat.objects.filter(table__event=event).select_related("table"))
    assert sorted(r.attendance_id for r in rows) == sorted(a.pk for k, a in seats.items() if k != "d")
    sizes = sorted(NightTable.objects.filter(event=event).values_list("number", flat=True))
    assert sizes == [1, 2, 3]  # 22 players: ceil(22 / 9) = 3 tables
    per_table = {n: [r for r in rows if r.table.number == n] for n in sizes}
    assert sorted(len(v) for v in per_table.values()) == [7, 7, 8]
    absent_ids = {seats[k].pk for k in "abc"}
    assert sorted(sum(r.attendance_id in absent_ids for r in v) for v in per_table.values()) == [1, 1, 1]
    for table_rows in per_table.values():
        numbers = [r.seat for r in table_rows]
        assert len(set(numbers)) == len(numbers) and all(1 <= n <= 10 for n in numbers)
    # Each table gets a button on one of its players' seats after the draw.
    for table in NightTable.objects.filter(event=event):
        assert table.button in {r.seat for r in per_table[table.number]}


def test_a_redraw_needs_a_confirmation_and_is_refused_once_the_clock_has_started(season):
    event, _ = night_make(season=season, players=12)
    draw(event, seed=1)
    with pytest.raises(NcpcError, match="confirm"):
        draw(event, seed=2)
    draw(event, seed=2, confirm=True)
    assert NightSeat.objects.filter(table__event=event).count() == 12
    act(event, "start")
    with pytest.raises(NcpcError, match="clock has started"):
        draw(event, seed=3, confirm=True)
    assert AuditEntry.objects.filter(action="night.redraw").count() == 1


def test_the_first_draw_still_seats_everyone_still_in_when_the_clock_was_started_first(season):
    """A hurried officer starts the clock before drawing: the draw must still be possible (else the night has
    no seats at all); whoever is out already gets no seat."""
    event, seats = night_make(season=season, players=12)
    act(event, "start")
    bust(event, seats["a"])
    draw(event, seed=4)
    seated = [p for table in seated_at(event).values() for p in table.values()]
    assert sorted(seated) == sorted(str(seats[k].pk) for k in "bcdefghijkl")
    with pytest.raises(NcpcError, match="clock has started"):
        draw(event, seed=5, confirm=True)


def test_a_draw_from_a_stale_page_is_refused(season):
    event, _ = night_make(season=season, players=5)
    draw(event)
    with pytest.raises(ConcurrentChange):
        night_seating.seats_draw(event=event, version=0, actor=None, confirm_redraw=True)


def test_a_player_set_to_play_after_the_draw_gets_a_seat_at_the_smallest_table_outside_the_gap(season):
    event, seats = night_make(season=season, players=12)
    seats["l"].status = Attendance.Status.NOT_IN_GOOD_STANDING
    seats["l"].save()
    draw(event, seed=5)
    act(event, "start")
    seats["l"].status = Attendance.Status.EXPECTED  # paid at the door
    seats["l"].save()
    overview = console_services.night_overview(event=event)
    assert [a.pk for a in overview.unseated] == [seats["l"].pk]
    smallest = min(night_seating.calculator_tables(event=event), key=lambda t: (t.size, t.number))
    gap = forbidden_seats(smallest)
    seat = night_seating.seat_add(
        event=event,
        attendance_id=seats["l"].pk,
        version=seats_version(event),
        actor=None,
        rng=random.Random(1),
    )
    assert seat.table.number == smallest.number
    assert seat.seat not in smallest.seats and seat.seat not in gap
    assert console_services.night_overview(event=event).unseated == []
    with pytest.raises(NcpcError, match="has a seat already"):
        night_seating.seat_add(
            event=event, attendance_id=seats["l"].pk, version=seats_version(event), actor=None
        )


# --- balancing and the final table ----------------------------------------------------------------------


def place(event, layout: dict[int, dict[int, str]], seats, buttons: dict[int, int]):
    """Put players at tables by hand: {table: {seat: player key}}."""
    NightTable.objects.filter(event=event).delete()
    from events.models import Night

    Night.objects.get_or_create(event=event, defaults={"seed": "fixed-seed-for-tests"})
    for number, chairs in layout.items():
        table = NightTable.objects.create(event=event, number=number, seat_count=10, button=buttons[number])
        for seat, key in chairs.items():
            NightSeat.objects.create(table=table, attendance=seats[key], seat=seat)


def test_busts_leaving_tables_two_apart_move_a_player_from_the_largest_never_into_the_gap(season):
    event, seats = night_make(season=season, players=12)
    # Table 1 has 6 players; table 2 has 4 (two are out). Table 2's button is at seat 4, so its empty
    # seats 5 and 6 (before the small blind at seat 7) are the gap; 1, 2, 3 are allowed... but 1-3 are taken.
    place(
        event,
        {1: dict(zip(range(1, 7), "abcdef")), 2: {4: "g", 7: "h", 8: "i", 9: "j", 10: "k", 3: "l"}},
        seats,
        buttons={1: 1, 2: 4},
    )
    bust(event, seats["j"])
    bust(event, seats["k"])
    overview = console_services.night_overview(event=event)
    assert overview.needs_balancing and overview.next_move is not None
    move = overview.next_move
    assert (move.from_table, move.to_table) == (1, 2)
    gap = forbidden_seats(Table(2, {4: "g", 7: "h", 8: "i", 3: "l"}, button=4, seat_count=10))
    assert gap == {5, 6}
    assert move.to_seat not in gap and move.to_seat in {1, 2, 9, 10}
    night_seating.seat_move(
        event=event,
        attendance_id=int(move.player),
        to_table=move.to_table,
        to_seat=move.to_seat,
        version=seats_version(event),
        actor=None,
    )
    after = seated_at(event)
    assert len(after[1]) == 5 and len(after[2]) == 5
    assert after[2][move.to_seat] == move.player
    assert not console_services.night_overview(event=event).needs_balancing
    assert AuditEntry.objects.filter(action="night.move").count() == 1


def test_a_move_other_than_the_one_drawn_is_refused(season):
    event, seats = night_make(season=season, players=12)
    place(
        event,
        {1: dict(zip(range(1, 7), "abcdef")), 2: {1: "g", 2: "h", 3: "i", 4: "j", 5: "k", 6: "l"}},
        seats,
        buttons={1: 1, 2: 1},
    )
    bust(event, seats["k"])
    bust(event, seats["l"])
    move = console_services.night_overview(event=event).next_move
    other = next(s for s in (7, 8, 9, 10) if s != move.to_seat)
    with pytest.raises(ConcurrentChange):
        night_seating.seat_move(
            event=event,
            attendance_id=int(move.player),
            to_table=2,
            to_seat=other,
            version=seats_version(event),
            actor=None,
        )


def test_when_every_empty_seat_is_between_the_button_and_the_small_blind_the_page_says_wait(season):
    event, seats = night_make(season=season, players=12)
    # Table 2: players at 1-4 (two more out at 5 and 6 later); button at 4, so 5-10 lie before the SB at 1.
    place(
        event,
        {1: dict(zip(range(1, 7), "abcdef")), 2: {1: "g", 2: "h", 3: "i", 4: "j", 5: "k", 6: "l"}},
        seats,
        buttons={1: 1, 2: 4},
    )
    bust(event, seats["k"])
    bust(event, seats["l"])
    overview = console_services.night_overview(event=event)
    assert overview.needs_balancing and overview.wait_for_button and overview.next_move is None
    with pytest.raises(NcpcError, match="no move now"):
        night_seating.seat_move(
            event=event,
            attendance_id=seats["a"].pk,
            to_table=2,
            to_seat=5,
            version=seats_version(event),
            actor=None,
        )
    night_seating.button_set(event=event, table_number=2, seat=1, version=seats_version(event), actor=None)
    assert console_services.night_overview(event=event).next_move is not None


def test_the_final_table_of_ten_is_proposed_when_ten_are_left_with_a_fresh_draw(season):
    event, seats = night_make(season=season, players=12)
    draw(event, seed=7)
    first_out = seats["a"]
    bust(event, first_out)
    assert not console_services.night_overview(event=event).final_table_due  # 11 left
    with pytest.raises(NcpcError, match="final table"):
        night_seating.final_table_make(event=event, version=seats_version(event), actor=None)
    bust(event, seats["b"])
    assert console_services.night_overview(event=event).final_table_due  # 10 left at 2 tables
    table = night_seating.final_table_make(
        event=event, version=seats_version(event), actor=None, rng=random.Random(3)
    )
    assert table.final and table.seat_count == 10
    rows = list(NightSeat.objects.filter(table__event=event))
    assert sorted(r.seat for r in rows) == list(range(1, 11))
    assert sorted(r.attendance_id for r in rows) == sorted(a.pk for k, a in seats.items() if k not in "ab")
    assert table.button in {r.seat for r in rows}
    assert not console_services.night_overview(event=event).final_table_due


# --- late arrivals --------------------------------------------------------------------------------------


def test_absent_players_are_prompted_off_at_the_end_of_level_two_unless_they_use_their_exemption(season):
    event, seats = night_make(season=season, players=5)
    for key in "ab":
        seats[key].status = Attendance.Status.ABSENT
        seats[key].save()
    with time_machine.travel(T0, tick=False) as traveller:
        act(event, "start")
        traveller.move_to(at(59))
        state = night_clock.clock_payload(event=event)
        assert state["absent"] == ["A Player", "B Player"] and not state["late_arrival_due"]
        event.refresh_from_db()
        with pytest.raises(NcpcError, match="end of level 2"):
            night_arrivals.late_arrival_settle(
                event=event,
                attendance_id=seats["a"].pk,
                use_exemption=False,
                version=event.results_version,
                actor=None,
            )
        traveller.move_to(at(60))
        assert night_clock.clock_payload(event=event)["late_arrival_due"]
        event.refresh_from_db()
        night_arrivals.late_arrival_settle(
            event=event,
            attendance_id=seats["a"].pk,
            use_exemption=True,
            version=event.results_version,
            actor=None,
        )
        event.refresh_from_db()
        night_arrivals.late_arrival_settle(
            event=event,
            attendance_id=seats["b"].pk,
            use_exemption=False,
            version=event.results_version,
            actor=None,
        )
        state = night_clock.clock_payload(event=event)
    assert state["absent"] == [] and not state["late_arrival_due"]
    statuses = dict(Attendance.objects.filter(event=event).values_list("membership__person__key", "status"))
    assert statuses["a"] == Attendance.Status.CALLED_IN
    assert statuses["b"] == Attendance.Status.CHIPS_REMOVED
    # Chips removed: not among the starters any more. A called in but has not arrived (SPEC §15.5): A's chips
    # are on the table, but A is not a player left: 4 × 10,000 over 3 players.
    assert (state["players_started"], state["average_stack"]) == (4, 13_333)


def test_the_exemption_is_once_a_season(season):
    event, seats = night_make(season=season, number=4, players=3)
    seats["a"].status = Attendance.Status.CALLED_IN
    seats["a"].save()
    later = season.events.get(number=5)
    from events.services.attendance import attendance_prepare

    attendance_prepare(event=later)
    row = later.attendances.get(membership__person__key="a")
    row.status = Attendance.Status.ABSENT
    row.save()
    later.refresh_from_db()
    with pytest.raises(ExemptionUsed):
        night_arrivals.late_arrival_settle(
            event=later, attendance_id=row.pk, use_exemption=True, version=later.results_version, actor=None
        )


def test_removing_all_absent_chips_at_once(season):
    event, seats = night_make(season=season, players=5)
    for key in "abc":
        seats[key].status = Attendance.Status.ABSENT
        seats[key].save()
    with time_machine.travel(at(61), tick=False):
        from events.models import Night

        Night.objects.create(event=event, started_at=T0)
        event.refresh_from_db()
        assert (
            night_arrivals.late_arrivals_remove_all(event=event, version=event.results_version, actor=None)
            == 3
        )
    assert event.attendances.filter(status=Attendance.Status.CHIPS_REMOVED).count() == 3


def test_the_draw_seats_tables_of_the_seasons_size(season):
    Season.objects.filter(pk=season.pk).update(table_size=6, final_table_size=6)
    season.refresh_from_db()
    event, seats = night_make(season=season, players=14)
    draw(event)
    tables = list(NightTable.objects.filter(event=event))
    assert len(tables) == 3  # ceil(14 / 6)
    assert {t.seat_count for t in tables} == {6}
    rows = NightSeat.objects.filter(table__event=event)
    assert rows.count() == 14 and all(1 <= r.seat <= 6 for r in rows)
    assert all(len(t.seats) <= 6 for t in night_seating.calculator_tables(event=event))


# --- late arrival, second review (SPEC §15.5) -------------------------------------------------------------


def _set(event, seat, status, **kwargs):
    from events.services.attendance import attendance_set

    event.refresh_from_db()
    return attendance_set(
        event=event, attendance_id=seat.pk, status=status, version=event.results_version, actor=None, **kwargs
    )


def _settle(event, seat, *, exempt, **kwargs):
    event.refresh_from_db()
    return night_arrivals.late_arrival_settle(
        event=event,
        attendance_id=seat.pk,
        use_exemption=exempt,
        version=event.results_version,
        actor=None,
        **kwargs,
    )


def test_spec_15_5_the_call_in_time_is_recorded_and_must_fall_within_the_first_hour(season):
    event, seats = night_make(season=season, players=4)
    for key in "ab":
        seats[key].status = Attendance.Status.ABSENT
        seats[key].save()
    with time_machine.travel(T0, tick=False) as traveller:
        act(event, "start")
        traveller.move_to(at(75))
        # A's call came at 19:40 (40 minutes into play) and is recorded late: it counts.
        row = _settle(event, seats["a"], exempt=True, called_at=at(40))
        assert (row.status, row.called_in_at) == (Attendance.Status.CALLED_IN, at(40))
        # B's call came at 20:05, after the end of level 2 (the first hour): no exemption.
        with pytest.raises(NcpcError, match="within the first hour"):
            _settle(event, seats["b"], exempt=True, called_at=at(65))
    seats["b"].refresh_from_db()
    assert seats["b"].status == Attendance.Status.ABSENT and seats["b"].called_in_at is None


def test_spec_15_5_a_member_who_called_in_joins_during_the_second_hour_and_plays(season):
    event, seats = night_make(season=season, players=4)
    seats["a"].status = Attendance.Status.ABSENT
    seats["a"].save()
    with time_machine.travel(T0, tick=False) as traveller:
        act(event, "start")
        traveller.move_to(at(30))
        _settle(event, seats["a"], exempt=True)
        # Called in is not arrived: A cannot be entered as out.
        with pytest.raises(NcpcError, match="not playing tonight"):
            bust(event, seats["a"])
        traveller.move_to(at(100))
        row = _set(event, seats["a"], "expected")
        assert row.status == Attendance.Status.EXPECTED and row.arrived_at == at(100)
        assert AuditEntry.objects.filter(action="attendance.set", summary__contains="(arrived)").exists()
        # Having arrived, A still used the exemption of the season.
        later = season.events.get(number=5)
        from events.selectors import exemption_used_at

        assert exemption_used_at(membership=seats["a"].membership, exclude_event=later) == event
        for key in "dcb":
            bust(event, seats[key])
        event.refresh_from_db()
        from events.services.results import results_finish

        results_finish(event=event, version=event.results_version, actor=None)
    seats["a"].refresh_from_db()
    assert seats["a"].place == 1


def test_spec_15_5_not_seated_by_the_end_of_the_second_hour_the_chips_come_off(season):
    event, seats = night_make(season=season, players=4)
    seats["a"].status = Attendance.Status.ABSENT
    seats["a"].save()
    with time_machine.travel(T0, tick=False) as traveller:
        act(event, "start")
        traveller.move_to(at(20))
        _settle(event, seats["a"], exempt=True)
        traveller.move_to(at(90))
        with pytest.raises(NcpcError, match="until the end of the second hour"):
            _settle(event, seats["a"], exempt=False)
        traveller.move_to(at(120))
        with pytest.raises(NcpcError, match="second hour of play is over"):
            _set(event, seats["a"], "expected")
        row = _settle(event, seats["a"], exempt=False)
    assert row.status == Attendance.Status.CHIPS_REMOVED


def test_spec_15_5_a_member_who_called_in_and_never_came_has_no_place_at_the_finish(season):
    from events.services.results import results_finish

    event, seats = night_make(season=season, players=4)
    _set(event, seats["a"], "called_in")
    for key in "dc":
        bust(event, seats[key])
    event.refresh_from_db()
    results_finish(event=event, version=event.results_version, actor=None)
    rows = {a.membership.person.key: a for a in event.attendances.select_related("membership__person")}
    assert rows["a"].status == Attendance.Status.CHIPS_REMOVED and rows["a"].place is None
    assert (rows["b"].place, rows["c"].place, rows["d"].place) == (1, 2, 3)


def test_spec_15_5_an_absent_member_arriving_after_the_first_hour_is_refused(season):
    event, seats = night_make(season=season, players=4)
    seats["a"].status = Attendance.Status.ABSENT
    seats["a"].save()
    with time_machine.travel(T0, tick=False) as traveller:
        act(event, "start")
        traveller.move_to(at(45))
        assert _set(event, seats["a"], "expected").arrived_at == at(45)
        seats["b"].status = Attendance.Status.ABSENT
        seats["b"].save()
        traveller.move_to(at(61))
        with pytest.raises(NcpcError, match="after the end of level 2"):
            _set(event, seats["b"], "expected")


def test_spec_15_5_the_night_page_offers_arrived_and_records_it(client, vice_president, season, today):
    event, seats = night_make(season=season, players=4)
    _set(event, seats["a"], "called_in")
    client.force_login(vice_president)
    page = client.get(f"/events/{season.name}/4/night/").content.decode()
    assert "Arrived" in page and "called in at" in page
    event.refresh_from_db()
    response = client.post(
        f"/events/{season.name}/4/night/arrived/",
        {"version": event.results_version, "attendance": seats["a"].pk},
        follow=True,
    )
    assert "A Player arrived and plays." in response.content.decode()
    seats["a"].refresh_from_db()
    assert seats["a"].status == Attendance.Status.EXPECTED
