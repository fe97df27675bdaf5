"""The treasurer's monthly report (§3.6.3, SPEC §11): the asset accounts' month, members' dues, income and
expenses by category."""

import calendar
import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import NamedTuple

from django.db.models import (
    CharField,
    Count,
    DateField,
    DecimalField,
    F,
    IntegerField,
    Min,
    Q,
    Subquery,
    Sum,
    Value,
)
from django.db.models.functions import Coalesce

from events import selectors as events_selectors
from events.models import Event, Season
from events.rules import SeasonRules
from events.selectors import season_events, season_rules
from events.services.event_fund import WsopAllocation, WsopTableMissing, wsop_allocation
from finance.models import Account, ClosedMonth, Entry, OpeningBalance, Transaction
from finance.selectors.dues import DuesAccount, season_dues_accounts
from finance.selectors.ledger import closed_month, money_total
from finance.selectors.payouts import event_payout_lines, payout_member_names, payout_paid_to
from finance.services.categories import (
    CATEGORIES,
    CREDIT,
    FORFEITED,
    CategoryAmount,
    category_totals,
    payment_categories,
)
from finance.services.dues import ADMIN_FEE, DUES, LATE_FEE
from finance.services.escrow import escrow_key, season_member_count
from finance.services.ledger import ASSET_CODES, accounts_standard, books_start, month_first, posted_under_key
from members.models import Membership
from members.selectors import season_memberships
from ncpc.core.errors import NcpcError
from ncpc.core.identity import reference_rewrite
from ncpc.core.money import ZERO, money_display, quantize


@dataclass(frozen=True)
class AccountMonth:
    """An asset account's month: opening + money in − money out + transfers in − transfers out = closing.
    Transfers are moves between the club's own accounts (a cash-box deposit, the move to escrow): neither
    income nor expenses, so they are shown apart (issue 35)."""

    account: Account
    opening: Decimal
    money_in: Decimal
    money_out: Decimal
    closing: Decimal
    transfers_in: Decimal = ZERO
    transfers_out: Decimal = ZERO

    @property
    def receipts(self) -> Decimal:
        """Everything that came in, transfers included."""
        return self.money_in + self.transfers_in

    @property
    def payments(self) -> Decimal:
        """Everything that went out, transfers included."""
        return self.money_out + self.transfers_out


@dataclass(frozen=True)
class AccountsCheck:
    """The line under the Accounts table that a member can check by eye: the accounts' opening total, plus
    the month's income, less its expenses (and, rarely, opening balances corrected after the books' first
    month), is their closing total."""

    opening: Decimal
    income: Decimal
    expenses: Decimal
    corrections: Decimal
    closing: Decimal

    income_label: str = "income"
    expenses_label: str = "expenses"

    @property
    def adds_up(self) -> bool:
        return self.opening + self.income - self.expenses + self.corrections == self.closing

    @property
    def text(self) -> str:
        """ "opening $3,970.00 + income $1,200.00 − expenses $0.00 = closing $5,170.00"."""
        parts = [
            f"opening {money_display(self.opening)}",
            f"+ {self.income_label} {money_display(self.income)}",
            f"− {self.expenses_label} {money_display(self.expenses)}",
        ]
        if self.corrections:
            sign = "+" if self.corrections > 0 else "−"
            parts.append(f"{sign} opening balances {money_display(abs(self.corrections))}")
        return " ".join(parts) + f" = closing {money_display(self.closing)}"


@dataclass(frozen=True)
class MemberDuesRow:
    membership: Membership
    name: str
    charged: Decimal
    paid: Decimal
    late_fees: Decimal
    balance: Decimal
    good_standing: bool
    # The day the member left the seat, when by the report's date (SPEC §16.2): listed apart, no credit.
    left_on: dt.date | None = None
    how_left: str = ""

    @property
    def credit(self) -> Decimal:
        """What the member paid ahead (zero when they owe or are paid up, or have left: forfeited, §2.12)."""
        return -self.balance if self.balance < 0 and self.left_on is None else ZERO

    @property
    def forfeited(self) -> Decimal:
        """What a departed member had paid beyond their charges: the club's (§2.12), never a credit."""
        return -self.balance if self.balance < 0 and self.left_on is not None else ZERO


@dataclass(frozen=True)
class PayoutRow:
    """A place paid at one of the month's final events: the report's payouts table. A correction of an earlier
    (closed) month's event posted in this month (SPEC §17.2) is a row too, its place ``CORRECTION`` (or
    ``CORRECTION_REVERSED``), its member and amount as the posting holds them (an amount given back is
    negative), so that the table adds up to what the payouts account moved in the month."""

    event: int
    date: dt.date
    place: int | str
    paid_to: str
    amount: Decimal


# The place of a payouts row that is a correction posted in the month, or the reversal of one.
CORRECTION = "correction"
CORRECTION_REVERSED = "correction reversed"


