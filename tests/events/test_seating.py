import random
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from events.services.seating import (
    Table,
    balance_moves,
    final_table_draw,
    final_table_due,
    forbidden_seats,
    needs_balancing,
    seat_draw,
    table_sizes,
)


@pytest.mark.parametrize(
    ("players", "sizes"),
    [(8, [8]), (10, [10]), (11, [6, 5]), (16, [8, 8]), (18, [9, 9]), (19, [7, 6, 6]), (20, [7, 7, 6])],
)
def test_up_to_ten_sit_at_one_table_and_more_split_over_ceil_n_over_nine(players, sizes):
    assert table_sizes(players=players, table_size=9, final_table_size=10) == sizes


@given(
    present=st.integers(min_value=0, max_value=20),
    absent=st.integers(min_value=0, max_value=20),
    seed=st.integers(min_value=0, max_value=2**32),
)
def test_every_draw_seats_everyone_exactly_once_with_tables_within_one(present, absent, seed):
    absent = min(absent, 20 - present)
    here = [f"p{i}" for i in range(present)]
    away = [f"a{i}" for i in range(absent)]
    seats = seat_draw(present=here, absent=away, table_size=9, final_table_size=10, rng=random.Random(seed))
    assert sorted(s.player for s in seats) == sorted(here + away)
    assert len({(s.table, s.seat) for s in seats}) == len(seats)
    sizes = Counter(s.table for s in seats)
    if seats:
        assert max(sizes.values()) - min(sizes.values()) <= 1
        absent_per_table = Counter(s.table for s in seats if s.player in set(away))
        counts = [absent_per_table.get(t, 0) for t in sizes]
        assert max(counts) - min(counts) <= 1


def test_the_small_blind_and_button_gap_is_forbidden():
    # Button on seat 2; seats 3 and 4 empty; small blind on seat 5.
    table = Table(1, {1: "a", 2: "b", 5: "c", 6: "d"}, button=2, seat_count=10)
    assert forbidden_seats(table) == {3, 4}


tables_strategy = st.lists(
    st.tuples(
        st.sets(st.integers(min_value=1, max_value=10), min_size=1, max_size=10),
        st.integers(min_value=1, max_value=10),
    ),
    min_size=2,
    max_size=3,
)


@given(tables=tables_strategy, seed=st.integers(min_value=0, max_value=2**32))
def test_balancing_never_seats_a_player_between_the_small_blind_and_the_button(tables, seed):
    counter = iter(range(1000))
    built = [
        Table(i + 1, {s: f"t{i}p{next(counter)}" for s in occupied}, button=button, seat_count=10)
        for i, (occupied, button) in enumerate(tables)
    ]
    moves = balance_moves(tables=built, rng=random.Random(seed))
    live = {t.number: Table(t.number, dict(t.seats), t.button, seat_count=t.seat_count) for t in built}
    for move in moves:
        target = live[move.to_table]
        assert move.to_seat not in target.seats
        assert move.to_seat not in forbidden_seats(target)
        assert live[move.from_table].seats.pop(move.from_seat) == move.player
        target.seats[move.to_seat] = move.player
    # The originals are untouched.
    assert [t.size for t in built] == [len(occ) for occ, _b in tables]


def test_a_table_two_short_gets_one_player_from_the_largest():
    big = Table(1, {s: f"a{s}" for s in range(1, 10)}, button=1, seat_count=10)  # 9 players
    small = Table(2, {s: f"b{s}" for s in range(1, 8)}, button=3, seat_count=10)  # 7 players
    assert needs_balancing(tables=[big, small])
    moves = balance_moves(tables=[big, small], rng=random.Random(3))
    assert len(moves) == 1
    assert (moves[0].from_table, moves[0].to_table) == (1, 2)
    assert moves[0].to_seat in {8, 9, 10}


def test_no_move_is_proposed_while_every_empty_seat_is_between_the_button_and_the_small_blind():
    big = Table(1, {s: f"a{s}" for s in range(1, 10)}, button=1, seat_count=10)
    # Button on 7, seats 8–10 empty, the small blind wraps round to seat 1: all empty seats are in the gap.
    small = Table(2, {s: f"b{s}" for s in range(1, 8)}, button=7, seat_count=10)
    assert forbidden_seats(small) == {8, 9, 10}
    assert needs_balancing(tables=[big, small])
    assert balance_moves(tables=[big, small], rng=random.Random(3)) == []


def test_tables_one_apart_are_left_alone():
    a = Table(1, {s: f"a{s}" for s in range(1, 8)}, button=1, seat_count=10)
    b = Table(2, {s: f"b{s}" for s in range(1, 7)}, button=1, seat_count=10)
    assert not needs_balancing(tables=[a, b])
    assert balance_moves(tables=[a, b], rng=random.Random(1)) == []


def test_the_final_table_is_proposed_at_ten_players_with_a_fresh_draw():
    assert final_table_due(players_left=10, tables_in_use=2, final_table_size=10)
    assert not final_table_due(players_left=11, tables_in_use=2, final_table_size=10)
    assert not final_table_due(players_left=9, tables_in_use=1, final_table_size=10)
    players = [f"p{i}" for i in range(10)]
    seats, button = final_table_draw(players=players, final_table_size=10, rng=random.Random(7))
    assert sorted(s.player for s in seats) == sorted(players)
    assert sorted(s.seat for s in seats) == list(range(1, 11))
    assert button in range(1, 11)


@pytest.mark.parametrize("seed", range(20))
def test_spec_15_5_a_player_who_is_not_here_is_never_drawn_to_move(seed):
    # 9 seats taken at table 1, of which 8 are absent or called in and not arrived; 7 at table 2.
    away = frozenset(f"a{s}" for s in range(2, 10))
    big = Table(1, {s: f"a{s}" for s in range(1, 10)}, button=1, seat_count=10, away=away)
    small = Table(2, {s: f"b{s}" for s in range(1, 8)}, button=3, seat_count=10, away=away)
    moves = balance_moves(tables=[big, small], rng=random.Random(seed))
    assert [m.player for m in moves] == ["a1"]


def test_spec_15_5_no_move_when_everyone_at_the_largest_table_is_away():
    away = frozenset(f"a{s}" for s in range(1, 10))
    big = Table(1, {s: f"a{s}" for s in range(1, 10)}, button=1, seat_count=10, away=away)
    small = Table(2, {s: f"b{s}" for s in range(1, 8)}, button=3, seat_count=10, away=away)
    assert balance_moves(tables=[big, small], rng=random.Random(1)) == []
