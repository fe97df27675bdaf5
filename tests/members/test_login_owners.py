"""SPEC §17.6 (issue 43): logins belong to their owners. Only the person himself or the President changes where a
login's mail goes, an officer's only the President, and the old address is told; an invitation is bound to the
address it was sent to; accepting one while logged in as someone else asks to log out first; usernames are
ASCII and differ from every other in more than capitals."""

import re

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

from members.admin import LoginChangeForm, LoginCreationForm
from members.models import Invitation, Person
from members.services.logins import username_problem
from members.services.people import person_update
from members.services.roster_import import RosterLine, roster_import
from ncpc.core.errors import NcpcError
from ncpc.core.models import MailDelivery
from tests.factories import MembershipFactory, PersonFactory, UserFactory, member_user

pytestmark = pytest.mark.django_db

PASSWORD = "a-good-pass-2026"  # UserFactory's password is not known here: each login gets this one
ROLES = ("member", "vice_president", "treasurer", "president")
NEW = "taken-over@example.net"


@pytest.fixture
def logins(season, today):
    """A login for each role, each with its own address (<username>@example.org)."""
    users = {}
    for role in ROLES:
        user = member_user(season=season, username=role, office=None if role == "member" else role)
        user.set_password(PASSWORD)
        user.save()
        Person.objects.filter(user=user).update(email=f"{role}@example.org")
        user.email = f"{role}@example.org"
        user.save(update_fields=["email"])
        users[role] = user
    return users


def may_change(actor: str, target: str) -> bool:
    """SPEC §17.6, as a table: the person himself (not an officer) or the President."""
    return actor == "president" or (actor == target and target == "member")


def told(old: str) -> list[str]:
    return list(
        MailDelivery.objects.filter(kind=MailDelivery.Kind.LOGIN_EMAIL, to=old).values_list(
            "subject", flat=True
        )
    )


def edit_post(person: Person, email: str) -> dict[str, str]:
    return {
        "first_name": person.first_name,
        "last_name": person.last_name,
        "key": person.key,
        "email": email,
        "phone": person.phone,
        "address": person.address,
        "date_of_birth": "",
    }


@pytest.mark.parametrize("target", ROLES)
@pytest.mark.parametrize("actor", (None, *ROLES))
def test_every_form_that_changes_a_persons_email_lets_only_the_owner_or_the_president(
    client, logins, actor, target
):
    """The person's page (officers' edit form) and the login's own e-mail page, as every role, on every role's
    login: where the mail goes changes only as SPEC §17.6 allows, and the old address is then told."""
    person = Person.objects.get(user=logins[target])
    old = person.email
    if actor is not None:
        client.force_login(logins[actor])
    edit = client.post(reverse("members:person_edit", args=[person.key]), edit_post(person, NEW))
    own = client.post(reverse("members:own_email"), {"email": NEW, "password": PASSWORD})
    person.refresh_from_db()
    logins[target].refresh_from_db()
    if actor is None:
        assert edit.status_code == own.status_code == 302
        assert edit["Location"].startswith("/accounts/login/")
    changed = actor is not None and may_change(actor, target)
    assert (person.email, logins[target].email) == ((NEW, NEW) if changed else (old, old))
    assert told(old) == (["The e-mail of your NCPC login was changed"] if changed else [])
    assert all(response.status_code < 500 for response in (edit, own))


def test_the_vice_president_cannot_take_over_the_presidents_login(client, logins):
    """The issue's story: the VP sets the President's e-mail to her own and asks for a password reset."""
    president = Person.objects.get(user=logins["president"])
    client.force_login(logins["vice_president"])
    page = client.get(reverse("members:person_edit", args=[president.key]))
    assert page.context["form"].fields["email"].disabled
    assert "only the President changes an officer's e-mail" in page.content.decode()
    client.post(
        reverse("members:person_edit", args=[president.key]),
        edit_post(president, "vice_president@example.org"),
    )
    with pytest.raises(NcpcError) as refused:
        person_update(
            person=president, changes={"email": "vice_president@example.org"}, actor=logins["vice_president"]
        )
    assert str(refused.value) == (
        f"{president} is an officer: only the President changes an officer's e-mail (a password reset is sent there)."
    )
    client.logout()
    client.post(reverse("password_reset"), {"email": "vice_president@example.org"})
    [reset] = MailDelivery.objects.filter(kind="password_reset", to="vice_president@example.org")
    uid = {
        role: urlsafe_base64_encode(force_bytes(logins[role].pk)) for role in ("president", "vice_president")
    }
    assert f"/reset/{uid['vice_president']}/" in reset.body  # her own login's reset, not the President's
    assert f"/reset/{uid['president']}/" not in reset.body
    president.refresh_from_db()
    assert president.email == "president@example.org"


