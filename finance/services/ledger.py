"""The double-entry ledger (SPEC §8): transactions of entries that add up to zero; nothing edited or deleted.

``entries_balance`` is the pure rule; ``transaction_post`` and ``transaction_reverse`` are the only writers.
"""

import datetime as dt
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from decimal import Decimal

from django.db import IntegrityError, transaction
from django.db.models import Sum

from finance.models import Account, Entry, Transaction
from ncpc.audit import Actor, actor_user, audit_record
from ncpc.errors import ConcurrentChange, NcpcError
from ncpc.money import ZERO, quantize


class LedgerError(NcpcError):
    pass


class UnbalancedTransaction(LedgerError):
    pass


class AlreadyReversed(LedgerError):
    pass


# code, name, kind, position: the accounts the club's books need.
STANDARD_ACCOUNTS = (
    (Account.CHECKING, "Club checking", Account.Kind.ASSET, 1),
    (Account.ESCROW, "WSOP escrow", Account.Kind.ASSET, 2),
    (Account.CASH, "Cash box", Account.Kind.ASSET, 3),
    (Account.DUES, "Dues and fees received", Account.Kind.INCOME, 10),
    (Account.OTHER_INCOME, "Other income", Account.Kind.INCOME, 11),
    (Account.PAYOUTS, "Event payouts", Account.Kind.EXPENSE, 20),
    (Account.WSOP_EXPENSES, "WSOP entries and expenses", Account.Kind.EXPENSE, 21),
    (Account.SUPPLIES, "Supplies (cards) and other expenses", Account.Kind.EXPENSE, 22),
    (Account.OPENING, "Opening balances", Account.Kind.EQUITY, 30),
)
ASSET_CODES = (Account.CHECKING, Account.ESCROW, Account.CASH)


@dataclass(frozen=True)
class EntryLine:
    account_code: str
    amount: Decimal  # debit positive, credit negative
    membership_id: int | None = None
    memo: str = ""


def entries_balance(*, lines: Sequence[EntryLine]) -> None:
    """Raise unless the lines make a valid transaction: at least two, none zero, adding up to zero."""
    if len(lines) < 2:
        raise UnbalancedTransaction("A transaction needs at least two entries.")
    for line in lines:
        if quantize(line.amount) != line.amount:
            raise UnbalancedTransaction(f"{line.amount} is not an amount in cents.")
        if line.amount == 0:
            raise UnbalancedTransaction("An entry of zero moves nothing.")
    total = sum((line.amount for line in lines), ZERO)
    if total != 0:
        raise UnbalancedTransaction(f"The entries add up to {total}, not zero; nothing was posted.")


def accounts_ensure() -> dict[str, Account]:
    """The standard accounts, created on first use (by the first posting: a command, never a page)."""
    accounts = {a.code: a for a in Account.objects.filter(code__in=[c for c, *_ in STANDARD_ACCOUNTS])}
    for code, name, kind, position in STANDARD_ACCOUNTS:
        if code not in accounts:
            accounts[code], _ = Account.objects.get_or_create(
                code=code, defaults={"name": name, "kind": kind, "position": position}
            )
    return accounts


def accounts_standard(saved: Iterable[Account] | None = None) -> dict[str, Account]:
    """The standard accounts for a page to show, created by nothing (a GET never writes): one that does not
    exist yet (nothing was ever posted to it) is an unsaved stand-in with its standard name and no ``pk``.
    ``saved``: the accounts already read, if the caller has them."""
    if saved is None:
        saved = Account.objects.filter(code__in=[c for c, *_ in STANDARD_ACCOUNTS])
    found = {a.code: a for a in saved}
    return {
        code: found.get(code) or Account(code=code, name=name, kind=kind, position=position)
        for code, name, kind, position in STANDARD_ACCOUNTS
    }


def account_get(code: str) -> Account:
    return accounts_ensure().get(code) or Account.objects.get(code=code)


