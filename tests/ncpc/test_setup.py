"""A club starts without the Django admin (SPEC §16.8): ``manage.py start_club`` on an empty database, then the
set-up checklist on the home page, ticked off step by step in the app."""

import io

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError
from django.urls import reverse

from events.models import Season
from members.models import OfficerTerm, Person
from ncpc.club.services.setup import RULES_FREEZE, setup_steps
from ncpc.core.models import AuditEntry
from tests.factories import MembershipFactory, PersonFactory

pytestmark = pytest.mark.django_db

PASSWORD = "first-night-2026"


def start_club(**options):
    values = {
        "username": "ada",
        "email": "ada@example.org",
        "first_name": "Ada",
        "last_name": "Byron",
        "password": PASSWORD,
    } | options
    out = io.StringIO()
    call_command("start_club", "--no-input", stdout=out, **values)
    return out.getvalue()


def done(slug: str) -> bool:
    return next(step for step in setup_steps() if step.slug == slug).done


def test_start_club_on_an_empty_database_makes_a_president_who_logs_in_and_sees_the_checklist(client, today):
    assert not Season.objects.exists() and not get_user_model().objects.exists()
    out = start_club()
    assert "Created the login 'ada' for Ada Byron, President from Nov 29, 2026 to May 31, 2027" in out
    person = Person.objects.get(user__username="ada")
    assert person.email == person.user.email == "ada@example.org"
    assert not person.user.is_staff and not person.user.is_superuser
    term = OfficerTerm.objects.get()
    assert (term.office, term.person) == ("president", person)

    response = client.post(reverse("login"), {"username": "ada", "password": PASSWORD})
    assert response.status_code == 302
    home = client.get("/").content.decode()
    assert "Set up the club" in home
    assert "The first season" in home and "Officers&#x27; terms" in home
    assert f'href="{reverse("events:rules_current")}">Create the first season</a>' in home
    # Every step's page opens for the first officer, with no season yet.
    slugs = {step.slug for step in setup_steps()}
    assert {"season", "venues", "rules", "officers", "roster", "signatures", "invitations"} <= slugs
    for step in setup_steps():
        assert client.get(step.url).status_code in (200, 302), step.url
    assert client.get(reverse("setup")).status_code == 200


def test_start_club_refuses_while_someone_is_president(today):
    start_club()
    with pytest.raises(CommandError, match="Ada Byron is President until May 31, 2027"):
        start_club(username="bo", email="bo@example.org")
    assert get_user_model().objects.count() == 1


def test_start_club_refuses_a_weak_password_and_creates_nothing(today):
    with pytest.raises(CommandError, match="too common"):
        start_club(password="password")
    assert not get_user_model().objects.exists() and not OfficerTerm.objects.exists()
    assert not Person.objects.exists()


def test_start_club_without_input_names_what_is_missing(db):
    with pytest.raises(CommandError, match="--email"):
        call_command(
            "start_club", "--no-input", username="ada", first_name="A", last_name="B", password=PASSWORD
        )


def test_the_checklist_steps_tick_off_as_the_club_is_set_up(client, today):
    start_club()
    president = get_user_model().objects.get(username="ada")
    client.force_login(president)
    assert not any(step.done for step in setup_steps())
    # The rules are confirmed for a season: not before one exists.
    refused = client.post(reverse("setup_confirm"), {"step": "rules"}, follow=True)
    assert "Create the season first" in refused.content.decode()

    client.post(reverse("season_new"), {"start_year": 2026})
    season = Season.objects.get()
    assert done("season") and not done("rules")

    client.post(reverse("events:venues"), {"name": "The Back Room", "address": "1 Main St", "active": "on"})
    assert done("venues")

    # The rules page says when they freeze; the bylaws' numbers may be right as they are.
    rules_step = next(step for step in setup_steps() if step.slug == "rules")
    assert RULES_FREEZE in rules_step.text and "first event are final" in RULES_FREEZE
    client.post(reverse("setup_confirm"), {"step": "rules"})
    assert done("rules")
    assert AuditEntry.objects.filter(action="setup.confirm", actor=president).exists()

    for office, key in (("vice_president", "vera"), ("treasurer", "tom")):
        client.post(
            reverse("members:officer_terms"),
            {
                "office": office,
                "person": PersonFactory(key=key).pk,
                "start": "2026-11-29",
                "end": "2027-05-31",
            },
        )
    assert done("officers")

    seats = [
        MembershipFactory(season=season, person=PersonFactory(email=f"m{i}@example.org")) for i in range(3)
    ]
    assert done("roster") and not done("signatures")
    client.post(
        reverse("members:signatures"),
        {"bulk": "1", "membership": [m.pk for m in seats], "signed_on": "2026-11-29"},
    )
    assert done("signatures")

    assert not done("invitations")
    client.post(reverse("members:invitations"), {"all": "1"})
    assert done("invitations")

    # Steps built beside this one (club identity, opening balances) are left out until their pages exist.
    names = {step.slug for step in setup_steps()}
    assert {"season", "venues", "rules", "officers", "roster", "signatures", "invitations"} <= names
    if names == {"season", "venues", "rules", "officers", "roster", "signatures", "invitations"}:
        assert "Set up the club" not in client.get("/").content.decode()


