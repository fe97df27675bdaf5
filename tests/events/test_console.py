"""The night console (issue 19): a table move is recorded with the bust it followed, undoing any bust takes
back its moves, the night's version and the optimistic checks (SPEC §4, bylaws §6.6–6.7)."""

import random

import pytest

from events.errors import ResultsError
from events.models import Attendance, Elimination, NightMove, NightSeat
from events.services import console as console_services
from events.services import night_clock, night_seating
from events.services.results import bust_undo
from ncpc.core.errors import ConcurrentChange
from ncpc.core.models import AuditEntry
from tests.events.factories import night_make
from tests.events.test_night import bust, place, seated_at, seats_version

pytestmark = pytest.mark.django_db


def six_and_six(season):
    """Two tables of six; busting k and l at table 2 leaves 6 v 4: one player moves from table 1 to table 2."""
    event, seats = night_make(season=season, players=12)
    place(
        event,
        {1: dict(zip(range(1, 7), "abcdef")), 2: {1: "g", 2: "h", 3: "i", 4: "j", 5: "k", 6: "l"}},
        seats,
        buttons={1: 1, 2: 1},
    )
    return event, seats


def apply_move(event):
    move = console_services.night_overview(event=event).next_move
    assert move is not None
    night_seating.seat_move(
        event=event,
        attendance_id=int(move.player),
        to_table=move.to_table,
        to_seat=move.to_seat,
        version=seats_version(event),
        actor=None,
    )
    return move


def results_version(event):
    event.refresh_from_db()
    return event.results_version


def hand_of(seat):
    return Elimination.objects.get(attendance=seat).hand


def test_a_balancing_move_is_recorded_with_the_bust_it_followed(season):
    event, seats = six_and_six(season)
    bust(event, seats["k"])
    bust(event, seats["l"])
    move = apply_move(event)
    recorded = NightMove.objects.get(event=event)
    assert recorded.after_hand == hand_of(seats["l"])
    assert (recorded.attendance_id, recorded.from_table, recorded.from_seat) == (
        int(move.player),
        1,
        move.from_seat,
    )
    assert (recorded.to_table, recorded.to_seat) == (2, move.to_seat)


def test_undoing_the_bust_takes_its_move_back_and_the_player_sits_where_they_sat(season):
    event, seats = six_and_six(season)
    bust(event, seats["k"])
    bust(event, seats["l"])
    before = seated_at(event)
    move = apply_move(event)
    done = bust_undo(event=event, hand=hand_of(seats["l"]), version=results_version(event), actor=None)
    after = seated_at(event)
    assert after[1] == before[1]  # the moved player is back at table 1
    assert after[2] == {**before[2], 6: str(seats["l"].pk)}  # l is back in seat 6
    assert not NightMove.objects.filter(event=event).exists()
    assert not Elimination.objects.filter(attendance=seats["l"]).exists()
    assert Elimination.objects.filter(attendance=seats["k"]).exists()
    assert any("back to table 1" in line for line in done), done
    assert int(move.player) in {int(p) for p in before[1].values()}
    assert AuditEntry.objects.filter(action="results.undo").count() == 1


def test_the_results_pages_undo_of_the_last_bust_takes_its_move_back_too(officer_client, season, today):
    """The results-entry page names its last hand; the move that followed it goes with it, so the seating is
    as before the bust and no move is left pointing at a hand that is gone."""
    event, seats = six_and_six(season)
    bust(event, seats["k"])
    bust(event, seats["l"])
    before = seated_at(event)
    apply_move(event)
    page = officer_client.get(f"/events/{season.name}/{event.number}/results/").content.decode()
    assert f'<input type="hidden" name="hand" value="{hand_of(seats["l"])}">' in page
    answer = officer_client.post(
        f"/events/{season.name}/{event.number}/results/undo/",
        {"version": results_version(event), "hand": hand_of(seats["l"])},
    )
    assert answer.status_code == 302
    after = seated_at(event)
    assert after[1] == before[1]
    assert after[2] == {**before[2], 6: str(seats["l"].pk)}
    assert not NightMove.objects.filter(event=event).exists()
    assert Elimination.objects.filter(attendance=seats["k"]).exists()


def test_any_bust_of_the_night_can_be_undone_not_only_the_last(season):
    event, seats = six_and_six(season)
    bust(event, seats["a"])
    bust(event, seats["k"])
    first = hand_of(seats["a"])
    bust_undo(event=event, hand=first, version=results_version(event), actor=None)
    assert not Elimination.objects.filter(attendance=seats["a"]).exists()
    assert Elimination.objects.filter(attendance=seats["k"]).exists()
    assert seated_at(event)[1][1] == str(seats["a"].pk)  # a's seat was free: a sits there again


