"""Event dates from the season's schedule rule (SPEC §3), and the rule in words. Pure: values in, dates out."""

import calendar
import datetime as dt
from collections import Counter
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


_ORDINALS = ("first", "second", "third", "fourth", "fifth")
_COUNTS = {2: "two", 3: "three", 4: "four", 5: "five"}


def _and(words: Sequence[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def schedule_words(schedule: Sequence[Sequence[int]]) -> str:
    """The schedule rule as people say it: 'the fourth Saturday (the second in November and December, two in
    February)'. The usual Saturday is the one most events fall on; months with more than one event are counted."""
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
    words = f"the {_ORDINALS[usual - 1]} Saturday"
    return f"{words} ({', '.join(exceptions)})" if exceptions else words
