"""The double-entry ledger (SPEC §8): transactions of entries that add up to zero; nothing edited or deleted.

``entries_balance`` is the pure rule; ``transaction_post`` and ``transaction_reverse`` are the only writers.
"""

import datetime as dt
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from decimal import Decimal

from django.db import IntegrityError, connection, transaction
from django.db.models import Min, Sum

from events.models import Season
from finance.models import Account, ClosedMonth, Entry, OpeningBalance, Transaction
from ncpc.core.audit import Actor, actor_user, audit_record
from ncpc.core.clock import club_today
from ncpc.core.errors import ConcurrentChange, NcpcError
from ncpc.core.money import DEFAULT_MONEY_LIMIT, ZERO, money_display, quantize
from ncpc.core.results import Booked


class LedgerError(NcpcError):
    pass


class UnbalancedTransaction(LedgerError):
    pass


class AlreadyReversed(LedgerError):
    pass


class MonthClosed(LedgerError):
    pass


class BeforeBooksStart(LedgerError):
    """SPEC §16.6: nothing is dated before the day the club's books start (the first opening balance)."""


class Overdrawn(LedgerError):
    """SPEC §16.3: the posting would take an asset account below zero on its date or after."""


class KeyUsed(ConcurrentChange):
    """A posting under this idempotency key exists (perhaps committed a moment ago by a parallel request)."""


class NotTheTreasurersAlone(LedgerError):
    """Money would leave the WSOP escrow or reach an expense without a check approved by the officers (§4.7)."""


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
EXPENSE_CODES = (Account.PAYOUTS, Account.WSOP_EXPENSES, Account.SUPPLIES)
# SPEC §15.6: what the Treasurer moves alone, besides payments and event payouts: the club's own cash box and
# checking account, either way (a deposit, cash drawn for the night's prizes).
TRANSFER_CODES = (Account.CASH, Account.CHECKING)
# SPEC §16.3: the postings that move money out of an asset account the club holds, so are refused when the
# account does not hold it (a check, a transfer, the WSOP money to escrow, the night's cash prizes). A payment
# only adds money; a reversal is a correction and an opening balance is the statement's: those are not refused.
OVERDRAW_GUARDED = (
    Transaction.Kind.CHECK,
    Transaction.Kind.TRANSFER,
    Transaction.Kind.WSOP_ESCROW,
    Transaction.Kind.PAYOUT,
)
# How the refusal names each guarded posting.
_OVERDRAW_WHAT: dict[str, str] = {
    Transaction.Kind.CHECK: "a check of {amount}",
    Transaction.Kind.TRANSFER: "a transfer of {amount}",
    Transaction.Kind.WSOP_ESCROW: "moving {amount} of WSOP money to escrow",
    Transaction.Kind.PAYOUT: "cash prizes of {amount}",
}


# The longest memo a transaction keeps (``Transaction.memo``).
MEMO_MAX = 200


def form_posting_key(once: str) -> str:
    """The ledger key of a form's posting (``ncpc.core.forms.BooksOnceForm``)."""
    return f"form:{once}"


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


def movement_refusal(*, lines: Sequence[EntryLine]) -> str | None:
    """Why the Treasurer may not post these lines alone (SPEC §15.6), or None. Pure. Money leaving the WSOP
    escrow (a credit to it) or reaching an expense (a debit to one) needs a check approved by the officers."""
    for line in lines:
        if line.account_code == Account.ESCROW and line.amount < 0:
            return "Money leaves the WSOP escrow only by a check approved by three officers (§4.7)."
        if line.account_code in EXPENSE_CODES and line.amount > 0:
            return "An expense is paid only by a check approved by three officers (§4.7)."
    return None


def month_first(day: dt.date) -> dt.date:
    return day.replace(day=1)


def month_closed(*, day: dt.date) -> ClosedMonth | None:
    return ClosedMonth.objects.filter(month=month_first(day)).first()


