"""Reads about money that pages and other apps share."""

import calendar
import datetime as dt
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from operator import attrgetter, itemgetter
from typing import Any, NamedTuple

from django.db.models import (
    CharField,
    Count,
    DecimalField,
    F,
    Q,
    QuerySet,
    Subquery,
    Sum,
    Value,
)

from events import selectors as events_selectors
from events.models import Event, Season
from events.placings import Placing
from events.rules import SeasonRules
from events.selectors import season_events, season_for_date, season_rules
from events.services.event_fund import WsopAllocation, WsopTableMissing, wsop_allocation
from finance.models import (
    Account,
    ClosedMonth,
    Disbursement,
    Entry,
    LateFeeWaiver,
    OpeningBalance,
    Payment,
    Transaction,
)
from finance.services.categories import (
    CATEGORIES,
    CREDIT,
    FORFEITED,
    CategoryAmount,
    category_totals,
    payment_categories,
)
from finance.services.dues import (
    ADMIN_FEE,
    DUES,
    LATE_FEE,
    AccountTerms,
    Charge,
    DuesStatus,
    MoneyIn,
    SeasonCharges,
    StatementLine,
    Waiver,
    account_in_good_standing,
    dues_charges,
    dues_status,
    season_charges,
    statement_lines,
    suspension_covers,
)
from finance.services.escrow import escrow_key, season_member_count
from finance.services.forecast import DuesOutlook, dues_outlook, to_play_at
from finance.services.ledger import ASSET_CODES, accounts_standard, posted_under_key
from finance.services.payouts import PayoutLine, payout_lines
from members import selectors as members_selectors
from members.models import Membership, Person, Suspension
from members.selectors import season_memberships
from members.services.seat_terms import seat_held_at, seat_left_on
from ncpc.core.identity import reference_rewrite
from ncpc.core.money import ZERO, money_display, quantize


@dataclass(frozen=True)
class DuesAccount:
    """A seat's dues account this season: every holder of the seat, their payments, the computed charges."""

    holders: list[Membership]  # first holder first
    terms: AccountTerms
    charges: list[Charge]
    payments: list[MoneyIn]
    # Each holder's suspension periods (start, end), read with the money: good standing needs both.
    suspensions: dict[int, list[tuple[dt.date, dt.date]]] = field(default_factory=dict)
    # The payments as read, in (date, id) order: ``payments`` has their amounts, the statement their texts.
    receipts: tuple["_PaymentRow", ...] = ()
    # The day each holder who left the seat left it (``members.services.seat_terms.seat_left_on``, SPEC §16.2).
    left_on: dict[int, dt.date] = field(default_factory=dict)
    # A seat whose last holder left: the season's installments after its last event, which it would have owed
    # had they stayed (a payment made before they left was split against them: ``payment_categories``).
    forgone: tuple[Charge, ...] = ()

    def suspended(self, *, membership_id: int, on: dt.date) -> bool:
        """Is that holder under a suspension on that date (SPEC §2, both ends included)?"""
        return suspension_covers(suspensions=self.suspensions.get(membership_id, ()), on=on)

    def in_good_standing(self, *, membership_id: int, on: dt.date) -> bool:
        """Is that holder of the seat in good standing on ``on`` (``finance.services.dues.account_in_good_standing``)?"""
        if all(h.pk != membership_id for h in self.holders):
            raise ValueError(
                f"Membership {membership_id} does not hold this seat: its account says nothing of it."
            )
        return account_in_good_standing(
            charges=self.charges,
            payments=self.payments,
            suspensions=self.suspensions.get(membership_id, ()),
            on=on,
            left_on=self.left_on.get(membership_id),
        )

    @property
    def holder(self) -> Membership:
        return self.holders[-1]

    @property
    def ended_on(self) -> dt.date | None:
        """The day the seat's last holder left it with no one taking it over (removed, withdrew: SPEC §16.2);
        None while it is held. A seat sold or ceded goes on with its buyer."""
        return self.left_on.get(self.holder.pk)

    def departed(self, *, on: dt.date) -> bool:
        """Had the seat's last holder left by ``on``? From that day they are never in good standing, get no
        reminder, no payment, and what they paid stays the club's (§2.12): no credit is shown."""
        ended = self.ended_on
        return ended is not None and on >= ended

    def status(self, *, on: dt.date) -> DuesStatus:
        return dues_status(charges=self.charges, payments=self.payments, on=on)

    def statement(self, *, on: dt.date) -> list[StatementLine]:
        """The account's lines by date, each payment described (``payments`` carries no text: only the
        statement shows one)."""
        payments = _money_in(self.receipts, holders=self.holders, described=True)
        return statement_lines(charges=self.charges, payments=payments, on=on)


