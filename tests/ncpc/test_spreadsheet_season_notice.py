"""SPEC §17.2 and the members spreadsheet: imported into a season whose first months the Treasurer has closed,
the seats take effect on the first open month's first day, and the preview says so before the officer confirms.

The club (``september_closed``): season 2026-27, the clock Oct 6, 2027, July to September 2027 closed; season
2027-28 made with one event a month on the 4th Saturday from October (Oct 23, Nov 27, Dec 25, …)."""

import datetime as dt

import pytest

from events.services.seasons import season_create
from members.models import Membership
from tests.members.test_season_open_closed import OCTOBER_ON, september_closed  # noqa: F401 (the fixture)
from tests.ncpc.test_club_spreadsheets import confirm, upload

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("september_closed")]

NOTICE = (
    "The seats take effect on Oct 1, 2027: the months up to September 2027 are closed. A member whose first "
    "event is later takes effect on that event&#x27;s date."
)
SHEET = (
    "key,first_name,last_name,date_of_birth,first_event\n"
    "dan,Dan,Dunn,1980-05-01,1\n"
    "eve,Eve,Evans,1982-03-04,3\n"
)


def test_the_preview_says_the_seats_take_effect_on_october_1_and_the_import_dates_them_so(
    client, vice_president
):
    season_create(start_year=2027, **OCTOBER_ON)
    client.force_login(vice_president)
    preview = upload(client, "members", SHEET, season="2027-28")
    assert preview.status_code == 200
    assert NOTICE in preview.content.decode()
    assert not Membership.objects.filter(season__name="2027-28").exists()  # a preview writes nothing
    confirm(client, preview)
    seats = Membership.objects.filter(season__name="2027-28").order_by("person__key")
    assert [(m.person.key, m.first_event, m.joined_on) for m in seats] == [
        ("dan", 1, dt.date(2027, 10, 1)),
        ("eve", 3, dt.date(2027, 12, 25)),  # event 3's date
    ]


def test_the_preview_of_a_season_whose_first_day_is_open_says_nothing_of_it(client, vice_president):
    """2026-27 began on Aug 1, 2026, long before the closed months: its seats take effect as always."""
    client.force_login(vice_president)
    html = upload(client, "members", SHEET, season="2026-27").content.decode()
    assert "The seats take effect" not in html
    assert "New person and seat dan" in html
