"""Each bylaw rule written once (issue 31, part 5): one function per rule, checked here against rows taken from
SPEC.md (the section is named on each table), and the pages and reports that use the rule checked to agree.

Amounts are the SPEC's own (§7: $110 at event 1, $100 at events 2–5, a $25 late fee from the December event),
dates the SPEC's example season 2026-27 (§3)."""

import datetime as dt
from decimal import Decimal

import pytest

from events.bylaws import BYLAWS_RULES
from events.rules import SeasonRules
from events.services.places import points_for
from finance.selectors.dues import good_standing
from finance.selectors.monthly_report import monthly_report
from finance.services.dues import AccountTerms, MoneyIn, account_in_good_standing, dues_charges
from finance.services.forecast import dues_outlook
from members.services.seat_terms import seat_held_at
from members.services.standing import suspension_create
from ncpc.club.services.season_report import season_report
from ncpc.core.forms import MoneyField
from ncpc.core.money import DEFAULT_MONEY_LIMIT
from tests.finance.factories import pay, seat

D = Decimal

# SPEC §3: season 2026-27 → 2026-08-22, 09-26, 10-24, 11-14, 12-12, 2027-01-23, 02-13, 02-27, 03-27, 04-24.
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
SEASON_END = dt.date(2027, 7, 31)  # SPEC §3: the season runs 1 Aug – 31 Jul


def _day(text: str) -> dt.date:
    return dt.date.fromisoformat(text)


def _founding_seat(payments: list[tuple[str, str]]) -> tuple[list, list[MoneyIn]]:
    money = [MoneyIn(_day(d), D(a)) for d, a in payments]
    charges = dues_charges(
        rules=BYLAWS_RULES, event_dates=EVENTS, season_end=SEASON_END, terms=AccountTerms(), payments=money
    )
    return charges, money


# --- Good standing (SPEC §2, §7): payments dated ≤ the date cover all charges dated ≤ it, and no suspension. ---

GOOD_STANDING = [
    # (payments (date, amount), on, suspensions, in good standing)
    # §7: $110 due at event 1; a payment dated on or before the event's date counts.
    ([("2026-08-20", "110.00")], "2026-08-22", [], True),
    ([("2026-08-22", "110.00")], "2026-08-22", [], True),  # paying at the door counts
    ([("2026-08-22", "100.00")], "2026-08-22", [], False),
    ([], "2026-08-21", [], True),  # nothing charged yet
    # §7: cumulative due 110, 210, 310, 410, 510.
    ([("2026-08-22", "110.00")], "2026-09-26", [], False),
    ([("2026-08-22", "210.00")], "2026-09-26", [], True),
    ([("2026-08-22", "410.00")], "2026-11-14", [], True),
    ([("2026-08-22", "410.00")], "2026-12-12", [], False),
    ([("2026-08-22", "410.00"), ("2026-12-12", "100.00")], "2026-12-12", [], True),
    # §7: $25 late fee on the December event's date when dues are unpaid that day; it must be paid too.
    ([("2026-08-22", "410.00"), ("2026-12-13", "100.00")], "2026-12-13", [], False),
    ([("2026-08-22", "410.00"), ("2026-12-13", "125.00")], "2026-12-13", [], True),
    # and again the same day of the next month while dues stay unpaid that day (Jan 12): paid that day, none;
    # paid the day after, $100 + 2 × $25.
    ([("2026-08-22", "410.00"), ("2027-01-12", "125.00")], "2027-01-12", [], True),
    ([("2026-08-22", "410.00"), ("2027-01-13", "125.00")], "2027-01-13", [], False),
    ([("2026-08-22", "410.00"), ("2027-01-13", "150.00")], "2027-01-13", [], True),
    # §2, §7: a suspension covering the date (both ends included) takes good standing away, paid or not.
    ([("2026-08-22", "510.00")], "2026-09-26", [("2026-09-26", "2026-10-01")], False),
    ([("2026-08-22", "510.00")], "2026-10-01", [("2026-09-26", "2026-10-01")], False),
    ([("2026-08-22", "510.00")], "2026-10-02", [("2026-09-26", "2026-10-01")], True),
    ([("2026-08-22", "510.00")], "2026-09-25", [("2026-09-26", "2026-10-01")], True),
]


@pytest.mark.parametrize(("payments", "on", "suspensions", "expected"), GOOD_STANDING)
def test_spec_7_good_standing_of_a_founding_seat(payments, on, suspensions, expected):
    charges, money = _founding_seat(payments)
    periods = [(_day(a), _day(b)) for a, b in suspensions]
    assert (
        account_in_good_standing(charges=charges, payments=money, suspensions=periods, on=_day(on))
        is expected
    )


GOOD_STANDING_PAGES = [
    # (paid at event 1, suspended on Nov 20–30, in good standing on Nov 29): SPEC §7, the November dues are $410.
    ("410.00", False, True),
    ("310.00", False, False),
    ("510.00", True, False),
]