def seat_holders(
    *, membership: Membership, memberships: Collection[Membership] | None = None
) -> list[Membership]:
    """The chain of memberships that share one seat's dues account (SPEC §2: the buyer continues it).

    Seats are sold or ceded within their season (``members.services.seats``), so the buyers are found among
    the season's memberships (``memberships``, when the caller has read them; else one query)."""
    if memberships is None:
        memberships = season_memberships(season=membership.season)
    return _seat_chain(membership, _SeasonSeats(memberships))


class _SeasonSeats:
    """A season's memberships by id, and each seat's buyer (the first in the model's order)."""

    def __init__(self, memberships: Collection[Membership]) -> None:
        self.by_pk = {m.pk: m for m in memberships}
        self.buyers: dict[int, Membership] = {}
        for m in memberships:
            if m.seat_from_id is not None:
                self.buyers.setdefault(m.seat_from_id, m)


def _seat_chain(membership: Membership, seats: _SeasonSeats) -> list[Membership]:
    chain = [membership]
    while chain[0].seat_from_id is not None:
        seller = seats.by_pk.get(chain[0].seat_from_id)
        if seller is None:  # never made by the app: a seat is sold within its season
            seller = Membership.objects.select_related("person").get(pk=chain[0].seat_from_id)
        chain.insert(0, seller)
    while chain[-1].pk in seats.buyers:
        chain.append(seats.buyers[chain[-1].pk])
    return chain


def event_dates(*, season: Season, events: Iterable[Event] | None = None) -> dict[int, dt.date]:
    return {
        event.number: event.date for event in (events if events is not None else season_events(season=season))
    }


class _PaymentRow(NamedTuple):
    """What a dues account needs of a payment (read as plain values: a season's worth per page; a named tuple
    is made without the eight ``object.__setattr__`` calls of a frozen dataclass)."""

    pk: int
    membership_id: int
    date: dt.date
    amount: Decimal
    method: str
    reference: str
    reversed_on: dt.date | None
    reversal_reason: str | None


# The typed stand-ins for the columns a table of the money UNION lacks (PostgreSQL matches a UNION's column
# types pairwise): made once.
_NO_AMOUNT = Value(None, output_field=DecimalField(max_digits=12, decimal_places=2))
_NO_TEXT = Value("", output_field=CharField())


def _money_query(**membership: int) -> QuerySet[Any]:
    """Seats' payments (with their reversal, if any), late-fee waivers and suspensions in one query, for the
    memberships ``membership`` selects (``membership_id=`` one seat, ``membership__season_id=`` a season).
    Columns: kind ("p", "w", "s"), pk, membership id, date (paid, fee, suspension start), amount, method,
    reference, second date (reversed on, waived on, suspension end), text (reversal or waiver reason). The
    columns a table has are named, not annotated: each annotation was most of the time this query took to
    build."""
    payments = (
        Payment.objects.filter(**membership)
        .order_by()
        .annotate(kind=Value("p", output_field=CharField()))
        .values_list(
            "kind",
            "pk",
            "membership_id",
            "date",
            "amount",
            "method",
            "reference",
            "transaction__reversed_by__date",
            "transaction__reversed_by__reason",
        )
    )
    waivers = (
        LateFeeWaiver.objects.filter(**membership)
        .order_by()
        .annotate(kind=Value("w", output_field=CharField()), a=_NO_AMOUNT, t=_NO_TEXT, r=_NO_TEXT)
        .values_list("kind", "pk", "membership_id", "fee_date", "a", "t", "r", "on", "reason")
    )
    suspensions = (
        Suspension.objects.filter(**membership)
        .order_by()
        .annotate(kind=Value("s", output_field=CharField()), a=_NO_AMOUNT, t=_NO_TEXT, r=_NO_TEXT, n=_NO_TEXT)
        .values_list("kind", "pk", "membership_id", "start", "a", "t", "r", "end", "n")
    )
    # One UNION ALL: every part gives every column, in that order. The rows are tuples, sorted by the caller.
    return payments.union(waivers, suspensions, all=True)


