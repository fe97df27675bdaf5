"""The ledger (SPEC §8): entries add up to zero, nothing is edited, corrections are reversals."""

import datetime as dt
from decimal import Decimal

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from finance.models import Account, Entry, Transaction
from finance.selectors.ledger import account_balances
from finance.services.ledger import (
    AlreadyReversed,
    EntryLine,
    LedgerError,
    UnbalancedTransaction,
    account_balance,
    account_get,
    entries_balance,
    transaction_post,
    transaction_reverse,
    transfer_post,
)
from ncpc.core.models import AuditEntry
from tests.factories import UserFactory
from tests.finance.factories import opening_balance

D = Decimal
CODES = [Account.CHECKING, Account.ESCROW, Account.CASH, Account.DUES, Account.PAYOUTS]
amounts = st.decimals(min_value=D("-100000"), max_value=D("100000"), places=2).filter(lambda a: a != 0)


@given(st.lists(st.tuples(st.sampled_from(CODES), amounts), min_size=1, max_size=8))
def test_lines_are_accepted_exactly_when_they_add_up_to_zero(pairs):
    lines = [EntryLine(code, amount) for code, amount in pairs]
    if len(lines) >= 2 and sum(a for _, a in pairs) == 0:
        entries_balance(lines=lines)
    else:
        with pytest.raises(UnbalancedTransaction):
            entries_balance(lines=lines)


@pytest.mark.django_db
@settings(max_examples=30, suppress_health_check=[HealthCheck.function_scoped_fixture], deadline=None)
@given(st.lists(st.tuples(st.sampled_from(CODES), amounts), min_size=1, max_size=6))
def test_every_posted_transaction_sums_to_zero(pairs):
    # Balance the random lines with a last entry to the opening-balances account.
    total = sum(a for _, a in pairs)
    lines = [EntryLine(code, amount) for code, amount in pairs]
    if total != 0:
        lines.append(EntryLine(Account.OPENING, -total))
    if len(lines) < 2:
        return
    # Opening balances, not transfers: random lines may take an asset account below zero (SPEC §16.3).
    txn = transaction_post(date=dt.date(2026, 9, 1), kind="opening", memo="random", lines=lines, actor=None)
    assert sum(e.amount for e in txn.entries.all()) == 0
    assert sum(balance for _account, balance in account_balances()) == 0


@pytest.mark.django_db
def test_an_unbalanced_transaction_posts_nothing():
    with pytest.raises(UnbalancedTransaction, match="add up to 1.00"):
        transaction_post(
            date=dt.date(2026, 9, 1),
            kind="transfer",
            memo="bad",
            lines=[EntryLine(Account.CASH, D("10.00")), EntryLine(Account.DUES, D("-9.00"))],
            actor=None,
        )
    assert Transaction.objects.count() == 0
    assert Entry.objects.count() == 0


@pytest.mark.django_db
def test_a_reversal_keeps_the_original_and_records_who_when_and_why(treasurer):
    opening_balance(code=Account.CASH, amount="250.00", actor=treasurer)
    txn = transfer_post(
        date=dt.date(2026, 9, 1),
        from_code=Account.CASH,
        to_code=Account.CHECKING,
        amount=D("250.00"),
        memo="Deposit",
        actor=treasurer,
    ).record
    reversal = transaction_reverse(
        txn=txn, date=dt.date(2026, 9, 3), reason="Deposit bounced", actor=treasurer
    )
    assert Transaction.objects.exclude(kind=Transaction.Kind.OPENING).count() == 2
    assert reversal.reverses == txn
    assert reversal.reason == "Deposit bounced"
    assert reversal.created_by == treasurer
    assert reversal.created_at is not None
    assert sorted(e.amount for e in reversal.entries.all()) == [D("-250.00"), D("250.00")]
    assert account_balance(account=account_get(Account.CHECKING)) == D("0.00")
    assert account_balance(account=account_get(Account.CHECKING), on=dt.date(2026, 9, 2)) == D("250.00")
    assert AuditEntry.objects.filter(action="finance.transaction.reversal", reason="Deposit bounced").exists()


@pytest.mark.django_db
def test_a_transaction_is_reversed_at_most_once_and_only_with_a_reason(treasurer):
    opening_balance(code=Account.CHECKING, amount="100.00", actor=treasurer)
    txn = transfer_post(
        date=dt.date(2026, 9, 1),
        from_code=Account.CHECKING,
        to_code=Account.CASH,
        amount=D("100.00"),
        memo="Cash for prizes",
        actor=treasurer,
    ).record
    with pytest.raises(LedgerError, match="Say why"):
        transaction_reverse(txn=txn, date=dt.date(2026, 9, 1), reason=" ", actor=treasurer)
    transaction_reverse(txn=txn, date=dt.date(2026, 9, 1), reason="typo", actor=treasurer)
    with pytest.raises(AlreadyReversed):
        transaction_reverse(txn=txn, date=dt.date(2026, 9, 1), reason="again", actor=treasurer)


@pytest.mark.django_db
def test_sqlite_and_postgresql_agree_on_balances_to_the_cent():
    for _ in range(30):
        transaction_post(
            date=dt.date(2026, 9, 1),
            kind="transfer",
            memo="cents",
            lines=[EntryLine(Account.CASH, D("0.10")), EntryLine(Account.OTHER_INCOME, D("-0.10"))],
            actor=UserFactory(),
        )
    assert account_balance(account=account_get(Account.CASH)) == D("3.00")
