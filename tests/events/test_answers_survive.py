"""Answers survive standing (SPEC §16.5, issue 34): an answer stays on the seat of a member who cannot play when
the night opens, and is written there once the member may (a payment at the door, "check again"), with the
member's own call-in time; officers record answers for members who phoned, marked as theirs.

The clock is frozen on Nov 29, 2026 at 12:00 UTC (the answers' time); event 5 is on Saturday Dec 12. The bylaws
allow 3 substitutes a season and one late-arrival exemption. Good standing is the test's own set ``unpaid``
(finance decides it; ``tests/finance/test_door_answers.py`` runs the real door payment)."""

import datetime as dt

import pytest
import time_machine

from events.models import Attendance, Rsvp
from events.services.attendance import (
    attendance_after_payment,
    attendance_prepare,
    attendance_recheck,
    attendance_set,
)
from events.services.rsvp import night_open, rsvp_answer, rsvp_card, rsvp_summary, substitutes_counted
from members.models import Person
from ncpc.core.errors import NcpcError
from ncpc.core.models import AuditEntry
from tests.events.test_rsvp import seat_substitute
from tests.factories import MembershipFactory, PersonFactory, member_user

pytestmark = pytest.mark.django_db

ANSWERED = dt.datetime(2026, 11, 29, 12, 0, tzinfo=dt.UTC)
AT_THE_DOOR = dt.datetime(2026, 12, 13, 0, 40, tzinfo=dt.UTC)  # Dec 12, 7:40 pm in New York


@pytest.fixture
def unpaid(monkeypatch):
    """Keys of the members not in good standing (everyone else is, and everyone signed)."""
    keys: set[str] = set()
    monkeypatch.setattr(
        "events.hooks.good_standing.answer", lambda *, membership, on: membership.person.key not in keys
    )
    return keys


@pytest.fixture
def seats(season, today):
    return {
        key: MembershipFactory(
            person=PersonFactory(key=key, first_name=key.upper(), last_name="Player"), season=season
        )
        for key in "abcd"
    }


def event5(season):
    return season.events.get(number=5)


def seat_of(season, membership) -> Attendance:
    return Attendance.objects.select_related("membership__person").get(
        event=event5(season), membership=membership
    )


def pays_at_the_door(unpaid, membership):
    """What ``finance.services.payments.payment_record`` does after booking a door payment."""
    unpaid.discard(membership.person.key)
    with time_machine.travel(AT_THE_DOOR, tick=False):
        return attendance_after_payment(membership=membership, actor=None)


def test_answers_on_seats_not_in_good_standing_are_kept_when_the_night_opens(season, seats, unpaid):
    rsvp_answer(event=event5(season), membership=seats["a"], answer="late", exemption=True, actor=None)
    rsvp_answer(
        event=event5(season),
        membership=seats["b"],
        answer="substitute",
        substitute_name="Sam Jones",
        not_professional=True,
        actor=None,
    )
    rsvp_answer(event=event5(season), membership=seats["c"], answer="not_coming", actor=None)
    unpaid.update({"a", "b"})

    opened = night_open(event=event5(season), actor=None)

    assert (opened.answers.applied, opened.answers.kept, opened.answers.notes) == (1, 2, ())
    assert seat_of(season, seats["a"]).status == "not_in_good_standing"
    assert seat_of(season, seats["b"]).substitute_name == ""
    assert seat_of(season, seats["c"]).status == "absent"
    kept = Rsvp.objects.filter(applied_at__isnull=True).values_list("membership__person__key", flat=True)
    assert sorted(kept) == ["a", "b"]
    lines = {line.name: line for line in rsvp_summary(event=event5(season)).lines}
    assert (lines["A Player"].kept, lines["B Player"].kept, lines["C Player"].kept) == (True, True, False)


def test_the_late_member_who_pays_at_the_door_is_called_in_at_the_time_of_the_answer(season, seats, unpaid):
    rsvp_answer(event=event5(season), membership=seats["a"], answer="late", exemption=True, actor=None)
    unpaid.add("a")
    night_open(event=event5(season), actor=None)

    changed = pays_at_the_door(unpaid, seats["a"])

    assert [row.membership.person.key for row in changed] == ["a"]
    row = seat_of(season, seats["a"])
    assert row.status == "called_in"  # the exemption: may join during the second hour
    assert row.called_in_at == ANSWERED  # the member's call, not the payment at 7:40 pm
    assert Rsvp.objects.get(membership=seats["a"]).applied_at == AT_THE_DOOR
    assert AuditEntry.objects.get(action="attendance.recheck").summary.endswith(
        "after a payment: Called in late (exemption)"
    )
    entry = AuditEntry.objects.get(action="rsvp.apply")
    assert "(after a payment): Plays → Called in late (exemption)" in entry.summary


