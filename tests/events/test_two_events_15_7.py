"""SPEC §15.7 (bylaws §4.4.2): two events in one month need a recorded majority vote of the members; moving an
event into a month that already has its event is refused without it."""

import datetime as dt

import pytest
from django.urls import reverse

from events.services.event_edit import event_move
from members.models import Vote
from members.services.votes import vote_record
from ncpc.core.audit import AuditEntry
from ncpc.core.errors import NcpcError

pytestmark = pytest.mark.django_db

OCT_10 = dt.date(2026, 10, 10)  # event 3 of 2026-27 is on Oct 24


def _vote(season, *, yes, members=10):
    return vote_record(
        kind=Vote.Kind.TWO_EVENTS,
        subject="Hold the September event on Oct 10, with Oct 24",
        held_on=dt.date(2026, 9, 26),
        yes=yes,
        no=members - yes,
        members_eligible=members,
        season=season,
    ).record


def test_spec_15_7_moving_an_event_into_a_month_with_one_needs_a_passed_vote(season, vice_president, today):
    event = season.events.get(number=2)
    with pytest.raises(NcpcError, match="two events in one month need a recorded majority vote"):
        event_move(event=event, date=OCT_10, actor=vice_president)
    half = _vote(season, yes=5)  # 5 of 10 is not a majority
    with pytest.raises(NcpcError, match="majority vote"):
        event_move(event=event, date=OCT_10, actor=vice_president, vote_id=half.pk)
    passed = _vote(season, yes=6)
    moved = event_move(event=event, date=OCT_10, actor=vice_president, vote_id=passed.pk)
    assert moved.date == OCT_10 and moved.number == 2
    assert AuditEntry.objects.filter(action="event.move").get().data["vote"] == passed.pk


def test_spec_15_7_the_schedules_two_february_events_and_moves_within_a_month_need_no_vote(
    season, vice_president, today
):
    assert event_move(event=season.events.get(number=7), date=dt.date(2027, 2, 6), actor=vice_president)
    assert event_move(event=season.events.get(number=9), date=dt.date(2027, 3, 20), actor=vice_president)


def test_spec_15_7_the_move_form_offers_the_passed_votes_and_refuses_without_one(
    client, vice_president, season, today
):
    passed = _vote(season, yes=6)
    _vote(season, yes=3)
    client.force_login(vice_president)
    page = client.get(reverse("events:event", args=[season.name, 2])).content.decode()
    assert f'value="{passed.pk}"' in page and "6 yes of 10" in page and "3 yes of 10" not in page
    url = reverse("events:event_move", args=[season.name, 2])
    response = client.post(url, {"date": OCT_10.isoformat()}, follow=True)
    assert "majority vote of the members" in response.content.decode()
    assert season.events.get(number=2).date == dt.date(2026, 9, 26)
    client.post(url, {"date": OCT_10.isoformat(), "vote": passed.pk})
    assert season.events.get(number=2).date == OCT_10
