"""Bringing in members from history (the season file import, SPEC §13): an imported season's members count
as admitted (no vote needed) and as having signed that season's rules document."""

import datetime as dt

from django.db import transaction

from events.models import Season
from members.models import Membership, Person, RulesSignature
from members.services.logins import login_email_problem
from ncpc.core.audit import Actor, audit_record
from ncpc.core.clock import club_today


@transaction.atomic
def person_from_history(
    *,
    key: str,
    first_name: str,
    last_name: str,
    email: str,
    date_of_birth: dt.date | None,
    actor: Actor = None,
) -> Person:
    """The person with this key (the same person across seasons), created if new; blanks are filled in."""
    person = Person.objects.filter(key=key).first()
    if person is None:
        person = Person.objects.create(
            key=key, first_name=first_name, last_name=last_name, email=email, date_of_birth=date_of_birth
        )
        audit_record(actor=actor, action="member.person.import", target=person, summary=f"Imported {person}")
        return person
    changed = False
    # A blank e-mail is filled in only where this officer could type it on the person's page (SPEC §17.6).
    if email and not person.email and login_email_problem(person=person, actor=actor, on=club_today()):
        email = ""
    for field, value in (("email", email), ("date_of_birth", date_of_birth), ("last_name", last_name)):
        if value and not getattr(person, field):
            setattr(person, field, value)
            changed = True
    if changed:
        person.save()
    return person


@transaction.atomic
def membership_from_history(
    *,
    person: Person,
    season: Season,
    first_event: int,
    left_after_event: int | None,
    joined_on: dt.date,
    left_on: dt.date | None = None,
    sponsor: Person | None = None,
    signed: bool = True,
    actor: Actor = None,
) -> Membership:
    membership = Membership.objects.create(
        person=person,
        season=season,
        first_event=first_event,
        left_after_event=left_after_event,
        how_left=Membership.HowLeft.WITHDREW if left_after_event is not None else "",
        joined_on=joined_on,
        left_on=left_on if left_after_event is not None else None,
        declared_not_professional=True,
        sponsor=sponsor,
    )
    if signed:
        RulesSignature.objects.create(membership=membership, signed_on=joined_on)
    audit_record(
        actor=actor,
        action="member.import",
        target=membership,
        summary=f"Imported {person} into {season} from event {first_event}",
    )
    return membership
