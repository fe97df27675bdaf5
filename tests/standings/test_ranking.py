from standings.services.ranking import TieBreakOrder, standings_ranks


def ranks(result):
    return [(r.membership_id, r.rank, r.shared) for r in result]


def test_equal_points_share_a_rank_and_the_next_rank_is_skipped():
    result = standings_ranks(totals={1: 50, 2: 40, 3: 40, 4: 30})
    assert ranks(result) == [(1, 1, False), (2, 2, True), (3, 2, True), (4, 4, False)]


def test_three_way_tie_at_the_top_then_fourth():
    result = standings_ranks(totals={1: 20, 2: 20, 3: 20, 4: 5, 5: 5, 6: 0})
    assert [r.rank for r in result] == [1, 1, 1, 4, 4, 6]


def test_a_recorded_tie_break_orders_the_tied_group():
    result = standings_ranks(totals={1: 50, 2: 40, 3: 40, 4: 30}, tie_breaks=[TieBreakOrder(40, (3, 2))])
    assert ranks(result) == [(1, 1, False), (3, 2, False), (2, 3, False), (4, 4, False)]


def test_the_newest_tie_break_wins():
    result = standings_ranks(
        totals={2: 40, 3: 40}, tie_breaks=[TieBreakOrder(40, (3, 2)), TieBreakOrder(40, (2, 3))]
    )
    assert [r.membership_id for r in result] == [2, 3]


def test_a_tie_break_naming_only_part_of_the_group_leaves_the_group_tied():
    result = standings_ranks(totals={1: 40, 2: 40, 3: 40}, tie_breaks=[TieBreakOrder(40, (2, 1))])
    assert [r.rank for r in result] == [1, 1, 1]
    assert all(r.shared for r in result)


def test_a_tie_break_with_members_who_no_longer_tie_still_orders_those_who_do():
    # Recorded when 1, 2 and 3 were tied on 40 (a correction moved 1 to 48); 2 and 3 are still tied on 40.
    result = standings_ranks(totals={1: 48, 2: 40, 3: 40}, tie_breaks=[TieBreakOrder(40, (1, 3, 2))])
    assert ranks(result) == [(1, 1, False), (3, 2, False), (2, 3, False)]


def test_members_sharing_a_rank_are_listed_by_key():
    result = standings_ranks(totals={1: 10, 2: 10}, sort_keys={1: "zed", 2: "amy"})
    assert [r.membership_id for r in result] == [2, 1]


def test_spec_15_4_a_tie_break_settles_only_the_tie_at_the_total_it_was_recorded_on():
    # 2 and 3 were tied on 19 points and 3 won the playoff; both have 38 now: a new tie, not settled.
    result = standings_ranks(totals={1: 50, 2: 38, 3: 38}, tie_breaks=[TieBreakOrder(19, (3, 2))])
    assert ranks(result) == [(1, 1, False), (2, 2, True), (3, 2, True)]
    # A second tie-break recorded on 38 settles the new tie; the old one keeps its place in the history.
    result = standings_ranks(
        totals={1: 50, 2: 38, 3: 38}, tie_breaks=[TieBreakOrder(19, (3, 2)), TieBreakOrder(38, (2, 3))]
    )
    assert ranks(result) == [(1, 1, False), (2, 2, False), (3, 3, False)]
