"""The season's part of the charges worked out once (``season_charges``, passed as ``shared``) gives every
seat the same charges as before, and the payments the same categories: the previous ``dues_charges`` and
``payment_categories`` are kept here as the reference, and compared on many generated seats (terms, payments,
reversals, waivers) and several seasons' rules."""

import dataclasses
import datetime as dt
from collections.abc import Sequence
from decimal import Decimal

from hypothesis import given, settings
from hypothesis import strategies as st

from events.bylaws import BYLAWS_RULES
from finance.services.categories import CREDIT, CategoryAmount, payment_categories
from finance.services.dues import (
    ADMIN_FEE,
    DUES,
    LATE_FEE,
    WAIVER,
    AccountTerms,
    Charge,
    MoneyIn,
    Waiver,
    _installment_text,
    dues_charges,
    late_fee_dates,
    season_charges,
)
from members.services.late_joiners import join_terms, late_joiner_dues_events
from ncpc.core.money import ZERO, money_display
from tests.finance.test_late_fees import EVENTS, FEE_DATES, SEASON_END

D = Decimal
_ORDER = {ADMIN_FEE: 0, DUES: 1, LATE_FEE: 2}


@dataclasses.dataclass
class _Open:
    """The unpaid part of one charge (the reference's own)."""

    date: dt.date
    category: str
    amount: Decimal


def reference_dues_charges(*, rules, event_dates, season_end, terms, payments=(), waivers=()):
    """``dues_charges`` as it was before the season's part was shared (commit ca5e609)."""
    if terms.last_event is not None and terms.last_event < terms.first_event:
        return []
    cutoff = event_dates.get(terms.last_event) if terms.last_event is not None else None

    base: list[Charge] = []
    if terms.first_event <= 1:
        for number, amount in rules.dues_schedule:
            if number in event_dates and amount:
                base.append(
                    Charge(event_dates[number], DUES, amount, _installment_text(rules, number, amount))
                )
    else:
        join = join_terms(rules=rules, first_event=terms.first_event)
        on = event_dates[terms.first_event]
        if join.owes_admin_fee and rules.admin_fee:
            base.append(Charge(on, ADMIN_FEE, rules.admin_fee, "Annual admin fee (late joiner)"))
        count = late_joiner_dues_events(rules=rules, first_event=terms.first_event)
        if count:
            last = rules.events_per_season
            base.append(
                Charge(
                    on,
                    DUES,
                    rules.dues_per_event * count,
                    f"Dues for events {terms.first_event}–{last} ({count} × {money_display(rules.dues_per_event)})",
                )
            )
    if cutoff is not None:
        base = [c for c in base if c.date <= cutoff]

    charges = list(base)
    waived = {w.fee_date: w for w in waivers}
    for fee_date in late_fee_dates(rules=rules, event_dates=event_dates, season_end=season_end):
        if cutoff is not None and fee_date > cutoff:
            break
        owed = sum((c.amount for c in base if c.date <= fee_date), ZERO)
        paid = sum((p.amount for p in payments if p.date <= fee_date), ZERO)
        if owed - paid > 0 and rules.late_fee:
            charges.append(Charge(fee_date, LATE_FEE, rules.late_fee, "Late fee (§2.10)"))
            waiver = waived.get(fee_date)
            if waiver is not None:
                text = f"Late fee of {fee_date:%b %-d, %Y} waived: {waiver.reason}"
                charges.append(Charge(max(waiver.on, fee_date), WAIVER, -rules.late_fee, text))
    return sorted(charges, key=lambda c: (c.date, c.kind == WAIVER))


def reference_payment_categories(
    *, charges: Sequence[Charge], payments: Sequence[MoneyIn], admin_fee_in_first_dues: Decimal = ZERO
) -> list[CategoryAmount]:
    """``payment_categories`` as it was before its one pass over the open charges (commit fe0b847)."""
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
    settled: list[tuple[_Open, Decimal]] = []  # what each payment settled, oldest first
    for money in sorted(payments, key=lambda p: p.date):
        if money.amount >= 0:
            left = money.amount
            # Charges due by the payment's day first, then later dues (never a late fee not yet charged).
            due = [p for p in parts if p.amount > 0 and p.date <= money.date]
            ahead = [p for p in parts if p.amount > 0 and p.date > money.date and p.category != LATE_FEE]
            for part in due + ahead:
                if left <= 0:
                    break
                take = min(left, part.amount)
                part.amount -= take
                left -= take
                settled.append((part, take))
                result.append(CategoryAmount(money.date, part.category, take))
            if left > 0:
                credit = _Open(money.date, CREDIT, ZERO)
                settled.append((credit, left))
                result.append(CategoryAmount(money.date, CREDIT, left))
        else:
            back = -money.amount
            while back > 0 and settled:
                part, took = settled.pop()
                give = min(back, took)
                if took > give:
                    settled.append((part, took - give))
                if part.category != CREDIT:
                    part.amount += give
                back -= give
                result.append(CategoryAmount(money.date, part.category, -give))
            if back > 0:  # more reversed than was ever paid: would be a bug elsewhere; keep the sums whole
                result.append(CategoryAmount(money.date, CREDIT, -back))
    return result


