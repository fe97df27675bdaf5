"""Departed members (SPEC §16.2): a member removed by a vote (§2.11, §5.5.3), who withdrew, or who sold the seat
(§2.5) is, from the day they left, never in good standing, never told they may play, sent no reminder, and no
payment is booked for them (the payment form and the door list leave them out; the service refuses them). What
they paid stays the club's income (§2.12); the monthly report lists them apart and shows no credit.

On the bylaws' dues and dates: $110 at event 1 (Aug 22), $100 at events 2–5 (Sep 26, Oct 24, Nov 14, Dec 12).
Ann paid $460 on Aug 22 and leaves on Nov 29 (the clock's day), after event 4: $410 was charged through
Nov 14, so before leaving she had a $50 credit and could play on Dec 12.
"""

import datetime as dt
from decimal import Decimal

import pytest
from django.urls import reverse

from events.models import Event
from finance.forms import PaymentForm
from finance.models import Account, Payment
from finance.selectors.door import event_door_list
from finance.selectors.dues import amount_owed, dues_account, good_standing, season_dues_accounts
from finance.selectors.monthly_report import monthly_report
from finance.services.categories import CREDIT, FORFEITED, CategoryAmount, payment_categories
from finance.services.door import door_payment_record
from finance.services.dues import Charge, MoneyIn, account_in_good_standing
from finance.services.ledger import account_balance, account_get
from finance.services.payments import PaymentError, payment_record
from finance.services.reminders import dues_reminders_plan
from members.models import Membership, Removal
from members.selectors import current_member_count
from members.services.admission import VoteCounts
from members.services.seat_terms import seat_left_on
from members.services.seats import member_remove, member_withdraw, seat_transfer
from ncpc.club.services.season_report import season_report
from tests.factories import MembershipFactory, PersonFactory, UserFactory, once
from tests.finance.factories import pay

D = Decimal
NOV_29 = dt.date(2026, 11, 29)
DEC_EVENT = dt.date(2026, 12, 12)
HOW = ("removed", "withdrew", "sold")


@pytest.fixture
def club(db, season, today):
    """Ten members paid up through December, and Ann, who holds a login and paid $460 on Aug 22."""
    actor = UserFactory(username="treasurer-bot")
    seats = [MembershipFactory(season=season) for _ in range(10)]
    for seat in seats:
        pay(membership=seat, day="2026-08-22", amount="510.00", actor=actor)
    ann_user = UserFactory(username="ann")
    ann = MembershipFactory(
        season=season, person=PersonFactory(user=ann_user, key="ann", first_name="Ann", last_name="Lee")
    )
    pay(membership=ann, day="2026-08-22", amount="460.00", actor=actor)
    return {"seats": seats, "ann": ann, "ann_user": ann_user, "actor": actor}


def leave(how: str, *, club, season) -> Membership | None:
    """Ann leaves on Nov 29 the way ``how`` says; returns the buyer's seat after a sale."""
    ann = club["ann"]
    members = current_member_count(season=season)
    if how == "removed":
        member_remove(
            membership=ann,
            grounds=Removal.Grounds.ABUSE,
            held_on=NOV_29,
            yes=members,
            nominated_by=club["seats"][0].person,
        )
        return None
    if how == "withdrew":
        member_withdraw(membership=ann, on=NOV_29)
        return None
    return seat_transfer(
        seller=ann,
        buyer=PersonFactory(key="bea", first_name="Bea", last_name="Buyer"),
        how=Membership.HowLeft.SOLD,
        on=NOV_29,
        sponsor=ann.person,
        vote=VoteCounts(held_on=NOV_29, yes=members),
        declared_not_professional=True,
    )


# --- the rule, pure ---------------------------------------------------------------------------------------


def test_a_member_who_left_is_not_in_good_standing_from_that_day_whatever_they_paid():
    charges = [Charge(dt.date(2026, 8, 22), "dues", D("110.00"), "")]
    payments = [MoneyIn(dt.date(2026, 8, 22), D("500.00"))]
    standing = {
        on: account_in_good_standing(
            charges=charges, payments=payments, suspensions=(), on=on, left_on=NOV_29
        )
        for on in (dt.date(2026, 11, 28), NOV_29, DEC_EVENT)
    }
    assert standing == {dt.date(2026, 11, 28): True, NOV_29: False, DEC_EVENT: False}


