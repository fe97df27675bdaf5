"""The treasurer's monthly report's table rows as HTML, built in Python (``templates/finance/partials/
report_parts.html`` places them).

A cold report rendered its rows with the template engine: a variable and a ``money`` filter per cell, an
include per member who owes; about a quarter of the page's own time went to that. These functions give the
same text. Every text that comes from the data goes through ``html.escape``; amounts are formatted by
``ncpc.money.money_display`` (what the ``money`` filter shows) and need none.
"""

from decimal import Decimal
from html import escape

from django.utils.safestring import SafeString, mark_safe

from finance.selectors import AccountMonth, CategoryRow, MemberDuesRow
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
        f'<tr><td>{escape(row.name)}</td><td class="num">credit {money(row.credit)}</td></tr>' for row in rows
    ]
    html.append(
        f'\n    <tr class="fw-semibold table-light"><td>Total credits ({_members(len(rows))})</td>'
        f'<td class="num">credit {money(total)}</td></tr>'
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
