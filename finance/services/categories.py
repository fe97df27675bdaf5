"""What members' payments paid for: the admin fee, dues, late fees, or money paid ahead (the treasurer's
report's income by category, §3.6.3). Pure calculator: no ORM.

How a payment is split (docs/decisions.md, "Income by category"):
- it settles the oldest charge first; charges of one day in the order admin fee, dues, late fee;
- money beyond the charges already due settles the season's later dues installments in date order (paid
  ahead); whatever is left is a credit on the account;
- a reversal takes back what the latest payments settled, newest first, on the reversal's date;
- a late fee that was waived is not a charge here, whatever the date of the waiver.
"""

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from operator import attrgetter
from typing import NamedTuple

from finance.services.dues import ADMIN_FEE, DUES, LATE_FEE, WAIVER, Charge, MoneyIn
from ncpc.money import ZERO

CREDIT = "credit"
CATEGORIES = (ADMIN_FEE, DUES, LATE_FEE, CREDIT)
_ORDER = {ADMIN_FEE: 0, DUES: 1, LATE_FEE: 2}


class CategoryAmount(NamedTuple):
    """Immutable like the frozen dataclass it was, and three times quicker to make: a season's report makes
    a few hundred."""

    date: dt.date  # the day the money came in (or went back out, negative)
    category: str  # ADMIN_FEE, DUES, LATE_FEE or CREDIT
    amount: Decimal


@dataclass(slots=True)
class _Open:
    """The unpaid part of one charge."""

    date: dt.date
    category: str
    amount: Decimal


def payment_categories(
    *, charges: Sequence[Charge], payments: Sequence[MoneyIn], admin_fee_in_first_dues: Decimal = ZERO
) -> list[CategoryAmount]:
    """Each payment's (and reversal's) money by category, in date order.

    ``admin_fee_in_first_dues``: the part of the first dues installment that is the admin fee (a founding
    member's event-1 installment includes it)."""
    waived = sum((-c.amount for c in charges if c.kind == WAIVER), ZERO)
    parts: list[_Open] = []
    first_dues = True
    for charge in sorted(charges, key=lambda c: (c.date, _ORDER.get(c.kind, 3))):
        if charge.kind == LATE_FEE and waived >= charge.amount:
            waived -= charge.amount  # waived: not a charge for the categories
            continue
        if charge.kind == DUES and first_dues and admin_fee_in_first_dues > 0:
            admin = min(admin_fee_in_first_dues, charge.amount)
            parts.append(_Open(charge.date, ADMIN_FEE, admin))
            if charge.amount > admin:
                parts.append(_Open(charge.date, DUES, charge.amount - admin))
        elif charge.kind in _ORDER:
            parts.append(_Open(charge.date, charge.kind, charge.amount))
        if charge.kind == DUES:
            first_dues = False

    result: list[CategoryAmount] = []
    # What each payment settled, oldest first: (the part's index in ``parts``, -1 for a credit; the part; the
    # amount).
    settled: list[tuple[int, _Open, Decimal]] = []
    # Every part before ``first`` is paid; a reversal that opens one again moves it back.
    first, count = 0, len(parts)
    for money in sorted(payments, key=attrgetter("date")):
        day, amount = money.date, money.amount
        if amount >= ZERO:
            left = amount
            while first < count and parts[first].amount <= ZERO:
                first += 1
            # Charges due by the payment's day first, then later dues (never a late fee not yet charged): the
            # parts are in date order, so one pass over them takes the due ones first.
            for index in range(first, count):
                if left <= ZERO:
                    break
                part = parts[index]
                owed = part.amount
                if owed <= ZERO or (part.category == LATE_FEE and part.date > day):
                    continue
                take = left if left < owed else owed
                part.amount = owed - take
                left -= take
                settled.append((index, part, take))
                result.append(CategoryAmount(day, part.category, take))
            if left > ZERO:
                settled.append((-1, _Open(day, CREDIT, ZERO), left))
                result.append(CategoryAmount(day, CREDIT, left))
        else:
            back = -amount
            while back > ZERO and settled:
                index, part, took = settled.pop()
                give = back if back < took else took
                if took > give:
                    settled.append((index, part, took - give))
                if index >= 0:
                    part.amount += give
                    first = min(first, index)
                back -= give
                result.append(CategoryAmount(day, part.category, -give))
            if back > ZERO:  # more reversed than was ever paid: would be a bug elsewhere; keep the sums whole
                result.append(CategoryAmount(day, CREDIT, -back))
    return result


def category_totals(amounts: Sequence[CategoryAmount], *, start: dt.date, end: dt.date) -> dict[str, Decimal]:
    """Sum of each category's money dated from ``start`` through ``end``."""
    totals = dict.fromkeys(CATEGORIES, ZERO)
    for item in amounts:
        if start <= item.date <= end:
            totals[item.category] += item.amount
    return totals
