"""Officer elections (§3.1–3.3, SPEC §10): nominations at the March event, one secret vote per member per
office at the April event, the result published to all members, winners' terms 1 Jun – 31 May."""

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass

from django.db import transaction

from events.models import Event, Season
from members.models import Ballot, BallotCount, BallotQuestion, Membership, Nomination, OfficerTerm, Person
from members.services.officers import default_term, officer_term_create
from ncpc.core.audit import Actor, audit_record
from ncpc.core.errors import NcpcError

OFFICES = (
    OfficerTerm.Office.PRESIDENT,
    OfficerTerm.Office.VICE_PRESIDENT,
    OfficerTerm.Office.TREASURER,
)


@dataclass(frozen=True)
class ElectionOutcome:
    leaders: tuple[int, ...]  # the options (nomination ids) with the most votes
    tie: bool

    @property
    def winner(self) -> int | None:
        return self.leaders[0] if len(self.leaders) == 1 and not self.tie else None


def election_outcome(*, counts: Mapping[int, int]) -> ElectionOutcome:
    """Most votes wins; two or more sharing the most votes is a tie (the club resolves it). Pure.

    Nobody voted at all: every nominee "leads" with 0, which is a tie too (a lone nominee with no votes
    is not elected by the count; the President records the club's decision).
    """
    if not counts:
        return ElectionOutcome(leaders=(), tie=False)
    top = max(counts.values())
    leaders = tuple(sorted(option for option, votes in counts.items() if votes == top))
    tie = len(leaders) > 1 or top == 0
    return ElectionOutcome(leaders=leaders, tie=tie)


@dataclass(frozen=True)
class ElectionDays:
    nominations: dt.date | None  # the date of the season's March event (§3.2)
    voting: dt.date | None  # the date of the season's April event (§3.3)


def election_days(*, season: Season) -> ElectionDays:
    """Nominations at the March event, voting at the April event (SPEC §15.14): the dates follow those events,
    so moving the event moves the day. The first event of the month counts if a month has two."""
    dates = list(
        Event.objects.filter(season=season, date__month__in=(3, 4))
        .order_by("date")
        .values_list("date", flat=True)
    )
    march = next((d for d in dates if d.month == 3), None)
    april = next((d for d in dates if d.month == 4), None)
    return ElectionDays(nominations=march, voting=april)


def election_voting_day_check(*, season: Season, on: dt.date, what: str) -> None:
    """Raise unless ``on`` is the day of the season's April event (opening the vote, casting a vote)."""
    day = election_days(season=season).voting
    if day is None:
        raise NcpcError(f"{season} has no April event: officers are elected at the April event (§3.3).")
    if on != day:
        raise NcpcError(f"{what} at the April event only (§3.3): {day:%a %b %-d, %Y}.")


def election_term_dates(*, season: Season) -> tuple[dt.date, dt.date]:
    """The April election of season 2026-27 elects the officers for 1 Jun 2027 – 31 May 2028."""
    return default_term(start_year=season.end.year)


@transaction.atomic
def election_create(*, season: Season, on: dt.date, actor: Actor = None) -> Ballot:
    """A new election for the season, with one question per office."""
    if Ballot.objects.filter(
        season=season, kind=Ballot.Kind.ELECTION, status__in=[Ballot.Status.PREPARING, Ballot.Status.OPEN]
    ).exists():
        raise NcpcError(f"An election for {season} is already being prepared or open.")
    start, end = election_term_dates(season=season)
    ballot = Ballot.objects.create(
        season=season,
        kind=Ballot.Kind.ELECTION,
        title=f"Election of officers {start.year}-{end.year % 100:02d}",
    )
    BallotQuestion.objects.bulk_create(
        BallotQuestion(ballot=ballot, position=i, office=office) for i, office in enumerate(OFFICES, start=1)
    )
    audit_record(actor=actor, action="election.create", target=ballot, summary=f"{ballot.title} ({on})")
    return ballot


@transaction.atomic
def nomination_record(
    *,
    ballot: Ballot,
    office: str,
    person: Person,
    on: dt.date,
    nominated_by: Person | None = None,
    actor: Actor = None,
) -> Nomination:
    """Record a nomination (§3.2). Only while the election is being prepared; the nominee must hold a seat."""
    ballot = Ballot.objects.select_for_update().get(pk=ballot.pk)
    if ballot.kind != Ballot.Kind.ELECTION:
        raise NcpcError("Nominations are for elections.")
    if ballot.status != Ballot.Status.PREPARING:
        raise NcpcError("Nominations are closed: the election has been opened for voting.")
    question = ballot.questions.filter(office=office).first()
    if question is None:
        raise NcpcError("That office is not on this election.", field="office")
    march = election_days(season=ballot.season).nominations
    if march is None:
        raise NcpcError(
            f"{ballot.season} has no March event: nominations are made at the March event (§3.2)."
        )
    if on != march:
        raise NcpcError(
            f"Nominations are made at the March event (§3.2): record them dated {march:%a %b %-d, %Y}, not {on}.",
            field="on",
        )
    if not Membership.objects.filter(
        person=person, season=ballot.season, left_after_event__isnull=True
    ).exists():
        raise NcpcError(f"{person} does not hold a seat in {ballot.season}: only members can be nominated.")
    if Nomination.objects.filter(question=question, person=person).exists():
        raise NcpcError(f"{person} is nominated for {question} already.")
    nomination = Nomination.objects.create(
        question=question, person=person, nominated_by=nominated_by, nominated_on=on
    )
    audit_record(actor=actor, action="election.nominate", target=nomination, summary=str(nomination))
    return nomination


