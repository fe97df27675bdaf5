"""The books: account balances, closed months, opening balances (SPEC §16.6), sums of money."""

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal
from operator import attrgetter

from django.db.models import Sum

from finance.models import Account, ClosedMonth, Entry, OpeningBalance
from finance.services.ledger import ASSET_CODES, accounts_standard
from ncpc.core.money import ZERO, quantize


def money_total(values: Iterable[Decimal]) -> Decimal:
    return quantize(sum(values, ZERO))


def account_balances(*, on: dt.date | None = None) -> list[tuple]:
    """(account, balance) for every account, debit-positive, as of ``on`` (default: everything)."""
    saved = list(Account.objects.all())
    standard = accounts_standard(saved)
    accounts = sorted(
        saved + [a for a in standard.values() if a.pk is None], key=lambda a: (a.position, a.name, a.pk or 0)
    )
    entries = Entry.objects.all()
    if on is not None:
        entries = entries.filter(transaction__date__lte=on)
    totals = dict(entries.values("account").annotate(total=Sum("amount")).values_list("account", "total"))
    return [(account, quantize(totals.get(account.pk))) for account in accounts]


def closed_month(*, year: int, month: int) -> ClosedMonth | None:
    return (
        ClosedMonth.objects.filter(month=dt.date(year, month, 1))
        .select_related("closed_by")
        .order_by("pk")
        .first()
    )


@dataclass(frozen=True)
class OpeningBalanceRow:
    """An asset account with its recorded opening balance (None: not recorded yet) and the corrected ones."""

    account: Account
    recorded: OpeningBalance | None
    corrected: list[OpeningBalance]


def opening_balance_rows() -> list[OpeningBalanceRow]:
    """Every asset account (cash box, club checking, WSOP escrow, in the books' order) with its opening
    balance: one read, and nothing created (an account nothing was posted to is an unsaved stand-in)."""
    accounts = accounts_standard()
    balances = list(
        OpeningBalance.objects.select_related("account", "recorded_by", "corrected_by").order_by(
            "recorded_at", "pk"
        )
    )
    rows = []
    for account in sorted((accounts[c] for c in ASSET_CODES), key=attrgetter("position")):
        own = [b for b in balances if b.account.code == account.code]
        rows.append(
            OpeningBalanceRow(
                account=account,
                recorded=next((b for b in own if b.corrected_on is None), None),
                corrected=[b for b in own if b.corrected_on is not None],
            )
        )
    return rows


def opening_balances_done() -> bool:
    """Whether every asset account has its opening balance recorded (the set-up checklist's step)."""
    recorded = set(
        OpeningBalance.objects.filter(corrected_on__isnull=True).values_list("account__code", flat=True)
    )
    return recorded >= set(ASSET_CODES)
