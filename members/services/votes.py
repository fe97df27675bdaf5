"""Club votes (admission, removal, and later governance): commands that persist. The majority rule is
``ncpc.core.majority``."""

import datetime as dt

from django.db import IntegrityError, transaction

from events.models import Season
from members.models import Person, Vote
from ncpc.core.audit import Actor, actor_user, audit_record
from ncpc.core.errors import NcpcError
from ncpc.core.results import Booked


def vote_counts_problems(*, yes: int, no: int, abstain: int, members_eligible: int) -> list[str]:
    problems = []
    if min(yes, no, abstain) < 0:
        problems.append("Vote counts cannot be negative.")
    if members_eligible < 1:
        problems.append("A vote needs at least one member entitled to vote.")
    elif yes + no + abstain > members_eligible:
        problems.append(
            f"{yes + no + abstain} votes were counted but only {members_eligible} members could vote."
        )
    return problems


def vote_build(
    *,
    kind: str,
    subject: str,
    held_on: dt.date,
    yes: int,
    no: int = 0,
    abstain: int = 0,
    members_eligible: int,
    season: Season | None = None,
    person: Person | None = None,
    actor: Actor = None,
) -> Vote:
    """An unsaved vote (validated by the caller with ``vote_counts_problems``)."""
    user = actor_user(actor)
    return Vote(
        kind=kind,
        subject=subject,
        held_on=held_on,
        yes=yes,
        no=no,
        abstain=abstain,
        members_eligible=members_eligible,
        season=season,
        person=person,
        recorded_by=user,
    )


@transaction.atomic
def vote_record(
    *,
    kind: str,
    subject: str,
    held_on: dt.date,
    yes: int,
    no: int = 0,
    abstain: int = 0,
    members_eligible: int,
    season: Season | None = None,
    person: Person | None = None,
    actor: Actor = None,
    once: str | None = None,
) -> Booked[Vote]:
    """Record the outcome of a vote held by the club (any kind), with its audit row. ``once``: the form's
    one-time key; the same form sent again records nothing and returns the first vote, ``replayed``."""
    if once:
        existing = Vote.objects.filter(form_key=once).first()
        if existing is not None:
            return Booked(existing, replayed=True)
    problems = vote_counts_problems(yes=yes, no=no, abstain=abstain, members_eligible=members_eligible)
    if problems:
        raise NcpcError(" ".join(problems))
    vote = vote_build(
        kind=kind,
        subject=subject,
        held_on=held_on,
        yes=yes,
        no=no,
        abstain=abstain,
        members_eligible=members_eligible,
        season=season,
        person=person,
        actor=actor,
    )
    vote.form_key = once or None
    try:
        with transaction.atomic():
            vote.save()
    except IntegrityError:
        first = Vote.objects.filter(form_key=once).first() if once else None
        if first is None:
            raise
        return Booked(first, replayed=True)
    audit_record(
        actor=actor,
        action="member.vote",
        target=vote,
        summary=str(vote),
        data={"passed": vote.passed},
    )
    return Booked(vote)
