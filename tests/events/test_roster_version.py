"""The seasons, and a season's memberships and events, are kept in memory under the roster version
(ncpc.core.cache.roster_kept), read with the data version: read once while only payments change, read again as
soon as a season, a membership, a person, an event or a venue changes, by any path."""

import datetime as dt

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from events.models import Event, Season, WsopRow
from events.selectors import (
    current_season,
    season_events,
    season_for_date,
    season_named,
    season_rules,
    seasons_all,
)
from events.services.seasons import events_generate
from members.models import Membership
from members.selectors import season_memberships
from members.services.purge import members_season_purge
from members.services.roster_import import RosterLine, roster_import
from ncpc.core.audit import audit_record
from ncpc.core.cache import data_version, data_version_forget, roster_version
from ncpc.core.models import DataVersion
from tests.factories import MembershipFactory, PersonFactory, VenueFactory, season_make

# The stamped cache is used only outside transactions, like the computed one.
pytestmark = pytest.mark.django_db(transaction=True)


def fresh(season_id: int) -> Season:
    """The season row as a page reads it, afresh."""
    return Season.objects.get(pk=season_id)


def names(season_id: int) -> list[str]:
    return [m.person.last_name for m in season_memberships(season=fresh(season_id))]


def queries(read) -> int:
    """Queries of ``read`` as a new request makes them: the version read again first (as the middleware does)."""
    data_version_forget()
    with CaptureQueriesContext(connection) as captured:
        read()
    return len(captured)


def test_memberships_and_events_are_read_once_while_other_data_changes(stamped_on):
    season = season_make()
    MembershipFactory(season=season)
    assert queries(lambda: season_memberships(season=fresh(season.pk))) == 3  # the season, the version, seats
    assert queries(lambda: season_events(season=fresh(season.pk))) == 3
    # Any other change of the club's data (every command writes an audit row) leaves them where they are.
    audit_record(actor=None, action="test.change", target=season, summary="a payment, say")
    assert queries(lambda: season_memberships(season=fresh(season.pk))) == 2  # the season row, the version
    assert queries(lambda: season_events(season=fresh(season.pk))) == 2


def test_the_roster_version_moves_with_the_roster_only_and_at_commit(stamped_on):
    season = season_make()
    before = (data_version(), roster_version())
    audit_record(actor=None, action="test.change", target=season, summary="a payment, say")
    data_version_forget()
    assert roster_version() == before[1] and data_version() != before[0]
    with transaction.atomic():
        MembershipFactory(season=season)
        # Not yet: the counter row is written as the transaction's last statement, as for the data version.
        assert DataVersion.objects.get(pk=1).roster == int(before[1])
    # One UPDATE of the one counter row moved both; the roster version is the data version of that change.
    assert roster_version() == data_version() != before[1]


def test_an_admission_a_departure_and_a_rename_are_seen_at_once(stamped_on):
    season = season_make()
    first = MembershipFactory(season=season, person=PersonFactory(last_name="Adams"))
    assert names(season.pk) == ["Adams"]
    MembershipFactory(season=season, person=PersonFactory(last_name="Baker"))
    assert names(season.pk) == ["Adams", "Baker"]
    first.left_after_event = 2
    first.save()
    assert [m.left_after_event for m in season_memberships(season=fresh(season.pk))] == [2, None]
    person = first.person
    person.last_name = "Zane"
    person.save()
    assert names(season.pk) == ["Baker", "Zane"]
    Membership.objects.get(pk=first.pk).delete()
    assert names(season.pk) == ["Baker"]


def test_an_event_and_its_venue_changed_are_seen_at_once(stamped_on):
    season = season_make()
    venue = VenueFactory(name="The Back Room")
    event = Event.objects.get(season=season, number=3)
    season_events(season=fresh(season.pk))
    event.venue = venue
    event.date = dt.date(2026, 10, 17)
    event.save()
    third = season_events(season=fresh(season.pk))[2]
    assert (third.date, third.venue.name) == (dt.date(2026, 10, 17), "The Back Room")
    venue.name = "The Front Room"
    venue.save()
    assert season_events(season=fresh(season.pk))[2].venue.name == "The Front Room"


