"""The treasurer's monthly report as files: a PDF for the meeting, one CSV per table, or one workbook.

A member gets the club's tables and their own dues row; the officers get every member's row and the ledger.
"""

import datetime as dt

from django.http import HttpResponse
from django.utils import timezone

from finance.selectors.ledger import money_total
from finance.selectors.monthly_report import MemberDuesRow, MonthlyReport
from finance.selectors.report_record import ledger_rows
from ncpc.core.downloads import CREDIT_FORMAT, Table, csv_response, xlsx_response
from ncpc.core.identity import club_file_prefix, club_identity, reference_rewrite
from ncpc.core.money import ZERO, credit_display
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


def report_period(report: MonthlyReport) -> str:
    """The days the accounts cover: "Nov 1–30, 2026", "Dec 1–3, 2026 (to date)" while the month runs, or
    "Jan 1–31, 2027 (not started)" for a month after the report's date."""
    last = report.as_of if report.to_date else report.end
    days = f"{report.start:%b %-d}–{last:%-d, %Y}"
    if report.not_started:
        return f"{days} (not started)"
    return f"{days} (to date)" if report.to_date else days


def _draft_state(report: MonthlyReport) -> str:
    """What a month that is not closed is: not started yet (its opening is the accounts as they stand on the
    report's date), or open."""
    if report.not_started:
        return (
            f"{report.start:%B %Y} has not started; its opening is the accounts as they stand on "
            f"{report.as_of:%b %-d, %Y}"
        )
    return f"{report.start:%B %Y} is not closed; its figures may still change"


def _month_column(report: MonthlyReport) -> str:
    """The heading of the month's column: "November", or "December to date" while it runs."""
    return f"{report.start:%B} to date" if report.to_date else f"{report.start:%B}"


def csv_tables(*, full: bool) -> list[tuple[str, str]]:
    return [(key, label) for key, label in CSV_TABLES.items() if full or key not in OFFICER_TABLES]


def _name(report: MonthlyReport) -> str:
    return f"{club_file_prefix()}-treasurer-{report.year}-{report.month:02d}"


def _accounts(report: MonthlyReport) -> Table:
    """Every asset account, the total row (each figure the sum of its column), and the check line in the
    first column of the last row: opening + income − expenses = closing."""
    total = report.accounts_total
    rows: list = [
        [r.account.name, r.opening, r.money_in, r.money_out, r.transfers_in, r.transfers_out, r.closing]
        for r in [*report.accounts, total]
    ]
    rows.append([f"Check: {report.accounts_check.text}", None, None, None, None, None, None])
    return Table(
        "Accounts",
        ["account", "opening", "money_in", "money_out", "transfers_in", "transfers_out", "closing"],
        rows,
        labels=["Account", "Opening", "Money in", "Money out", "Transfers in", "Transfers out", "Closing"],
        totals=(len(rows) - 2,),
    )


def _categories(report: MonthlyReport) -> Table:
    rows: list = [["income", r.label, r.month, r.season] for r in report.income]
    totals = []
    if report.season is not None:
        total = report.income_total
        rows.append(["income", total.label, total.month, total.season])
        totals.append(len(rows) - 1)
    rows += [["expense", r.label, r.month, r.season] for r in report.expenses]
    if report.season is not None:
        total = report.expense_total
        rows.append(["expense", total.label, total.month, total.season])
        totals.append(len(rows) - 1)
    return Table(
        "Income and expenses",
        ["kind", "category", "month", "season_to_date"],
        rows,
        labels=["Kind", "Category", _month_column(report), "Season to date"],
        totals=totals,
    )


def _fees(rows: list[MemberDuesRow], *, totals: list[list] | None = None) -> Table:
    """Members' fees; ``totals``: the workbook's total rows (``_fees_totals``). A negative balance is a credit:
    the workbook shows it as "credit $200.00" (the number stays a number). A member who left has no credit
    (SPEC §16.2): what they paid beyond their charges is the club's, said in their good-standing cell, and
    their balance is what they left unpaid."""
    values: list = [[r.name, r.charged, r.late_fees, r.paid, *_fees_standing(r)] for r in rows]
    first_total = len(values)
    values += totals or []
    return Table(
        "Member fees",
        ["member", "dues_and_fees", "late_fees", "paid", "balance", "good_standing"],
        values,
        labels=["Member", "Dues and fees", "Late fees", "Paid", "Balance", "Good standing"],
        totals=range(first_total, len(values)),
        formats={4: CREDIT_FORMAT},
    )


