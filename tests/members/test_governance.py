"""Governance: elections, rule-change ballots, the votes the bylaws require, who rules a dispute."""

import datetime as dt
from decimal import Decimal

import pytest
from django.db import models

from events.selectors import season_rules
from events.services.seasons import season_create
from members.models import (
    Ballot,
    BallotCount,
    BallotParticipation,
    BallotQuestion,
    OfficerTerm,
    RuleChange,
    Vote,
)
from members.services.ballots import (
    ballot_close,
    ballot_open,
    ballot_publish,
    ballot_vote,
    rule_change_accept,
    rule_change_submit,
)
from members.services.disputes import who_rules
from members.services.elections import (
    election_create,
    election_outcome,
    election_tie_resolve,
    nomination_record,
)
from members.services.rule_changes import rule_changes_apply_pending, rule_value_clean
from ncpc.core.errors import NcpcError
from ncpc.core.permissions import Action, user_can
from tests.members.factories import seats_fill

APRIL = dt.date(2027, 4, 24)
MARCH = dt.date(2027, 3, 27)


def _people(season, count):
    return [m.person for m in seats_fill(season=season, count=count)]


def _rule_ballot(season, *, people, field="substitutes_per_season", value="4", title="Four substitutes"):
    change = rule_change_submit(
        season=season, person=people[0], suggestion="Allow a fourth substitute", on=MARCH
    )
    rule_change_accept(change=change, title=title, rule_field=field, value_text=value, on=MARCH)
    change.refresh_from_db()
    ballot_open(ballot=change.ballot, on=APRIL)
    return change.ballot, change


def _question(ballot):
    return ballot.questions.get()


# Secret ballots -------------------------------------------------------------------------------------------


def test_ballot_rows_store_no_link_between_voter_and_choice():
    count_fields = {f.name: f for f in BallotCount._meta.get_fields()}
    # The count knows the question and the option, never a person, a user or a time.
    for f in count_fields.values():
        related = getattr(f, "related_model", None)
        assert related is None or related._meta.model_name not in ("person", "user", "ballotparticipation")
        assert not isinstance(f, models.DateField | models.DateTimeField)
    participation_fields = {f.name for f in BallotParticipation._meta.get_fields()}
    assert participation_fields == {
        "id",
        "question",
        "person",
        "voted_on",
    }  # who, on what, which day — not how


def test_a_member_votes_once_per_rule_change_and_a_second_vote_is_refused(season, today):
    people = _people(season, 3)
    ballot, _change = _rule_ballot(season, people=people)
    question = _question(ballot)
    ballot_vote(ballot=ballot, person=people[1], choices={question.pk: "yes"}, on=APRIL)
    with pytest.raises(NcpcError, match="already voted .* each member votes once"):
        ballot_vote(ballot=ballot, person=people[1], choices={question.pk: "no"}, on=APRIL)
    assert BallotCount.objects.get(question=question, answer="yes").votes == 1
    assert BallotCount.objects.get(question=question, answer="no").votes == 0
    assert BallotParticipation.objects.filter(question=question).count() == 1


def test_a_member_votes_once_per_office(season, today):
    people = _people(season, 4)
    election = election_create(season=season, on=MARCH)
    for office in ("president", "vice_president", "treasurer"):
        nomination_record(
            ballot=election, office=office, person=people[0] if office == "president" else people[1], on=MARCH
        )
    nominee = nomination_record(ballot=election, office="president", person=people[2], on=MARCH)
    ballot_open(ballot=election, on=APRIL)
    president = election.questions.get(office="president")
    treasurer = election.questions.get(office="treasurer")
    ballot_vote(ballot=election, person=people[3], choices={president.pk: str(nominee.pk)}, on=APRIL)
    with pytest.raises(NcpcError, match="already voted on “President”"):
        ballot_vote(
            ballot=election,
            person=people[3],
            choices={treasurer.pk: str(treasurer.nominations.get().pk), president.pk: str(nominee.pk)},
            on=APRIL,
        )
    # All or nothing: the treasurer vote on the refused paper was not counted either.
    assert not BallotParticipation.objects.filter(question=treasurer).exists()
    ballot_vote(
        ballot=election,
        person=people[3],
        choices={treasurer.pk: str(treasurer.nominations.get().pk)},
        on=APRIL,
    )
    assert BallotParticipation.objects.filter(person=people[3]).count() == 2


