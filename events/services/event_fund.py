"""WSOP allocation (SPEC §8, bylaws §8.1): how a season's dues divide between the WSOP escrow and the
event funds, so what each event pays out. Pure calculator."""

from dataclasses import dataclass
from decimal import Decimal

from events.rules import SeasonRules
from ncpc.core.errors import RulesError
from ncpc.core.money import quantize


class WsopTableMissing(RulesError):
    pass


@dataclass(frozen=True)
class WsopAllocation:
    member_count: int
    total_fees: Decimal
    prizes: int
    entries: Decimal
    expenses: Decimal
    escrow: Decimal  # entries + expenses: what belongs in the WSOP escrow account
    monthly_event_funds: Decimal
    per_event: Decimal


def wsop_prizes(*, rules: SeasonRules, member_count: int) -> int:
    for row in rules.wsop_table:
        if row.min_members <= member_count <= row.max_members:
            return row.prizes
    raise WsopTableMissing(
        f"The season's WSOP table has no row for {member_count} members; the officers must add one."
    )


def wsop_allocation(*, rules: SeasonRules, member_count: int) -> WsopAllocation:
    prizes = wsop_prizes(rules=rules, member_count=member_count)
    total_fees = quantize(member_count * rules.dues_per_event * rules.events_per_season)
    entries = quantize(prizes * rules.wsop_entry)
    expenses = quantize(prizes * rules.wsop_expenses)
    funds = total_fees - entries - expenses
    return WsopAllocation(
        member_count=member_count,
        total_fees=total_fees,
        prizes=prizes,
        entries=entries,
        expenses=expenses,
        escrow=entries + expenses,
        monthly_event_funds=funds,
        per_event=quantize(funds / rules.events_per_season),
    )
