"""Who's coming (issue 19): the rules of an answer (§5.2.4 call-in, the §6.3 exemption, the §5.3 substitute
checks counted with the seats), and the answers becoming the night's seats when the night is opened.

The clock is frozen on Nov 29, 2026 (``today``); event 5 is on Saturday Dec 12, event 6 on Jan 23, event 7 on
Feb 13 (the bylaws' schedule). The bylaws allow 3 substitutes a season and one late-arrival exemption."""

import datetime as dt
import random

import pytest
import time_machine

from events.errors import ExemptionUsed, SubstituteRefused
from events.models import Attendance, Rsvp, RsvpReminder
from events.selectors import season_rules
from events.services import night_seating
from events.services.attendance import attendance_prepare, attendance_set, substitute_set
from events.services.rsvp import (
    exemption_taken,
    night_open,
    rsvp_answer,
    rsvp_attendance_apply,
    rsvp_card,
    rsvp_reminders_send,
    rsvp_summary,
    substitutes_counted,
)
from ncpc.core.errors import NcpcError
from ncpc.core.models import AuditEntry, MailDelivery
from tests.factories import MembershipFactory, PersonFactory, UserFactory

pytestmark = pytest.mark.django_db

NOW = dt.datetime(2026, 11, 29, 12, 0, tzinfo=dt.UTC)


@pytest.fixture
def seats(season, today):
    """Members a–f of the season (keys and first names a…f), by key."""
    return {
        key: MembershipFactory(
            person=PersonFactory(key=key, first_name=key.upper(), last_name="Player"), season=season
        )
        for key in "abcdef"
    }


def answer(season, membership, what, number=5, **kwargs):
    return rsvp_answer(
        event=season.events.get(number=number), membership=membership, answer=what, actor=None, **kwargs
    )


def sub(season, membership, name="Carl Guest", number=5, **kwargs):
    kwargs.setdefault("not_professional", True)
    return answer(season, membership, "substitute", number=number, substitute_name=name, **kwargs)


def seat_substitute(season, membership, number):
    """An officer records a substitute on the member's seat at event ``number`` (the attendance page)."""
    event = season.events.get(number=number)
    attendance_prepare(event=event)
    event.refresh_from_db()
    row = event.attendances.get(membership=membership)
    return substitute_set(
        event=event,
        attendance_id=row.pk,
        name=f"Guest {number}",
        not_professional=True,
        prize_to="member",
        version=event.results_version,
        actor=None,
    )


# --- answering ---------------------------------------------------------------------------------------------


def test_an_answer_is_recorded_once_and_a_change_is_audited(season, seats):
    user = UserFactory()
    first = rsvp_answer(event=season.events.get(number=5), membership=seats["a"], answer="coming", actor=user)
    assert (first.answer, first.answered_by, first.answered_at) == ("coming", user, NOW)
    assert AuditEntry.objects.filter(action="rsvp.answer").count() == 1

    again = answer(season, seats["a"], "coming")  # the form sent twice
    assert again.pk == first.pk and again.answered_by == user
    assert AuditEntry.objects.filter(action="rsvp.answer").count() == 1

    changed = answer(season, seats["a"], "not_coming")
    assert changed.pk == first.pk and changed.answer == "not_coming"
    assert Rsvp.objects.count() == 1
    entry = AuditEntry.objects.filter(action="rsvp.answer").order_by("pk").last()
    assert entry.summary == "A Player for 2026-27 event 5 (Dec 12): Not coming (was: Coming)"


def test_late_is_the_call_in_with_its_time_and_the_same_answer_again_keeps_the_time(season, seats):
    late = answer(season, seats["a"], "late", exemption=True)
    assert (late.called_in_at, late.exemption) == (NOW, True)
    with time_machine.travel(NOW + dt.timedelta(hours=5), tick=False):
        again = answer(season, seats["a"], "late", exemption=True)
        assert again.called_in_at == NOW
        without = answer(season, seats["a"], "late")
        assert (without.called_in_at, without.exemption) == (NOW + dt.timedelta(hours=5), False)
        coming = answer(season, seats["a"], "coming")
    assert (coming.called_in_at, coming.exemption) == (None, False)