@dataclass(frozen=True)
class _Money:
    """What dues accounts and good standing need of seats, by membership: payments and waivers in date
    order, suspension periods."""

    payments: dict[int, list[_PaymentRow]]
    waivers: dict[int, list[Waiver]]
    suspensions: dict[int, list[tuple[dt.date, dt.date]]]


def _money(*, membership_ids: Collection[int], season_id: int, season_wide: bool = False) -> _Money:
    """The money and suspensions of these memberships (of the season ``season_id``), in one query;
    ``season_wide``: read as the season's even for one membership."""
    if len(membership_ids) == 1 and not season_wide:
        rows = list(_money_query(membership_id=next(iter(membership_ids))))
    else:
        rows = [row for row in _money_query(membership__season_id=season_id) if row[2] in membership_ids]
    payments: dict[int, list[_PaymentRow]] = {}
    waivers: dict[int, list[Waiver]] = {}
    suspensions: dict[int, list[tuple[dt.date, dt.date]]] = {}
    for kind, pk, membership_id, day, amount, method, reference, other_day, note in sorted(
        rows, key=itemgetter(3, 1)
    ):
        if kind == "p":
            row = _PaymentRow(pk, membership_id, day, amount, method, reference, other_day, note)
            payments.setdefault(membership_id, []).append(row)
        elif kind == "w":
            waivers.setdefault(membership_id, []).append(Waiver(day, other_day, note))
        else:
            suspensions.setdefault(membership_id, []).append((day, other_day))
    return _Money(payments, waivers, suspensions)


def dues_account(
    *,
    membership: Membership,
    rules: SeasonRules | None = None,
    events: Iterable[Event] | None = None,
    memberships: Collection[Membership] | None = None,
) -> DuesAccount:
    """One seat's dues account. The season's ``rules``, ``events`` and ``memberships``, when the caller has read
    them already (they are read otherwise)."""
    season = membership.season
    rules = rules or season_rules(season)
    dates = event_dates(season=season, events=events)
    holders = seat_holders(membership=membership, memberships=memberships)
    ids = [h.pk for h in holders]
    return _account_build(
        season=season,
        holders=holders,
        money=_money(membership_ids=ids, season_id=season.pk),
        rules=rules,
        dates=dates,
    )


METHOD_LABELS = dict(Payment.Method.choices)
_METHOD_TEXTS = {method: label.lower() for method, label in METHOD_LABELS.items()}


def _account_build(
    *,
    season: Season,
    holders: list[Membership],
    money: _Money,
    rules: SeasonRules,
    dates: dict[int, dt.date],
    shared: SeasonCharges | None = None,
) -> DuesAccount:
    """The account of one seat from its holders' payments, waivers and suspensions, already read (``money``
    may hold other seats' too). ``shared``: the season's part of every seat's charges, when the caller builds
    many accounts."""
    if len(holders) == 1:
        # ``_money`` lists each membership's payments in (date, pk) order already.
        payments = money.payments.get(holders[0].pk, [])
        waivers = money.waivers.get(holders[0].pk, [])
    else:
        payments = sorted(
            (p for h in holders for p in money.payments.get(h.pk, [])), key=attrgetter("date", "pk")
        )
        waivers = [w for h in holders for w in money.waivers.get(h.pk, [])]
    last = holders[-1]
    terms = AccountTerms(first_event=holders[0].first_event, last_event=last.left_after_event)
    money_in = _money_in(payments, holders=holders, described=False)
    charges = dues_charges(
        rules=rules,
        event_dates=dates,
        season_end=season.end,
        terms=terms,
        payments=money_in,
        waivers=waivers,
        shared=shared,
    )
    forgone: tuple[Charge, ...] = ()
    if terms.last_event is not None and terms.first_event <= 1 and terms.last_event in dates:
        cutoff = dates[terms.last_event]
        season_part = shared or season_charges(rules=rules, event_dates=dates, season_end=season.end)
        forgone = tuple(c for c in season_part.installments if c.date > cutoff)
    suspensions = {h.pk: money.suspensions[h.pk] for h in holders if h.pk in money.suspensions}
    left_on: dict[int, dt.date] = {}
    for h in holders:
        if h.left_after_event is not None:
            day = seat_left_on(
                left_on=h.left_on,
                left_after_event=h.left_after_event,
                event_dates=dates,
                season_start=season.start,
            )
            if day is not None:
                left_on[h.pk] = day
    return DuesAccount(
        holders=holders,
        terms=terms,
        charges=charges,
        payments=money_in,
        suspensions=suspensions,
        receipts=tuple(payments),
        left_on=left_on,
        forgone=forgone,
    )


