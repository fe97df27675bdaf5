"""The WSOP qualifiers (SPEC §6, bylaws §8.1, §8.4) and the race, with hand-computed numbers."""

import pytest

from events.bylaws import BYLAWS_RULES
from events.services.event_fund import wsop_prizes
from standings.services.ranking import TieBreakOrder, standings_ranks
from standings.services.wsop import wsop_race, wsop_statuses


def statuses(totals, *, prizes, eligible=None, declined=(), tie_breaks=()):
    ranked = standings_ranks(totals=totals, tie_breaks=tie_breaks)
    return wsop_statuses(
        ranked=ranked,
        eligible=set(totals) if eligible is None else eligible,
        prizes=prizes,
        declined=declined,
    )


@pytest.mark.parametrize(("members", "prizes"), [(10, 1), (14, 1), (15, 2), (17, 2), (18, 3), (20, 3)])
def test_the_bylaws_wsop_table_gives_the_seats(members, prizes):
    assert wsop_prizes(rules=BYLAWS_RULES, member_count=members) == prizes


def test_top_two_eligible_members_qualify_for_two_seats():
    got = statuses({1: 60, 2: 55, 3: 50, 4: 45}, prizes=2)
    assert got == {1: "qualified", 2: "qualified", 3: "none", 4: "none"}


def test_an_ineligible_member_never_takes_a_seat():
    got = statuses({1: 60, 2: 55, 3: 50}, prizes=1, eligible={2, 3})
    assert got == {1: "ineligible", 2: "qualified", 3: "none"}


def test_a_tie_across_the_cut_off_leaves_the_seat_undecided():
    got = statuses({1: 60, 2: 50, 3: 50, 4: 40}, prizes=2)
    assert got == {1: "qualified", 2: "undecided", 3: "undecided", 4: "none"}


def test_a_tie_inside_the_seats_is_decided_without_a_tie_break():
    got = statuses({1: 60, 2: 60, 3: 40}, prizes=2)
    assert got == {1: "qualified", 2: "qualified", 3: "none"}


def test_a_tie_break_decides_the_undecided_seat():
    got = statuses({1: 60, 2: 50, 3: 50, 4: 40}, prizes=2, tie_breaks=[TieBreakOrder(50, (3, 2))])
    assert got == {1: "qualified", 3: "qualified", 2: "none", 4: "none"}


def test_a_decline_passes_the_seat_to_the_next_eligible_finisher_skipping_an_ineligible_late_joiner():
    # 1 seat: member 1 declines; member 9 (a late joiner from event 4) is next but not eligible; member 2 goes.
    got = statuses({1: 70, 9: 66, 2: 60, 3: 55}, prizes=1, eligible={1, 2, 3}, declined={1})
    assert got == {1: "declined", 9: "ineligible", 2: "replacement", 3: "none"}


def test_a_decline_with_two_seats_keeps_the_other_qualifier():
    got = statuses({1: 70, 2: 65, 3: 60, 4: 55}, prizes=2, declined={2})
    assert got == {1: "qualified", 2: "declined", 3: "replacement", 4: "none"}


def test_a_decline_that_opens_a_seat_to_a_tie_leaves_it_undecided():
    got = statuses({1: 70, 2: 60, 3: 60}, prizes=1, declined={1})
    assert got == {1: "declined", 2: "undecided", 3: "undecided"}


def race(points, *, prizes, events_left, eligible=None):
    return wsop_race(
        points=points,
        eligible=set(points) if eligible is None else eligible,
        prizes=prizes,
        events_left=events_left,
        max_points_per_event=10,
    )


def test_race_two_events_left_two_seats():
    # r = 2 → up to 20 more points each.
    # A 70: only B (65+20=85) can still reach 70; C 48+20=68 cannot → 1 < 2 → clinched.
    # B 65: A and C (68) can reach 65 → not clinched; nobody has more than 85 → open.
    # C 48: only A has more than 68 → open.  D 44: A and B have more than 64 → out.  E 30: out.
    got = race({"A": 70, "B": 65, "C": 48, "D": 44, "E": 30}, prizes=2, events_left=2)
    assert got == {"A": "clinched", "B": "open", "C": "open", "D": "out of reach", "E": "out of reach"}


def test_race_at_the_start_everyone_is_open():
    got = race({"A": 0, "B": 0, "C": 0, "D": 0, "E": 0}, prizes=3, events_left=10)
    assert set(got.values()) == {"open"}


def test_race_after_the_last_event_a_tie_at_the_top_stays_open():
    got = race({"A": 80, "B": 80, "C": 70}, prizes=1, events_left=0)
    assert got == {"A": "open", "B": "open", "C": "out of reach"}


def test_race_catching_up_exactly_is_enough_to_block_a_clinch_but_not_to_be_out():
    # r = 1: B can reach exactly 50 → A not clinched; A is not more than 40 + 10 ahead → B still open.
    assert race({"A": 50, "B": 40}, prizes=1, events_left=1) == {"A": "open", "B": "open"}
    # One point more and A has clinched while B is out.
    assert race({"A": 51, "B": 40}, prizes=1, events_left=1) == {"A": "clinched", "B": "out of reach"}


def test_race_ignores_ineligible_members():
    # X has the most points but is not eligible: A clinches the one seat over B (39 + 10 = 49 < 50).
    got = race({"A": 50, "X": 60, "B": 39}, prizes=1, events_left=1, eligible={"A", "B"})
    assert got == {"A": "clinched", "B": "out of reach"}


def test_race_mid_season_five_events_left_one_seat():
    # r = 5 → 50 points still available. A 62, B 20, C 11, D 12.
    # A: B 20+50=70 ≥ 62 → not clinched; open.  B: is A > 70? no → open.
    # C: A 62 > 11+50=61 → out.  D: A 62 > 62? no → open.
    got = race({"A": 62, "B": 20, "C": 11, "D": 12}, prizes=1, events_left=5)
    assert got == {"A": "open", "B": "open", "C": "out of reach", "D": "open"}


def test_spec_15_3_a_decline_above_a_tie_at_the_cut_leaves_the_tied_members_undecided():
    # Two seats: 1 qualifies, 2 and 3 tie for the second seat; 1 declines. Both 2 and 3 go, but which of them
    # replaces 1 (and so pays 1 the 3%) is not decided: both stay undecided until a tie-break is recorded.
    got = statuses({1: 70, 2: 60, 3: 60, 4: 50}, prizes=2, declined={1})
    assert got == {1: "declined", 2: "undecided", 3: "undecided", 4: "none"}


def test_spec_15_3_with_the_tie_break_recorded_the_loser_of_the_tie_is_the_replacement():
    got = statuses(
        {1: 70, 2: 60, 3: 60, 4: 50}, prizes=2, declined={1}, tie_breaks=[TieBreakOrder(60, (3, 2))]
    )
    assert got == {1: "declined", 3: "qualified", 2: "replacement", 4: "none"}


def test_spec_15_3_declines_are_applied_in_rank_order():
    # Three seats: 1 and 3 decline; the next eligible finishers in rank order, 4 and 5, replace them.
    got = statuses({1: 90, 2: 80, 3: 70, 4: 60, 5: 50, 6: 40}, prizes=3, declined={1, 3})
    assert got == {
        1: "declined",
        2: "qualified",
        3: "declined",
        4: "replacement",
        5: "replacement",
        6: "none",
    }
