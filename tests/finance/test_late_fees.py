"""Dues and late fees across the 2026-27 season (SPEC §7, bylaws §2.6–2.10): exact dates and amounts."""

import datetime as dt
from decimal import Decimal

import pytest

from events.bylaws import BYLAWS_RULES
from finance.services.dues import (
    ADMIN_FEE,
    DUES,
    KINDS_IN_ORDER,
    LATE_FEE,
    WAIVER,
    AccountTerms,
    MoneyIn,
    Waiver,
    dues_charges,
    dues_status,
    late_fee_dates,
)

D = Decimal
# SPEC §3: the 2026-27 schedule.
EVENTS = {
    1: dt.date(2026, 8, 22),
    2: dt.date(2026, 9, 26),
    3: dt.date(2026, 10, 24),
    4: dt.date(2026, 11, 14),
    5: dt.date(2026, 12, 12),
    6: dt.date(2027, 1, 23),
    7: dt.date(2027, 2, 13),
    8: dt.date(2027, 2, 27),
    9: dt.date(2027, 3, 27),
    10: dt.date(2027, 4, 24),
}
SEASON_END = dt.date(2027, 7, 31)
FEE_DATES = [
    dt.date(2026, 12, 12),
    dt.date(2027, 1, 12),
    dt.date(2027, 2, 12),
    dt.date(2027, 3, 12),
    dt.date(2027, 4, 12),
    dt.date(2027, 5, 12),
    dt.date(2027, 6, 12),
    dt.date(2027, 7, 12),
]


def pay(*pairs):
    return [MoneyIn(dt.date.fromisoformat(day), D(amount)) for day, amount in pairs]


def account(payments=(), terms=AccountTerms(), waivers=()):
    charges = dues_charges(
        rules=BYLAWS_RULES,
        event_dates=EVENTS,
        season_end=SEASON_END,
        terms=terms,
        payments=payments,
        waivers=waivers,
    )
    return charges


def fee_dates(charges):
    return [c.date for c in charges if c.kind == LATE_FEE]


def test_late_fees_fall_on_the_december_event_date_then_the_same_day_each_month_through_july():
    assert late_fee_dates(rules=BYLAWS_RULES, event_dates=EVENTS, season_end=SEASON_END) == FEE_DATES


def test_installments_are_charged_on_the_dates_of_events_one_to_five():
    charges = account()
    installments = [(c.date, c.amount) for c in charges if c.kind != LATE_FEE]
    assert installments == [
        (dt.date(2026, 8, 22), D("110.00")),
        (dt.date(2026, 9, 26), D("100.00")),
        (dt.date(2026, 10, 24), D("100.00")),
        (dt.date(2026, 11, 14), D("100.00")),
        (dt.date(2026, 12, 12), D("100.00")),
    ]


@pytest.mark.parametrize(
    ("day", "cumulative"),
    [
        ("2026-08-21", "0.00"),
        ("2026-08-22", "110.00"),
        ("2026-09-26", "210.00"),
        ("2026-10-24", "310.00"),
        ("2026-11-14", "410.00"),
        ("2026-12-12", "510.00"),
        ("2027-07-31", "510.00"),
    ],
)
def test_cumulative_dues_follow_the_schedule(day, cumulative):
    payments = pay(("2026-08-01", "510.00"))
    status = dues_status(charges=account(payments), payments=payments, on=dt.date.fromisoformat(day))
    assert status.charged == D(cumulative)


def test_an_on_time_payer_never_owes_a_late_fee():
    payments = pay(
        ("2026-08-22", "110.00"),
        ("2026-09-26", "100.00"),
        ("2026-10-24", "100.00"),
        ("2026-11-14", "100.00"),
        ("2026-12-12", "100.00"),  # at the door of the December event: counts that day
    )
    charges = account(payments)
    assert fee_dates(charges) == []
    status = dues_status(charges=charges, payments=payments, on=SEASON_END)
    assert (status.charged, status.late_fees, status.paid, status.balance) == (
        D("510.00"),
        D("0.00"),
        D("510.00"),
        D("0.00"),
    )


def test_a_late_payer_owes_one_late_fee_and_late_fees_do_not_trigger_more():
    payments = pay(
        ("2026-08-22", "110.00"),
        ("2026-09-26", "100.00"),
        ("2026-10-24", "100.00"),
        ("2026-11-14", "100.00"),
        ("2027-01-05", "100.00"),
    )
    charges = account(payments)
    assert fee_dates(charges) == [dt.date(2026, 12, 12)]
    status = dues_status(charges=charges, payments=payments, on=SEASON_END)
    assert status.late_fees == D("25.00")
    assert status.balance == D("25.00")  # the unpaid late fee alone never adds another


