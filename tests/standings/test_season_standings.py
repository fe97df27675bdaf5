"""The season standings gathered from results, rosters, tie-breaks and declines (placings are hand-made)."""

import pytest

from events.models import Event
from standings.models import TieBreak
from standings.selectors import season_standings
from standings.services.tie_breaks import (
    DeclineInvalid,
    TieBreakInvalid,
    tie_break_record,
    wsop_decline_record,
)
from tests.standings.factories import seats

pytestmark = pytest.mark.django_db


def keys(rows, status=None):
    return [r.key for r in rows if status is None or r.wsop == status]


@pytest.mark.parametrize(
    ("members", "expected"),
    [
        (14, ["m01"]),
        (15, ["m01", "m02"]),
        (17, ["m01", "m02"]),
        (18, ["m01", "m02", "m03"]),
    ],
)
def test_qualifiers_by_member_count(season, results, members, expected):
    people = seats(season, members)
    results.set(1, people)
    standings = season_standings(season=season)
    assert standings.member_count == members
    assert keys(standings.rows, "qualified") == expected
    assert [r.points for r in standings.rows[:3]] == [10, 9, 8]


def test_member_count_for_seats_is_the_roster_at_the_first_event(season, results):
    people = seats(season, 14)
    seats(season, 1, prefix="late", first_event=2)  # 15 members from event 2: still 1 seat
    results.set(1, people)
    standings = season_standings(season=season)
    assert standings.member_count == 14
    assert standings.prizes == 1


def test_a_member_who_left_keeps_the_points_but_is_not_eligible(season, results):
    people = seats(season, 10)
    results.set(1, people)
    people[0].left_after_event = 1
    people[0].save()
    standings = season_standings(season=season)
    first = standings.rows[0]
    assert first.key == "m01" and first.points == 10
    assert first.wsop == "ineligible"
    assert first.race is None
    assert keys(standings.rows, "qualified") == ["m02"]


def test_late_joiner_from_event_four_is_ineligible_and_the_seat_passes_on(season, results):
    people = seats(season, 10)
    (late,) = seats(season, 1, prefix="late", first_event=4)
    results.set(1, people)
    results.set(4, [late, *people])
    standings = season_standings(season=season)
    row = standings.row_for(late.pk)
    assert row.wsop == "ineligible"
    # m01: 10 + 9 = 19; late: 10; m02: 9 + 8 = 17
    assert keys(standings.rows, "qualified") == ["m01"]


def test_late_joiner_from_event_two_loses_eligibility_once_seven_of_events_3_to_10_are_out_of_reach(
    season, results
):
    people = seats(season, 10)
    (late,) = seats(season, 1, prefix="late", first_event=2)
    for number in (1, 2, 3):
        results.set(number, people)
    # Events 3-10 are 8 events; missing events 3 and 4 leaves at most 6 of them.
    assert season_standings(season=season).row_for(late.pk).eligible is True
    results.set(4, people)
    assert season_standings(season=season).row_for(late.pk).wsop == "ineligible"


def test_tie_across_the_cut_off_is_undecided_until_the_vice_president_records_a_tie_break(
    season, results, vice_president
):
    people = seats(season, 13)  # + the vice president: 14 members, one seat
    a, b, c = people[:3]
    results.set(1, [a, b, c, *people[3:]])  # a 10, b 9, c 8
    results.set(2, [b, a, *people[3:], c])  # a 9, b 10, c 0
    standings = season_standings(season=season)
    assert [(r.key, r.rank_label, r.points, r.wsop) for r in standings.rows[:3]] == [
        ("m01", "T1", 19, "undecided"),
        ("m02", "T1", 19, "undecided"),
        ("m04", "3", 7 + 8, "none"),
    ]
    tie_break_record(season=season, order=[b, a], how=TieBreak.How.PLAYOFF, actor=vice_president)
    standings = season_standings(season=season)
    assert [(r.key, r.rank_label, r.wsop) for r in standings.rows[:2]] == [
        ("m02", "1", "qualified"),
        ("m01", "2", "none"),
    ]


def test_spec_15_4_a_tie_break_on_19_points_does_not_settle_a_new_tie_on_38(season, results, vice_president):
    people = seats(season, 13)  # + the vice president: 14 members, one seat
    a, b, c = people[:3]
    results.set(1, [a, b, c, *people[3:]])  # a 10, b 9
    results.set(2, [b, a, *people[3:], c])  # a 9, b 10: both 19
    tie_break_record(season=season, order=[b, a], how=TieBreak.How.PLAYOFF, actor=vice_president)
    assert TieBreak.objects.get().points == 19
    results.set(3, [a, b, *people[3:], c])  # a 29, b 28
    results.set(4, [b, a, *people[3:], c])  # a 38, b 38: tied again, on another total
    standings = season_standings(season=season)
    assert [(r.key, r.rank_label, r.points, r.wsop) for r in standings.rows[:2]] == [
        ("m01", "T1", 38, "undecided"),
        ("m02", "T1", 38, "undecided"),
    ]
    tie_break_record(season=season, order=[a, b], how=TieBreak.How.AGREEMENT, actor=vice_president)
    standings = season_standings(season=season)
    assert [(r.key, r.rank_label, r.wsop) for r in standings.rows[:2]] == [
        ("m01", "1", "qualified"),
        ("m02", "2", "none"),
    ]


