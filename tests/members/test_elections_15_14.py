"""SPEC §15.14 (bylaws §3.2, §3.3): nominations at the March event, voting at the April event; a candidate never
settles a tie in their own race; the tie box is an officer's record, not a question; turnout beside each result;
a vote is confirmed before it is cast."""

import datetime as dt

import pytest
import time_machine
from django.test import Client
from django.urls import reverse

from members.models import Ballot, BallotParticipation, OfficerTerm
from members.services.ballots import ballot_close, ballot_open, ballot_publish, ballot_vote
from members.services.elections import election_create, election_tie_resolve, nomination_record
from ncpc.core.errors import NcpcError
from tests.factories import member_user
from tests.members.factories import seats_fill

pytestmark = pytest.mark.django_db

MARCH, APRIL = dt.date(2027, 3, 27), dt.date(2027, 4, 24)  # events 9 and 10 of 2026-27 (SPEC §3)


def _at(day: dt.date):
    return time_machine.travel(dt.datetime(day.year, day.month, day.day, 20, 0, tzinfo=dt.UTC), tick=False)


def _election(season, people):
    election = election_create(season=season, on=MARCH)
    noms = {
        office: nomination_record(ballot=election, office=office, person=people[i], on=MARCH)
        for i, office in enumerate(("president", "vice_president", "treasurer"))
    }
    return election, noms


def test_spec_15_14_nominations_are_recorded_at_the_march_event_only(season, today):
    people = [m.person for m in seats_fill(season=season, count=2)]
    election = election_create(season=season, on=today)
    for day in (today, dt.date(2027, 3, 26), APRIL):
        with pytest.raises(NcpcError, match="Nominations are made at the March event"):
            nomination_record(ballot=election, office="president", person=people[0], on=day)
    assert nomination_record(ballot=election, office="president", person=people[0], on=MARCH)


def test_spec_15_14_the_nomination_day_follows_the_march_event_when_it_moves(season, today):
    people = [m.person for m in seats_fill(season=season, count=1)]
    season.events.filter(number=9).update(date=dt.date(2027, 3, 20))
    election = election_create(season=season, on=today)
    with pytest.raises(NcpcError, match="dated Sat Mar 20, 2027"):
        nomination_record(ballot=election, office="president", person=people[0], on=MARCH)
    nomination_record(ballot=election, office="president", person=people[0], on=dt.date(2027, 3, 20))


def test_spec_15_14_voting_opens_and_votes_are_cast_at_the_april_event_only(season, today):
    people = [m.person for m in seats_fill(season=season, count=4)]
    election, noms = _election(season, people)
    with pytest.raises(NcpcError, match="An election opens at the April event only"):
        ballot_open(ballot=election, on=MARCH)
    ballot_open(ballot=election, on=APRIL)
    choice = {noms["president"].question_id: str(noms["president"].pk)}
    with pytest.raises(NcpcError, match="Members vote for officers at the April event only"):
        ballot_vote(ballot=election, person=people[3], choices=choice, on=dt.date(2027, 4, 25))
    assert not BallotParticipation.objects.exists()
    assert ballot_vote(ballot=election, person=people[3], choices=choice, on=APRIL) == 1


def test_spec_15_14_a_vote_is_confirmed_before_it_is_cast(season, member, today):
    people = [m.person for m in seats_fill(season=season, count=3)]
    election, noms = _election(season, people)
    ballot_open(ballot=election, on=APRIL)
    client = Client()
    data = {f"q{n.question_id}": str(n.pk) for n in noms.values()}
    with _at(APRIL):
        client.force_login(member)
        page = client.get(reverse("members:ballot", args=[election.pk])).content.decode()
        assert 'name="confirm"' in page and "cannot be changed" in page
        response = client.post(reverse("members:ballot_vote", args=[election.pk]), data, follow=True)
        assert "Tick the box to confirm your vote" in response.content.decode()
        assert not BallotParticipation.objects.exists()
        client.post(reverse("members:ballot_vote", args=[election.pk]), data | {"confirm": "1"})
    assert BallotParticipation.objects.filter(person=member.person).count() == 3


