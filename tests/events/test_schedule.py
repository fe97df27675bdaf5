import datetime as dt

import pytest

from events.bylaws import BYLAWS_RULES
from events.services.schedule import nth_saturday, schedule_dates, schedule_words


def test_2026_27_schedule_matches_the_spec():
    dates = schedule_dates(season_start=dt.date(2026, 8, 1), schedule=BYLAWS_RULES.schedule)
    assert dates == [
        dt.date(2026, 8, 22),
        dt.date(2026, 9, 26),
        dt.date(2026, 10, 24),
        dt.date(2026, 11, 14),
        dt.date(2026, 12, 12),
        dt.date(2027, 1, 23),
        dt.date(2027, 2, 13),
        dt.date(2027, 2, 27),
        dt.date(2027, 3, 27),
        dt.date(2027, 4, 24),
    ]


def test_every_scheduled_date_is_a_saturday_in_its_fiscal_year():
    for year in range(2024, 2040):
        dates = schedule_dates(season_start=dt.date(year, 8, 1), schedule=BYLAWS_RULES.schedule)
        assert all(d.weekday() == 5 for d in dates)
        assert dt.date(year, 8, 1) <= min(dates) and max(dates) <= dt.date(year + 1, 7, 31)
        assert dates == sorted(dates)


def test_a_fifth_saturday_that_does_not_exist_is_refused():
    with pytest.raises(ValueError, match="no Saturday number 5"):
        nth_saturday(year=2026, month=2, n=5)


@pytest.mark.django_db
def test_a_new_season_gets_its_ten_events(season):
    events = list(season.events.order_by("number"))
    assert [e.number for e in events] == list(range(1, 11))
    assert events[3].date == dt.date(2026, 11, 14)
    assert all(e.starts_at == dt.time(19, 0) for e in events)


@pytest.mark.parametrize(
    ("schedule", "words"),
    [
        (
            BYLAWS_RULES.schedule,
            "the fourth Saturday (the second in November and December, two in February)",
        ),
        (((8, 4), (9, 4), (10, 4)), "the fourth Saturday"),
        (((8, 2), (9, 2), (10, 1), (10, 3)), "the second Saturday (two in October)"),
        (((8, 1), (9, 3), (10, 3), (11, 3)), "the third Saturday (the first in August)"),
        ((), ""),
    ],
)
def test_the_schedule_rule_is_said_in_words(schedule, words):
    assert schedule_words(schedule) == words


def _season_menu(**context) -> str:
    from django.template.loader import render_to_string

    return render_to_string("events/partials/season_menu.html", context)


def test_a_season_menu_links_every_season_as_reverse_would(db):
    from types import SimpleNamespace

    from django.urls import reverse

    seasons = [SimpleNamespace(name=name) for name in ("2027-28", "2026-27", "1999-00")]
    for url_name in ("standings:season", "events:schedule"):
        html = _season_menu(url_name=url_name, seasons=seasons, label="Season")
        for s in seasons:
            assert f'<a class="dropdown-item" href="{reverse(url_name, args=[s.name])}">{s.name}</a>' in html


def test_the_season_dropdown_lists_every_season_and_is_left_out_for_one(db):
    from types import SimpleNamespace

    seasons = [SimpleNamespace(name=name) for name in ("2027-28", "2026-27")]
    html = _season_menu(url_name="standings:season", seasons=seasons, label="Season")
    assert html.count('class="dropdown-item"') == 2
    assert (
        '<a class="dropdown-item" href="/standings/2027-28/">2027-28</a>' in html
        and ">Season</button>" in html
        and '<div class="dropdown">' in html
    )
    assert _season_menu(url_name="standings:season", seasons=seasons[:1], label="Season").strip() == ""
