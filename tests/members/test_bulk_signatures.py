"""Rules signatures for many members at once (issue 33, item 7): one form, one date, all or nothing, audited."""

import datetime as dt

import pytest
from django.urls import reverse

from members.models import RulesSignature
from members.services.standing import rules_signature_record
from ncpc.core.models import AuditEntry
from tests.factories import MembershipFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def seats(season):
    return [MembershipFactory(season=season) for _ in range(3)]


def test_the_vice_president_records_three_signatures_in_one_submit(officer_client, seats, today):
    page = officer_client.get(reverse("members:signatures")).content.decode()
    assert "Record the ticked signatures" in page
    response = officer_client.post(
        reverse("members:signatures"),
        {"bulk": "1", "membership": [m.pk for m in seats], "signed_on": "2026-11-28"},
    )
    assert response.status_code == 302
    signed = RulesSignature.objects.filter(membership__in=seats)
    assert signed.count() == 3
    assert {s.signed_on for s in signed} == {dt.date(2026, 11, 28)}
    entries = AuditEntry.objects.filter(action="member.sign_rules")
    assert sorted(int(e.target_id) for e in entries) == sorted(s.pk for s in signed)
    assert all(e.actor.username == "vp" for e in entries)


def test_one_already_signed_refuses_the_whole_batch(officer_client, seats, today):
    rules_signature_record(membership=seats[0], signed_on=dt.date(2026, 11, 1))
    response = officer_client.post(
        reverse("members:signatures"),
        {"bulk": "1", "membership": [m.pk for m in seats], "signed_on": "2026-11-28"},
        follow=True,
    )
    assert f"Signed already: {seats[0].person}" in response.content.decode()
    assert RulesSignature.objects.count() == 1


def test_nothing_ticked_or_a_date_after_the_season_is_refused(officer_client, seats, today):
    response = officer_client.post(
        reverse("members:signatures"), {"bulk": "1", "signed_on": "2026-11-28"}, follow=True
    )
    assert "Tick the members who signed" in response.content.decode()
    late = officer_client.post(
        reverse("members:signatures"),
        {"bulk": "1", "membership": [seats[0].pk], "signed_on": "2027-08-01"},
        follow=True,
    )
    assert "is after season" in late.content.decode()
    assert not RulesSignature.objects.exists()


def test_a_member_cannot_record_signatures(member_client, seats):
    response = member_client.post(
        reverse("members:signatures"), {"bulk": "1", "membership": [seats[0].pk], "signed_on": "2026-11-28"}
    )
    assert response.status_code == 403 and not RulesSignature.objects.exists()