@pytest.mark.parametrize(
    ("left_on", "left_after_event", "expected"),
    [
        (None, None, None),  # holds the seat
        (NOV_29, 4, NOV_29),  # the day the command recorded
        (None, 4, dt.date(2026, 11, 15)),  # history: the day after event 4 (Nov 14)
        (None, 0, dt.date(2026, 8, 1)),  # history: left before playing, from the season's first day
    ],
)
def test_the_day_a_seat_was_left_is_the_recorded_day_else_the_day_after_its_last_event(
    left_on, left_after_event, expected
):
    dates = {1: dt.date(2026, 8, 22), 4: dt.date(2026, 11, 14)}
    assert (
        seat_left_on(
            left_on=left_on,
            left_after_event=left_after_event,
            event_dates=dates,
            season_start=dt.date(2026, 8, 1),
        )
        == expected
    )


def test_what_a_departed_member_paid_ahead_becomes_forfeited_income_on_the_day_they_left_and_the_total_stays():
    # $460 on Aug 22 against $410 charged by then and a $100 installment on Dec 12: on Aug 22 the $50 beyond
    # the charges paid ahead for that installment (dues). Ann left on Nov 29, before it: on that day the $50
    # moves to forfeited; August's split stays as it was.
    aug_22, dec_12 = dt.date(2026, 8, 22), dt.date(2026, 12, 12)
    charges = [Charge(aug_22, "dues", D("410.00"), "Dues")]
    forgone = [Charge(dec_12, "dues", D("100.00"), "Dues for event 5")]
    payments = [MoneyIn(aug_22, D("460.00"))]
    split = payment_categories(charges=charges, payments=payments, forgone=forgone, left_on=NOV_29)
    assert split == [
        CategoryAmount(aug_22, "dues", D("410.00")),
        CategoryAmount(aug_22, "dues", D("50.00")),
        CategoryAmount(NOV_29, "dues", D("-50.00")),
        CategoryAmount(NOV_29, FORFEITED, D("50.00")),
    ]
    # Paid beyond the whole season: the credit is forfeited with the installment.
    more = payment_categories(
        charges=charges, payments=[MoneyIn(aug_22, D("600.00"))], forgone=forgone, left_on=NOV_29
    )
    assert more[-3:] == [
        CategoryAmount(NOV_29, "dues", D("-100.00")),
        CategoryAmount(NOV_29, CREDIT, D("-90.00")),
        CategoryAmount(NOV_29, FORFEITED, D("190.00")),
    ]
    assert sum(a.amount for a in more) == D("600.00")
    # Nothing paid ahead: nothing forfeited.
    exact = payment_categories(
        charges=charges, payments=[MoneyIn(aug_22, D("410.00"))], forgone=forgone, left_on=NOV_29
    )
    assert exact == [CategoryAmount(aug_22, "dues", D("410.00"))]


def test_an_installment_between_the_last_event_and_the_day_of_leaving_is_forgone_too():
    """Found by the club year on PostgreSQL: a member whose last event was Nov 14 but who was removed on Dec 20
    had paid on Aug 22 for the Dec 12 installment, which falls between the two: it was neither charged nor
    forgone, so August's split changed. It is forgone (the seat never owes it) and forfeited on Dec 20."""
    aug_22, dec_20 = dt.date(2026, 8, 22), dt.date(2026, 12, 20)
    charges = [Charge(aug_22, "dues", D("410.00"), "Dues")]
    forgone = [Charge(dt.date(2026, 12, 12), "dues", D("100.00"), "Dues for event 5")]
    split = payment_categories(
        charges=charges, payments=[MoneyIn(aug_22, D("510.00"))], forgone=forgone, left_on=dec_20
    )
    assert split == [
        CategoryAmount(aug_22, "dues", D("410.00")),
        CategoryAmount(aug_22, "dues", D("100.00")),
        CategoryAmount(dec_20, "dues", D("-100.00")),
        CategoryAmount(dec_20, FORFEITED, D("100.00")),
    ]


def test_a_reversal_after_the_member_left_takes_back_forfeited_money_first():
    aug_22, dec_3 = dt.date(2026, 8, 22), dt.date(2026, 12, 3)
    charges = [Charge(aug_22, "dues", D("410.00"), "Dues")]
    forgone = [Charge(dt.date(2026, 12, 12), "dues", D("100.00"), "Dues for event 5")]
    payments = [MoneyIn(aug_22, D("460.00")), MoneyIn(dec_3, D("-460.00"))]
    split = payment_categories(charges=charges, payments=payments, forgone=forgone, left_on=NOV_29)
    assert split[-2:] == [
        CategoryAmount(dec_3, FORFEITED, D("-50.00")),
        CategoryAmount(dec_3, "dues", D("-410.00")),
    ]
    assert sum(a.amount for a in split) == D("0.00")