def test_a_vote_for_someone_not_nominated_or_on_a_closed_ballot_is_refused(season, today):
    people = _people(season, 2)
    ballot, _ = _rule_ballot(season, people=people)
    question = _question(ballot)
    with pytest.raises(NcpcError, match="not a choice"):
        ballot_vote(ballot=ballot, person=people[1], choices={question.pk: "maybe"}, on=APRIL)
    ballot_close(ballot=ballot, on=APRIL)
    with pytest.raises(NcpcError, match="not open"):
        ballot_vote(ballot=ballot, person=people[1], choices={question.pk: "yes"}, on=APRIL)


# Majority (yes-votes more than half of the members) -------------------------------------------------------


@pytest.mark.parametrize(
    ("members", "yes", "no", "adopted"),
    [
        (16, 9, 7, True),
        (16, 8, 8, False),  # exactly half of the members is not a majority
        (16, 8, 0, False),  # more yes than no, but not more than half of the members
        (15, 8, 0, True),
        (20, 11, 2, True),
        (20, 10, 1, False),
    ],
)
def test_a_rule_change_is_adopted_only_when_yes_votes_are_more_than_half_of_the_members(
    season, today, members, yes, no, adopted
):
    people = _people(season, members)
    ballot, change = _rule_ballot(season, people=people)
    question = _question(ballot)
    for person in people[:yes]:
        ballot_vote(ballot=ballot, person=person, choices={question.pk: "yes"}, on=APRIL)
    for person in people[yes : yes + no]:
        ballot_vote(ballot=ballot, person=person, choices={question.pk: "no"}, on=APRIL)
    ballot_close(ballot=ballot, on=APRIL)
    change.refresh_from_db()
    assert change.vote.kind == Vote.Kind.RULE_CHANGE
    assert (change.vote.yes, change.vote.no, change.vote.members_eligible) == (yes, no, members)
    assert change.vote.passed is adopted
    assert change.status == (RuleChange.Status.ADOPTED if adopted else RuleChange.Status.REJECTED)


# Adopted changes reach the next season only ---------------------------------------------------------------


def _adopt(season, people, **kwargs):
    ballot, change = _rule_ballot(season, people=people, **kwargs)
    question = _question(ballot)
    for person in people:
        ballot_vote(ballot=ballot, person=person, choices={question.pk: "yes"}, on=APRIL)
    ballot_close(ballot=ballot, on=APRIL)
    ballot_publish(ballot=ballot, on=APRIL)
    change.refresh_from_db()
    return change


def test_an_adopted_rule_change_waits_for_the_next_season_and_never_touches_the_current_one(season, today):
    people = _people(season, 10)
    change = _adopt(season, people=people)
    assert change.apply_state == RuleChange.Applied.PENDING and change.applies_to == "2027-28"
    assert season_rules(season).substitutes_per_season == 3  # the bylaws' number stays this season

    next_season = season_create(start_year=2027)  # applies the changes waiting for it
    change.refresh_from_db()
    assert change.apply_state == RuleChange.Applied.APPLIED and change.applied_to == next_season
    next_season.refresh_from_db()
    assert season_rules(next_season).substitutes_per_season == 4
    season.refresh_from_db()
    assert season_rules(season).substitutes_per_season == 3
    assert rule_changes_apply_pending(season=next_season) == []  # nothing applied twice


def test_an_adopted_change_is_applied_at_once_when_the_next_season_exists_and_has_not_begun(season, today):
    next_season = season_create(start_year=2027)
    people = _people(season, 10)
    change = _adopt(season, people=people, field="late_fee", value="30", title="Late fee $30")
    assert change.apply_state == RuleChange.Applied.APPLIED
    next_season.refresh_from_db()
    assert season_rules(next_season).late_fee == Decimal("30.00")
    assert season_rules(season).late_fee == Decimal("25.00")


def test_a_payout_row_change_that_still_adds_up_is_applied_to_the_next_season(season, today):
    next_season = season_create(start_year=2027)
    people = _people(season, 10)
    # §6.2 row for 16 members pays 145, 95, 70, 50 = the $360 event fund of §8.1; 150, 90, 70, 50 too.
    change = _adopt(
        season, people=people, field="payout_row", value="16: 150, 90, 70, 50", title="16 members"
    )
    assert change.apply_state == RuleChange.Applied.APPLIED
    row = next(r for r in season_rules(next_season).payout_table if r.member_count == 16)
    assert row.amounts == (Decimal("150.00"), Decimal("90.00"), Decimal("70.00"), Decimal("50.00"))
    row_now = next(r for r in season_rules(season).payout_table if r.member_count == 16)
    assert row_now.amounts == (Decimal("145.00"), Decimal("95.00"), Decimal("70.00"), Decimal("50.00"))


