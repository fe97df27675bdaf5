"""SPEC §17.2: what takes effect on a day inside (or before) a closed month is refused, naming the month and the
way forward. The question is asked through events.hooks.closed_month_refusal, which finance answers."""

import datetime as dt

import pytest
from django.contrib.auth import get_user_model

from events import hooks
from finance.models import ClosedMonth

pytestmark = pytest.mark.django_db


def close(*months: dt.date) -> None:
    closer = get_user_model().objects.create(username="treasurer-x")
    for month in months:
        ClosedMonth.objects.create(month=month, closed_by=closer)


def test_a_day_in_a_closed_month_is_refused_naming_the_month_and_the_first_open_one():
    close(dt.date(2026, 9, 1), dt.date(2026, 10, 1))
    assert hooks.closed_month_refusal(day=dt.date(2026, 10, 14)) == (
        "October 2026 is closed (its report was presented): nothing can be dated in it any more. "
        "Date it in the first open month, November 2026, or later."
    )


def test_a_day_before_a_closed_month_is_refused_too():
    close(dt.date(2026, 9, 1), dt.date(2026, 10, 1))
    assert hooks.closed_month_refusal(day=dt.date(2026, 8, 31)) == (
        "September 2026 is closed (its report was presented): nothing can be dated in or before it any more, "
        "so not Aug 31, 2026. Date it in the first open month, November 2026, or later."
    )


def test_a_day_in_an_open_month_is_not_refused():
    close(dt.date(2026, 9, 1), dt.date(2026, 12, 1))
    assert hooks.closed_month_refusal(day=dt.date(2027, 1, 2)) is None
    assert hooks.closed_month_refusal(day=dt.date(2026, 12, 31)) is not None


def test_december_closed_sends_the_reader_to_january_of_the_next_year():
    close(dt.date(2026, 12, 1))
    assert hooks.closed_month_refusal(day=dt.date(2026, 12, 5)).endswith(
        "Date it in the first open month, January 2027, or later."
    )