# --- each way of leaving ---------------------------------------------------------------------------------


@pytest.mark.parametrize("how", HOW)
def test_a_departed_member_is_in_good_standing_the_day_before_and_not_from_the_day_they_left(
    how, club, season
):
    ann = club["ann"]
    assert good_standing(membership=ann, on=NOV_29)
    leave(how, club=club, season=season)
    ann.refresh_from_db()
    assert ann.left_on == NOV_29
    assert good_standing(membership=ann, on=dt.date(2026, 11, 28))
    assert not good_standing(membership=ann, on=NOV_29)
    assert not good_standing(membership=ann, on=DEC_EVENT)


@pytest.mark.parametrize("how", HOW)
def test_a_departed_members_home_page_shows_no_credit_no_good_standing_and_never_may_play(
    how, club, season, client
):
    # Ann pays the rest of the season: $100 paid ahead, and told she may play on Dec 12 (the case).
    pay(membership=club["ann"], day="2026-11-29", amount="50.00", actor=club["actor"])
    client.force_login(club["ann_user"])
    before = client.get(reverse("home")).content.decode()
    assert (
        "credit $100.00" in before
        and "You may play on <strong>Dec 12" in before
        and "Good standing" in before
    )

    leave(how, club=club, season=season)
    page = client.get(reverse("home")).content.decode()
    assert "You may play" not in page
    assert "credit $100.00" not in page
    assert "Not in good standing" in page
    assert "Left the club on <strong>Nov 29, 2026</strong>" in page
    statement = client.get(reverse("finance:me")).content.decode()
    assert "You may play" not in statement and "credit $100.00" not in statement


@pytest.mark.parametrize("how", HOW)
def test_a_departed_member_gets_no_dues_reminder(how, club, season):
    ann = club["ann"]
    # Before leaving Ann owes $50 more to play on Dec 12: she is reminded.
    assert ann in [d.membership for d in dues_reminders_plan(season=season, on=dt.date(2026, 12, 5)).due]
    buyer = leave(how, club=club, season=season)
    plan = dues_reminders_plan(season=season, on=dt.date(2026, 12, 5))
    assert ann not in [d.membership for d in plan.due]
    if buyer is not None:  # the buyer continues the seat's account (§2.5) and is reminded for it
        assert [d.membership for d in plan.due] == [buyer]


@pytest.mark.parametrize("how", HOW)
def test_no_payment_is_booked_for_a_departed_member_and_the_books_do_not_change(how, club, season, treasurer):
    ann = club["ann"]
    leave(how, club=club, season=season)
    ann.refresh_from_db()
    before = (Payment.objects.count(), account_balance(account=account_get(Account.DUES)))
    with pytest.raises(PaymentError, match=r"Ann Lee left the club on Nov 29, 2026 .*money given back"):
        payment_record(membership=ann, date=NOV_29, amount=D("50.00"), method="cash", actor=treasurer)
    assert (Payment.objects.count(), account_balance(account=account_get(Account.DUES))) == before


@pytest.mark.parametrize("how", HOW)
def test_the_payment_form_and_the_door_list_leave_a_departed_member_out(how, club, season, treasurer, client):
    ann = club["ann"]
    december = Event.objects.get(season=season, number=5)
    assert ann in [row.membership for row in event_door_list(event=december)]
    leave(how, club=club, season=season)
    ann.refresh_from_db()

    form = PaymentForm(season=season)
    assert ann not in form.fields["membership"].queryset
    posted = PaymentForm(
        {"membership": ann.pk, "date": "2026-11-29", "amount": "50.00", "method": "cash", "once": once()},
        season=season,
    )
    assert not posted.is_valid() and "membership" in posted.errors
    client.force_login(treasurer)
    page = client.get(reverse("finance:payments")).content.decode()
    assert f'<option value="{ann.pk}"' not in page

    assert ann not in [row.membership for row in event_door_list(event=december)]
    assert amount_owed(membership=ann, on=DEC_EVENT) == D("0.00")
    with pytest.raises(PaymentError, match="left the club"):
        door_payment_record(
            event=december, membership=ann, expected=D("50.00"), on=NOV_29, actor=treasurer, once=once()
        )
    assert not Payment.objects.filter(membership=ann, date__gte=NOV_29).exists()


