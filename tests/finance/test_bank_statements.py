"""Bank statements (bylaws §3.6.6, SPEC §17.3, issue 45 item 3): the Treasurer keeps each month's statement
of each bank account (the bank's PDF, through Django's storage API); every logged-in member reads and
downloads them; none is deleted: a replacement is a new version with its reason, audited. The reconciliation
pages (SPEC §17.4) are the Treasurer's. The club's date is Dec 5, 2026: November is over."""

import datetime as dt
from decimal import Decimal as D
from pathlib import Path

import pytest
import time_machine
from django.core.files.storage import default_storage
from django.urls import reverse

from finance.models import Account, BankLine, BankStatement
from finance.services.bank_statements import BankStatementError, bank_statement_upload
from finance.services.ledger import account_get
from ncpc.core.models import AuditEntry
from tests.factories import MembershipFactory, once
from tests.finance.factories import opening_balance, pay

pytestmark = pytest.mark.django_db
NOV = dt.date(2026, 11, 1)
PDF = b"%PDF-1.4\n% the bank's statement, November 2026\n%%EOF\n"
PDF_2 = b"%PDF-1.4\n% the bank's corrected statement, November 2026\n%%EOF\n"
OFX_NOVEMBER = (Path(__file__).parent / "november.ofx").read_bytes()


@pytest.fixture(autouse=True)
def media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    return settings.MEDIA_ROOT


@pytest.fixture
def december(today):
    with time_machine.travel(dt.datetime(2026, 12, 5, 17, 0, tzinfo=dt.UTC), tick=False):
        yield dt.date(2026, 12, 5)


@pytest.fixture
def books(december):
    opening_balance(amount="1000.00", day="2026-11-01")


def upload(treasurer, data=PDF, reason="", key=None, month=NOV):
    return bank_statement_upload(
        code=Account.CHECKING,
        month=month,
        name="Statement Nov 2026.pdf",
        data=data,
        reason=reason,
        actor=treasurer,
        once=key or once(),
    )


def test_a_statement_is_kept_in_the_storage_as_the_bank_gave_it(books, treasurer, media):
    statement = upload(treasurer).record
    assert (statement.account.code, statement.month, statement.version, statement.size) == (
        Account.CHECKING,
        NOV,
        1,
        len(PDF),
    )
    assert statement.file.name == "bank-statements/checking/2026-11-v1.pdf"
    assert default_storage.open(statement.file.name).read() == PDF
    assert (media / "bank-statements" / "checking" / "2026-11-v1.pdf").read_bytes() == PDF
    audit = AuditEntry.objects.get(action="finance.bank.statement")
    assert audit.summary == (
        "Kept the statement of Club checking for November 2026 (version 1, Statement Nov 2026.pdf, 53 bytes)"
    )


def test_a_replacement_is_a_new_version_with_its_reason_and_the_first_is_kept(books, treasurer):
    first = upload(treasurer).record
    with pytest.raises(BankStatementError, match=r"has a statement for November 2026 already \(version 1\)"):
        upload(treasurer, data=PDF_2)
    second = upload(treasurer, data=PDF_2, reason="The bank corrected a fee").record
    assert (second.version, second.reason, second.file.name) == (
        2,
        "The bank corrected a fee",
        "bank-statements/checking/2026-11-v2.pdf",
    )
    assert [s.version for s in BankStatement.objects.order_by("version")] == [1, 2]
    assert default_storage.open(first.file.name).read() == PDF
    assert default_storage.open(second.file.name).read() == PDF_2
    assert (
        AuditEntry.objects.filter(action="finance.bank.statement").order_by("pk").last().reason
        == "The bank corrected a fee"
    )


def test_the_same_form_sent_twice_keeps_one_statement(books, treasurer):
    key = once()
    first = upload(treasurer, key=key)
    again = upload(treasurer, key=key)
    assert (again.replayed, again.record.pk) == (True, first.record.pk)
    assert BankStatement.objects.count() == 1


@pytest.mark.parametrize(
    ("data", "month", "message"),
    [
        (b"", NOV, "The file is empty."),
        (b"PK\x03\x04 a workbook", NOV, "must be the bank's PDF"),
        (PDF, dt.date(2026, 12, 1), "December 2026 is not over yet"),
    ],
)
def test_a_statement_that_is_not_a_pdf_or_of_a_month_not_over_is_refused(
    books, treasurer, data, month, message
):
    with pytest.raises(BankStatementError, match=message):
        upload(treasurer, data=data, month=month)
    assert BankStatement.objects.count() == 0


