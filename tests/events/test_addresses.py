"""events.addresses.address: reverse()'s answer for season and event pages, from one reverse() per view."""

import pytest
from django.urls import NoReverseMatch, reverse, set_script_prefix

from events.addresses import address

VIEWS = [
    ("events:schedule", ("2026-27",)),
    ("events:event", ("2026-27", 3)),
    ("events:event", ("1999-00", 12345)),
    ("events:results", ("2026-27", 10)),
    ("events:rsvp", ("2031-32", 1)),
    ("event_sheet", ("2026-27", 4)),
    ("finance:door_list", ("2026-27", 4)),
    ("standings:season", ("2026-27",)),
    ("standings:history", ()),
]


@pytest.mark.parametrize(("name", "args"), VIEWS)
def test_the_same_address_as_reverse(name, args):
    assert address(name, *args) == reverse(name, args=args)


def test_under_a_script_prefix_too():
    set_script_prefix("/club/")
    try:
        assert address("events:event", "2026-27", 3) == reverse("events:event", args=["2026-27", 3])
        assert address("events:event", "2026-27", 3).startswith("/club/")
    finally:
        set_script_prefix("/")
    assert address("events:event", "2026-27", 3) == "/events/2026-27/3/"


def test_what_is_not_a_season_name_or_a_number_goes_through_reverse():
    with pytest.raises(NoReverseMatch):
        address("events:event", "not-a-season", 3)
    with pytest.raises(NoReverseMatch):
        address("events:event", "2026-27", -1)


@pytest.mark.parametrize(("year", "month"), [(2026, 12), (2027, 1), (987654322, 987654321), (1, 2)])
def test_several_numbers(year, month):
    assert address("finance:report", year, month) == reverse("finance:report", args=[year, month])
