"""Who's coming on the pages (issue 19): a member answers from the event page and from the home page's
next-event card with plain POST forms, officers see the count and the list, and opening the night applies the
answers. The clock is frozen on Nov 29, 2026: the next event is event 5, Saturday Dec 12."""

import datetime as dt
import threading

import pytest
import time_machine
from django.core.management import call_command
from django.db import connection, connections

from events.models import Attendance, Rsvp
from events.services.attendance import attendance_prepare
from events.services.rsvp import rsvp_answer
from ncpc.core.models import AuditEntry
from tests.factories import MembershipFactory, PersonFactory, member_user, season_make

pytestmark = pytest.mark.django_db

EVENT = "/events/2026-27/5/"
RSVP = EVENT + "rsvp/"


@pytest.fixture
def others(season, today):
    return {
        key: MembershipFactory(
            person=PersonFactory(key=key, first_name=key.upper(), last_name="Player"), season=season
        )
        for key in "xyz"
    }


def mine(user):
    return Rsvp.objects.filter(membership__person__user=user).first()


def test_a_member_answers_from_the_event_page(member_client, member, season):
    page = member_client.get(EVENT).content.decode()
    assert "Who's coming" in page and "Are you coming?" in page and f'action="{RSVP}"' in page

    response = member_client.post(RSVP, {"answer": "coming", "back": "event"}, follow=True)

    assert response.redirect_chain[-1][0] == EVENT + "#rsvp"
    html = response.content.decode()
    assert "Your answer for event 5: Coming." in html
    assert 'data-rsvp-answer="coming"' in html
    assert mine(member).answered_by == member


def test_a_member_answers_late_from_the_home_card_and_sees_it_there(member_client, member, season):
    home = member_client.get("/").content.decode()
    assert "Are you coming?" in home and f'action="{RSVP}"' in home

    response = member_client.post(RSVP, {"answer": "late", "exemption": "on", "back": "home"}, follow=True)

    assert response.redirect_chain[-1][0] == "/"
    html = response.content.decode()
    assert "Your answer for event 5: Coming late." in html
    assert "Called in Nov 29, 7:00 a.m. · exemption asked for" in html
    assert (mine(member).answer, mine(member).exemption) == ("late", True)


def test_a_substitute_from_the_phone_form_and_a_refusal_shown_as_a_message(member_client, member, season):
    refused = member_client.post(
        RSVP, {"answer": "substitute", "substitute_name": "Carl Guest", "back": "event"}, follow=True
    )
    assert "Confirm that Carl Guest is not a professional gambler (§5.3.1)" in refused.content.decode()
    assert mine(member) is None

    response = member_client.post(
        RSVP,
        {
            "answer": "substitute",
            "substitute_name": "Carl Guest",
            "prize_to": "substitute",
            "not_professional": "on",
            "back": "event",
        },
        follow=True,
    )
    assert "Carl Guest plays your seat · prize to the substitute" in response.content.decode()


def test_a_form_sent_twice_records_once(member_client, member, season):
    for _ in range(2):
        member_client.post(RSVP, {"answer": "not_coming", "back": "event"})
    assert Rsvp.objects.count() == 1
    assert AuditEntry.objects.filter(action="rsvp.answer").count() == 1


def test_a_member_cannot_answer_for_another(member_client, member, season, others):
    """Nothing posted names the seat: a forged membership id still answers for the signed-in member only."""
    member_client.post(RSVP, {"answer": "not_coming", "membership": others["x"].pk, "back": "event"})
    assert not Rsvp.objects.filter(membership=others["x"]).exists()
    assert mine(member).answer == "not_coming"


def test_a_login_without_a_seat_at_the_event_cannot_answer(client, season, today, others):
    officer_only = member_user(season=season_make(2025), username="old", office="president")
    client.force_login(officer_only)
    response = client.post(RSVP, {"answer": "coming", "back": "event"}, follow=True)
    assert response.status_code in (200, 403)
    assert not Rsvp.objects.exists()


def test_an_unknown_answer_is_a_message_and_get_writes_nothing(member_client, member, season):
    response = member_client.post(RSVP, {"answer": "perhaps", "back": "event"}, follow=True)
    assert "Choose an answer" in response.content.decode()
    assert member_client.get(RSVP).status_code == 405
    assert not Rsvp.objects.exists()