def _fees_standing(row: MemberDuesRow) -> list:
    """A row's balance and good standing: for a member who left, what they left unpaid (never a credit) and
    the day they left, with what the club kept (§2.12)."""
    if row.left_on is None:
        return [row.balance, "yes" if row.good_standing else "no"]
    left = f"no: {row.how_left.lower() or 'left'} {row.left_on:%b %-d, %Y}"
    if row.forfeited:
        left += reference_rewrite(f"; {money(row.forfeited)} kept by the club (§2.12)")
    return [max(row.balance, ZERO), left]


def _ledger(report: MonthlyReport, *, workbook: bool = False) -> Table:
    """The month's ledger entries: a closed month's as its closing kept them (SPEC §17.1). The workbook ends
    them with their total (zero: every transaction balances)."""
    rows = report.ledger if report.ledger is not None else ledger_rows(report)
    values: list = [[r.date, r.transaction, r.kind, r.account, r.amount, r.memo] for r in rows]
    if workbook:
        values.append(
            [
                f"Total ({_count(len(rows), 'entry', 'entries')})",
                None,
                None,
                None,
                money_total(r.amount for r in rows),
                "",
            ]
        )
    return Table(
        "Ledger",
        ["date", "transaction", "kind", "account", "amount", "memo"],
        values,
        labels=["Date", "Transaction", "Kind", "Account", "Amount", "Memo"],
        totals=(len(values) - 1,) if workbook else (),
    )


def _payouts(report: MonthlyReport, *, workbook: bool = False) -> Table:
    """The month's event payouts: a closed month's as its closing kept them (SPEC §17.1), so that a result
    corrected later or a name changed later never shows in it. The workbook ends them with their total."""
    rows = report.payout_table
    values: list = [[r.event, r.date, r.place, r.paid_to, r.amount] for r in rows]
    if workbook:
        places = [r for r in rows if isinstance(r.place, int)]
        corrected = len(rows) - len(places)
        values.append(
            [
                f"Total ({_count(len(places), 'place', 'places')} paid"
                + (f", {_count(corrected, 'correction line', 'correction lines')})" if corrected else ")"),
                None,
                None,
                "",
                money_total(r.amount for r in rows),
            ]
        )
    return Table(
        "Payouts",
        ["event", "date", "place", "paid_to", "amount"],
        values,
        labels=["Event", "Date", "Place", "Paid to", "Amount"],
        totals=(len(values) - 1,) if workbook else (),
    )


def _escrow(report: MonthlyReport) -> Table:
    """The report's WSOP escrow block: the escrow balance, the season's allocation and the day it moved."""
    rows: list = [[f"Escrow balance at {report.as_of:%b %-d, %Y}", report.escrow_balance]]
    allocation = report.wsop_allocation
    if allocation is not None:
        rows.append(
            [f"Season allocation: {allocation.prizes} prize(s), entries + expenses", allocation.escrow]
        )
        rows.append(["Moved to escrow", report.wsop_posted_on or "not yet"])
    return Table("Escrow", ["item", "amount"], rows, labels=["WSOP escrow", "Amount or date"])


