"""Queries per page are pinned, and are the same for a 10-member and a 20-member season, with 1 or 15 seasons
of history (no query per member, per season or per WSOP result).

The season is imported from a season file (every member pays and plays all 10 events), after the past seasons
with the same members and all their results; the visitor is m01, a plain member. Nothing is kept between
requests (SPEC §17.10), so every visit makes these queries; the target is at most 15 (issue 44). A page reads the
season's events, memberships and rules (all four tables in one query) once and passes them to the parts that
need them.
"""

import datetime as dt

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from events.models import Attendance, Event, Season
from finance.services.month_closing import month_close
from members.models import Membership, OfficerTerm, Person
from ncpc.club.services.season_import import season_import
from tests.factories import OfficerTermFactory, UserFactory, season_make
from tests.ncpc.season_files import member_keys, season_file

pytestmark = pytest.mark.django_db

TARGET = 15

# Every logged-in page starts with: the club's identity (its time zone, for the whole request), session, user, and one query for permissions, the navigation and "who is this" (the user's
# person, offices held and seat held today, members.selectors.login_standing) = 4 queries.
# The counts are exact, so that a read added or saved shows here (and the comment says which).
PAGES = [
    # about: the 4 above + the current season, its rules (the page shows them) = 6 (the benchmark's
    # logged-in floor is /reports/, the 4 alone).
    ("/about/", 6),
    # home: 4 + current season, its events, memberships (with their people), rules (four tables in one
    # query), open ballots, My dues (the seat's payments with reversals, waivers and suspensions in one
    # query), the standings panel (the season's places, tie-breaks with WSOP declines in one query), the
    # member's answer for the next event (who's coming, with the substitutes and exemption left) = 13.
    ("/", 13),
    # standings: 4 + seasons (the menu), rules, events, places, memberships, tie-breaks with declines = 10.
    ("/standings/2026-27/", 10),
    # schedule: 4 + seasons (the menu), the season's events with their venues = 6.
    ("/events/2026-27/", 6),
    # event 4: 4 + the event with its season, rules (payout table), its seats with placings, the
    # memberships (the roster, for the payout row), the places it had when its closed month was corrected
    # (the first correction's audit row, none here) = 9.
    ("/events/2026-27/4/", 9),
    # monthly report: 4 + the month's closing with its kept report (SPEC §17.1: a closed month's page is built
    # from it and reads nothing more; November is open here) and the earlier months' closings, season (with the
    # day its seats took effect), the accounts (with whether the month is closed, the escrow move, the day the
    # books start, the ledger's first transaction), the month's entries with the other entries' sums by
    # account (one UNION ALL; which transactions are transfers shows in the entries), rules, memberships,
    # events (their dates, for the dues), the season's payments, waivers and suspensions (one query), the
    # places of the month's final event (Nov 14, for the payouts table), the month's bank statements, the bank
    # accounts with something kept for the month (one UNION; nothing more when none) = 15.
    ("/finance/reports/2026/11/", 15),
    # JSON report: 4 + season, rules, events, memberships, placings (with people and prizes, for the
    # payouts; the standings take their places from them), tie-breaks with declines, the season's money (one
    # query), WSOP results (with their people; the splits use the rules and memberships above) = 12.
    ("/api/v1/seasons/2026-27/report", 12),
]

assert all(most <= TARGET for _url, most in PAGES)


def history_make(*, seasons: int, keys: list[str]) -> None:
    """``seasons`` finished seasons before 2026-27, each with these members (the same people), all ten events
    final and every seat placed: what a club's history looks like to the pages (bulk-written: importing each
    season through its file took seconds a season)."""
    people = {p.key: p for p in Person.objects.filter(key__in=keys)}
    for year in range(2026 - seasons, 2026):
        past = season_make(year)
        seats = Membership.objects.bulk_create(
            Membership(person=people[key], season=past, joined_on=past.start) for key in keys
        )
        events = list(past.events.order_by("number"))
        Attendance.objects.bulk_create(
            Attendance(event=event, membership=seat, place=(i + event.number) % len(seats) + 1)
            for event in events
            for i, seat in enumerate(seats)
        )
        past.events.update(status=Event.Status.FINAL)


@pytest.fixture(
    params=[(10, 1), (20, 1), (10, 15), (20, 15)],
    ids=["10 members, 1 season", "20 members, 1 season", "10 members, 15 seasons", "20 members, 15 seasons"],
)
def imported_member_client(request, client, today):
    members, seasons = request.param
    season_import(data=season_file(members))
    history_make(seasons=seasons - 1, keys=member_keys(members))
    assert Season.objects.count() == seasons
    user = UserFactory(username="m01")
    Person.objects.filter(key="m01").update(user=user)
    client.force_login(user)
    return client


