"""The events and members pages that are not money, attacked as a hurried officer or a hostile member would: the
form sent twice, words that turn the page round or run off a phone's screen, text with no end. Each attack ends
in a refusal or a page that says what happened, never a 500 nor a record made twice.

The clock stands at Nov 29, 2026 (the ``today`` fixture)."""

import pytest
from django.db import connection  # noqa: F401 - read by the PostgreSQL-only marks
from django.urls import reverse

from events.models import Event, Rsvp
from members.models import Person, RuleChange, Ruling
from ncpc.core.models import AuditEntry
from ncpc.core.text import text_problem
from tests.events.factories import night_make
from tests.factories import PersonFactory, VenueFactory

pytestmark = pytest.mark.django_db

postgres_only = pytest.mark.skipif(
    "connection.vendor != 'postgresql'", reason="parallel transactions need PostgreSQL"
)
RLO = "\u202e"  # RIGHT-TO-LEFT OVERRIDE: everything after it reads backwards until the paragraph ends
LONG_WORD = "W" * 100  # a venue's name of the longest the form takes, without a space to wrap at


def _messages(response) -> list[str]:
    return [str(m) for m in response.context["messages"]] if response.context else []


# --- the same form sent twice ------------------------------------------------------------------------------


def _ruling(**changes):
    # The event by its key, as the form's choice sends it (not a number a database's sequence may not give).
    return {
        "event": str(Event.objects.order_by("date").values_list("pk", flat=True)[2]),
        "hand": "Level 4, table 2",
        "parties": "Ann and Bob",
        "dispute": "Who won the side pot",
        "present": ["president", "vice_president", "treasurer"],
        "ruling": "Split it",
        "independent_player": "",
    } | changes


def test_a_ruling_sent_twice_is_logged_once(officer_client, season, today):
    url = reverse("members:ruling_new")
    first = officer_client.post(url, _ruling())
    again = officer_client.post(url, _ruling())
    assert (first.status_code, again.status_code) == (302, 302)
    assert Ruling.objects.count() == 1
    assert AuditEntry.objects.filter(action="ruling.record").count() == 1
    # Another ruling on the same hand (a second dispute at it) is logged.
    officer_client.post(url, _ruling(dispute="Who posts the big blind", ruling="The player to the left"))
    assert Ruling.objects.count() == 2
    assert AuditEntry.objects.filter(action="ruling.record").count() == 2


def test_a_rule_change_suggestion_sent_twice_is_recorded_once(member_client, member, season, today):
    url = reverse("members:rule_changes")
    for _ in range(2):
        response = member_client.post(url, {"suggestion": "Raise the late fee to $30"})
        assert response.status_code == 302
    assert RuleChange.objects.count() == 1
    assert AuditEntry.objects.filter(action="rules.suggest").count() == 1
    # A different suggestion by the same member is a second one.
    member_client.post(url, {"suggestion": "Start at 7:30 PM"})
    assert list(RuleChange.objects.order_by("pk").values_list("suggestion", flat=True)) == [
        "Raise the late fee to $30",
        "Start at 7:30 PM",
    ]


def test_a_rule_change_suggestion_longer_than_2000_characters_is_refused(member_client, season, today):
    response = member_client.post(reverse("members:rule_changes"), {"suggestion": "x" * 2001})
    assert response.status_code == 200
    assert response.context["form"].errors["suggestion"] == [
        "Ensure this value has at most 2000 characters (it has 2001)."
    ]
    assert not RuleChange.objects.exists()


# --- words that turn the page round ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "lines", "refused"),
    [
        ("Ann Lee", False, False),
        ("\u05e9\u05e8\u05d4 \u05dc\u05d5\u05d9", False, False),  # a Hebrew name: right to left by itself
        ("Ann\u200f Lee", False, False),  # a right-to-left mark opens nothing
        (f"Ann{RLO} Lee", False, True),
        ("Ann\u2067Lee", False, True),  # RIGHT-TO-LEFT ISOLATE left open
        ("Ann\u202aLee", False, True),  # LEFT-TO-RIGHT EMBEDDING
        ("Ann\x07Lee", False, True),  # a bell
        ("line one\nline two", True, False),  # a text area keeps its lines
        ("line one\nline two", False, True),
    ],
)
def test_direction_controls_and_control_characters_are_named(value, lines, refused):
    assert bool(text_problem(value, lines=lines)) is refused


