"""SPEC §17.2 for the members' other dated commands. A new season's seats carry over on its first day, or on the
first day of the first open month when that day is in or before a closed month (a closed month's report lists
the seats held by then), and its events must fall in open months: by the service and on the new-season form. Turning professional, a rules signature (recorded or
withdrawn) and an officer's term change nothing a month's report or the books show: a date in a closed month
is taken, and the closed months' reports are still what their data make.

Unless a test says otherwise, the clock and the club are those of ``tests.members.test_closed_month_members``:
Dec 5, 2026, the books start in October, October and November are closed."""

import datetime as dt

import pytest
import time_machine
from django.urls import reverse

from events.models import Season
from events.services.seasons import season_create
from finance.selectors.report_record import month_report_complete, report_record
from finance.services.month_closing import month_close
from members.models import Membership, OfficerTerm, RulesSignature
from members.services.officers import officer_term_create, officer_term_end
from members.services.people import person_turned_pro
from members.services.roster import roster_carry_over, season_open
from members.services.standing import (
    rules_signature_record,
    rules_signature_withdraw,
    rules_signatures_record,
)
from ncpc.core.errors import NcpcError
from tests.factories import MembershipFactory, OfficerTermFactory
from tests.finance.factories import pay
from tests.members.test_closed_month_members import (  # noqa: F401  (fixtures)
    NOV_20,
    assert_closed_months_unchanged,
    club,
    december,
    kept,
)
from tests.members.test_season_open_closed import MONEY_AND_MEMBERS

pytestmark = pytest.mark.django_db
JUL, AUG, SEP_1, SEP_6 = dt.date(2027, 7, 1), dt.date(2027, 8, 1), dt.date(2027, 9, 1), dt.date(2027, 9, 6)
AUGUST_CLOSED = (
    "Nothing was created: the first event of 2027-28 would be on Aug 28, 2027. August 2027 is closed (its report "
    "was presented): nothing can be dated in it any more. Date it in the first open month, September 2027, or "
    "later. Choose the month of its first event (and the day the events fall on) so that every event is in an "
    "open month."
)
# One event a month on the 4th Saturday from September: Sep 25, 2027 first.
SEPTEMBER_ON = {"first_month": 9, "nth": 4}


# --- a new season's roster: its seats take effect in the first open month --------------------------------------


@pytest.fixture
def august_closed(season, treasurer, vice_president, today):
    """Sep 6, 2027: 2026-27 is over and 2027-28 was never opened. The books start in July 2027 (Ann paid $110
    on Jul 10); the Treasurer closed July and August. Ann, the Treasurer and the Vice President hold seats of
    2026-27; the Vice President was elected again for 2027-28."""
    ann = MembershipFactory(season=season, person__first_name="Ann", person__last_name="Able")
    OfficerTermFactory(
        person=vice_president.person,
        office=OfficerTerm.Office.VICE_PRESIDENT,
        start=dt.date(2027, 6, 1),
        end=dt.date(2028, 5, 31),
    )
    with time_machine.travel(dt.datetime(2027, 9, 6, 17, 0, tzinfo=dt.UTC), tick=False):
        pay(membership=ann, day="2027-07-10", amount="110.00", actor=treasurer)
        month_close(day=JUL, actor=treasurer)
        month_close(day=AUG, actor=treasurer)
        yield {"ann": ann, "season": season}


def assert_july_and_august_unchanged(before: dict[dt.date, dict]) -> None:
    """The kept reports are as they were, and the data they were made of still makes their accounts, members'
    fees, escrow, payouts and ledger (on Sep 6, 2027). (Made again, they also name the season opened since,
    ``tests/members/test_season_open_closed.py``.)"""
    assert kept() == before
    for month, record in before.items():
        now = report_record(month_report_complete(year=month.year, month=month.month, today=SEP_6))
        assert {k: now[k] for k in MONEY_AND_MEMBERS} == {k: record[k] for k in MONEY_AND_MEMBERS}, month


def test_a_season_whose_first_event_would_be_in_a_closed_month_is_not_opened(august_closed, treasurer):
    before = kept()
    with pytest.raises(NcpcError) as refused:
        season_open(start_year=2027, actor=treasurer)
    assert str(refused.value) == AUGUST_CLOSED
    assert refused.value.field == "first_month"
    assert not Season.objects.filter(name="2027-28").exists()
    assert Membership.objects.filter(season__name="2027-28").count() == 0
    assert kept() == before


