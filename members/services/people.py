"""People (commands): recording someone new, and a member turning professional (§2.4.2)."""

import datetime as dt
from typing import Any

from django.db import transaction

from events import hooks as events_hooks
from members.models import Person
from members.selectors import membership_on
from ncpc.core.audit import Actor, audit_record
from ncpc.core.clock import club_today
from ncpc.core.errors import NcpcError

# Not a bylaws number: a date of birth more than this many years back is a typing mistake (0001-01-01).
OLDEST_AGE_YEARS = 120


def date_of_birth_problem(*, born: dt.date, on: dt.date) -> str:
    """Why a date of birth cannot be right ("" when it can): not after today, not 120 years back. Pure."""
    if born > on:
        return f"The date of birth {born} is after today."
    if on.year - born.year > OLDEST_AGE_YEARS:
        return f"The date of birth {born} is more than {OLDEST_AGE_YEARS} years ago: check the year."
    return ""


@transaction.atomic
def person_create(*, actor: Actor = None, **fields: Any) -> Person:
    if Person.objects.filter(key=fields.get("key")).exists():
        raise NcpcError(f"The key '{fields.get('key')}' is taken; choose another.", field="key")
    born = fields.get("date_of_birth")
    if born and (problem := date_of_birth_problem(born=born, on=club_today())):
        raise NcpcError(problem, field="date_of_birth")
    person = Person.objects.create(**fields)
    audit_record(actor=actor, action="member.person.create", target=person, summary=f"Recorded {person}")
    return person


@transaction.atomic
def person_turned_pro(*, person: Person, on: dt.date, actor: Actor = None, reason: str = "") -> Person:
    """A member in good standing who turns professional keeps the seat (§2.4.2): only the flag and the date are
    recorded. Only for a member holding a seat and in good standing on that date (SPEC §15, item 6): anyone
    else is refused, and the officers decide on the seat under §2.4.1."""
    person = Person.objects.select_for_update().get(pk=person.pk)
    if person.is_professional:
        raise NcpcError(f"{person} is recorded as professional already.")
    membership = membership_on(person=person, on=on)
    if membership is None:
        raise NcpcError(
            f"{person} holds no seat on {on:%b %-d, %Y}: §2.4.2 lets only a member keep the seat after turning "
            "professional. A person who is professional already is marked so on their record (and not admitted)."
        )
    if not events_hooks.good_standing(membership=membership, on=on):
        raise NcpcError(
            f"{person} is not in good standing on {on:%b %-d, %Y}: only a member in good standing keeps the seat "
            "after turning professional (§2.4.2). Nothing was recorded."
        )
    person.is_professional = True
    person.turned_pro_on = on
    person.save(update_fields=["is_professional", "turned_pro_on"])
    audit_record(
        actor=actor,
        action="member.person.turned_pro",
        target=person,
        summary=f"{person} turned professional on {on}; the seat is kept (§2.4.2)",
        reason=reason,
    )
    return person
