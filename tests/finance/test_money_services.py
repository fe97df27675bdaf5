"""Payments, good standing, seat transfers, payouts, escrow, checks and reminders against the database."""

import datetime as dt
from decimal import Decimal

import pytest

from events.placings import Placing
from finance.models import Account, Disbursement, DuesReminder, Payment, Transaction
from finance.selectors.dues import dues_account, good_standing
from finance.selectors.payouts import event_payout_lines
from finance.services.checks import disbursement_approve, disbursement_create
from finance.services.escrow import WsopError, wsop_escrow_move, wsop_result_record, wsop_result_split
from finance.services.event_payouts import event_payout_post
from finance.services.ledger import account_balance, account_get
from finance.services.payments import PaymentError, late_fee_waive, payment_record, payment_reverse
from finance.services.payouts import PayoutTableMissing
from finance.services.reminders import dues_reminders_send
from members.models import Membership, Vote
from members.services.votes import vote_record
from ncpc.core.errors import NotAllowed
from tests.factories import MembershipFactory, PersonFactory, once
from tests.finance.factories import opening_balance, pay

D = Decimal
pytestmark = pytest.mark.django_db


def day(text):
    return dt.date.fromisoformat(text)


def test_paying_at_the_door_on_the_event_date_keeps_a_member_in_good_standing(season, treasurer):
    seat = MembershipFactory(season=season)
    assert not good_standing(membership=seat, on=day("2026-08-22"))
    pay(membership=seat, day="2026-08-22", amount="110.00", actor=treasurer)
    assert good_standing(membership=seat, on=day("2026-08-22"))
    assert not good_standing(membership=seat, on=day("2026-09-26"))
    pay(membership=seat, day="2026-09-26", amount="100.00", actor=treasurer)
    assert good_standing(membership=seat, on=day("2026-09-26"))


def test_a_form_sent_twice_books_once_and_the_second_result_says_replayed(season, treasurer):
    seat = MembershipFactory(season=season)
    key = once()
    values = {"membership": seat, "date": day("2026-08-22"), "amount": D("110.00"), "method": "cash"}
    first = payment_record(**values, actor=treasurer, once=key)
    again = payment_record(**values, actor=treasurer, once=key)
    assert (first.replayed, again.replayed) == (False, True)
    assert first.record.pk == again.record.pk and again.seats_changed == ()
    assert Payment.objects.filter(membership=seat).count() == 1
    vote = {"kind": Vote.Kind.OTHER, "subject": "Buy cards", "held_on": day("2026-08-22"), "yes": 9}
    voted = vote_record(**vote, members_eligible=16, actor=treasurer, once=key)
    voted_again = vote_record(**vote, members_eligible=16, actor=treasurer, once=key)
    assert (voted.replayed, voted_again.replayed, voted_again.record) == (False, True, voted.record)
    assert Vote.objects.count() == 1


def test_a_payment_posts_cash_to_the_cash_box_and_a_check_to_checking(season, treasurer):
    seat = MembershipFactory(season=season)
    pay(membership=seat, day="2026-08-22", amount="110.00", actor=treasurer, method="cash")
    pay(
        membership=seat, day="2026-09-26", amount="100.00", actor=treasurer, method="check", reference="#1044"
    )
    assert account_balance(account=account_get(Account.CASH)) == D("110.00")
    assert account_balance(account=account_get(Account.CHECKING)) == D("100.00")
    assert account_balance(account=account_get(Account.DUES)) == D("-210.00")


def test_a_reversed_payment_stays_on_the_statement_and_no_longer_counts(season, treasurer):
    seat = MembershipFactory(season=season)
    payment = pay(membership=seat, day="2026-08-20", amount="110.00", actor=treasurer, method="check")
    payment_reverse(payment=payment, date=day("2026-09-01"), reason="Check bounced", actor=treasurer)
    account = dues_account(membership=seat)
    assert account.status(on=day("2026-08-31")).balance == D("0.00")
    assert account.status(on=day("2026-09-01")).balance == D("110.00")
    lines = account.statement(on=day("2026-09-01"))
    assert [line.payment for line in lines if line.payment is not None] == [D("110.00"), D("-110.00")]
    assert Payment.objects.count() == 1 and Transaction.objects.count() == 2
    with pytest.raises(PaymentError, match="reversed already"):
        payment_reverse(payment=payment, date=day("2026-09-02"), reason="again", actor=treasurer)