def test_a_season_starting_in_a_closed_month_opens_with_its_seats_on_the_first_open_day(
    august_closed, treasurer
):
    before = kept()
    season, carried = season_open(start_year=2027, actor=treasurer, **SEPTEMBER_ON)
    assert season.start == AUG
    assert season.events.order_by("number").values_list("date", flat=True)[0] == dt.date(2027, 9, 25)
    assert sorted(m.person.first_name for m in carried) == sorted(
        Membership.objects.filter(season=august_closed["season"]).values_list("person__first_name", flat=True)
    )
    assert {(m.joined_on, m.first_event) for m in carried} == {(SEP_1, 1)}
    assert_july_and_august_unchanged(before)


def test_seats_carried_into_a_season_made_alone_take_effect_on_the_first_open_day(august_closed, treasurer):
    """The season made some other way (``season_create`` alone): the carry-over finds the day on its own."""
    before = kept()
    new = season_create(start_year=2027, **SEPTEMBER_ON)
    carried = roster_carry_over(season=new, actor=treasurer)
    assert {m.joined_on for m in carried} == {SEP_1}
    assert_july_and_august_unchanged(before)


def test_the_new_season_form_says_why_it_opened_nothing(client, august_closed, vice_president):
    client.force_login(vice_president)
    response = client.post(reverse("season_new"), {"start_year": 2027}, follow=True)
    assert response.status_code == 200
    assert [str(m) for m in response.context["messages"]] == [AUGUST_CLOSED]
    assert not Season.objects.filter(name="2027-28").exists()


def test_the_new_season_form_opens_the_season_from_september(client, august_closed, vice_president):
    client.force_login(vice_president)
    response = client.post(reverse("season_new"), {"start_year": 2027, **SEPTEMBER_ON}, follow=True)
    assert response.status_code == 200
    assert [str(m) for m in response.context["messages"]] == [
        "Created season 2027-28 with its 10 events and the rules of the season before; 3 members keep their "
        "seats (each signs the new rules document before playing), from Sep 1, 2027 in the books since the "
        "months before it are closed (their dues are the season's, as always)."
    ]


def test_a_season_starting_after_the_closed_months_carries_its_seats_over(august_closed, treasurer):
    """The same closed months, the season after: its first day (Aug 1, 2028) is open."""
    season, carried = season_open(start_year=2028, actor=treasurer)
    assert season.start == dt.date(2028, 8, 1)
    assert sorted(m.person.first_name for m in carried) == sorted(
        Membership.objects.filter(season=august_closed["season"]).values_list("person__first_name", flat=True)
    )
    assert {m.joined_on for m in carried} == {dt.date(2028, 8, 1)}


# --- dated in a closed month, and nothing in the books changes ------------------------------------------------


def test_a_rules_signature_dated_in_a_closed_month_is_recorded_and_changes_no_report(club, vice_president):  # noqa: F811
    """A signature lets the member play from now on (results entry asks whether one exists, not its date):
    nothing of it is in a month's report."""
    before = kept()
    signed = rules_signature_record(membership=club["bob"], signed_on=NOV_20, actor=vice_president)
    many = rules_signatures_record(memberships=[club["ann"]], signed_on=NOV_20, actor=vice_president)
    assert (signed.signed_on, [s.signed_on for s in many]) == (NOV_20, [NOV_20])
    assert_closed_months_unchanged(before)
    rules_signature_withdraw(signature=signed, reason="The wrong member", actor=vice_president)
    assert not RulesSignature.objects.filter(membership=club["bob"]).exists()
    assert_closed_months_unchanged(before)


def test_turning_professional_on_a_day_of_a_closed_month_is_recorded_and_changes_no_report(
    club,  # noqa: F811
    vice_president,
):
    """§2.4.2: the member keeps the seat; the flag bars a future admission or a substitute, not any money."""
    before = kept()
    pro = person_turned_pro(person=club["ann"].person, on=NOV_20, actor=vice_president)
    assert (pro.is_professional, pro.turned_pro_on) == (True, NOV_20)
    assert_closed_months_unchanged(before)


def test_an_officers_term_begun_or_ended_in_a_closed_month_changes_no_report(club, vice_president):  # noqa: F811
    """Offices decide who signs and approves checks, on the check's date and the approval's day, both in an
    open month: a term's dates are in no month's report."""
    before = kept()
    term = officer_term_create(
        person=club["ann"].person,
        office=OfficerTerm.Office.PRESIDENT,
        start=NOV_20,
        end=dt.date(2027, 5, 31),
        actor=vice_president,
    )
    assert_closed_months_unchanged(before)
    ended = officer_term_end(
        term=term, last_day=dt.date(2026, 11, 25), reason="Resigned", actor=vice_president
    )
    assert ended.end == dt.date(2026, 11, 25)
    assert_closed_months_unchanged(before)
