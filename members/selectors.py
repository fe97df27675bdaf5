"""Reads about people, seats and offices that other apps and pages share."""

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.db.models import Exists, F, FilteredRelation, OuterRef, Q, QuerySet

from events import hooks as events_hooks
from events.models import Event, Season
from members import hooks
from members.models import Membership, OfficerTerm, Person, RulesSignature, Suspension, Vote, WaitingListEntry
from members.services.seat_terms import seat_held_at


def login_standing(*, user_id: int, on: dt.date) -> tuple[Person | None, set[str], bool]:
    """For permissions, in one query: the login's person, the offices they hold on ``on`` and whether they hold
    a seat in that date's season."""
    rows: list[Any] = list(_login_standing(user_id=user_id, on=on))  # with the query's annotations
    if not rows:
        return None, set(), False
    person = rows[0]
    offices = {row.office for row in rows if row.office}
    return person, offices, person.seated  # annotated in the query


def _login_standing(*, user_id: int, on: dt.date) -> "QuerySet[Person]":
    """The login's person, once per office held on ``on`` (once with ``office`` None if none), with
    ``seated``: a seat held in that date's season. One join and one subquery: an EXISTS per office cost the
    database three times as long to plan."""
    return (
        Person.objects.filter(user_id=user_id)
        .annotate(
            terms_on=FilteredRelation(
                "officer_terms", condition=Q(officer_terms__start__lte=on, officer_terms__end__gte=on)
            ),
            office=F("terms_on__office"),
            seated=Exists(
                Membership.objects.filter(
                    person=OuterRef("pk"),
                    season__start__lte=on,
                    season__end__gte=on,
                    left_after_event__isnull=True,
                )
            ),
        )
        .order_by()
    )


def offices_held(*, person: Person, on: dt.date) -> set[str]:
    return set(
        OfficerTerm.objects.filter(person=person, start__lte=on, end__gte=on).values_list("office", flat=True)
    )


def officer_holders(*, on: dt.date) -> dict[str, Person]:
    """The holder of each office on a date."""
    terms = OfficerTerm.objects.filter(start__lte=on, end__gte=on).select_related("person")
    return {term.office: term.person for term in terms}


def membership_on(*, person: Person, on: dt.date) -> Membership | None:
    """The person's seat in the season containing ``on`` if they still hold it (have not left)."""
    return (
        Membership.objects.filter(
            person=person, season__start__lte=on, season__end__gte=on, left_after_event__isnull=True
        )
        .select_related("season")
        .first()
    )


def season_roster(*, season: Season) -> list[Membership]:
    """Members holding a seat now (not left), by name."""
    return list(
        Membership.objects.filter(season=season, left_after_event__isnull=True).select_related("person")
    )


def season_memberships(*, season: Season) -> list[Membership]:
    """Every membership of the season, left or not, with its person, by name (one query). A page that needs
    them in several places reads them once and passes them on."""
    rows = Membership.objects.filter(season=season).select_related("person").order_by()
    # Sorted here, not by the database: the same order whatever the database's collation.
    memberships = sorted(rows, key=lambda m: (m.person.last_name, m.person.first_name, m.pk))
    for m in memberships:
        m.season = season  # the caller's: no query to find it again
    return memberships


def roster_for_event(
    *, season: Season, event_number: int, memberships: Iterable[Membership] | None = None
) -> list[Membership]:
    """Members holding a seat at event ``event_number``: joined by then and not left before it. ``memberships``:
    the season's, when the caller has read them."""
    return [
        m
        for m in (memberships if memberships is not None else season_memberships(season=season))
        if seat_held_at(seat=m, event_number=event_number)
    ]


def rules_signed(*, membership: Membership) -> bool:
    """Has the member signed this season's rules document (§2.4, §3.5.5)? Interface for results entry.

    A signature belongs to the membership, so a seat's buyer signs for themself.
    """
    return RulesSignature.objects.filter(membership=membership).exists()


def person_banned(*, person: Person) -> bool:
    """Banned from the club (§5.3.2): removed from the club by vote (§5.5.3) in any season."""
    return Membership.objects.filter(person=person, how_left=Membership.HowLeft.REMOVED).exists()


