"""A ballot's page counts its turnout against one electorate (issue 35): the members when it closed, so a
member removed afterwards changes neither "N of M members have voted" nor the result's turnout."""

import datetime as dt

import pytest
from django.urls import reverse

from members.models import Membership
from members.services.ballots import (
    ballot_close,
    ballot_electorate,
    ballot_open,
    ballot_vote,
    rule_change_accept,
    rule_change_submit,
)
from tests.members.factories import seats_fill


def removed(membership: Membership) -> None:
    Membership.objects.filter(pk=membership.pk).update(
        left_after_event=4, how_left=Membership.HowLeft.REMOVED, left_on=dt.date(2026, 11, 29)
    )


@pytest.fixture
def sixteen(season, president, today):
    """The President and 15 more members: 16 seats; a rule-change ballot open."""
    others = seats_fill(season=season, count=15)
    change = rule_change_submit(
        season=season, person=others[0].person, suggestion="Four substitutes", on=today
    )
    rule_change_accept(
        change=change, title="Four substitutes a season", rule_field="", value_text="", on=today
    )
    change.refresh_from_db()
    return ballot_open(ballot=change.ballot, on=today), others


def vote(ballot, seats, today):
    question = ballot.questions.get()
    for seat in seats:
        ballot_vote(ballot=ballot, person=seat.person, choices={question.pk: "yes"}, on=today)


def test_a_member_removed_after_the_close_changes_neither_line(client, president, sixteen, today):
    ballot, others = sixteen
    vote(ballot, others, today)  # 15 of the 16 vote
    ballot = ballot_close(ballot=ballot, on=today)
    removed(others[0])  # one who voted is removed afterwards: 15 seats now
    assert ballot_electorate(ballot=ballot) == 16
    client.force_login(president)
    page = client.get(reverse("members:ballot", args=[ballot.pk])).content.decode()
    assert "15 of 16 members have voted." in page
    assert "Turnout: 15 of 16 members voted (94%)" in page  # 15/16 = 93.75%
    assert "15 of 15" not in page


def test_while_open_the_line_counts_the_seats_held_now(client, president, sixteen, today):
    ballot, others = sixteen
    vote(ballot, others[:3], today)
    removed(others[-1])  # one who has not voted is removed while the ballot is open: 15 seats
    client.force_login(president)
    page = client.get(reverse("members:ballot", args=[ballot.pk])).content.decode()
    assert "3 of 15 members have voted." in page
    ballot = ballot_close(ballot=ballot, on=today)
    page = client.get(reverse("members:ballot", args=[ballot.pk])).content.decode()
    assert "3 of 15 members have voted." in page
    assert "Turnout: 3 of 15 members voted (20%)" in page  # 3/15 = 20%