@dataclass(frozen=True)
class LedgerRow:
    """A ledger entry dated in the month: the officers' ledger table."""

    date: dt.date
    transaction: int
    kind: str
    account: str
    amount: Decimal
    memo: str


@dataclass(frozen=True)
class MonthlyReport:
    year: int
    month: int
    start: dt.date
    end: dt.date
    as_of: dt.date
    season: Season | None
    accounts: list[AccountMonth]
    members: list[MemberDuesRow]
    charged: Decimal
    paid: Decimal
    late_fees: Decimal
    outstanding: Decimal
    escrow_balance: Decimal
    wsop_allocation: WsopAllocation | None  # None when the WSOP table has no row
    wsop_posted_on: dt.date | None  # the day of the season's escrow move, if it was made
    # Income and expenses by category, for the month and the season to date (§3.6.3).
    income: list["CategoryRow"]
    expenses: list["CategoryRow"]
    season_start: dt.date | None
    closed: ClosedMonth | None = None  # the month was closed when its report was presented (SPEC §15.6)
    # What opening balances corrected after the books' first month added to the accounts (SPEC §16.6): money
    # in or out that is neither income nor an expense.
    corrections: Decimal = ZERO
    # The event payouts table (``payout_table``): computed with the report (``event_payout_rows`` and
    # ``payout_correction_rows``, from what the report reads anyway), or as the closing kept it (SPEC §17.1:
    # finance/selectors/report_record.py).
    payouts: list[PayoutRow] = field(default_factory=list)
    # The ledger table, kept when the month closed; None: read from the ledger when a file shows it.
    ledger: list[LedgerRow] | None = None
    # The first day of the month the books start (``ledger.books_start``), read with the accounts: for the
    # page's months still open before this one (SPEC §16.1). Not part of the report: never kept (None in a
    # closed month's), never compared.
    books_month: dt.date | None = field(default=None, compare=False)

    @property
    def to_date(self) -> bool:
        """The month is still running on the report's date: its figures run to ``as_of``, not to its end."""
        return self.start <= self.as_of < self.end

    @property
    def not_started(self) -> bool:
        """A month after the report's date: nothing of it has happened yet; its opening is the accounts as they
        stand on ``as_of`` and its dues are as of that day."""
        return self.as_of < self.start

    @property
    def accounts_total(self) -> AccountMonth:
        """The Accounts table's total row: each figure the sum of its column (transfers in = transfers out)."""
        rows = self.accounts
        return AccountMonth(
            Account(name="Total"),
            money_total(r.opening for r in rows),
            money_total(r.money_in for r in rows),
            money_total(r.money_out for r in rows),
            money_total(r.closing for r in rows),
            money_total(r.transfers_in for r in rows),
            money_total(r.transfers_out for r in rows),
        )

    @property
    def accounts_check(self) -> AccountsCheck:
        """Opening + income − expenses = closing, from the report's own totals. A month no season covers has
        no income and expense categories: its money in and out stand for them."""
        total = self.accounts_total
        if self.season is not None:
            income, expenses = self.income_total.month, self.expense_total.month
            return AccountsCheck(total.opening, income, expenses, self.corrections, total.closing)
        return AccountsCheck(
            total.opening,
            total.money_in,
            total.money_out,
            self.corrections,
            total.closing,
            income_label="money in",
            expenses_label="money out",
        )

    @property
    def payout_table(self) -> list[PayoutRow]:
        """The event payouts table: the places paid at the month's final events, then the corrections posted
        in it; a closed month's as its closing kept it (SPEC §17.1). The page and every file show this."""
        return self.payouts

    @property
    def payout_places(self) -> int:
        """How many places the payouts table pays (its correction rows apart)."""
        return sum(1 for r in self.payouts if isinstance(r.place, int))

    @property
    def payout_corrections(self) -> int:
        """How many of the payouts table's rows are corrections posted in the month (or their reversals)."""
        return len(self.payouts) - self.payout_places

    @property
    def payout_total(self) -> Decimal:
        """The payouts table's total: what the payouts account moved in the month."""
        return money_total(r.amount for r in self.payout_table)

    @property
    def owing(self) -> list[MemberDuesRow]:
        """Members who owe something on the report's date (the outstanding fees); departed members apart."""
        return [row for row in self.members if row.balance > 0 and row.left_on is None]

    @property
    def credits(self) -> list[MemberDuesRow]:
        """Members who paid ahead: a credit, never a negative amount owed (SPEC §15.1); a departed member has
        none (SPEC §16.2)."""
        return [row for row in self.members if row.balance < 0 and row.left_on is None]

    @property
    def departed(self) -> list[MemberDuesRow]:
        """Members who had left their seat by the report's date (removed, withdrew: SPEC §16.2), listed apart:
        what they paid stays the club's (§2.12)."""
        return [row for row in self.members if row.left_on is not None]

    @property
    def forfeited_total(self) -> Decimal:
        return money_total(r.forfeited for r in self.departed)

    @property
    def owing_totals(self) -> "MemberDuesRow | None":
        """The outstanding table's total row: each figure the sum of its column."""
        rows = self.owing
        if not rows:
            return None
        return MemberDuesRow(
            membership=rows[0].membership,
            name="Total outstanding",
            charged=money_total(r.charged for r in rows),
            paid=money_total(r.paid for r in rows),
            late_fees=money_total(r.late_fees for r in rows),
            balance=money_total(r.balance for r in rows),
            good_standing=False,
        )

    @property
    def credit_total(self) -> Decimal:
        return money_total(-r.balance for r in self.credits)

    @property
    def income_total(self) -> "CategoryRow":
        return _category_sum("Total income", self.income)

    @property
    def expense_total(self) -> "CategoryRow":
        return _category_sum("Total expenses", self.expenses)


