"""Which season a month's report covers: the season holding the month, from the day its seats took effect (the
earliest ``joined_on`` of its memberships; its first day for a seat without one, or while it has no seat). A
month before that belongs to no season in the report: no members' dues, no WSOP allocation, no income or
expense categories. This is what a month closed before the season was opened kept (its seats then carry over
on the first open month's first day, ``members.services.roster.seats_carry_over_day``), so the report made
again is the kept one (tests/members/test_season_open_closed.py).

Season 2026-27 (Aug 1, 2026 – Jul 31, 2027, the bylaws' rules); the clock is Nov 29, 2026, so August, September
and October are whole months.
"""

import datetime as dt

import pytest

from finance.selectors.monthly_report import monthly_report
from tests.factories import MembershipFactory

pytestmark = pytest.mark.django_db

NOV_29 = dt.date(2026, 11, 29)


def report(month: int):
    return monthly_report(year=2026, month=month, today=NOV_29)


def test_months_before_the_seats_took_effect_belong_to_no_season(season, today):
    """Both seats carried over on Oct 1, 2026: August and September are no season's; October is 2026-27's."""
    seats = [MembershipFactory(season=season, joined_on=dt.date(2026, 10, 1)) for _ in range(2)]
    for month in (8, 9):
        made = report(month)
        assert (made.season, made.season_start, made.wsop_allocation) == (None, None, None), month
        assert (made.members, made.income, made.expenses) == ([], [], []), month
    october = report(10)
    assert (october.season, october.season_start) == (season, dt.date(2026, 8, 1))
    assert sorted(r.membership.pk for r in october.members) == sorted(s.pk for s in seats)


def test_a_seat_taking_effect_within_the_month_puts_the_month_in_the_season(season, today):
    MembershipFactory(season=season, joined_on=dt.date(2026, 9, 30))
    assert report(8).season is None
    assert report(9).season == season


def test_the_earliest_seat_decides(season, today):
    MembershipFactory(season=season, joined_on=dt.date(2026, 10, 1))
    MembershipFactory(season=season, joined_on=dt.date(2026, 8, 1))
    assert report(8).season == season


def test_a_seat_with_no_day_recorded_counts_from_the_seasons_first_day(season, today):
    MembershipFactory(season=season, joined_on=dt.date(2026, 10, 1))
    MembershipFactory(season=season, joined_on=None)
    assert report(8).season == season


def test_a_season_with_no_seat_yet_covers_its_months_from_its_first_day(season, today):
    made = report(8)
    assert (made.season, made.members) == (season, [])


def test_a_month_of_no_season_names_none(season, today):
    MembershipFactory(season=season)
    assert monthly_report(year=2026, month=7, today=NOV_29).season is None