def test_a_partial_payer_owes_a_late_fee_every_month_from_december_through_july():
    payments = pay(
        ("2026-08-22", "110.00"),
        ("2026-09-26", "100.00"),
        ("2026-10-24", "100.00"),
        ("2026-11-14", "100.00"),
    )
    charges = account(payments)
    assert fee_dates(charges) == FEE_DATES
    status = dues_status(charges=charges, payments=payments, on=SEASON_END)
    assert (status.charged, status.late_fees, status.paid, status.balance) == (
        D("510.00"),
        D("200.00"),
        D("410.00"),
        D("300.00"),
    )


def test_a_member_who_pays_up_in_march_owes_three_late_fees():
    payments = pay(("2027-03-01", "510.00"))
    charges = account(payments)
    assert fee_dates(charges) == FEE_DATES[:3]
    status = dues_status(charges=charges, payments=payments, on=SEASON_END)
    assert status.late_fees == D("75.00")
    assert status.balance == D("75.00")


@pytest.mark.parametrize(
    ("day", "charged", "late_fees", "balance"),
    [
        ("2026-11-30", "410.00", "0.00", "410.00"),
        ("2026-12-12", "510.00", "25.00", "535.00"),
        ("2027-01-12", "510.00", "50.00", "560.00"),
        ("2027-04-30", "510.00", "125.00", "635.00"),
        ("2027-07-31", "510.00", "200.00", "710.00"),
    ],
)
def test_a_never_payer_as_of_dates_through_the_year(day, charged, late_fees, balance):
    charges = account()
    status = dues_status(charges=charges, payments=[], on=dt.date.fromisoformat(day))
    assert (status.charged, status.late_fees, status.balance) == (D(charged), D(late_fees), D(balance))


def test_a_waived_late_fee_counts_until_the_waiver_and_not_after():
    charges = account(waivers=[Waiver(dt.date(2026, 12, 12), dt.date(2027, 1, 5), "bank error")])
    before = dues_status(charges=charges, payments=[], on=dt.date(2027, 1, 4))
    after = dues_status(charges=charges, payments=[], on=SEASON_END)
    assert before.late_fees == D("25.00")
    assert after.late_fees == D("175.00")


def test_a_late_joiner_from_event_four_owes_no_admin_fee_and_dues_for_seven_events_at_the_first_event():
    charges = account(terms=AccountTerms(first_event=4))
    assert [(c.date, c.kind, c.amount) for c in charges if c.kind != LATE_FEE] == [
        (dt.date(2026, 11, 14), "dues", D("350.00"))
    ]


def test_a_late_joiner_from_event_two_owes_the_admin_fee_and_dues_for_nine_events():
    charges = account(terms=AccountTerms(first_event=2))
    status = dues_status(charges=charges, payments=[], on=dt.date(2026, 9, 26))
    assert status.charged == D("460.00")
    assert dues_status(charges=charges, payments=[], on=dt.date(2026, 9, 25)).charged == D("0.00")


def test_a_late_joiner_after_december_is_charged_late_fees_only_on_dates_after_their_dues_fall_due():
    charges = account(terms=AccountTerms(first_event=7))
    assert fee_dates(charges) == FEE_DATES[3:]
    assert dues_status(charges=charges, payments=[], on=SEASON_END).charged == D("200.00")


def test_a_member_who_left_after_event_three_is_charged_nothing_after_leaving():
    charges = account(terms=AccountTerms(first_event=1, last_event=3))
    status = dues_status(charges=charges, payments=[], on=SEASON_END)
    assert status.charged == D("310.00")
    assert status.late_fees == D("0.00")


def test_a_days_charges_are_listed_admin_fee_dues_late_fee_then_its_waiver():
    """The calculators sort charges by (date, kind) as plain tuples: the kinds' names must sort in this order."""
    assert sorted(KINDS_IN_ORDER) == list(KINDS_IN_ORDER) == [ADMIN_FEE, DUES, LATE_FEE, WAIVER]
    # Nothing paid, the first late fee waived the day it is charged: the December event's installment, the
    # late fee, then its waiver.
    waiver = Waiver(dt.date(2026, 12, 12), dt.date(2026, 12, 12), "bank error")
    december = [(c.kind, c.amount) for c in account(waivers=[waiver]) if c.date == dt.date(2026, 12, 12)]
    assert december == [(DUES, D("100.00")), (LATE_FEE, D("25.00")), (WAIVER, D("-25.00"))]
    # A late joiner's admin fee and dues fall on one day: the admin fee first.
    joiner = account(terms=AccountTerms(first_event=2))
    assert [c.kind for c in joiner if c.date == EVENTS[2]] == [ADMIN_FEE, DUES]
