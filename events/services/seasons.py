"""Creating a season with its rules and its events, and changing its rules (commands)."""

import datetime as dt
from collections.abc import Sequence

from django.db import transaction

from events.bylaws import BYLAWS_RULES
from events.models import BlindLevel, DuesInstallment, Event, PayoutRow, Season, WsopRow
from events.rules import SeasonRules
from events.selectors import season_rules
from events.services.schedule import schedule_dates
from events.signals import season_created
from ncpc.core.audit import Actor, audit_record
from ncpc.core.errors import NcpcError
from ncpc.core.middleware import request_memo_forget


def season_name_for(start: dt.date) -> str:
    return f"{start.year}-{(start.year + 1) % 100:02d}"


def season_bounds(start_year: int) -> tuple[dt.date, dt.date]:
    """A fiscal year runs 1 Aug – 31 Jul (§1.2)."""
    return dt.date(start_year, 8, 1), dt.date(start_year + 1, 7, 31)


@transaction.atomic
def season_create(*, start_year: int, actor: Actor = None, rules: SeasonRules | None = None) -> Season:
    """Create the season beginning 1 Aug ``start_year``, with rules copied from the previous season.

    The club's first season gets the bylaws' values; adopted rule changes waiting for this season are applied.
    Given explicit ``rules`` (an import), those are used as they are. Events come from the schedule rule.
    """
    start, end = season_bounds(start_year)
    name = season_name_for(start)
    if Season.objects.filter(name=name).exists():
        raise NcpcError(f"Season {name} exists already.")
    copied = rules is None
    if rules is None:
        previous = Season.objects.filter(start__lt=start).order_by("-start").first()
        rules = season_rules(previous) if previous else BYLAWS_RULES
    scalars = {f: getattr(rules, f) for f in SeasonRules.SCALAR_FIELDS}
    scalars["schedule"] = [list(pair) for pair in rules.schedule]
    scalars["points_table"] = list(rules.points_table)
    season = Season.objects.create(name=name, start=start, end=end, **scalars)
    rules_tables_write(season=season, rules=rules)
    events_generate(season=season)
    audit_record(actor=actor, action="season.create", target=season, summary=f"Created season {name}")
    # Members applies the rule changes the club adopted for this season (§3.4.4) on top of copied rules.
    season_created.send(sender=Season, season=season, rules_copied=copied, actor=actor)
    return season


# The model that holds each of the season's rule tables.
RULE_TABLE_MODELS: dict[str, type[DuesInstallment | PayoutRow | WsopRow | BlindLevel]] = {
    "dues_schedule": DuesInstallment,
    "payout_table": PayoutRow,
    "wsop_table": WsopRow,
    "blind_structure": BlindLevel,
}


def rules_tables_write(
    *, season: Season, rules: SeasonRules, tables: Sequence[str] = SeasonRules.TABLE_FIELDS
) -> None:
    """Write the rows of ``rules``' tables named in ``tables`` for a season that has none of them yet."""
    if "dues_schedule" in tables:
        DuesInstallment.objects.bulk_create(
            DuesInstallment(season=season, event_number=n, amount=amount) for n, amount in rules.dues_schedule
        )
    if "payout_table" in tables:
        PayoutRow.objects.bulk_create(
            PayoutRow(
                season=season,
                member_count=row.member_count,
                **dict(zip(("first", "second", "third", "fourth"), row.amounts, strict=False)),
            )
            for row in rules.payout_table
        )
    if "wsop_table" in tables:
        WsopRow.objects.bulk_create(
            WsopRow(season=season, min_members=r.min_members, max_members=r.max_members, prizes=r.prizes)
            for r in rules.wsop_table
        )
    if "blind_structure" in tables:
        BlindLevel.objects.bulk_create(
            BlindLevel(
                season=season,
                position=i,
                kind=lvl.kind,
                small_blind=lvl.small_blind,
                big_blind=lvl.big_blind,
                ante=lvl.ante,
                minutes=lvl.minutes,
                note=lvl.note,
            )
            for i, lvl in enumerate(rules.blind_structure, start=1)
        )
    request_memo_forget()  # this request reads the tables it just wrote


def events_generate(*, season: Season) -> list[Event]:
    """Create the season's events from its schedule rule; events that exist already are kept."""
    try:
        rules = season_rules(season)
        dates = schedule_dates(season_start=season.start, schedule=rules.schedule)
    except ValueError as exc:
        raise NcpcError(f"The schedule rule cannot be applied: {exc}.") from None
    existing = set(season.events.values_list("number", flat=True))
    created = [
        Event(season=season, number=number, date=date, starts_at=rules.event_start_time)
        for number, date in enumerate(dates, start=1)
        if number not in existing
    ]
    return Event.objects.bulk_create(created)
