"""What a member owes next, before it is late (§2.6–2.10, SPEC §7), on the bylaws' dues and dates: $110 at
event 1 (Aug 22), $100 at events 2–5 (Sep 26, Oct 24, Nov 14, Dec 12); a $25 late fee on the December event's
date and the same day of each following month while dues stay unpaid."""

import datetime as dt
from decimal import Decimal

import pytest

from events.selectors import season_rules
from finance.selectors.dues import account_outlook, dues_account
from finance.services.dues import AccountTerms, MoneyIn, dues_charges
from finance.services.forecast import dues_outlook
from tests.factories import MembershipFactory
from tests.finance.factories import pay

D = Decimal
EVENTS = {
    1: dt.date(2026, 8, 22),
    2: dt.date(2026, 9, 26),
    3: dt.date(2026, 10, 24),
    4: dt.date(2026, 11, 14),
    5: dt.date(2026, 12, 12),
    6: dt.date(2027, 1, 23),
    7: dt.date(2027, 2, 27),
    8: dt.date(2027, 3, 27),
    9: dt.date(2027, 4, 24),
    10: dt.date(2027, 5, 22),
}


@pytest.fixture
def outlook(db, season):
    rules = season_rules(season)

    def make(payments, on):
        money = [MoneyIn(dt.date.fromisoformat(d), D(a)) for d, a in payments]
        charges = dues_charges(
            rules=rules,
            event_dates=EVENTS,
            season_end=dt.date(2027, 7, 31),
            terms=AccountTerms(),
            payments=money,
        )
        return dues_outlook(charges=charges, payments=money, event_dates=list(EVENTS.values()), on=on)

    return make


def test_section_2_10_before_december_the_forecast_names_the_december_late_fee(outlook):
    view = outlook([("2026-08-22", "410.00")], on=dt.date(2026, 11, 29))
    assert view.balance == D("0.00")
    assert view.next_event == dt.date(2026, 12, 12)
    assert view.due_at_next_event == D("100.00")
    assert view.to_play == D("100.00")
    assert (view.late_fee, view.late_fee_date, view.avoid_late_fee) == (
        D("25.00"),
        dt.date(2026, 12, 12),
        D("100.00"),
    )


def test_section_2_10_after_the_december_late_fee_the_next_one_is_a_month_later(outlook):
    # Paid $410, nothing more: on Dec 20 the member owes $100 of dues and the $25 late fee of Dec 12.
    view = outlook([("2026-08-22", "410.00")], on=dt.date(2026, 12, 20))
    assert view.balance == D("125.00")
    assert view.next_event == dt.date(2027, 1, 23)
    assert view.due_at_next_event == D("0.00")  # no installment after December
    assert view.to_play == D("125.00")
    # Unpaid by Jan 12, another $25 (the same day of the next month), before the January event.
    assert (view.late_fee, view.late_fee_date, view.avoid_late_fee) == (
        D("25.00"),
        dt.date(2027, 1, 12),
        D("100.00"),
    )


def test_a_member_paid_for_the_season_has_nothing_ahead_and_a_credit_shows_as_a_credit(outlook):
    view = outlook([("2026-08-22", "610.00")], on=dt.date(2026, 11, 29))
    assert view.balance == D("-200.00") and view.credit == D("200.00")
    assert view.to_play == D("0.00")
    assert (view.late_fee, view.late_fee_date) == (D("0.00"), None)


def test_the_statement_says_as_of_when_and_what_comes_next(client, season, treasurer, member, today):
    seat = member.person.memberships.get()
    pay(membership=seat, day="2026-08-22", amount="410.00", actor=treasurer)
    client.force_login(member)
    page = client.get("/finance/me/").content.decode()
    assert "As of Sunday, Nov 29, 2026." in page
    assert "To play on <strong>Dec 12</strong>: pay <strong>$100.00</strong> by then" in page
    assert "A $25.00 late fee is charged on Dec 12 unless $100.00 is paid by then" in page


def test_the_home_page_shows_a_credit_not_a_negative_amount(client, season, treasurer, member, today):
    seat = member.person.memberships.get()
    pay(membership=seat, day="2026-08-22", amount="510.00", actor=treasurer)
    client.force_login(member)
    page = client.get("/").content.decode()
    assert "credit $100.00" in page and "$-100.00" not in page and "−$100.00" not in page
    assert dues_account(membership=seat).status(on=dt.date(2026, 11, 29)).balance == D("-100.00")


def test_section_2_5_a_member_who_joins_late_is_told_the_same_way(season, today):
    late = MembershipFactory(season=season, first_event=4)
    view = account_outlook(account=dues_account(membership=late), on=dt.date(2026, 11, 29))
    # First event 4 (Nov 14): dues for events 4–10, 7 × $50, charged then (no admin fee from event 4, §2.5).
    assert view.balance == D("350.00")
    assert view.next_event == dt.date(2026, 12, 12) and view.to_play == D("350.00")
    assert (view.late_fee, view.late_fee_date) == (D("25.00"), dt.date(2026, 12, 12))


def test_section_2_10_on_the_event_day_paying_at_the_door_avoids_that_days_late_fee(outlook):
    # Paid $410; on Dec 12 the $100 installment falls due and the $25 late fee would follow if unpaid that
    # day: paying $100 at the door (dated that day) avoids it, as the attendance page's door amount says.
    view = outlook([("2026-08-22", "410.00")], on=dt.date(2026, 12, 12))
    assert view.next_event == dt.date(2026, 12, 12)
    assert view.to_play == D("100.00")