def test_officers_see_the_count_and_who_has_not_answered_members_only_the_count(
    client, member, vice_president, season, others
):
    event = season.events.get(number=5)
    rsvp_answer(event=event, membership=others["x"], answer="coming", actor=None)
    rsvp_answer(event=event, membership=others["y"], answer="late", actor=None)
    client.force_login(vice_president)
    html = client.get(EVENT).content.decode()
    assert 'data-rsvp-count="coming">Coming: <strong>1</strong>' in html
    assert 'data-rsvp-count="late">Coming late: <strong>1</strong>' in html
    assert 'data-rsvp-count="none">No answer: <strong>3</strong>' in html
    assert "Not answered yet:</strong>" in html and "Z Player" in html

    client.force_login(member)
    html = client.get(EVENT).content.decode()
    assert 'data-rsvp-count="coming">Coming: <strong>1</strong>' in html
    assert "Not answered yet" not in html and "Z Player" not in html


def test_once_the_night_is_opened_the_forms_give_way_to_a_note(member_client, member, season):
    member_client.post(RSVP, {"answer": "not_coming", "back": "event"})
    attendance_prepare(event=season.events.get(number=5))
    html = member_client.get(EVENT).content.decode()
    assert "The night of event 5 is open: tell an officer" in html
    assert f'action="{RSVP}"' not in html
    late = member_client.post(RSVP, {"answer": "coming", "back": "event"}, follow=True)
    assert "The night of event 5 is open" in late.content.decode()
    assert mine(member).answer == "not_coming"


def test_opening_the_night_from_the_page_applies_the_answers(officer_client, vice_president, season, others):
    event = season.events.get(number=5)
    rsvp_answer(event=event, membership=others["x"], answer="not_coming", actor=None)
    response = officer_client.post(
        EVENT + "attendance/prepare/", {"back": "attendance", "confirmed": "1"}, follow=True
    )
    html = response.content.decode()
    assert "Seats listed: 4 members from the roster." in html
    assert "Answers applied to the seats: 1 (who&#x27;s coming)." in html
    assert Attendance.objects.get(event=event, membership=others["x"]).status == "absent"


def test_the_rsvp_reminder_command_sends_once_days_ahead(season, today, others, capsys):
    rsvp_answer(event=season.events.get(number=5), membership=others["x"], answer="coming", actor=None)
    call_command("rsvp_reminders", "--on", "2026-12-08")  # 4 days before: not yet
    assert "0 reminder(s)" in capsys.readouterr().out
    call_command("rsvp_reminders", "--on", "2026-12-09")
    assert "2 reminder(s)" in capsys.readouterr().out
    call_command("rsvp_reminders", "--on", "2026-12-10")
    assert "0 reminder(s)" in capsys.readouterr().out


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif("connection.vendor != 'postgresql'", reason="row locks need PostgreSQL")
def test_two_submits_of_the_same_answer_at_once_make_one_row():
    assert connection.vendor == "postgresql"
    season = season_make(2026)
    membership = MembershipFactory(
        person=PersonFactory(key="r", first_name="R", last_name="Racer"), season=season
    )
    event = season.events.get(number=5)
    barrier = threading.Barrier(2)
    outcomes = []

    def submit():
        try:
            barrier.wait()
            outcomes.append(rsvp_answer(event=event, membership=membership, answer="late", actor=None).pk)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=submit) for _ in range(2)]
    with time_machine.travel(dt.datetime(2026, 11, 29, 12, 0, tzinfo=dt.UTC), tick=True):
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    assert len(outcomes) == 2 and outcomes[0] == outcomes[1]
    assert Rsvp.objects.filter(event=event).count() == 1
    assert AuditEntry.objects.filter(action="rsvp.answer").count() == 1


def test_the_card_escapes_what_members_typed_and_carries_the_pages_csrf_token(season):
    from django.template.loader import render_to_string

    from events.services.rsvp import RsvpCard

    def rsvp_form_html(card, *, back, csrf_token):
        return render_to_string(
            "events/partials/rsvp_form.html", {"card": card, "back": back, "csrf_token": csrf_token}
        )

    event = season.events.get(number=5)
    card = RsvpCard(
        event=event,
        answer="substitute",
        answer_label="Sending a substitute",
        called_in_at=None,
        exemption=False,
        substitute_name='Sam "<b>"',
        prize_to="substitute",
        open=True,
        closed_reason="",
        substitutes_left=1,
        exemption_free=False,
        substitutes_used=2,
        substitutes_limit=3,
    )
    html = rsvp_form_html(card, back="home", csrf_token="TOKEN123")
    assert "Sam &quot;&lt;b&gt;&quot; plays your seat · prize to the substitute" in html
    assert 'value="Sam &quot;&lt;b&gt;&quot;"' in html and "<b>" not in html
    assert html.count('name="csrfmiddlewaretoken" value="TOKEN123"') == 3  # one per form
    assert (
        "Substitutes this season: 2 of 3 at other nights, so this one makes 3 of 3." in html
        and "Your exemption of the season is taken already." in html
    )
    assert f'action="{RSVP}"' in html
    assert "csrfmiddlewaretoken" not in rsvp_form_html(card, back="home", csrf_token="NOTPROVIDED")