def test_a_substitutes_name_with_a_right_to_left_override_is_refused_and_nothing_recorded(
    member_client, season, today
):
    event = Event.objects.get(season=season, number=5)
    response = member_client.post(
        reverse("events:rsvp", kwargs={"season": season.name, "number": 5}),
        {"answer": "substitute", "substitute_name": f"Sam{RLO} Sub", "not_professional": "on"},
        follow=True,
    )
    assert response.status_code == 200
    assert any(
        m.startswith("Substitute's name: This holds a direction control (code U+202E)")
        for m in _messages(response)
    )
    assert not Rsvp.objects.filter(event=event).exists()


def test_a_persons_name_with_a_right_to_left_override_is_a_form_error_and_the_name_stays(
    officer_client, season, today
):
    person = PersonFactory(key="zoe", first_name="Zoe", last_name="Hart", email="zoe@example.org")
    response = officer_client.post(
        reverse("members:person_edit", kwargs={"key": "zoe"}),
        {"first_name": f"Zoe{RLO}", "last_name": "Hart", "key": "zoe", "email": "zoe@example.org"},
    )
    assert response.status_code == 200
    assert response.context["form"].errors["first_name"][0].startswith("This holds a direction control")
    person.refresh_from_db()
    assert person.first_name == "Zoe"
    new = officer_client.post(
        reverse("members:person_new"),
        {"first_name": "Max", "last_name": f"Power{RLO}", "key": "max", "email": "max@example.org"},
    )
    assert new.status_code == 200 and "last_name" in new.context["form"].errors
    assert not Person.objects.filter(key="max").exists()


def test_a_ruling_or_a_suggestion_with_a_direction_control_is_refused(
    officer_client, vice_president, season, today
):
    response = officer_client.post(reverse("members:ruling_new"), _ruling(parties=f"Ann{RLO} and Bob"))
    assert response.status_code == 200 and "parties" in response.context["form"].errors
    assert not Ruling.objects.exists()
    suggested = officer_client.post(reverse("members:rule_changes"), {"suggestion": "Dues \u2066$60"})
    assert suggested.status_code == 200 and "suggestion" in suggested.context["form"].errors
    assert not RuleChange.objects.exists()


def test_a_venue_with_a_control_character_is_refused(officer_client, season, today):
    response = officer_client.post(
        reverse("events:venues"), {"name": "The\x07Hall", "address": "", "active": "on"}
    )
    assert response.status_code == 200
    assert response.context["form"].errors["name"][0].startswith("This holds a control character (code 0x07)")


# --- words with no end on a phone's screen -----------------------------------------------------------------
# Where an officer's or a member's words stand in a row or a heading, the page lets them break anywhere
# (Bootstrap's text-break) rather than run 2,000 px off a 390 px screen.


def test_a_venue_name_with_no_space_breaks_on_its_page_and_on_the_event_page(officer_client, season, today):
    venue = VenueFactory(name=LONG_WORD, address="A" * 200)
    Event.objects.filter(season=season, number=5).update(venue=venue, announced_on=today)
    page = officer_client.get(reverse("events:venue_edit", kwargs={"pk": venue.pk})).content.decode()
    assert f'<h1 class="h3 text-break">{LONG_WORD}</h1>' in page
    event = officer_client.get(reverse("events:event", kwargs={"season": season.name, "number": 5}))
    assert (
        f'<span class="text-break"><strong>{LONG_WORD}</strong> · {"A" * 200}</span>'
        in event.content.decode()
    )


def test_a_suggestion_with_no_space_breaks_in_the_list_and_on_the_review_page(
    client, member_client, member, president, season, today
):
    word = "S" * 1500
    member_client.post(reverse("members:rule_changes"), {"suggestion": word})
    change = RuleChange.objects.get()
    listing = member_client.get(reverse("members:rule_changes")).content.decode()
    assert f'<div class="text-break">\n        <div class="fw-semibold">{"S" * 139}…</div>' in listing
    client.force_login(president)
    review = client.get(reverse("members:rule_change_accept", kwargs={"pk": change.pk})).content.decode()
    assert f'<blockquote class="border-start ps-3 mb-3 text-break">{word}<footer' in review