def _count(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


def _tables(
    report: MonthlyReport, *, full: bool, own: list[MemberDuesRow], workbook: bool
) -> dict[str, Table]:
    """The report's tables in the page's order; the workbook's have their total rows and the escrow block."""
    tables = {
        "accounts": _accounts(report),
        "categories": _categories(report),
    }
    if workbook:
        tables["escrow"] = _escrow(report)
    tables["fees"] = _fees(
        report.members if full else own, totals=_fees_totals(report) if workbook and full else None
    )
    tables["payouts"] = _payouts(report, workbook=workbook)
    if full:
        tables["ledger"] = _ledger(report, workbook=workbook)
    return tables


def _fees_totals(report: MonthlyReport) -> list[list]:
    """The officers' workbook ends the fees with what is owed and what is paid ahead, apart, as the page shows
    them (never one netted against the other): the outstanding fees' total row, the credits' total (a member
    who left has none, SPEC §16.2), and what members who left had left unpaid (not outstanding fees)."""
    totals: list[list] = []
    owed = report.owing_totals
    if owed is not None:
        count = _count(len(report.owing), "member", "members")
        totals.append([f"Total owed ({count})", owed.charged, owed.late_fees, owed.paid, owed.balance, ""])
    if report.credits:
        count = _count(len(report.credits), "member", "members")
        totals.append([f"Total credits ({count})", None, None, None, -report.credit_total, ""])
    unpaid = [r for r in report.departed if r.balance > 0]
    if unpaid:
        count = _count(len(unpaid), "member", "members")
        totals.append(
            [f"Unpaid when they left ({count})", None, None, None, money_total(r.balance for r in unpaid), ""]
        )
    return totals


def report_tables(report: MonthlyReport, *, full: bool, own: list[MemberDuesRow]) -> dict[str, Table]:
    """The report's tables as CSV files: every table says whether the month is closed, in a last column, the
    same on every row (SPEC §16.1)."""
    status = report_status(report, iso=True)
    return {
        key: Table(t.name, [*t.header, "report_status"], [[*row, status] for row in t.rows])
        for key, t in _tables(report, full=full, own=own, workbook=False).items()
    }


def report_csv(
    report: MonthlyReport, *, table: str, full: bool, own: list[MemberDuesRow]
) -> HttpResponse | None:
    """One table as CSV; None for a table this reader may not have (or that does not exist)."""
    tables = report_tables(report, full=full, own=own)
    if table not in tables:
        return None
    return csv_response(tables[table], name=f"{_name(report)}-{table}")


def report_title(report: MonthlyReport) -> str:
    title = f"Treasurer's report, {report.start:%B %Y}"
    if report.season is not None:
        title += f" · season {report.season}"
    return title


def report_xlsx(report: MonthlyReport, *, full: bool, own: list[MemberDuesRow]) -> HttpResponse:
    """The workbook: on every sheet the club, the report and its month, and "Closed on …" or "Draft" (SPEC
    §16.1) on top; the sheets as the page shows the tables."""
    status = report_status(report)
    if report.closed is None:
        status += f": {_draft_state(report)}"
    title = [
        f"{club_identity().name} · {report_title(report)}",
        f"{status}. Accounts for {report_period(report)}; dues as of {report.as_of:%b %-d, %Y}.",
    ]
    tables = _tables(report, full=full, own=own, workbook=True)
    return xlsx_response(tables.values(), name=_name(report), title=title)


# The PDF's body text, in points (issue 35: readable when handed round at the meeting).
PDF_BODY = 9.5


def report_pdf(
    report: MonthlyReport, *, full: bool, own: list[MemberDuesRow], printed: dt.datetime
) -> HttpResponse:
    """The report on Letter pages, the full width of the page (one page for a club of 20): accounts with
    their total and the check line, income and expenses, outstanding fees and credits, the WSOP escrow.
    "Draft" or "Closed on …" at the top of every page, "Page N of M" at the bottom."""
    status = report_status(report)
    size = PDF_BODY
    pdf = ClubPDF(title=report_title(report), printed=printed, marker=status, size=size)
    if report.closed is None:
        state = f"Draft: {_draft_state(report)}."
    else:
        state = f"{status}: the report was presented; nothing can be dated in {report.start:%B %Y} any more."
    pdf.note(f"{state} Accounts for {report_period(report)}; dues as of {report.as_of:%b %-d, %Y}.")

    _pdf_accounts(pdf, report=report, size=size)
    _pdf_fees(pdf, report=report, full=full, own=own, size=size)
    _pdf_payouts(pdf, report=report, size=size)
    _pdf_escrow(pdf, report=report)
    return pdf.response(name=_name(report))


def _pdf_accounts(pdf: ClubPDF, *, report: MonthlyReport, size: float) -> None:
    """The accounts with their total and the check line, then income and expenses of the season."""
    pdf.heading("Accounts")
    pdf.grid(
        _accounts(report).labels,
        [
            [r.account.name, *(money(v) for v in (r.opening, r.money_in, r.money_out))]
            + [money(r.transfers_in), money(r.transfers_out), money(r.closing)]
            for r in [*report.accounts, report.accounts_total]
        ],
        widths=(34, 24, 24, 24, 27, 29, 25),
        right=(1, 2, 3, 4, 5, 6),
        bold_last=True,
        size=size,
        fill=True,
    )
    pdf.note(f"Check: {report.accounts_check.text}.", bold=True)
    pdf.note("Transfers are money moved between the club's own accounts: neither income nor expenses.")
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
            ["Category", _month_column(report), "Season to date"],
            rows,
            widths=(110, 40, 40),
            right=(1, 2),
            bold_rows=(income_total_row,),
            bold_last=True,
            size=size,
            fill=True,
        )