@transaction.atomic
def nomination_withdraw(*, nomination: Nomination, actor: Actor = None) -> None:
    ballot = Ballot.objects.select_for_update().get(pk=nomination.question.ballot_id)
    if ballot.status != Ballot.Status.PREPARING:
        raise NcpcError("A nomination can be withdrawn only before the election opens.")
    audit_record(
        actor=actor, action="election.withdraw", target=nomination, summary=f"Withdrawn: {nomination}"
    )
    nomination.delete()


def election_count(*, ballot: Ballot) -> None:
    """At close: the winner of each office, or a tie. Called inside ``ballot_close``'s transaction."""
    for question in ballot.questions.all():
        counts = {
            c.nomination_id: c.votes
            for c in BallotCount.objects.filter(question=question)
            if c.nomination_id is not None
        }
        outcome = election_outcome(counts=counts)
        question.tie = outcome.tie
        question.winner = Nomination.objects.get(pk=outcome.winner).person if outcome.winner else None
        question.save(update_fields=["tie", "winner"])


def _term_grant(*, question: BallotQuestion, actor: Actor) -> None:
    if question.winner is None:
        return
    start, end = election_term_dates(season=question.ballot.season)
    if OfficerTerm.objects.filter(person=question.winner, office=question.office, start=start).exists():
        return
    officer_term_create(person=question.winner, office=question.office, start=start, end=end, actor=actor)


def election_terms_grant(*, ballot: Ballot, actor: Actor = None) -> None:
    """At publish: each elected officer gets the term 1 Jun – 31 May (permissions follow from it)."""
    for question in ballot.questions.select_related("winner", "ballot__season"):
        if question.winner_id:
            _term_grant(question=question, actor=actor)


def tie_recorder_office(*, question: BallotQuestion, holders: Mapping[str, Person]) -> str | None:
    """Which office records the outcome of a tie: the President, unless a candidate in that race; then the
    next officer in the bylaws' order (Vice President, Treasurer) who is not. None when every officer is a
    candidate (the club records it at a meeting; the admin can). ``holders``: office → person today. Pure
    over the nominations given."""
    candidates = {n.person_id for n in question.nominations.all()} if question.office else set()
    for office in OFFICES:
        holder = holders.get(office)
        if holder is not None and holder.pk not in candidates:
            return office
    return None


@transaction.atomic
def election_tie_resolve(
    *,
    question: BallotQuestion,
    winner: Person,
    note: str,
    recorded_by: Person | None = None,
    actor: Actor = None,
) -> BallotQuestion:
    """Record how the club resolved a tied office (the bylaws leave it to the club). ``recorded_by``: the
    officer recording it, who must not be a candidate in that race (SPEC §15.14)."""
    question = BallotQuestion.objects.select_for_update().select_related("ballot__season").get(pk=question.pk)
    if recorded_by is not None and question.nominations.filter(person=recorded_by).exists():
        raise NcpcError(
            f"{recorded_by} is a candidate for {question}: a candidate never settles a tie in their own race. "
            "Another officer, not in the race, records the outcome."
        )
    if question.ballot.status not in (Ballot.Status.CLOSED, Ballot.Status.PUBLISHED):
        raise NcpcError("A tie can be resolved once the election is closed and counted.")
    if not question.tie:
        raise NcpcError(f"The vote for {question} was not a tie.")
    if question.winner_id:
        raise NcpcError(f"The tie for {question} was resolved already.")
    if not note.strip():
        raise NcpcError("Say how the club resolved the tie (e.g. a second vote, a draw).", field="note")
    if not question.nominations.filter(person=winner).exists():
        raise NcpcError(f"{winner} was not nominated for {question}.", field="winner")
    question.winner = winner
    question.outcome_note = note.strip()
    question.save(update_fields=["winner", "outcome_note"])
    if question.ballot.status == Ballot.Status.PUBLISHED:
        _term_grant(question=question, actor=actor)
    audit_record(
        actor=actor,
        action="election.tie",
        target=question.ballot,
        summary=f"Tie for {question} resolved: {winner}",
        reason=note,
    )
    return question