@dataclass(frozen=True)
class CategoryRow:
    label: str
    month: Decimal
    season: Decimal


def _category_sum(label: str, rows: list[CategoryRow]) -> CategoryRow:
    return CategoryRow(label, money_total(r.month for r in rows), money_total(r.season for r in rows))


CATEGORY_LABELS = {
    ADMIN_FEE: "Admin fees",
    DUES: "Dues",
    LATE_FEE: "Late fees",
    FORFEITED: "Forfeited by members who left (§2.12)",
}


def _credit_as_dues(totals: dict[str, Decimal]) -> dict[str, Decimal]:
    """Money paid beyond the season's charges counted as dues (paid ahead): the report has one paid-ahead
    figure, the members' credits on the report's date (its Paid ahead table, the other side of the outstanding
    fees of §3.6.3), and no income row of its own that would say another amount."""
    merged = {c: v for c, v in totals.items() if c != CREDIT}
    merged[DUES] = totals.get(DUES, ZERO) + totals.get(CREDIT, ZERO)
    return merged


def _report_categories(
    *,
    accounts: list["DuesAccount"],
    rules: SeasonRules | None,
    start: dt.date,
    end: dt.date,
    season_start: dt.date,
    standard: dict[str, Account],
    posted: list[tuple[Account, Decimal, Decimal]],
) -> tuple[list[CategoryRow], list[CategoryRow]]:
    """Income (members' money by what it paid for, then other income accounts) and expenses (by account).
    ``posted``: the income and expense accounts with entries, with their month and season-to-date sums."""
    amounts: list[CategoryAmount] = []
    for account in accounts:
        included = ZERO
        if rules is not None and account.terms.first_event <= 1:
            included = rules.admin_fee
        amounts += payment_categories(
            charges=account.charges,
            payments=account.payments,
            admin_fee_in_first_dues=included,
            forgone=account.forgone,
            left_on=account.ended_on,
        )
    month = _credit_as_dues(category_totals(amounts, start=start, end=end))
    season = _credit_as_dues(category_totals(amounts, start=season_start, end=end))
    income = [
        CategoryRow(
            reference_rewrite(CATEGORY_LABELS[c]), quantize(month.get(c, ZERO)), quantize(season.get(c, ZERO))
        )
        for c in (*CATEGORIES, FORFEITED)
        if c != CREDIT and (month.get(c) or season.get(c) or c != FORFEITED)
    ]
    sums = {a.code: (m, s) for a, m, s in posted}
    # The standard accounts (shown at zero when nothing was posted to them), then any other with entries.
    listed = list(standard.values()) + [a for a, _m, _s in posted if a.code not in standard]
    expenses = []
    for ledger_account in sorted(listed, key=lambda a: (a.position, a.name)):
        if ledger_account.kind not in (Account.Kind.INCOME, Account.Kind.EXPENSE):
            continue
        m, s = sums.get(ledger_account.code, (ZERO, ZERO))
        if ledger_account.code == Account.DUES:
            # Members' money of another season dated in this one (rare): shown, so that the totals agree
            # with the ledger.
            other_m, other_s = -m - money_total(month.values()), -s - money_total(season.values())
            if other_m or other_s:
                income.append(CategoryRow("Dues and fees of other seasons", other_m, other_s))
        elif ledger_account.kind == Account.Kind.INCOME and (m or s):
            # Income is a credit: negative in the ledger.
            income.append(CategoryRow(ledger_account.name, -m, -s))
        elif ledger_account.kind == Account.Kind.EXPENSE:
            expenses.append(CategoryRow(ledger_account.name, m, s))
    return income, expenses