def test_the_bulk_writes_move_the_stamp_themselves(stamped_on):
    """bulk_create, bulk_update and update() send no signals: the services that use them move the stamp."""
    season = season_make()
    Event.objects.filter(season=season, number__gt=8).delete()
    assert len(season_events(season=fresh(season.pk))) == 8
    events_generate(season=fresh(season.pk))  # bulk_create of the missing events
    assert [e.number for e in season_events(season=fresh(season.pk))] == list(range(1, 11))

    known = PersonFactory(key="kim", last_name="", email="")
    assert names(season.pk) == []
    roster_import(
        season=fresh(season.pk),
        lines=[
            RosterLine(
                key="kim",
                first_name="Kim",
                last_name="Kowalski",
                date_of_birth=dt.date(1970, 5, 1),
                first_event=1,
            ),
            RosterLine(
                key="lee",
                first_name="Lee",
                last_name="Larsen",
                date_of_birth=dt.date(1971, 6, 2),
                first_event=1,
            ),
        ],
        actor=None,
        source="a test",
    )
    assert names(season.pk) == ["Kowalski", "Larsen"]  # the known person's blank name filled in (bulk_update)
    assert known.pk in {m.person_id for m in season_memberships(season=fresh(season.pk))}
    members_season_purge(season=fresh(season.pk))
    assert names(season.pk) == []


def test_each_caller_gets_its_own_copies_with_its_own_season(stamped_on):
    season = season_make()
    MembershipFactory(season=season)
    one, other = fresh(season.pk), fresh(season.pk)
    events = season_events(season=one)
    events[0].status = "changed in memory by a caller"
    again = season_events(season=other)
    assert again[0].status != "changed in memory by a caller"
    assert again[0].season is other and events[0].season is one
    assert season_memberships(season=other)[0].season is other


def test_two_seasons_keep_their_own(stamped_on):
    first, second = season_make(2026), season_make(2027)
    MembershipFactory(season=first, person=PersonFactory(last_name="Adams"))
    Event.objects.filter(season=second, number=10).delete()
    assert names(first.pk) == ["Adams"] and names(second.pk) == []
    assert len(season_events(season=fresh(first.pk))) == 10
    assert len(season_events(season=fresh(second.pk))) == 9


def test_a_season_read_before_a_change_in_the_same_request_sees_the_change(stamped_on):
    """A view that read the season, then ran a command, then renders: the change made this process read the
    versions again; and it forgets the rule tables kept under the old rules stamp, which the season object it
    holds still carries."""
    season = season_make()
    held = fresh(season.pk)
    assert season_memberships(season=held) == []
    wsop_rows = len(season_rules(held).wsop_table)
    MembershipFactory(season=season)
    Event.objects.filter(season=season, number=10).delete()
    WsopRow.objects.filter(season=season).first().delete()
    assert len(season_memberships(season=held)) == 1
    assert len(season_events(season=held)) == 9
    assert len(season_rules(held).wsop_table) == wsop_rows - 1


def test_the_seasons_are_read_once_while_other_data_changes_and_again_when_one_changes(stamped_on):
    season = season_make(2026)
    assert [s.name for s in seasons_all()] == ["2026-27"]
    assert queries(seasons_all) == 1  # the version alone
    audit_record(actor=None, action="test.change", target=season, summary="a payment, say")
    assert queries(lambda: (current_season(), season_named("2026-27"), season_for_date(season.start))) == 1
    later = season_make(2027)
    assert [s.name for s in seasons_all()] == ["2027-28", "2026-27"]  # newest first
    assert season_for_date(dt.date(2027, 9, 1)).pk == later.pk
    assert season_for_date(dt.date(2025, 9, 1)) is None
    renamed = fresh(season.pk)
    renamed.name = "2026-27x"
    renamed.save()
    assert season_named("2026-27") is None and season_named("2026-27x").pk == season.pk
    Event.objects.filter(season=later).delete()
    Season.objects.get(pk=later.pk).delete()
    assert [s.name for s in seasons_all()] == ["2026-27x"]


def test_a_rule_table_change_reaches_the_kept_seasons(stamped_on):
    """A rule table's change gives the season a new rules stamp with update(), which sends no signal: the kept
    seasons must carry the new stamp, since every process finds the season's rule tables under it."""
    season = season_make()
    before = season_named(season.name).rules_stamp
    WsopRow.objects.filter(season=season).first().delete()
    stamp = fresh(season.pk).rules_stamp
    assert stamp != before
    assert season_named(season.name).rules_stamp == stamp
    assert current_season().rules_stamp == stamp


def test_each_caller_gets_its_own_copy_of_a_season(stamped_on):
    season = season_make()
    seasons_all()[0].name = "changed in memory by a caller"
    assert season_named(season.name) is not None
    assert current_season() is not current_season()
