"""Invitations (SPEC §16.8): a link valid 7 days, used once, sent to the person's e-mail, which is the login's."""

import datetime as dt
import re

import pytest
import time_machine
from django.contrib.auth import get_user_model
from django.urls import reverse

from members.models import Invitation, Person
from ncpc.core.models import AuditEntry, MailDelivery
from tests.factories import MembershipFactory, PersonFactory, UserFactory

pytestmark = pytest.mark.django_db

PASSWORD = "a-good-pass-2026"


@pytest.fixture
def ann(season):
    """A member holding a seat, with an e-mail and no login."""
    person = PersonFactory(key="ann", first_name="Ann", last_name="Lee", email="ann@example.org")
    MembershipFactory(person=person, season=season)
    return person


def _invite(client, *people) -> list[str]:
    """Send invitations from the page; the links' tokens, read from the queued messages."""
    before = MailDelivery.objects.count()
    response = client.post(reverse("members:invitations"), {"person": [p.pk for p in people]})
    assert response.status_code == 302
    bodies = MailDelivery.objects.order_by("pk").values_list("body", flat=True)[before:]
    return [re.search(r"/members/invitation/([\w-]+)/", body).group(1) for body in bodies]


def _accept(client, token, username="annlee", password=PASSWORD):
    return client.post(
        reverse("members:invitation_accept", args=[token]),
        {"username": username, "password1": password, "password2": password},
    )


def test_an_invitation_is_accepted_once_and_makes_a_login_with_the_persons_email(
    client, president, ann, today
):
    client.force_login(president)
    [token] = _invite(client, ann)
    delivery = MailDelivery.objects.get(reference__startswith="invitation:")
    assert delivery.to == "ann@example.org"
    invitation = Invitation.objects.get(person=ann)
    assert invitation.expires_at - invitation.created_at == dt.timedelta(days=7)
    assert invitation.sent_by == president and token not in invitation.token_hash

    client.logout()
    page = client.get(reverse("members:invitation_accept", args=[token]))
    assert page.status_code == 200 and "ann@example.org" in page.content.decode()
    response = _accept(client, token)
    assert response.status_code == 302 and response["Location"] == reverse("home")
    ann.refresh_from_db()
    assert ann.user.username == "annlee" and ann.user.email == "ann@example.org"
    assert ann.user.check_password(PASSWORD)
    assert client.get("/").status_code == 200  # logged in as Ann, a member
    assert AuditEntry.objects.filter(action="member.invitation.accept").count() == 1

    # A second use of the same link is refused with a clear page, and makes nothing.
    client.logout()
    again = _accept(client, token, username="other")
    assert again.status_code == 410
    assert "used already" in again.content.decode()
    assert not get_user_model().objects.filter(username="other").exists()
    assert client.get(reverse("members:invitation_accept", args=[token])).status_code == 410


def test_an_expired_invitation_is_refused(client, president, ann, today):
    client.force_login(president)
    [token] = _invite(client, ann)
    client.logout()
    with time_machine.travel(dt.datetime(2026, 12, 6, 12, 1, tzinfo=dt.UTC), tick=False):
        response = _accept(client, token)
    assert response.status_code == 410
    assert "expired" in response.content.decode()
    ann.refresh_from_db()
    assert ann.user is None


def test_an_invitation_works_until_its_seventh_day(client, president, ann, today):
    client.force_login(president)
    [token] = _invite(client, ann)
    client.logout()
    with time_machine.travel(dt.datetime(2026, 12, 6, 11, 59, tzinfo=dt.UTC), tick=False):
        assert _accept(client, token).status_code == 302


def test_sending_again_replaces_the_older_link(client, president, ann, today):
    client.force_login(president)
    [first] = _invite(client, ann)
    response = client.post(reverse("members:invitations"), {"only": ann.pk})
    assert response.status_code == 302
    second = re.search(r"/invitation/([\w-]+)/", MailDelivery.objects.order_by("-pk").first().body).group(1)
    client.logout()
    old = _accept(client, first)
    assert old.status_code == 410 and "newer invitation" in old.content.decode()
    assert _accept(client, second).status_code == 302


def test_an_unknown_link_shows_a_clear_page_not_an_error(client, db):
    response = client.get(reverse("members:invitation_accept", args=["no-such-token"]))
    assert response.status_code == 404
    assert "not valid" in response.content.decode()
    assert client.post(reverse("members:invitation_accept", args=["x"]), {}).status_code == 404


def test_a_weak_password_or_a_taken_username_is_a_form_error_and_the_link_still_works(
    client, president, ann, today
):
    client.force_login(president)
    [token] = _invite(client, ann)
    client.logout()
    UserFactory(username="taken")
    weak = _accept(client, token, password="12345678")
    assert weak.status_code == 200 and "too common" in weak.content.decode()
    taken = _accept(client, token, username="TAKEN")
    assert taken.status_code == 200 and "is taken" in taken.content.decode()
    spaced = _accept(client, token, username="ann lee")
    assert spaced.status_code == 200 and "no spaces" in spaced.content.decode()
    assert Person.objects.get(pk=ann.pk).user is None
    assert _accept(client, token).status_code == 302


def test_invite_all_skips_people_with_a_login_or_without_an_email(client, president, ann, season, today):
    nomail = PersonFactory(email="")
    MembershipFactory(person=nomail, season=season)
    client.force_login(president)
    page = client.get(reverse("members:invitations")).content.decode()
    assert "no e-mail recorded" in page
    response = client.post(reverse("members:invitations"), {"all": "1"})
    assert response.status_code == 302
    # Ann only: the president has a login, the other member has no e-mail.
    assert list(Invitation.objects.values_list("person__key", flat=True)) == ["ann"]
    page = client.get(reverse("members:invitations")).content.decode()
    assert "waiting" in page


def test_the_logins_email_follows_the_persons(president):
    person = Person.objects.get(user=president)
    person.email = "new-address@example.org"
    person.save()
    president.refresh_from_db()
    assert president.email == "new-address@example.org"


def test_a_member_gets_403_on_the_invitations_page(member_client, ann):
    assert member_client.get(reverse("members:invitations")).status_code == 403
    assert member_client.post(reverse("members:invitations"), {"all": "1"}).status_code == 403
    assert not Invitation.objects.exists()
