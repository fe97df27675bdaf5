"""The treasurer's monthly report's heading and body as HTML, built in Python (``templates/finance/report.html``
places them; they are cached with the report).

A cold report rendered its rows with the template engine: a variable and a ``money`` filter per cell, an
include per member who owes; about a quarter of the page's own time went to that. These functions give the
same text. Every text that comes from the data goes through ``html.escape``; amounts are formatted by
``ncpc.money.money_display`` (what the ``money`` filter shows) and need none.
"""

import datetime as dt
from decimal import Decimal
from html import escape

from django.utils.safestring import SafeString, mark_safe

from finance.selectors import AccountMonth, CategoryRow, MemberDuesRow, MonthlyReport
from ncpc.dates import date_text
from ncpc.money import credit_display
from ncpc.money import money_display as money


def _members(count: int) -> str:
    return f"{count} member{'' if count == 1 else 's'}"


def account_rows_html(rows: list[AccountMonth]) -> SafeString:
    """The accounts table's rows: opening, receipts, payments and closing of each asset account."""
    html = [
        f'\n    <tr><td>{escape(row.account.name)}</td><td class="num">{money(row.opening)}</td>'
        f'<td class="num">{money(row.receipts)}</td><td class="num">{money(row.payments)}</td>'
        f'<td class="num fw-semibold">{money(row.closing)}</td></tr>\n  '
        for row in rows
    ]
    return mark_safe("".join(html))  # noqa: S308  # nosec B308 B703: data escaped above


def category_rows_html(rows: list[CategoryRow], total: CategoryRow) -> SafeString:
    """Income or expense rows by category (the month, the season to date), then their total row."""
    html = [
        f'<tr><td>{escape(row.label)}</td><td class="num">{money(row.month)}</td>'
        f'<td class="num">{money(row.season)}</td></tr>'
        for row in rows
    ]
    html.append(
        f'\n  <tr class="fw-semibold table-light"><td>{escape(total.label)}</td>'
        f'<td class="num">{money(total.month)}</td><td class="num">{money(total.season)}</td></tr>'
    )
    return mark_safe("".join(html))  # noqa: S308  # nosec B308 B703: data escaped above


def owing_rows_html(rows: list[MemberDuesRow], total: MemberDuesRow) -> SafeString:
    """The members who owe (their dues and fees, late fees, paid, owed, good standing), then the total row."""
    html = [
        f'<tr><td>{escape(row.name)}</td><td class="num">{money(row.charged)}</td>'
        f'<td class="num">{money(row.late_fees)}</td><td class="num">{money(row.paid)}</td>'
        f'<td class="num text-danger">{money(row.balance)}</td>'
        f"<td>{'yes' if row.good_standing else '<strong>no</strong>'}</td></tr>\n"
        for row in rows
    ]
    html.append(
        f'\n    <tr class="fw-semibold table-light"><td>{escape(total.name)} ({_members(len(rows))})</td>'
        f'<td class="num">{money(total.charged)}</td><td class="num">{money(total.late_fees)}</td>'
        f'<td class="num">{money(total.paid)}</td><td class="num">{money(total.balance)}</td><td></td></tr>'
    )
    return mark_safe("".join(html))  # noqa: S308  # nosec B308 B703: data escaped above


def credit_rows_html(rows: list[MemberDuesRow], total: Decimal) -> SafeString:
    """The members who paid ahead and their credit, then the total row (``total``: the credits' sum)."""
    html = [
        f'<tr><td>{escape(row.name)}</td><td class="num">{credit_display(row.credit)}</td></tr>'
        for row in rows
    ]
    html.append(
        f'\n    <tr class="fw-semibold table-light"><td>Total credits ({_members(len(rows))})</td>'
        f'<td class="num">{credit_display(total)}</td></tr>'
    )
    return mark_safe("".join(html))  # noqa: S308  # nosec B308 B703: data escaped above


def csv_menu_html(tables: list[tuple[str, str]]) -> SafeString:
    """The report's spreadsheet menu: one CSV link per table (``report_files.csv_tables``)."""
    return mark_safe(  # noqa: S308  # nosec B308 B703: data escaped here
        "".join(
            f'<li><a class="dropdown-item" href="?format=csv&amp;table={escape(key)}">{escape(label)} (CSV)</a></li>'
            for key, label in tables
        )
    )


def report_head_html(
    *, report: MonthlyReport, prev: dt.date, nxt: dt.date, prev_url: str, next_url: str, csv_menu: str
) -> SafeString:
    """The report's heading: its month, the months beside it, the PDF, spreadsheets and print buttons."""
    html = (
        '\n<div class="d-flex flex-wrap align-items-center gap-2 mb-2">\n'
        f'  <h1 class="h3 mb-0 me-auto">Treasurer\'s report · {date_text(report.start, "F Y")}</h1>\n'
        '  <div class="d-print-none d-flex flex-wrap gap-2">\n'
        f'    <a class="btn btn-outline-secondary btn-sm" href="{escape(prev_url)}">‹ {date_text(prev, "M Y")}</a>\n'
        f'    <a class="btn btn-outline-secondary btn-sm" href="{escape(next_url)}">{date_text(nxt, "M Y")} ›</a>\n'
        '    <a class="btn btn-outline-primary btn-sm" href="?format=pdf" download>PDF</a>\n'
        '    <div class="dropdown">\n'
        '      <button class="btn btn-outline-secondary btn-sm dropdown-toggle" type="button" '
        'data-bs-toggle="dropdown">Spreadsheets</button>\n'
        '      <ul class="dropdown-menu dropdown-menu-end">\n'
        '        <li><a class="dropdown-item" href="?format=xlsx">Workbook (XLSX, every table)</a></li>\n'
        '        <li><hr class="dropdown-divider"></li>\n'
        f"        {csv_menu}\n"
        "      </ul>\n"
        "    </div>\n"
        '    <button class="btn btn-primary btn-sm" data-print>Print</button>\n'
        "  </div>\n"
        "</div>\n"
    )
    return mark_safe(html)  # noqa: S308  # nosec B308 B703: the addresses escaped, the rest ours


