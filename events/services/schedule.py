"""Event dates from the season's schedule rule (SPEC §3): the nth day of the week of each month listed, and the
rule in words. Pure: values in, dates out."""

import calendar
import datetime as dt
from collections import Counter
from collections.abc import Sequence

SATURDAY = 5
WEEKDAYS = tuple(calendar.day_name)  # Monday … Sunday, as ``date.weekday()`` counts them


def nth_weekday(*, year: int, month: int, n: int, weekday: int) -> dt.date:
    """The ``n``th ``weekday`` (Monday 0 … Sunday 6) of a month: the 4th Thursday of September 2026 is Sep 24."""
    first = dt.date(year, month, 1)
    offset = (weekday - first.weekday()) % 7
    day = 1 + offset + 7 * (n - 1)
    if day > calendar.monthrange(year, month)[1]:
        raise ValueError(f"{calendar.month_name[month]} {year} has no {WEEKDAYS[weekday]} number {n}")
    return dt.date(year, month, day)


def nth_saturday(*, year: int, month: int, n: int) -> dt.date:
    return nth_weekday(year=year, month=month, n=n, weekday=SATURDAY)


def schedule_dates(
    *, season_start: dt.date, schedule: Sequence[Sequence[int]], weekday: int = SATURDAY
) -> list[dt.date]:
    """One date per (month, nth weekday) entry, in the fiscal year that begins on ``season_start``.

    Months before the start month fall in the following calendar year (Jan–Jul of a season beginning in Aug).
    """
    dates = []
    for month, n in schedule:
        year = season_start.year if month >= season_start.month else season_start.year + 1
        dates.append(nth_weekday(year=year, month=month, n=n, weekday=weekday))
    return dates


def schedule_monthly(
    *, first_month: int, nth: int, events: int, fiscal_first_month: int = 8
) -> list[list[int]]:
    """A schedule of one event a month on the ``nth`` day, from ``first_month`` on, ``events`` months in a row.

    Raises ValueError when that many months from ``first_month`` run past the fiscal year's last month."""
    position = (first_month - fiscal_first_month) % 12  # 0 for the fiscal year's first month
    if position + events > 12:
        last = calendar.month_name[(fiscal_first_month - 2) % 12 + 1]
        raise ValueError(
            f"{events} events, one a month from {calendar.month_name[first_month]}, run past {last}, "
            "the last month of the season"
        )
    return [[(first_month - 1 + i) % 12 + 1, nth] for i in range(events)]


_ORDINALS = ("first", "second", "third", "fourth", "fifth")
_COUNTS = {2: "two", 3: "three", 4: "four", 5: "five"}


def _and(words: Sequence[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def schedule_words(schedule: Sequence[Sequence[int]], weekday: int = SATURDAY) -> str:
    """The schedule rule as people say it: 'the fourth Saturday (the second in November and December, two in
    February)'. The usual day is the one most events fall on; months with more than one event are counted."""
    if not schedule:
        return ""
    per_month = Counter(month for month, _n in schedule)
    usual = Counter(n for _month, n in schedule).most_common(1)[0][0]
    other: dict[int, list[str]] = {}
    for month, n in schedule:
        if per_month[month] == 1 and n != usual:
            other.setdefault(n, []).append(calendar.month_name[month])
    exceptions = [f"the {_ORDINALS[n - 1]} in {_and(months)}" for n, months in other.items()]
    exceptions += [
        f"{_COUNTS.get(count, count)} in {calendar.month_name[month]}"
        for month, count in per_month.items()
        if count > 1
    ]
    words = f"the {_ORDINALS[usual - 1]} {WEEKDAYS[weekday]}"
    return f"{words} ({', '.join(exceptions)})" if exceptions else words
