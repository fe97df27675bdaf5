"""Reads shared by the parts of one GET request (ncpc.cache.read_once) and rule tables read when first used
(events.selectors.RuleRows): fewer queries, never stale data."""

import pickle
from decimal import Decimal

import pytest
from django.db import connection
from django.http import HttpResponse
from django.test import RequestFactory
from django.test.utils import CaptureQueriesContext

from events.models import DuesInstallment
from events.selectors import season_rules
from members.selectors import season_memberships
from ncpc.audit import audit_record
from ncpc.cache import DataVersionMiddleware, _reads, read_once

pytestmark = pytest.mark.django_db


@pytest.fixture
def in_a_get_request():
    """What ncpc.cache.DataVersionMiddleware sets up while a GET request runs."""
    token = _reads.set({})
    yield
    _reads.reset(token)


def test_outside_a_request_every_call_reads(season):
    calls = []
    read_once("x", lambda: calls.append(1))
    read_once("x", lambda: calls.append(1))
    assert calls == [1, 1]


def test_a_get_request_reads_once_until_something_changes(in_a_get_request, season):
    calls = []
    assert read_once("x", lambda: calls.append(1) or "first") == "first"
    assert read_once("x", lambda: calls.append(1) or "second") == "first"
    assert calls == [1]
    audit_record(actor=None, action="test", summary="a change")
    assert read_once("x", lambda: calls.append(1) or "third") == "third"
    assert calls == [1, 1]


def test_the_parts_of_a_page_share_the_seasons_memberships(in_a_get_request, season, member):
    with CaptureQueriesContext(connection) as queries:
        first = season_memberships(season=season)
        again = season_memberships(season=season)
    assert len(queries) == 1
    assert [m.person for m in first] == [m.person for m in again] == [member.person]
    again.clear()  # a caller's own copy: the next caller still gets every membership
    assert len(season_memberships(season=season)) == 1


def test_only_a_get_request_shares_its_reads():
    """A write (POST) reads what it changes from the database, never a copy made earlier in the request."""
    seen = []

    def view(request):
        seen.append(_reads.get())
        return HttpResponse("ok")

    middleware = DataVersionMiddleware(view)
    middleware(RequestFactory().post("/"))
    middleware(RequestFactory().get("/"))
    assert seen == [None, {}]
    assert _reads.get() is None  # nothing is left behind for the next request


def test_a_rule_table_is_read_when_first_used(season):
    rules = season_rules(season)
    with CaptureQueriesContext(connection) as queries:
        schedule = list(rules.dues_schedule)
        list(rules.dues_schedule)
    assert len(queries) == 1
    # The bylaws' schedule: $110 at the first event, then $100 at each of the next four ($510 in all).
    assert schedule == [(1, Decimal("110.00"))] + [(n, Decimal("100.00")) for n in (2, 3, 4, 5)]


def test_a_lazy_table_equals_the_same_rows_read_at_once_and_pickles(season):
    lazy = season_rules(season)
    now = season_rules(season, now=True)
    assert isinstance(now.wsop_table, tuple)
    assert lazy == now
    assert hash(lazy) == hash(now)
    copied = pickle.loads(pickle.dumps(lazy))  # the computed cache pickles what it keeps
    assert copied.payout_table == now.payout_table


def test_rules_read_now_outlive_the_seasons_rows(season):
    """A season replaced from a file keeps the rules it had: they are read before its rows go."""
    rules = season_rules(season, now=True)
    DuesInstallment.objects.filter(season=season).delete()
    assert rules.dues_schedule[0] == (1, Decimal("110.00"))