def _pdf_fees(
    pdf: ClubPDF, *, report: MonthlyReport, full: bool, own: list[MemberDuesRow], size: float
) -> None:
    """Outstanding fees: for officers who owes, who paid ahead and who left; for a member their own row."""
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
                ["Member", "Dues and fees", "Late fees", "Paid", "Owes", "Good standing"],
                rows,
                widths=(60, 30, 22, 22, 22, 32),
                right=(1, 2, 3, 4),
                bold_last=True,
                size=size,
                fill=True,
            )
        else:
            pdf.note(f"Nobody owes anything on {report.as_of:%b %-d, %Y}.")
        if report.credits:
            rows = [[r.name, credit_display(r.credit)] for r in report.credits]
            rows.append([f"Total credits ({len(report.credits)})", credit_display(report.credit_total)])
            pdf.heading("Paid ahead")
            pdf.grid(["Member", "Credit"], rows, widths=(110, 40), right=(1,), bold_last=True, size=size)
        _pdf_departed(pdf, report=report, size=size)
    else:
        _pdf_own(pdf, report=report, own=own)


def _pdf_departed(pdf: ClubPDF, *, report: MonthlyReport, size: float) -> None:
    """Members who left: what they paid, what they left unpaid, what the club kept."""
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
        pdf.heading(reference_rewrite("Members who left (no credit: what they paid stays the club's, §2.12)"))
        pdf.grid(
            ["Member", "Left", "Paid", "Unpaid", "Kept by the club"],
            rows,
            widths=(60, 46, 24, 24, 30),
            right=(2, 3, 4),
            size=size,
            fill=True,
        )


def _pdf_own(pdf: ClubPDF, *, report: MonthlyReport, own: list[MemberDuesRow]) -> None:
    """A member's own account and the club's totals, for a reader who is not an officer."""
    for r in own:
        if r.balance < 0 and r.left_on is None:
            where = f"paid ahead: {credit_display(r.credit)}"
        elif r.balance > 0:
            where = f"you owe {money(r.balance)}"
        else:
            where = "paid up" if r.left_on is None else "what you paid stays with the club"
        pdf.note(
            f"Your account: dues and fees {money(r.charged)}, late fees {money(r.late_fees)}, "
            f"paid {money(r.paid)}: {where}."
        )
    pdf.note(
        f"Club totals: {len(report.owing)} member(s) owe {money(report.outstanding)}; "
        f"credits {money(report.credit_total)}."
    )


def _pdf_payouts(pdf: ClubPDF, *, report: MonthlyReport, size: float) -> None:
    """The month's event payouts and the corrections posted in it, with their total (the payouts account's
    movement); nothing when the month paid none."""
    rows = report.payout_table
    if not rows:
        return
    lines = [[str(r.event), f"{r.date:%b %-d, %Y}", str(r.place), r.paid_to, money(r.amount)] for r in rows]
    lines.append(["Total", "", "", "", money(report.payout_total)])
    pdf.heading("Event payouts")
    pdf.grid(
        ["Event", "Date", "Place", "Paid to", "Amount"],
        lines,
        widths=(16, 30, 34, 70, 30),
        right=(4,),
        bold_last=True,
        size=size,
    )


def _pdf_escrow(pdf: ClubPDF, *, report: MonthlyReport) -> None:
    """The WSOP escrow balance and the season's allocation."""
    pdf.heading("WSOP escrow")
    escrow = f"Escrow balance at {report.as_of:%b %-d, %Y}: {money(report.escrow_balance)}."
    if report.wsop_allocation is not None:
        moved = f"{report.wsop_posted_on:%b %-d, %Y}" if report.wsop_posted_on else "not yet"
        escrow += (
            f" Season allocation: {report.wsop_allocation.prizes} prize(s), entries + expenses, "
            f"{money(report.wsop_allocation.escrow)}; moved to escrow: {moved}."
        )
    pdf.note(escrow)