@pytest.mark.parametrize("how", ("removed", "withdrew"))
def test_the_monthly_report_lists_a_departed_member_apart_with_no_credit_and_the_money_stays_income(
    how, club, season
):
    leave(how, club=club, season=season)
    report = monthly_report(year=2026, month=11, today=NOV_29)
    (row,) = report.departed
    assert row.name == "Ann Lee (left after event 4)"
    assert (row.left_on, row.how_left, row.good_standing) == (
        NOV_29,
        Membership.HowLeft(how).label,
        False,
    )
    assert (row.paid, row.balance, row.credit, row.forfeited) == (
        D("460.00"),
        D("-50.00"),
        D("0"),
        D("50.00"),
    )
    assert row not in report.credits and row not in report.owing
    assert report.credit_total == D("1000.00")  # the ten others' $100 each; none of Ann's $50
    # What Ann paid stays the club's: the ledger keeps all $460 as dues income, and the report's income
    # shows the $50 she had paid ahead as forfeited in the month she left.
    assert account_balance(account=account_get(Account.DUES)) == D("-5560.00")  # 10 × $510 + $460
    income = {r.label: (r.month, r.season) for r in report.income}
    assert income["Forfeited by members who left (§2.12)"] == (D("50.00"), D("50.00"))
    # The $50 she paid on Aug 22 paid ahead for the Dec 12 installment (dues, then); on Nov 29 it moves out
    # of dues: 10 × $500 + Ann's $400 (each $510 or $410 less the $10 admin fee) remain dues.
    assert income["Dues"] == (D("-50.00"), D("5400.00"))
    assert income["Admin fees"] == (D("0.00"), D("110.00"))
    # The Paid ahead table holds the ten others' $100 each ($510 paid less $410 charged through Nov 14) and
    # no row for Ann: what she had paid ahead is forfeited above, never a credit.
    assert {r.membership.pk: r.credit for r in report.credits} == {s.pk: D("100.00") for s in club["seats"]}
    assert report.income_total.season == D("5560.00")
    october = monthly_report(year=2026, month=10, today=NOV_29)
    assert [r.name for r in october.departed] == []


@pytest.mark.parametrize("how", ("removed", "withdrew"))
def test_a_member_leaving_does_not_change_an_earlier_months_income_by_category(how, club, season):
    """Found by the club year on PostgreSQL: a member withdrawing in December turned August's dues into
    "paid ahead" money, changing a closed month's report. August splits Ann's $460 as it stood that day."""

    def august():
        report = monthly_report(year=2026, month=8, today=NOV_29)
        return [(r.label, r.month, r.season) for r in report.income]

    before = august()
    leave(how, club=club, season=season)
    assert august() == before
    assert ("Dues", D("5450.00"), D("5450.00")) in before  # 10 × $500 + Ann's $460 − $10 admin fee


def test_the_report_page_shows_the_departed_member_in_their_own_table(club, season, client, treasurer):
    leave("removed", club=club, season=season)
    client.force_login(treasurer)
    page = client.get(reverse("finance:report", args=[2026, 11])).content.decode()
    assert "Members who left" in page
    assert "Removed by vote, Nov 29, 2026" in page
    assert "credit $50.00" not in page


def test_after_a_seat_sale_the_seller_has_no_row_of_their_own_and_the_buyer_continues_the_seat(club, season):
    buyer = leave("sold", club=club, season=season)
    report = monthly_report(year=2026, month=11, today=NOV_29)
    assert report.departed == []
    (row,) = [r for r in report.members if r.membership == buyer]
    assert row.name == "Bea Buyer (seat of Ann Lee)"
    account = dues_account(membership=club["ann"])
    assert account.holders[-1] == buyer and account.ended_on is None


@pytest.mark.parametrize("how", ("removed", "withdrew"))
def test_the_json_report_lists_a_departed_member_apart_with_what_they_forfeited(how, club, season):
    leave(how, club=club, season=season)
    out = season_report(season=season, as_of=NOV_29)
    assert out["departed"] == ["ann"]
    (ann,) = [row for row in out["dues"] if row["member"] == "ann"]
    assert (ann["good_standing"], ann["forfeited"], ann["paid"]) == (False, "50.00", "460.00")
    accounts = season_dues_accounts(season=season)
    assert [a.ended_on for a in accounts if a.holder == club["ann"]] == [NOV_29]
