"""Attendance: who may play (good standing, signed rules), late-call exemption, substitutes (§5.2, §5.3, §6.3)."""

import pytest

from events.errors import ExemptionUsed, NotInGoodStanding, RulesNotSigned, SubstituteRefused
from events.models import Attendance
from events.services.attendance import attendance_prepare, attendance_set, substitute_set
from tests.events.factories import night_make
from tests.factories import MembershipFactory, PersonFactory

pytestmark = pytest.mark.django_db


def set_status(event, seat, status):
    event.refresh_from_db()
    return attendance_set(
        event=event, attendance_id=seat.pk, status=status, version=event.results_version, actor=None
    )


def sub(event, seat, name="Carl Guest", not_professional=True, prize_to="member"):
    event.refresh_from_db()
    return substitute_set(
        event=event,
        attendance_id=seat.pk,
        name=name,
        not_professional=not_professional,
        prize_to=prize_to,
        version=event.results_version,
        actor=None,
    )


def test_a_member_not_in_good_standing_cannot_be_entered_as_playing(season, today, monkeypatch):
    event, s = night_make(season=season, players=3)
    set_status(event, s["c"], "absent")
    monkeypatch.setattr(
        "events.hooks.good_standing.answer", lambda *, membership, on: membership.person.key != "c"
    )
    with pytest.raises(
        NotInGoodStanding, match="C Player is not in good standing on Nov 14, 2026.*treasurer"
    ):
        set_status(event, s["c"], "expected")


def test_a_member_without_a_signed_rules_document_cannot_be_entered_as_playing(season, today, monkeypatch):
    event, s = night_make(season=season, players=3)
    set_status(event, s["c"], "absent")
    monkeypatch.setattr(
        "events.hooks.rules_signed.answer", lambda *, membership: membership.person.key != "c"
    )
    with pytest.raises(RulesNotSigned, match="has not signed the 2026-27 rules document.*signature"):
        set_status(event, s["c"], "expected")


def test_seats_start_as_not_in_good_standing_or_unsigned_when_they_are(season, today, monkeypatch):
    monkeypatch.setattr(
        "events.hooks.good_standing.answer", lambda *, membership, on: membership.person.key != "a"
    )
    monkeypatch.setattr(
        "events.hooks.rules_signed.answer", lambda *, membership: membership.person.key != "b"
    )
    _event, s = night_make(season=season, players=3)
    assert [s[k].status for k in "abc"] == ["not_in_good_standing", "not_signed", "expected"]


def test_preparing_twice_adds_nothing(season, today):
    event, _s = night_make(season=season, players=3)
    assert attendance_prepare(event=event) == 0
    assert event.attendances.count() == 3


def test_the_late_call_exemption_is_once_a_season(season, today):
    event, s = night_make(season=season, number=3, players=2)
    set_status(event, s["a"], "called_in")
    later = season.events.get(number=4)
    attendance_prepare(event=later)
    seat = later.attendances.get(membership=s["a"].membership)
    with pytest.raises(ExemptionUsed, match="event 3"):
        set_status(later, seat, "called_in")


def test_a_fourth_substitute_in_a_season_is_refused(season, today):
    event, s = night_make(season=season, number=1, players=2)
    membership = s["a"].membership
    for number in (1, 2, 3):
        e = season.events.get(number=number)
        attendance_prepare(event=e)
        sub(e, e.attendances.get(membership=membership))
    fourth = season.events.get(number=4)
    attendance_prepare(event=fourth)
    with pytest.raises(SubstituteRefused, match="3 events this season already; the limit is 3"):
        sub(fourth, fourth.attendances.get(membership=membership))


def test_a_substitute_plays_the_seat_and_the_member_chooses_the_prize(season, today):
    event, s = night_make(season=season, players=2)
    set_status(event, s["b"], "absent")
    row = sub(event, s["b"], name="Carl Guest", prize_to="substitute")
    assert (row.status, row.substitute_name, row.prize_to) == ("expected", "Carl Guest", "substitute")


def test_a_professional_substitute_is_refused(season, today):
    PersonFactory(first_name="Phil", last_name="Pro", is_professional=True)
    event, s = night_make(season=season, players=2)
    with pytest.raises(SubstituteRefused, match="professional"):
        sub(event, s["b"], name="Phil Pro")


def test_a_substitute_without_the_not_professional_statement_is_refused(season, today):
    event, s = night_make(season=season, players=2)
    with pytest.raises(SubstituteRefused, match="not a professional"):
        sub(event, s["b"], not_professional=False)


def test_a_banned_substitute_is_refused(season, today):
    from members.models import Membership

    banned = PersonFactory(first_name="Bad", last_name="Actor")
    MembershipFactory(person=banned, season=season, left_after_event=1, how_left=Membership.HowLeft.REMOVED)
    event, s = night_make(season=season, players=2)
    with pytest.raises(SubstituteRefused, match="banned"):
        sub(event, s["b"], name="bad actor")


def test_a_player_out_cannot_be_marked_absent(season, today):
    from events.errors import ResultsError  # noqa: F401
    from events.services.results import bust_record
    from ncpc.core.errors import NcpcError

    event, s = night_make(season=season, players=3)
    bust_record(event=event, attendance_ids=[s["c"].pk], version=event.results_version, actor=None)
    with pytest.raises(NcpcError, match="already out"):
        set_status(event, s["c"], Attendance.Status.ABSENT)
