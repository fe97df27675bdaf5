"""A new season's roster: the seats held at the end of the last season carry over (command)."""

import datetime as dt

from django.db import transaction

from events.models import Season
from events.selectors import season_rules
from events.services.seasons import season_create, season_opening
from members.models import Membership
from ncpc.core.audit import Actor, audit_record
from ncpc.core.errors import NcpcError


@transaction.atomic
def roster_carry_over(*, season: Season, actor: Actor = None) -> list[Membership]:
    """Every member still holding a seat at the end of the season before keeps it in ``season``.

    A seat is held until it is sold, ceded, given up or taken by a vote (§2.5, §2.11, §5.5.3), so continuing
    members need no new admission vote; each signs the new season's rules document again (§2.4). People who
    hold a seat in ``season`` already are left as they are.

    The seats carry over on the season's first day (``joined_on``), or, when that day is in or before a closed
    month, on the first day of the first open month (SPEC §17.2: nothing takes effect in a closed month, whose
    report lists the members who hold a seat by then). Only the day in the books moves: a continuing member
    keeps the seat from the season's first event, owing the season's dues and counting in its WSOP money as
    always (both follow the seat's first event, not that day).
    """
    previous = Season.objects.filter(start__lt=season.start).order_by("-start").first()
    if previous is None:
        return []
    joined_on = seats_carry_over_day(season=season)
    holders = list(
        Membership.objects.filter(season=previous, left_after_event__isnull=True).select_related("person")
    )
    seated = set(Membership.objects.filter(season=season).values_list("person_id", flat=True))
    incoming = [m for m in holders if m.person_id not in seated]
    max_members = season_rules(season).max_members
    if len(seated) + len(incoming) > max_members:
        raise NcpcError(
            f"{len(seated) + len(incoming)} seats would be held in {season}; the club allows {max_members}."
        )
    created = [
        Membership.objects.create(
            person=m.person,
            season=season,
            first_event=1,
            joined_on=joined_on,
            sponsor=m.sponsor,
            declared_not_professional=m.declared_not_professional,
        )
        for m in incoming
    ]
    if created:
        audit_record(
            actor=actor,
            action="member.roster_carry_over",
            target=season,
            summary=f"{len(created)} members carried their seats over from {previous} into {season}"
            + (f", from {joined_on:%b %-d, %Y} (the first open month)" if joined_on != season.start else ""),
            data={"joined_on": joined_on.isoformat()},
        )
    return created


@transaction.atomic
def season_open(
    *,
    start_year: int,
    actor: Actor = None,
    first_month: int | None = None,
    weekday: int | None = None,
    nth: int | None = None,
) -> tuple[Season, list[Membership]]:
    """The officers' "new season": the season with the rules of the one before (and the rule changes adopted
    for it), its events on the schedule chosen (``season_create``), and every seat still held carried over.
    All or nothing. When the season's first day is in or before a closed month, the seats carry over on the
    first day of the first open month, and the schedule must put every event in an open month (SPEC §17.2)."""
    season = season_create(
        start_year=start_year, actor=actor, first_month=first_month, weekday=weekday, nth=nth
    )
    return season, roster_carry_over(season=season, actor=actor)


def seats_carry_over_day(*, season: Season) -> dt.date:
    """The day ``season``'s seats take effect (``joined_on``): its first day, or the first day of the first
    open month when that day is in or before a closed month (``season_opening``). Refused when every month of
    the season is closed, the refusal on the new-season form's year."""
    opening = season_opening(start_year=season.start.year)
    if opening.seats_on is None:
        raise NcpcError(
            f"Every month of {season} is closed (the books are closed up to {opening.closed_until:%B %Y}): its "
            "seats cannot take effect on any of its days.",
            field="start_year",
        )
    return opening.seats_on