def test_a_player_back_in_whose_seat_was_taken_by_a_later_move_gets_a_free_seat(season):
    event, seats = six_and_six(season)
    event.night_tables.filter(number=2).update(seat_count=6)  # table 2's only empty seats: k's and l's
    bust(event, seats["k"])  # seat 5
    bust(event, seats["l"])  # seat 6
    move = apply_move(event)
    assert (move.to_table, move.to_seat in (5, 6)) == (2, True)
    # The move followed l's bust, not k's: undoing k leaves the move, and k needs a seat nobody holds.
    bust_undo(
        event=event,
        hand=hand_of(seats["k"]),
        version=results_version(event),
        actor=None,
        rng=random.Random(1),
    )
    tables = seated_at(event)
    assert tables[2][move.to_seat] == move.player  # the moved player keeps the seat
    everyone = [p for t in tables.values() for p in t.values()]
    assert everyone.count(str(seats["k"].pk)) == 1 and len(everyone) == len(set(everyone)) == 11
    if move.to_seat == 6:  # k's own seat 5 stayed free: k sits there again
        assert tables[2][5] == str(seats["k"].pk)
    else:  # the mover took k's seat: k gets a free seat at the smallest table (5 v 5: table 1)
        assert str(seats["k"].pk) in tables[1].values()
    assert NightMove.objects.filter(event=event).count() == 1


def test_undoing_the_bust_before_the_final_table_restores_the_tables(season):
    event, seats = night_make(season=season, players=12)
    night_seating.seats_draw(event=event, version=0, actor=None, rng=random.Random(7))
    bust(event, seats["a"])
    bust(event, seats["b"])
    before = seated_at(event)
    night_seating.final_table_make(
        event=event, version=seats_version(event), actor=None, rng=random.Random(3)
    )
    assert list(seated_at(event)) == [1] and len(seated_at(event)[1]) == 10
    bust_undo(event=event, hand=hand_of(seats["b"]), version=results_version(event), actor=None)
    after = seated_at(event)
    assert set(after) == set(before)
    assert sorted(p for t in after.values() for p in t.values()) == sorted(
        [p for t in before.values() for p in t.values()] + [str(seats["b"].pk)]
    )


def test_the_same_bust_from_a_stale_page_is_refused(season):
    event, seats = six_and_six(season)
    seen = results_version(event)
    bust(event, seats["a"])
    from events.services.results import bust_record

    with pytest.raises(ConcurrentChange):
        bust_record(event=event, attendance_ids=[seats["a"].pk], version=seen, actor=None)
    assert Elimination.objects.filter(attendance=seats["a"]).count() == 1


def test_an_undo_from_a_stale_page_or_of_a_bust_undone_already_is_refused(season):
    event, seats = six_and_six(season)
    bust(event, seats["a"])
    hand = hand_of(seats["a"])
    seen = results_version(event)
    bust_undo(event=event, hand=hand, version=seen, actor=None)
    with pytest.raises(ConcurrentChange):
        bust_undo(event=event, hand=hand, version=seen, actor=None)
    with pytest.raises(ResultsError, match="not recorded"):
        bust_undo(event=event, hand=hand, version=results_version(event), actor=None)


def test_the_night_version_changes_with_every_kind_of_change(season):
    event, seats = six_and_six(season)
    versions = [console_services.night_version(event=event)]
    bust(event, seats["k"])
    versions.append(console_services.night_version(event=event))
    bust(event, seats["l"])
    apply_move(event)
    versions.append(console_services.night_version(event=event))
    night_clock.clock_command(event=event, action="start", version=0, actor=None)
    versions.append(console_services.night_version(event=event))
    assert len(set(versions)) == 4


def test_the_state_lists_busts_newest_first_with_places_and_the_move_due(season):
    event, seats = six_and_six(season)
    bust(event, seats["k"])
    bust(event, seats["l"])
    state = console_services.console_state(event=event)
    assert [b["players"][0]["name"] for b in state["busts"]] == ["L Player", "K Player"]
    assert [b["players"][0]["place"] for b in state["busts"]] == ["11th", "12th"]
    assert state["move"]["from_table"] == 1 and state["move"]["to_table"] == 2
    seat_players = {x["player"] for t in state["tables"] for x in t["seats"] if x["player"] is not None}
    assert seats["k"].pk not in seat_players and seats["a"].pk in seat_players
    assert NightSeat.objects.filter(attendance=seats["k"]).exists()  # the seat list still shows who sat there
    assert Attendance.objects.get(pk=seats["k"].pk).status == Attendance.Status.EXPECTED
