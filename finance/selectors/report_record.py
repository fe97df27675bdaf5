"""A closed month's report kept as data (SPEC §17.1): closing a month records every table of its report (the
accounts, income and expenses, the members' fees, escrow, the payouts and the ledger's entries), and the
closed month's page and files are built from that record, never recomputed: what changes later (a name, a
departure, a corrected result) never shows in it.

The record is JSON: money as strings ("145.00"), dates ISO, and a ``format`` number so that a later change of
the record's shape can still read the records written before it."""

import datetime as dt
from dataclasses import replace
from decimal import Decimal
from typing import Any, NamedTuple

from django.contrib.auth import get_user_model
from django.db.models import Case, F, JSONField, When

from events.models import Season
from events.services.event_fund import WsopAllocation
from finance.models import Account, ClosedMonth, Entry
from finance.selectors.monthly_report import (
    AccountMonth,
    CategoryRow,
    LedgerRow,
    MemberDuesRow,
    MonthlyReport,
    PayoutRow,
    monthly_report,
)
from members.models import Membership, Person

RECORD_FORMAT = 1


def ledger_rows(report: MonthlyReport) -> list[LedgerRow]:
    """The ledger's entries dated in the month, in the order of their transactions."""
    entries = (
        Entry.objects.filter(transaction__date__gte=report.start, transaction__date__lte=report.end)
        .select_related("transaction", "account")
        .order_by("transaction__date", "transaction_id", "pk")
    )
    return [
        LedgerRow(
            e.transaction.date,
            e.transaction_id,
            e.transaction.get_kind_display(),
            e.account.name,
            e.amount,
            e.memo or e.transaction.memo,
        )
        for e in entries
    ]


def month_report_complete(*, year: int, month: int, today: dt.date) -> MonthlyReport:
    """The month's report computed now (its payouts table with it), its ledger table read too: what closing
    records."""
    report = monthly_report(year=year, month=month, today=today)
    return replace(report, ledger=ledger_rows(report))


def _day(value: dt.date | None) -> str | None:
    return value.isoformat() if value is not None else None


def _day_read(value: str | None) -> dt.date | None:
    return dt.date.fromisoformat(value) if value is not None else None


def report_record(report: MonthlyReport) -> dict[str, Any]:
    """The report as JSON data (its closing left out: the ClosedMonth row holds it). ``report`` must carry
    its ledger table (``month_report_complete``)."""
    season = report.season
    return {
        "format": RECORD_FORMAT,
        "year": report.year,
        "month": report.month,
        "start": _day(report.start),
        "end": _day(report.end),
        "as_of": _day(report.as_of),
        "season": None
        if season is None
        else {"id": season.pk, "name": season.name, "start": _day(season.start), "end": _day(season.end)},
        "accounts": _accounts_record(report.accounts),
        "members": _members_record(report.members),
        "charged": str(report.charged),
        "paid": str(report.paid),
        "late_fees": str(report.late_fees),
        "outstanding": str(report.outstanding),
        "escrow_balance": str(report.escrow_balance),
        "wsop_allocation": _allocation_record(report.wsop_allocation),
        "wsop_posted_on": _day(report.wsop_posted_on),
        "income": [[r.label, str(r.month), str(r.season)] for r in report.income],
        "expenses": [[r.label, str(r.month), str(r.season)] for r in report.expenses],
        "season_start": _day(report.season_start),
        "corrections": str(report.corrections),
        "payouts": [[r.event, _day(r.date), r.place, r.paid_to, str(r.amount)] for r in report.payouts],
        "ledger": [
            [r.date.isoformat(), r.transaction, r.kind, r.account, str(r.amount), r.memo]
            for r in (report.ledger or [])
        ],
    }