def test_the_statement_describes_each_payment_and_reversal_and_the_season_accounts_add_up_the_same(
    season, treasurer
):
    """Only the statement shows a payment's text (the accounts the reports add up carry none): who paid for a
    sold seat, the method and reference, the receipt; a reversal with its reason."""
    from finance.selectors.dues import season_dues_accounts

    seller = MembershipFactory(
        season=season,
        left_after_event=2,
        how_left=Membership.HowLeft.SOLD,
        person__first_name="Sal",
        person__last_name="Seller",
    )
    buyer = MembershipFactory(
        season=season, first_event=3, seat_from=seller, person__first_name="Bea", person__last_name="Buyer"
    )
    first = pay(
        membership=seller,
        day="2026-08-22",
        amount="110.00",
        actor=treasurer,
        method="check",
        reference="1043",
    )
    bounced = pay(membership=buyer, day="2026-10-24", amount="100.00", actor=treasurer)
    payment_reverse(payment=bounced, date=day("2026-10-30"), reason="Counted twice", actor=treasurer)
    account = dues_account(membership=buyer)
    texts = [
        (line.description, line.payment) for line in account.statement(on=day("2026-10-31")) if line.payment
    ]
    assert texts == [
        (f"Payment by Sal Seller, check 1043 (receipt #{first.pk})", D("110.00")),
        (f"Payment by Bea Buyer, cash (receipt #{bounced.pk})", D("100.00")),
        ("Payment of 2026-10-24 reversed: Counted twice", D("-100.00")),
    ]
    alone = MembershipFactory(season=season)
    own = pay(membership=alone, day="2026-09-01", amount="50.00", actor=treasurer)
    lines = dues_account(membership=alone).statement(on=day("2026-09-30"))
    assert [line.description for line in lines if line.payment] == [f"Payment, cash (receipt #{own.pk})"]
    # The season's accounts (what the reports add up) have the same money, without the texts.
    by_holder = {a.holder.pk: a for a in season_dues_accounts(season=season)}
    assert [(m.date, m.amount, m.description) for m in by_holder[buyer.pk].payments] == [
        (day("2026-08-22"), D("110.00"), ""),
        (day("2026-10-24"), D("100.00"), ""),
        (day("2026-10-30"), D("-100.00"), ""),
    ]
    assert by_holder[buyer.pk].statement(on=day("2026-10-31")) == account.statement(on=day("2026-10-31"))


def test_the_statement_writes_the_charges_amounts_as_money(season):
    """The charges' texts show amounts as every page does ("$10.00"), not as stored ("10.00"): a founding
    seat's first installment includes the admin fee (§2.6, §2.8); a seat from event 4 owes dues for events
    4–10 at $50 each and no admin fee (§2.5)."""
    founder = MembershipFactory(season=season)
    late = MembershipFactory(season=season, first_event=4)
    founding = [line.description for line in dues_account(membership=founder).statement(on=day("2026-08-31"))]
    assert founding == ["Dues installment, event 1 (includes the $10.00 admin fee)"]
    joined = [line.description for line in dues_account(membership=late).statement(on=day("2026-11-30"))]
    assert joined == ["Dues for events 4–10 (7 × $50.00)"]


def test_a_payment_outside_the_season_is_refused(season, treasurer):
    seat = MembershipFactory(season=season)
    with pytest.raises(PaymentError, match="must fall in 2026-27"):
        pay(membership=seat, day="2027-08-01", amount="10.00", actor=treasurer)


def test_the_buyer_of_a_seat_owes_what_the_seller_had_not_paid(season, treasurer):
    seller = MembershipFactory(season=season, left_after_event=2, how_left=Membership.HowLeft.SOLD)
    pay(membership=seller, day="2026-08-22", amount="110.00", actor=treasurer)
    pay(membership=seller, day="2026-09-26", amount="100.00", actor=treasurer)
    buyer = MembershipFactory(season=season, first_event=3, seat_from=seller)
    account = dues_account(membership=buyer)
    assert account.status(on=day("2027-07-31")).balance == D("300.00") + 8 * D("25.00")
    assert not good_standing(membership=buyer, on=day("2026-10-24"))
    pay(membership=buyer, day="2026-10-24", amount="100.00", actor=treasurer)
    assert good_standing(membership=buyer, on=day("2026-10-24"))
    assert dues_account(membership=seller).holders == [seller, buyer]


def test_the_treasurer_waives_a_late_fee_with_a_reason(season, treasurer):
    seat = MembershipFactory(season=season)
    with pytest.raises(PaymentError, match="No late fee"):
        late_fee_waive(
            membership=seat, fee_date=day("2026-11-12"), on=day("2026-12-20"), reason="x", actor=treasurer
        )
    with pytest.raises(PaymentError, match="Say why"):
        late_fee_waive(
            membership=seat, fee_date=day("2026-12-12"), on=day("2026-12-20"), reason="", actor=treasurer
        )
    late_fee_waive(
        membership=seat, fee_date=day("2026-12-12"), on=day("2026-12-20"), reason="Hospital", actor=treasurer
    )
    account = dues_account(membership=seat)
    assert account.status(on=day("2026-12-19")).late_fees == D("25.00")
    assert account.status(on=day("2026-12-20")).late_fees == D("0.00")


