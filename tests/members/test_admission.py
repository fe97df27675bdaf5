import datetime as dt

import pytest

from events.selectors import season_rules
from members.models import Membership, Vote, WaitingListEntry
from members.selectors import membership_on, roster_for_event
from members.services.admission import AdmissionRefused, VoteCounts, member_admit
from members.services.late_joiners import join_terms
from members.services.people import person_turned_pro
from members.services.waiting_list import waiting_list_add
from ncpc.core.errors import NcpcError
from ncpc.core.models import AuditEntry
from tests.factories import PersonFactory
from tests.finance.factories import pay
from tests.members.factories import candidate, seats_fill

TODAY = dt.date(2026, 11, 29)


@pytest.fixture
def club(db, season, today):
    """Ten members; the first one sponsors."""
    return seats_fill(season=season, count=10)


def admit(season, person, *, sponsor, yes=6, on=TODAY, declared=True, vote=True):
    return member_admit(
        person=person,
        season=season,
        on=on,
        sponsor=sponsor,
        vote=VoteCounts(held_on=on, yes=yes) if vote else None,
        declared_not_professional=declared,
    )


def refused(season, person, **kwargs) -> list[str]:
    before = (Membership.objects.count(), Vote.objects.count(), AuditEntry.objects.count())
    with pytest.raises(AdmissionRefused) as info:
        admit(season, person, **kwargs)
    assert (Membership.objects.count(), Vote.objects.count(), AuditEntry.objects.count()) == before
    return info.value.problems


def test_a_person_meeting_every_condition_is_seated_from_the_next_event(season, club):
    person = candidate()
    membership = admit(season, person, sponsor=club[0].person)
    # After 29 Nov 2026 the next event is the December one, event 5.
    assert membership.first_event == 5
    assert membership.sponsor == club[0].person
    assert membership.admission_vote.yes == 6
    assert membership.admission_vote.members_eligible == 10
    assert membership.declared_not_professional
    assert AuditEntry.objects.filter(action="member.admit", target_id=str(membership.pk)).exists()


def test_a_person_who_is_twenty_on_the_admission_date_is_too_young(season, club):
    person = candidate(date_of_birth=dt.date(2005, 11, 30))  # turns 21 the day after
    assert refused(season, person, sponsor=club[0].person) == [
        "Too young: 20 years old on Nov 29, 2026; members must be at least 21."
    ]


def test_a_person_who_turns_twenty_one_on_the_admission_date_is_old_enough(season, club):
    person = candidate(date_of_birth=dt.date(2005, 11, 29))
    assert admit(season, person, sponsor=club[0].person).person == person


def test_a_missing_date_of_birth_is_its_own_problem(season, club):
    person = candidate(date_of_birth=None)
    assert refused(season, person, sponsor=club[0].person) == [
        "The date of birth is not recorded, so the minimum age cannot be checked."
    ]


def test_a_sponsor_who_is_not_a_current_member_is_refused(season, club):
    outsider = PersonFactory()
    assert refused(season, candidate(), sponsor=outsider) == [
        "The sponsor must be a current member of the club."
    ]
    assert refused(season, candidate(), sponsor=None) == ["The sponsor must be a current member of the club."]


def test_exactly_half_of_the_current_members_voting_yes_is_not_enough(season, club):
    assert refused(season, candidate(), sponsor=club[0].person, yes=5) == [
        "The vote is not a majority: 5 yes of 10 current members (more than half is needed)."
    ]


def test_admission_without_a_recorded_vote_is_refused(season, club):
    assert refused(season, candidate(), sponsor=club[0].person, vote=False) == [
        "No admission vote is recorded."
    ]


def test_admission_without_the_not_professional_statement_is_refused(season, club):
    assert refused(season, candidate(), sponsor=club[0].person, declared=False) == [
        "The statement that the person is not a professional gambler is missing."
    ]


