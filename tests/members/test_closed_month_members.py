"""SPEC §17.2 for the members' commands: an admission, a withdrawal, a removal, a suspension (begun or ended
early) or a seat transfer that would take effect inside (or before) a closed month is refused, naming the month
and the way forward, and the closed month's report stays as it was; the same dated in the first open month is
accepted.

The club's date is Dec 5, 2026. The books start in October (Ann paid $310 on Oct 10, Bob $410 on Oct 24, Ann
$100 on Nov 14); Cal is suspended from Nov 10 to Dec 20; then October and November are closed, so December is
the first open month."""

import datetime as dt

import pytest
import time_machine
from django.urls import reverse

from finance.models import ClosedMonth
from finance.selectors.report_record import month_report_complete, report_record
from finance.services.month_closing import month_close
from members.models import Membership, Removal, Suspension
from members.selectors import current_member_count
from members.services.admission import VoteCounts, member_admit
from members.services.seats import member_remove, member_withdraw, seat_transfer
from members.services.standing import suspension_create, suspension_end
from ncpc.core.errors import NcpcError
from tests.factories import MembershipFactory, PersonFactory
from tests.finance.factories import pay

pytestmark = pytest.mark.django_db
OCT, NOV = dt.date(2026, 10, 1), dt.date(2026, 11, 1)
NOV_20, DEC_5 = dt.date(2026, 11, 20), dt.date(2026, 12, 5)

NOVEMBER_CLOSED = (
    "November 2026 is closed (its report was presented): nothing can be dated in it any more. "
    "Date it in the first open month, December 2026, or later."
)
OCTOBER_CLOSED = (
    "October 2026 is closed (its report was presented): nothing can be dated in it any more. "
    "Date it in the first open month, December 2026, or later."
)
BEFORE_OCTOBER = (
    "October 2026 is closed (its report was presented): nothing can be dated in or before it any more, "
    "so not Sep 15, 2026. Date it in the first open month, December 2026, or later."
)


@pytest.fixture
def december(today):
    with time_machine.travel(dt.datetime(2026, 12, 5, 17, 0, tzinfo=dt.UTC), tick=False):
        yield DEC_5


@pytest.fixture
def club(season, treasurer, vice_president, december):
    """Ann, Bob and Cal (and the Treasurer and the Vice President) hold seats; October and November are closed."""
    ann = MembershipFactory(season=season, person__first_name="Ann", person__last_name="Able")
    bob = MembershipFactory(season=season, person__first_name="Bob", person__last_name="Baker")
    cal = MembershipFactory(season=season, person__first_name="Cal", person__last_name="Cole")
    pay(membership=ann, day="2026-10-10", amount="310.00", actor=treasurer)
    pay(membership=bob, day="2026-10-24", amount="410.00", actor=treasurer, method="check")
    pay(membership=ann, day="2026-11-14", amount="100.00", actor=treasurer)
    suspension = suspension_create(
        membership=cal, start=dt.date(2026, 11, 10), end=dt.date(2026, 12, 20), reason="Abuse at the table"
    )
    month_close(day=OCT, actor=treasurer)
    month_close(day=NOV, actor=treasurer)
    return {"ann": ann, "bob": bob, "cal": cal, "suspension": suspension, "season": season}


def kept() -> dict[dt.date, dict]:
    return {closed.month: closed.report for closed in ClosedMonth.objects.order_by("month")}


def recomputed(month: dt.date) -> dict:
    """The closed month's report built again from today's data, as its record (who closed it aside)."""
    return report_record(month_report_complete(year=month.year, month=month.month, today=DEC_5))


def assert_closed_months_unchanged(before: dict[dt.date, dict]) -> None:
    """The kept reports are as they were, and the data they were made of still makes them."""
    assert kept() == before
    for month, record in before.items():
        assert recomputed(month) == {k: v for k, v in record.items() if k != "closed_by"}, month


def admission(person, *, on, sponsor, season):
    return member_admit(
        person=person,
        season=season,
        on=on,
        sponsor=sponsor,
        vote=VoteCounts(held_on=on, yes=current_member_count(season=season)),
        declared_not_professional=True,
    )


def test_the_closed_months_are_made_of_todays_data_before_anything_is_tried(club):
    before = kept()
    assert sorted(before) == [OCT, NOV]
    assert_closed_months_unchanged(before)


def test_an_admission_dated_in_a_closed_month_is_refused_and_in_december_accepted(club):
    before = kept()
    dan = PersonFactory(first_name="Dan", last_name="Dunn")
    with pytest.raises(NcpcError) as refused:
        admission(dan, on=NOV_20, sponsor=club["ann"].person, season=club["season"])
    assert str(refused.value) == NOVEMBER_CLOSED
    assert refused.value.field == "on"
    with pytest.raises(NcpcError) as refused:
        admission(dan, on=dt.date(2026, 9, 15), sponsor=club["ann"].person, season=club["season"])
    assert str(refused.value) == BEFORE_OCTOBER
    assert not Membership.objects.filter(person=dan).exists()
    assert_closed_months_unchanged(before)

    joined = admission(dan, on=DEC_5, sponsor=club["ann"].person, season=club["season"])
    assert (joined.joined_on, joined.first_event) == (DEC_5, 5)  # the Dec 12 event is his first
    assert kept() == before