@dataclass(frozen=True)
class _AccountSums:
    """An account's sums for the monthly report: before the month (opening), the month's receipts and payments,
    the money moved between the club's own accounts, the month and the season to date, and how many entries it
    has in all (none: nothing was ever posted to it)."""

    opening: Decimal = ZERO
    receipts: Decimal = ZERO
    payments: Decimal = ZERO
    transfers_in: Decimal = ZERO
    transfers_out: Decimal = ZERO
    month_sum: Decimal = ZERO
    season_sum: Decimal = ZERO
    entry_count: int = 0


_NO_SUMS = _AccountSums()


class _MonthEntry(NamedTuple):
    """An entry dated in the month, with what the report needs of its transaction: the accounts' month (which
    transactions are transfers, which take back what they reverse) and the payouts table's correction rows
    (``payout_correction_rows``: the key, the seat, the memos)."""

    account_id: int
    transaction_id: int
    amount: Decimal
    day: dt.date
    kind: str
    reversed_kind: str | None
    reverses_id: int | None
    key: str | None
    reversed_key: str | None
    membership_id: int | None
    memo: str
    transaction_memo: str
    pk: int


@dataclass(frozen=True)
class _LedgerMonth:
    """What the monthly report reads of the ledger: every account (by id) with its sums, the month's entries,
    and four facts of the report that are not an account's, read with the accounts (None when no account
    exists yet): the month's closing if it was closed (``closed_pk``), the date of the live transaction posted
    under the season's escrow key (``escrow_moved_on``, as ``posted_under_key``), the day the books start
    (``books_start_on``, the first opening balance, as ``ledger.books_start_day``), and the date of the
    ledger's first transaction (``first_posted_on``: its month is ``ledger.books_start``)."""

    accounts: Sequence[Account]
    sums: dict[int, _AccountSums]
    closed_pk: int | None
    escrow_moved_on: dt.date | None
    books_start_on: dt.date | None
    entries: Sequence[_MonthEntry] = ()
    first_posted_on: dt.date | None = None

    def of(self, account: Account) -> _AccountSums:
        return self.sums.get(account.pk, _NO_SUMS) if account.pk is not None else _NO_SUMS


def _month_sums(*, start: dt.date, end: dt.date, season_start: dt.date, escrow_prefix: str) -> _LedgerMonth:
    """Every account with its sums for the month ``start``–``end`` of the season that started on
    ``season_start``, and the report's four facts (``_LedgerMonth``).

    Two queries: the accounts (with the four facts), and the month's entries themselves with the other
    entries summed by account (before the month, the season before the month, how many; one UNION ALL,
    ``_ledger_read``). A transaction's entries share its date, so the month's entries hold every entry of each
    of the month's transactions, and which of them are transfers (all their entries in asset accounts: money
    moved between the club's own accounts, a reversed transfer too) is seen from the rows rather than asked of
    the database entry by entry, as a filtered sum per figure did (most of the report's time went to building
    those sums' SQL). The payouts table's correction rows are read from the same rows."""
    closing = ClosedMonth.objects.filter(month=start).order_by("pk").values("pk")[:1]
    escrow_move = (
        Transaction.objects.filter(key__startswith=escrow_prefix, reversed_by__isnull=True)
        .order_by("-pk")
        .values("date")[:1]
    )
    accounts = list(
        Account.objects.annotate(
            closed_pk=Subquery(closing),
            escrow_moved_on=Subquery(escrow_move),
            books_start_on=Subquery(OpeningBalance.objects.order_by("date", "pk").values("date")[:1]),
            first_posted_on=Subquery(Transaction.objects.order_by("date").values("date")[:1]),
        ).order_by("pk")
    )
    before, entries = _ledger_read(start=start, end=end, season_start=season_start)
    month = _month_figures(entries, assets={a.pk for a in accounts if a.kind == Account.Kind.ASSET})
    # The season to date and the count of entries: the other entries' (``before``), then the month's own.
    in_season: dict[int, Decimal] = {}
    counted: dict[int, int] = {}
    for e in entries:
        counted[e.account_id] = counted.get(e.account_id, 0) + 1
        if e.day >= season_start:
            in_season[e.account_id] = in_season.get(e.account_id, ZERO) + e.amount
    sums = {}
    for account_id in before.keys() | counted.keys():
        opening, season_before, count = before.get(account_id, (ZERO, ZERO, 0))
        receipts, payments, moved_in, moved_out = month.get(account_id, (ZERO, ZERO, ZERO, ZERO))
        sums[account_id] = _AccountSums(
            opening=opening,
            receipts=receipts,
            payments=payments,
            transfers_in=moved_in,
            transfers_out=moved_out,
            month_sum=receipts + payments + moved_in + moved_out,
            season_sum=season_before + in_season.get(account_id, ZERO),
            entry_count=count + counted.get(account_id, 0),
        )
    first = accounts[0] if accounts else None
    return _LedgerMonth(
        accounts=accounts,
        sums=sums,
        closed_pk=first.closed_pk if first is not None else None,
        escrow_moved_on=first.escrow_moved_on if first is not None else None,
        books_start_on=first.books_start_on if first is not None else None,
        entries=entries,
        first_posted_on=first.first_posted_on if first is not None else None,
    )