def test_a_name_with_no_space_breaks_in_the_heading_of_the_members_pages(officer_client, season, today):
    PersonFactory(key="long", first_name="F" * 60, last_name="L" * 60)
    name = f"{'F' * 60} {'L' * 60}"
    profile = officer_client.get(reverse("members:profile", kwargs={"key": "long"})).content.decode()
    assert f'<h1 class="h3 mb-0 me-auto text-break">{name}</h1>' in profile
    edit = officer_client.get(reverse("members:person_edit", kwargs={"key": "long"})).content.decode()
    assert f'<h1 class="h3 mb-0 me-auto text-break">Edit {name}</h1>' in edit


def test_a_long_surname_breaks_on_the_attendance_page_and_the_seat_cards(
    officer_client, season, today, monkeypatch
):
    # Every member in good standing and signed, as the events tests have them (tests/events/conftest.py).
    monkeypatch.setattr("events.hooks.good_standing.answer", lambda *, membership, on: True)
    monkeypatch.setattr("events.hooks.rules_signed.answer", lambda *, membership: True)
    night_make(season=season, number=4, players=12)
    Person.objects.filter(key="a").update(
        first_name="Maximiliano-Alejandro", last_name="Wolfeschlegelsteinhausenbergerdorff"
    )
    name = "Maximiliano-Alejandro Wolfeschlegelsteinhausenbergerdorff"
    base = f"/events/{season.name}/4/"
    attendance = officer_client.get(base + "attendance/").content.decode()
    assert f'<div class="me-auto text-break">\n        <strong>{name}</strong>' in attendance
    officer_client.post(base + "night/draw/", {"version": 0})
    printed = officer_client.get(base + "night/seats/").content.decode()
    assert f'<div class="text-break">{name}</div>' in printed


# --- a double click without the page's script: the two requests at once (PostgreSQL) ------------------------


def _twice_at_once(command):
    from tests.test_attacks_round5 import _at_once

    return _at_once(command, command)


@pytest.mark.django_db(transaction=True)
@postgres_only
def test_a_venue_added_twice_at_once_is_added_once_and_the_second_is_refused():
    from events.models import Venue
    from events.services.event_edit import venue_save
    from ncpc.core.errors import NcpcError

    outcomes = _twice_at_once(
        lambda: venue_save(venue=None, name="The Back Room", address="", active=True, actor=None)
    )
    refused = [o for o in outcomes if isinstance(o, Exception)]
    assert len(refused) == 1 and isinstance(refused[0], NcpcError), outcomes
    assert str(refused[0]) == "A venue named The Back Room exists already."
    assert Venue.objects.filter(name="The Back Room").count() == 1
    assert AuditEntry.objects.filter(action="venue.create").count() == 1


@pytest.mark.django_db(transaction=True)
@postgres_only
def test_a_ruling_and_a_suggestion_sent_twice_at_once_are_recorded_once():
    import datetime as dt

    import time_machine

    from members.services.ballots import rule_change_submit
    from members.services.disputes import ruling_record
    from tests.factories import season_make

    with time_machine.travel(dt.datetime(2026, 11, 29, 12, 0, tzinfo=dt.UTC), tick=False):
        season = season_make(2026)
        event = season.events.get(number=3)
        person = PersonFactory(key="ann")
        outcomes = _twice_at_once(
            lambda: ruling_record(
                event=event,
                hand="Level 4",
                parties="Ann and Bob",
                dispute="Side pot",
                ruling="Split",
                present=["president", "vice_president", "treasurer"],
                involved=[],
            )
        )
        assert outcomes[0] == outcomes[1] and isinstance(outcomes[0], Ruling), outcomes
        suggested = _twice_at_once(
            lambda: rule_change_submit(
                season=season, person=person, suggestion="Dues $60", on=dt.date(2026, 11, 29)
            )
        )
        assert suggested[0] == suggested[1] and isinstance(suggested[0], RuleChange), suggested
    assert Ruling.objects.count() == 1 and RuleChange.objects.count() == 1
    assert AuditEntry.objects.filter(action__in=("ruling.record", "rules.suggest")).count() == 2