def month_name_list(months: Sequence[dt.date]) -> str:
    """The months named as in a sentence: "August 2026, September 2026 and October 2026"."""
    names = [f"{m:%B %Y}" for m in months]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def closed_month_problem(*, day: dt.date, closed: Iterable[dt.date]) -> str | None:
    """Why nothing can be dated ``day`` (SPEC §16.1: nothing in or before a closed month), or None. Pure.
    ``closed``: the first days of the closed months (those before ``day``'s month may be left out)."""
    first = month_first(day)
    later = sorted(m for m in closed if m >= first)
    if not later:
        return None
    if later[0] == first:
        return f"{day:%B %Y} is closed (its report was presented): nothing can be dated in it any more."
    return (
        f"{later[0]:%B %Y} is closed (its report was presented): nothing can be dated in or before it any "
        f"more, so not {day:%b %-d, %Y}."
    )


def month_open_check(*, day: dt.date) -> None:
    """SPEC §15.6, §16.1: no entry dated inside a month whose report was closed, nor before one, so that a
    closed month's report (its accounts, dues and categories) never changes. Every posting passes here
    (``transaction_post``), and the commands that refuse before they post (a check's last approval)."""
    problem = closed_month_problem(
        day=day,
        closed=ClosedMonth.objects.filter(month__gte=month_first(day)).values_list("month", flat=True),
    )
    if problem is not None:
        raise MonthClosed(f"{problem} Post the correction dated today.", field="date")


# PostgreSQL's transaction-level advisory lock between closing a month and the commands that check the closed
# months without posting (admissions, departures, suspensions, event moves, checks): the commands take it shared
# (``closed_month_refusal``), ``month_close`` takes it alone, before anything else. Any 64-bit number no other
# advisory lock of the app uses.
CLOSED_MONTHS_LOCK = 0x4E435043_0172  # "NCPC", SPEC §17.2


def closed_month_refusal(*, day: dt.date) -> str | None:
    """SPEC §17.2: why nothing can take effect on ``day`` (an admission, a departure, a suspension, a seat
    transfer, an event's date, a results reopening), naming the closed month and the way forward, or None when
    ``day``'s month and every later one are open. Answers ``events.hooks.closed_month_refusal``.

    Inside a transaction on PostgreSQL it first takes ``CLOSED_MONTHS_LOCK`` shared until that transaction
    ends: a month closing meanwhile waits for the command to commit (its report then counts what the command
    wrote), and a command checking while a month closes waits for the close and is refused by it. So a caller
    asks before it posts or locks an account row, what a close holding the lock waits for (asking after would
    deadlock). SQLite runs one writer at a time and needs nothing; outside a transaction (a page) nothing is
    written that the answer guards."""
    if connection.vendor == "postgresql" and connection.in_atomic_block:
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock_shared(%s)", [CLOSED_MONTHS_LOCK])
    problem = closed_month_problem(
        day=day,
        closed=ClosedMonth.objects.filter(month__gte=month_first(day)).values_list("month", flat=True),
    )
    if problem is None:
        return None
    # A problem means a month in or after ``day``'s is closed: the first open month follows the last closed one.
    last = ClosedMonth.objects.order_by("-month").values_list("month", flat=True).first() or month_first(day)
    first_open = (last + dt.timedelta(days=32)).replace(day=1)
    return f"{problem} Date it in the first open month, {first_open:%B %Y}, or later."


def books_start() -> dt.date | None:
    """The first day of the month the club's books start: the month of the earliest ledger transaction (the
    opening balances, once recorded, since nothing is dated before them (``books_start_day``), or the first
    payment); None while nothing was ever posted."""
    first = Transaction.objects.order_by("date").values_list("date", flat=True).first()
    return month_first(first) if first is not None else None


def books_start_day() -> dt.date | None:
    """The day the club's books start in the app (SPEC §16.6): the earliest date of the opening balances the
    Treasurer recorded (corrected ones included, so a correction never moves it later); None while none was."""
    return OpeningBalance.objects.aggregate(first=Min("date"))["first"]


def books_start_problem(*, day: dt.date, start: dt.date | None) -> str | None:
    """Why nothing can be dated ``day`` given the books' start day (SPEC §16.6), or None. Pure."""
    if start is None or day >= start:
        return None
    return (
        f"The club's books start on {start:%b %-d, %Y} (the first opening balance): nothing can be dated "
        f"before it, so not {day:%b %-d, %Y}."
    )


