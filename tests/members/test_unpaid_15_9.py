"""SPEC §15.9 (bylaws §2.11): after the first January event the Vice President sees the members not paid in full
at that event; only they can be put to a removal vote for unpaid fees."""

import datetime as dt
from decimal import Decimal

import pytest
import time_machine
from django.urls import reverse

from members.models import Removal
from members.selectors import unpaid_at_first_january
from members.services.seats import member_remove
from ncpc.core.errors import NcpcError
from tests.finance.factories import pay, seat

pytestmark = pytest.mark.django_db

JANUARY = dt.date(2027, 1, 23)  # the first January event of 2026-27 (SPEC §3)


@pytest.fixture
def ann_and_bob(season, today):
    ann, bob = seat(season=season, key="ann"), seat(season=season, key="bob")
    pay(membership=ann, day="2026-08-22", amount="510.00")  # everything due by the January event (SPEC §7)
    pay(membership=bob, day="2026-08-22", amount="110.00")  # only the first installment
    return ann, bob


def test_spec_15_9_the_list_is_made_after_the_first_january_event_only(season, ann_and_bob):
    assert unpaid_at_first_january(season=season, on=dt.date(2027, 1, 22)) == (JANUARY, [])
    day, unpaid = unpaid_at_first_january(season=season, on=JANUARY)
    _ann, bob = ann_and_bob
    # Bob owes 510 of dues and admin fee less 110 paid, plus the late fees of Dec 12 and Jan 12 (§2.10): 450.
    assert day == JANUARY
    assert [(u.membership, u.owed) for u in unpaid] == [(bob, Decimal("450.00"))]


def test_spec_15_9_the_vice_president_sees_the_list_on_the_removals_page(client, vice_president, ann_and_bob):
    ann, bob = ann_and_bob
    client.force_login(vice_president)
    before = client.get(reverse("members:removals")).content.decode()
    assert "The list is made after the first January event" in before
    with time_machine.travel(dt.datetime(2027, 1, 24, 17, 0, tzinfo=dt.UTC), tick=False):
        client.force_login(vice_president)
        page = client.get(reverse("members:removals")).content.decode()
    listed = page[page.index("Not paid in full at the first January event") :]
    listed = listed[: listed.index("</div></div>")]
    assert bob.person.full_name in listed and "owed $450.00" in listed
    assert ann.person.full_name not in listed


def test_spec_15_9_only_a_member_on_the_list_can_be_put_to_a_removal_vote_for_unpaid_fees(
    season, ann_and_bob
):
    ann, bob = ann_and_bob
    with pytest.raises(NcpcError, match="had paid in full by the first January event"):
        member_remove(membership=ann, grounds=Removal.Grounds.UNPAID_FEES, held_on=JANUARY, yes=2)
    removal = member_remove(membership=bob, grounds=Removal.Grounds.UNPAID_FEES, held_on=JANUARY, yes=2)
    assert removal.membership == bob