def test_a_venue_saved_twice_unchanged_and_an_event_announced_twice_record_once(
    officer_client, season, today
):
    venue = VenueFactory(name="The Back Room", address="1 Main St")
    url = reverse("events:venue_edit", kwargs={"pk": venue.pk})
    data = {"name": "The Back Room", "address": "1 Main St", "active": "on"}
    officer_client.post(url, data | {"address": "2 Main St"})
    again = officer_client.post(url, data | {"address": "2 Main St"}, follow=True)
    assert "Nothing changed: The Back Room is as it was." in _messages(again)
    assert AuditEntry.objects.filter(action="venue.update").count() == 1
    venue.refresh_from_db()
    assert venue.address == "2 Main St"

    announce = reverse("events:event_announce", kwargs={"season": season.name, "number": 6})
    for _ in range(2):
        response = officer_client.post(announce, {"venue": venue.pk})
        assert response.status_code == 302
    event = Event.objects.get(season=season, number=6)
    assert (event.venue, event.announced_on, event.announced_late) == (venue, today, False)
    assert AuditEntry.objects.filter(action="event.announce").count() == 1


def test_a_waiting_list_move_sent_twice_moves_the_entry_one_place(officer_client, season, today):
    from members.selectors import waiting_list
    from members.services.waiting_list import waiting_list_add

    ann, bob, cat = (
        waiting_list_add(person=PersonFactory(key=key, first_name=key.title(), last_name="Wait"), on=today)
        for key in ("ann", "bob", "cat")
    )
    page = officer_client.get(reverse("members:waiting_list")).content.decode()
    assert '<input type="hidden" name="at" value="1">' in page
    url = reverse("members:waiting_list_move", kwargs={"pk": ann.pk})
    officer_client.post(url, {"direction": "down", "at": "1"})
    again = officer_client.post(url, {"direction": "down", "at": "1"}, follow=True)
    assert [e.person.key for e in waiting_list()] == ["bob", "ann", "cat"]
    assert _messages(again) == [
        "Ann Wait is at place 2 of the waiting list now, not 1 as the page showed (moved already, or the list "
        "changed): nothing more was moved. Check the order below."
    ]
    assert AuditEntry.objects.filter(action="member.waiting_list.move").count() == 1
    # Moved from the place it holds now, it moves again.
    officer_client.post(url, {"direction": "down", "at": "2"})
    assert [e.person.key for e in waiting_list()] == ["bob", "cat", "ann"]


def test_a_signature_withdrawal_sent_twice_withdraws_once_and_says_so(officer_client, member, season, today):
    from members.models import RulesSignature

    url = reverse("members:signatures")
    seat = member.person.memberships.get(season=season)
    RulesSignature.objects.filter(membership=seat).delete()
    officer_client.post(url, {"membership": seat.pk, "signed_on": "2026-11-29"})
    signature = RulesSignature.objects.get(membership=seat)
    withdraw = reverse("members:signature_withdraw", args=[signature.pk])
    officer_client.post(withdraw, {"reason": "wrong member ticked"})
    again = officer_client.post(withdraw, {"reason": "wrong member ticked"}, follow=True)
    assert again.status_code == 200  # the signatures page, not a 404
    assert _messages(again)[-1] == "That signature is withdrawn already: nothing changed."
    assert not RulesSignature.objects.filter(membership=seat).exists()
    assert AuditEntry.objects.filter(action="member.rules_signature_withdrawn").count() == 1


def test_a_nomination_withdrawal_sent_twice_withdraws_once_and_says_so(client, president, season, today):
    import datetime as dt

    from members.models import Nomination
    from members.services.elections import election_create, nomination_record
    from tests.members.factories import seats_fill

    nominee = seats_fill(season=season, count=1)[0].person
    election = election_create(season=season, on=today)
    nomination = nomination_record(
        ballot=election, office="treasurer", person=nominee, on=dt.date(2027, 3, 27)
    )
    client.force_login(president)
    url = reverse("members:nomination_withdraw", args=[nomination.pk])
    first = client.post(url)
    assert first["Location"] == reverse("members:ballot", args=[election.pk])
    again = client.post(url, follow=True)
    assert again.status_code == 200  # the votes page, not a 404
    assert _messages(again)[-1] == "That nomination is withdrawn already: nothing changed."
    assert not Nomination.objects.exists()
    assert AuditEntry.objects.filter(action="election.withdraw").count() == 1


def test_a_substitutes_name_with_no_space_breaks_on_the_members_answer_card(member_client, season, today):
    name = "S" * 120  # the longest the form takes
    url = reverse("events:rsvp", kwargs={"season": season.name, "number": 5})
    member_client.post(url, {"answer": "substitute", "substitute_name": name, "not_professional": "on"})
    page = member_client.get(
        reverse("events:event", kwargs={"season": season.name, "number": 5})
    ).content.decode()
    assert f'<span class="small text-muted d-block text-break">{name} plays your seat' in page
