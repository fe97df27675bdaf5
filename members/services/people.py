"""People (commands): recording someone new, correcting a person's details, and a member turning
professional (§2.4.2)."""

import datetime as dt
import re
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction

from events import hooks as events_hooks
from members.models import Person
from members.selectors import membership_on
from members.services.logins import login_email_changed_tell, login_email_problem
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


# A person's key (handle): what the season file and the spreadsheets name a person by.
KEY_FORM = re.compile(r"^[a-z0-9][a-z0-9_-]{0,39}$")
EDITABLE = ("first_name", "last_name", "key", "email", "phone", "address", "date_of_birth")


@transaction.atomic
def person_update(*, person: Person, changes: dict[str, Any], actor: Actor = None) -> list[str]:
    """Correct a person's details (SPEC §16.10): names, handle, e-mail, phone, address, date of birth. Returns
    the fields changed (none: nothing written). Audited with each field's old and new value; a login linked to
    the person keeps the person's e-mail (one address). The e-mail of a login or an officer changes only as
    ``login_email_problem`` allows (SPEC §17.6), and the old address is told; an invitation sent to the old
    address no longer works (``invitations.invitation_problem``)."""
    person = Person.objects.select_for_update().get(pk=person.pk)
    values = {name: changes[name] for name in EDITABLE if name in changes}
    for name in ("first_name", "last_name", "key", "email", "phone", "address"):
        if name in values:
            values[name] = " ".join(str(values[name] or "").split())
    if "key" in values:
        values["key"] = values["key"].lower()
        if not KEY_FORM.match(values["key"]):
            raise NcpcError("The key is lower-case letters, digits, - or _ (at most 40).", field="key")
        if Person.objects.filter(key=values["key"]).exclude(pk=person.pk).exists():
            raise NcpcError(f"The key '{values['key']}' is taken; choose another.", field="key")
    for name in ("first_name", "last_name"):
        if name in values and not values[name]:
            raise NcpcError("A person has a first and a last name.", field=name)
    born = values.get("date_of_birth")
    if born and (problem := date_of_birth_problem(born=born, on=club_today())):
        raise NcpcError(problem, field="date_of_birth")
    changed = {
        name: (getattr(person, name), value)
        for name, value in values.items()
        if getattr(person, name) != value
    }
    if not changed:
        return []
    if "email" in changed and (problem := login_email_problem(person=person, actor=actor, on=club_today())):
        raise NcpcError(problem, field="email")
    for name, (_old, new) in changed.items():
        setattr(person, name, new)
    person.save(update_fields=list(changed))
    if "email" in changed and person.user_id is not None:
        get_user_model().objects.filter(pk=person.user_id).update(email=person.email)
        login_email_changed_tell(person=person, old=changed["email"][0], new=person.email, actor=actor)
    audit_record(
        actor=actor,
        action="member.person.update",
        target=person,
        summary=f"Corrected the details of {person}: {', '.join(n.replace('_', ' ') for n in changed)}",
        data={name: [str(old or ""), str(new or "")] for name, (old, new) in changed.items()},
    )
    return list(changed)


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