def _money_in(
    payments: Sequence[_PaymentRow], *, holders: Sequence[Membership], described: bool
) -> list[MoneyIn]:
    """A seat's money in from its payments (in (date, id) order), each reversal too, on its own date, in date
    order. ``described``: with the statement's text for each ("Payment by Ann Lee, check 1043 (receipt #12)");
    the reports, the standings of dues and the door list only add the amounts up, so they go without."""
    people = {h.pk: h.person for h in holders} if described else {}
    money_in: list[MoneyIn] = []
    reversed_any = False
    for payment in payments:
        text = ""
        if described:
            who = f" by {people[payment.membership_id]}" if len(holders) > 1 else ""
            method = _METHOD_TEXTS.get(payment.method, payment.method)
            reference = f" {payment.reference}" if payment.reference else ""
            text = f"Payment{who}, {method}{reference} (receipt #{payment.pk})"
        money_in.append(MoneyIn(payment.date, payment.amount, text))
        if payment.reversed_on is not None:
            reversed_any = True
            text = f"Payment of {payment.date} reversed: {payment.reversal_reason}" if described else ""
            money_in.append(MoneyIn(payment.reversed_on, -payment.amount, text))
    if reversed_any:
        # A reversal is dated after its payment, perhaps after later payments too.
        money_in.sort(key=attrgetter("date"))
    return money_in


def season_dues_accounts(
    *,
    season: Season,
    rules: SeasonRules | None = None,
    events: Iterable[Event] | None = None,
    memberships: Collection[Membership] | None = None,
) -> list[DuesAccount]:
    """One account per seat of the season (listed under the seat's latest holder), by holder's name.

    Reads everything in a fixed number of queries (the season's rules, memberships and events unless the
    caller passes them; payments, waivers and suspensions in one), whatever the number of members;
    ``dues_account`` gives the same account for one seat.
    """
    rules = rules or season_rules(season)
    if memberships is None:
        memberships = season_memberships(season=season)
    seats = _SeasonSeats(memberships)
    chains = []
    seen: set[int] = set()
    for membership in memberships:
        if membership.pk not in seen:
            chain = _seat_chain(membership, seats)
            seen.update(h.pk for h in chain)
            chains.append(chain)

    holder_ids = {h.pk for chain in chains for h in chain}
    money = _money(membership_ids=holder_ids, season_id=season.pk, season_wide=True)
    # The season's events are kept in memory while its roster stands (events.selectors.season_events).
    dates = event_dates(season=season, events=events)
    shared = season_charges(rules=rules, event_dates=dates, season_end=season.end)
    accounts = [
        _account_build(season=season, holders=chain, money=money, rules=rules, dates=dates, shared=shared)
        for chain in chains
    ]
    return sorted(
        accounts, key=lambda a: (a.holder.person.last_name, a.holder.person.first_name, a.holder.pk)
    )


def good_standing(*, membership: Membership, on: dt.date, account: DuesAccount | None = None) -> bool:
    """SPEC §2, §7 (``finance.services.dues.account_in_good_standing``) for one member, from the seat's dues
    account, which carries the holders' suspensions too. The function results entry and every page use.

    ``account``: the membership's dues account when the caller has read it already (saves the queries).
    """
    if account is None:
        account = dues_account(membership=membership)
    return account.in_good_standing(membership_id=membership.pk, on=on)


def event_payout_lines(
    *, event: Event, placings: list[Placing] | None = None, rules: SeasonRules | None = None
) -> list[PayoutLine]:
    """The cash prizes of an event, as ``finance.services.payouts.PayoutLine`` values, best place first.

    Empty until the event has placings; raises ``PayoutTableMissing`` when the season's payout table has no
    row for the number of members on the event's date. ``placings`` and the season's ``rules``: when the
    caller has them already.
    """
    if placings is None:
        placings = events_selectors.event_placings(event=event)
    if not placings:
        return []
    count = len(members_selectors.roster_for_event(season=event.season, event_number=event.number))
    return payout_lines(rules=rules or season_rules(event.season), member_count=count, placings=placings)


