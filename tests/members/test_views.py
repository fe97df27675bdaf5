import datetime as dt
from decimal import Decimal

import pytest
from django.urls import reverse

from events.models import Season
from members.models import Membership, RulesSignature, WaitingListEntry
from members.services.waiting_list import waiting_list_add
from tests.factories import MembershipFactory, PersonFactory
from tests.members.factories import seats_fill

OFFICER_PAGES = (
    "members:manage",
    "members:person_new",
    "members:admit",
    "members:waiting_list",
    "members:transfers",
    "members:removals",
    "members:suspensions",
    "members:signatures",
)


@pytest.mark.parametrize("name", OFFICER_PAGES)
def test_the_vice_president_can_open_each_officer_page(officer_client, name):
    assert officer_client.get(reverse(name)).status_code == 200


@pytest.mark.parametrize("name", OFFICER_PAGES)
def test_a_member_gets_403_on_each_officer_page(member_client, name):
    assert member_client.get(reverse(name)).status_code == 403
    assert member_client.post(reverse(name), {}).status_code == 403


def test_a_member_cannot_reorder_the_waiting_list_or_record_turning_pro(member_client, member, today):
    entry = waiting_list_add(person=PersonFactory(), on=today)
    url = reverse("members:waiting_list_move", args=[entry.pk])
    assert member_client.post(url, {"direction": "down"}).status_code == 403
    key = member.person.key
    assert (
        member_client.post(reverse("members:turned_pro", args=[key]), {"on": "2026-11-29"}).status_code == 403
    )


def test_the_directory_shows_members_contact_but_personal_data_only_to_officers_and_the_member(
    client, member, vice_president, season
):
    other = seats_fill(season=season, count=1)[0].person
    other.phone, other.address = "513-555-0199", "1 Secret Lane"
    other.save()
    me = member.person
    me.phone = "513-555-0111"
    me.save()

    client.force_login(member)
    page = client.get(reverse("members:directory")).content.decode()
    assert other.full_name in page and other.email in page
    assert "513-555-0199" not in page and "1 Secret Lane" not in page
    assert "513-555-0111" in page  # their own phone

    client.force_login(vice_president)
    page = client.get(reverse("members:directory")).content.decode()
    assert "513-555-0199" in page and "1 Secret Lane" in page and "1980-01-01" in page


def test_a_profile_shows_date_of_birth_to_the_member_themself_but_not_to_other_members(
    client, member, season
):
    other = seats_fill(season=season, count=1)[0].person
    client.force_login(member)
    own = client.get(reverse("members:profile", args=[member.person.key])).content.decode()
    assert "January 1, 1980" in own
    theirs = client.get(reverse("members:profile", args=[other.key])).content.decode()
    assert "January 1, 1980" not in theirs
    assert "Results and points" in theirs
    assert "Balance" not in theirs  # another member's dues stay private


def test_admission_through_the_page_lists_every_failed_condition_and_saves_nothing(officer_client, season):
    young = PersonFactory(date_of_birth=dt.date(2010, 5, 5))
    response = officer_client.post(
        reverse("members:admit"),
        {
            "person": young.pk,
            "on": "2026-11-29",
            "held_on": "2026-11-29",
            "yes": "0",
            "no": "1",
            "abstain": "0",
        },
    )
    page = response.content.decode()
    assert response.status_code == 200
    assert "Too young" in page
    assert "The sponsor must be a current member" in page
    assert "not a majority" in page
    assert "statement" in page
    assert not Membership.objects.filter(person=young).exists()


def test_admission_through_the_page_seats_the_person(officer_client, season, member):
    person = PersonFactory()
    response = officer_client.post(
        reverse("members:admit"),
        {
            "person": person.pk,
            "on": "2026-11-29",
            "sponsor": member.person.pk,
            "held_on": "2026-11-29",
            "yes": "2",
            "no": "0",
            "abstain": "0",
            "declared_not_professional": "on",
        },
    )
    assert response.status_code == 302
    assert Membership.objects.get(person=person, season=season).first_event == 5


def test_the_vice_president_records_a_signature_on_the_checklist(officer_client, member, season):
    membership = Membership.objects.get(person=member.person, season=season)
    page = officer_client.get(reverse("members:signatures")).content.decode()
    assert "must sign before event 5" in page
    response = officer_client.post(
        reverse("members:signatures"), {"membership": membership.pk, "signed_on": "2026-11-29"}
    )
    assert response.status_code == 302
    assert RulesSignature.objects.filter(membership=membership).exists()