def test_paying_out_an_event_posts_one_cash_transaction_even_when_asked_twice(season, treasurer, monkeypatch):
    seats = [MembershipFactory(season=season) for _ in range(15)]  # 16 with the treasurer
    event = season.events.get(number=1)
    result = [
        Placing(place=i, membership_id=seat.pk, member_key=seat.person.key) for i, seat in enumerate(seats, 1)
    ]
    monkeypatch.setattr("events.selectors.event_placings", lambda *, event: result)
    lines = event_payout_lines(event=event)
    assert [line.amount for line in lines] == [D("145"), D("95"), D("70"), D("50")]
    opening_balance(code=Account.CASH, amount="400.00", actor=treasurer)  # SPEC §16.3: the prizes' cash
    first = event_payout_post(event=event, actor=treasurer)
    second = event_payout_post(event=event, actor=treasurer)
    assert (first.replayed, second.replayed) == (False, True)
    assert first.record.pk == second.record.pk
    assert Transaction.objects.filter(kind=Transaction.Kind.PAYOUT).count() == 1
    assert account_balance(account=account_get(Account.CASH)) == D("40.00")


def test_an_event_with_a_member_count_missing_from_the_table_raises_a_clear_error(season, monkeypatch):
    seat = MembershipFactory(season=season)  # one member: no row
    monkeypatch.setattr(
        "events.selectors.event_placings",
        lambda *, event: [Placing(place=1, membership_id=seat.pk, member_key=seat.person.key)],
    )
    with pytest.raises(PayoutTableMissing, match="no row for 1 members"):
        event_payout_lines(event=season.events.get(number=1))


def test_an_event_without_results_has_no_payout_lines(season):
    assert event_payout_lines(event=season.events.get(number=1)) == []


def test_the_wsop_money_moves_to_escrow_once(season, treasurer):
    for _ in range(15):
        MembershipFactory(season=season)  # 16 members with the treasurer → 2 prizes, $4,400 to escrow
    opening_balance(code=Account.CHECKING, amount="5000.00", actor=treasurer)
    first = wsop_escrow_move(season=season, date=day("2026-09-01"), actor=treasurer)
    again = wsop_escrow_move(season=season, date=day("2026-09-02"), actor=treasurer)
    assert first.pk == again.pk
    assert account_balance(account=account_get(Account.ESCROW)) == D("4400.00")
    assert account_balance(account=account_get(Account.CHECKING)) == D("600.00")


def test_a_check_is_issued_by_the_third_officers_approval_and_one_officer_approving_twice_does_nothing_4_7(
    season, treasurer, president, vice_president, member
):
    opening_balance(code=Account.CHECKING, amount="100.00", actor=treasurer)
    check = disbursement_create(
        date=day("2026-11-20"),
        payee="Card Shop",
        amount=D("48.00"),
        memo="Cards for events 5–8",
        from_code=Account.CHECKING,
        to_code=Account.SUPPLIES,
        check_number="1001",
        signers=(president.person, treasurer.person),
        actor=treasurer,
    ).record
    disbursement_approve(disbursement=check, actor=treasurer, on=day("2026-11-20"))
    check = disbursement_approve(disbursement=check, actor=treasurer, on=day("2026-11-20"))
    assert check.status == Disbursement.Status.PENDING
    assert check.approvals.count() == 1
    assert account_balance(account=account_get(Account.CHECKING)) == D("100.00")
    with pytest.raises(NotAllowed):
        disbursement_approve(disbursement=check, actor=member, on=day("2026-11-20"))
    check = disbursement_approve(disbursement=check, actor=vice_president, on=day("2026-11-21"))
    assert check.status == Disbursement.Status.PENDING  # two approvals are not a quorum of three
    assert account_balance(account=account_get(Account.CHECKING)) == D("100.00")
    check = disbursement_approve(disbursement=check, actor=president, on=day("2026-11-22"))
    assert check.status == Disbursement.Status.ISSUED
    assert check.issued_on == day("2026-11-22")
    assert account_balance(account=account_get(Account.CHECKING)) == D("52.00")
    assert (check.signer_1, check.signer_2) == (president.person, treasurer.person)
    disbursement_approve(disbursement=check, actor=president, on=day("2026-11-22"))
    assert Transaction.objects.filter(kind=Transaction.Kind.CHECK).count() == 1


def going(monkeypatch, **statuses):
    """The standings' WSOP statuses as the test says (membership → status); everyone else "none"."""
    by_pk = {m.pk: status for m, status in statuses.values()}
    monkeypatch.setattr("finance.hooks.wsop_statuses.answer", lambda *, season: by_pk)


