"""Officers' terms in the app (SPEC §16.8): the President adds and ends terms; nobody needs the Django admin."""

import datetime as dt

import pytest
from django.urls import reverse

from members.models import OfficerTerm
from ncpc.core.models import AuditEntry
from ncpc.core.permissions import user_offices
from tests.factories import MembershipFactory, PersonFactory, UserFactory

pytestmark = pytest.mark.django_db


def test_the_president_adds_a_term_and_its_holder_becomes_an_officer(client, president, season, today):
    user = UserFactory(username="vera")
    vera = PersonFactory(user=user, key="vera")
    MembershipFactory(person=vera, season=season)
    client.force_login(president)
    page = client.get(reverse("members:officer_terms")).content.decode()
    assert "No holder today: Vice President, Treasurer" in page
    response = client.post(
        reverse("members:officer_terms"),
        {"office": "vice_president", "person": vera.pk, "start": "2026-11-29", "end": "2027-05-31"},
    )
    assert response.status_code == 302
    term = OfficerTerm.objects.get(office="vice_president")
    assert (term.person, term.start, term.end) == (vera, dt.date(2026, 11, 29), dt.date(2027, 5, 31))
    assert AuditEntry.objects.filter(action="officer.term", target_id=str(term.pk)).exists()
    assert user_offices(user) == {"vice_president"}


def test_a_second_holder_of_an_office_at_once_is_refused(client, president, today):
    other = PersonFactory()
    client.force_login(president)
    response = client.post(
        reverse("members:officer_terms"),
        {"office": "president", "person": other.pk, "start": "2027-01-01", "end": "2027-05-31"},
    )
    assert response.status_code == 200
    assert "already holds that office" in response.content.decode()
    assert OfficerTerm.objects.filter(office="president").count() == 1


def test_a_term_ending_before_it_starts_is_a_form_error(client, president, today):
    client.force_login(president)
    response = client.post(
        reverse("members:officer_terms"),
        {"office": "treasurer", "person": PersonFactory().pk, "start": "2027-01-01", "end": "2026-12-01"},
    )
    assert response.status_code == 200 and "cannot end before it starts" in response.content.decode()
    assert not OfficerTerm.objects.filter(office="treasurer").exists()


def test_the_president_ends_a_term_early_with_a_reason(client, president, treasurer, today):
    term = OfficerTerm.objects.get(office="treasurer")
    client.force_login(president)
    url = reverse("members:officer_term_end", args=[term.pk])
    assert client.post(url, {"last_day": "2026-11-30", "reason": ""}).status_code == 302
    term.refresh_from_db()
    assert term.end == dt.date(2027, 5, 31)  # no reason: nothing changed
    client.post(url, {"last_day": "2026-11-30", "reason": "resigned"})
    term.refresh_from_db()
    assert term.end == dt.date(2026, 11, 30)
    entry = AuditEntry.objects.get(action="officer.term_end")
    assert entry.reason == "resigned" and entry.data["end_before"] == "2027-05-31"
    # A term cannot be lengthened here, nor end before it starts.
    client.post(url, {"last_day": "2027-05-01", "reason": "typo"})
    client.post(url, {"last_day": "2020-01-01", "reason": "typo"})
    term.refresh_from_db()
    assert term.end == dt.date(2026, 11, 30)


@pytest.mark.parametrize("role", ["member", "vice_president", "treasurer"])
def test_only_the_president_opens_the_officer_terms_page(client, request, role, today):
    client.force_login(request.getfixturevalue(role))
    assert client.get(reverse("members:officer_terms")).status_code == 403
    assert client.post(reverse("members:officer_terms"), {}).status_code == 403
    assert client.post(reverse("members:officer_term_end", args=[1]), {}).status_code == 403