def payout_member_names(*, season: Season) -> dict[int, str]:
    """Membership id → the member's full name, for naming who a payout line pays (never a login name)."""
    return {m.pk: m.person.full_name for m in season_memberships(season=season)}


def payout_paid_to(line: PayoutLine, *, names: dict[int, str]) -> str:
    """Who takes the prize, as a report prints it: the member, or the substitute who played the seat."""
    if line.paid_to == "substitute":
        return f"{line.substitute_name} (substitute)"
    return names.get(line.membership_id or 0, line.member_key)


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


def membership_payments(*, memberships: Collection[Membership]) -> list[Payment]:
    """The receipts of these seats, newest first; ``p.transaction.reversed_by`` is read with them (a reversed
    receipt is marked so wherever it is listed)."""
    return list(
        Payment.objects.filter(membership__in=memberships)
        .select_related("membership__person", "transaction__reversed_by")
        .order_by("-date", "-pk")
    )


def checks_awaiting(*, person: Person | None) -> list[Disbursement]:
    """Checks waiting for approvals that this officer has not given yet (their home page)."""
    if person is None:
        return []
    return list(
        Disbursement.objects.filter(status=Disbursement.Status.PENDING)
        .exclude(approvals__officer=person)
        .select_related("from_account", "to_account", "signer_1", "signer_2")
        .prefetch_related("approvals__officer")
        .order_by("date", "pk")
    )


def closed_month(*, year: int, month: int) -> ClosedMonth | None:
    return (
        ClosedMonth.objects.filter(month=dt.date(year, month, 1))
        .select_related("closed_by")
        .order_by("pk")
        .first()
    )