@pytest.fixture
def tied_race_of_the_president(season, president, vice_president, today):
    """The President is a candidate for President and the race ties 1-1."""
    rival = seats_fill(season=season, count=1)[0].person
    others = [m.person for m in seats_fill(season=season, count=2)]
    election = election_create(season=season, on=MARCH)
    own = nomination_record(ballot=election, office="president", person=president.person, on=MARCH)
    other = nomination_record(ballot=election, office="president", person=rival, on=MARCH)
    for office in ("vice_president", "treasurer"):
        nomination_record(ballot=election, office=office, person=others[0], on=MARCH)
    ballot_open(ballot=election, on=APRIL)
    ballot_vote(ballot=election, person=others[0], choices={own.question_id: str(own.pk)}, on=APRIL)
    ballot_vote(ballot=election, person=others[1], choices={own.question_id: str(other.pk)}, on=APRIL)
    ballot_close(ballot=election, on=APRIL)
    question = election.questions.get(office="president")
    assert question.tie
    return election, question, rival


def test_spec_15_14_a_candidate_never_settles_a_tie_in_their_own_race(
    client, president, vice_president, tied_race_of_the_president
):
    election, question, rival = tied_race_of_the_president
    with pytest.raises(NcpcError, match="a candidate never settles a tie in their own race"):
        election_tie_resolve(
            question=question, winner=president.person, note="coin", recorded_by=president.person
        )
    client.force_login(president)
    page = client.get(reverse("members:ballot", args=[election.pk])).content.decode()
    assert reverse("members:tie_resolve", args=[question.pk]) not in page
    assert "You are a candidate for President" in page
    url = reverse("members:tie_resolve", args=[question.pk])
    data = {f"tie{question.pk}-winner": president.person.pk, f"tie{question.pk}-note": "A draw"}
    assert client.post(url, data).status_code == 403
    question.refresh_from_db()
    assert question.winner is None

    # The Vice President, not in the race, records the club's decision.
    client.force_login(vice_president)
    assert url in client.get(reverse("members:ballot", args=[election.pk])).content.decode()
    data = {f"tie{question.pk}-winner": rival.pk, f"tie{question.pk}-note": "Second vote: 3-1"}
    client.post(url, data)
    question.refresh_from_db()
    assert question.winner == rival


def test_spec_15_14_the_tie_box_is_an_officers_record_not_a_question_of_the_ballot(
    client, vice_president, tied_race_of_the_president
):
    election, question, _rival = tied_race_of_the_president
    client.force_login(vice_president)
    page = client.get(reverse("members:ballot", args=[election.pk])).content.decode()
    box = page[page.index('aria-label="Outcome of a tie"') :]
    box = box[: box.index("</form>")]
    assert (
        "Officer&#x27;s record, not a ballot question." in box
        or "Officer's record, not a ballot question." in box
    )
    assert "<legend" not in box and "<fieldset" not in box
    assert "How the club resolved the tie" not in page  # the old label read like a fourth question


def test_spec_15_14_a_ballot_shows_turnout_beside_its_result(client, season, today):
    people = [m.person for m in seats_fill(season=season, count=16)]
    election, noms = _election(season, people)
    ballot_open(ballot=election, on=APRIL)
    for voter in people[:3]:
        ballot_vote(
            ballot=election, person=voter, choices={q: str(n.pk) for q, n in _by_question(noms)}, on=APRIL
        )
    ballot_close(ballot=election, on=APRIL)
    ballot_publish(ballot=election, on=APRIL)
    assert OfficerTerm.objects.filter(start=dt.date(2027, 6, 1)).count() == 3
    viewer = member_user(season=season, username="viewer")
    election.refresh_from_db()
    assert election.members_eligible == 16 and election.status == Ballot.Status.PUBLISHED
    client.force_login(viewer)
    page = client.get(reverse("members:ballot", args=[election.pk])).content.decode()
    assert "Turnout: 3 of 16 members voted (19%)" in page
    assert "with 3 votes, 3 of 16 members voting" in page


def _by_question(noms):
    return [(n.question_id, n) for n in noms.values()]
