import pytest

from events.models import Season
from members.models import Membership
from members.selectors import rules_signed
from tests.factories import MembershipFactory

pytestmark = pytest.mark.django_db


def test_a_new_season_keeps_every_seat_still_held_and_asks_for_new_signatures(officer_client, season, member):
    MembershipFactory(season=season, left_after_event=4)  # sold the seat after event 4: not carried over
    response = officer_client.post("/events/seasons/new/", {"start_year": 2027})
    assert response.status_code == 302
    new = Season.objects.get(name="2027-28")
    carried = Membership.objects.filter(season=new).select_related("person")
    # The member and the Vice President held seats at the end of 2026-27; the seller did not.
    assert sorted(m.person.key for m in carried) == ["member1", "vp"]
    assert all(m.first_event == 1 for m in carried)
    assert not any(rules_signed(membership=m) for m in carried)


def test_carrying_over_twice_adds_nobody_twice(season, member):
    from events.services.seasons import season_create
    from members.services.roster import roster_carry_over

    new = season_create(start_year=2027)
    assert len(roster_carry_over(season=new)) == 1
    assert roster_carry_over(season=new) == []