# The columns of ``_ledger_read``'s two parts, in order: a month's entry (its transaction, amount, …), or an
# account's other entries summed (``transaction`` None; ``amount`` their sum before the month, ``season`` their
# sum in the season before the month, ``count`` how many).
_LEDGER_COLUMNS = (
    "l_account",
    "l_transaction",
    "l_amount",
    "l_season",
    "l_count",
    "l_day",
    "l_kind",
    "l_reversed_kind",
    "l_reverses",
    "l_key",
    "l_reversed_key",
    "l_member",
    "l_memo",
    "l_transaction_memo",
    "l_entry",
)


def _ledger_read(
    *, start: dt.date, end: dt.date, season_start: dt.date
) -> tuple[dict[int, tuple[Decimal, Decimal, int]], list[_MonthEntry]]:
    """The month's entries, and account id → (its entries' sum before the month, their sum in the season
    before the month, how many entries it has outside the month) for every account with entries outside the
    month: one UNION ALL. The entries part comes first, its columns typed (PostgreSQL takes a UNION's column
    types from the part that has them; Django converts every row as the first part's columns)."""
    money: DecimalField = DecimalField(max_digits=12, decimal_places=2)
    month = (
        Entry.objects.filter(transaction__date__gte=start, transaction__date__lte=end)
        .order_by()
        .annotate(
            l_account=F("account_id"),
            l_transaction=F("transaction_id"),
            l_amount=F("amount"),
            l_season=Value(None, output_field=money),
            l_count=Value(None, output_field=IntegerField()),
            l_day=F("transaction__date"),
            l_kind=F("transaction__kind"),
            l_reversed_kind=F("transaction__reverses__kind"),
            l_reverses=F("transaction__reverses_id"),
            l_key=F("transaction__key"),
            l_reversed_key=F("transaction__reverses__key"),
            l_member=F("membership_id"),
            l_memo=F("memo"),
            l_transaction_memo=F("transaction__memo"),
            l_entry=F("pk"),
        )
        .values_list(*_LEDGER_COLUMNS)
    )
    text: CharField = CharField()
    whole: IntegerField = IntegerField()
    others = (
        Entry.objects.alias(day=F("transaction__date"))
        .filter(Q(day__lt=start) | Q(day__gt=end))
        .order_by()
        .values(l_account=F("account_id"))
        .annotate(
            l_transaction=Value(None, output_field=whole),
            l_amount=Sum("amount", filter=Q(day__lt=start)),
            l_season=Sum("amount", filter=Q(day__gte=season_start, day__lt=start)),
            l_count=Count("pk"),
            l_day=Value(None, output_field=DateField()),
            l_kind=Value(None, output_field=text),
            l_reversed_kind=Value(None, output_field=text),
            l_reverses=Value(None, output_field=whole),
            l_key=Value(None, output_field=text),
            l_reversed_key=Value(None, output_field=text),
            l_member=Value(None, output_field=whole),
            l_memo=Value(None, output_field=text),
            l_transaction_memo=Value(None, output_field=text),
            l_entry=Value(None, output_field=whole),
        )
        .values_list(*_LEDGER_COLUMNS)
    )
    before: dict[int, tuple[Decimal, Decimal, int]] = {}
    entries: list[_MonthEntry] = []
    for account_id, transaction_id, amount, season_sum, count, *rest in month.union(others, all=True):
        if transaction_id is None:
            before[account_id] = (quantize(amount), quantize(season_sum), count)
        else:
            entries.append(_MonthEntry(account_id, transaction_id, amount, *rest))
    return before, entries


def _month_figures(entries: Sequence[_MonthEntry], *, assets: set[int]) -> dict[int, list[Decimal]]:
    """Account id → the month's [receipts, payments, transfers in, transfers out], from the month's entries:
    a transaction all of whose entries are in ``assets`` (the asset accounts' ids) is a transfer.

    A reversal takes back what it reverses from the same column (a reversed payment is less money in, a
    reversed check less money out), as the income and expenses of the check line under the table count it; a
    reversed opening balance stays money out (the check line's opening balances term)."""
    transactions: dict[int, list[tuple[int, Decimal]]] = {}
    takes_back: set[int] = set()
    for e in entries:
        transactions.setdefault(e.transaction_id, []).append((e.account_id, e.amount))
        if e.kind == Transaction.Kind.REVERSAL and e.reversed_kind not in (None, Transaction.Kind.OPENING):
            takes_back.add(e.transaction_id)
    month: dict[int, list[Decimal]] = {}
    for transaction_id, lines in transactions.items():
        transfer = all(account_id in assets for account_id, _amount in lines)
        back = transaction_id in takes_back
        for account_id, amount in lines:
            figures = month.setdefault(account_id, [ZERO, ZERO, ZERO, ZERO])
            figures[(2 if transfer else 0) + ((amount > 0) if back else (amount < 0))] += amount
    return month


