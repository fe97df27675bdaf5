"""A new season's roster: the seats held at the end of the last season carry over (command)."""

import datetime as dt

from django.db import transaction

from events.models import Season
from events.selectors import season_rules
from events.services.seasons import season_bounds, season_create
from members.models import Membership
from members.services.closed_months import closed_month_refuse
from ncpc.core.audit import Actor, audit_record
from ncpc.core.errors import NcpcError


@transaction.atomic
def roster_carry_over(*, season: Season, actor: Actor = None) -> list[Membership]:
    """Every member still holding a seat at the end of the season before keeps it in ``season``.

    A seat is held until it is sold, ceded, given up or taken by a vote (§2.5, §2.11, §5.5.3), so continuing
    members need no new admission vote; each signs the new season's rules document again (§2.4). People who
    hold a seat in ``season`` already are left as they are.

    The seats carry over on the season's first day (``joined_on``): refused when that day is in or before a
    closed month (SPEC §17.2), since the carried seats' dues, standing and the season's WSOP money would then
    count in a closed month's report.
    """
    _carry_over_day_check(start=season.start)
    previous = Season.objects.filter(start__lt=season.start).order_by("-start").first()
    if previous is None:
        return []
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
            joined_on=season.start,
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
            summary=f"{len(created)} members carried their seats over from {previous} into {season}",
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
    All or nothing; refused before anything is written when the season would start in or before a closed month
    (its seats carry over on its first day, ``roster_carry_over``)."""
    _carry_over_day_check(start=season_bounds(start_year)[0])
    season = season_create(
        start_year=start_year, actor=actor, first_month=first_month, weekday=weekday, nth=nth
    )
    return season, roster_carry_over(season=season, actor=actor)


def _carry_over_day_check(*, start: dt.date) -> None:
    """SPEC §17.2: the seats carry over on the season's first day, ``start``, which must not be in or before a
    closed month. The refusal goes on the new-season form's year."""
    try:
        closed_month_refuse(day=start, field="start_year")
    except NcpcError as exc:
        raise NcpcError(
            f"A new season's seats carry over on its first day, {start:%b %-d, %Y}. {exc}", field=exc.field
        ) from None
