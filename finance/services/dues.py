"""Dues, the admin fee and late fees (SPEC §2, §7; bylaws §2.6–2.12). Pure calculator: no ORM.

A seat's dues account is computed, not stored: the season's rules, the event dates, the account's terms and
its payments give the dated charges. Filtering by date gives the account "as of any date" exactly.
"""

import calendar
import datetime as dt
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from operator import itemgetter
from typing import NamedTuple

from events.rules import SeasonRules
from members.services.late_joiners import join_terms, late_joiner_dues_events
from ncpc.core.money import ZERO, money_display

# A charge's kind. Their names sort in the order charges of one day are listed and paid (admin fee, dues, late
# fee, then a waiver), so that charges sort by (date, kind) as plain tuples, with no Python call per charge
# (tests/finance/test_late_fees.py holds the order).
ADMIN_FEE = "admin_fee"
DUES = "dues"
LATE_FEE = "late_fee"
WAIVER = "waiver"
KINDS_IN_ORDER = (ADMIN_FEE, DUES, LATE_FEE, WAIVER)


class AccountTerms(NamedTuple):
    """How a seat's dues account is charged.

    ``first_event`` is the first event of the seat's first holder this season (a buyer continues the
    seller's account, so a transfer does not change it). ``last_event`` is the last event the seat is
    charged for: the event after which its last holder left without a successor, else ``None``.
    """

    first_event: int = 1
    last_event: int | None = None


class MoneyIn(NamedTuple):
    """Money into a seat's account (a payment), or back out (its reversal). Values a season's report makes
    hundreds of (``Charge`` too): a named tuple is as immutable as a frozen dataclass and quicker to make."""

    date: dt.date
    amount: Decimal  # a reversed payment appears again, negative, on the reversal's date
    description: str = ""


@dataclass(frozen=True)
class Waiver:
    fee_date: dt.date
    on: dt.date
    reason: str = ""


class Charge(NamedTuple):
    date: dt.date
    kind: str  # one of KINDS_IN_ORDER: ADMIN_FEE, DUES, LATE_FEE or WAIVER (negative)
    amount: Decimal
    description: str


class DuesStatus(NamedTuple):
    """A seat's account on one day (a named tuple: a report makes one per seat, and it is read-only)."""

    on: dt.date
    charged: Decimal  # dues and admin fee charged by ``on``
    late_fees: Decimal  # late fees charged by ``on``, less waivers
    paid: Decimal
    balance: Decimal  # positive: the member owes

    @property
    def paid_up(self) -> bool:
        return self.balance <= 0

    @property
    def credit(self) -> Decimal:
        """What was paid ahead (shown as "credit $X"), zero when the member owes or is even."""
        return -self.balance if self.balance < 0 else ZERO


def late_fee_dates(
    *, rules: SeasonRules, event_dates: Mapping[int, dt.date], season_end: dt.date
) -> list[dt.date]:
    """The December event's date, then the same day of each following month through the season's end."""
    december = [n for n, (month, _nth) in enumerate(rules.schedule, start=1) if month == 12]
    if not december or december[0] not in event_dates:
        return []
    first = event_dates[december[0]]
    dates: list[dt.date] = []
    year, month = first.year, first.month
    while True:
        day = min(first.day, calendar.monthrange(year, month)[1])
        date = dt.date(year, month, day)
        if date > season_end:
            return dates
        dates.append(date)
        month += 1
        if month > 12:
            year, month = year + 1, 1


@dataclass(frozen=True)
class SeasonCharges:
    """What every seat's charges share in a season, worked out once for all of them (``season_charges``): the
    late-fee dates, a founding seat's dues installments, and what those installments add up to by each
    late-fee date."""

    fee_dates: tuple[dt.date, ...]
    installments: tuple[Charge, ...]
    installments_due: tuple[Decimal, ...]  # by each of ``fee_dates``


