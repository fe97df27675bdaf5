"""Reads about people, seats and offices that other apps and pages share."""

import datetime as dt

from members.models import Membership, OfficerTerm, Person


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


def season_roster(*, season) -> list[Membership]:
    """Members holding a seat now (not left), by name."""
    return list(
        Membership.objects.filter(season=season, left_after_event__isnull=True).select_related("person")
    )


def roster_for_event(*, season, event_number: int) -> list[Membership]:
    """Members holding a seat at event ``event_number``: joined by then and not left before it."""
    from django.db.models import Q

    return list(
        Membership.objects.filter(season=season, first_event__lte=event_number)
        .filter(Q(left_after_event__isnull=True) | Q(left_after_event__gte=event_number))
        .select_related("person")
    )


def rules_signed(*, membership: Membership) -> bool:
    """Has the member signed this season's rules document (§2.4, §3.5.5)?

    Interface for results entry. Until signatures are recorded (membership issue) everyone counts as signed.
    """
    return True


def suspended_on(*, membership: Membership, on) -> bool:
    """Is the member under a suspension on that date (SPEC §2)? Interface for good standing.

    Until suspensions are recorded (membership issue) nobody is suspended.
    """
    return False
