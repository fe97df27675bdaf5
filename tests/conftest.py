import datetime as dt
import os

import pytest
import time_machine

from ncpc.core.cache import computed_forget
from tests.factories import member_user, season_make


@pytest.fixture
def today():
    """Freeze the clock in the middle of the 2026-27 season (after the November event)."""
    with time_machine.travel(dt.datetime(2026, 11, 29, 12, 0, tzinfo=dt.UTC), tick=False):
        yield dt.date(2026, 11, 29)


@pytest.fixture
def season(db):
    return season_make(2026)


@pytest.fixture
def member(db, season, today):
    return member_user(season=season, username="member1")


@pytest.fixture
def president(db, season, today):
    return member_user(season=season, username="pres", office="president")


@pytest.fixture
def vice_president(db, season, today):
    return member_user(season=season, username="vp", office="vice_president")


@pytest.fixture
def treasurer(db, season, today):
    return member_user(season=season, username="treas", office="treasurer")


@pytest.fixture
def member_client(client, member):
    client.force_login(member)
    return client


@pytest.fixture
def officer_client(client, vice_president):
    client.force_login(vice_president)
    return client


def _cache_mode() -> bool:
    value = os.environ.get("NCPC_TEST_CACHE", "off")
    if value not in ("on", "off"):
        raise pytest.UsageError(f"NCPC_TEST_CACHE is 'on' or 'off', not {value!r}.")
    return value == "on"


# NCPC_TEST_CACHE=on runs tests with the computed-page cache on, as in production (.ci/run runs the page tests
# so). The cache is used only outside transactions, so those tests then run in real, committed transactions.
CACHE_ON = _cache_mode()


def pytest_collection_modifyitems(config, items):
    if not CACHE_ON:
        return
    for item in items:
        if "db" in item.fixturenames or item.get_closest_marker("django_db"):
            item.add_marker(pytest.mark.django_db(transaction=True), append=False)


@pytest.fixture(autouse=True)
def computed_cache(settings):
    """Off by default: tests change data behind the services' backs (monkeypatched selectors) and count the
    queries of a cold page. With NCPC_TEST_CACHE=on, on, and empty at the start of each test.
    tests/ncpc/test_cache.py turns the cache on to test it."""
    settings.NCPC_COMPUTED_CACHE = CACHE_ON
    settings.NCPC_STAMPED_CACHE = CACHE_ON
    if CACHE_ON:
        computed_forget()