SEASON_DAYS = (SEASON_END - EVENTS[1]).days
RULES = [
    BYLAWS_RULES,
    dataclasses.replace(BYLAWS_RULES, late_fee=D("0.00")),
    dataclasses.replace(BYLAWS_RULES, admin_fee=D("0.00")),
    # Installments listed out of date order, one of them zero.
    dataclasses.replace(BYLAWS_RULES, dues_schedule=((3, D("100.00")), (1, D("160.00")), (2, D("0.00")))),
]

# Any day of the season, often an event's or a late fee's (where the rules turn).
days = st.one_of(
    st.sampled_from([*EVENTS.values(), *FEE_DATES]),
    st.integers(min_value=-30, max_value=SEASON_DAYS + 30).map(lambda n: EVENTS[1] + dt.timedelta(days=n)),
)
amounts = st.integers(min_value=-300, max_value=500).map(lambda n: D(n) + D("0.00"))
terms = st.builds(
    AccountTerms,
    first_event=st.integers(min_value=1, max_value=10),
    last_event=st.one_of(st.none(), st.integers(min_value=1, max_value=10)),
)
payments = st.lists(st.builds(MoneyIn, days, amounts, st.just("")), max_size=6).map(
    lambda ps: sorted(ps, key=lambda p: p.date)
)
waivers = st.lists(st.builds(Waiver, st.sampled_from(FEE_DATES), days, st.just("board decision")), max_size=3)


@settings(max_examples=400, deadline=None)
@given(rules=st.sampled_from(RULES), terms=terms, payments=payments, waivers=waivers)
def test_charges_with_the_seasons_part_shared_are_the_charges_as_before(rules, terms, payments, waivers):
    kwargs = {"rules": rules, "event_dates": EVENTS, "season_end": SEASON_END, "terms": terms}
    expected = reference_dues_charges(**kwargs, payments=payments, waivers=waivers)
    shared = season_charges(rules=rules, event_dates=EVENTS, season_end=SEASON_END)
    assert dues_charges(**kwargs, payments=payments, waivers=waivers, shared=shared) == expected
    assert dues_charges(**kwargs, payments=payments, waivers=waivers) == expected


def test_without_a_december_event_there_are_no_late_fees_and_the_installments_stand():
    events = {n: day for n, day in EVENTS.items() if n != 5}
    shared = season_charges(rules=BYLAWS_RULES, event_dates=events, season_end=SEASON_END)
    assert shared.fee_dates == ()
    charges = dues_charges(
        rules=BYLAWS_RULES,
        event_dates=events,
        season_end=SEASON_END,
        terms=AccountTerms(),
        shared=shared,
    )
    assert charges == reference_dues_charges(
        rules=BYLAWS_RULES, event_dates=events, season_end=SEASON_END, terms=AccountTerms()
    )
    assert {c.kind for c in charges} == {DUES}


@settings(max_examples=400, deadline=None)
@given(rules=st.sampled_from(RULES), terms=terms, payments=payments, waivers=waivers)
def test_payments_fall_in_the_same_categories_as_before(rules, terms, payments, waivers):
    charges = reference_dues_charges(
        rules=rules,
        event_dates=EVENTS,
        season_end=SEASON_END,
        terms=terms,
        payments=payments,
        waivers=waivers,
    )
    included = rules.admin_fee if terms.first_event <= 1 else ZERO
    expected = reference_payment_categories(
        charges=charges, payments=payments, admin_fee_in_first_dues=included
    )
    assert (
        payment_categories(charges=charges, payments=payments, admin_fee_in_first_dues=included) == expected
    )
