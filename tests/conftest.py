import datetime as dt

import pytest
import time_machine

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