def test_a_seat_transfer_needs_the_confirmation(officer_client, member, season):
    seller = Membership.objects.get(person=member.person, season=season)
    buyer = PersonFactory()
    data = {
        "form": "transfer",
        "t-seller": seller.pk,
        "t-buyer": buyer.pk,
        "t-how": "sold",
        "t-on": "2026-11-29",
        "t-sponsor": member.person.pk,
        "t-held_on": "2026-11-29",
        "t-yes": Membership.objects.filter(season=season).count(),
        "t-no": 0,
        "t-abstain": 0,
        "t-declared_not_professional": "on",
    }
    officer_client.post(reverse("members:transfers"), data)
    seller.refresh_from_db()
    assert seller.left_after_event is None
    officer_client.post(reverse("members:transfers"), {**data, "t-confirm": "on"})
    seller.refresh_from_db()
    assert seller.how_left == "sold"
    assert Membership.objects.get(person=buyer, season=season).seat_from == seller


def test_the_waiting_list_page_reorders_and_offers_admission_to_the_first_alternate(officer_client, today):
    a = waiting_list_add(person=PersonFactory(), on=today)
    b = waiting_list_add(person=PersonFactory(), on=today)
    officer_client.post(reverse("members:waiting_list_move", args=[b.pk]), {"direction": "up"})
    page = officer_client.get(reverse("members:waiting_list")).content.decode()
    assert page.index(b.person.full_name) < page.index(a.person.full_name)
    assert f"?person={b.person.key}" in page
    assert WaitingListEntry.objects.get(pk=b.pk).position < WaitingListEntry.objects.get(pk=a.pk).position


def test_officer_navigation_links_to_the_membership_pages(client, vice_president, member):
    client.force_login(vice_president)
    assert reverse("members:manage") in client.get("/").content.decode()
    client.force_login(member)
    assert reverse("members:manage") not in client.get("/").content.decode()


def test_a_late_joiners_profile_shows_the_seasons_share_of_wsop_winnings(member_client, season):
    Season.objects.filter(pk=season.pk).update(late_joiner_share_pct=Decimal("2.00"))
    late = MembershipFactory(season=season, first_event=5)
    page = member_client.get(reverse("members:profile", args=[late.person.key])).content.decode()
    assert "not WSOP-eligible, 2% benefit" in page


def test_a_seat_taken_over_late_is_announced_with_the_seasons_share(officer_client, member, season):
    Season.objects.filter(pk=season.pk).update(late_joiner_share_pct=Decimal("2.00"))
    seller = Membership.objects.get(person=member.person, season=season)
    data = {
        "form": "transfer",
        "t-seller": seller.pk,
        "t-buyer": PersonFactory().pk,
        "t-how": "sold",
        "t-on": "2026-11-29",
        "t-sponsor": member.person.pk,
        "t-held_on": "2026-11-29",
        "t-yes": Membership.objects.filter(season=season).count(),
        "t-no": 0,
        "t-abstain": 0,
        "t-declared_not_professional": "on",
        "t-confirm": "on",
    }
    page = officer_client.post(reverse("members:transfers"), data, follow=True).content.decode()
    assert "not WSOP-eligible, gets the 2% benefit" in page


def test_spec_15_2_the_transfer_page_refuses_a_buyer_without_a_majority_and_says_why(
    officer_client, member, season
):
    seller = Membership.objects.get(person=member.person, season=season)
    buyer = PersonFactory()
    data = {
        "form": "transfer",
        "t-seller": seller.pk,
        "t-buyer": buyer.pk,
        "t-how": "sold",
        "t-on": "2026-11-29",
        "t-sponsor": member.person.pk,
        "t-held_on": "2026-11-29",
        "t-yes": 0,
        "t-no": 0,
        "t-abstain": 0,
        "t-confirm": "on",
    }
    page = officer_client.post(reverse("members:transfers"), data, follow=True).content.decode()
    assert "The seat was not transferred" in page and "not a majority" in page and "statement" in page
    seller.refresh_from_db()
    assert seller.left_after_event is None
    assert not Membership.objects.filter(person=buyer).exists()
