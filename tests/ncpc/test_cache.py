"""The computed-page cache (ncpc/cache.py): fewer queries on a repeat visit, fresh data after any change."""

import datetime as dt
from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from finance.services.payments import payment_record

# Cached values are used only outside transactions, so these tests run without the usual test transaction.
pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def cache_on(settings):
    from django.core.cache import cache

    settings.NCPC_COMPUTED_CACHE = True
    cache.clear()
    yield
    cache.clear()


def count_queries(client, url) -> int:
    with CaptureQueriesContext(connection) as queries:
        assert client.get(url).status_code == 200
    return len(queries)


def test_a_repeat_visit_computes_nothing_again(cache_on, member_client):
    first = count_queries(member_client, "/finance/me/")
    second = count_queries(member_client, "/finance/me/")
    assert second < first


def test_a_payment_shows_at_once_on_the_next_page(cache_on, member_client, member, treasurer):
    # Nothing paid by Nov 29: $410 is due through the November event (§2.8).
    assert "$410.00" in member_client.get("/").content.decode()
    payment_record(
        membership=member.person.memberships.get(),
        date=dt.date(2026, 11, 29),
        amount=Decimal("410.00"),
        method="cash",
        actor=treasurer,
    )
    html = member_client.get("/").content.decode()
    assert "$0.00" in html
    assert "Good standing" in html


def test_writing_an_audit_row_moves_the_data_version_on(cache_on):
    from ncpc.audit import audit_record
    from ncpc.cache import data_version

    before = data_version()
    audit_record(actor=None, action="test", summary="a change")
    assert data_version() != before


def test_a_change_in_the_django_admin_moves_the_data_version_on_too(cache_on, admin_client):
    from ncpc.cache import data_version, data_version_forget

    before = data_version()
    admin_client.post(
        "/admin/events/venue/add/", {"name": "New hall", "address": "1 Main St", "active": "on"}
    )
    data_version_forget()
    assert data_version() != before


@pytest.mark.parametrize(
    ("url", "most"),
    [
        # Every page: session, user, data version = 3; permissions, rules and computations come from the cache.
        ("/", 3),  # the viewer's person (greeting) is cached with the permissions
        ("/standings/2026-27/", 3),  # the seasons (menu) are cached; the viewer's row is found by login
        ("/events/2026-27/", 5),  # + the season, its events with venues
        ("/events/2026-27/4/", 3),
        ("/finance/reports/2026/11/", 3),
        ("/api/v1/seasons/2026-27/report", 4),  # + the season of the address
    ],
)
def test_with_the_cache_warm_every_main_page_needs_at_most_a_few_queries(
    cache_on, client, url, most, django_assert_max_num_queries
):
    from members.models import Person
    from ncpc.services.season_import import season_import
    from tests.factories import UserFactory
    from tests.ncpc.season_files import season_file

    season_import(data=season_file(20))
    user = UserFactory(username="m01")
    Person.objects.filter(key="m01").update(user=user)
    client.force_login(user)
    client.get(url)  # computes and fills the cache
    with django_assert_max_num_queries(most):
        assert client.get(url).status_code == 200
