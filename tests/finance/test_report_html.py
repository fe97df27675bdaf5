"""The monthly report's rows built in Python (``finance.report_html``) are the text the template gave: each
function against the template lines it replaced, on rows with names to escape, one and several members,
negative amounts and credits."""

from decimal import Decimal

import pytest
from django.template import Context, Template

from finance import report_html
from finance.models import Account
from finance.selectors import AccountMonth, CategoryRow, MemberDuesRow, money_total

D = Decimal

# The template lines the functions replaced (templates/finance/partials/report_parts.html and report_row.html
# before commit "Monthly report: the tables' rows built in Python").
OLD_ACCOUNTS = (
    "{% load money_tags %}{% for row in rows %}\n"
    '    <tr><td>{{ row.account }}</td><td class="num">{{ row.opening|money }}</td><td class="num">'
    '{{ row.receipts|money }}</td><td class="num">{{ row.payments|money }}</td><td class="num fw-semibold">'
    "{{ row.closing|money }}</td></tr>\n  {% endfor %}"
)
OLD_CATEGORIES = (
    '{% load money_tags %}{% for row in rows %}<tr><td>{{ row.label }}</td><td class="num">{{ row.month|money }}'
    '</td><td class="num">{{ row.season|money }}</td></tr>{% endfor %}\n'
    '  {% with t=total %}<tr class="fw-semibold table-light"><td>{{ t.label }}</td><td class="num">'
    '{{ t.month|money }}</td><td class="num">{{ t.season|money }}</td></tr>{% endwith %}'
)
OLD_OWING = (
    '{% load money_tags %}{% for row in rows %}<tr><td>{{ row.name }}</td><td class="num">{{ row.charged|money }}'
    '</td><td class="num">{{ row.late_fees|money }}</td><td class="num">{{ row.paid|money }}</td>'
    '<td class="num text-danger">{{ row.balance|money }}</td><td>{% if row.good_standing %}yes{% else %}'
    "<strong>no</strong>{% endif %}</td></tr>\n{% endfor %}\n"
    '    {% with t=total %}<tr class="fw-semibold table-light"><td>{{ t.name }} ({{ rows|length }} member'
    '{{ rows|length|pluralize }})</td><td class="num">{{ t.charged|money }}</td><td class="num">'
    '{{ t.late_fees|money }}</td><td class="num">{{ t.paid|money }}</td><td class="num">{{ t.balance|money }}'
    "</td><td></td></tr>{% endwith %}"
)
OLD_CREDITS = (
    '{% load money_tags %}{% for row in rows %}<tr><td>{{ row.name }}</td><td class="num">{{ row.credit|credit }}'
    "</td></tr>{% endfor %}\n"
    '    <tr class="fw-semibold table-light"><td>Total credits ({{ rows|length }} member'
    '{{ rows|length|pluralize }})</td><td class="num">{{ total|credit }}</td></tr>'
)

NAMES = ['Ann "A" <Able>', "Bob & Bähr", "Cy O'Neil", "=HYPERLINK(1)"]


def old(template: str, **context) -> str:
    return Template(template).render(Context(context))


def member(name: str, balance: str, standing: bool = False) -> MemberDuesRow:
    amount = D(balance)
    return MemberDuesRow(None, name, D("410.00"), D("410.00") - amount, D("25.00"), amount, standing)  # type: ignore[arg-type]


@pytest.mark.parametrize("count", [0, 1, 3])
def test_account_rows_are_the_templates_text(count):
    rows = [
        AccountMonth(Account(name=name), D("1234.50"), D("0.00"), D("-12.00"), D("1222.50"))
        for name in NAMES[:count]
    ]
    assert report_html.account_rows_html(rows) == old(OLD_ACCOUNTS, rows=rows)


@pytest.mark.parametrize("count", [0, 1, 4])
def test_category_rows_and_their_total_are_the_templates_text(count):
    rows = [CategoryRow(name, D("-5.00"), D("1000000.25")) for name in NAMES[:count]]
    total = CategoryRow(
        "Total <income>", money_total(r.month for r in rows), money_total(r.season for r in rows)
    )
    assert report_html.category_rows_html(rows, total) == old(OLD_CATEGORIES, rows=rows, total=total)


@pytest.mark.parametrize("count", [1, 2, 4])
def test_owing_rows_and_their_total_are_the_templates_text(count):
    rows = [member(name, f"{100 + i}.10", standing=i == 1) for i, name in enumerate(NAMES[:count])]
    total = member("Total outstanding & more", "1.00")
    assert report_html.owing_rows_html(rows, total) == old(OLD_OWING, rows=rows, total=total)


@pytest.mark.parametrize("count", [1, 2, 4])
def test_credit_rows_and_their_total_are_the_templates_text(count):
    rows = [member(name, f"-{100 + i}.00", standing=True) for i, name in enumerate(NAMES[:count])]
    total = money_total(-r.balance for r in rows)
    assert report_html.credit_rows_html(rows, total) == old(OLD_CREDITS, rows=rows, total=total)


OLD_CSV_MENU = (
    '{% for key, label in csv_tables %}<li><a class="dropdown-item" href="?format=csv&amp;table={{ key }}">'
    "{{ label }} (CSV)</a></li>{% endfor %}"
)


@pytest.mark.parametrize("full", [True, False])
def test_csv_menu_is_what_the_template_gave(full):
    from finance import report_files

    tables = report_files.csv_tables(full=full)
    expected = Template(OLD_CSV_MENU).render(Context({"csv_tables": tables}))
    assert report_html.csv_menu_html(tables) == expected
    odd = [("a&b", 'Fees <"quoted">')]
    assert report_html.csv_menu_html(odd) == Template(OLD_CSV_MENU).render(Context({"csv_tables": odd}))