def test_the_old_address_is_told_who_changed_it_and_to_what(
    client, logins, django_capture_on_commit_callbacks
):
    member = Person.objects.get(user=logins["member"])
    client.force_login(logins["president"])
    client.post(reverse("members:person_edit", args=[member.key]), edit_post(member, NEW))
    [note] = MailDelivery.objects.filter(kind=MailDelivery.Kind.LOGIN_EMAIL)
    assert note.to == "member@example.org"
    assert (
        "login 'member' was changed from this address,\nmember@example.org, to taken-over@example.net by"
        in note.body
    )
    assert "tell the President at once" in note.body
    assert note.message_id


def test_a_member_changes_his_own_email_with_his_password(client, logins):
    client.force_login(logins["member"])
    wrong = client.post(reverse("members:own_email"), {"email": NEW, "password": "not-it"})
    assert wrong.status_code == 200 and wrong.context["form"].errors["password"] == [
        "That is not your password."
    ]
    assert Person.objects.get(user=logins["member"]).email == "member@example.org"
    done = client.post(reverse("members:own_email"), {"email": NEW, "password": PASSWORD})
    assert done.status_code == 302
    assert Person.objects.get(user=logins["member"]).email == NEW


def test_an_officer_is_sent_to_the_president_for_his_own_email(client, logins):
    client.force_login(logins["treasurer"])
    page = client.get(reverse("members:own_email")).content.decode()
    assert "only the President changes an officer&#x27;s e-mail" in page and "Ask the President" in page


def test_an_officer_without_a_login_has_his_email_changed_by_the_president_alone(logins, season, today):
    """An invitation would make the officer's login at the new address: the same rule before the login exists."""
    from tests.factories import OfficerTermFactory

    clerk = PersonFactory(key="clerk", email="clerk@example.org")
    Person.objects.filter(user=logins["treasurer"]).update(user=None)
    OfficerTermFactory(person=clerk, office="treasurer", start=season.start.replace(month=12), end=season.end)
    with pytest.raises(NcpcError):
        person_update(person=clerk, changes={"email": NEW}, actor=logins["vice_president"])
    person_update(person=clerk, changes={"email": NEW}, actor=logins["president"])
    clerk.refresh_from_db()
    assert clerk.email == NEW


def test_the_roster_import_never_fills_in_the_address_of_a_login(logins, season, today):
    member = Person.objects.get(user=logins["member"])
    Person.objects.filter(pk=member.pk).update(email="")
    get_user_model().objects.filter(pk=logins["member"].pk).update(email="")
    member.refresh_from_db()
    from events.services.seasons import season_create

    later = season_create(start_year=2027)
    roster_import(
        season=later,
        lines=[
            RosterLine(
                key=member.key,
                first_name=member.first_name,
                last_name=member.last_name,
                date_of_birth=member.date_of_birth or season.start.replace(year=1970),
                first_event=1,
                email="vice_president@example.org",
            )
        ],
        actor=logins["vice_president"],
        source="test",
    )
    member.refresh_from_db()
    logins["member"].refresh_from_db()
    assert (member.email, logins["member"].email) == ("", "")


# --- Invitations ---------------------------------------------------------------------------------------------


@pytest.fixture
def ann(season):
    person = PersonFactory(key="ann", first_name="Ann", last_name="Lee", email="ann@example.org")
    MembershipFactory(person=person, season=season)
    return person


