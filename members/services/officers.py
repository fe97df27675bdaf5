"""Officer terms (commands)."""

import datetime as dt

from django.db import transaction

from members.models import OfficerTerm, Person
from ncpc.core.audit import Actor, audit_record
from ncpc.core.errors import NcpcError


def default_term(*, start_year: int) -> tuple[dt.date, dt.date]:
    """Officer terms run 1 Jun – 31 May (SPEC §3)."""
    return dt.date(start_year, 6, 1), dt.date(start_year + 1, 5, 31)


def officer_term_text(term: OfficerTerm) -> str:
    """A term as the officers' pages say it, dates as every page writes them (the officers' table too):
    President Ada Byron, Nov 29, 2026 – May 31, 2027."""
    return f"{term.get_office_display()} {term.person}, {term.start:%b %-d, %Y} – {term.end:%b %-d, %Y}"


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
    return (
        f"{other.person} already holds that office from {other.start:%b %-d, %Y} to {other.end:%b %-d, %Y}."
    )


@transaction.atomic
def officer_term_create(
    *, person: Person, office: str, start: dt.date, end: dt.date, actor: Actor = None
) -> OfficerTerm:
    if end < start:
        raise NcpcError("A term cannot end before it starts.")
    if problem := officer_term_overlap(office=office, start=start, end=end, locked=True):
        raise NcpcError(problem)
    term = OfficerTerm.objects.create(person=person, office=office, start=start, end=end)
    audit_record(actor=actor, action="officer.term", target=term, summary=officer_term_text(term))
    return term


@transaction.atomic
def officer_term_end(*, term: OfficerTerm, last_day: dt.date, reason: str, actor: Actor) -> OfficerTerm:
    """End a term early (a resignation, a term entered too long): ``last_day`` becomes its last day, still
    included. A term can only be shortened, never to before its start; the former end stays in the audit
    trail. A term not begun yet is ended by giving its start as the last day."""
    term = OfficerTerm.objects.select_for_update().select_related("person").get(pk=term.pk)
    reason = reason.strip()
    if not reason:
        raise NcpcError("Give the reason for ending the term (a resignation, a mistake).")
    if last_day < term.start:
        raise NcpcError(f"The last day cannot be before the term starts ({term.start:%b %-d, %Y}).")
    if last_day >= term.end:
        raise NcpcError(
            f"The term already ends on {term.end:%b %-d, %Y}; give an earlier last day to end it early."
        )
    before = term.end
    term.end = last_day
    term.save(update_fields=["end"])
    audit_record(
        actor=actor,
        action="officer.term_end",
        target=term,
        summary=f"Ended the term of {term.get_office_display()} {term.person}: last day {last_day:%b %-d, %Y} "
        f"(was {before:%b %-d, %Y})",
        reason=reason,
        data={"end_before": before.isoformat(), "end_after": last_day.isoformat()},
    )
    return term