def test_a_person_already_professional_when_proposed_is_refused(season, club):
    pro = candidate(is_professional=True, turned_pro_on=dt.date(2020, 1, 1))
    assert refused(season, pro, sponsor=club[0].person) == [
        "A professional gambler (primary vocation professional poker player) cannot be admitted (§2.4)."
    ]


def test_the_twenty_first_seat_does_not_exist(season, club):
    seats_fill(season=season, count=9)  # 19 seats taken: one is free
    admit(season, candidate(), sponsor=club[0].person, yes=11)
    assert Membership.objects.filter(season=season, left_after_event__isnull=True).count() == 20
    assert refused(season, candidate(), sponsor=club[0].person, yes=11) == [
        "No seat is free: all 20 seats are taken."
    ]


def test_every_unmet_condition_is_listed_at_once(season, club):
    person = candidate(date_of_birth=dt.date(2010, 1, 1), is_professional=True)
    problems = refused(season, person, sponsor=None, yes=1)
    assert len(problems) == 4
    assert problems[0].startswith("Too young")


def test_a_member_who_turns_professional_keeps_the_seat(season, club, today):
    member = club[3]
    pay(membership=member, day="2026-08-22", amount="510.00")  # paid up: in good standing (§2.4.2)
    person_turned_pro(person=member.person, on=today)
    member.refresh_from_db()
    member.person.refresh_from_db()
    assert member.person.is_professional
    assert member.person.turned_pro_on == today
    assert member.left_after_event is None
    assert membership_on(person=member.person, on=today) == member
    assert member in roster_for_event(season=season, event_number=10)


def test_admitting_from_the_waiting_list_closes_the_entry(season, club, today):
    person = candidate()
    waiting_list_add(person=person, on=today, sponsor=club[0].person)
    admit(season, person, sponsor=club[0].person)
    entry = WaitingListEntry.objects.get(person=person)
    assert entry.status == WaitingListEntry.Status.ADMITTED


@pytest.mark.parametrize(
    ("on", "first_event", "admin_fee", "min_events", "wsop", "one_percent"),
    [
        # Between the August (event 1) and September (event 2, Sep 26) events.
        (dt.date(2026, 9, 1), 2, True, 7, True, False),
        # Before the October event (event 3, Oct 24).
        (dt.date(2026, 10, 1), 3, True, 7, True, False),
        # Before the November event (event 4, Nov 14): no admin fee, no WSOP, the 1% benefit.
        (dt.date(2026, 10, 25), 4, False, None, False, True),
    ],
)
def test_late_joiners_from_events_two_three_and_four(
    season, on, first_event, admin_fee, min_events, wsop, one_percent
):
    sponsors = seats_fill(season=season, count=10)
    membership = admit(season, candidate(), sponsor=sponsors[0].person, on=on)
    assert membership.first_event == first_event
    terms = join_terms(rules=season_rules(season), first_event=membership.first_event)
    assert terms.is_late_joiner
    assert terms.owes_admin_fee is admin_fee
    assert terms.min_events == min_events
    assert terms.can_qualify_for_wsop is wsop
    assert terms.one_percent_benefit is one_percent
    if min_events:
        assert terms.window_from == 3


def test_bylaws_2_4_2_turning_pro_is_accepted_only_for_a_member_in_good_standing(season, club, today):
    member = club[4]
    pay(membership=member, day="2026-08-22", amount="110.00")  # owes the Sep-Nov installments on Nov 29
    with pytest.raises(NcpcError, match="not in good standing on Nov 29, 2026"):
        person_turned_pro(person=member.person, on=today)
    member.person.refresh_from_db()
    assert not member.person.is_professional
    with pytest.raises(NcpcError, match="holds no seat"):
        person_turned_pro(person=candidate(), on=today)
    pay(membership=member, day="2026-11-29", amount="300.00")  # paying at the door counts (SPEC §7)
    person_turned_pro(person=member.person, on=today)
    member.person.refresh_from_db()
    assert member.person.is_professional and member.person.turned_pro_on == today
