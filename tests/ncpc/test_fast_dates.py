"""The pages' date and time filters (ncpc.templatetags.fast_dates) give Django's text, for every format the
templates use and more, on dates, naive and aware datetimes and times."""

import datetime as dt
import re
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from django.conf import settings
from django.template import Context, Template, defaultfilters
from django.utils import translation

from ncpc.templatetags import fast_dates

TEMPLATES = Path(settings.BASE_DIR) / "templates"


def _used(filter_name: str) -> set[str]:
    found = set()
    for path in TEMPLATES.rglob("*.html"):
        found |= set(re.findall(rf'\|{filter_name}:"([^"]*)"', path.read_text()))
    return found


DATE_FORMATS = _used("date") | {"Y-m-d", "n/j/Y", "D, d M Y", "N j, Y", "jS F", "e", "\\Y Y", "c"}
TIME_FORMATS = _used("time") | {"g:i a", "H:i:s", "P", "G"}
NY = ZoneInfo("America/New_York")
DAYS = [dt.date(2026, 1, 1) + dt.timedelta(days=n * 37) for n in range(25)] + [
    dt.date(2027, 2, 28),
    dt.date(1999, 12, 31),
]
MOMENTS = [
    dt.datetime(2026, 12, 12, hour, minute, second)
    for hour, minute, second in [
        (0, 0, 0),
        (0, 5, 9),
        (11, 59, 59),
        (12, 0, 0),
        (12, 30, 1),
        (19, 5, 0),
        (23, 59, 0),
    ]
]


def _outcome(function, value, fmt):
    try:
        return function(value, fmt)
    except Exception as exc:  # Django's filter raises for a time format on a date: the same must happen
        return type(exc)


def test_the_templates_use_formats_this_test_covers():
    assert {"M j, Y", "M j", "F Y", "l, F j", "D M j"} <= DATE_FORMATS and "g:i A" in TIME_FORMATS


@pytest.mark.parametrize("fmt", sorted(DATE_FORMATS))
def test_date_gives_djangos_text(fmt):
    values = [*DAYS, *MOMENTS, *[m.replace(tzinfo=NY) for m in MOMENTS], None, "", "not a date", 3]
    for value in values:
        assert _outcome(fast_dates.date, value, fmt) == _outcome(defaultfilters.date, value, fmt), (
            fmt,
            value,
        )


@pytest.mark.parametrize("fmt", sorted(TIME_FORMATS))
def test_time_gives_djangos_text(fmt):
    values = [
        *MOMENTS,
        *[m.time() for m in MOMENTS],
        *[m.replace(tzinfo=NY) for m in MOMENTS],
        None,
        "",
        DAYS[0],
    ]
    for value in values:
        assert _outcome(fast_dates.time, value, fmt) == _outcome(defaultfilters.time, value, fmt), (
            fmt,
            value,
        )


def test_the_pages_get_these_filters_and_aware_times_in_the_clubs_time_zone():
    moment = dt.datetime(2026, 12, 13, 1, 30, tzinfo=dt.UTC)  # 8:30 p.m. on Dec 12 in Cincinnati
    text = Template('{{ t|date:"M j, g:i a" }} {{ t|time:"g:i A" }}').render(Context({"t": moment}))
    assert text == "Dec 12, 8:30 p.m. 8:30 PM"
    assert Template("{{ t|date:'M j' }}").engine.template_builtins[-1].filters["date"] is fast_dates.date


def test_another_language_goes_to_django():
    with translation.override("de"):
        assert fast_dates.date(dt.date(2026, 3, 1), "F") == defaultfilters.date(dt.date(2026, 3, 1), "F")


def test_date_text_for_the_html_built_in_python():
    from ncpc.dates import date_text

    assert date_text(dt.date(2026, 12, 12), "D M j, Y") == "Sat Dec 12, 2026"
    assert date_text(dt.time(19, 0), "g:i A") == "7:00 PM"
    assert date_text(dt.datetime(2026, 12, 2, 2, 35), "M j, g:i a") == "Dec 2, 2:35 a.m."
    # A letter not handled here goes to Django's formatter.
    assert date_text(dt.date(2026, 12, 12), "jS F") == defaultfilters.date(dt.date(2026, 12, 12), "jS F")
    assert date_text(dt.time(19, 5), "G:i") == defaultfilters.time(dt.time(19, 5), "G:i")