def report_body_html(*, report: MonthlyReport, full: bool, own: list[MemberDuesRow]) -> SafeString:
    """The report's tables: accounts, income and expenses, outstanding fees (every seat for the officers who
    see it in ``full``, else the reader's ``own`` seat and the club's totals), the WSOP escrow."""
    html = [
        '\n<div class="row g-3">\n<div class="col-12 col-lg-6">\n<h2 class="h5">Accounts</h2>\n'
        '<div class="table-responsive"><table class="table table-sm">\n'
        '  <thead><tr><th>Account</th><th class="num">Opening</th><th class="num">Receipts</th>'
        '<th class="num">Payments</th><th class="num">Closing</th></tr></thead>\n'
        f"  <tbody>{account_rows_html(report.accounts)}</tbody>\n"
        "</table></div>\n</div>\n\n"
        '<div class="col-12 col-lg-6">\n<h2 class="h5">Income and expenses</h2>\n'
    ]
    if report.season:
        html.append(
            '\n<div class="table-responsive"><table class="table table-sm">\n'
            f'  <thead><tr><th>Category</th><th class="num">{date_text(report.start, "F")}</th>'
            '<th class="num">Season to date</th></tr></thead>\n'
            "  <tbody>\n"
            f"  {category_rows_html(report.income, report.income_total)}\n"
            f"  {category_rows_html(report.expenses, report.expense_total)}\n"
            "  </tbody>\n"
            "</table></div>\n"
            '<p class="small text-muted">Members\' money by what it paid for: the oldest charge first; money beyond '
            "the charges due pays later installments ahead. Season to date: from "
            f"{date_text(report.season_start, 'M j, Y') if report.season_start else ''}.</p>\n"
        )
    else:
        html.append('<p class="text-muted">No season covers this month.</p>')
    html.append('\n</div>\n</div>\n\n<h2 class="h5 mt-2">Outstanding fees</h2>\n')
    if full:
        owing, totals = report.owing, report.owing_totals
        if owing and totals is not None:
            html.append(
                '\n  \n  <div class="table-responsive"><table class="table table-sm">\n'
                '    <thead><tr><th>Member</th><th class="num">Dues &amp; fees</th><th class="num">Late fees</th>'
                '<th class="num">Paid</th><th class="num">Owes</th><th>Good standing</th></tr></thead>\n'
                "    <tbody>\n"
                f"    {owing_rows_html(owing, totals)}\n"
                "    </tbody>\n"
                "  </table></div>\n  "
            )
        else:
            html.append(f"\n  <p>Nobody owes anything on {date_text(report.as_of, 'M j, Y')}.</p>")
        html.append("\n  ")
        credits = report.credits
        if credits:
            html.append(
                '\n  <h3 class="h6">Paid ahead</h3>\n'
                '  <div class="table-responsive"><table class="table table-sm mw-32">\n'
                "    <tbody>\n"
                f"    {credit_rows_html(credits, report.credit_total)}\n"
                "    </tbody>\n"
                "  </table></div>\n  "
            )
        html.append("\n")
    else:
        html.append("\n  ")
        for row in own:
            if row.balance > 0:
                state = f"<strong>you owe {money(row.balance)}</strong>"
            elif row.balance < 0:
                state = f"you paid ahead: {credit_display(row.credit)}"
            else:
                state = "paid up"
            html.append(
                f"\n  <p>Your account: dues &amp; fees {money(row.charged)}, late fees {money(row.late_fees)}, "
                f"paid {money(row.paid)} —\n    {state}.</p>\n  "
            )
        owing_count = len(report.owing)
        html.append(
            f"\n  <p>Club totals: {owing_count} member{'' if owing_count == 1 else 's'} owe "
            f"{money(report.outstanding)}; credits {money(report.credit_total)}.</p>\n"
            '  <p class="small text-muted">Other members\' dues are shown to the officers only.</p>\n'
        )
    html.append(
        '\n\n<h2 class="h5 mt-3">WSOP escrow</h2>\n<table class="table table-sm mw-32"><tbody>\n'
        f"  <tr><td>Escrow balance at {date_text(report.end, 'M j, Y')}</td>"
        f'<td class="num fw-semibold">{money(report.escrow_balance)}</td></tr>\n  '
    )
    allocation = report.wsop_allocation
    if allocation:
        posted = report.wsop_posted_on
        moved = date_text(posted, "M j, Y") if posted else "not yet"
        html.append(
            f"\n  <tr><td>Season allocation: {allocation.prizes} prize(s), entries + expenses</td>"
            f'<td class="num">{money(allocation.escrow)}</td></tr>\n'
            f'  <tr><td>Moved to escrow</td><td class="num">{moved}</td></tr>\n  '
        )
    html.append("\n</tbody></table>\n\n")
    return mark_safe("".join(html))  # noqa: S308  # nosec B308 B703: data escaped by the row builders