def test_a_tie_break_needs_equal_points(season, results, vice_president):
    people = seats(season, 10)
    results.set(1, people)
    with pytest.raises(TieBreakInvalid, match="equal points"):
        tie_break_record(season=season, order=people[:2], how="agreement", actor=vice_president)


def test_tie_break_is_audited(season, results, vice_president):
    from ncpc.core.models import AuditEntry

    people = seats(season, 10)
    tie_break_record(season=season, order=people[:3], how="agreement", actor=vice_president)
    entry = AuditEntry.objects.get(action="standings.tie_break")
    assert entry.data["order"] == ["m01", "m02", "m03"]


def test_a_decline_passes_the_seat_to_the_next_eligible_finisher(season, results, vice_president):
    from ncpc.core.models import AuditEntry

    people = seats(season, 10)
    (late,) = seats(season, 1, prefix="late", first_event=4)
    results.set(1, people)
    results.set(4, [people[0], late, people[1], *people[2:]])
    # m01 20, m02 9 + 8 = 17, late 9, …
    wsop_decline_record(season=season, membership=people[0], actor=vice_president)
    standings = season_standings(season=season)
    assert standings.row_for(people[0].pk).wsop == "declined"
    assert standings.row_for(late.pk).wsop == "ineligible"
    assert standings.row_for(people[1].pk).wsop == "replacement"
    assert AuditEntry.objects.filter(action="standings.wsop_decline").count() == 1


def test_only_a_representative_can_decline(season, results, vice_president):
    people = seats(season, 10)
    results.set(1, people)
    with pytest.raises(DeclineInvalid, match="not a WSOP representative"):
        wsop_decline_record(season=season, membership=people[1], actor=vice_president)


def test_only_final_events_count(season, results):
    people = seats(season, 10)
    results.set(1, people)
    results.set(2, list(reversed(people)), final=False)
    standings = season_standings(season=season)
    assert standings.rows[0].points == 10
    assert standings.events_left == 9


def test_race_after_eight_events(season, results):
    people = seats(season, 12)  # 1 seat
    a, b, c = people[:3]
    for number in range(1, 9):
        results.set(number, people)  # a 80, b 72, c 64
    standings = season_standings(season=season)
    assert standings.events_left == 2
    # r = 2 → 20 points: b 72 + 20 = 92 ≥ 80, so a has not clinched; c: a 80 > 64 + 20? no → open;
    # d 56: a 80 > 76 → out.
    assert [r.race for r in standings.rows[:4]] == ["open", "open", "open", "out of reach"]
    results.set(9, people)  # a 90, b 81, c 72, r = 1
    standings = season_standings(season=season)
    # a: b 81 + 10 = 91 ≥ 90 → open; c: a 90 > 82 → out
    assert [r.race for r in standings.rows[:3]] == ["open", "open", "out of reach"]
    results.set(10, [a, c, b, *people[3:]])  # a 100, b 89, r = 0
    standings = season_standings(season=season)
    assert [r.race for r in standings.rows[:2]] == ["clinched", "out of reach"]
    assert standings.rows[0].wsop == "qualified"


def test_event_counts_only_through_the_given_date(season, results):
    people = seats(season, 10)
    results.set(1, people)
    results.set(2, list(reversed(people)))
    sept = Event.objects.get(season=season, number=2).date
    standings = season_standings(season=season, through=sept.replace(day=1))
    assert [e.number for e in standings.events] == [1]
    assert standings.rows[0].points == 10


def test_a_substitutes_place_counts_for_the_member(season):
    from events.models import Attendance

    people = seats(season, 10)
    event = Event.objects.get(season=season, number=1)
    Attendance.objects.create(
        event=event, membership=people[3], status="expected", substitute_name="Carl Guest", place=1
    )
    Attendance.objects.create(event=event, membership=people[0], status="expected", place=2)
    Event.objects.filter(pk=event.pk).update(status=Event.Status.FINAL)
    standings = season_standings(season=season)
    assert (standings.rows[0].key, standings.rows[0].points, standings.rows[0].events_played) == (
        "m04",
        10,
        1,
    )
    assert (standings.rows[1].key, standings.rows[1].points) == ("m01", 9)
