"""The treasurer's monthly report as files: a PDF for the meeting, one CSV per table, or one workbook.

A member gets the club's tables and their own dues row; the officers get every member's row and the ledger.
"""

import datetime as dt

from django.http import HttpResponse
from django.utils import timezone

from events.models import Event
from finance.models import Entry
from finance.selectors import (
    MemberDuesRow,
    MonthlyReport,
    event_payout_lines,
    payout_member_names,
    payout_paid_to,
)
from ncpc.core.downloads import Table, csv_response, xlsx_response
from ncpc.core.errors import NcpcError
from ncpc.core.identity import club_file_prefix, reference_rewrite
from ncpc.core.money import credit_display
from ncpc.core.money import money_display as money
from ncpc.core.pdf import ClubPDF

CSV_TABLES = {
    "accounts": "Accounts",
    "categories": "Income and expenses",
    "fees": "Members' fees",
    "ledger": "Ledger entries of the month",
    "payouts": "Event payouts of the month",
}
OFFICER_TABLES = {"ledger"}


def report_status(report: MonthlyReport, *, iso: bool = False) -> str:
    """Whether the month is closed (SPEC §16.1): "Closed on Dec 2, 2026" once its report was presented (it
    never changes again), else "Draft". Every file says it: the PDF's title on every page, a column of every
    table (``iso``: "Closed on 2026-12-02", a date with no comma to quote)."""
    if report.closed is None:
        return "Draft"
    day = timezone.localtime(report.closed.closed_at).date()
    return f"Closed on {day.isoformat() if iso else f'{day:%b %-d, %Y}'}"


def csv_tables(*, full: bool) -> list[tuple[str, str]]:
    return [(key, label) for key, label in CSV_TABLES.items() if full or key not in OFFICER_TABLES]


def _name(report: MonthlyReport) -> str:
    return f"{club_file_prefix()}-treasurer-{report.year}-{report.month:02d}"


def _accounts(report: MonthlyReport) -> Table:
    return Table(
        "Accounts",
        ["account", "opening", "receipts", "payments", "closing"],
        [[r.account.name, r.opening, r.receipts, r.payments, r.closing] for r in report.accounts],
    )


def _categories(report: MonthlyReport) -> Table:
    rows: list = [["income", r.label, r.month, r.season] for r in report.income]
    rows += [["expense", r.label, r.month, r.season] for r in report.expenses]
    return Table("Income and expenses", ["kind", "category", "month", "season_to_date"], rows)


def _fees(rows: list[MemberDuesRow]) -> Table:
    return Table(
        "Members fees",
        ["member", "dues_and_fees", "late_fees", "paid", "balance", "good_standing"],
        [
            [r.name, r.charged, r.late_fees, r.paid, r.balance, "yes" if r.good_standing else "no"]
            for r in rows
        ],
    )


def _ledger(report: MonthlyReport) -> Table:
    entries = (
        Entry.objects.filter(transaction__date__gte=report.start, transaction__date__lte=report.end)
        .select_related("transaction", "account")
        .order_by("transaction__date", "transaction_id", "pk")
    )
    return Table(
        "Ledger",
        ["date", "transaction", "kind", "account", "amount", "memo"],
        [
            [
                e.transaction.date,
                e.transaction_id,
                e.transaction.get_kind_display(),
                e.account.name,
                e.amount,
                e.memo or e.transaction.memo,
            ]
            for e in entries
        ],
    )


def _payouts(report: MonthlyReport) -> Table:
    rows: list = []
    if report.season is not None:
        names = payout_member_names(season=report.season)
        events = Event.objects.filter(
            season=report.season, date__gte=report.start, date__lte=report.end, status=Event.Status.FINAL
        ).order_by("date", "number")
        for event in events:
            event.season = report.season
            try:
                lines = event_payout_lines(event=event)
            except NcpcError:
                lines = []
            for line in lines:
                rows.append(
                    [event.number, event.date, line.place, payout_paid_to(line, names=names), line.amount]
                )
    return Table("Payouts", ["event", "date", "place", "paid_to", "amount"], rows)


def report_tables(report: MonthlyReport, *, full: bool, own: list[MemberDuesRow]) -> dict[str, Table]:
    tables = {
        "accounts": _accounts(report),
        "categories": _categories(report),
        "fees": _fees(report.members if full else own),
        "payouts": _payouts(report),
    }
    if full:
        tables["ledger"] = _ledger(report)
    # Every table says whether the month is closed: a last column, the same on every row (SPEC §16.1).
    status = report_status(report, iso=True)
    return {
        key: Table(t.name, [*t.header, "report_status"], [[*row, status] for row in t.rows])
        for key, t in tables.items()
    }


def report_csv(
    report: MonthlyReport, *, table: str, full: bool, own: list[MemberDuesRow]
) -> HttpResponse | None:
    """One table as CSV; None for a table this reader may not have (or that does not exist)."""
    tables = report_tables(report, full=full, own=own)
    if table not in tables:
        return None
    return csv_response(tables[table], name=f"{_name(report)}-{table}")