def _accounts_record(accounts: list[AccountMonth]) -> list[dict[str, Any]]:
    """Each account's month as data, the account named in full (a later rename never shows)."""
    return [
        {
            "account": {
                "id": r.account.pk,
                "code": r.account.code,
                "name": r.account.name,
                "kind": r.account.kind,
                "position": r.account.position,
            },
            "opening": str(r.opening),
            "money_in": str(r.money_in),
            "money_out": str(r.money_out),
            "closing": str(r.closing),
            "transfers_in": str(r.transfers_in),
            "transfers_out": str(r.transfers_out),
        }
        for r in accounts
    ]


def _members_record(members: list[MemberDuesRow]) -> list[dict[str, Any]]:
    """Each member's dues row as data, with the name the member had when the month closed."""
    return [
        {
            "membership": r.membership.pk,
            "person": r.membership.person_id,
            "user": r.membership.person.user_id,
            "name": r.name,
            "charged": str(r.charged),
            "paid": str(r.paid),
            "late_fees": str(r.late_fees),
            "balance": str(r.balance),
            "good_standing": r.good_standing,
            "left_on": _day(r.left_on),
            "how_left": r.how_left,
        }
        for r in members
    ]


def _allocation_record(allocation: WsopAllocation | None) -> dict[str, Any] | None:
    """The season's WSOP allocation as data; None when the WSOP table has no row."""
    if allocation is None:
        return None
    return {
        "member_count": allocation.member_count,
        "total_fees": str(allocation.total_fees),
        "prizes": allocation.prizes,
        "entries": str(allocation.entries),
        "expenses": str(allocation.expenses),
        "escrow": str(allocation.escrow),
        "monthly_event_funds": str(allocation.monthly_event_funds),
        "per_event": str(allocation.per_event),
    }


def _account(data: dict[str, Any]) -> Account:
    return Account(
        pk=data["id"], code=data["code"], name=data["name"], kind=data["kind"], position=data["position"]
    )


def _membership(data: dict[str, Any]) -> Membership:
    """The seat's holder as the record knows it: its id and its person's login (to find a member's own row),
    an unsaved stand-in that reads nothing."""
    membership = Membership(pk=data["membership"], person_id=data["person"])
    membership.person = Person(pk=data["person"], user_id=data["user"])
    return membership


def report_from_record(record: dict[str, Any], *, closed: ClosedMonth | None = None) -> MonthlyReport:
    """The report a record holds (``report_record``), as the page and the files read it."""
    if record.get("format") != RECORD_FORMAT:
        raise ValueError(f"A closed month's report record of format {record.get('format')!r} is not known.")
    return MonthlyReport(
        year=record["year"],
        month=record["month"],
        start=dt.date.fromisoformat(record["start"]),
        end=dt.date.fromisoformat(record["end"]),
        as_of=dt.date.fromisoformat(record["as_of"]),
        season=_season_read(record["season"]),
        accounts=_accounts_read(record["accounts"]),
        members=_members_read(record["members"]),
        charged=Decimal(record["charged"]),
        paid=Decimal(record["paid"]),
        late_fees=Decimal(record["late_fees"]),
        outstanding=Decimal(record["outstanding"]),
        escrow_balance=Decimal(record["escrow_balance"]),
        wsop_allocation=_allocation_read(record["wsop_allocation"]),
        wsop_posted_on=_day_read(record["wsop_posted_on"]),
        income=[CategoryRow(label, Decimal(m), Decimal(s)) for label, m, s in record["income"]],
        expenses=[CategoryRow(label, Decimal(m), Decimal(s)) for label, m, s in record["expenses"]],
        season_start=_day_read(record["season_start"]),
        closed=closed,
        corrections=Decimal(record["corrections"]),
        payouts=[
            PayoutRow(event, dt.date.fromisoformat(day), place, paid_to, Decimal(amount))
            for event, day, place, paid_to, amount in record["payouts"]
        ],
        ledger=[
            LedgerRow(dt.date.fromisoformat(day), transaction, kind, account, Decimal(amount), memo)
            for day, transaction, kind, account, amount, memo in record["ledger"]
        ],
    )


def _season_read(data: dict[str, Any] | None) -> Season | None:
    """The report's season as the record knows it, an unsaved stand-in; None outside a season."""
    return (
        None
        if data is None
        else Season(
            pk=data["id"],
            name=data["name"],
            start=dt.date.fromisoformat(data["start"]),
            end=dt.date.fromisoformat(data["end"]),
        )
    )


