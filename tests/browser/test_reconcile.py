"""Issue 45, "Done when": the Treasurer reconciles November 2026 from the bank's OFX file (a cleared check, an
outstanding check and a deposit in transit), closes the month, and a member downloads that month's statement.

The books (club checking), as in tests/finance/test_reconciliation.py: opening $1,000.00 (Nov 1), Bob's check
#5521 paid in $410.00 (Nov 3, the bank's deposit Nov 5), check #1043 $120.00 (Nov 6, cleared Nov 20), check
#1044 $75.00 (Nov 20, outstanding), Ann's check $95.00 (Nov 29, in transit). The statement says $1,290.00 =
$1,310.00 in the books − $95.00 + $75.00. The club's date is Dec 5, 2026."""

import datetime as dt
from pathlib import Path

import pytest
import time_machine

from finance.models import Account, ClosedMonth
from tests.browser.conftest import DESKTOP, login
from tests.factories import MembershipFactory
from tests.finance.factories import opening_balance, pay
from tests.finance.test_reconciliation import check_issued

pytestmark = pytest.mark.django_db(transaction=True)
OFX = (Path(__file__).parents[1] / "finance" / "november.ofx").read_bytes()
PDF = b"%PDF-1.4\n% First Bank of Cincinnati, club checking, November 2026\n%%EOF\n"


@pytest.fixture
def november(settings, tmp_path, season, treasurer, president, vice_president, member, today):
    settings.MEDIA_ROOT = tmp_path / "media"
    with time_machine.travel(dt.datetime(2026, 12, 5, 17, 0, tzinfo=dt.UTC), tick=False):
        opening_balance(amount="1000.00", day="2026-11-01")
        bob = MembershipFactory(season=season, person__first_name="Bob", person__last_name="Baker")
        ann = MembershipFactory(season=season, person__first_name="Ann", person__last_name="Able")
        pay(
            membership=bob,
            day="2026-11-03",
            amount="410.00",
            method="check",
            reference="5521",
            actor=treasurer,
        )
        officers = (treasurer, president, vice_president)
        check_issued(number="1043", amount="120.00", day=dt.date(2026, 11, 6), officers=officers)
        check_issued(number="1044", amount="75.00", day=dt.date(2026, 11, 20), officers=officers)
        pay(membership=ann, day="2026-11-29", amount="95.00", method="check", actor=treasurer)
        yield


def test_the_treasurer_reconciles_november_from_an_ofx_file_closes_it_and_a_member_downloads_its_statement(
    browser, page, live_server, november
):
    from playwright.sync_api import expect

    base = live_server.url
    login(page, live_server, "treas")

    # The bank's PDF, kept for November.
    page.goto(f"{base}/finance/bank/")
    page.select_option("select[name=account]", Account.CHECKING)
    page.fill("input[name=month]", "2026-11")
    page.set_input_files(
        "input[name=file]",
        files=[{"name": "statement-nov.pdf", "mimeType": "application/pdf", "buffer": PDF}],
    )
    page.get_by_role("button", name="Keep the statement").click()
    page.wait_for_url(f"{base}/finance/bank/2026/11/")
    expect(page.get_by_text("Kept the Club checking statement November 2026 (version 1).")).to_be_visible()

    # The bank's OFX file of the month: two lines, both matched; the rest listed.
    page.get_by_role("link", name="Reconcile").click()
    page.wait_for_url(f"{base}/finance/bank/checking/2026/11/")
    page.set_input_files(
        "input[name=file]", files=[{"name": "november.ofx", "mimeType": "application/x-ofx", "buffer": OFX}]
    )
    page.get_by_role("button", name="Import and match").click()
    expect(page.get_by_text("Imported november.ofx: 2 new lines, 2 matched.")).to_be_visible()
    expect(page.locator("#reconciliation-state")).to_have_text(
        "Reconciled: the statement equals the books less the items not yet cleared."
    )
    expect(page.locator("#bank-matched tbody tr")).to_have_count(2)
    expect(page.locator("#bank-matched")).to_contain_text("CHECK 1043")
    expect(page.locator("#checks-outstanding tbody tr")).to_have_count(1)
    expect(page.locator("#checks-outstanding")).to_contain_text("check 1044")
    expect(page.locator("#checks-outstanding")).to_contain_text("−$75.00")
    expect(page.locator("#deposits-in-transit tbody tr")).to_have_count(1)
    expect(page.locator("#deposits-in-transit")).to_contain_text("$95.00")
    expect(page.locator("#reconciliation-sums")).to_contain_text("$1,290.00")

    # November closes: its report says so, and shows the reconciliation.
    page.get_by_role("link", name="November 2026's report").click()
    page.wait_for_url(f"{base}/finance/reports/2026/11/")
    expect(page.locator("#report-bank")).to_contain_text(
        "Club checking: reconciled with the statement ($1,290.00;"
    )
    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="Close November 2026 (report presented)").click()
    expect(page.get_by_text("November 2026 is closed")).to_be_visible()
    assert ClosedMonth.objects.filter(month=dt.date(2026, 11, 1)).exists()

    # A member downloads November's statement from the month's report.
    context = browser.new_context(viewport=DESKTOP)
    member_page = context.new_page()
    member_page.set_default_timeout(10_000)
    try:
        login(member_page, live_server, "member1")
        member_page.goto(f"{base}/finance/reports/2026/11/")
        with member_page.expect_download() as download:
            member_page.get_by_role("link", name="Club checking (PDF)").click()
        assert download.value.suggested_filename == "checking-2026-11-statement-v1.pdf"
        assert Path(download.value.path()).read_bytes() == PDF
    finally:
        context.close()