def test_the_exemption_asked_for_in_an_answer_is_the_one_of_the_season(season, seats):
    answer(season, seats["a"], "late", exemption=True)
    with pytest.raises(ExemptionUsed, match="asked for it in the answer for event 5 already.*once a season"):
        answer(season, seats["a"], "late", number=6, exemption=True)
    late = answer(season, seats["a"], "late", number=6)  # late without the exemption is fine
    assert late.exemption is False
    # Changing the first answer frees the exemption again.
    answer(season, seats["a"], "coming")
    assert answer(season, seats["a"], "late", number=6, exemption=True).exemption is True


def test_the_exemption_used_on_a_seat_counts(season, seats):
    event = season.events.get(number=3)
    attendance_prepare(event=event)
    event.refresh_from_db()
    row = event.attendances.get(membership=seats["a"])
    attendance_set(
        event=event, attendance_id=row.pk, status="called_in", version=event.results_version, actor=None
    )
    with pytest.raises(ExemptionUsed, match="A Player used it at event 3 already"):
        answer(season, seats["a"], "late", exemption=True)
    assert exemption_taken(membership=seats["a"])[0].number == 3


def test_substitutes_in_answers_count_toward_the_limit_with_the_seats(season, seats):
    seat_substitute(season, seats["a"], 2)
    seat_substitute(season, seats["a"], 3)
    sub(season, seats["a"], number=5)  # the third of the season
    assert substitutes_counted(membership=seats["a"]) == 3
    with pytest.raises(
        SubstituteRefused,
        match=r"A Player has sent a substitute to 3 events this season already; the limit is 3 \(§5.3.1\)",
    ):
        sub(season, seats["a"], number=6)
    # Changing the same night's substitute is not a fourth one.
    changed = sub(season, seats["a"], name="Dora Guest", number=5, prize_to="substitute")
    assert (changed.substitute_name, changed.prize_to) == ("Dora Guest", "substitute")
    assert Rsvp.objects.filter(answer="substitute").count() == 1


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"name": "  "}, "Enter the name of the substitute"),
        ({"not_professional": False}, r"Confirm that Carl Guest is not a professional gambler \(§5.3.1\)"),
        ({"name": "a player"}, "A Player cannot be their own substitute"),
        ({"name": "Paul Pro"}, r"Paul Pro is recorded as a professional gambler and cannot substitute"),
        ({"prize_to": "nobody"}, "Choose who gets the prize"),
    ],
)
def test_the_substitute_checks_of_5_3_apply_at_once(season, seats, kwargs, message):
    PersonFactory(first_name="Paul", last_name="Pro", is_professional=True)
    with pytest.raises(NcpcError, match=message):
        sub(season, seats["a"], **kwargs)
    assert not Rsvp.objects.exists()


def test_a_banned_person_cannot_substitute(season, seats, monkeypatch):
    monkeypatch.setattr("events.hooks.person_banned.answer", lambda *, person: person.last_name == "Banned")
    PersonFactory(first_name="Bob", last_name="Banned")
    with pytest.raises(SubstituteRefused, match=r"Bob Banned is banned from the club.*§5.3.2"):
        sub(season, seats["a"], name="Bob Banned")


def test_unknown_answer_past_night_and_an_opened_night_are_refused(season, seats):
    with pytest.raises(NcpcError, match="Choose an answer"):
        answer(season, seats["a"], "maybe")
    with pytest.raises(NcpcError, match="Event 4 is over: answers are closed"):
        answer(season, seats["a"], "coming", number=4)
    attendance_prepare(event=season.events.get(number=5))
    with pytest.raises(NcpcError, match="The night of event 5 is open: tell an officer"):
        answer(season, seats["a"], "coming")
    assert not Rsvp.objects.exists()


def test_a_member_not_on_the_events_roster_cannot_answer(season, seats):
    seats["a"].left_after_event = 4
    seats["a"].save()
    with pytest.raises(NcpcError, match="A Player holds no seat at event 5"):
        answer(season, seats["a"], "coming")


# --- opening the night -------------------------------------------------------------------------------------


