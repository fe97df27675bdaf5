"""Dues accounts and good standing: one seat's account (every holder of the seat, their payments, waivers
and suspensions, the computed charges), the season's accounts, and what pages and other apps ask of them."""

import datetime as dt
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from operator import attrgetter, itemgetter
from typing import Any, NamedTuple

from django.db.models import CharField, DecimalField, QuerySet, Value

from events.models import Event, Season
from events.rules import SeasonRules
from events.selectors import season_events, season_rules
from finance.models import LateFeeWaiver, Payment
from finance.services.dues import (
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
from finance.services.forecast import DuesOutlook, dues_outlook, to_play_at
from members.models import Membership, Suspension
from members.selectors import season_memberships
from members.services.seat_terms import seat_left_on
from ncpc.core.money import ZERO


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
    # The season's events: the caller's, else read here (one query, events.selectors.season_events).
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


def membership_payments(*, memberships: Collection[Membership]) -> list[Payment]:
    """The receipts of these seats, newest first; ``p.transaction.reversed_by`` is read with them (a reversed
    receipt is marked so wherever it is listed)."""
    return list(
        Payment.objects.filter(membership__in=memberships)
        .select_related("membership__person", "transaction__reversed_by")
        .order_by("-date", "-pk")
    )


def last_payment_on(*, membership: Membership) -> dt.date | None:
    """The day of the member's latest payment that stands (a reversed one does not): a member cannot leave on or
    before it, since no payment is booked on or after the day a member leaves (answers
    ``members.hooks.last_payment_on``)."""
    latest: dt.date | None = (
        Payment.objects.filter(membership=membership, transaction__reversed_by__isnull=True)
        .order_by("-date")
        .values_list("date", flat=True)
        .first()
    )
    return latest
