"""The statement's Balance column as a member reads it (issue 35): owed as an amount, paid ahead as a credit,
never a negative amount; after the member left, what they paid beyond the charges is the club's (§2.12)."""

import datetime as dt
from decimal import Decimal

import pytest

from finance.services.dues import StatementLine
from finance.templatetags.report_tags import balance, statement_balance

D = Decimal
LEFT = dt.date(2026, 12, 1)


@pytest.mark.parametrize(
    "value,shown",
    [
        (D("110.00"), "$110.00"),
        (D("0.00"), "$0.00"),
        (D("-910.00"), "credit $910.00"),
        (D("-0.50"), "credit $0.50"),
        (D("-1234.5"), "credit $1,234.50"),
        (None, ""),
        ("", ""),
        ("not a number", ""),
    ],
)
def test_a_balance_below_zero_reads_as_a_credit(value, shown):
    assert balance(value) == shown


def line(day: dt.date, amount: str) -> StatementLine:
    return StatementLine(date=day, description="", charge=None, payment=None, balance=D(amount))


def test_a_departed_members_money_beyond_the_charges_is_kept_by_the_club_from_the_day_they_left():
    assert statement_balance(line(dt.date(2026, 11, 14), "-200.00"), LEFT) == "credit $200.00"  # before
    assert statement_balance(line(LEFT, "-200.00"), LEFT) == "$200.00 kept by the club"
    assert statement_balance(line(dt.date(2026, 12, 12), "-100.00"), LEFT) == "$100.00 kept by the club"
    assert statement_balance(line(dt.date(2026, 12, 12), "50.00"), LEFT) == "$50.00"
    assert statement_balance(line(dt.date(2026, 12, 12), "-100.00"), None) == "credit $100.00"
