"""What the rules page reads before a save, as services (``events.services.rules_edit``): the tables new dues
imply (issue 47), the mark that they were shown, and the events a saved schedule rule would move.

Amounts are the bylaws' tables scaled to $60 dues, worked out by hand in ``tests/events/test_seasons_47.py``;
dates read off a calendar."""

import datetime as dt
from decimal import Decimal as D

import pytest

from events.models import Event
from events.rules import PayoutRowData
from events.selectors import season_rules
from events.services.rules_edit import (
    reschedule_moves_waiting,
    rules_dues_key,
    rules_tables_proposed,
    season_rules_save,
)
from tests.events.test_seasons_47 import DUES_AT_60, PAYOUTS_AT_60

pytestmark = pytest.mark.django_db

# The bylaws' dues rules (§2.6, §2.7, §4.4, §8.1) with the dues raised to $60.
AT_60 = {
    "dues_per_event": D("60.00"),
    "admin_fee": D("10.00"),
    "events_per_season": 10,
    "wsop_entry": D("1500.00"),
    "wsop_expenses": D("700.00"),
}
PAYOUT_ROWS_AT_60 = tuple(
    PayoutRowData(member_count=n, amounts=tuple(D(a) for a in amounts))
    for n, amounts in PAYOUTS_AT_60.items()
)


def _typed_as_saved(season):
    rules = season_rules(season)
    return {"payout_table": tuple(rules.payout_table), "dues_schedule": tuple(rules.dues_schedule)}


def test_the_dues_key_lists_the_dues_rules_in_order_and_leaves_a_missing_one_empty():
    assert rules_dues_key(values=AT_60) == "60.00|10.00|10|1500.00|700.00"
    assert rules_dues_key(values={"dues_per_event": D("55.00")}) == "55.00||||"


def test_new_dues_propose_both_tables_scaled_from_the_bylaws_while_they_are_typed_as_saved(season):
    proposed = rules_tables_proposed(
        season=season,
        current=season_rules(season),
        changes=AT_60,
        typed=_typed_as_saved(season),
        seen_for=None,
    )
    assert proposed == {"payout_table": PAYOUT_ROWS_AT_60, "dues_schedule": DUES_AT_60}


def test_tables_already_shown_for_these_dues_are_not_proposed_again(season):
    proposed = rules_tables_proposed(
        season=season,
        current=season_rules(season),
        changes=AT_60,
        typed=_typed_as_saved(season),
        seen_for="60.00|10.00|10|1500.00|700.00",
    )
    assert proposed == {}
    # Shown for other dues ($55): the $60 tables are proposed.
    again = rules_tables_proposed(
        season=season,
        current=season_rules(season),
        changes=AT_60,
        typed=_typed_as_saved(season),
        seen_for="55.00|10.00|10|1500.00|700.00",
    )
    assert set(again) == {"payout_table", "dues_schedule"}


def test_a_table_the_officer_edited_is_left_as_typed_and_only_the_other_is_proposed(season):
    typed = _typed_as_saved(season)
    typed["dues_schedule"] = ((1, D("130.00")), (2, D("130.00")), (3, D("120.00")), (4, D("120.00")))
    proposed = rules_tables_proposed(
        season=season, current=season_rules(season), changes=AT_60, typed=typed, seen_for=None
    )
    assert proposed == {"payout_table": PAYOUT_ROWS_AT_60}


def test_no_tables_are_proposed_once_the_season_is_under_way(season):
    Event.objects.filter(season=season, number=1).update(status=Event.Status.FINAL)
    proposed = rules_tables_proposed(
        season=season,
        current=season_rules(season),
        changes=AT_60,
        typed=_typed_as_saved(season),
        seen_for=None,
    )
    assert proposed == {}


def test_the_moves_waiting_follow_the_saved_schedule_rule_not_what_the_form_typed(season, today):
    # Today is Nov 29, 2026, the bylaws' schedule on Saturdays: nothing to move.
    assert reschedule_moves_waiting(season=season, today=today) == []
    typed = season
    typed.schedule_weekday = 3  # Thursday, typed on the form, not saved
    assert reschedule_moves_waiting(season=typed, today=today, reread=True) == []

    season.refresh_from_db()
    season_rules_save(season=season, changes={"schedule_weekday": 3}, actor=None, reason="Thursdays")
    season.refresh_from_db()
    moves = reschedule_moves_waiting(season=season, today=today)
    # Events 5-10, same months and nth days, on Thursdays (Dec 2nd, Jan 4th, Feb 2nd and 4th, Mar 4th, Apr 4th).
    assert [(m.number, m.old, m.new) for m in moves] == [
        (5, dt.date(2026, 12, 12), dt.date(2026, 12, 10)),
        (6, dt.date(2027, 1, 23), dt.date(2027, 1, 28)),
        (7, dt.date(2027, 2, 13), dt.date(2027, 2, 11)),
        (8, dt.date(2027, 2, 27), dt.date(2027, 2, 25)),
        (9, dt.date(2027, 3, 27), dt.date(2027, 3, 25)),
        (10, dt.date(2027, 4, 24), dt.date(2027, 4, 22)),
    ]


def test_a_schedule_rule_with_no_date_for_some_month_has_no_moves_waiting(season, today):
    season.schedule = [[12, 5]]  # a 5th Saturday in December 2026: there are only four
    season.save(update_fields=["schedule"])
    assert reschedule_moves_waiting(season=season, today=today) == []
