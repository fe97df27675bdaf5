"""Finance test helpers: seats with payments."""

import datetime as dt
from decimal import Decimal

from finance.services.payments import payment_record
from tests.factories import MembershipFactory, UserFactory, member_user


def seat(*, season, key=None, **kwargs):
    kwargs.setdefault("person__key", key) if key else None
    return MembershipFactory(season=season, **kwargs)


def pay(*, membership, day: str, amount: str, actor=None, method="cash", reference=""):
    return payment_record(
        membership=membership,
        date=dt.date.fromisoformat(day),
        amount=Decimal(amount),
        method=method,
        reference=reference,
        actor=actor or UserFactory(username="treasurer-bot"),
    ).record


__all__ = ["member_user", "pay", "seat"]
