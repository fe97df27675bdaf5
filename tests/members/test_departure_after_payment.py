"""No payment is booked after a member left (SPEC §16.2), so a departure is not dated back before a payment
that stands either: it would leave a payment dated after the member left. A payment earlier on the day of
leaving stands (paid at the door, withdrew that evening); a reversed payment does not hold the departure back."""

import datetime as dt
from decimal import Decimal

import pytest

from finance.models import Payment
from finance.services.ledger import transaction_reverse
from finance.services.payments import payment_record
from members.services.seats import member_withdraw
from ncpc.core.errors import NcpcError
from tests.factories import MembershipFactory

pytestmark = pytest.mark.django_db

NOV_20 = dt.date(2026, 11, 20)


@pytest.fixture
def ann(season, treasurer, today):
    ann = MembershipFactory(season=season, person__first_name="Ann", person__last_name="Able")
    payment_record(membership=ann, date=NOV_20, amount=Decimal("110.00"), method="cash", actor=treasurer)
    return ann


def test_a_withdrawal_dated_before_a_payment_is_refused_naming_it(ann):
    with pytest.raises(NcpcError) as refused:
        member_withdraw(membership=ann, on=dt.date(2026, 11, 15))
    assert str(refused.value) == (
        "Ann Able has a payment dated Nov 20, 2026, after Nov 15, 2026: a member pays nothing once he has left. "
        "Date the departure on or after Nov 20, 2026, or reverse that payment first."
    )
    assert refused.value.field == "on"
    ann.refresh_from_db()
    assert ann.left_on is None


def test_a_withdrawal_the_day_of_the_payment_is_accepted(ann):
    member_withdraw(membership=ann, on=NOV_20)
    ann.refresh_from_db()
    assert ann.left_on == NOV_20


def test_a_reversed_payment_does_not_hold_the_departure_back(ann, treasurer, today):
    payment = Payment.objects.get(membership=ann)
    transaction_reverse(txn=payment.transaction, date=today, reason="bounced", actor=treasurer)
    member_withdraw(membership=ann, on=dt.date(2026, 11, 15))
    ann.refresh_from_db()
    assert ann.left_on == dt.date(2026, 11, 15)