def books_start_check(*, day: dt.date) -> None:
    """SPEC §16.6: no posting dated before the day the books start (every posting but an opening balance,
    whose own command decides whether it may move that day earlier)."""
    problem = books_start_problem(day=day, start=books_start_day())
    if problem is not None:
        raise BeforeBooksStart(problem, field="date")


def months_open_before(*, day: dt.date) -> list[dt.date]:
    """The first days of the months since the books started, before ``day``'s month, that are not closed
    (SPEC §16.1: months close in order), oldest first."""
    start, first = books_start(), month_first(day)
    if start is None or start >= first:
        return []
    closed = ClosedMonth.objects.filter(month__gte=start, month__lt=first).values_list("month", flat=True)
    return months_open_between(start=start, day=first, closed=closed)


def months_open_between(*, start: dt.date | None, day: dt.date, closed: Iterable[dt.date]) -> list[dt.date]:
    """Pure ``months_open_before``, for a caller that read the books' first month (``start``, as
    ``books_start``) and the months closed (``closed``: their first days, any others among them ignored): the
    months from ``start`` up to before ``day``'s month not in ``closed``, oldest first."""
    first, shut = month_first(day), set(closed)
    months: list[dt.date] = []
    month = start
    while month is not None and month < first:
        if month not in shut:
            months.append(month)
        month = (month + dt.timedelta(days=31)).replace(day=1)
    return months


def asset_low_point(
    *, balance: Decimal, later: Sequence[tuple[dt.date, Decimal]]
) -> tuple[Decimal, dt.date | None]:
    """Pure: the lowest balance of an account from a day on, given its ``balance`` that day and the sums of its
    later days in date order; with the later day it falls to (None: the day itself)."""
    low, low_day = balance, None
    running = balance
    for day, total in later:
        running += total
        if running < low:
            low, low_day = running, day
    return low, low_day


@dataclass(frozen=True)
class Shortfall:
    """An asset account that lines taking ``amount`` out of it on ``day`` would take below zero: it holds
    ``balance`` that day, and ``low`` at its lowest from then on (on ``low_day``; None: that day itself)."""

    account: Account
    amount: Decimal
    day: dt.date
    balance: Decimal
    low: Decimal
    low_day: dt.date | None

    @property
    def after(self) -> Decimal:
        """The balance the account would have (at its lowest)."""
        return self.low - self.amount

    def held_text(self) -> str:
        held = f"{self.account} holds {money_display(self.balance)} on {self.day:%b %-d, %Y}"
        if self.low_day is not None:
            held += f" and {money_display(self.low)} on {self.low_day:%b %-d, %Y}"
        return held


def asset_shortfalls(*, day: dt.date, lines: Sequence[EntryLine], lock: bool = True) -> list[Shortfall]:
    """The asset accounts (cash box, checking, WSOP escrow) that ``lines`` dated ``day`` would take below zero
    on that day or a later one, in the accounts' order. ``lock``: inside a command's transaction, lock each
    account the lines take money from (``select_for_update``, in one order) and create the standard accounts
    if need be; a page's question (False) reads only."""
    taken: dict[str, Decimal] = {}
    for line in lines:
        if line.account_code in ASSET_CODES and line.amount < 0:
            taken[line.account_code] = taken.get(line.account_code, ZERO) - line.amount
    if not taken:
        return []
    accounts = Account.objects.filter(code__in=sorted(taken)).order_by("pk")
    if lock:
        accounts_ensure()
        accounts = accounts.select_for_update()
    found: list[Shortfall] = []
    for account in accounts:
        amount = taken[account.code]
        balance = account_balance(account=account, on=day)
        later = [
            (row["transaction__date"], quantize(row["total"]))
            for row in Entry.objects.filter(account=account, transaction__date__gt=day)
            .values("transaction__date")
            .annotate(total=Sum("amount"))
            .order_by("transaction__date")
        ]
        low, low_day = asset_low_point(balance=balance, later=later)
        if low - amount < 0:
            found.append(Shortfall(account, amount, day, balance, low, low_day))
    return found