def test_the_checklist_can_be_hidden_and_stays_under_set_up(client, today):
    start_club()
    client.force_login(get_user_model().objects.get(username="ada"))
    client.post(reverse("setup_home"), {"show": "0"})
    assert "Set up the club" not in client.get("/").content.decode()
    page = client.get(reverse("setup")).content.decode()
    assert "Show the checklist on the home page again" in page
    assert 'href="/setup/">Set-up</a>' in page
    client.post(reverse("setup_home"), {"show": "1"})
    assert "Set up the club" in client.get("/").content.decode()


def test_only_confirmable_steps_can_be_marked_done_by_hand(client, today):
    start_club()
    client.force_login(get_user_model().objects.get(username="ada"))
    response = client.post(reverse("setup_confirm"), {"step": "roster"}, follow=True)
    assert "cannot be confirmed by hand" in response.content.decode()
    assert not done("roster")


def test_a_member_gets_403_on_the_setup_pages_and_sees_no_checklist(member_client):
    assert "Set up the club" not in member_client.get("/").content.decode()
    assert member_client.get(reverse("setup")).status_code == 403
    assert member_client.post(reverse("setup_confirm"), {"step": "rules"}).status_code == 403
    assert member_client.post(reverse("setup_home"), {"show": "0"}).status_code == 403
    assert member_client.get(reverse("members:officer_terms")).status_code == 403


def test_from_the_second_season_on_the_checklist_leaves_the_home_page(client, today):
    start_club()
    client.force_login(get_user_model().objects.get(username="ada"))
    client.post(reverse("season_new"), {"start_year": 2026})
    assert "Set up the club" in client.get("/").content.decode()
    client.post(reverse("season_new"), {"start_year": 2027})
    assert Season.objects.count() == 2
    assert "Set up the club" not in client.get("/").content.decode()
    assert client.get(reverse("setup")).status_code == 200


def test_the_opening_balances_step_is_done_once_every_asset_account_has_one(db, today):
    """A zero balance counts (it is recorded, and posts nothing): a club with no WSOP escrow yet is done."""
    import datetime as dt
    from decimal import Decimal

    from finance.services.opening import opening_balance_record

    assert "opening" in {step.slug for step in setup_steps()}
    opening_balance_record(code="cash_box", date=dt.date(2026, 7, 31), amount=Decimal("320.00"), actor=None)
    opening_balance_record(code="checking", date=dt.date(2026, 7, 31), amount=Decimal("3650.00"), actor=None)
    assert not done("opening")
    opening_balance_record(code="wsop_escrow", date=dt.date(2026, 7, 31), amount=Decimal("0.00"), actor=None)
    assert done("opening")


def test_the_checklist_lists_the_roster_before_the_officers_terms_as_readme_says(db, today):
    # README, "Start your club": name the Vice President and the Treasurer once they are on record, that is
    # after the roster.
    slugs = [step.slug for step in setup_steps()]
    assert slugs.index("roster") + 1 == slugs.index("officers")
    assert slugs.index("officers") < slugs.index("signatures")
    officers = next(step for step in setup_steps() if step.slug == "officers")
    assert "once the roster holds them" in officers.text


def test_the_setup_page_shows_the_roster_step_above_the_officers_terms(client, today):
    start_club()
    client.force_login(get_user_model().objects.get(username="ada"))
    page = client.get(reverse("setup")).content.decode()
    steps = page[page.index('<ol class="list-group') :]
    assert steps.index(">The roster</a>") < steps.index(">Officers&#x27; terms</a>")
