"""Demo payment history for `manage.py load_demo`: most members pay at the door, some late, one never.

Idempotent: each payment carries a demo reference and is recorded only once. Only payments dated up to
today are made, so the history looks real on any day of the season.
"""

import datetime as dt
from decimal import Decimal

from finance.models import Account, Payment, Transaction
from finance.selectors.payouts import event_payout_lines
from finance.services.escrow import wsop_escrow_move
from finance.services.event_payouts import event_payout_post
from finance.services.ledger import account_balance, account_get, transfer_post
from finance.services.payments import payment_record
from members.models import Membership
from ncpc.core.clock import club_today
from ncpc.core.errors import NcpcError

D = Decimal
# key → list of (event number whose date the payment is tied to, days after that date, amount).
ON_TIME = [(1, 0, "110.00"), (2, 0, "100.00"), (3, 0, "100.00"), (4, 0, "100.00"), (5, 0, "100.00")]
PLANS = {
    "rick": [(1, -20, "510.00")],  # pays the season up front, by check
    "vera": ON_TIME,
    "tom": [(1, -10, "510.00")],
    "ann": ON_TIME,
    "bob": [(1, 0, "110.00"), (2, 0, "100.00"), (3, 0, "100.00"), (4, 0, "100.00"), (5, 24, "125.00")],
    "cat": ON_TIME,
    # pays the December installment nine days late: one late fee
    "dan": [(1, 0, "110.00"), (2, 0, "100.00"), (3, 0, "100.00"), (4, 0, "100.00"), (5, 9, "100.00")],
    "eve": ON_TIME,
    "gus": [(1, 0, "110.00"), (2, 0, "100.00"), (3, 0, "100.00")],  # stops paying: late fees from December
    "hal": [(1, -5, "310.00"), (4, 0, "200.00")],
    "ivy": ON_TIME,
    "joe": [(1, 0, "110.00"), (3, 0, "200.00"), (6, 5, "200.00")],  # late payer
    "kim": ON_TIME,
    "lou": [(1, 0, "110.00"), (2, 0, "100.00"), (3, 0, "100.00"), (4, 0, "100.00"), (5, 0, "100.00")],
    "max": [(1, 0, "110.00"), (3, 0, "200.00"), (4, 0, "100.00"), (5, 0, "100.00")],  # missed event 2's
    # "ned" never pays.
}


def demo_payments_load(*, season, people) -> int:
    today = club_today()
    dates = dict(season.events.values_list("number", "date"))
    treasurer = next((p.user for p in people if p.key == "tom" and p.user_id), None)
    made = 0
    for person in people:
        membership = Membership.objects.filter(person=person, season=season).first()
        if membership is None:
            continue
        for index, (number, offset, amount) in enumerate(PLANS.get(person.key, [])):
            day = dates[number] + dt.timedelta(days=offset)
            if day > today or not season.start <= day <= season.end:
                continue
            reference = f"demo-{index + 1}"
            if Payment.objects.filter(membership=membership, reference=reference).exists():
                continue
            payment_record(
                membership=membership,
                date=day,
                amount=D(amount),
                method="check" if D(amount) >= 200 or person.key == "rick" else "cash",
                reference=reference,
                actor=treasurer,
            )
            made += 1
    return made


DEPOSIT_MEMO = "Demo: cash box deposited at the bank"


def demo_bank_load(*, season, people) -> None:
    """Deposit the cash box once and move the WSOP money to escrow (at the November event); pay out the cash
    prizes of every event that has results, drawing the cash from checking first."""
    today = club_today()
    day = season.events.get(number=4).date
    if today < day:
        return
    treasurer = next((p.user for p in people if p.key == "tom" and p.user_id), None)
    if not Transaction.objects.filter(memo=DEPOSIT_MEMO).exists():
        cash = account_balance(account=account_get(Account.CASH), on=day)
        if cash > 0:
            transfer_post(
                date=day,
                from_code=Account.CASH,
                to_code=Account.CHECKING,
                amount=cash,
                memo=DEPOSIT_MEMO,
                actor=treasurer,
            )
    wsop_escrow_move(season=season, date=day, actor=treasurer)
    demo_payouts_load(season=season, actor=treasurer)


def demo_payouts_load(*, season, actor) -> None:
    for event in season.events.filter(date__lte=club_today()):
        try:
            lines = event_payout_lines(event=event)
        except NcpcError:
            continue
        if not lines:
            continue
        memo = f"Demo: cash drawn for event {event.number} prizes"
        if not Transaction.objects.filter(memo=memo).exists():
            total = sum((line.amount for line in lines), Decimal(0))
            transfer_post(
                date=event.date,
                from_code=Account.CHECKING,
                to_code=Account.CASH,
                amount=total,
                memo=memo,
                actor=actor,
            )
        event_payout_post(event=event, actor=actor)


def demo_context_payments(context: dict) -> None:
    context["payments"] = demo_payments_load(season=context["season"], people=context["people"])


def demo_context_bank(context: dict) -> None:
    demo_payments_load(season=context["season"], people=context["people"])  # no-op when step 25 ran
    demo_bank_load(season=context["season"], people=context["people"])


# Payments go in before the night's results (order 30), so results entry sees who was in good standing;
# the bank deposit, the escrow move and the event payouts need the results, so they come at 40.
DEMO_STEPS = [(25, demo_context_payments), (40, demo_context_bank)]
