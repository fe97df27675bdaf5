from standings.services.ranking import standings_ranks


def ranks(result):
    return [(r.membership_id, r.rank, r.shared) for r in result]


def test_equal_points_share_a_rank_and_the_next_rank_is_skipped():
    result = standings_ranks(totals={1: 50, 2: 40, 3: 40, 4: 30})
    assert ranks(result) == [(1, 1, False), (2, 2, True), (3, 2, True), (4, 4, False)]


def test_three_way_tie_at_the_top_then_fourth():
    result = standings_ranks(totals={1: 20, 2: 20, 3: 20, 4: 5, 5: 5, 6: 0})
    assert [r.rank for r in result] == [1, 1, 1, 4, 4, 6]


def test_a_recorded_tie_break_orders_the_tied_group():
    result = standings_ranks(totals={1: 50, 2: 40, 3: 40, 4: 30}, tie_breaks=[[3, 2]])
    assert ranks(result) == [(1, 1, False), (3, 2, False), (2, 3, False), (4, 4, False)]


def test_the_newest_tie_break_wins():
    result = standings_ranks(totals={2: 40, 3: 40}, tie_breaks=[[3, 2], [2, 3]])
    assert [r.membership_id for r in result] == [2, 3]


def test_a_tie_break_naming_only_part_of_the_group_leaves_the_group_tied():
    result = standings_ranks(totals={1: 40, 2: 40, 3: 40}, tie_breaks=[[2, 1]])
    assert [r.rank for r in result] == [1, 1, 1]
    assert all(r.shared for r in result)


def test_a_tie_break_with_members_who_no_longer_tie_still_orders_those_who_do():
    # Recorded when 1, 2 and 3 were tied; 1 has since scored more.
    result = standings_ranks(totals={1: 48, 2: 40, 3: 40}, tie_breaks=[[1, 3, 2]])
    assert ranks(result) == [(1, 1, False), (3, 2, False), (2, 3, False)]


def test_members_sharing_a_rank_are_listed_by_key():
    result = standings_ranks(totals={1: 10, 2: 10}, sort_keys={1: "zed", 2: "amy"})
    assert [r.membership_id for r in result] == [2, 1]