def _opening_balances_in_month(
    *, start: dt.date, end: dt.date, books_start: dt.date | None
) -> dict[int, tuple[Decimal, Decimal]]:
    """In the month the books start (``books_start``: the first opening balance's date, SPEC §16.6), the sums
    the recorded opening balances and their corrections (reversals) of that month put into and took out of
    each account: the report shows them as the month's opening rather than as receipts and payments. Empty
    (and nothing read) for any other month: a correction made later is that month's money out, and its
    replacement money in."""
    if books_start is None or not start <= books_start <= end:
        return {}
    sums: dict[int, tuple[Decimal, Decimal]] = {}
    for row in (
        Entry.objects.filter(
            Q(transaction__opening_balance__isnull=False)
            | Q(transaction__opening_balance_reversed__isnull=False),
            transaction__date__gte=start,
            transaction__date__lte=end,
            # The asset accounts' side only: the opening balances (equity) account's side is the same money.
            account__kind=Account.Kind.ASSET,
        )
        .values("account_id")
        .annotate(
            into=Sum("amount", filter=Q(amount__gt=0)),
            out=Sum("amount", filter=Q(amount__lt=0)),
        )
    ):
        sums[row["account_id"]] = (quantize(row["into"]), quantize(row["out"]))
    return sums


# An escrow key no transaction has: a month no season covers has no escrow move to show.
_NO_ESCROW_KEY = "wsop-escrow:no-season:"


def monthly_report(*, year: int, month: int, today: dt.date) -> MonthlyReport:
    """The treasurer's monthly report (§3.6.3, SPEC §11). Dues are as of the month's last day, or today while
    the month is running."""
    start = dt.date(year, month, 1)
    end = dt.date(year, month, calendar.monthrange(year, month)[1])
    as_of = min(end, today)
    season = _report_season(start=start, end=end, as_of=as_of)
    # One grouped read of every account (the standard ones among them): the asset accounts' month, and every
    # account's month and season to date (income and expenses by category).
    season_start = season.start if season is not None else start
    prefix = escrow_key(season=season) if season is not None else _NO_ESCROW_KEY
    ledger = _month_sums(start=start, end=end, season_start=season_start, escrow_prefix=prefix)
    accounts = accounts_standard(ledger.accounts)
    opened = _opening_balances_in_month(start=start, end=end, books_start=ledger.books_start_on)
    rows = _asset_months(ledger, standard=accounts, opened=opened)
    dues = (
        _season_dues(season=season, ledger=ledger, standard=accounts, start=start, end=end, as_of=as_of)
        if season is not None
        else _SeasonDues()
    )
    members = dues.members
    escrow = next(r for r in rows if r.account.code == Account.ESCROW)
    payouts_account = accounts[Account.PAYOUTS].pk
    corrections = payout_correction_rows(
        [e for e in ledger.entries if e.account_id == payouts_account],
        names=dues.names,
        numbers=dues.numbers,
    )
    closed, moved_on = _closing_and_escrow_move(ledger, year=year, month=month, prefix=prefix)
    return MonthlyReport(
        year=year,
        month=month,
        start=start,
        end=end,
        as_of=as_of,
        season=season,
        accounts=rows,
        members=members,
        charged=money_total(r.charged for r in members),
        paid=money_total(r.paid for r in members),
        late_fees=money_total(r.late_fees for r in members),
        outstanding=money_total(max(r.balance, ZERO) for r in members if r.left_on is None),
        escrow_balance=escrow.closing,
        wsop_allocation=dues.allocation,
        wsop_posted_on=moved_on,
        closed=closed,
        income=dues.income,
        expenses=dues.expenses,
        season_start=season.start if season is not None else None,
        corrections=_corrections(ledger, opened=opened),
        payouts=dues.payouts + corrections,
        books_month=_books_month(ledger),
    )


def _report_season(*, start: dt.date, end: dt.date, as_of: dt.date) -> Season | None:
    """The season the report of the month ``start``–``end`` covers: the one holding the report's date (or the
    month's first day), if its seats took effect by the month's end. A season's seats take effect on the
    earliest ``joined_on`` of its memberships (its first day for a seat without one, or while it has none): its
    first day as a rule, but the first open month's first day when the season was opened after the months at
    its start were closed (``members.services.roster.seats_carry_over_day``). A month before that belongs to
    no season in the report, as it belonged to none when it was closed: its report made again is the one its
    closing kept (SPEC §17.1), no season's dues, allocation or categories in it. One query."""
    seasons = list(
        Season.objects.filter(start__lte=end, end__gte=start).annotate(
            seats_from=Min(Coalesce("memberships__joined_on", "start"))
        )
    )
    held = (next((s for s in seasons if s.start <= day <= s.end), None) for day in (as_of, start))
    season = next((s for s in held if s is not None), None)
    return season if season is not None and season.seats_from <= end else None


