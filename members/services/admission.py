"""Admission of a new member (SPEC §2, bylaws §2.1–2.4): a pure check and the command that seats them."""

import datetime as dt
from dataclasses import dataclass

from django.db import transaction

from events.models import Season
from events.rules import SeasonRules
from events.selectors import season_rules
from members.models import Membership, Person, Vote, WaitingListEntry
from members.selectors import current_member_count, membership_on, next_event_number
from members.services.closed_months import closed_month_refuse
from members.services.votes import vote_build, vote_counts_problems
from ncpc.core.audit import Actor, audit_record
from ncpc.core.errors import NcpcError
from ncpc.core.majority import majority


class AdmissionRefused(NcpcError):
    """One or more conditions of admission are not met; ``problems`` lists each one."""

    def __init__(self, problems: list[str]):
        super().__init__("Not admitted: " + " ".join(problems))
        self.problems = problems


@dataclass(frozen=True)
class AdmissionFacts:
    """Everything the admission rule looks at, as plain values."""

    on: dt.date
    date_of_birth: dt.date | None
    minimum_age: int
    sponsor_is_current_member: bool
    vote_yes: int | None  # None: no vote recorded
    current_members: int
    declared_not_professional: bool
    is_professional: bool
    seats_taken: int
    max_members: int
    already_seated: bool = False


def age_on(*, born: dt.date, on: dt.date) -> int:
    """Completed years on a date (a 29 Feb birthday comes of age on 1 Mar in common years)."""
    return on.year - born.year - ((on.month, on.day) < (born.month, born.day))


def admission_problems(*, facts: AdmissionFacts) -> list[str]:
    """Each unmet condition of admission as its own sentence; an empty list means the person may be admitted."""
    problems = []
    if facts.already_seated:
        problems.append("This person already holds a seat this season.")
    if facts.date_of_birth is None:
        problems.append("The date of birth is not recorded, so the minimum age cannot be checked.")
    elif (age := age_on(born=facts.date_of_birth, on=facts.on)) < facts.minimum_age:
        problems.append(
            f"Too young: {age} years old on {facts.on:%b %-d, %Y}; members must be at least {facts.minimum_age}."
        )
    if not facts.sponsor_is_current_member:
        problems.append("The sponsor must be a current member of the club.")
    if facts.vote_yes is None:
        problems.append("No admission vote is recorded.")
    elif not majority(yes=facts.vote_yes, members=facts.current_members):
        problems.append(
            f"The vote is not a majority: {facts.vote_yes} yes of {facts.current_members} current members "
            f"(more than half is needed)."
        )
    if facts.is_professional:
        problems.append(
            "A professional gambler (primary vocation professional poker player) cannot be admitted (§2.4)."
        )
    elif not facts.declared_not_professional:
        problems.append("The statement that the person is not a professional gambler is missing.")
    if facts.seats_taken >= facts.max_members:
        problems.append(f"No seat is free: all {facts.max_members} seats are taken.")
    return problems


@dataclass(frozen=True)
class VoteCounts:
    held_on: dt.date
    yes: int
    no: int = 0
    abstain: int = 0


def admission_checked(
    *,
    person: Person,
    season: Season,
    on: dt.date,
    sponsor: Person | None,
    vote: VoteCounts | None,
    declared_not_professional: bool,
    seat_freed: bool = False,
    actor: Actor = None,
) -> tuple[int, Vote]:
    """Check every condition of admission (§2.1–2.4) for ``person`` joining ``season`` on ``on``; return the
    new member's first event and the admission vote, saved. Raises ``AdmissionRefused`` listing every unmet
    condition, having saved nothing. Call inside a transaction holding the season row. An admission date in
    or before a closed month is refused first, on its own (SPEC §17.2: a closed month's fees and payouts
    never change).

    ``seat_freed``: the person takes over a seat that is being given up in the same command (a sale or a
    cession, SPEC §15.2), so no free seat is needed; the seller may sponsor (they are a member until then).
    """
    closed_month_refuse(day=on, field="on")
    rules = season_rules(season)
    members_now = current_member_count(season=season)
    problems = []
    if not season.contains(on):
        problems.append(f"The admission date {on:%b %-d, %Y} is outside season {season}.")
    first_event = next_event_number(season=season, on=on)
    if first_event is None:
        problems.append(f"Season {season} has no event left to play.")
    if vote is not None:
        problems += vote_counts_problems(
            yes=vote.yes, no=vote.no, abstain=vote.abstain, members_eligible=members_now
        )
    problems += admission_problems(
        facts=_admission_facts(
            person=person,
            season=season,
            on=on,
            sponsor=sponsor,
            vote=vote,
            declared_not_professional=declared_not_professional,
            seat_freed=seat_freed,
            rules=rules,
            members_now=members_now,
        )
    )
    if problems or vote is None or first_event is None:  # no vote or no event is a problem listed
        raise AdmissionRefused(problems)
    recorded = vote_build(
        kind=Vote.Kind.ADMISSION,
        subject=f"Admit {person} to {season}",
        held_on=vote.held_on,
        yes=vote.yes,
        no=vote.no,
        abstain=vote.abstain,
        members_eligible=members_now,
        season=season,
        person=person,
        actor=actor,
    )
    recorded.save()
    return first_event, recorded


