"""Follow-ups of issues 45 and 47.

A payout correction in the monthly report (SPEC §17.2, issue 45): event 3 (Oct 24, 2026) had 11 members on its
roster, so the bylaws' payout table (§6.2) paid $165, $100 and $65: Ann 1st, Bob 2nd, Cy 3rd, paid in cash that
night. August to October are closed on Dec 5; then the results are found wrong (Bob won, Ann was 2nd), and the
difference is posted dated Dec 5, in open December: Bob +$65, Ann −$65 on the payouts account. December's
report lists those two rows in its Event payouts table (event 3, "correction"), and the table's total is what
the payouts account moved in December; October's kept report still says Ann $165, Bob $100, Cy $65.

The schedule's texts (SPEC §16, issue 47): the day of the week is a season rule (``Season.schedule_weekday``),
so the season file, the rule-change ballot and its form count an nth day of the week, not an nth Saturday.
"""

import csv
import datetime as dt
import io
from decimal import Decimal

import pytest
from django.urls import reverse
from openpyxl import load_workbook
from pypdf import PdfReader

from finance.models import Account, ClosedMonth, Entry, Transaction
from finance.selectors.monthly_report import monthly_report
from finance.selectors.payouts import payout_correction_prefix, payout_held
from finance.selectors.report_record import (
    month_report_complete,
    monthly_report_for,
    report_from_record,
    report_record,
)
from finance.services.ledger import EntryLine, next_key, reversal_lines, transaction_post
from members.governance_forms import AcceptForm
from members.services.rule_changes import rule_value_clean
from ncpc.club.services.season_file import _Reader, _rule_value_read
from ncpc.core.errors import NcpcError
from tests.finance import conftest
from tests.finance.conftest import bob_won
from tests.finance.test_closed_month_final import what_a_reader_gets

D = Decimal


# The October club (``october``, ``bob_won``) is tests.finance.conftest's, shared with test_payout_corrections;
# its fixtures are named here too for tests/events/test_results_entry_closed_month.py, which imports them.
everyone_eligible = conftest.everyone_eligible
october = conftest.october
pytestmark = pytest.mark.usefixtures("everyone_eligible")


def test_a_season_files_schedule_pair_is_explained_as_month_and_nth_day_of_the_week():
    reader = _Reader()
    _rule_value_read(reader, "rules.schedule", [[11, 2], [12]], kind="schedule")
    assert reader.problems == ["rules.schedule[1]: [12] must be [month, nth day of the week], like [11, 2]"]


def test_a_rule_change_to_the_schedule_refuses_a_sixth_week_without_naming_saturday():
    with pytest.raises(NcpcError) as refused:
        rule_value_clean(field="schedule", text="8-4, 9-6")
    assert "is not a month (1–12) and an nth day of the week (1–5)." in str(refused.value)
    assert "Saturday" not in str(refused.value)


def test_the_ballot_forms_help_counts_the_seasons_weekday():
    help_text = str(AcceptForm().fields["new_value"].help_text)
    assert "(month-nth day of the season's weekday)" in help_text
    assert "Saturday" not in help_text


def _correction_posted(event, treasurer, lines):
    """The correction as the payouts page posts it (finance.services.payout_corrections): dated today, under
    the key prefix ``payout-correction:event:<pk>:``, one payouts entry per member, the cash for their sum."""
    return transaction_post(
        date=dt.date(2026, 12, 5),
        kind=Transaction.Kind.PAYOUT,
        memo=f"Correction of event {event.number} payouts",
        lines=lines,
        actor=treasurer,
        key=next_key(prefix=payout_correction_prefix(event=event)),
    )


def _bob_and_ann(event, seats, treasurer):
    """Bob won, Ann was 2nd: Bob is paid $65 more, Ann gives $65 back."""
    bob_won(event, seats, treasurer)
    bob, ann = seats["bob"].membership_id, seats["ann"].membership_id
    return _correction_posted(
        event,
        treasurer,
        [
            EntryLine(Account.PAYOUTS, D("65.00"), membership_id=bob, memo="Place 1: Bob Test"),
            EntryLine(Account.PAYOUTS, D("-65.00"), membership_id=ann, memo="Place 2: Ann Test"),
        ],
    )


def _payouts_moved_in_december():
    return sum(
        Entry.objects.filter(
            account__code=Account.PAYOUTS,
            transaction__date__gte=dt.date(2026, 12, 1),
            transaction__date__lte=dt.date(2026, 12, 31),
        ).values_list("amount", flat=True),
        D("0.00"),
    )


def _rows(report):
    return [(r.event, r.date, r.place, r.paid_to, r.amount) for r in report.payout_table]


CORRECTED = [
    (3, dt.date(2026, 12, 5), "correction", "Bob Test", D("65.00")),
    (3, dt.date(2026, 12, 5), "correction", "Ann Test", D("-65.00")),
]