def test_opening_the_night_applies_the_answers_to_the_seats(season, seats):
    answer(season, seats["a"], "coming")
    answer(season, seats["b"], "not_coming")
    answer(season, seats["c"], "late", exemption=True)
    answer(season, seats["d"], "late")
    sub(season, seats["e"], prize_to="substitute")
    event = season.events.get(number=5)

    opened = night_open(event=event, actor=None)

    assert (opened.seats_added, opened.answers.applied, opened.answers.notes) == (6, 5, ())
    rows = {a.membership.person.key: a for a in event.attendances.select_related("membership__person")}
    assert {k: r.status for k, r in rows.items()} == {
        "a": "expected",
        "b": "absent",  # keeps the seat, posted and folded (§5.2.1–5.2.2)
        "c": "called_in",  # the exemption: may join during the second hour
        "d": "absent",  # late without the exemption: the seat waits for the first hour
        "e": "expected",
        "f": "expected",  # no answer: expected, as before
    }
    assert rows["c"].called_in_at == NOW
    assert (rows["e"].substitute_name, rows["e"].prize_to) == ("Carl Guest", "substitute")
    assert rows["e"].player_name == "Carl Guest (for E Player)"
    assert Rsvp.objects.filter(applied_at__isnull=True).count() == 0
    assert AuditEntry.objects.filter(action="rsvp.apply").count() == 4  # a's seat did not change

    # Opening again applies nothing twice.
    assert night_open(event=event, actor=None).answers.applied == 0


def test_the_seat_draw_seats_the_expected_absentees_spread_over_the_tables(season, today):
    """14 members: two tables of 7 (§5.8); the four answering not coming or late are seated too, two a table
    (§6.4)."""
    members = [
        MembershipFactory(
            person=PersonFactory(key=f"p{i:02}", first_name=f"P{i:02}", last_name="X"), season=season
        )
        for i in range(14)
    ]
    for m in members[:2]:
        answer(season, m, "not_coming")
    for m in members[2:4]:
        answer(season, m, "late")
    event = season.events.get(number=5)
    night_open(event=event, actor=None)

    night_seating.seats_draw(event=event, version=0, actor=None, rng=random.Random(7))

    seated = Attendance.objects.filter(event=event, night_seat__isnull=False)
    assert seated.count() == 14
    away = seated.filter(status="absent").values_list("night_seat__table__number", flat=True)
    assert sorted(away) == [1, 1, 2, 2]


def test_an_answer_over_the_limit_by_the_time_the_night_opens_is_not_applied(season, seats):
    seat_substitute(season, seats["a"], 2)
    seat_substitute(season, seats["a"], 3)
    sub(season, seats["a"], number=5)
    # An officer records a third substitute on a seat meanwhile (at event 4, on its night).
    seat_substitute(season, seats["a"], 4)
    event = season.events.get(number=5)

    opened = night_open(event=event, actor=None)

    row = event.attendances.get(membership=seats["a"])
    assert (row.status, row.substitute_name) == ("absent", "")
    assert opened.answers.notes == (
        "A Player: the substitute Carl Guest is not seated: A Player has sent a substitute to 3 events this "
        "season already; the limit is 3 (§5.3.1).",
    )


def test_a_seat_that_cannot_play_keeps_its_status(season, seats, monkeypatch):
    sub(season, seats["a"])
    answer(season, seats["b"], "not_coming")
    monkeypatch.setattr(
        "events.hooks.good_standing.answer", lambda *, membership, on: membership.person.key not in "ab"
    )
    event = season.events.get(number=5)
    night_open(event=event, actor=None)
    rows = {a.membership.person.key: a for a in event.attendances.select_related("membership__person")}
    assert (rows["a"].status, rows["a"].substitute_name) == ("not_in_good_standing", "")
    assert rows["b"].status == "not_in_good_standing"


def test_apply_is_idempotent_and_leaves_a_final_event_alone(season, seats):
    answer(season, seats["b"], "not_coming")
    event = season.events.get(number=5)
    attendance_prepare(event=event)  # listed without the answers (an older path)
    assert rsvp_attendance_apply(event=event, actor=None).applied == 1
    assert event.attendances.get(membership=seats["b"]).status == "absent"
    assert rsvp_attendance_apply(event=event, actor=None).applied == 0


# --- reads -------------------------------------------------------------------------------------------------


def test_the_summary_counts_each_answer_and_lists_who_has_not_answered(season, seats):
    answer(season, seats["a"], "coming")
    answer(season, seats["b"], "coming")
    answer(season, seats["c"], "late", exemption=True)
    sub(season, seats["d"])
    summary = rsvp_summary(event=season.events.get(number=5))
    assert summary.counts == (
        ("coming", "Coming", 2),
        ("not_coming", "Not coming", 0),
        ("late", "Coming late", 1),
        ("substitute", "Sending a substitute", 1),
    )
    assert summary.not_answered == ("E Player", "F Player")
    assert summary.roster == 6
    lines = {line.name: line for line in summary.lines}
    assert lines["C Player"].detail == "called in Nov 29, 7:00 AM, exemption"
    assert lines["D Player"].detail == "Carl Guest, prize to the member"


