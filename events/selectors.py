"""Reads of seasons and events that pages and other apps share."""

import datetime as dt

from events.models import Event, Season
from events.placings import Placing
from events.rules import BlindLevelData, PayoutRowData, SeasonRules, WsopRowData
from ncpc.clock import club_today


def season_rules(season: Season) -> SeasonRules:
    """The season's rules as plain values for the rule calculators (4 queries)."""
    values = {name: getattr(season, name) for name in SeasonRules.SCALAR_FIELDS}
    values["schedule"] = tuple(tuple(pair) for pair in season.schedule)
    values["points_table"] = tuple(season.points_table)
    return SeasonRules(
        **values,
        dues_schedule=tuple((row.event_number, row.amount) for row in season.dues_installments.all()),
        payout_table=tuple(
            PayoutRowData(
                member_count=row.member_count,
                amounts=tuple(a for a in (row.first, row.second, row.third, row.fourth) if a is not None),
            )
            for row in season.payout_rows.all()
        ),
        wsop_table=tuple(
            WsopRowData(min_members=row.min_members, max_members=row.max_members, prizes=row.prizes)
            for row in season.wsop_rows.all()
        ),
        blind_structure=tuple(
            BlindLevelData(
                kind=row.kind,
                small_blind=row.small_blind,
                big_blind=row.big_blind,
                ante=row.ante,
                minutes=row.minutes,
                note=row.note,
            )
            for row in season.blind_levels.all()
        ),
    )


def season_for_date(day: dt.date) -> Season | None:
    return Season.objects.filter(start__lte=day, end__gte=day).first()


def current_season() -> Season | None:
    """The season containing today, else the latest one that exists."""
    return season_for_date(club_today()) or Season.objects.first()


def next_event(*, on: dt.date | None = None) -> Event | None:
    day = on or club_today()
    return (
        Event.objects.select_related("venue", "season").filter(date__gte=day).order_by("date", "pk").first()
    )


def event_placings(*, event: Event) -> list[Placing]:
    """Places 1..N of a finished event, best first. Interface for payouts and standings.

    Until results entry exists (events/results issue) no event has placings.
    """
    return []
