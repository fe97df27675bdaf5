"""Queries per page are pinned, and are the same for a 10-member and a 20-member season (no N+1 queries).

The season is imported from a season file (every member pays and plays all 10 events); the visitor is m01,
a plain member. These are the counts of a cold request (nothing cached: the first visit after any change);
the target is at most 15 (issue 9). A page reads the season's events, memberships and rules (all four tables in
one query) once and passes them to the parts that need them. Warm,
every main page needs 3 to 5 queries: tests/ncpc/test_cache.py pins those.
"""

import pytest
from django.conf import settings

from members.models import Person
from ncpc.services.season_import import season_import
from tests.factories import UserFactory
from tests.ncpc.season_files import season_file

pytestmark = pytest.mark.django_db

TARGET = 15

# Every logged-in page starts with: session, user, and one query for permissions, the navigation and "who is
# this" (the user's person, offices held and seat held today, members.selectors.login_standing) = 3 queries.
# The counts are exact, so that a read added or saved shows here (and the comment says which).
PAGES = [
    # about: the 3 above + the current season, its rules (the page shows them) = 5 (the benchmark's
    # logged-in floor is /reports/, the 3 alone).
    ("/about/", 5),
    # home: 3 + current season, its events, memberships (with their people), rules (four tables in one
    # query), open ballots, My dues (the seat's payments with reversals, waivers and suspensions in one
    # query), the standings panel (the season's places, tie-breaks with WSOP declines in one query), the
    # member's answer for the next event (who's coming, with the substitutes and exemption left) = 12.
    ("/", 12),
    # standings: 3 + seasons (the menu), rules, events, places, memberships, tie-breaks with declines = 9.
    ("/standings/2026-27/", 9),
    # schedule: 3 + seasons (the menu), the season's events with their venues = 5.
    ("/events/2026-27/", 5),
    # event 4: 3 + the event with its season, rules (payout table), its seats with placings, the
    # memberships (the roster, for the payout row) = 7.
    ("/events/2026-27/4/", 7),
    # monthly report: 3 + season, every account's sums (the month, the season to date, whether the month is
    # closed, the escrow move; one grouped query), rules, memberships, the season's payments, waivers,
    # suspensions and event dates (one query) = 8.
    ("/finance/reports/2026/11/", 8),
    # JSON report: 3 + season, rules, events, memberships, placings (with people and prizes, for the
    # payouts; the standings take their places from them), tie-breaks with declines, the season's money (one
    # query), WSOP results = 11.
    ("/api/v1/seasons/2026-27/report", 11),
]

assert all(most <= TARGET for _url, most in PAGES)


@pytest.fixture(params=[10, 20], ids=["10 members", "20 members"])
def imported_member_client(request, client, today):
    season_import(data=season_file(request.param))
    user = UserFactory(username="m01")
    Person.objects.filter(key="m01").update(user=user)
    client.force_login(user)
    return client


@pytest.mark.parametrize(("url", "most"), PAGES, ids=[url for url, _ in PAGES])
def test_a_page_needs_the_same_few_queries_for_a_small_and_a_large_season(
    imported_member_client, django_assert_num_queries, django_assert_max_num_queries, url, most
):
    imported_member_client.get(url)  # the counted visit is the second
    # Cold (the suite's default): exactly these. With NCPC_TEST_CACHE=on the second visit is warm and needs
    # fewer (tests/ncpc/test_cache.py pins those): these are its upper bound.
    assert_queries = (
        django_assert_max_num_queries if settings.NCPC_COMPUTED_CACHE else django_assert_num_queries
    )
    with assert_queries(most):
        response = imported_member_client.get(url)
    assert response.status_code == 200