def test_every_page_needs_the_same_few_queries_for_a_small_and_a_large_season(imported_member_client):
    """Each page of PAGES visited twice, the second visit counted; one club of each size for all the pages
    (building it is most of the test's time)."""
    counted: dict[str, int] = {}
    made: dict[str, list[str]] = {}
    for url, most in PAGES:
        imported_member_client.get(url)  # the counted visit is the second
        with CaptureQueriesContext(connection) as queries:
            response = imported_member_client.get(url)
        assert response.status_code == 200, url
        counted[url] = len(queries)
        if len(queries) != most:
            made[url] = [query["sql"] for query in queries.captured_queries]
    assert counted == dict(PAGES), "\n\n".join(f"{url}:\n" + "\n".join(sql) for url, sql in made.items())


# The Treasurer's page of a past month still open that can be closed (October 2026: its event of Oct 24 is
# final; August and September are closed, so the page offers "Close the month"): the monthly report's 15 above,
# the month's closing read with the earlier months' closings (not their kept reports) in its one query, the
# books' first month with the accounts (their ledger's first transaction), the places of the month's final
# event = 15. Whether an earlier month is still open (SPEC §16.1: the page then lists it instead of the button)
# is worked out from those two, with no query of its own.
CLOSABLE_MONTH = ("/finance/reports/2026/10/", 15)


@pytest.fixture(
    params=[(10, 1), (20, 1), (10, 15), (20, 15)],
    ids=["10 members, 1 season", "20 members, 1 season", "10 members, 15 seasons", "20 members, 15 seasons"],
)
def imported_treasurer_client(request, client, today):
    """The imported club of ``imported_member_client``, m01 its Treasurer, August and September 2026 closed."""
    members, seasons = request.param
    season_import(data=season_file(members))
    history_make(seasons=seasons - 1, keys=member_keys(members))
    user = UserFactory(username="m01")
    person = Person.objects.get(key="m01")
    person.user = user
    person.save(update_fields=["user"])
    OfficerTermFactory(
        person=person,
        office=OfficerTerm.Office.TREASURER,
        start=dt.date(2026, 6, 1),
        end=dt.date(2027, 5, 31),
    )
    for month in (dt.date(2026, 8, 1), dt.date(2026, 9, 1)):
        month_close(day=month, actor=user)
    client.force_login(user)
    return client


def test_the_treasurers_page_of_a_month_to_close_needs_no_more_queries(imported_treasurer_client):
    url, most = CLOSABLE_MONTH
    imported_treasurer_client.get(url)  # the counted visit is the second
    with CaptureQueriesContext(connection) as queries:
        response = imported_treasurer_client.get(url)
    assert response.status_code == 200
    assert b"/finance/reports/2026/10/close/" in response.content
    assert b"Months close in order" not in response.content
    assert len(queries) == most, "\n".join(query["sql"] for query in queries.captured_queries)


def finished_season_file(*, wsop_results: list[str]) -> dict:
    """2025-26 with 20 members, m01 first at every event, m02 second …: m01, m02 and m03 qualify for the WSOP
    (three prizes for 20 members), m01 declines and m04 goes instead. ``wsop_results``: who recorded winnings."""
    data = season_file(20, rotate=False)
    data["season"] = {"name": "2025-26", "start": "2025-08-01"}
    for event in data["events"]:
        day = dt.date.fromisoformat(event["date"])
        event["date"] = day.replace(year=day.year - 1).isoformat()
    for payment in data["payments"]:
        payment["date"] = "2025-08-01"
    data["wsop_declined"] = ["m01"]
    data["wsop_results"] = [{"member": key, "gross": "1000.00", "tips": "50.00"} for key in wsop_results]
    return data


# The JSON report of a finished season: 4 + season, rules, events, memberships, placings, tie-breaks with
# declines, the season's money, the WSOP results with their representatives and who declined = 12, however
# many results were recorded (each split uses the season's rules and memberships read once).
JSON_REPORT = 12


@pytest.mark.parametrize("results", [[], ["m04"], ["m02", "m03", "m04"]], ids=["none", "one", "three"])
def test_the_json_report_reads_the_wsop_results_once_however_many_there_are(
    client, today, django_assert_num_queries, results
):
    season_import(data=finished_season_file(wsop_results=results))
    season_import(data=season_file(10))
    user = UserFactory(username="m01")
    Person.objects.filter(key="m01").update(user=user)
    client.force_login(user)
    url = "/api/v1/seasons/2025-26/report"
    client.get(url)
    with django_assert_num_queries(JSON_REPORT):
        response = client.get(url)
    assert response.status_code == 200
    distributions = response.json()["wsop_distributions"]
    assert [row["member"] for row in distributions] == results
