"""Event dates from the season's schedule rule (SPEC §3). Pure: values in, dates out."""

import calendar
import datetime as dt
from collections.abc import Sequence

SATURDAY = 5


def nth_saturday(*, year: int, month: int, n: int) -> dt.date:
    first = dt.date(year, month, 1)
    offset = (SATURDAY - first.weekday()) % 7
    day = 1 + offset + 7 * (n - 1)
    if day > calendar.monthrange(year, month)[1]:
        raise ValueError(f"{calendar.month_name[month]} {year} has no Saturday number {n}")
    return dt.date(year, month, day)


def schedule_dates(*, season_start: dt.date, schedule: Sequence[Sequence[int]]) -> list[dt.date]:
    """One date per (month, nth Saturday) entry, in the fiscal year that begins on ``season_start``.

    Months before the start month fall in the following calendar year (Jan–Jul of a season beginning in Aug).
    """
    dates = []
    for month, n in schedule:
        year = season_start.year if month >= season_start.month else season_start.year + 1
        dates.append(nth_saturday(year=year, month=month, n=n))
    return dates
