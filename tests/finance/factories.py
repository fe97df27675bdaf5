"""Finance test helpers: seats with payments."""

import datetime as dt
from decimal import Decimal

from finance.models import Account, Transaction
from finance.services.ledger import EntryLine, transaction_post
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


def opening_balance(*, code: str = Account.CHECKING, amount: str, day: str = "2026-08-01", actor=None):
    """What an asset account held when the books started (SPEC §16.6), so that checks, transfers and payouts
    have money to move (SPEC §16.3: no account goes below zero)."""
    return transaction_post(
        date=dt.date.fromisoformat(day),
        kind=Transaction.Kind.OPENING,
        memo=f"Opening balance of {code}",
        lines=[EntryLine(code, Decimal(amount)), EntryLine(Account.OPENING, -Decimal(amount))],
        actor=actor,
    )


__all__ = ["member_user", "opening_balance", "pay", "seat"]