def test_the_substitute_plays_the_seat_once_the_member_pays(season, seats, unpaid):
    rsvp_answer(
        event=event5(season),
        membership=seats["b"],
        answer="substitute",
        substitute_name="Sam  Jones",
        prize_to="substitute",
        not_professional=True,
        actor=None,
    )
    unpaid.add("b")
    night_open(event=event5(season), actor=None)

    pays_at_the_door(unpaid, seats["b"])

    row = seat_of(season, seats["b"])
    assert (row.status, row.substitute_name, row.prize_to) == ("expected", "Sam Jones", "substitute")
    assert row.player_name == "Sam Jones (for B Player)"


def test_late_without_the_exemption_and_not_coming_are_absent_once_paid_coming_plays(season, seats, unpaid):
    rsvp_answer(event=event5(season), membership=seats["a"], answer="late", actor=None)
    rsvp_answer(event=event5(season), membership=seats["b"], answer="not_coming", actor=None)
    rsvp_answer(event=event5(season), membership=seats["c"], answer="coming", actor=None)
    unpaid.update({"a", "b", "c"})
    night_open(event=event5(season), actor=None)

    for key in "abc":
        pays_at_the_door(unpaid, seats[key])

    assert [seat_of(season, seats[k]).status for k in "abc"] == ["absent", "absent", "expected"]
    assert seat_of(season, seats["a"]).called_in_at is None
    assert Rsvp.objects.filter(applied_at__isnull=True).count() == 0


def test_check_again_applies_a_kept_answer_too(season, seats, unpaid):
    rsvp_answer(event=event5(season), membership=seats["a"], answer="late", exemption=True, actor=None)
    unpaid.add("a")
    event = event5(season)
    night_open(event=event, actor=None)
    unpaid.clear()  # paid at the treasurer's desk, or the signature recorded
    event.refresh_from_db()

    assert attendance_recheck(event=event, version=event.results_version, actor=None) == 1

    row = seat_of(season, seats["a"])
    assert (row.status, row.called_in_at) == ("called_in", ANSWERED)


def test_a_kept_answer_is_not_written_over_what_the_officers_did_on_the_night(season, seats, unpaid):
    """A seat already out, or an answer applied already, is never touched again by a later payment."""
    rsvp_answer(event=event5(season), membership=seats["a"], answer="not_coming", actor=None)
    unpaid.add("a")
    night_open(event=event5(season), actor=None)
    pays_at_the_door(unpaid, seats["a"])
    assert seat_of(season, seats["a"]).status == "absent"
    assert AuditEntry.objects.filter(action="rsvp.apply").count() == 1
    # A second payment (more dues) changes nothing: the seat is no longer "not in good standing".
    assert pays_at_the_door(unpaid, seats["a"]) == []
    assert AuditEntry.objects.filter(action="rsvp.apply").count() == 1


def test_a_kept_substitute_and_exemption_still_count_toward_the_seasons_limits(season, seats, unpaid):
    seat_substitute(season, seats["a"], 2)
    seat_substitute(season, seats["a"], 3)
    rsvp_answer(
        event=event5(season),
        membership=seats["a"],
        answer="substitute",
        substitute_name="Sam Jones",
        not_professional=True,
        actor=None,
    )
    rsvp_answer(event=event5(season), membership=seats["b"], answer="late", exemption=True, actor=None)
    unpaid.update({"a", "b"})
    night_open(event=event5(season), actor=None)

    assert substitutes_counted(membership=seats["a"]) == 3  # events 2 and 3 on seats, 5 kept on its seat
    event6 = season.events.get(number=6)
    with pytest.raises(
        NcpcError, match="has sent a substitute to 3 events this season already; the limit is 3"
    ):
        rsvp_answer(
            event=event6,
            membership=seats["a"],
            answer="substitute",
            substitute_name="Carl Guest",
            not_professional=True,
            actor=None,
        )
    with pytest.raises(NcpcError, match="B Player asked for it in the answer for event 5 already"):
        rsvp_answer(event=event6, membership=seats["b"], answer="late", exemption=True, actor=None)
    card = rsvp_card(event=event6, membership=seats["a"])
    assert (card.substitutes_used, card.substitutes_limit, card.substitutes_left) == (3, 3, 0)
    assert rsvp_card(event=event6, membership=seats["b"]).exemption_free is False

    # Once paid, the seat carries the substitute and counts it, once.
    pays_at_the_door(unpaid, seats["a"])
    assert substitutes_counted(membership=seats["a"]) == 3
    assert rsvp_card(event=event6, membership=seats["a"]).substitutes_used == 3


# --- officers record an answer for a member who phoned ---------------------------------------------------------