def test_every_member_downloads_a_statement_and_only_the_treasurer_keeps_one(
    client, books, treasurer, member
):
    statement = upload(treasurer).record
    client.force_login(member)
    page = client.get(reverse("finance:bank_statements"))
    assert page.status_code == 200
    assert "Download statement (Nov 2026, PDF)" in page.content.decode()
    assert "Keep a statement" not in page.content.decode()
    response = client.get(reverse("finance:bank_statement_file", args=[statement.pk]))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    assert response["Content-Disposition"] == 'attachment; filename="checking-2026-11-statement-v1.pdf"'
    assert b"".join(response.streaming_content) == PDF
    refused = client.post(
        reverse("finance:bank_statements"), {"account": Account.CHECKING, "month": "2026-11"}
    )
    assert refused.status_code == 403
    assert client.get(reverse("finance:reconcile", args=[Account.CHECKING, 2026, 11])).status_code == 403
    client.logout()
    assert client.get(reverse("finance:bank_statement_file", args=[statement.pk])).status_code == 302


def test_the_treasurer_uploads_through_the_page_and_a_bad_file_is_a_form_error(client, books, treasurer):
    from django.core.files.uploadedfile import SimpleUploadedFile

    client.force_login(treasurer)
    url = reverse("finance:bank_statements")
    bad = client.post(
        url,
        {
            "account": Account.CHECKING,
            "month": "2026-11",
            "once": once(),
            "file": SimpleUploadedFile("s.pdf", b"hello"),
        },
    )
    assert bad.status_code == 200
    assert "must be the bank&#x27;s PDF" in bad.content.decode()
    good = client.post(
        url,
        {
            "account": Account.CHECKING,
            "month": "2026-11",
            "once": once(),
            "file": SimpleUploadedFile("s.pdf", PDF),
        },
    )
    assert good.status_code == 302
    assert good["Location"] == reverse("finance:bank_month", args=[2026, 11])
    assert BankStatement.objects.get().version == 1


def test_the_months_report_links_its_statements_and_shows_a_recorded_difference(
    client, books, treasurer, member, season
):
    from finance.services.reconciliation import bank_file_import, difference_record

    upload(treasurer)
    bob = MembershipFactory(season=season)
    pay(membership=bob, day="2026-11-03", amount="410.00", method="check", actor=treasurer)
    bank_file_import(
        code=Account.CHECKING,
        month=NOV,
        name="november.ofx",
        data=OFX_NOVEMBER.replace(
            b"<TRNAMT>-120.00<FITID>20261120-1<CHECKNUM>1043<NAME>CHECK 1043",
            b"<TRNAMT>-3.00<FITID>fee<NAME>SERVICE FEE",
        ).replace(b"<BALAMT>1290.00", b"<BALAMT>1407.00"),
        actor=treasurer,
    )
    difference_record(
        code=Account.CHECKING, month=NOV, reason="Service fee, booked in December", actor=treasurer
    )
    client.force_login(member)
    html = client.get(reverse("finance:report", args=[2026, 11])).content.decode()
    assert reverse("finance:bank_statement_file", args=[BankStatement.objects.get().pk]) in html
    assert (
        "Club checking: statement $1,407.00, books less items not cleared $1,410.00: difference −$3.00 recorded by "
        "the Treasurer — Service fee, booked in December"
    ) in " ".join(html.split())


def test_the_treasurer_imports_and_matches_on_the_reconciliation_page(client, books, treasurer, season):
    from django.core.files.uploadedfile import SimpleUploadedFile

    bob = MembershipFactory(season=season)
    paid = pay(membership=bob, day="2026-11-03", amount="410.00", method="check", actor=treasurer)
    client.force_login(treasurer)
    url = reverse("finance:reconcile_import", args=[Account.CHECKING, 2026, 11])
    csv_file = SimpleUploadedFile("nov.csv", b"Date,Amount,Memo\n11/20/2026,410.00,DEPOSIT\n")
    response = client.post(
        url,
        {
            "file": csv_file,
            "date_column": "Date",
            "amount_column": "Amount",
            "description_column": "Memo",
            "date_format": "%m/%d/%Y",
            "once": once(),
        },
    )
    assert response.status_code == 302
    line = BankLine.objects.get()
    assert (line.amount, line.entry_id) == (D("410.00"), None)  # 17 days after the payment: by hand
    page = client.get(reverse("finance:reconcile", args=[Account.CHECKING, 2026, 11])).content.decode()
    assert "In the bank, not matched to the books (1)" in page
    entry = paid.transaction.entries.get(account=account_get(Account.CHECKING))
    client.post(reverse("finance:bank_line_match", args=[line.pk]), {"entry": entry.pk})
    line.refresh_from_db()
    assert (line.entry_id, line.matched) == (entry.pk, "hand")
    # Not a file the app can read: a message, not an error page.
    junk = client.post(
        url, {"file": SimpleUploadedFile("nov.ofx", b"OFXHEADER:100\n<OFX>"), "once": once()}, follow=True
    )
    assert junk.status_code == 200
    assert "not an OFX or QFX file the app can read" in junk.content.decode()
