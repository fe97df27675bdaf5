"""SPEC §17.10: no model instance is kept in process memory between requests. Each read gives its caller
objects of its own, so what one caller changes on them never reaches the next caller."""

from pathlib import Path

import pytest

from events.models import PayoutRow
from events.selectors import season_events, season_rules, seasons_all
from members.selectors import season_memberships
from tests.factories import member_user

ROOT = Path(__file__).resolve().parents[2]

# Outside a test transaction, as a request reads (the removed caches kept values only outside one).
pytestmark = pytest.mark.django_db(transaction=True)


def test_a_person_changed_by_one_caller_is_not_the_next_callers_person(season, today):
    member_user(season=season, username="ann")
    first = season_memberships(season=season)
    first[0].person.first_name = "Changed"
    again = season_memberships(season=season)
    assert again[0].person.first_name != "Changed"
    assert again[0].person is not first[0].person


def test_a_season_changed_by_one_caller_is_not_the_next_callers_season(season):
    seasons_all()[0].name = "changed"
    assert [s.name for s in seasons_all()] == [season.name]


def test_an_event_changed_by_one_caller_is_not_the_next_callers_event(season):
    events = season_events(season=season)
    events[0].number = 99
    assert season_events(season=season)[0].number == 1


def test_a_rule_table_row_changed_in_the_database_shows_at_once(season):
    before = season_rules(season).payout_table
    row = season.payout_rows.order_by("member_count").first()
    # update() sends no signal: nothing may depend on one to see the change.
    PayoutRow.objects.filter(pk=row.pk).update(first=row.first + 1)
    assert season_rules(season).payout_table != before


def test_the_removed_in_process_caches_are_not_named_in_the_code():
    removed = ("roster_kept", "roster_version", "rules_stamp", "stamped(", "NCPC_COMPUTED_CACHE", "gc.freeze")
    found = []
    for package in ("ncpc", "events", "members", "finance", "standings", "bench", "templates"):
        for path in (ROOT / package).rglob("*"):
            if path.suffix not in (".py", ".html", ".js", "") or "migrations" in path.parts or path.is_dir():
                continue
            text = path.read_text(errors="replace")
            found += [f"{path.relative_to(ROOT)}: {name}" for name in removed if name in text]
    assert found == []