def test_a_withdrawal_dated_in_a_closed_month_is_refused_and_in_december_accepted(club):
    before = kept()
    with pytest.raises(NcpcError) as refused:
        member_withdraw(membership=club["bob"], on=dt.date(2026, 10, 30))
    assert str(refused.value) == OCTOBER_CLOSED
    assert refused.value.field == "on"
    club["bob"].refresh_from_db()
    assert club["bob"].left_after_event is None
    assert_closed_months_unchanged(before)

    left = member_withdraw(membership=club["bob"], on=DEC_5)
    assert (left.left_on, left.left_after_event) == (DEC_5, 4)  # gone after the Nov 14 event
    assert kept() == before


def test_a_removal_voted_in_a_closed_month_is_refused_and_in_december_accepted(club):
    before = kept()
    members = current_member_count(season=club["season"])

    def remove(held_on):
        return member_remove(
            membership=club["bob"],
            grounds=Removal.Grounds.ABUSE,
            held_on=held_on,
            yes=members,
            nominated_by=club["ann"].person,
        )

    with pytest.raises(NcpcError) as refused:
        remove(NOV_20)
    assert str(refused.value) == NOVEMBER_CLOSED
    assert refused.value.field == "held_on"
    assert not Removal.objects.exists()
    assert_closed_months_unchanged(before)

    removal = remove(DEC_5)
    club["bob"].refresh_from_db()
    assert (removal.removed_on, club["bob"].how_left, club["bob"].left_after_event) == (DEC_5, "removed", 4)
    assert kept() == before


def test_a_suspension_beginning_in_a_closed_month_is_refused_and_in_december_accepted(club):
    before = kept()
    with pytest.raises(NcpcError) as refused:
        suspension_create(
            membership=club["ann"], start=NOV_20, end=dt.date(2026, 12, 10), reason="Abuse at the table"
        )
    assert str(refused.value) == NOVEMBER_CLOSED
    assert refused.value.field == "start"
    assert not Suspension.objects.filter(membership=club["ann"]).exists()
    assert_closed_months_unchanged(before)

    suspended = suspension_create(
        membership=club["ann"], start=DEC_5, end=dt.date(2026, 12, 10), reason="Abuse at the table"
    )
    assert (suspended.start, suspended.end) == (DEC_5, dt.date(2026, 12, 10))
    assert kept() == before


def test_a_suspension_lifted_inside_a_closed_month_is_refused_and_from_december_1_accepted(club, treasurer):
    """Cal's suspension (Nov 10 to Dec 20) ended early on Nov 20 would make Nov 21-30 days in good standing
    in the closed November; ended on Nov 30, November keeps every day it had and he is back from Dec 1."""
    before = kept()
    with pytest.raises(NcpcError) as refused:
        suspension_end(suspension=club["suspension"], last_day=NOV_20, reason="Lifted", actor=treasurer)
    assert str(refused.value) == NOVEMBER_CLOSED
    assert refused.value.field == "last_day"
    club["suspension"].refresh_from_db()
    assert club["suspension"].end == dt.date(2026, 12, 20)
    assert_closed_months_unchanged(before)

    ended = suspension_end(
        suspension=club["suspension"], last_day=dt.date(2026, 11, 30), reason="Lifted", actor=treasurer
    )
    assert ended.end == dt.date(2026, 11, 30)
    assert_closed_months_unchanged(before)  # every November day is still a suspended one


def test_a_seat_transfer_dated_in_a_closed_month_is_refused_and_in_december_accepted(club):
    before = kept()
    eve = PersonFactory(first_name="Eve", last_name="Ewing")
    members = current_member_count(season=club["season"])

    def transfer(on):
        return seat_transfer(
            seller=club["bob"],
            buyer=eve,
            how=Membership.HowLeft.SOLD,
            on=on,
            sponsor=club["bob"].person,
            vote=VoteCounts(held_on=on, yes=members),
            declared_not_professional=True,
        )

    with pytest.raises(NcpcError) as refused:
        transfer(NOV_20)
    assert str(refused.value) == NOVEMBER_CLOSED
    assert refused.value.field == "on"
    assert not Membership.objects.filter(person=eve).exists()
    club["bob"].refresh_from_db()
    assert club["bob"].left_after_event is None
    assert_closed_months_unchanged(before)

    bought = transfer(DEC_5)
    club["bob"].refresh_from_db()
    assert (bought.first_event, bought.seat_from, club["bob"].left_after_event) == (5, club["bob"], 4)
    assert kept() == before


def test_the_admission_page_shows_the_refusal_on_the_admission_date(client, club, vice_president):
    before = kept()
    client.force_login(vice_president)
    dan = PersonFactory(first_name="Dan", last_name="Dunn")
    members = current_member_count(season=club["season"])
    response = client.post(
        reverse("members:admit"),
        {
            "person": dan.pk,
            "on": "2026-11-20",
            "sponsor": club["ann"].person.pk,
            "held_on": "2026-11-20",
            "yes": members,
            "no": 0,
            "abstain": 0,
            "declared_not_professional": "on",
        },
    )
    assert response.status_code == 200
    assert response.context["form"].errors == {"on": [NOVEMBER_CLOSED]}
    assert NOVEMBER_CLOSED in response.content.decode()
    assert not Membership.objects.filter(person=dan).exists()
    assert_closed_months_unchanged(before)


def test_the_withdrawal_form_shows_the_refusal_on_its_date(client, club, vice_president):
    client.force_login(vice_president)
    response = client.post(
        reverse("members:transfers"),
        {"form": "withdraw", "w-membership": club["bob"].pk, "w-on": "2026-11-20", "w-confirm": "on"},
    )
    assert response.status_code == 200
    assert response.context["withdraw_form"].errors == {"on": [NOVEMBER_CLOSED]}
    assert NOVEMBER_CLOSED in response.content.decode()