def test_a_change_that_would_break_the_rules_is_left_for_an_officer_with_the_reason(season, today):
    next_season = season_create(start_year=2027)
    people = _people(season, 10)
    change = _adopt(season, people=people, field="dues_per_event", value="60", title="Dues $60")
    assert change.apply_state == RuleChange.Applied.NEEDS_OFFICER
    assert "dues schedule adds up" in change.apply_problem
    assert season_rules(next_season).dues_per_event == Decimal("50.00")  # nothing half-written


def test_a_change_never_reaches_a_season_already_under_way(season, today):
    people = _people(season, 10)
    change = _adopt(season, people=people)
    import time_machine

    # The next season is only created once it has begun: the change must not land mid-season.
    with time_machine.travel(dt.datetime(2027, 8, 2, 12, tzinfo=dt.UTC), tick=False):
        next_season = season_create(start_year=2027)
    change.refresh_from_db()
    assert change.apply_state == RuleChange.Applied.NEEDS_OFFICER
    assert "already under way" in change.apply_problem
    assert season_rules(next_season).substitutes_per_season == 3


@pytest.mark.parametrize(
    ("field", "text", "value"),
    [
        ("dues_per_event", "$60", "60.00"),
        ("points_table", "12, 10, 8", [12, 10, 8]),
        ("event_start_time", "19:30", "19:30"),
        ("schedule", "8-4, 9-4", [[8, 4], [9, 4]]),
        ("wsop_row", "15-17: 2", {"min_members": 15, "max_members": 17, "prizes": 2}),
        ("starting_stack", "15000", 15000),
    ],
)
def test_rule_values_are_read_as_officers_type_them(field, text, value):
    assert rule_value_clean(field=field, text=text) == value


def test_a_rule_value_that_does_not_fit_the_rule_is_a_clear_error():
    with pytest.raises(NcpcError, match="whole number"):
        rule_value_clean(field="starting_stack", text="lots")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("NaN", "at most two decimals"),  # was an uncaught decimal error (a 500)
        ("Infinity", "at most two decimals"),
        ("12.345", "at most two decimals"),
        ("-5", "positive amount"),
        ("$1,250.00", None),
    ],
)
def test_a_money_rule_takes_only_an_amount_of_money(text, message):
    if message is None:
        assert rule_value_clean(field="late_fee", text=text) == "1250.00"
    else:
        with pytest.raises(NcpcError, match=message):
            rule_value_clean(field="late_fee", text=text)


# Elections ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("counts", "winner", "tie"),
    [
        ({1: 9, 2: 7}, 1, False),
        ({1: 8, 2: 8}, None, True),
        ({1: 5, 2: 5, 3: 6}, 3, False),
        ({1: 0}, None, True),  # nobody voted: the club decides
        ({1: 1}, 1, False),
    ],
)
def test_most_votes_wins_an_office_and_equal_leaders_are_a_tie(counts, winner, tie):
    outcome = election_outcome(counts=counts)
    assert (outcome.winner, outcome.tie) == (winner, tie)


def test_a_published_election_gives_the_winners_officer_terms_from_1_june_and_their_rights(season, today):
    people = _people(season, 5)
    election = election_create(season=season, on=MARCH)
    noms = {
        "president": [
            nomination_record(ballot=election, office="president", person=p, on=MARCH) for p in people[:2]
        ],
        "vice_president": [
            nomination_record(ballot=election, office="vice_president", person=people[2], on=MARCH)
        ],
        "treasurer": [
            nomination_record(ballot=election, office="treasurer", person=p, on=MARCH) for p in people[3:5]
        ],
    }
    ballot_open(ballot=election, on=APRIL)
    q = {question.office: question for question in election.questions.all()}
    for voter, (pres, treas) in zip(people, [(0, 0), (0, 1), (0, 0), (1, 1), (1, 0)], strict=True):
        ballot_vote(
            ballot=election,
            person=voter,
            choices={
                q["president"].pk: str(noms["president"][pres].pk),
                q["vice_president"].pk: str(noms["vice_president"][0].pk),
                q["treasurer"].pk: str(noms["treasurer"][treas].pk),
            },
            on=APRIL,
        )
    ballot_close(ballot=election, on=APRIL)
    ballot_publish(ballot=election, on=APRIL)
    term = OfficerTerm.objects.get(office="president", start=dt.date(2027, 6, 1))
    assert term.person == people[0] and term.end == dt.date(2028, 5, 31)
    assert OfficerTerm.objects.get(office="vice_president", start=dt.date(2027, 6, 1)).person == people[2]
    assert OfficerTerm.objects.get(office="treasurer", start=dt.date(2027, 6, 1)).person == people[3]


