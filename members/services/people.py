"""People (commands): recording someone new, and a member turning professional (§2.4.2)."""

import datetime as dt
from typing import Any

from django.db import transaction

from members.models import Person
from ncpc.audit import Actor, audit_record
from ncpc.errors import NcpcError


@transaction.atomic
def person_create(*, actor: Actor = None, **fields: Any) -> Person:
    if Person.objects.filter(key=fields.get("key")).exists():
        raise NcpcError(f"The key '{fields.get('key')}' is taken; choose another.", field="key")
    person = Person.objects.create(**fields)
    audit_record(actor=actor, action="member.person.create", target=person, summary=f"Recorded {person}")
    return person


@transaction.atomic
def person_turned_pro(*, person: Person, on: dt.date, actor: Actor = None, reason: str = "") -> Person:
    """A member who turns professional keeps the seat (§2.4.2): only the flag and the date are recorded."""
    person = Person.objects.select_for_update().get(pk=person.pk)
    if person.is_professional:
        raise NcpcError(f"{person} is recorded as professional already.")
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