def asset_overdraw_check(
    *, day: dt.date, lines: Sequence[EntryLine], what: str = "taking out {amount}"
) -> None:
    """SPEC §16.3: refuse lines that would take an asset account (cash box, checking, WSOP escrow) below zero
    on ``day`` or on any later day of its books (a backdated check must not overdraw a later one). ``what``:
    how the message names the posting, with ``{amount}`` where the amount goes ("a check of {amount}").

    Call inside the command's transaction: it locks each asset account the lines take money from
    (``select_for_update``, in one order), so two officers drawing on one account at once are serialized and
    the second sees the first's posting."""
    for short in asset_shortfalls(day=day, lines=lines):
        raise Overdrawn(
            f"{short.held_text()}; {what.format(amount=money_display(short.amount))} would take it to "
            f"{money_display(short.after)} (the club's accounts never go below zero). Nothing was recorded.",
            field="amount",
        )


def money_limit_on(*, day: dt.date) -> Decimal:
    """The season's largest single amount (``Season.money_limit``) on that day; the default between seasons."""
    limit = Season.objects.filter(start__lte=day, end__gte=day).values_list("money_limit", flat=True).first()
    return limit if limit is not None else DEFAULT_MONEY_LIMIT


def amount_check(*, amount: Decimal | None, day: dt.date, what: str = "The amount") -> Decimal:
    """A typed amount the club books: positive, in cents, not above the season's limit."""
    if amount is None or not isinstance(amount, Decimal) or not amount.is_finite():
        raise LedgerError(f"{what} must be an amount of money.", field="amount")
    if amount <= 0 or quantize(amount) != amount:
        raise LedgerError(f"{what} must be a positive amount in cents.", field="amount")
    limit = money_limit_on(day=day)
    if amount > limit:
        raise LedgerError(
            f"{money_display(amount)} is more than the club's limit of {money_display(limit)} for one amount.",
            field="amount",
        )
    return amount


def date_not_future_check(*, day: dt.date) -> None:
    if day > club_today():
        raise LedgerError("The date cannot be after today.", field="date")


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
    restoring: bool = False,
) -> Transaction:
    """``restoring``: a season file is being restored (history of record), so a closed month takes it.
    A check, transfer, escrow move or payout that would take an asset account below zero is refused
    (``asset_overdraw_check``), unless restoring."""
    entries_balance(lines=lines)
    if not restoring:
        _posting_check(date=date, kind=kind, lines=lines)
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
        raise KeyUsed("This was posted already (perhaps by another officer); reload the page.") from None
    if not restoring:
        # Again, now that the INSERT holds the table against a month closing (``postings_hold``): a close that
        # committed after the first check is seen here, and this posting is refused with the rest.
        month_open_check(day=date)
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


def _posting_check(*, date: dt.date, kind: str, lines: Sequence[EntryLine]) -> None:
    """The checks of a posting dated ``date`` (a season file being restored skips them): its month is open, the
    books have started (an opening balance starts them), and a guarded kind overdraws no asset account."""
    month_open_check(day=date)
    if kind != Transaction.Kind.OPENING:
        books_start_check(day=date)
    if kind in OVERDRAW_GUARDED:
        asset_overdraw_check(day=date, lines=lines, what=_OVERDRAW_WHAT[kind])


class ReversalOverdraws(LedgerError):
    """The reversal would take an asset account below zero, and the officer has not confirmed it yet."""


def reversal_lines(*, txn: Transaction) -> list[EntryLine]:
    """The mirror image of ``txn``'s entries: what its reversal posts."""
    return [
        EntryLine(account_code=e.account.code, amount=-e.amount, membership_id=e.membership_id, memo=e.memo)
        for e in txn.entries.select_related("account")
    ]


def overdraw_warning_text(*, short: Shortfall, what: str) -> str:
    """Pure: the warning a reversal's page shows before it is booked: "Club checking holds $100.00 on Dec 6,
    2026; reversing #4 takes $150.00 out of it, so it would go below zero, to −$50.00." """
    return (
        f"{short.held_text()}; {what} takes {money_display(short.amount)} out of it, so it would go below zero, "
        f"to {money_display(short.after)}."
    )


def reversal_overdraws(*, txn: Transaction, date: dt.date, lock: bool = False) -> list[str]:
    """What a reversal of ``txn`` dated ``date`` would take below zero, said before it is booked (a payment
    whose money was spent since: its reversal takes that money out of the account again); empty when nothing.
    A page asks with ``lock`` False (it reads only); ``transaction_reverse`` asks again, locked."""
    return [
        overdraw_warning_text(short=short, what=f"reversing #{txn.pk}")
        for short in asset_shortfalls(day=date, lines=reversal_lines(txn=txn), lock=lock)
    ]


