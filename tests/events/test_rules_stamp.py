"""A season's rule tables are kept in memory under the season's rules stamp (ncpc.core.cache.stamped): read
once while only payments and results change, read again as soon as a table changes, by any path."""

from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from events.models import BlindLevel, PayoutRow, Season, WsopRow
from events.rules import BlindLevelData
from events.selectors import season_rules
from events.services.rules_edit import season_rules_save
from ncpc.core.audit import audit_record
from tests.factories import season_make

# The stamped cache is used only outside transactions, like the computed one.
pytestmark = pytest.mark.django_db(transaction=True)


def rules_of(season_id: int):
    """The rules as a page reads them: the season row afresh, then its rules."""
    return season_rules(Season.objects.get(pk=season_id))


def table_queries(season_id: int) -> int:
    season = Season.objects.get(pk=season_id)
    with CaptureQueriesContext(connection) as queries:
        season_rules(season)
    return len(queries)


def test_the_tables_are_read_once_while_other_data_changes(stamped_on):
    season = season_make()
    assert table_queries(season.pk) == 1
    # Any other change of the club's data (every command writes an audit row) leaves the rules where they are.
    audit_record(actor=None, action="test.change", target=season, summary="a payment, say")
    assert table_queries(season.pk) == 0


def test_a_rules_save_is_seen_at_once(stamped_on, django_user_model):
    season = season_make()
    before = rules_of(season.pk)
    levels = [*before.blind_structure]
    levels[0] = BlindLevelData(
        kind=levels[0].kind,
        small_blind=levels[0].small_blind,
        big_blind=levels[0].big_blind,
        ante=levels[0].ante,
        minutes=levels[0].minutes + 5,
        note=levels[0].note,
    )
    season_rules_save(
        season=season,
        changes={},
        tables={"blind_structure": levels},
        actor=None,
        reason="longer first level",
    )
    assert rules_of(season.pk).blind_structure[0].minutes == before.blind_structure[0].minutes + 5


@pytest.mark.parametrize("how", ["save", "delete", "update"])
def test_a_table_row_changed_outside_the_services_is_seen_too(stamped_on, how):
    season = season_make()
    rules_of(season.pk)
    row = PayoutRow.objects.filter(season=season, member_count=10).get()
    if how == "save":
        row.first = Decimal("405.00")
        row.save()
    elif how == "delete":
        row.delete()
    else:
        # update() sends no signals: code that uses it calls season_rules_touched (rule_changes does).
        from events.services.rules_stamp import season_rules_touched

        PayoutRow.objects.filter(pk=row.pk).update(first=Decimal("405.00"))
        season_rules_touched(season_id=season.pk)
    tables = {r.member_count: r.amounts for r in rules_of(season.pk).payout_table}
    if how == "delete":
        assert 10 not in tables
    else:
        assert tables[10][0] == Decimal("405.00")


def test_saving_a_season_read_before_a_table_changed_keeps_the_new_stamp(stamped_on):
    season = season_make()
    held = Season.objects.get(pk=season.pk)  # read now: its stamp is about to be old
    rules_of(season.pk)
    WsopRow.objects.filter(season=season).first().delete()
    held.late_fee = held.late_fee  # a whole save of the old object
    held.save()
    assert Season.objects.get(pk=season.pk).rules_stamp != held.rules_stamp
    assert len(rules_of(season.pk).wsop_table) == WsopRow.objects.filter(season=season).count()


def test_two_seasons_keep_their_own_tables(stamped_on):
    first, second = season_make(2026), season_make(2027)
    BlindLevel.objects.filter(season=second).delete()
    assert rules_of(first.pk).blind_structure
    assert rules_of(second.pk).blind_structure == ()