def _books_month(ledger: _LedgerMonth) -> dt.date | None:
    """The first day of the month the books start (``ledger.books_start``), from the ledger's first transaction
    read with the accounts; read on its own when no account exists yet."""
    if not ledger.accounts:
        return books_start()
    return month_first(ledger.first_posted_on) if ledger.first_posted_on is not None else None


def _asset_months(
    ledger: _LedgerMonth, *, standard: dict[str, Account], opened: dict[int, tuple[Decimal, Decimal]]
) -> list[AccountMonth]:
    """The Accounts table: each asset account's month, in the books' order of the standard accounts."""
    rows: list[AccountMonth] = []
    for code in ASSET_CODES:
        account = standard[code]
        sums = ledger.of(account)
        # The books' first month: its opening balances (SPEC §16.6) are the month's opening, not money in.
        into, out = opened.get(account.pk, (ZERO, ZERO)) if account.pk is not None else (ZERO, ZERO)
        opening, receipts, payments = sums.opening + into + out, sums.receipts - into, sums.payments - out
        moved_in, moved_out = sums.transfers_in, sums.transfers_out
        closing = opening + receipts + payments + moved_in + moved_out
        rows.append(AccountMonth(account, opening, receipts, -payments, closing, moved_in, -moved_out))
    return rows


def _corrections(ledger: _LedgerMonth, *, opened: dict[int, tuple[Decimal, Decimal]]) -> Decimal:
    """Opening balances recorded or corrected in a later month move money in or out of an account against the
    opening balances' (equity) account: neither income nor an expense. The books' first month's are its
    opening (``opened``), not corrections."""
    corrections = -money_total(
        ledger.of(a).month_sum for a in ledger.accounts if a.kind == Account.Kind.EQUITY
    )
    return corrections - money_total(into + out for into, out in opened.values())


@dataclass(frozen=True)
class _SeasonDues:
    """The part of the report that a season covers: members' dues, the season's WSOP allocation (None when
    the WSOP table has no row), income and expenses by category, the places paid at the month's events; and
    for the payouts table's corrections, the season's members' names (membership id → name) and its events'
    numbers (event id → number). Empty for a month no season covers."""

    members: list[MemberDuesRow] = field(default_factory=list)
    allocation: WsopAllocation | None = None
    income: list[CategoryRow] = field(default_factory=list)
    expenses: list[CategoryRow] = field(default_factory=list)
    payouts: list[PayoutRow] = field(default_factory=list)
    names: dict[int, str] = field(default_factory=dict)
    numbers: dict[int, int] = field(default_factory=dict)


def _season_dues(
    *,
    season: Season,
    ledger: _LedgerMonth,
    standard: dict[str, Account],
    start: dt.date,
    end: dt.date,
    as_of: dt.date,
) -> _SeasonDues:
    rules = season_rules(season)
    memberships = season_memberships(season=season)
    events = season_events(season=season)
    dues_accounts = season_dues_accounts(season=season, rules=rules, events=events, memberships=memberships)
    members = [
        _member_dues_row(dues, as_of=as_of)
        for dues in dues_accounts
        # Admitted after the month: not in its report (a closed month's report never changes, §16.1).
        if dues.holders[0].joined_on is None or dues.holders[0].joined_on <= as_of
    ]
    try:
        allocation = wsop_allocation(
            rules=rules, member_count=season_member_count(season=season, memberships=memberships)
        )
    except WsopTableMissing:
        allocation = None
    posted = [
        (a, sums.month_sum, sums.season_sum)
        for a in ledger.accounts
        if a.kind in (Account.Kind.INCOME, Account.Kind.EXPENSE) and (sums := ledger.of(a)).entry_count
    ]
    income, expenses = _report_categories(
        accounts=dues_accounts,
        rules=rules,
        start=start,
        end=end,
        season_start=season.start,
        standard=standard,
        posted=posted,
    )
    names = payout_member_names(season=season, memberships=memberships)
    return _SeasonDues(
        members=members,
        allocation=allocation,
        income=income,
        expenses=expenses,
        payouts=event_payout_rows(
            events=[e for e in events if start <= e.date <= end],
            rules=rules,
            memberships=memberships,
            names=names,
        ),
        names=names,
        numbers={e.pk: e.number for e in events},
    )