def people_named(*, name: str) -> list[Person]:
    """The people whose name is ``name`` (first and last, any case): who a substitute may be (§5.3)."""
    first, _, last = " ".join(name.split()).rpartition(" ")
    return list(
        Person.objects.filter(first_name__iexact=first or last, last_name__iexact=last if first else "")
    )


def suspended_on(*, membership: Membership, on: dt.date) -> bool:
    """Is the member under a suspension on that date (SPEC §2, both ends included)? Interface for good standing."""
    return Suspension.objects.filter(membership=membership, start__lte=on, end__gte=on).exists()


def two_events_votes(*, season: Season) -> list[tuple[int, str]]:
    """The season's recorded votes for two events in one month (§4.4.2) that passed, as (id, label)."""
    votes = Vote.objects.filter(season=season, kind=Vote.Kind.TWO_EVENTS)
    return [
        (v.pk, f"{v.held_on:%b %-d, %Y}: {v.subject} ({v.yes} yes of {v.members_eligible})")
        for v in votes
        if v.passed
    ]


def current_member_count(*, season: Season) -> int:
    """Seats held now (not left): the "current members" a majority is counted against, and the seats taken."""
    return Membership.objects.filter(season=season, left_after_event__isnull=True).count()


def next_event_number(*, season: Season, on: dt.date) -> int | None:
    """The number of the season's first event on or after ``on`` (a newcomer's first event), if any is left."""
    return (
        Event.objects.filter(season=season, date__gte=on)
        .order_by("date", "number")
        .values_list("number", flat=True)
        .first()
    )


def waiting_list() -> list[WaitingListEntry]:
    """Open entries, first alternate first."""
    return list(
        WaitingListEntry.objects.filter(status=WaitingListEntry.Status.WAITING).select_related(
            "person", "sponsor"
        )
    )


def first_alternate() -> WaitingListEntry | None:
    return (
        WaitingListEntry.objects.filter(status=WaitingListEntry.Status.WAITING)
        .select_related("person", "sponsor")
        .first()
    )


def unsigned_before_next_event(*, season: Season, on: dt.date) -> tuple[int | None, list[Membership]]:
    """The next event's number and the members who will hold a seat at it without having signed the rules."""
    number = next_event_number(season=season, on=on)
    if number is None:
        return None, []
    unsigned = [m for m in roster_for_event(season=season, event_number=number) if not _signed(m)]
    return number, unsigned


def _signed(membership: Membership) -> bool:
    try:
        return membership.rules_signature is not None
    except RulesSignature.DoesNotExist:
        return False


def signature_checklist(*, season: Season) -> list[tuple[Membership, RulesSignature | None]]:
    """Every seat of the season (held or left) with its signature, if any."""
    rows = []
    for membership in Membership.objects.filter(season=season).select_related("person", "rules_signature"):
        rows.append((membership, getattr(membership, "rules_signature", None)))
    return rows


def person_seasons(*, person: Person) -> list[Membership]:
    """The person's seats, newest season first, with what a profile shows about each."""
    return list(
        Membership.objects.filter(person=person)
        .select_related("season", "sponsor", "seat_from__person", "admission_vote", "rules_signature")
        .prefetch_related("suspensions")
        .order_by("-season__start", "-pk")
    )


@dataclass(frozen=True)
class Unpaid:
    membership: Membership
    owed: Decimal  # what was still owed at the first January event


def unpaid_at_first_january(*, season: Season, on: dt.date) -> tuple[dt.date | None, list[Unpaid]]:
    """After the season's first January event (from its date on), the members holding a seat who were not paid
    in full at that event (§2.11, SPEC §15.9): the only ones who can be put to a removal vote for unpaid fees.
    Returns (that event's date or None, the list); the list is empty before the event."""
    january = (
        Event.objects.filter(season=season, date__month=1)
        .order_by("date", "number")
        .values_list("date", flat=True)
        .first()
    )
    if january is None or on < january:
        return january, []
    seats = Membership.objects.filter(season=season, left_after_event__isnull=True).select_related("person")
    unpaid = [
        Unpaid(membership=m, owed=events_hooks.amount_owed(membership=m, on=january))
        for m in seats
        if not hooks.dues_paid_up(membership=m, on=january)
    ]
    return january, sorted(
        unpaid, key=lambda u: (u.membership.person.last_name, u.membership.person.first_name)
    )
