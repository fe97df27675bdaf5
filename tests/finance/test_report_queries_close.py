"""The Treasurer's monthly report page of a past month still open (SPEC §16.1: months close in order): it offers
"Close the month" when every earlier month since the books started is closed, and lists the earlier months still
open instead of it otherwise, within the page's 15 queries (SPEC §17.10) whether or not the month had a final
event. The books' first month comes from the ledger's first transaction, read with the report's accounts, and
the earlier months' closings from the month's own closing lookup: the list is what ``months_open_before`` says.

The club: season 2026-27 imported from a season file (10 members, every one paying $510 by check on Aug 1,
2026, all ten events played; event 3 is on Oct 24, 2026), m01 its Treasurer. The clock is Nov 29, 2026, so
October is over and can be closed.
"""

import datetime as dt
from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from events.models import Event
from finance.models import Account
from finance.services.ledger import months_open_before, months_open_between
from finance.services.month_closing import month_close
from finance.services.opening import opening_balance_record
from members.models import OfficerTerm, Person
from ncpc.club.services.season_import import season_import
from tests.factories import OfficerTermFactory, UserFactory
from tests.ncpc.season_files import season_file

pytestmark = pytest.mark.django_db

AUG, SEP, OCT = dt.date(2026, 8, 1), dt.date(2026, 9, 1), dt.date(2026, 10, 1)
URL = "/finance/reports/2026/10/"
CLOSE = 'action="/finance/reports/2026/10/close/"'


@pytest.fixture
def club(today):
    season_import(data=season_file(10))
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
    return user


def page(client, user):
    """October's page as the Treasurer sees it, its second visit (the queries counted) and the page."""
    client.force_login(user)
    client.get(URL)
    with CaptureQueriesContext(connection) as queries:
        response = client.get(URL)
    assert response.status_code == 200
    return len(queries), response.content.decode()


# --- months_open_between, pure -------------------------------------------------------------------------------


def test_no_books_no_month_open():
    assert months_open_between(start=None, day=dt.date(2026, 10, 15), closed=[]) == []


def test_the_months_from_the_books_first_month_not_closed_oldest_first():
    assert months_open_between(start=AUG, day=dt.date(2026, 10, 15), closed=[]) == [AUG, SEP]
    assert months_open_between(start=AUG, day=dt.date(2026, 10, 15), closed=[AUG]) == [SEP]
    assert months_open_between(start=AUG, day=dt.date(2026, 10, 15), closed={AUG, SEP}) == []


def test_closings_of_the_month_itself_or_later_or_before_the_books_change_nothing():
    closed = [dt.date(2026, 6, 1), OCT, dt.date(2026, 11, 1)]
    assert months_open_between(start=AUG, day=OCT, closed=closed) == [AUG, SEP]


def test_the_books_first_month_itself_has_no_month_before_it():
    assert months_open_between(start=OCT, day=dt.date(2026, 10, 31), closed=[]) == []


def test_across_the_new_year():
    start = dt.date(2026, 11, 1)
    assert months_open_between(start=start, day=dt.date(2027, 2, 3), closed=[]) == [
        start,
        dt.date(2026, 12, 1),
        dt.date(2027, 1, 1),
    ]


# --- the page ------------------------------------------------------------------------------------------------


def test_august_and_september_closed_the_page_offers_to_close_october_in_15_queries(club, client):
    for month in (AUG, SEP):
        month_close(day=month, actor=club)
    assert months_open_before(day=OCT) == []
    count, html = page(client, club)
    assert CLOSE in html
    assert "Months close in order" not in html
    # 4 (identity, session, user, login standing) + closings, season, accounts, ledger, rules, memberships,
    # events, the season's money, event 3's places, bank statements, bank accounts = 15.
    assert count == 15


def test_with_no_final_event_in_the_month_one_query_fewer(club, client):
    """Event 3 not final yet: no places to read for the payouts table."""
    for month in (AUG, SEP):
        month_close(day=month, actor=club)
    Event.objects.filter(season__name="2026-27", number=3).update(status=Event.Status.SCHEDULED)
    count, html = page(client, club)
    assert CLOSE in html
    assert count == 14


def test_august_and_september_open_the_page_lists_them_instead_of_the_button(club, client):
    assert months_open_before(day=OCT) == [AUG, SEP]
    count, html = page(client, club)
    assert CLOSE not in html
    assert (
        'Months close in order: close <a href="/finance/reports/2026/8/">August 2026</a> and '
        '<a href="/finance/reports/2026/9/">September 2026</a> first, oldest first; then October 2026 can be '
        "closed." in html
    )
    assert count == 15


def test_august_closed_the_page_lists_september(club, client):
    month_close(day=AUG, actor=club)
    count, html = page(client, club)
    assert CLOSE not in html
    assert (
        'Months close in order: close <a href="/finance/reports/2026/9/">September 2026</a> first; then '
        "October 2026 can be closed." in html
    )
    assert count == 15


def test_books_started_by_an_opening_balance_in_july_list_july_too(club, client):
    """The escrow's opening balance of Jul 31, 2026 (before the first payment) starts the books in July."""
    opening_balance_record(
        code=Account.ESCROW, date=dt.date(2026, 7, 31), amount=Decimal("250.00"), actor=club
    )
    july = dt.date(2026, 7, 1)
    assert months_open_before(day=OCT) == [july, AUG, SEP]
    count, html = page(client, club)
    assert CLOSE not in html
    assert (
        'Months close in order: close <a href="/finance/reports/2026/7/">July 2026</a>, '
        '<a href="/finance/reports/2026/8/">August 2026</a> and '
        '<a href="/finance/reports/2026/9/">September 2026</a> first, oldest first; then October 2026 can be '
        "closed." in html
    )
    assert count == 15


def test_a_plain_member_sees_neither_the_button_nor_the_list(club, client):
    member = UserFactory(username="m02")
    Person.objects.filter(key="m02").update(user=member)
    count, html = page(client, member)
    assert CLOSE not in html
    assert "Months close in order" not in html
    assert count <= 15