def test_the_card_says_what_is_left_of_the_season(season, seats, django_assert_num_queries):
    seat_substitute(season, seats["a"], 2)
    answer(season, seats["a"], "late", number=6, exemption=True)
    sub(season, seats["a"], number=7)
    event = season.events.get(number=5)
    rules_read = rsvp_card(event=event, membership=seats["a"])  # reads the rules itself
    assert rules_read is not None
    rules = season_rules(season)
    with django_assert_num_queries(1):
        card = rsvp_card(event=event, membership=seats["a"], rules=rules)
    assert (card.answer, card.open, card.substitutes_left, card.exemption_free) == ("", True, 1, False)
    sub(season, seats["a"], number=5)
    card = rsvp_card(event=event, membership=seats["a"])
    assert (card.answer, card.answer_label, card.substitute_name) == (
        "substitute",
        "Sending a substitute",
        "Carl Guest",
    )
    assert card.substitutes_left == 1  # this night's own substitute is not counted against it


def test_the_card_counts_a_seat_not_the_answer_once_the_seat_is_listed(season, seats):
    """Bylaws: 3 substitutes a season (§5.3.1), one late-arrival exemption (§6.3). An answer for a night whose
    seats are listed no longer counts (the seat does); the card's own night never counts against itself."""
    event = season.events.get(number=7)
    sub(season, seats["a"], number=5)  # answered, seats of event 5 not listed: counts
    card = rsvp_card(event=event, membership=seats["a"])
    assert (card.substitutes_left, card.exemption_free, card.open) == (2, True, True)
    night_open(event=season.events.get(number=5), actor=None)  # the answer became a seat with the substitute
    card = rsvp_card(event=event, membership=seats["a"])
    assert (card.substitutes_left, card.exemption_free) == (2, True)
    answer(season, seats["a"], "late", number=6, exemption=True)
    card = rsvp_card(event=event, membership=seats["a"])
    assert (card.substitutes_left, card.exemption_free) == (2, False)
    assert (card.answer, card.substitute_name, card.called_in_at) == ("", "", None)
    own = rsvp_card(event=season.events.get(number=6), membership=seats["a"])
    assert (own.answer, own.exemption, own.exemption_free) == ("late", True, True)
    assert own.called_in_at is not None
    opened = rsvp_card(event=season.events.get(number=5), membership=seats["a"])
    assert (opened.open, opened.answer, opened.substitutes_left) == (False, "substitute", 3)
    assert "open" in opened.closed_reason


# --- the reminder ------------------------------------------------------------------------------------------


def test_the_reminder_goes_once_to_members_without_an_answer_the_seasons_days_ahead(season, seats, settings):
    settings.SITE_URL = "https://ncpc.example"
    answer(season, seats["a"], "coming")
    seats["b"].person.email = ""
    seats["b"].person.save()
    # Event 5 is on Dec 12; the bylaws' season reminds 3 days ahead.
    assert rsvp_reminders_send(on=dt.date(2026, 12, 8)) == 0
    assert rsvp_reminders_send(on=dt.date(2026, 12, 9)) == 4  # c, d, e, f (a answered, b has no address)
    mails = MailDelivery.objects.filter(kind="rsvp_reminder")
    assert sorted(mails.values_list("to", flat=True)) == [f"{k}@example.org" for k in "cdef"]
    assert mails.first().subject == "NCPC event 5 on Sat Dec 12: are you coming?"
    assert "on the event's page https://ncpc.example/events/2026-27/5/" in mails.first().body
    assert set(RsvpReminder.objects.values_list("membership__person__key", flat=True)) == set("cdef")
    assert rsvp_reminders_send(on=dt.date(2026, 12, 10)) == 0  # once per member per event
    assert AuditEntry.objects.filter(action="rsvp.reminders").count() == 1


def test_no_reminder_for_an_opened_night_or_when_the_season_turns_it_off(season, seats):
    attendance_prepare(event=season.events.get(number=5))
    assert rsvp_reminders_send(on=dt.date(2026, 12, 10)) == 0
    season.rsvp_reminder_days = 0
    season.save()
    assert rsvp_reminders_send(on=dt.date(2027, 1, 21)) == 0  # event 6, Jan 23
    season.rsvp_reminder_days = 5
    season.save()
    assert rsvp_reminders_send(on=dt.date(2027, 1, 18)) == 6
