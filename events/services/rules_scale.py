"""The payout table and the dues schedule that new dues imply (issue 47), scaled from the season's tables.
Pure calculators: rules in, table rows out; the officer accepts or edits them before they are saved.

- The dues schedule (§2.8): the dues part of each installment (the first one also carries the admin fee,
  §2.7: August $110 = $100 of dues + the $10 fee) is multiplied by new dues / old dues (dues per event times
  events), rounded as the table is; what rounding leaves over goes on the first installment, which then
  adds the new admin fee, so the schedule adds up to the dues and the fee, as the rules page checks.
- The payout table (§6.2): each row is multiplied by its new event fund / its old one (the fund is what an
  event pays out for that many members, §8.1; fees change it, the WSOP entries and expenses do not), rounded
  as the table is; the first place takes what rounding leaves over, so each row adds up to its fund.

"Rounded as the table is": every amount in the bylaws' two tables is a whole multiple of $5 ($110, $100; $140,
$85, $55, …), so a table whose amounts are all multiples of $5 is rounded to $5; else to whole dollars when
they are all whole; else to the cent. Halves round up.
"""

from collections.abc import Iterable, Mapping
from dataclasses import replace
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from events.rules import PayoutRowData, SeasonRules
from events.services.event_fund import WsopTableMissing, wsop_allocation
from ncpc.core.money import quantize

# The rules whose change changes what the dues schedule or the payout table must add up to.
DUES_RULES = ("dues_per_event", "admin_fee", "events_per_season", "wsop_entry", "wsop_expenses")
_UNITS = (Decimal("5"), Decimal("1"), Decimal("0.01"))


def rounding_unit(amounts: Iterable[Decimal]) -> Decimal:
    """The coarsest of $5, $1 and 1 cent that every amount is a whole multiple of."""
    values = list(amounts)
    return next(unit for unit in _UNITS if all(value % unit == 0 for value in values))


def rounded(amount: Decimal, unit: Decimal) -> Decimal:
    return quantize((amount / unit).quantize(Decimal(1), rounding=ROUND_HALF_UP) * unit)


def dues_schedule_scaled(*, old: SeasonRules, new: SeasonRules) -> tuple[tuple[int, Decimal], ...] | None:
    """The dues schedule of ``old`` scaled to the dues and admin fee of ``new``; None when there is nothing to
    scale from (no installments, or no dues before)."""
    rows = sorted(old.dues_schedule)
    old_dues = old.dues_per_event * old.events_per_season
    if not rows or old_dues <= 0:
        return None
    new_dues = new.dues_per_event * new.events_per_season
    parts = [amount - (old.admin_fee if i == 0 else 0) for i, (_n, amount) in enumerate(rows)]
    unit = rounding_unit(parts)
    scaled = [rounded(part * new_dues / old_dues, unit) for part in parts]
    scaled[0] += quantize(new_dues) - sum(scaled, start=Decimal(0)) + new.admin_fee
    return tuple((number, amount) for (number, _old), amount in zip(rows, scaled, strict=True))


def payout_table_scaled(*, old: SeasonRules, new: SeasonRules) -> tuple[PayoutRowData, ...] | None:
    """The payout table of ``old`` scaled to the event funds of ``new``; a row whose fund cannot be worked
    out (no WSOP row for that many members, or no fund before) stays as it is. None when the table is empty."""
    if not old.payout_table or old.events_per_season < 1 or new.events_per_season < 1:
        return None
    unit = rounding_unit(amount for row in old.payout_table for amount in row.amounts)
    rows = []
    for row in old.payout_table:
        try:
            old_fund = wsop_allocation(rules=old, member_count=row.member_count).per_event
            new_fund = wsop_allocation(rules=new, member_count=row.member_count).per_event
        except WsopTableMissing:
            rows.append(row)
            continue
        if old_fund <= 0 or not row.amounts:
            rows.append(row)
            continue
        others = [rounded(amount * new_fund / old_fund, unit) for amount in row.amounts[1:]]
        first = new_fund - sum(others, start=Decimal(0))
        rows.append(PayoutRowData(member_count=row.member_count, amounts=(first, *others)))
    return tuple(rows)


def tables_for_new_dues(*, old: SeasonRules, changes: Mapping[str, Any]) -> dict[str, tuple]:
    """The payout table and the dues schedule the new values of ``DUES_RULES`` in ``changes`` imply, scaled from
    ``old``'s; only the tables that come out different, and nothing when no such rule changes."""
    new_values = {name: changes[name] for name in DUES_RULES if name in changes}
    if all(getattr(old, name) == value for name, value in new_values.items()):
        return {}
    new = replace(old, **new_values)
    scaled = {
        "payout_table": payout_table_scaled(old=old, new=new),
        "dues_schedule": dues_schedule_scaled(old=old, new=new),
    }
    return {
        name: rows for name, rows in scaled.items() if rows is not None and rows != tuple(getattr(old, name))
    }