def test_an_officer_records_an_answer_marked_as_theirs(season, seats):
    officer = member_user(season=season, username="vp", office="vice_president")
    Person.objects.filter(user=officer).update(first_name="Vera", last_name="Price")

    rsvp = rsvp_answer(
        event=event5(season),
        membership=seats["a"],
        answer="late",
        exemption=True,
        actor=officer,
        recorded=True,
    )

    assert (rsvp.recorded_by, rsvp.answered_by, rsvp.called_in_at) == (officer, officer, ANSWERED)
    entry = AuditEntry.objects.get(action="rsvp.record")
    assert entry.summary == (
        "A Player for 2026-27 event 5 (Dec 12): Coming late (called in Nov 29, 7:00 AM, asks for the "
        "exemption), recorded by Vera Price (the member phoned)"
    )
    line = next(line for line in rsvp_summary(event=event5(season)).lines if line.name == "A Player")
    assert line.recorded_by == "Vera Price"
    assert rsvp_card(event=event5(season), membership=seats["a"]).recorded_by == "Vera Price"


def test_the_member_answering_again_takes_the_officers_mark_off(season, seats):
    officer = member_user(season=season, username="vp", office="vice_president")
    rsvp_answer(event=event5(season), membership=seats["a"], answer="coming", actor=officer, recorded=True)
    rsvp = rsvp_answer(event=event5(season), membership=seats["a"], answer="coming", actor=None)
    assert rsvp.recorded_by is None
    assert rsvp_card(event=event5(season), membership=seats["a"]).recorded_by == ""


def test_a_recorded_answer_needs_a_signed_in_officer(season, seats):
    with pytest.raises(NcpcError, match="Only a signed-in officer records an answer for a member."):
        rsvp_answer(event=event5(season), membership=seats["a"], answer="coming", actor=None, recorded=True)
    assert not Rsvp.objects.exists()


# --- what the member is told ---------------------------------------------------------------------------------


def test_a_night_under_way_says_so_past_midnight_and_a_night_opened_early_is_open(season, seats):
    event = event5(season)
    attendance_prepare(event=event)
    assert rsvp_card(event=event, membership=seats["a"]).closed_reason == (
        "The night of event 5 is open: tell an officer, who changes your seat on the night (attendance page)."
    )
    after_midnight = rsvp_card(event=event, membership=seats["a"], today=dt.date(2026, 12, 13))
    assert after_midnight.closed_reason == (
        "The night of event 5 is under way: tell an officer, who changes your seat on the night "
        "(attendance page)."
    )
    past = rsvp_card(event=season.events.get(number=4), membership=seats["a"])
    assert past.closed_reason == "Event 4 is over: answers are closed."


def test_opening_the_night_from_the_page_says_how_many_answers_are_kept(
    officer_client, vice_president, season, seats, unpaid
):
    rsvp_answer(event=event5(season), membership=seats["a"], answer="late", exemption=True, actor=None)
    rsvp_answer(event=event5(season), membership=seats["b"], answer="not_coming", actor=None)
    unpaid.add("a")

    response = officer_client.post(
        "/events/2026-27/5/attendance/prepare/", {"back": "attendance", "confirmed": "1"}, follow=True
    )

    html = response.content.decode()
    assert "Seats listed: 5 members from the roster." in html  # a–d and the Vice President
    assert "Answers applied to the seats: 1 (who&#x27;s coming)." in html
    assert (
        "Answers kept on 1 seat that cannot play yet: they apply when the member may play (a payment at the "
        "door, or the signature)." in html
    )


# --- set by hand ------------------------------------------------------------------------------------------------


def set_by_hand(event, row, status, **kwargs):
    event.refresh_from_db()
    with time_machine.travel(AT_THE_DOOR, tick=False):
        return attendance_set(
            event=event,
            attendance_id=row.pk,
            status=status,
            version=event.results_version,
            actor=None,
            **kwargs,
        )


def test_called_in_by_hand_takes_the_time_of_the_members_answer_not_of_the_tap(season, seats, unpaid):
    rsvp_answer(event=event5(season), membership=seats["a"], answer="late", actor=None)  # no exemption asked
    night_open(event=event5(season), actor=None)
    row = seat_of(season, seats["a"])
    assert row.status == "absent"

    row = set_by_hand(event5(season), row, "called_in")  # the officer grants the exemption on the night

    assert (row.status, row.called_in_at) == ("called_in", ANSWERED)


def test_called_in_by_hand_without_an_answer_is_timed_at_the_tap(season, seats, unpaid):
    night_open(event=event5(season), actor=None)
    row = set_by_hand(event5(season), seat_of(season, seats["a"]), "called_in")
    assert row.called_in_at == AT_THE_DOOR


def test_set_to_play_by_hand_once_eligible_applies_the_kept_answer(season, seats, unpaid):
    """The signature recorded (or a waiver), the officer sets the seat to play: the kept substitute sits."""
    rsvp_answer(
        event=event5(season),
        membership=seats["b"],
        answer="substitute",
        substitute_name="Sam Jones",
        not_professional=True,
        actor=None,
    )
    unpaid.add("b")
    night_open(event=event5(season), actor=None)
    unpaid.clear()

    set_by_hand(event5(season), seat_of(season, seats["b"]), "expected")

    assert seat_of(season, seats["b"]).player_name == "Sam Jones (for B Player)"