def _accounts_read(rows: list[dict[str, Any]]) -> list[AccountMonth]:
    """Each account's month as the record holds it."""
    return [
        AccountMonth(
            _account(r["account"]),
            Decimal(r["opening"]),
            Decimal(r["money_in"]),
            Decimal(r["money_out"]),
            Decimal(r["closing"]),
            Decimal(r["transfers_in"]),
            Decimal(r["transfers_out"]),
        )
        for r in rows
    ]


def _members_read(rows: list[dict[str, Any]]) -> list[MemberDuesRow]:
    """Each member's dues row as the record holds it, under the name it had when the month closed."""
    return [
        MemberDuesRow(
            _membership(r),
            r["name"],
            Decimal(r["charged"]),
            Decimal(r["paid"]),
            Decimal(r["late_fees"]),
            Decimal(r["balance"]),
            r["good_standing"],
            left_on=_day_read(r["left_on"]),
            how_left=r["how_left"],
        )
        for r in rows
    ]


def _allocation_read(allocation: dict[str, Any] | None) -> WsopAllocation | None:
    """The season's WSOP allocation as the record holds it; None when there was none."""
    if allocation is None:
        return None
    return WsopAllocation(
        member_count=allocation["member_count"],
        total_fees=Decimal(allocation["total_fees"]),
        prizes=allocation["prizes"],
        entries=Decimal(allocation["entries"]),
        expenses=Decimal(allocation["expenses"]),
        escrow=Decimal(allocation["escrow"]),
        monthly_event_funds=Decimal(allocation["monthly_event_funds"]),
        per_event=Decimal(allocation["per_event"]),
    )


def closer_record(user: Any) -> dict[str, str]:
    """Who closed the month, as the closed month's page names them (kept with the report: a name changed later
    never shows in it)."""
    return {"username": user.username, "first_name": user.first_name, "last_name": user.last_name}


def _closed_as_kept(closed: ClosedMonth, record: dict[str, Any]) -> ClosedMonth:
    """The closing with its closer as the record names them (a record kept before the closer was, as now)."""
    closer = record.get("closed_by")
    if closer is not None:
        closed.closed_by = get_user_model()(pk=closed.closed_by_id, **closer)
    return closed


class ReportRead(NamedTuple):
    """A month's report as the page shows it (``monthly_report_for``), and the first days of the months closed
    before it (the page lists those still open: SPEC §16.1, ``ledger.months_open_between``)."""

    report: MonthlyReport
    closed_before: frozenset[dt.date]


def monthly_report_read(*, year: int, month: int, today: dt.date) -> ReportRead:
    """``monthly_report_for``, with the months closed before the month: the month's closing and the earlier
    ones are read in one query, the kept report only of the month's own (an earlier month's is never read)."""
    if not 1 <= month <= 12:
        return ReportRead(monthly_report(year=year, month=month, today=today), frozenset())
    first = dt.date(year, month, 1)
    closings = list(
        ClosedMonth.objects.filter(month__lte=first)
        .defer("report")
        .annotate(kept=Case(When(month=first, then=F("report")), output_field=JSONField()))
        .order_by("month")
    )
    earlier = frozenset(c.month for c in closings if c.month < first)
    closed = next((c for c in closings if c.month == first), None)
    if closed is not None and closed.kept is not None:
        closed.report = closed.kept
        return ReportRead(
            report_from_record(closed.report, closed=_closed_as_kept(closed, closed.report)), earlier
        )
    return ReportRead(monthly_report(year=year, month=month, today=today), earlier)


def monthly_report_for(*, year: int, month: int, today: dt.date) -> MonthlyReport:
    """The month's report as every page and file shows it: a closed month's from the record its closing kept
    (SPEC §17.1), never recomputed; an open month's (or one closed before records were kept) computed."""
    return monthly_report_read(year=year, month=month, today=today).report