def _admission_facts(
    *,
    person: Person,
    season: Season,
    on: dt.date,
    sponsor: Person | None,
    vote: VoteCounts | None,
    declared_not_professional: bool,
    seat_freed: bool,
    rules: SeasonRules,
    members_now: int,
) -> AdmissionFacts:
    """What the conditions of admission are checked against (``admission_problems``)."""
    return AdmissionFacts(
        on=on,
        date_of_birth=person.date_of_birth,
        minimum_age=rules.minimum_age,
        sponsor_is_current_member=_sponsor_is_current(sponsor=sponsor, person=person, season=season, on=on),
        vote_yes=None if vote is None else vote.yes,
        current_members=members_now,
        declared_not_professional=declared_not_professional,
        is_professional=person.is_professional,
        seats_taken=members_now - 1 if seat_freed else members_now,
        max_members=rules.max_members,
        already_seated=Membership.objects.filter(person=person, season=season).exists(),
    )


def _sponsor_is_current(*, sponsor: Person | None, person: Person, season: Season, on: dt.date) -> bool:
    """The sponsor is someone else holding a seat of ``season`` on ``on`` (§2.2)."""
    if sponsor is None or sponsor.pk == person.pk:
        return False
    sponsor_seat = membership_on(person=sponsor, on=on)
    return sponsor_seat is not None and sponsor_seat.season_id == season.pk


@transaction.atomic
def member_admit(
    *,
    person: Person,
    season: Season,
    on: dt.date,
    sponsor: Person | None,
    vote: VoteCounts | None,
    declared_not_professional: bool,
    actor: Actor = None,
    reason: str = "",
) -> Membership:
    """Seat ``person`` in ``season`` from the next event, after checking every condition of admission.

    The vote is recorded with the membership; if any condition fails nothing at all is saved and
    ``AdmissionRefused`` lists every failed condition.
    """
    # Lock the season row so two officers cannot fill the last seat at the same time.
    season = Season.objects.select_for_update().get(pk=season.pk)
    members_now = current_member_count(season=season)
    first_event, recorded = admission_checked(
        person=person,
        season=season,
        on=on,
        sponsor=sponsor,
        vote=vote,
        declared_not_professional=declared_not_professional,
        actor=actor,
    )
    membership = Membership.objects.create(
        person=person,
        season=season,
        first_event=first_event,
        joined_on=on,
        sponsor=sponsor,
        admission_vote=recorded,
        declared_not_professional=True,
    )
    from_waiting_list = _waiting_list_leave(person=person, on=on)
    audit_record(
        actor=actor,
        action="member.admit",
        target=membership,
        summary=f"Admitted {person} to {season} from event {first_event} (sponsor {sponsor})",
        reason=reason,
        data={
            "vote": {
                "yes": recorded.yes,
                "no": recorded.no,
                "abstain": recorded.abstain,
                "members": members_now,
            },
            "first_event": first_event,
            "from_waiting_list": from_waiting_list,
        },
    )
    return membership


def _waiting_list_leave(*, person: Person, on: dt.date) -> bool:
    """The admitted person's waiting-list entry, if any, is closed as admitted; True when there was one."""
    entry = (
        WaitingListEntry.objects.select_for_update()
        .filter(person=person, status=WaitingListEntry.Status.WAITING)
        .first()
    )
    if entry is None:
        return False
    entry.status = WaitingListEntry.Status.ADMITTED
    entry.closed_on = on
    entry.save(update_fields=["status", "closed_on"])
    return True
