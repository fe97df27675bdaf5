"""What members' payments paid for: the admin fee, dues, late fees, or money paid ahead (the treasurer's
report's income by category, §3.6.3). Pure calculator: no ORM.

How a payment is split (docs/architecture.md, "Decisions that still stand", Money):
- it settles the oldest charge first; charges of one day in the order admin fee, dues, late fee;
- money beyond the charges already due settles the season's later dues installments in date order (paid
  ahead); whatever is left is a credit on the account;
- a reversal takes back what the latest payments settled, newest first, on the reversal's date;
- a late fee that was waived is not a charge here, whatever the date of the waiver;
- a payment is split against the charges as they stood on its day: a member who later leaves the seat
  (SPEC §16.2) had, on that day, the season's later installments ahead, so money paid ahead for them counts
  as dues then, and a closed month's categories never change when someone leaves afterwards;
- on the day a member leaves, what they had paid for installments the seat no longer owes and their credit move to
  "forfeited" (§2.12), the club's income (``payment_categories``' ``left_on``).
"""

import datetime as dt
from collections.abc import Sequence
from decimal import Decimal
from operator import attrgetter, itemgetter
from typing import NamedTuple

from finance.services.dues import ADMIN_FEE, DUES, LATE_FEE, WAIVER, Charge, MoneyIn
from ncpc.core.money import ZERO

CREDIT = "credit"
CATEGORIES = (ADMIN_FEE, DUES, LATE_FEE, CREDIT)  # what a payment is split into
FORFEITED = "forfeited"  # a departed member's credit (``credit_forfeited``); a total only when there is one
_PAID_KINDS = (ADMIN_FEE, DUES, LATE_FEE)  # a waiver pays for nothing


class CategoryAmount(NamedTuple):
    """Immutable like the frozen dataclass it was, and three times quicker to make: a season's report makes
    a few hundred."""

    date: dt.date  # the day the money came in (or went back out, negative)
    category: str  # ADMIN_FEE, DUES, LATE_FEE or CREDIT
    amount: Decimal


def payment_categories(
    *,
    charges: Sequence[Charge],
    payments: Sequence[MoneyIn],
    admin_fee_in_first_dues: Decimal = ZERO,
    forgone: Sequence[Charge] = (),
    left_on: dt.date | None = None,
) -> list[CategoryAmount]:
    """Each payment's (and reversal's) money by category, in date order.

    ``admin_fee_in_first_dues``: the part of the first dues installment that is the admin fee (a founding
    member's event-1 installment includes it). ``left_on``: the day the seat's last holder left it (SPEC
    §16.2), and ``forgone``: the installments after the seat's last event that it would have owed had they
    stayed (one may fall between that event and the day they left). Money
    paid before that day settles them as it did then; on that day, what settled them and any credit move to
    ``FORFEITED``."""
    spare: set[Charge] = set(forgone) if left_on is not None else set()
    if spare:
        charges = [*charges, *spare]
    parts = _charge_parts(charges, admin_fee_in_first_dues=admin_fee_in_first_dues, spare=spare)
    result: list[CategoryAmount] = []
    # What each payment settled, oldest first: (the part's index, -1 for a credit; its category; the amount).
    settled: list[tuple[int, str, Decimal]] = []
    # Every part before ``first`` is paid; a reversal that opens one again moves it back.
    first = 0
    departed = left_on is None
    left_on_or_never = left_on if left_on is not None else dt.date.max
    for money in sorted(payments, key=attrgetter("date")):
        day, amount = money.date, money.amount
        if not departed and left_on is not None and day > left_on:
            departed = True
            _forfeit(settled, result, forgone=parts.forgone, left_on=left_on)
        if amount >= ZERO:
            first = _payment_settle(
                parts,
                settled,
                result,
                day=day,
                amount=amount,
                first=first,
                after_leaving=day > left_on_or_never,
            )
        else:
            first = _reversal_take_back(parts, settled, result, day=day, back=-amount, first=first)
    if not departed and left_on is not None:
        _forfeit(settled, result, forgone=parts.forgone, left_on=left_on)
    return result


class _Parts(NamedTuple):
    """The unpaid part of each charge, as three parallel lists (a season's report splits a few hundred charges;
    plain lists make no object per part): its date, its category, what is still owed of it; and the parts
    that are installments the seat no longer owes (``payment_categories``' ``forgone``), by index."""

    dates: list[dt.date]
    kinds: list[str]
    owed: list[Decimal]
    forgone: set[int]


