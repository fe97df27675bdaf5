"""Queries per page are pinned, and are the same for a 10-member and a 20-member season (no N+1 queries).

The season is imported from a season file (every member pays and plays all 10 events); the visitor is m01,
a plain member. These are the counts of a cold request (nothing cached: the first visit after any change);
the target is at most 15 (issue 9). A page reads the season's events, memberships and rules (all four tables in
one query) once and passes them to the parts that need them. Warm,
every main page needs 3 to 5 queries: tests/ncpc/test_cache.py pins those.
"""

import pytest

from members.models import Person
from ncpc.services.season_import import season_import
from tests.factories import UserFactory
from tests.ncpc.season_files import season_file

pytestmark = pytest.mark.django_db

TARGET = 15

# Every logged-in page starts with: session, user, and one query for permissions, the navigation and "who is
# this" (the user's person, offices held and seat held today, members.selectors.login_standing) = 3 queries.
PAGES = [
    # about: the 3 above + the current season and its dues schedule (the page shows the season's rules) = 5
    # (the benchmark's logged-in floor).
    ("/about/", 5),
    # home: 3 + current season, its events (the next event, the dues dates and the counted events), open
    # ballots, the season's memberships (the viewer's seat and its holders, the standings), My dues: payments
    # (with reversals), waivers, dues schedule, suspension; standings panel: placings, tie-breaks, WSOP table;
    # the member's answer for the next event (who's coming, with the substitutes and exemption left) = 15.
    ("/", 15),
    # standings: 3 + seasons (the menu), the season's events, its rules (one query for every table), placings,
    # memberships, tie-breaks, WSOP declines = 10.
    ("/standings/2026-27/", 10),
    # schedule: 3 + season, events with venues, and the page's few reads.
    ("/events/2026-27/", TARGET),
    # event 4: 3 + the event with its season, its attendances and placings, and the payout lines (rules, the
    # roster).
    ("/events/2026-27/4/", TARGET),
    # monthly report: 3 + accounts, one grouped sum of the month's entries, season, its events (dates),
    # memberships, payments, waivers, dues schedule, suspensions, WSOP table, the escrow posting, whether the
    # month is closed = 15 (the grouped sum also gives income and expenses by category).
    ("/finance/reports/2026/11/", 15),
    # JSON report: 3 + season, events, placings, memberships, tie-breaks, WSOP table, payout table, payments,
    # waivers, dues schedule, suspensions, WSOP results = 15.
    ("/api/v1/seasons/2026-27/report", TARGET),
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
    imported_member_client, django_assert_max_num_queries, url, most
):
    imported_member_client.get(url)  # the counted visit is the second
    with django_assert_max_num_queries(most):
        response = imported_member_client.get(url)
    assert response.status_code == 200
