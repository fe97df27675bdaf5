"""Officer terms (commands)."""

import datetime as dt

from django.db import transaction

from members.models import OfficerTerm, Person
from ncpc.core.audit import Actor, audit_record
from ncpc.core.errors import NcpcError


def default_term(*, start_year: int) -> tuple[dt.date, dt.date]:
    """Officer terms run 1 Jun – 31 May (SPEC §3)."""
    return dt.date(start_year, 6, 1), dt.date(start_year + 1, 5, 31)


def officer_term_overlap(
    *, office: str, start: dt.date, end: dt.date, exclude_pk: int | None = None, locked: bool = False
) -> str:
    """Why a term of ``office`` from ``start`` to ``end`` would clash ("" when it would not): one holder of an
    office at a time. ``exclude_pk``: the term being edited."""
    terms = OfficerTerm.objects.filter(office=office, start__lte=end, end__gte=start)
    if exclude_pk is not None:
        terms = terms.exclude(pk=exclude_pk)
    other = (terms.select_for_update() if locked else terms).select_related("person").first()
    if other is None:
        return ""
    return f"{other.person} already holds that office from {other.start} to {other.end}."


@transaction.atomic
def officer_term_create(
    *, person: Person, office: str, start: dt.date, end: dt.date, actor: Actor = None
) -> OfficerTerm:
    if end < start:
        raise NcpcError("A term cannot end before it starts.")
    if problem := officer_term_overlap(office=office, start=start, end=end, locked=True):
        raise NcpcError(problem)
    term = OfficerTerm.objects.create(person=person, office=office, start=start, end=end)
    audit_record(actor=actor, action="officer.term", target=term, summary=f"{term}")
    return term
