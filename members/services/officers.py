"""Officer terms (commands)."""

import datetime as dt

from django.db import transaction

from members.models import OfficerTerm, Person
from ncpc.audit import Actor, audit_record
from ncpc.errors import NcpcError


def default_term(*, start_year: int) -> tuple[dt.date, dt.date]:
    """Officer terms run 1 Jun – 31 May (SPEC §3)."""
    return dt.date(start_year, 6, 1), dt.date(start_year + 1, 5, 31)


@transaction.atomic
def officer_term_create(
    *, person: Person, office: str, start: dt.date, end: dt.date, actor: Actor = None
) -> OfficerTerm:
    if end < start:
        raise NcpcError("A term cannot end before it starts.")
    overlapping = OfficerTerm.objects.select_for_update().filter(
        office=office, start__lte=end, end__gte=start
    )
    other = overlapping.first()
    if other is not None:
        raise NcpcError(f"{other.person} already holds that office from {other.start} to {other.end}.")
    term = OfficerTerm.objects.create(person=person, office=office, start=start, end=end)
    audit_record(actor=actor, action="officer.term", target=term, summary=f"{term}")
    return term