def test_a_tied_office_says_so_and_the_president_records_the_clubs_outcome(season, today):
    people = _people(season, 4)
    election = election_create(season=season, on=MARCH)
    a = nomination_record(ballot=election, office="president", person=people[0], on=MARCH)
    b = nomination_record(ballot=election, office="president", person=people[1], on=MARCH)
    for office in ("vice_president", "treasurer"):
        nomination_record(ballot=election, office=office, person=people[2], on=MARCH)
    ballot_open(ballot=election, on=APRIL)
    president = election.questions.get(office="president")
    ballot_vote(ballot=election, person=people[2], choices={president.pk: str(a.pk)}, on=APRIL)
    ballot_vote(ballot=election, person=people[3], choices={president.pk: str(b.pk)}, on=APRIL)
    ballot_close(ballot=election, on=APRIL)
    ballot_publish(ballot=election, on=APRIL)
    president.refresh_from_db()
    assert president.tie and president.winner is None
    assert not OfficerTerm.objects.filter(office="president", start=dt.date(2027, 6, 1)).exists()
    election_tie_resolve(question=president, winner=people[1], note="Second vote at the April event: 3-1")
    assert OfficerTerm.objects.get(office="president", start=dt.date(2027, 6, 1)).person == people[1]


def test_nominations_need_a_member_and_close_when_voting_opens(season, today):
    from tests.factories import PersonFactory

    people = _people(season, 2)
    election = election_create(season=season, on=MARCH)
    with pytest.raises(NcpcError, match="does not hold a seat"):
        nomination_record(ballot=election, office="president", person=PersonFactory(), on=MARCH)
    with pytest.raises(NcpcError, match="Nobody is nominated"):
        ballot_open(ballot=election, on=APRIL)
    for office in ("president", "vice_president", "treasurer"):
        nomination_record(ballot=election, office=office, person=people[0], on=MARCH)
    ballot_open(ballot=election, on=APRIL)
    with pytest.raises(NcpcError, match="Nominations are closed"):
        nomination_record(ballot=election, office="president", person=people[1], on=APRIL)


# Who rules a dispute (SPEC §10) ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("present", "involved", "deciders", "needed", "casting"),
    [
        (
            {"president", "vice_president", "treasurer"},
            set(),
            ("president", "vice_president", "treasurer"),
            2,
            "",
        ),
        (
            {"president", "vice_president", "treasurer"},
            {"president"},
            ("vice_president", "treasurer"),
            2,
            "vice_president",
        ),
        (
            {"president", "vice_president", "treasurer"},
            {"president", "vice_president"},
            ("treasurer",),
            1,
            "",
        ),
        ({"president"}, set(), ("president",), 1, ""),
        ({"vice_president", "treasurer"}, set(), ("vice_president", "treasurer"), 2, "vice_president"),
        (
            {"treasurer"},
            {"president"},
            ("treasurer",),
            1,
            "",
        ),  # an involved officer who is absent changes nothing
    ],
)
def test_the_officers_present_and_not_involved_rule_by_majority(present, involved, deciders, needed, casting):
    answer = who_rules(present=present, involved=involved)
    assert answer.deciders == deciders
    assert answer.votes_needed == needed
    assert answer.casting == casting
    assert not answer.independent_player


@pytest.mark.parametrize(
    ("present", "involved"),
    [
        (set(), set()),  # no officer at the event
        ({"president"}, {"president"}),
        ({"president", "vice_president", "treasurer"}, {"president", "vice_president", "treasurer"}),
    ],
)
def test_with_no_officer_free_to_rule_the_players_pick_an_independent_player(present, involved):
    answer = who_rules(present=present, involved=involved)
    assert answer.independent_player and answer.deciders == ()
    assert "independent player" in answer.answer


def test_who_rules_refuses_an_unknown_office():
    with pytest.raises(NcpcError, match="Unknown office"):
        who_rules(present={"dealer"}, involved=set())


# Permissions ----------------------------------------------------------------------------------------------


def test_only_the_president_manages_ballots_elections_and_rulings(member, president, vice_president):
    for action in (Action.MANAGE_BALLOTS, Action.MANAGE_ELECTIONS, Action.RECORD_RULINGS):
        assert user_can(president, action)
        assert not user_can(member, action)
        assert not user_can(vice_president, action)
    assert user_can(member, Action.VOTE)


def test_the_two_events_in_one_month_vote_uses_the_club_vote_majority(season, today):
    from members.services.votes import vote_record

    vote = vote_record(
        kind=Vote.Kind.TWO_EVENTS,
        subject="Two events in March",
        held_on=today,
        yes=8,
        no=8,
        members_eligible=16,
    ).record
    assert not vote.passed
    assert Vote.Kind.TWO_EVENTS.label.startswith("Two events in one month")


def test_unused_imports_are_models():
    assert Ballot and BallotQuestion