def season_charges(
    *, rules: SeasonRules, event_dates: Mapping[int, dt.date], season_end: dt.date
) -> SeasonCharges:
    """The parts of ``dues_charges`` that are the same for every seat of a season."""
    installments = tuple(
        Charge(event_dates[number], DUES, amount, _installment_text(rules, number, amount))
        for number, amount in rules.dues_schedule
        if number in event_dates and amount
    )
    fee_dates = tuple(late_fee_dates(rules=rules, event_dates=event_dates, season_end=season_end))
    due = _running_totals(fee_dates, [(c.date, c.amount) for c in installments])
    return SeasonCharges(fee_dates=fee_dates, installments=installments, installments_due=tuple(due))


def _running_totals(dates: Sequence[dt.date], items: Sequence[tuple[dt.date, Decimal]]) -> list[Decimal]:
    """For each of ``dates`` (in date order), the sum of the ``items`` (date, amount) dated on or before it."""
    ordered = sorted(items, key=itemgetter(0))
    totals: list[Decimal] = []
    total, i, count = ZERO, 0, len(ordered)
    for day in dates:
        while i < count and ordered[i][0] <= day:
            total += ordered[i][1]
            i += 1
        totals.append(total)
    return totals


def dues_charges(
    *,
    rules: SeasonRules,
    event_dates: Mapping[int, dt.date],
    season_end: dt.date,
    terms: AccountTerms,
    payments: Sequence[MoneyIn] = (),
    waivers: Sequence[Waiver] = (),
    shared: SeasonCharges | None = None,
) -> list[Charge]:
    """Every charge of the season on a seat's account, in date order.

    ``shared``: ``season_charges`` of the same rules, event dates and season end, when the caller works out
    many seats' charges (the result is the same; it saves doing the season's part again for each seat)."""
    if terms.last_event is not None and terms.last_event < terms.first_event:
        return []
    season = shared or season_charges(rules=rules, event_dates=event_dates, season_end=season_end)
    cutoff = event_dates.get(terms.last_event) if terms.last_event is not None else None

    base: list[Charge] = []
    if terms.first_event <= 1:
        base = list(season.installments)
        # A founding seat owes the installments; those after the cutoff are never charged, but the late fees
        # stop at the cutoff too, so what is due by a fee date is the season's figure.
        owed_by = season.installments_due
    else:
        base = _late_joiner_charges(
            rules=rules, on=event_dates[terms.first_event], first_event=terms.first_event
        )
        owed_by = tuple(_running_totals(season.fee_dates, [(c.date, c.amount) for c in base]))
    if cutoff is not None:
        base = [c for c in base if c.date <= cutoff]

    charges = base
    if rules.late_fee and season.fee_dates:
        late = _late_fees(
            rules=rules,
            fee_dates=season.fee_dates,
            owed_by=owed_by,
            cutoff=cutoff,
            payments=payments,
            waivers=waivers,
        )
        if late:
            charges = base + late
    # By date; a day's charges in their kinds' order (a waiver after the fee it waives).
    return sorted(charges, key=itemgetter(0, 1))


def _late_joiner_charges(*, rules: SeasonRules, on: dt.date, first_event: int) -> list[Charge]:
    """What a member admitted at event ``first_event`` (dated ``on``) is charged that day: the admin fee if
    they owe it, and the dues of the events left (``join_terms``, ``late_joiner_dues_events``)."""
    charges: list[Charge] = []
    if join_terms(rules=rules, first_event=first_event).owes_admin_fee and rules.admin_fee:
        charges.append(Charge(on, ADMIN_FEE, rules.admin_fee, "Annual admin fee (late joiner)"))
    count = late_joiner_dues_events(rules=rules, first_event=first_event)
    if count:
        last = rules.events_per_season
        charges.append(
            Charge(
                on,
                DUES,
                rules.dues_per_event * count,
                f"Dues for events {first_event}–{last} ({count} × {money_display(rules.dues_per_event)})",
            )
        )
    return charges