@transaction.atomic
def transaction_post(
    *,
    date: dt.date,
    kind: str,
    memo: str,
    lines: Sequence[EntryLine],
    actor: Actor,
    key: str | None = None,
    reverses: Transaction | None = None,
    reason: str = "",
) -> Transaction:
    entries_balance(lines=lines)
    accounts = accounts_ensure()
    missing = {line.account_code for line in lines} - set(accounts)
    if missing:
        accounts.update({a.code: a for a in Account.objects.filter(code__in=missing)})
    user = actor_user(actor)
    try:
        with transaction.atomic():
            txn = Transaction.objects.create(
                date=date,
                kind=kind,
                memo=memo[:200],
                key=key,
                reverses=reverses,
                reason=reason,
                created_by=user,
            )
    except IntegrityError:
        raise ConcurrentChange(
            "This was posted already (perhaps by another officer); reload the page."
        ) from None
    Entry.objects.bulk_create(
        Entry(
            transaction=txn,
            account=accounts[line.account_code],
            amount=line.amount,
            membership_id=line.membership_id,
            memo=line.memo[:200],
        )
        for line in lines
    )
    audit_record(
        actor=actor,
        action=f"finance.transaction.{kind}",
        summary=f"Posted #{txn.pk} {date}: {memo}",
        target=txn,
        reason=reason,
        data={"entries": [[line.account_code, str(line.amount)] for line in lines]},
    )
    return txn


@transaction.atomic
def transaction_reverse(*, txn: Transaction, date: dt.date, reason: str, actor: Actor) -> Transaction:
    """Post the mirror image of ``txn``; both stay in the books. A transaction is reversed at most once."""
    reason = (reason or "").strip()
    if not reason:
        raise LedgerError("Say why the transaction is reversed.", field="reason")
    txn = Transaction.objects.select_for_update().get(pk=txn.pk)
    if Transaction.objects.filter(reverses=txn).exists():
        raise AlreadyReversed(f"Transaction #{txn.pk} was reversed already.")
    if txn.reverses_id is not None:
        raise LedgerError("A reversal cannot itself be reversed; post a new transaction instead.")
    if date < txn.date:
        raise LedgerError("A reversal cannot be dated before the transaction it reverses.", field="date")
    lines = [
        EntryLine(account_code=e.account.code, amount=-e.amount, membership_id=e.membership_id, memo=e.memo)
        for e in txn.entries.select_related("account")
    ]
    return transaction_post(
        date=date,
        kind=Transaction.Kind.REVERSAL,
        memo=f"Reversal of #{txn.pk}: {txn.memo}"[:200],
        lines=lines,
        actor=actor,
        reverses=txn,
        reason=reason,
    )


def account_balance(*, account: Account, on: dt.date | None = None, before: dt.date | None = None) -> Decimal:
    entries = Entry.objects.filter(account=account)
    if on is not None:
        entries = entries.filter(transaction__date__lte=on)
    if before is not None:
        entries = entries.filter(transaction__date__lt=before)
    return quantize(entries.aggregate(total=Sum("amount"))["total"])


def posted_under_key(*, prefix: str) -> Transaction | None:
    """The live (not reversed) transaction posted under an idempotency key prefix, if any."""
    return (
        Transaction.objects.filter(key__startswith=prefix, reversed_by__isnull=True).order_by("-pk").first()
    )


def next_key(*, prefix: str) -> str:
    """A fresh key for a posting that may be redone after a reversal: ``prefix``, then ``prefix#2`` …

    Prefixes end with ``:`` so that ``payout:event:1:`` never matches event 12.
    """
    count = Transaction.objects.filter(key__startswith=prefix).count()
    return prefix if count == 0 else f"{prefix}#{count + 1}"


@transaction.atomic
def transfer_post(
    *, date: dt.date, from_code: str, to_code: str, amount: Decimal, memo: str, actor: Actor
) -> Transaction:
    """Money moved between two accounts: a bank deposit of the cash box, cash drawn for payouts, other
    income received, an opening balance."""
    if from_code == to_code:
        raise LedgerError("Pick two different accounts.", field="to_account")
    if amount is None or amount <= 0:
        raise LedgerError("The amount must be positive.", field="amount")
    if not memo.strip():
        raise LedgerError("Say what the money is for.", field="memo")
    kind = Transaction.Kind.OPENING if from_code == Account.OPENING else Transaction.Kind.TRANSFER
    return transaction_post(
        date=date,
        kind=kind,
        memo=memo.strip(),
        lines=[EntryLine(to_code, amount), EntryLine(from_code, -amount)],
        actor=actor,
    )
