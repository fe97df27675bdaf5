"""What members' money paid for (the treasurer's report's income by category, §3.6.3): a pure calculator.

Amounts from the bylaws' dues schedule (SPEC §7): $110 at event 1 (the $10 admin fee and two events' dues),
$100 at events 2–5; a $25 late fee from the December event."""

import datetime as dt
from decimal import Decimal

from finance.services.categories import CREDIT, CategoryAmount, category_totals, payment_categories
from finance.services.dues import ADMIN_FEE, DUES, LATE_FEE, WAIVER, Charge, MoneyIn

AUG, SEP, OCT, NOV, DEC = (dt.date(2026, m, d) for m, d in ((8, 22), (9, 26), (10, 24), (11, 14), (12, 12)))
D = Decimal

SCHEDULE = [
    Charge(AUG, DUES, D("110.00"), "event 1"),
    Charge(SEP, DUES, D("100.00"), "event 2"),
    Charge(OCT, DUES, D("100.00"), "event 3"),
    Charge(NOV, DUES, D("100.00"), "event 4"),
    Charge(DEC, DUES, D("100.00"), "event 5"),
]


def split(payments, charges=SCHEDULE, admin=D("10.00")):
    return payment_categories(charges=charges, payments=payments, admin_fee_in_first_dues=admin)


def test_section_3_6_3_the_first_installment_pays_the_admin_fee_first_then_dues():
    assert split([MoneyIn(AUG, D("110.00"))]) == [
        CategoryAmount(AUG, ADMIN_FEE, D("10.00")),
        CategoryAmount(AUG, DUES, D("100.00")),
    ]


def test_section_3_6_3_money_beyond_the_charges_due_pays_later_installments_then_is_a_credit():
    # $610 in August: $10 admin fee, $500 of dues (event 1's $100 and four installments ahead), $100 credit.
    amounts = split([MoneyIn(AUG, D("610.00"))])
    totals = category_totals(amounts, start=AUG, end=AUG)
    assert totals == {ADMIN_FEE: D("10.00"), DUES: D("500.00"), LATE_FEE: D("0.00"), CREDIT: D("100.00")}


def test_section_2_10_a_late_fee_is_paid_after_the_dues_charged_before_it():
    charges = [*SCHEDULE, Charge(DEC, LATE_FEE, D("25.00"), "late fee")]
    # Nothing paid until Dec 20: $535 is due (510 + 25). $200 pays the admin fee and $190 of the oldest dues.
    amounts = split([MoneyIn(dt.date(2026, 12, 20), D("200.00"))], charges=charges)
    assert category_totals(amounts, start=DEC, end=dt.date(2026, 12, 31)) == {
        ADMIN_FEE: D("10.00"),
        DUES: D("190.00"),
        LATE_FEE: D("0.00"),
        CREDIT: D("0.00"),
    }
    # The remaining $335 on Jan 3: the $310 of dues left, then the $25 late fee.
    amounts = split(
        [MoneyIn(dt.date(2026, 12, 20), D("200.00")), MoneyIn(dt.date(2027, 1, 3), D("335.00"))],
        charges=charges,
    )
    january = category_totals(amounts, start=dt.date(2027, 1, 1), end=dt.date(2027, 1, 31))
    assert january == {ADMIN_FEE: D("0.00"), DUES: D("310.00"), LATE_FEE: D("25.00"), CREDIT: D("0.00")}


def test_section_2_10_a_waived_late_fee_is_not_income():
    charges = [
        *SCHEDULE,
        Charge(DEC, LATE_FEE, D("25.00"), "late fee"),
        Charge(dt.date(2026, 12, 15), WAIVER, D("-25.00"), "waived"),
    ]
    amounts = split([MoneyIn(dt.date(2026, 12, 20), D("535.00"))], charges=charges)
    assert category_totals(amounts, start=DEC, end=dt.date(2026, 12, 31)) == {
        ADMIN_FEE: D("10.00"),
        DUES: D("500.00"),
        LATE_FEE: D("0.00"),
        CREDIT: D("25.00"),
    }


def test_a_reversal_takes_back_what_its_payment_paid_for_in_the_month_it_happens():
    bounced = dt.date(2026, 10, 2)
    amounts = split([MoneyIn(AUG, D("110.00")), MoneyIn(SEP, D("100.00")), MoneyIn(bounced, D("-100.00"))])
    assert category_totals(amounts, start=SEP, end=SEP) == {
        ADMIN_FEE: D("0.00"),
        DUES: D("100.00"),
        LATE_FEE: D("0.00"),
        CREDIT: D("0.00"),
    }
    october = category_totals(amounts, start=dt.date(2026, 10, 1), end=dt.date(2026, 10, 31))
    assert october[DUES] == D("-100.00")
    # Paid again in November: it settles September's installment again, then October's.
    amounts = split(
        [
            MoneyIn(AUG, D("110.00")),
            MoneyIn(SEP, D("100.00")),
            MoneyIn(bounced, D("-100.00")),
            MoneyIn(NOV, D("300.00")),
        ]
    )
    assert category_totals(amounts, start=NOV, end=NOV)[DUES] == D("300.00")


def test_the_categories_of_a_season_add_up_to_the_money_received():
    payments = [MoneyIn(AUG, D("50.00")), MoneyIn(OCT, D("333.33")), MoneyIn(DEC, D("400.00"))]
    totals = category_totals(split(payments), start=AUG, end=dt.date(2027, 7, 31))
    assert sum(totals.values()) == D("783.33")
    assert totals[CREDIT] == D("273.33")  # 783.33 − the season's 510.00


def test_a_days_charges_are_paid_admin_fee_dues_then_late_fee_whatever_order_they_come_in():
    """Charges sort by (date, kind): the kinds' names sort in the order a day's charges are paid."""
    on = DEC
    charges = [
        Charge(on, LATE_FEE, D("25.00"), "late fee"),
        Charge(on, DUES, D("100.00"), "dues"),
        Charge(on, ADMIN_FEE, D("10.00"), "admin fee"),
    ]
    # $50 on the day: the admin fee, then $40 of dues; nothing of the late fee.
    assert split([MoneyIn(on, D("50.00"))], charges=charges, admin=D("0.00")) == [
        CategoryAmount(on, ADMIN_FEE, D("10.00")),
        CategoryAmount(on, DUES, D("40.00")),
    ]
    shuffled = [SCHEDULE[3], SCHEDULE[0], SCHEDULE[4], SCHEDULE[2], SCHEDULE[1]]
    payments = [MoneyIn(AUG, D("110.00")), MoneyIn(OCT, D("250.00"))]
    assert split(payments, charges=shuffled) == split(payments)
