"""Places 1..N from eliminations in order (SPEC §5, bylaws §6.5, §10.3) — the pure calculator."""

import pytest

from events.errors import ResultsError
from events.services.places import Bust, bust_places, places_final, points_for

PLAYERS = ["ann", "bob", "cat", "dan", "eve"]


def final(busts):
    return [(p.place, p.player) for p in places_final(entrants=PLAYERS, busts=busts)]


def test_the_first_player_out_is_last_and_the_one_never_out_wins():
    busts = [Bust("eve", 1), Bust("dan", 2), Bust("cat", 3), Bust("bob", 4)]
    assert final(busts) == [(1, "ann"), (2, "bob"), (3, "cat"), (4, "dan"), (5, "eve")]


def test_players_out_on_the_same_hand_are_placed_by_chips_at_the_start_of_the_hand():
    # eve out first; then dan (8,000 chips) and cat (12,500) on the same hand: cat gets the better place.
    busts = [
        Bust("eve", 1),
        Bust("dan", 2, start_chips=8000),
        Bust("cat", 2, start_chips=12500),
        Bust("bob", 3),
    ]
    assert final(busts) == [(1, "ann"), (2, "bob"), (3, "cat"), (4, "dan"), (5, "eve")]


def test_a_three_way_same_hand_bust_takes_three_consecutive_places():
    busts = [
        Bust("eve", 1, start_chips=100),
        Bust("dan", 1, start_chips=300),
        Bust("cat", 1, start_chips=200),
    ]
    places = bust_places(entrants=PLAYERS, busts=busts)
    assert [(p.place, p.player) for p in places] == [(3, "dan"), (4, "cat"), (5, "eve")]


def test_equal_chip_counts_are_ordered_by_the_recorded_draw():
    busts = [Bust("eve", 1, start_chips=5000, draw=2), Bust("dan", 1, start_chips=5000, draw=1)]
    places = bust_places(entrants=PLAYERS, busts=busts)
    assert [(p.place, p.player) for p in places] == [(4, "dan"), (5, "eve")]


def test_equal_chip_counts_without_a_draw_are_refused():
    busts = [Bust("eve", 1, start_chips=5000), Bust("dan", 1, start_chips=5000)]
    with pytest.raises(ResultsError, match="draw"):
        bust_places(entrants=PLAYERS, busts=busts)


def test_a_same_hand_bust_without_chip_counts_is_refused():
    with pytest.raises(ResultsError, match="chip counts"):
        bust_places(entrants=PLAYERS, busts=[Bust("eve", 1), Bust("dan", 1)])


def test_an_unknown_player_is_refused():
    with pytest.raises(ResultsError, match="Unknown player"):
        bust_places(entrants=PLAYERS, busts=[Bust("zed", 1)])


def test_a_player_entered_twice_is_refused():
    with pytest.raises(ResultsError, match="entered twice"):
        bust_places(entrants=PLAYERS, busts=[Bust("eve", 1), Bust("eve", 2)])


def test_finishing_needs_exactly_one_player_left():
    with pytest.raises(ResultsError, match="3 players are still in"):
        places_final(entrants=PLAYERS, busts=[Bust("eve", 1), Bust("dan", 2)])


def test_a_player_removed_for_abuse_keeps_the_place_of_that_moment():
    busts = [Bust("eve", 1), Bust("bob", 2, removed_for_abuse=True), Bust("dan", 3), Bust("cat", 4)]
    places = places_final(entrants=PLAYERS, busts=busts)
    bob = next(p for p in places if p.player == "bob")
    assert bob.place == 4 and bob.removed_for_abuse


@pytest.mark.parametrize("order", [list(range(12)), list(range(11, -1, -1))])
def test_places_are_always_one_to_n_without_sharing(order):
    entrants = list(range(12))
    busts = [Bust(p, hand=i // 2 + 1, start_chips=1000 + p, draw=None) for i, p in enumerate(order[:-1])]
    places = places_final(entrants=entrants, busts=busts)
    assert sorted(p.place for p in places) == list(range(1, 13))
    assert len({p.player for p in places}) == 12


@pytest.mark.parametrize(
    ("place", "points"),
    [(1, 10), (2, 9), (3, 8), (4, 7), (5, 6), (6, 5), (7, 4), (8, 3), (9, 2), (10, 1), (11, 0), (None, 0)],
)
def test_points_follow_the_bylaws_table(place, points):
    # §10: 1st → 10 points … 10th → 1 point, below 10th → 0.
    assert points_for(place=place, points_table=(10, 9, 8, 7, 6, 5, 4, 3, 2, 1)) == points
