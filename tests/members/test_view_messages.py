"""What the officers' membership pages say after a command is done or refused (members/views, through
command_run): the exact sentence, with the person it names."""

import datetime as dt

from django.urls import reverse

from members.models import RulesSignature, Suspension, WaitingListEntry
from members.services.standing import suspension_create
from members.services.waiting_list import waiting_list_add
from tests.factories import PersonFactory
from tests.finance.factories import pay
from tests.members.factories import seats_fill


def _said(response) -> list[tuple[str, str]]:
    return [(m.level_tag, str(m)) for m in response.context["messages"]]


def test_adding_to_and_taking_off_the_waiting_list_names_the_person(officer_client, season, today):
    person = PersonFactory(first_name="Wanda", last_name="Wait")
    response = officer_client.post(reverse("members:waiting_list"), {"person": person.pk}, follow=True)
    assert _said(response) == [("success", "Added Wanda Wait to the waiting list at position 1.")]

    entry = WaitingListEntry.objects.get(person=person)
    url = reverse("members:waiting_list_withdraw", args=[entry.pk])
    response = officer_client.post(url, {"reason": "lost interest"}, follow=True)
    assert _said(response) == [("success", "Took Wanda Wait off the waiting list.")]


def test_taking_someone_off_the_list_twice_is_a_warning_to_reload(officer_client, season, today):
    entry = waiting_list_add(person=PersonFactory(first_name="Wanda", last_name="Wait"), on=today)
    url = reverse("members:waiting_list_withdraw", args=[entry.pk])
    officer_client.post(url, {"reason": "lost interest"}, follow=True)
    response = officer_client.post(url, {"reason": "lost interest"}, follow=True)
    assert _said(response) == [("warning", "Wanda Wait is no longer waiting; reload the page.")]


def test_ending_a_suspension_early_says_its_new_last_day(officer_client, season, today):
    membership = seats_fill(season=season, count=1)[0]
    membership.person.first_name, membership.person.last_name = "Sam", "Pended"
    membership.person.save()
    suspension = suspension_create(
        membership=membership, start=today, end=today + dt.timedelta(days=30), reason="conduct"
    )
    url = reverse("members:suspension_end", args=[suspension.pk])
    response = officer_client.post(url, {"last_day": "2026-12-05", "reason": "served"}, follow=True)
    assert _said(response) == [("success", "Sam Pended's suspension now ends on Dec 5, 2026 (included).")]
    assert Suspension.objects.get(pk=suspension.pk).end == dt.date(2026, 12, 5)


def test_recording_and_withdrawing_a_signature_names_the_member(officer_client, season, today):
    membership = seats_fill(season=season, count=1)[0]
    membership.person.first_name, membership.person.last_name = "Sig", "Nature"
    membership.person.save()
    RulesSignature.objects.filter(membership=membership).delete()
    response = officer_client.post(
        reverse("members:signatures"), {"membership": membership.pk, "signed_on": "2026-11-29"}, follow=True
    )
    assert _said(response) == [("success", "Recorded the signature of Sig Nature.")]

    signature = RulesSignature.objects.get(membership=membership)
    url = reverse("members:signature_withdraw", args=[signature.pk])
    response = officer_client.post(url, {"reason": "wrong member ticked"}, follow=True)
    assert _said(response) == [("success", "Withdrew Sig Nature's signature: Sig Nature is unsigned again.")]


def test_recording_that_a_member_turned_professional_names_them(officer_client, season, today):
    membership = seats_fill(season=season, count=1)[0]
    pay(membership=membership, day="2026-08-22", amount="510.00")  # paid up: in good standing (§2.4.2)
    person = membership.person
    person.first_name, person.last_name = "Pro", "Player"
    person.save()
    url = reverse("members:turned_pro", args=[person.key])
    response = officer_client.post(url, {"on": "2026-11-29"}, follow=True)
    assert _said(response) == [
        ("success", "Recorded that Pro Player turned professional; the seat is kept (§2.4.2).")
    ]