def _member_dues_row(dues: DuesAccount, *, as_of: dt.date) -> MemberDuesRow:
    """A seat's row of the members' fees, under its latest holder (naming the seat's earlier holders)."""
    status = dues.status(on=as_of)
    holder = dues.holder
    name = str(holder.person)
    if len(dues.holders) > 1:
        name += " (seat of " + ", ".join(str(h.person) for h in dues.holders[:-1]) + ")"
    if holder.left_after_event is not None:
        name += f" (left after event {holder.left_after_event})"
    gone = dues.departed(on=as_of)
    return MemberDuesRow(
        holder,
        name,
        status.charged,
        status.paid,
        status.late_fees,
        status.balance,
        dues.in_good_standing(membership_id=holder.pk, on=as_of),
        left_on=dues.ended_on if gone else None,
        how_left=holder.get_how_left_display() if gone else "",
    )


def _closing_and_escrow_move(
    ledger: _LedgerMonth, *, year: int, month: int, prefix: str
) -> tuple[ClosedMonth | None, dt.date | None]:
    """The month's closing (read only when the month was closed) and the date of the season's escrow move, as
    the ledger's month carries them; read on their own when no account exists yet."""
    if not ledger.accounts:
        posted = posted_under_key(prefix=prefix)
        return closed_month(year=year, month=month), posted.date if posted is not None else None
    closed = closed_month(year=year, month=month) if ledger.closed_pk is not None else None
    return closed, ledger.escrow_moved_on


def event_payout_rows(
    *, events: Sequence[Event], rules: SeasonRules, memberships: Sequence[Membership], names: dict[int, str]
) -> list[PayoutRow]:
    """The payouts table's places: each final event of ``events`` (the month's, with the season's ``rules``
    and ``memberships`` as the report read them), each place paid and who took it, by date. The events'
    places are read in one query (none when no event is final); an event whose payout table has no row for
    its member count pays nothing here, as in the files."""
    finals = sorted((e for e in events if e.status == Event.Status.FINAL), key=lambda e: (e.date, e.number))
    placings = events_selectors.season_placings(events=finals)
    rows: list[PayoutRow] = []
    for event in finals:
        try:
            lines = event_payout_lines(
                event=event, placings=placings.get(event.pk, []), rules=rules, memberships=memberships
            )
        except NcpcError:
            lines = []
        rows += [
            PayoutRow(event.number, event.date, line.place, payout_paid_to(line, names=names), line.amount)
            for line in lines
        ]
    return rows


# The key prefix of every event's payout corrections (``finance.selectors.payouts.payout_correction_prefix``).
CORRECTION_KEYS = "payout-correction:event:"


def payout_correction_rows(
    entries: Sequence[_MonthEntry], *, names: dict[int, str], numbers: dict[int, int]
) -> list[PayoutRow]:
    """The corrections of earlier events' payouts posted in the month (SPEC §17.2: dated the day they were
    posted, in the open month), and the reversals of such corrections dated in it: one row per member the
    posting pays or takes back, the amount as the posting holds it. A correction posted and later reversed
    stays in its own month's table, as it moved the payouts account then.

    ``entries``: the payouts account's entries of the month (as the report read them); ``names`` and
    ``numbers``: the season's members' names and events' numbers. A member or event of another season (a
    correction of last season's event) is read here, one query each, only then."""
    rows = sorted(
        (e for e in entries if any((k or "").startswith(CORRECTION_KEYS) for k in (e.key, e.reversed_key))),
        key=lambda e: (e.day, e.transaction_id, e.pk),
    )
    if not rows:
        return []
    missing = {e.membership_id for e in rows if e.membership_id is not None} - names.keys()
    if missing:
        people = Membership.objects.filter(pk__in=missing).select_related("person")
        names = {**names, **{m.pk: m.person.full_name for m in people}}
    event_ids = {_corrected_event_id(e) for e in rows}
    if event_ids - numbers.keys():
        other = Event.objects.filter(pk__in=event_ids - numbers.keys()).values_list("pk", "number")
        numbers = {**numbers, **dict(other)}
    return [
        PayoutRow(
            numbers.get(_corrected_event_id(e), 0),
            e.day,
            CORRECTION if e.reverses_id is None else CORRECTION_REVERSED,
            names.get(e.membership_id, "") if e.membership_id is not None else (e.memo or e.transaction_memo),
            e.amount,
        )
        for e in rows
    ]


def _corrected_key(entry: _MonthEntry) -> str:
    """The key of the correction an entry posts (or that its reversal undoes)."""
    return (entry.reversed_key if entry.reverses_id is not None else entry.key) or ""


def _corrected_event_id(entry: _MonthEntry) -> int:
    """The event a correction (or the correction a reversal undoes) corrects, from its key
    ``payout-correction:event:<pk>:<n>``."""
    event_pk = _corrected_key(entry).removeprefix(CORRECTION_KEYS).split(":", 1)[0]
    return int(event_pk) if event_pk.isdigit() else 0
