import pytest

from events.bylaws import BYLAWS_RULES
from events.services.places import points_for
from standings.services.points import EventPlaces, cumulative_points, season_totals

# SPEC §5 / bylaws §10.1: place 1 → 10, 2 → 9, … 10 → 1, below 10th → 0.
BYLAWS_POINTS = [
    (1, 10),
    (2, 9),
    (3, 8),
    (4, 7),
    (5, 6),
    (6, 5),
    (7, 4),
    (8, 3),
    (9, 2),
    (10, 1),
    (11, 0),
    (20, 0),
]


@pytest.mark.parametrize(("place", "points"), BYLAWS_POINTS)
def test_points_for_each_place_follow_the_bylaws_table(place, points):
    assert points_for(place=place, points_table=BYLAWS_RULES.points_table) == points


def test_points_come_from_the_seasons_table_not_the_bylaws():
    assert points_for(place=2, points_table=(25, 18, 15)) == 18
    assert points_for(place=4, points_table=(25, 18, 15)) == 0


def test_a_place_below_one_is_refused():
    with pytest.raises(ValueError):
        points_for(place=0, points_table=(10,))


def test_season_total_sums_events_and_absent_members_score_zero():
    events = [
        EventPlaces(number=1, places={1: 1, 2: 2, 3: 12}),
        EventPlaces(number=2, places={2: 1, 1: 3}),
    ]
    totals = season_totals(points_table=BYLAWS_RULES.points_table, events=events, membership_ids=[1, 2, 3, 4])
    assert totals[1].points == 10 + 8
    assert totals[2].points == 9 + 10
    assert totals[3].points == 0  # played, below 10th
    assert totals[3].events_played == 1
    assert totals[4].points == 0
    assert totals[4].events_played == 0
    assert totals[4].points_per_event is None
    assert totals[1].points_per_event == 9.0
    assert totals[2].per_event == {1: 9, 2: 10}


def test_cumulative_points_run_through_events_without_a_place():
    assert cumulative_points(per_event={1: 10, 3: 7}, event_numbers=[1, 2, 3]) == [10, 10, 17]
