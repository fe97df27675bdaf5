"""The season's rules: the scalars on the season row and the four rule tables read in one query."""

import pickle
from decimal import Decimal

from django.db import connection
from django.test.utils import CaptureQueriesContext

from events.models import DuesInstallment
from events.selectors import season_rules


def test_a_seasons_rules_and_all_four_tables_are_read_in_one_query(season):
    with CaptureQueriesContext(connection) as queries:
        rules = season_rules(season)
    assert len(queries) == 1
    # The bylaws' schedule: $110 at the first event, then $100 at each of the next four ($510 in all).
    assert rules.dues_schedule == ((1, Decimal("110.00")),) + tuple(
        (n, Decimal("100.00")) for n in (2, 3, 4, 5)
    )
    # §6.2, 16 members: 145, 95, 70, 50; §8.1: 15 to 17 members send 2.
    row = next(r for r in rules.payout_table if r.member_count == 16)
    assert row.amounts == (Decimal("145.00"), Decimal("95.00"), Decimal("70.00"), Decimal("50.00"))
    assert next(r.prizes for r in rules.wsop_table if r.min_members <= 16 <= r.max_members) == 2
    assert rules.blind_structure[0].kind == "level" and rules.blind_structure[0].minutes is not None
    assert pickle.loads(pickle.dumps(rules)) == rules  # the computed cache pickles what it keeps


def test_rules_read_now_outlive_the_seasons_rows(season):
    """A season replaced from a file keeps the rules it had: they are read before its rows go."""
    rules = season_rules(season)
    DuesInstallment.objects.filter(season=season).delete()
    assert rules.dues_schedule[0] == (1, Decimal("110.00"))