def test_a_correction_posted_in_december_is_in_decembers_payouts_table(october, treasurer):
    event, seats = october
    _bob_and_ann(event, seats, treasurer)
    assert payout_held(event=event)[seats["bob"].membership_id] == D("165.00")
    december = monthly_report(year=2026, month=12, today=dt.date(2026, 12, 5))
    assert _rows(december) == CORRECTED  # event 5 (Dec 12) not played yet: nothing else paid
    assert december.payout_total == D("0.00") == _payouts_moved_in_december()
    october_kept = monthly_report_for(year=2026, month=10, today=dt.date(2026, 12, 5))
    assert _rows(october_kept) == [
        (3, dt.date(2026, 10, 24), 1, "Ann Test", D("165.00")),
        (3, dt.date(2026, 10, 24), 2, "Bob Test", D("100.00")),
        (3, dt.date(2026, 10, 24), 3, "Cy Test", D("65.00")),
    ]


def test_a_correction_that_pays_more_than_it_takes_back_totals_what_the_payouts_account_moved(
    october, treasurer
):
    """Di is found to have outlasted Cy and is owed 3rd place's $65; Cy keeps his (a ruling): the cash box
    pays $65 and the payouts account moves $65 in December."""
    event, seats = october
    _correction_posted(
        event,
        treasurer,
        [
            EntryLine(Account.PAYOUTS, D("65.00"), membership_id=seats["di"].membership_id, memo="Place 3"),
            EntryLine(Account.CASH, D("-65.00"), memo="Payout correction, event 3"),
        ],
    )
    december = monthly_report(year=2026, month=12, today=dt.date(2026, 12, 5))
    assert _rows(december) == [(3, dt.date(2026, 12, 5), "correction", "Di Test", D("65.00"))]
    assert december.payout_total == D("65.00") == _payouts_moved_in_december()


def test_a_correction_reversed_in_the_same_month_shows_both_and_adds_up_to_nothing(october, treasurer):
    event, seats = october
    txn = _bob_and_ann(event, seats, treasurer)
    # Reversed as a voided correction is (the officers' approval undone): its mirror image, dated today.
    transaction_post(
        date=dt.date(2026, 12, 5),
        kind=Transaction.Kind.REVERSAL,
        memo=f"Reversal of #{txn.pk}",
        lines=reversal_lines(txn=txn),
        actor=treasurer,
        reverses=txn,
        reason="Posted twice by mistake",
    )
    december = monthly_report(year=2026, month=12, today=dt.date(2026, 12, 5))
    assert _rows(december) == [
        *CORRECTED,
        (3, dt.date(2026, 12, 5), "correction reversed", "Bob Test", D("-65.00")),
        (3, dt.date(2026, 12, 5), "correction reversed", "Ann Test", D("65.00")),
    ]
    assert december.payout_total == D("0.00") == _payouts_moved_in_december()


def test_decembers_csv_workbook_and_pdf_show_the_correction_rows(october, treasurer, client):
    event, seats = october
    _bob_and_ann(event, seats, treasurer)
    client.force_login(treasurer)
    url = reverse("finance:report", args=(2026, 12))

    rows = list(
        csv.reader(io.StringIO(client.get(url, {"format": "csv", "table": "payouts"}).content.decode()))
    )
    assert [r[:5] for r in rows[1:]] == [
        ["3", "2026-12-05", "correction", "Bob Test", "65.00"],
        ["3", "2026-12-05", "correction", "Ann Test", "-65.00"],
    ]

    workbook = load_workbook(io.BytesIO(client.get(url, {"format": "xlsx"}).content))
    sheet = workbook["Payouts"]
    cells = [list(r) for r in sheet.iter_rows(values_only=True)]
    assert cells[-1][0] == "Total (0 places paid, 2 correction lines)"
    assert cells[-1][4] == 0
    assert [c[2:5] for c in cells[-3:-1]] == [["correction", "Bob Test", 65], ["correction", "Ann Test", -65]]

    pdf = "".join(
        p.extract_text() for p in PdfReader(io.BytesIO(client.get(url, {"format": "pdf"}).content)).pages
    )
    assert "Event payouts" in pdf
    assert "correction Bob Test $65.00" in pdf
    assert "correction Ann Test −$65.00" in pdf


def test_closing_december_keeps_the_correction_rows(october, treasurer):
    event, seats = october
    _bob_and_ann(event, seats, treasurer)
    report = month_report_complete(year=2026, month=12, today=dt.date(2026, 12, 5))
    record = report_record(report)
    assert record["payouts"] == [
        [3, "2026-12-05", "correction", "Bob Test", "65.00"],
        [3, "2026-12-05", "correction", "Ann Test", "-65.00"],
    ]
    assert _rows(report_from_record(record)) == CORRECTED


def test_octobers_kept_page_and_files_stay_as_closed_after_the_correction(october, treasurer, client):
    event, seats = october
    client.force_login(treasurer)
    record = ClosedMonth.objects.get(month=dt.date(2026, 10, 1)).report
    before = what_a_reader_gets(client, 2026, 10)
    _bob_and_ann(event, seats, treasurer)
    assert ClosedMonth.objects.get(month=dt.date(2026, 10, 1)).report == record
    assert what_a_reader_gets(client, 2026, 10) == before
    assert b"correction" not in before["payouts"]
