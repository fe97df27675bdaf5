import datetime as dt

import pytest
from django.contrib.auth.models import AnonymousUser

from ncpc.core.permissions import Action, user_can, user_offices
from tests.factories import MembershipFactory, OfficerTermFactory, PersonFactory, UserFactory, season_make

pytestmark = pytest.mark.django_db


@pytest.fixture
def treasurer_2026():
    """Treasurer for the 2026-27 term only (1 Jun 2026 – 31 May 2027)."""
    user = UserFactory(username="tom")
    person = PersonFactory(user=user, key="tom")
    MembershipFactory(person=person, season=season_make(2026))
    OfficerTermFactory(person=person, office="treasurer", start=dt.date(2026, 6, 1), end=dt.date(2027, 5, 31))
    return user


@pytest.mark.parametrize(
    ("day", "is_treasurer"),
    [
        (dt.date(2026, 5, 31), False),  # the day before the term
        (dt.date(2026, 6, 1), True),  # first day
        (dt.date(2027, 5, 31), True),  # last day
        (dt.date(2027, 6, 1), False),  # the day after
    ],
)
def test_officer_on_a_date_follows_the_term_boundaries(treasurer_2026, day, is_treasurer):
    assert (user_offices(treasurer_2026, on=day) == {"treasurer"}) is is_treasurer
    assert user_can(treasurer_2026, Action.RECORD_PAYMENTS, on=day) is is_treasurer


def test_member_sees_the_club_but_cannot_change_it(member):
    assert user_can(member, Action.VIEW_CLUB)
    assert user_can(member, Action.VOTE)
    for action in (Action.EDIT_RULES, Action.ENTER_RESULTS, Action.RECORD_PAYMENTS, Action.MANAGE_BALLOTS):
        assert not user_can(member, action)


def test_vice_president_enters_results_but_does_not_handle_money(vice_president):
    assert user_can(vice_president, Action.ENTER_RESULTS)
    assert user_can(vice_president, Action.MANAGE_MEMBERS)
    assert not user_can(vice_president, Action.RECORD_PAYMENTS)
    assert not user_can(vice_president, Action.MANAGE_BALLOTS)


def test_treasurer_handles_money_but_not_results(treasurer):
    assert user_can(treasurer, Action.RECORD_PAYMENTS)
    assert user_can(treasurer, Action.WAIVE_LATE_FEES)
    assert not user_can(treasurer, Action.ENTER_RESULTS)


def test_president_may_do_what_any_officer_may_except_waive_late_fees(president):
    for action in (Action.ENTER_RESULTS, Action.RECORD_PAYMENTS, Action.MANAGE_BALLOTS, Action.EDIT_RULES):
        assert user_can(president, action)
    assert not user_can(president, Action.WAIVE_LATE_FEES)


def test_a_login_without_a_seat_is_not_a_member(today):
    stranger = UserFactory(username="stranger")
    assert not user_can(stranger, Action.VIEW_CLUB)


def test_a_member_who_left_is_no_longer_a_member(season, today):
    user = UserFactory(username="gone")
    MembershipFactory(person=PersonFactory(user=user, key="gone"), season=season, left_after_event=2)
    assert not user_can(user, Action.VIEW_CLUB)


def test_anonymous_may_do_nothing():
    assert not any(user_can(AnonymousUser(), action) for action in Action)


def test_superuser_may_do_everything():
    admin = UserFactory(username="root", is_superuser=True)
    assert all(user_can(admin, action) for action in Action)