def money_total(values: Iterable[Decimal]) -> Decimal:
    return quantize(sum(values, ZERO))


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

    @property
    def to_date(self) -> bool:
        """The month is still running on the report's date: its figures run to ``as_of``, not to its end."""
        return self.as_of < self.end

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
    CREDIT: "Paid ahead (credit on account)",
    FORFEITED: "Forfeited by members who left (§2.12)",
}


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
    month = category_totals(amounts, start=start, end=end)
    season = category_totals(amounts, start=season_start, end=end)
    income = [
        CategoryRow(
            reference_rewrite(CATEGORY_LABELS[c]), quantize(month.get(c, ZERO)), quantize(season.get(c, ZERO))
        )
        for c in (*CATEGORIES, FORFEITED)
        if month.get(c) or season.get(c) or c not in (CREDIT, FORFEITED)
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


@dataclass(frozen=True)
class _LedgerMonth:
    """What the monthly report reads of the ledger: every account (by id) with its sums, and three facts of the
    report that are not an account's, read with the accounts (None when no account exists yet): the month's
    closing if it was closed (``closed_pk``), the date of the live transaction posted under the season's escrow
    key (``escrow_moved_on``, as ``posted_under_key``), and the day the books start (``books_start_on``, the
    first opening balance, as ``ledger.books_start_day``)."""

    accounts: Sequence[Account]
    sums: dict[int, _AccountSums]
    closed_pk: int | None
    escrow_moved_on: dt.date | None
    books_start_on: dt.date | None

    def of(self, account: Account) -> _AccountSums:
        return self.sums.get(account.pk, _NO_SUMS) if account.pk is not None else _NO_SUMS


def _month_sums(*, start: dt.date, end: dt.date, season_start: dt.date, escrow_prefix: str) -> _LedgerMonth:
    """Every account with its sums for the month ``start``–``end`` of the season that started on
    ``season_start``, and the report's three facts (``_LedgerMonth``).

    Three queries: the accounts (with the three facts), the entries summed by account (before the month, the
    season to date), and the month's entries themselves. A transaction's entries share its date, so the
    month's entries hold every entry of each of the month's transactions, and which of them are transfers (all
    their entries in asset accounts: money moved between the club's own accounts, a reversed transfer too) is
    seen from the rows rather than asked of the database entry by entry, as a filtered sum per figure did (most
    of the report's time went to building those sums' SQL)."""
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
        ).order_by("pk")
    )
    before: dict[int, tuple[Decimal, Decimal, int]] = {
        account_id: (quantize(opening), quantize(season_sum), count)
        for account_id, opening, season_sum, count in Entry.objects.alias(day=F("transaction__date"))
        .values("account_id")
        .annotate(
            opening=Sum("amount", filter=Q(day__lt=start)),
            season_sum=Sum("amount", filter=Q(day__gte=season_start, day__lte=end)),
            entry_count=Count("pk"),
        )
        .order_by()
        .values_list("account_id", "opening", "season_sum", "entry_count")
    }
    transactions: dict[int, list[tuple[int, Decimal]]] = {}
    for account_id, transaction_id, amount in Entry.objects.filter(
        transaction__date__gte=start, transaction__date__lte=end
    ).values_list("account_id", "transaction_id", "amount"):
        transactions.setdefault(transaction_id, []).append((account_id, amount))
    assets = {a.pk for a in accounts if a.kind == Account.Kind.ASSET}
    # Per account: receipts, payments, transfers in, transfers out.
    month: dict[int, list[Decimal]] = {}
    for entries in transactions.values():
        transfer = all(account_id in assets for account_id, _amount in entries)
        for account_id, amount in entries:
            figures = month.setdefault(account_id, [ZERO, ZERO, ZERO, ZERO])
            figures[(2 if transfer else 0) + (amount < 0)] += amount
    sums = {}
    for account_id, (opening, season_sum, count) in before.items():
        receipts, payments, moved_in, moved_out = month.get(account_id, (ZERO, ZERO, ZERO, ZERO))
        sums[account_id] = _AccountSums(
            opening=opening,
            receipts=receipts,
            payments=payments,
            transfers_in=moved_in,
            transfers_out=moved_out,
            month_sum=receipts + payments + moved_in + moved_out,
            season_sum=season_sum,
            entry_count=count,
        )
    first = accounts[0] if accounts else None
    return _LedgerMonth(
        accounts=accounts,
        sums=sums,
        closed_pk=first.closed_pk if first is not None else None,
        escrow_moved_on=first.escrow_moved_on if first is not None else None,
        books_start_on=first.books_start_on if first is not None else None,
    )


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
    season = season_for_date(as_of) or season_for_date(start)
    # One grouped read of every account (the standard ones among them): the asset accounts' month, and every
    # account's month and season to date (income and expenses by category).
    season_start = season.start if season is not None else start
    prefix = escrow_key(season=season) if season is not None else _NO_ESCROW_KEY
    ledger = _month_sums(start=start, end=end, season_start=season_start, escrow_prefix=prefix)
    accounts = accounts_standard(ledger.accounts)
    rows: list[AccountMonth] = []
    opened = _opening_balances_in_month(start=start, end=end, books_start=ledger.books_start_on)
    for code in ASSET_CODES:
        account = accounts[code]
        sums = ledger.of(account)
        # The books' first month: its opening balances (SPEC §16.6) are the month's opening, not money in.
        into, out = opened.get(account.pk, (ZERO, ZERO)) if account.pk is not None else (ZERO, ZERO)
        opening, receipts, payments = sums.opening + into + out, sums.receipts - into, sums.payments - out
        moved_in, moved_out = sums.transfers_in, sums.transfers_out
        closing = opening + receipts + payments + moved_in + moved_out
        rows.append(AccountMonth(account, opening, receipts, -payments, closing, moved_in, -moved_out))
    # Opening balances recorded or corrected in a later month move money in or out of an account against the
    # opening balances' (equity) account: neither income nor an expense. The books' first month's are its
    # opening (``opened``).
    corrections = -money_total(
        ledger.of(a).month_sum for a in ledger.accounts if a.kind == Account.Kind.EQUITY
    )
    corrections -= money_total(into + out for into, out in opened.values())
    ledger_sums = [
        (a, posted.month_sum, posted.season_sum)
        for a in ledger.accounts
        if a.kind in (Account.Kind.INCOME, Account.Kind.EXPENSE) and (posted := ledger.of(a)).entry_count
    ]

    members: list[MemberDuesRow] = []
    allocation = None
    income: list[CategoryRow] = []
    expenses: list[CategoryRow] = []
    if season is not None:
        rules = season_rules(season)
        memberships = season_memberships(season=season)
        dues_accounts = season_dues_accounts(season=season, rules=rules, memberships=memberships)
        for dues in dues_accounts:
            joined = dues.holders[0].joined_on
            if joined is not None and joined > as_of:
                # Admitted after the month: not in its report (a closed month's report never changes, §16.1).
                continue
            status = dues.status(on=as_of)
            holder = dues.holder
            name = str(holder.person)
            if len(dues.holders) > 1:
                name += " (seat of " + ", ".join(str(h.person) for h in dues.holders[:-1]) + ")"
            if holder.left_after_event is not None:
                name += f" (left after event {holder.left_after_event})"
            standing = dues.in_good_standing(membership_id=holder.pk, on=as_of)
            gone = dues.departed(on=as_of)
            members.append(
                MemberDuesRow(
                    holder,
                    name,
                    status.charged,
                    status.paid,
                    status.late_fees,
                    status.balance,
                    standing,
                    left_on=dues.ended_on if gone else None,
                    how_left=holder.get_how_left_display() if gone else "",
                )
            )
        try:
            allocation = wsop_allocation(
                rules=rules, member_count=season_member_count(season=season, memberships=memberships)
            )
        except WsopTableMissing:
            allocation = None
        income, expenses = _report_categories(
            accounts=dues_accounts,
            rules=rules,
            start=start,
            end=end,
            season_start=season.start,
            standard=accounts,
            posted=ledger_sums,
        )
    escrow = next(r for r in rows if r.account.code == Account.ESCROW)
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
        wsop_allocation=allocation,
        wsop_posted_on=moved_on,
        closed=closed,
        income=income,
        expenses=expenses,
        season_start=season.start if season is not None else None,
        corrections=corrections,
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