@transaction.atomic
def transaction_reverse(
    *,
    txn: Transaction,
    date: dt.date,
    reason: str,
    actor: Actor,
    opening_correction: bool = False,
    overdraw_confirmed: bool | None = None,
) -> Transaction:
    """Post the mirror image of ``txn``; both stay in the books. A transaction is reversed at most once.

    The officers' pages date a reversal today (SPEC §15.6), so it shows in the month it happens. A reversal
    may not take money out of the WSOP escrow or put it into an expense (undoing the escrow move needs a check).
    A recorded opening balance is reversed only by its correction (``opening_correction``, from
    ``finance.services.opening``), which may take its money out of the escrow: it was never there.

    A reversal is a correction, so it is not refused for taking an account below zero; but the page says so
    before it is booked (``reversal_overdraws``) and the officer confirms it: ``overdraw_confirmed`` False (the
    ledger's page, box not ticked) refuses such a reversal with the warning (ReversalOverdraws), True books
    it; None, a caller that does not ask, books it.
    """
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
    if not opening_correction and OpeningBalance.objects.filter(transaction=txn).exists():
        raise LedgerError(
            f"Transaction #{txn.pk} is an opening balance: correct it on the opening balances page (a reversal "
            "with a reason there, after which the right balance can be recorded)."
        )
    lines = reversal_lines(txn=txn)
    refusal = None if opening_correction else movement_refusal(lines=lines)
    if refusal is not None:
        raise NotTheTreasurersAlone(refusal)
    if overdraw_confirmed is False:
        warnings = reversal_overdraws(txn=txn, date=date, lock=True)
        if warnings:
            raise ReversalOverdraws(
                " ".join(warnings) + " Tick the box to reverse it all the same.", field="confirm_overdraw"
            )
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
    *,
    date: dt.date,
    from_code: str,
    to_code: str,
    amount: Decimal,
    memo: str,
    actor: Actor,
    once: str | None = None,
) -> Booked[Transaction]:
    """Money moved between the club's cash box and its checking account (a deposit, cash drawn for prizes):
    the only movement the Treasurer makes alone besides payments and payouts (SPEC §15.6). ``once``: the form's
    one-time key; the same form sent again returns the first posting, ``replayed``."""
    if once:
        existing = Transaction.objects.filter(key=form_posting_key(once)).first()
        if existing is not None:
            return Booked(existing, replayed=True)
    if from_code not in TRANSFER_CODES or to_code not in TRANSFER_CODES:
        raise NotTheTreasurersAlone(
            "A transfer moves money between the cash box and club checking only; anything else is paid by a "
            "check approved by three officers (§4.7).",
            field="to_account",
        )
    if from_code == to_code:
        raise LedgerError("Pick two different accounts.", field="to_account")
    amount_check(amount=amount, day=date)
    date_not_future_check(day=date)
    if not memo.strip():
        raise LedgerError("Say what the money is for.", field="memo")
    if len(memo.strip()) > MEMO_MAX:
        raise LedgerError(f"The memo is longer than {MEMO_MAX} characters.", field="memo")
    try:
        txn = transaction_post(
            date=date,
            kind=Transaction.Kind.TRANSFER,
            memo=memo.strip(),
            lines=[EntryLine(to_code, amount), EntryLine(from_code, -amount)],
            actor=actor,
            key=form_posting_key(once) if once else None,
        )
    except KeyUsed:
        if not once:
            raise
        return Booked(Transaction.objects.get(key=form_posting_key(once)), replayed=True)
    return Booked(txn)


def postings_hold() -> None:
    """Until this transaction ends, no posting can be written, and postings written already but not committed
    are waited for (PostgreSQL's SHARE lock on the transactions table, which every INSERT conflicts with). So
    a payment checked against the closed months a moment before a month closes either commits before the
    close reads anything, or is refused by ``transaction_post``'s second check, made after its INSERT waited
    here. SQLite runs one writer at a time and needs nothing."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(f"LOCK TABLE {Transaction._meta.db_table} IN SHARE MODE")