def report_xlsx(report: MonthlyReport, *, full: bool, own: list[MemberDuesRow]) -> HttpResponse:
    return xlsx_response(report_tables(report, full=full, own=own).values(), name=_name(report))


def report_pdf(
    report: MonthlyReport, *, full: bool, own: list[MemberDuesRow], printed: dt.datetime
) -> HttpResponse:
    """The report on Letter pages (one page for a club of 20): accounts, income and expenses, outstanding
    fees and credits, the WSOP escrow."""
    title = f"Treasurer's report, {report.start:%B %Y}"
    if report.season is not None:
        title += f" · season {report.season}"
    status = report_status(report)
    pdf = ClubPDF(title=f"{title} · {status}", printed=printed)
    if report.closed is None:
        pdf.note(f"Draft: {report.start:%B %Y} is not closed; its figures may still change.")
    else:
        pdf.note(
            f"{status}: the report was presented; nothing can be dated in {report.start:%B %Y} any more."
        )
    pdf.note(
        f"Accounts for {report.start:%b %-d}–{report.end:%b %-d, %Y}; dues as of {report.as_of:%b %-d, %Y}."
    )

    pdf.heading("Accounts")
    pdf.grid(
        ["Account", "Opening", "Receipts", "Payments", "Closing"],
        [
            [r.account.name, money(r.opening), money(r.receipts), money(r.payments), money(r.closing)]
            for r in report.accounts
        ],
        widths=(62, 28, 28, 28, 28),
        right=(1, 2, 3, 4),
    )
    if report.season is not None:
        pdf.heading("Income and expenses")
        rows = [[r.label, money(r.month), money(r.season)] for r in report.income]
        total = report.income_total
        rows.append([total.label, money(total.month), money(total.season)])
        income_total_row = len(rows) - 1
        rows += [[r.label, money(r.month), money(r.season)] for r in report.expenses]
        total = report.expense_total
        rows.append([total.label, money(total.month), money(total.season)])
        pdf.grid(
            ["Category", f"{report.start:%B}", "Season to date"],
            rows,
            widths=(90, 30, 30),
            right=(1, 2),
            bold_rows=(income_total_row,),
            bold_last=True,
        )

    pdf.heading("Outstanding fees")
    if full:
        owing = report.owing
        if owing:
            rows = [
                [
                    r.name,
                    money(r.charged),
                    money(r.late_fees),
                    money(r.paid),
                    money(r.balance),
                    "yes" if r.good_standing else "no",
                ]
                for r in owing
            ]
            t = report.owing_totals
            if t is not None:  # there are rows, so there is a total
                rows.append(
                    [
                        f"{t.name} ({len(owing)})",
                        money(t.charged),
                        money(t.late_fees),
                        money(t.paid),
                        money(t.balance),
                        "",
                    ]
                )
            pdf.grid(
                ["Member", "Dues & fees", "Late fees", "Paid", "Owes", "Good standing"],
                rows,
                widths=(70, 24, 22, 24, 24, 26),
                right=(1, 2, 3, 4),
                bold_last=True,
            )
        else:
            pdf.note(f"Nobody owes anything on {report.as_of:%b %-d, %Y}.")
        if report.credits:
            rows = [[r.name, credit_display(r.credit)] for r in report.credits]
            rows.append([f"Total credits ({len(report.credits)})", credit_display(report.credit_total)])
            pdf.heading("Paid ahead")
            pdf.grid(["Member", "Credit"], rows, widths=(90, 40), right=(1,), bold_last=True)
        if report.departed:
            rows = [
                [
                    r.name,
                    f"{r.how_left}, {r.left_on:%b %-d, %Y}" if r.left_on else r.how_left,
                    money(r.paid),
                    money(r.balance) if r.balance > 0 else "",
                    money(r.forfeited) if r.forfeited else "",
                ]
                for r in report.departed
            ]
            pdf.heading(
                reference_rewrite("Members who left (no credit: what they paid stays the club's, §2.12)")
            )
            pdf.grid(
                ["Member", "Left", "Paid", "Unpaid", "Kept by the club"],
                rows,
                widths=(60, 46, 24, 24, 30),
                right=(2, 3, 4),
            )
    else:
        for r in own:
            pdf.note(
                f"Your account: dues & fees {money(r.charged)}, late fees {money(r.late_fees)}, paid {money(r.paid)}, balance {money(r.balance)}."
            )
        pdf.note(
            f"Club totals: {len(report.owing)} member(s) owe {money(report.outstanding)}; credits {money(report.credit_total)}."
        )

    pdf.heading("WSOP escrow")
    rows = [[f"Escrow balance at {report.end:%b %-d, %Y}", money(report.escrow_balance)]]
    if report.wsop_allocation is not None:
        rows.append(
            [
                f"Season allocation: {report.wsop_allocation.prizes} prize(s), entries + expenses",
                money(report.wsop_allocation.escrow),
            ]
        )
        moved = f"{report.wsop_posted_on:%b %-d, %Y}" if report.wsop_posted_on else "not yet"
        rows.append(["Moved to escrow", moved])
    pdf.grid(["", "Amount"], rows, widths=(110, 40), right=(1,))
    return pdf.response(name=_name(report))