def test_recorded_wsop_winnings_are_split_among_the_roster_at_the_last_event(season, treasurer, monkeypatch):
    seats = [MembershipFactory(season=season) for _ in range(10)]  # 11 with the treasurer
    rep = seats[0]
    going(monkeypatch, rep=(rep, "qualified"))
    result = wsop_result_record(
        season=season, representative=rep, gross=D("3600.00"), tips=D("50.00"), actor=treasurer
    ).record
    split = wsop_result_split(result=result)
    assert split.representative == D("2130.00")
    assert set(split.equal_shares.values()) == {D("142.00")}  # 1420 / 10 others


def test_dues_reminders_go_to_members_who_must_pay_to_play_and_are_kept(
    season, treasurer, django_capture_on_commit_callbacks, mailoutbox
):
    owes = MembershipFactory(season=season, person=PersonFactory(email="owes@example.org"))
    paid = MembershipFactory(season=season)
    pay(membership=paid, day="2026-08-22", amount="510.00", actor=treasurer)
    pay(membership=treasurer.person.memberships.get(), day="2026-08-22", amount="510.00", actor=treasurer)
    with django_capture_on_commit_callbacks(execute=True):
        sent = dues_reminders_send(season=season, on=day("2026-12-05"), actor=treasurer)
    assert [r.membership for r in sent] == [owes]
    # $410 charged by Dec 5; $510 to pay to play on Dec 12.
    assert (DuesReminder.objects.get().balance, DuesReminder.objects.get().to_play) == (
        D("410.00"),
        D("510.00"),
    )
    assert len(mailoutbox) == 1
    assert mailoutbox[0].to == ["owes@example.org"]
    assert "$510.00" in mailoutbox[0].body


def test_spec_15_2_a_seat_bought_from_event_five_gets_the_one_percent_benefit_not_an_equal_share(
    season, treasurer, monkeypatch
):
    seats = [MembershipFactory(season=season) for _ in range(10)]  # 11 with the treasurer
    seats[1].left_after_event = 4
    seats[1].save(update_fields=["left_after_event"])
    buyer = MembershipFactory(season=season, first_event=5, seat_from=seats[1])
    going(monkeypatch, rep=(seats[0], "qualified"))
    result = wsop_result_record(
        season=season, representative=seats[0], gross=D("3600.00"), tips=D("50.00"), actor=treasurer
    ).record
    split = wsop_result_split(result=result)
    # Net 3,550: 40% = 1,420.00; 1% of net (35.50) to the buyer, who joined at event 5 (not WSOP-eligible);
    # the other 1,384.50 equally among the 9 other members on the roster at event 10: 153.83 each (153.8333
    # floored), 9 × 153.83 = 1,384.47; the 0.03 left over goes to the representative.
    assert split.late_joiner_shares == {buyer.person.key: D("35.50")}
    assert set(split.equal_shares.values()) == {D("153.83")}
    assert len(split.equal_shares) == 9
    assert split.representative == D("2130.03")


def test_spec_15_3_winnings_are_recorded_only_for_a_member_who_goes(season, treasurer, monkeypatch):
    qualifier, declined, replacement, other = (MembershipFactory(season=season) for _ in range(4))
    going(
        monkeypatch,
        q=(qualifier, "qualified"),
        d=(declined, "declined"),
        r=(replacement, "replacement"),
        o=(other, "none"),
    )
    with pytest.raises(WsopError, match="not going to the WSOP"):
        wsop_result_record(
            season=season, representative=other, gross=D("3600.00"), tips=D("0.00"), actor=treasurer
        )
    with pytest.raises(WsopError, match="did not decline"):
        wsop_result_record(
            season=season,
            representative=replacement,
            gross=D("3600.00"),
            tips=D("0.00"),
            declined=other,
            actor=treasurer,
        )
    with pytest.raises(WsopError, match="replaced nobody"):
        wsop_result_record(
            season=season,
            representative=qualifier,
            gross=D("3600.00"),
            tips=D("0.00"),
            declined=declined,
            actor=treasurer,
        )
    result = wsop_result_record(
        season=season,
        representative=replacement,
        gross=D("3600.00"),
        tips=D("50.00"),
        declined=declined,
        actor=treasurer,
    ).record
    assert wsop_result_split(result=result).declined_share == {
        declined.person.key: D("106.50")
    }  # 3% of 3,550


def test_spec_15_3_the_winnings_form_offers_only_members_who_go(season, monkeypatch):
    from finance.forms import WsopResultForm

    qualifier, declined, other = (MembershipFactory(season=season) for _ in range(3))
    going(monkeypatch, q=(qualifier, "qualified"), d=(declined, "declined"), o=(other, "none"))
    form = WsopResultForm(season=season)
    assert list(form.fields["representative"].queryset) == [qualifier]
    assert list(form.fields["declined"].queryset) == [declined]
    posted = WsopResultForm({"representative": other.pk, "gross": "3600.00", "tips": "0"}, season=season)
    assert not posted.is_valid() and "representative" in posted.errors