def _late_fees(
    *,
    rules: SeasonRules,
    fee_dates: Sequence[dt.date],
    owed_by: Sequence[Decimal],
    cutoff: dt.date | None,
    payments: Sequence[MoneyIn],
    waivers: Sequence[Waiver],
) -> list[Charge]:
    """A late fee on each fee date (up to the ``cutoff``) by which less than ``owed_by`` was paid, each
    waiver after the fee it waives. Payments go to dues and the admin fee first, so late fees never trigger
    more late fees."""
    paid_by = _running_totals(fee_dates, [(p.date, p.amount) for p in payments])
    waived = {w.fee_date: w for w in waivers}
    late: list[Charge] = []
    for fee_date, owed, paid in zip(fee_dates, owed_by, paid_by, strict=True):
        if cutoff is not None and fee_date > cutoff:
            break
        if owed - paid > 0:
            late.append(Charge(fee_date, LATE_FEE, rules.late_fee, "Late fee (§2.10)"))
            waiver = waived.get(fee_date)
            if waiver is not None:
                text = f"Late fee of {fee_date:%b %-d, %Y} waived: {waiver.reason}"
                late.append(Charge(max(waiver.on, fee_date), WAIVER, -rules.late_fee, text))
    return late


def dues_status(*, charges: Sequence[Charge], payments: Sequence[MoneyIn], on: dt.date) -> DuesStatus:
    """The account as of ``on``: what was charged and paid by that day (a payment on the day counts)."""
    charged = late = paid = ZERO
    for charge in charges:
        if charge.date <= on:
            if charge.kind == DUES or charge.kind == ADMIN_FEE:
                charged += charge.amount
            elif charge.kind == LATE_FEE or charge.kind == WAIVER:
                late += charge.amount
    for payment in payments:
        if payment.date <= on:
            paid += payment.amount
    return DuesStatus(on=on, charged=charged, late_fees=late, paid=paid, balance=charged + late - paid)


def suspension_covers(*, suspensions: Iterable[tuple[dt.date, dt.date]], on: dt.date) -> bool:
    """Does one of these suspension periods (start, end) cover ``on`` (SPEC §2, both ends included)?"""
    return any(start <= on <= end for start, end in suspensions)


def account_in_good_standing(
    *,
    charges: Sequence[Charge],
    payments: Sequence[MoneyIn],
    suspensions: Iterable[tuple[dt.date, dt.date]],
    on: dt.date,
    left_on: dt.date | None = None,
) -> bool:
    """Good standing on ``on`` (SPEC §2, §7; bylaws §2.16, §2.17): payments dated on or before ``on`` cover every
    charge dated on or before ``on`` (installments, admin fee, late fees; paying at the door counts), no
    suspension of the member covers ``on``, and the member had not left by ``on``: ``left_on``, the day a
    removal, withdrawal or seat sale ended their seat (SPEC §16.2; from that day on, never in good standing,
    whatever they paid). The one rule every page, report and results entry use, over a seat's account already
    read (its charges and money in), the member's suspension periods and their day of leaving."""
    if left_on is not None and on >= left_on:
        return False
    if suspension_covers(suspensions=suspensions, on=on):
        return False
    return dues_status(charges=charges, payments=payments, on=on).paid_up


@dataclass(frozen=True)
class StatementLine:
    date: dt.date
    description: str
    charge: Decimal | None
    payment: Decimal | None
    balance: Decimal


def statement_lines(
    *, charges: Sequence[Charge], payments: Sequence[MoneyIn], on: dt.date
) -> list[StatementLine]:
    """Charges and payments by date with a running balance (charges of a day before its payments)."""
    items: list[tuple[dt.date, int, str, Decimal | None, Decimal | None]] = [
        (c.date, 0, c.description, c.amount, None) for c in charges if c.date <= on
    ]
    items += [(p.date, 1, p.description, None, p.amount) for p in payments if p.date <= on]
    items.sort(key=lambda item: (item[0], item[1]))
    lines, balance = [], ZERO
    for date, _order, text, charge, payment in items:
        balance += (charge or ZERO) - (payment or ZERO)
        lines.append(StatementLine(date, text, charge, payment, balance))
    return lines


def _installment_text(rules: SeasonRules, number: int, amount: Decimal) -> str:
    text = f"Dues installment, event {number}"
    if number == 1 and rules.admin_fee:
        text += f" (includes the {money_display(rules.admin_fee)} admin fee)"
    return text