def invite(client, person) -> str:
    client.post(reverse("members:invitations"), {"person": [person.pk]})
    body = MailDelivery.objects.filter(reference__startswith="invitation:").latest("pk").body
    return re.search(r"/members/invitation/([\w-]+)/", body).group(1)


def accept(client, token, username="annlee"):
    return client.post(
        reverse("members:invitation_accept", args=[token]),
        {"username": username, "password1": PASSWORD, "password2": PASSWORD},
    )


def test_an_invitation_stops_working_once_the_persons_email_is_changed(client, logins, ann):
    client.force_login(logins["vice_president"])
    token = invite(client, ann)
    client.post(reverse("members:person_edit", args=["ann"]), edit_post(ann, "ann.lee@example.org"))
    ann.refresh_from_db()
    assert ann.email == "ann.lee@example.org"
    page = client.get(reverse("members:invitations")).content.decode()
    assert "void</span> sent to ann@example.org" in page
    client.logout()
    response = accept(client, token)
    assert response.status_code == 410
    assert "no longer the one recorded for you" in response.content.decode()
    ann.refresh_from_db()
    assert ann.user is None
    assert Invitation.objects.get(person=ann).used_at is None


def test_accepting_an_invitation_while_logged_in_as_someone_else_asks_to_log_out_first(client, logins, ann):
    client.force_login(logins["vice_president"])
    token = invite(client, ann)
    client.force_login(logins["member"])
    page = client.get(reverse("members:invitation_accept", args=[token]))
    assert page.status_code == 200
    html = page.content.decode()
    assert "Log out first" in html and "logged in as\n  <strong>member</strong>" in html
    assert f'<input type="hidden" name="next" value="/members/invitation/{token}/">' in html
    posted = accept(client, token)
    assert posted.status_code == 409
    ann.refresh_from_db()
    assert ann.user is None
    assert int(client.session["_auth_user_id"]) == logins["member"].pk  # the session was not switched
    # Logging out brings the invited person back to the link, which then works.
    out = client.post(reverse("logout"), {"next": f"/members/invitation/{token}/"})
    assert out["Location"] == f"/members/invitation/{token}/"
    assert accept(client, token).status_code == 302


# --- Usernames -------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("username", "problem"),
    [
        (
            "r\u0456ck",
            "A username may hold unaccented letters, digits and @ . + - _ only (no spaces).",
        ),  # Cyrillic і
        ("rené", "A username may hold unaccented letters, digits and @ . + - _ only (no spaces)."),
        ("RICK", "The username 'RICK' is taken; choose another."),
        ("Rick", "The username 'Rick' is taken; choose another."),
        ("rick2", ""),
    ],
)
def test_a_username_is_ascii_and_not_another_in_other_capitals(username, problem):
    UserFactory(username="rick")
    assert username_problem(username) == problem


def test_the_invitation_refuses_a_lookalike_username(client, logins, ann):
    UserFactory(username="rick")
    client.force_login(logins["president"])
    token = invite(client, ann)
    client.logout()
    response = accept(client, token, username="r\u0456ck")
    assert response.status_code == 200
    assert response.context["form"].errors["username"] == [
        "A username may hold unaccented letters, digits and @ . + - _ only (no spaces)."
    ]
    assert not get_user_model().objects.filter(username="r\u0456ck").exists()


def test_the_admin_forms_refuse_a_lookalike_or_a_name_in_other_capitals(db):
    rick = UserFactory(username="rick")
    for name in ("r\u0456ck", "RICK"):
        form = LoginCreationForm(
            data={"username": name, "password1": PASSWORD, "password2": PASSWORD, "usable_password": "true"}
        )
        assert not form.is_valid() and "username" in form.errors
    other = UserFactory(username="other")
    change = LoginChangeForm(
        instance=other, data={"username": "Rick", "date_joined_0": "2026-01-01", "date_joined_1": "00:00"}
    )
    change.is_valid()
    assert change.errors["username"] == ["The username 'Rick' is taken; choose another."]
    unchanged = LoginChangeForm(instance=rick, data={"username": "rick"})
    unchanged.is_valid()
    assert "username" not in unchanged.errors
