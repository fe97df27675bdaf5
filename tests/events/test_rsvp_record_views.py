"""Officers record the answer of a member who phoned (SPEC §16.5, issue 34): the form on the event page, who may
use it, bad input as a clear message, a form sent twice recorded once, and the mark on the list.

The clock is frozen on Nov 29, 2026 at 12:00 UTC (7:00 am in New York); event 5 is on Saturday Dec 12."""

import pytest

from events.models import Rsvp
from events.services.attendance import attendance_prepare
from members.models import Person
from ncpc.core.models import AuditEntry
from tests.factories import MembershipFactory, PersonFactory, season_make

pytestmark = pytest.mark.django_db

EVENT = "/events/2026-27/5/"
RECORD = EVENT + "rsvp/record/"


@pytest.fixture
def xavier(season, today):
    return MembershipFactory(
        person=PersonFactory(key="x", first_name="Xavier", last_name="Player"), season=season
    )


@pytest.fixture
def vp_name(vice_president):
    person = Person.objects.get(user=vice_president)
    person.first_name, person.last_name = "Vera", "Price"
    person.save()
    return "Vera Price"


def flashes(response) -> list[str]:
    return [str(m) for m in response.context["messages"]] if response.context else []


def test_an_officer_records_a_late_call_with_the_exemption(officer_client, vice_president, vp_name, xavier):
    response = officer_client.post(
        RECORD, {"membership": xavier.pk, "answer": "late", "exemption": "on"}, follow=True
    )

    assert response.redirect_chain[-1][0] == EVENT + "#rsvp"
    assert flashes(response) == [
        "Recorded for Xavier Player (phone call): Coming late (called in Nov 29, 7:00 AM, asks for the exemption)."
    ]
    rsvp = Rsvp.objects.get(membership=xavier)
    assert (rsvp.answer, rsvp.exemption, rsvp.recorded_by) == ("late", True, vice_president)
    html = response.content.decode()
    assert "Recorded by Vera Price (phone call)" in html
    assert AuditEntry.objects.filter(action="rsvp.record", actor=vice_president).count() == 1


def test_a_substitute_recorded_for_a_member(officer_client, vp_name, xavier):
    officer_client.post(
        RECORD,
        {
            "membership": xavier.pk,
            "answer": "substitute",
            "substitute_name": "Sam Jones",
            "prize_to": "substitute",
            "not_professional": "on",
        },
    )
    rsvp = Rsvp.objects.get(membership=xavier)
    assert (rsvp.substitute_name, rsvp.prize_to) == ("Sam Jones", "substitute")


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"membership": "", "answer": "coming"}, "Choose a member on the roster of event 5."),
        ({"membership": "abc", "answer": "coming"}, "Choose a member on the roster of event 5."),
        ({"membership": 999999, "answer": "coming"}, "Choose a member on the roster of event 5."),
        ({"answer": "maybe"}, "Choose an answer: coming, not coming, late or sending a substitute."),
        ({"answer": "substitute"}, "Enter the name of the substitute who plays your seat (§5.3)."),
        (
            {"answer": "substitute", "substitute_name": "Sam Jones"},
            "Confirm that Sam Jones is not a professional gambler (§5.3.1) before entering the substitute.",
        ),
    ],
)
def test_bad_input_is_a_clear_message_and_records_nothing(officer_client, xavier, data, message):
    data = {"membership": xavier.pk, **data}
    response = officer_client.post(RECORD, data, follow=True)
    assert response.status_code == 200
    assert message in response.content.decode().replace("&#x27;", "'")
    assert not Rsvp.objects.exists()


def test_a_form_sent_twice_records_once(officer_client, xavier):
    data = {"membership": xavier.pk, "answer": "late", "exemption": "on"}
    officer_client.post(RECORD, data)
    first = Rsvp.objects.get(membership=xavier)
    officer_client.post(RECORD, data)
    again = Rsvp.objects.get(membership=xavier)
    assert (again.pk, again.called_in_at) == (first.pk, first.called_in_at)
    assert AuditEntry.objects.filter(action="rsvp.record").count() == 1


def test_a_member_of_another_season_is_not_on_the_roster(officer_client, xavier):
    elsewhere = MembershipFactory(season=season_make(2025))
    response = officer_client.post(RECORD, {"membership": elsewhere.pk, "answer": "coming"}, follow=True)
    assert "Choose a member on the roster of event 5." in response.content.decode()
    assert not Rsvp.objects.exists()


def test_only_the_officers_who_run_the_night_record_answers(client, member, treasurer, xavier):
    for user in (member, treasurer):
        client.force_login(user)
        assert client.post(RECORD, {"membership": xavier.pk, "answer": "coming"}).status_code == 403
        assert 'action="/events/2026-27/5/rsvp/record/"' not in client.get(EVENT).content.decode()
    client.logout()
    assert client.post(RECORD, {"membership": xavier.pk, "answer": "coming"}).status_code == 302
    assert not Rsvp.objects.exists()


def test_the_form_is_on_the_event_page_until_the_night_is_opened(officer_client, season, xavier):
    html = officer_client.get(EVENT).content.decode()
    assert 'action="/events/2026-27/5/rsvp/record/"' in html
    assert f'<option value="{xavier.pk}">Xavier Player</option>' in html

    attendance_prepare(event=season.events.get(number=5))

    assert 'action="/events/2026-27/5/rsvp/record/"' not in officer_client.get(EVENT).content.decode()
    response = officer_client.post(RECORD, {"membership": xavier.pk, "answer": "coming"}, follow=True)
    # The officer is told where the seat is changed now, not the member's "tell an officer".
    assert (
        "The night of event 5 is open: answers are closed; set Xavier Player&#x27;s seat on the attendance page "
        "or the console instead." in response.content.decode()
    )
    assert not Rsvp.objects.exists()
