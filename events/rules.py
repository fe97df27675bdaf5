"""The season's rules as plain values, for the pure rule calculators (no ORM beyond this file's loader)."""

import datetime as dt
from dataclasses import dataclass, field
from decimal import Decimal
from typing import NamedTuple

from ncpc.core.money import DEFAULT_MONEY_LIMIT

# A rule table's rows are named tuples: immutable like the frozen dataclasses they were, and made without a
# call per field (every page that reads a season's rules makes a few dozen).


class PayoutRowData(NamedTuple):
    member_count: int
    amounts: tuple[Decimal, ...]  # place 1, 2, 3[, 4]


class WsopRowData(NamedTuple):
    min_members: int
    max_members: int
    prizes: int


class BlindLevelData(NamedTuple):
    kind: str  # "level" or "break"
    small_blind: int = 0
    big_blind: int = 0
    ante: int = 0
    minutes: int | None = None
    note: str = ""


@dataclass(frozen=True)
class SeasonRules:
    """One season's rules. What each means is written once, on the ``events.models.Season`` field of the same name
    (``verbose_name`` and ``help_text``; a table's in ``events.models.RULE_TABLES``): ``Season.rule_label(name)``
    and ``Season.rule_help_text(name)`` give it to the rules form, the rule-change ballot and the pages."""

    events_per_season: int
    schedule: tuple[tuple[int, int], ...]  # (month, nth ``schedule_weekday``) per event
    event_start_time: dt.time
    announce_days_ahead: int
    max_members: int
    minimum_age: int
    dues_per_event: Decimal
    admin_fee: Decimal
    late_fee: Decimal
    late_joiner_full_until_event: int
    late_joiner_min_events: int
    late_joiner_window_from_event: int
    starting_stack: int
    substitutes_per_season: int
    late_arrival_levels: int
    table_size: int
    final_table_size: int
    points_table: tuple[int, ...]
    wsop_entry: Decimal
    wsop_expenses: Decimal
    winnings_threshold: Decimal
    representative_share_pct: Decimal
    late_joiner_share_pct: Decimal
    declined_share_pct: Decimal
    check_approvals: int = 3
    money_limit: Decimal = DEFAULT_MONEY_LIMIT
    dues_reminder_days_ahead: int = 7
    rsvp_reminder_days: int = 3
    schedule_weekday: int = 5  # the day of the week the schedule's nth counts (Monday 0, Saturday 5)
    dues_schedule: tuple[tuple[int, Decimal], ...] = field(default=())  # (event number, amount)
    payout_table: tuple[PayoutRowData, ...] = field(default=())
    wsop_table: tuple[WsopRowData, ...] = field(default=())
    blind_structure: tuple[BlindLevelData, ...] = field(default=())

    TABLE_FIELDS = ("dues_schedule", "payout_table", "wsop_table", "blind_structure")

    SCALAR_FIELDS = (
        "events_per_season",
        "schedule",
        "event_start_time",
        "announce_days_ahead",
        "max_members",
        "minimum_age",
        "dues_per_event",
        "admin_fee",
        "late_fee",
        "late_joiner_full_until_event",
        "late_joiner_min_events",
        "late_joiner_window_from_event",
        "starting_stack",
        "substitutes_per_season",
        "late_arrival_levels",
        "table_size",
        "final_table_size",
        "points_table",
        "wsop_entry",
        "wsop_expenses",
        "winnings_threshold",
        "representative_share_pct",
        "late_joiner_share_pct",
        "declined_share_pct",
        "check_approvals",
        "money_limit",
        "dues_reminder_days_ahead",
        "rsvp_reminder_days",
        "schedule_weekday",
    )
