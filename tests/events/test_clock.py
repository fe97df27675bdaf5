import datetime as dt

from events.bylaws import BYLAWS_RULES
from events.services.clock import (
    ClockState,
    clock_back,
    clock_pause,
    clock_resume,
    clock_skip,
    clock_start,
    clock_view,
    late_arrival_deadline,
)

S = BYLAWS_RULES.blind_structure
T0 = dt.datetime(2026, 12, 12, 19, 0, tzinfo=dt.UTC)


def at(minutes: float, seconds: float = 0) -> dt.datetime:
    return T0 + dt.timedelta(minutes=minutes, seconds=seconds)


def test_a_clock_not_started_shows_level_one_with_its_full_time():
    view = clock_view(structure=S, state=ClockState(), now=at(5))
    assert not view.started
    assert (view.level_number, view.small_blind, view.big_blind, view.seconds_left) == (1, 25, 50, 30 * 60)


def test_time_left_counts_down_from_the_start():
    state = clock_start(state=ClockState(), now=T0)
    view = clock_view(structure=S, state=state, now=at(12, 30))
    assert view.level_number == 1
    assert view.seconds_left == 17 * 60 + 30


def test_level_four_follows_the_first_ten_minute_break():
    state = clock_start(state=ClockState(), now=T0)
    on_break = clock_view(structure=S, state=state, now=at(95))  # 3 × 30 min, then 5 minutes into the break
    assert on_break.kind == "break" and on_break.level_number is None
    assert on_break.seconds_left == 5 * 60
    assert on_break.next_level.small_blind == 150
    level4 = clock_view(structure=S, state=state, now=at(100))
    assert (level4.level_number, level4.small_blind, level4.big_blind) == (4, 150, 300)


def test_next_break_shows_its_chip_removal_note():
    state = clock_start(state=ClockState(), now=T0)
    # Level 5 (200/400 ante 50) starts at 130 min; the "Remove $25 chips" break at 170 min.
    view = clock_view(structure=S, state=state, now=at(131))
    assert (view.level_number, view.ante) == (5, 50)
    assert view.next_break.note == "Remove $25 chips"
    assert view.seconds_to_next_break == 39 * 60


def test_pause_freezes_time_and_resume_carries_on_without_drift():
    state = clock_start(state=ClockState(), now=T0)
    state = clock_pause(state=state, now=at(10))
    assert clock_view(structure=S, state=state, now=at(25)).seconds_left == 20 * 60
    state = clock_resume(state=state, now=at(25))
    view = clock_view(structure=S, state=state, now=at(30))
    assert view.seconds_left == 15 * 60
    assert view.elapsed_seconds == 15 * 60


def test_skip_goes_to_the_next_level_and_back_returns_to_the_start_of_the_previous():
    state = clock_start(state=ClockState(), now=T0)
    state = clock_skip(structure=S, state=state, now=at(10))
    view = clock_view(structure=S, state=state, now=at(10))
    assert (view.level_number, view.seconds_left) == (2, 30 * 60)
    state = clock_back(structure=S, state=state, now=at(20))
    view = clock_view(structure=S, state=state, now=at(20))
    assert (view.level_number, view.seconds_left) == (1, 30 * 60)


def test_skip_while_paused_stays_paused_at_the_start_of_the_next_level():
    state = clock_pause(state=clock_start(state=ClockState(), now=T0), now=at(10))
    state = clock_skip(structure=S, state=state, now=at(11))
    view = clock_view(structure=S, state=state, now=at(40))
    assert view.paused
    assert (view.level_number, view.seconds_left) == (2, 30 * 60)


def test_the_last_level_has_no_end():
    state = clock_start(state=ClockState(), now=T0)
    view = clock_view(structure=S, state=state, now=at(60 * 24))
    assert (view.small_blind, view.big_blind, view.ante) == (10000, 20000, 3000)
    assert view.seconds_left is None
    assert view.next_level is None


def test_absent_players_chips_come_off_after_the_second_level():
    assert late_arrival_deadline(structure=S, levels=2) == 60 * 60