def account_outlook(
    *,
    account: DuesAccount,
    on: dt.date,
    events: Iterable[Event] | None = None,
    membership: Membership | None = None,
) -> DuesOutlook:
    """What the seat owes on ``on`` and next (``finance.services.forecast``), for ``membership`` (one of its
    holders; the latest when None): nothing ahead once that holder has left. ``events``: the season's, when the
    caller has read them."""
    dates = event_dates(season=account.holder.season, events=events)
    holder = membership if membership is not None else account.holder
    return dues_outlook(
        charges=account.charges,
        payments=account.payments,
        event_dates=list(dates.values()),
        on=on,
        left_on=account.left_on.get(holder.pk),
    )


def dues_paid_up(*, membership: Membership, on: dt.date) -> bool:
    """Had the member paid every charge dated on or before ``on`` (removal for unpaid fees, §2.11)?"""
    return dues_account(membership=membership).status(on=on).paid_up


def amount_owed(*, membership: Membership, on: dt.date) -> Decimal:
    """What the member must pay on ``on`` to be paid up that day (0 when nothing is owed), shown at the door.

    A late fee dated that very day is left out: it is charged only if dues are still unpaid that day, and a
    payment dated that day counts (SPEC §7), so paying the rest at the door avoids it.
    """
    account = dues_account(membership=membership)
    left_on = account.left_on.get(membership.pk)
    if left_on is not None and on >= left_on:
        return ZERO  # no payment is booked for a member who left (SPEC §16.2)
    return to_play_at(charges=account.charges, payments=account.payments, on=on, event_date=on)


@dataclass(frozen=True)
class DoorRow:
    """A member who must pay to play at an event, and how much (``forecast.to_play_at``, the door amount)."""

    membership: Membership
    amount: Decimal
    # Under a suspension on the event's day (SPEC §2): paying does not put them in good standing tonight.
    suspended: bool = False


def event_door_list(*, event: Event) -> list[DoorRow]:
    """Every seat's holder at ``event`` who must pay to play there (payments dated by the event's day count),
    by name. The same amount as the attendance page's door amount (``amount_owed``), for the whole season in a
    fixed number of queries."""
    season = event.season
    events = season_events(season=season)
    rows = []
    for account in season_dues_accounts(season=season, events=events):
        holder = account.holder
        if not seat_held_at(seat=holder, event_number=event.number) or account.departed(on=event.date):
            continue
        amount = to_play_at(
            charges=account.charges, payments=account.payments, on=event.date, event_date=event.date
        )
        if amount > 0:
            suspended = account.suspended(membership_id=holder.pk, on=event.date)
            rows.append(DoorRow(membership=holder, amount=amount, suspended=suspended))
    return rows


# --- opening balances (SPEC §16.6) ---


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