def _charge_parts(
    charges: Sequence[Charge], *, admin_fee_in_first_dues: Decimal, spare: set[Charge]
) -> _Parts:
    """The charges as parts to pay, by date, a day's charges in the order of their kinds (``KINDS_IN_ORDER``:
    admin fee, dues, late fee): a waived late fee is none, and the first dues installment's admin fee is a
    part of its own. ``spare``: the forgone installments among the charges."""
    waived = ZERO
    for charge in charges:
        if charge.kind == WAIVER:
            waived -= charge.amount
    parts = _Parts([], [], [], set())
    dates, kinds, owed = parts.dates, parts.kinds, parts.owed
    first_dues = True
    for day, kind, amount, _text in sorted(charges, key=itemgetter(0, 1)):
        if kind == LATE_FEE and waived >= amount:
            waived -= amount  # waived: not a charge for the categories
            continue
        if kind == DUES and first_dues and admin_fee_in_first_dues > 0:
            admin = min(admin_fee_in_first_dues, amount)
            dates.append(day)
            kinds.append(ADMIN_FEE)
            owed.append(admin)
            if amount > admin:
                dates.append(day)
                kinds.append(DUES)
                owed.append(amount - admin)
        elif kind in _PAID_KINDS:
            dates.append(day)
            kinds.append(kind)
            owed.append(amount)
            if (day, kind, amount, _text) in spare:
                parts.forgone.add(len(owed) - 1)
        if kind == DUES:
            first_dues = False
    return parts


def _payment_settle(
    parts: _Parts,
    settled: list[tuple[int, str, Decimal]],
    result: list[CategoryAmount],
    *,
    day: dt.date,
    amount: Decimal,
    first: int,
    after_leaving: bool,
) -> int:
    """Split a payment over the unpaid parts, into ``result`` and ``settled``: charges due by the payment's day
    first, then later dues (never a late fee not yet charged; after the holder left, no forgone installment),
    the rest a credit. Returns the first part not yet paid."""
    dates, kinds, owed = parts.dates, parts.kinds, parts.owed
    count = len(owed)
    left = amount
    while first < count and owed[first] <= ZERO:
        first += 1
    # The parts are in date order, so one pass over them takes the due ones first.
    for index in range(first, count):
        if left <= ZERO:
            break
        still = owed[index]
        if still <= ZERO or (kinds[index] == LATE_FEE and dates[index] > day):
            continue
        if after_leaving and index in parts.forgone:
            continue  # after leaving, no installment of the seat is ahead

        take = left if left < still else still
        owed[index] = still - take
        left -= take
        settled.append((index, kinds[index], take))
        result.append(CategoryAmount(day, kinds[index], take))
    if left > ZERO:
        settled.append((-1, CREDIT, left))
        result.append(CategoryAmount(day, CREDIT, left))
    return first


def _reversal_take_back(
    parts: _Parts,
    settled: list[tuple[int, str, Decimal]],
    result: list[CategoryAmount],
    *,
    day: dt.date,
    back: Decimal,
    first: int,
) -> int:
    """A reversal of ``back`` takes back what the latest payments settled, newest first, on its day; the parts
    it opens again are owed again. Returns the first part not yet paid."""
    while back > ZERO and settled:
        index, category, took = settled.pop()
        give = back if back < took else took
        if took > give:
            settled.append((index, category, took - give))
        if index >= 0:
            parts.owed[index] += give
            first = min(first, index)
        back -= give
        result.append(CategoryAmount(day, category, -give))
    if back > ZERO:  # more reversed than was ever paid: would be a bug elsewhere; keep the sums whole
        result.append(CategoryAmount(day, CREDIT, -back))
    return first


def _forfeit(
    settled: list[tuple[int, str, Decimal]],
    result: list[CategoryAmount],
    *,
    forgone: set[int],
    left_on: dt.date,
) -> None:
    """On the day the seat's last holder left: what they had paid ahead (installments the seat no longer owes, and
    any credit) moves from its category to ``FORFEITED``, in ``result``; ``settled`` then says so, so that a
    later reversal takes it back from there. The total is unchanged."""
    moved: dict[str, Decimal] = {}
    for position, (index, category, took) in enumerate(settled):
        if index < 0 or index in forgone:
            moved[category] = moved.get(category, ZERO) + took
            settled[position] = (-1, FORFEITED, took)
    total = ZERO
    for category, amount in moved.items():
        if category != FORFEITED and amount:
            result.append(CategoryAmount(left_on, category, -amount))
            total += amount
    if total:
        result.append(CategoryAmount(left_on, FORFEITED, total))


def category_totals(amounts: Sequence[CategoryAmount], *, start: dt.date, end: dt.date) -> dict[str, Decimal]:
    """Sum of each category's money dated from ``start`` through ``end``."""
    totals = dict.fromkeys(CATEGORIES, ZERO)
    for item in amounts:
        if start <= item.date <= end:
            totals[item.category] = totals.get(item.category, ZERO) + item.amount
    return totals