@pytest.mark.parametrize(("paid", "suspended", "expected"), GOOD_STANDING_PAGES)
def test_spec_7_the_pages_and_both_reports_give_the_same_good_standing(
    season, today, paid, suspended, expected
):
    # The statement and home pages (good_standing), the treasurer's monthly report (SPEC §11) and the season
    # report (SPEC §13 ``dues[].good_standing``) all answer from the one rule.
    membership = seat(season=season, key="ann")
    pay(membership=membership, day="2026-08-22", amount=paid)
    if suspended:
        suspension_create(
            membership=membership, start=_day("2026-11-20"), end=_day("2026-11-30"), reason="§5.5"
        )
    assert good_standing(membership=membership, on=today) is expected
    row = next(
        r for r in monthly_report(year=2026, month=11, today=today).members if r.membership == membership
    )
    assert row.good_standing is expected
    dues = next(r for r in season_report(season=season, as_of=today)["dues"] if r["member"] == "ann")
    assert dues["good_standing"] is expected


# --- Points per place (SPEC §5, bylaws §10.1): 1 → 10, 2 → 9, … 10 → 1, below 10th → 0; no place → 0. ---

POINTS = [
    (1, 10),
    (2, 9),
    (3, 8),
    (4, 7),
    (5, 6),
    (6, 5),
    (7, 4),
    (8, 3),
    (9, 2),
    (10, 1),
    (11, 0),
    (20, 0),  # SPEC §2: at most 20 members, so 20 is the lowest place
    (None, 0),  # SPEC §5: absent, chips removed or not in good standing: no place, 0 points
]


@pytest.mark.parametrize(("place", "points"), POINTS)
def test_spec_5_points_per_place(place, points):
    assert points_for(place=place, points_table=(10, 9, 8, 7, 6, 5, 4, 3, 2, 1)) == points


@pytest.mark.parametrize("place", [0, -1])
def test_spec_5_a_place_below_first_is_not_a_place_and_is_refused(place):
    # SPEC §5: places run 1..N. The two copies disagreed here (one scored 0, one refused): refused.
    with pytest.raises(ValueError):
        points_for(place=place, points_table=(10, 9, 8))


# --- Holds a seat at event N (SPEC §2 late joiners, §13 ``first_event`` / ``left_after_event``). ---


class _Seat:
    def __init__(self, first_event: int, left_after_event: int | None) -> None:
        self.first_event = first_event
        self.left_after_event = left_after_event


SEATS = [
    # (first_event, left_after_event, event, holds the seat)
    (1, None, 1, True),  # SPEC §13: first_event defaults to 1
    (1, None, 10, True),
    (4, None, 3, False),  # SPEC §2: a late joiner whose first event is event 4
    (4, None, 4, True),
    (1, 5, 5, True),  # SPEC §13: "left_after_event": plays that event, then leaves
    (1, 5, 6, False),
    (3, 2, 3, False),  # left before playing (left after event first_event − 1): never holds it
    (1, 0, 1, False),
]


@pytest.mark.parametrize(("first_event", "left_after", "event", "holds"), SEATS)
def test_spec_2_and_13_who_holds_a_seat_at_an_event(first_event, left_after, event, holds):
    assert seat_held_at(seat=_Seat(first_event, left_after), event_number=event) is holds


# --- The money limit's default (not a bylaws number: one value everywhere). ---


def test_one_money_limit_default_for_the_rules_and_the_forms():
    assert SeasonRules.__dataclass_fields__["money_limit"].default == DEFAULT_MONEY_LIMIT
    assert BYLAWS_RULES.money_limit == DEFAULT_MONEY_LIMIT == D("10000.00")
    assert MoneyField().limit == DEFAULT_MONEY_LIMIT


# --- The late-fee outlook (SPEC §7): read off the seat's fee list (``dues_charges``). ---

LATE_FEE_OUTLOOK = [
    # (paid on Aug 22, on, the next late fee, its date, what avoids it)
    ("410.00", "2026-11-29", "25.00", "2026-12-12", "100.00"),  # $510 due by the December event
    ("310.00", "2026-11-29", "25.00", "2026-12-12", "200.00"),
    ("510.00", "2026-11-29", "0.00", None, "0.00"),  # paid in full: no late fee ahead
    ("410.00", "2026-12-20", "25.00", "2027-01-12", "100.00"),  # the same day of the next month
    ("410.00", "2027-07-01", "25.00", "2027-07-12", "100.00"),  # the last one: through 31 July
    ("410.00", "2027-07-13", "0.00", None, "0.00"),  # none after the season's end
]


@pytest.mark.parametrize(("paid", "on", "fee", "fee_date", "avoid"), LATE_FEE_OUTLOOK)
def test_spec_7_the_next_late_fee_and_what_avoids_it(paid, on, fee, fee_date, avoid):
    charges, money = _founding_seat([("2026-08-22", paid)])
    view = dues_outlook(charges=charges, payments=money, event_dates=list(EVENTS.values()), on=_day(on))
    assert (view.late_fee, view.late_fee_date, view.avoid_late_fee) == (
        D(fee),
        _day(fee_date) if fee_date else None,
        D(avoid),
    )
