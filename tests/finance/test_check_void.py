"""Checks and closed months (SPEC §17.2), voiding a check (issue 45), and the /finance/ button that says checks
wait for approval (WCAG AA contrast).

The clock stands at Nov 29, 2026 (the ``today`` fixture); the books start Aug 1, 2026 with $6,000.00 in club
checking. A check is posted to the ledger on the day of its last approval (§4.7: three officers approve it)."""

import datetime as dt
import re
import threading
import time
from decimal import Decimal as D
from pathlib import Path

import pytest
import time_machine
from django.conf import settings
from django.db import connection, connections, transaction
from django.urls import reverse

from finance.models import Account, ClosedMonth, Disbursement, Transaction
from finance.selectors.checks import checks_awaiting
from finance.services.checks import CheckError, disbursement_approve, disbursement_create, disbursement_void
from finance.services.ledger import account_balance, account_get
from ncpc.core.errors import NotAllowed
from ncpc.core.models import AuditEntry
from tests.factories import member_user, once, season_make
from tests.finance.factories import opening_balance

NOV_29 = dt.date(2026, 11, 29)
OCT_20 = dt.date(2026, 10, 20)


@pytest.fixture
def books(treasurer, president, vice_president, today):
    opening_balance(code=Account.CHECKING, amount="6000.00", actor=treasurer)
    return treasurer, president, vice_president


def close(user, *months: dt.date) -> None:
    for month in months:
        ClosedMonth.objects.create(month=month, closed_by=user)


def casino_check(treasurer, president, **kwargs):
    values = {
        "date": NOV_29,
        "payee": "Casino",
        "amount": D("5000.00"),
        "memo": "Room for the final",
        "from_code": Account.CHECKING,
        "to_code": Account.SUPPLIES,
        "check_number": "1001",
        "signers": (treasurer.person, president.person),
        "actor": treasurer,
        "on": NOV_29,
    }
    return disbursement_create(**(values | kwargs)).record


def form_data(treasurer, president, **kwargs):
    return {
        "date": "2026-11-29",
        "check_number": "1001",
        "payee": "Casino",
        "amount": "5000",
        "memo": "Room for the final",
        "from_account": Account.CHECKING,
        "to_account": Account.SUPPLIES,
        "signer_1": treasurer.person.pk,
        "signer_2": president.person.pk,
        "once": once(),
    } | kwargs


def row(html: str, check: Disbursement) -> str:
    """The checks list's row of ``check``, its tags removed and its spaces collapsed."""
    found = re.search(rf'<tr id="check-{check.pk}">(.*?)</tr>', html, re.S)
    assert found, f"no row for check {check.pk}"
    return " ".join(re.sub(r"<[^>]+>", " ", found.group(1)).split())


# --- A check and the closed months (SPEC §17.2) ---


def test_a_check_dated_in_a_closed_month_is_not_written(books):
    treasurer, president, _ = books
    close(treasurer, dt.date(2026, 8, 1), dt.date(2026, 9, 1), dt.date(2026, 10, 1))
    with pytest.raises(CheckError) as refused:
        casino_check(treasurer, president, date=OCT_20)
    assert str(refused.value) == (
        "October 2026 is closed (its report was presented): nothing can be dated in it any more. "
        "Date it in the first open month, November 2026, or later."
    )
    assert refused.value.field == "date"
    assert not Disbursement.objects.exists()


def test_a_check_dated_before_a_closed_month_is_not_written_either(books):
    treasurer, president, _ = books
    close(treasurer, dt.date(2026, 8, 1), dt.date(2026, 9, 1))
    with pytest.raises(CheckError) as refused:
        casino_check(treasurer, president, date=dt.date(2026, 7, 31))
    assert str(refused.value) == (
        "August 2026 is closed (its report was presented): nothing can be dated in or before it any more, "
        "so not Jul 31, 2026. Date it in the first open month, October 2026, or later."
    )
    assert not Disbursement.objects.exists()


def test_the_checks_form_says_so_on_its_date_and_writes_nothing(client, books):
    treasurer, president, _ = books
    close(treasurer, dt.date(2026, 8, 1), dt.date(2026, 9, 1), dt.date(2026, 10, 1))
    client.force_login(treasurer)
    response = client.post(reverse("finance:checks"), form_data(treasurer, president, date="2026-10-20"))
    assert response.status_code == 200
    assert response.context["form"].errors["date"] == [
        "October 2026 is closed (its report was presented): nothing can be dated in it any more. "
        "Date it in the first open month, November 2026, or later."
    ]
    assert not Disbursement.objects.exists()


def test_a_check_written_before_its_month_closed_is_posted_the_day_of_its_last_approval(client, books):
    """Written Oct 20 (October open) with the treasurer's approval, October closes, the other two officers
    approve on Nov 29: the ledger posts it Nov 29 (October's balance stays $6,000.00) and the checks list shows
    the day it was written and the day it was posted, the ledger's."""
    treasurer, president, vice_president = books
    check = casino_check(treasurer, president, date=OCT_20, on=OCT_20)
    close(treasurer, dt.date(2026, 8, 1), dt.date(2026, 9, 1), dt.date(2026, 10, 1))
    disbursement_approve(disbursement=check, actor=vice_president, on=NOV_29)
    check = disbursement_approve(disbursement=check, actor=president, on=NOV_29)
    assert check.status == Disbursement.Status.ISSUED
    assert (check.issued_on, check.transaction.date) == (NOV_29, NOV_29)
    checking = account_get(Account.CHECKING)
    assert account_balance(account=checking, on=dt.date(2026, 10, 31)) == D("6000.00")
    assert account_balance(account=checking, on=NOV_29) == D("1000.00")
    client.force_login(treasurer)
    listed = row(client.get(reverse("finance:checks")).content.decode(), check)
    assert listed.startswith("2026-10-20 Casino #1001")
    assert f"Issued posted 2026-11-29 as #{check.transaction_id}" in listed
    ledger = client.get(reverse("finance:transaction", args=[check.transaction_id])).content.decode()
    assert "November 29, 2026" in ledger
    said = re.search(r"<dd[^>]*data-check>(.*?)</dd>", ledger, re.S)
    assert said and re.sub(r"<[^>]+>", "", said.group(1)) == (
        "#1001, dated Oct 20, 2026; posted Nov 29, 2026, the day of its last approval"
    )


# --- Voiding a check ---


def test_the_treasurer_voids_a_check_the_president_would_not_approve(books):
    treasurer, president, vice_president = books
    check = casino_check(treasurer, president)
    disbursement_approve(disbursement=check, actor=vice_president, on=NOV_29)
    booked = disbursement_void(
        disbursement=check, reason="The casino wants cash, not a check.", actor=treasurer, on=NOV_29
    )
    check = booked.record
    assert not booked.replayed
    assert (check.status, check.voided_on, check.voided_by, check.void_reason) == (
        Disbursement.Status.VOID,
        NOV_29,
        treasurer,
        "The casino wants cash, not a check.",
    )
    audit = AuditEntry.objects.get(action="finance.check.void")
    assert (audit.actor, audit.target_id, audit.reason) == (
        treasurer,
        str(check.pk),
        "The casino wants cash, not a check.",
    )
    assert audit.summary == "Voided Check #1001 to Casino for $5,000.00"
    # It waits for nobody: not on the president's list of checks to approve, and nothing is posted.
    assert checks_awaiting(person=president.person) == []
    assert not Transaction.objects.filter(kind=Transaction.Kind.CHECK).exists()
    assert account_balance(account=account_get(Account.CHECKING)) == D("6000.00")
    # Voiding it again changes nothing.
    again = disbursement_void(disbursement=check, reason="twice", actor=treasurer, on=NOV_29)
    assert again.replayed and again.record.void_reason == "The casino wants cash, not a check."


def test_an_approval_of_a_voided_check_answers_that_it_was_voided(books):
    treasurer, president, vice_president = books
    check = casino_check(treasurer, president)
    disbursement_approve(disbursement=check, actor=vice_president, on=NOV_29)
    disbursement_void(disbursement=check, reason="Wrong amount", actor=treasurer, on=NOV_29)
    with pytest.raises(CheckError) as refused:
        disbursement_approve(disbursement=check, actor=president, on=NOV_29)
    assert str(refused.value) == (
        "Check #1001 to Casino for $5,000.00 was voided on Nov 29, 2026 by treas: Wrong amount. "
        "There is nothing to approve."
    )
    assert check.approvals.count() == 2  # the treasurer's (writing it) and the vice president's
    assert not Transaction.objects.filter(kind=Transaction.Kind.CHECK).exists()


def test_a_posted_check_is_not_voided_but_reversed(books):
    treasurer, president, vice_president = books
    check = casino_check(treasurer, president)
    disbursement_approve(disbursement=check, actor=vice_president, on=NOV_29)
    check = disbursement_approve(disbursement=check, actor=president, on=NOV_29)
    with pytest.raises(CheckError) as refused:
        disbursement_void(disbursement=check, reason="Lost in the mail", actor=treasurer, on=NOV_29)
    assert str(refused.value) == (
        f"Check #1001 to Casino for $5,000.00 was issued on Nov 29, 2026 (transaction #{check.transaction_id}): "
        "a posted check is not voided. Reverse its transaction on the ledger, with your reason."
    )
    check.refresh_from_db()
    assert check.status == Disbursement.Status.ISSUED and check.void_reason == ""


def test_a_voided_check_keeps_its_number(books):
    treasurer, president, _ = books
    check = casino_check(treasurer, president)
    disbursement_void(disbursement=check, reason="Misprinted", actor=treasurer, on=NOV_29)
    with pytest.raises(CheckError) as refused:
        casino_check(treasurer, president, amount=D("500.00"))
    assert str(refused.value) == "Check number 1001 of Club checking is written already."


def test_only_those_who_write_checks_void_one_and_a_reason_is_required(books):
    treasurer, president, vice_president = books
    check = casino_check(treasurer, president)
    with pytest.raises(NotAllowed):
        disbursement_void(disbursement=check, reason="No", actor=vice_president, on=NOV_29)
    with pytest.raises(CheckError) as refused:
        disbursement_void(disbursement=check, reason="  ", actor=treasurer, on=NOV_29)
    assert str(refused.value) == "Say why the check is voided." and refused.value.field == "reason"
    check.refresh_from_db()
    assert check.status == Disbursement.Status.PENDING
    # The president writes checks too (§4.7 signer; the ledger is the treasurer's and the president's).
    assert disbursement_void(
        disbursement=check, reason="Duplicate", actor=president, on=NOV_29
    ).record.status == (Disbursement.Status.VOID)


def test_the_void_page_asks_for_a_reason_then_the_list_shows_the_check_voided(client, books):
    treasurer, president, vice_president = books
    check = casino_check(treasurer, president)
    disbursement_approve(disbursement=check, actor=vice_president, on=NOV_29)
    client.force_login(treasurer)
    page = client.get(reverse("finance:checks")).content.decode()
    assert f'href="/finance/checks/{check.pk}/void/"' in page  # reached from the checks list
    confirm = client.get(reverse("finance:check_void", args=[check.pk])).content.decode()
    assert "Void Check #1001 to Casino for $5,000.00?" in confirm
    # No reason: the form says so and nothing changes.
    response = client.post(reverse("finance:check_void", args=[check.pk]), {"reason": ""})
    assert response.status_code == 200 and response.context["form"].errors["reason"]
    check.refresh_from_db()
    assert check.status == Disbursement.Status.PENDING
    response = client.post(
        reverse("finance:check_void", args=[check.pk]), {"reason": "The president refused it"}, follow=True
    )
    assert response.redirect_chain[-1][0] == f"/finance/checks/#check-{check.pk}"
    messages = [str(m) for m in response.context["messages"]]
    assert messages == [
        "Check #1001 to Casino for $5,000.00 was voided on Nov 29, 2026 by treas: The president refused it. "
        "It waits for no approvals."
    ]
    listed = row(response.content.decode(), check)
    assert listed.endswith("Voided 2026-11-29 by treas: The president refused it")
    assert "of 3" not in listed and "Approve" not in listed and "Awaiting" not in listed
    # /finance/ no longer counts it among the checks awaiting approval.
    assert "awaiting approval" not in client.get(reverse("finance:index")).content.decode()


def test_an_approvers_link_to_a_voided_check_answers_that_it_was_voided(client, books):
    treasurer, president, _ = books
    check = casino_check(treasurer, president)
    disbursement_void(disbursement=check, reason="Wrong payee", actor=treasurer, on=NOV_29)
    client.force_login(president)
    response = client.post(reverse("finance:check_approve", args=[check.pk]), follow=True)
    assert [str(m) for m in response.context["messages"]] == [
        "Check #1001 to Casino for $5,000.00 was voided on Nov 29, 2026 by treas: Wrong payee. "
        "There is nothing to approve."
    ]
    assert row(response.content.decode(), check).endswith("Voided 2026-11-29 by treas: Wrong payee")
    assert check.approvals.count() == 1


def test_the_void_page_of_an_issued_check_sends_to_the_ledger_and_an_officer_without_the_ledger_gets_403(
    client, books
):
    treasurer, president, vice_president = books
    check = casino_check(treasurer, president)
    disbursement_approve(disbursement=check, actor=vice_president, on=NOV_29)
    check = disbursement_approve(disbursement=check, actor=president, on=NOV_29)
    client.force_login(treasurer)
    page = client.get(reverse("finance:check_void", args=[check.pk])).content.decode()
    assert "a posted check is not voided" in page
    assert f'href="/finance/ledger/{check.transaction_id}/"' in page
    response = client.post(reverse("finance:check_void", args=[check.pk]), {"reason": "x"})
    check.refresh_from_db()
    assert response.status_code == 200 and check.status == Disbursement.Status.ISSUED
    client.force_login(vice_president)
    assert client.get(reverse("finance:check_void", args=[check.pk])).status_code == 403


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif("connection.vendor != 'postgresql'", reason="parallel transactions need PostgreSQL")
@pytest.mark.parametrize("first", ["approve", "void"])
def test_a_void_and_the_last_approval_at_once_never_both_happen(first):
    """The president's last approval and the treasurer's void, sent at the same moment: whichever takes the
    check first is done, the other waits for it and is refused (the check is issued, or voided), never both."""
    assert connection.vendor == "postgresql"
    with time_machine.travel(dt.datetime(2026, 11, 29, 12, 0, tzinfo=dt.UTC), tick=False):
        season = season_make(2026)
        treasurer = member_user(season=season, username="treas", office="treasurer")
        president = member_user(season=season, username="pres", office="president")
        vice_president = member_user(season=season, username="vp", office="vice_president")
        opening_balance(code=Account.CHECKING, amount="6000.00", actor=treasurer)
        check = casino_check(treasurer, president)
        disbursement_approve(disbursement=check, actor=vice_president, on=NOV_29)
        commands = {
            "approve": lambda: disbursement_approve(disbursement=check, actor=president, on=NOV_29),
            "void": lambda: disbursement_void(
                disbursement=check, reason="Refused", actor=treasurer, on=NOV_29
            ),
        }
        second = "void" if first == "approve" else "approve"
        holds, may_commit = threading.Event(), threading.Event()
        outcomes: dict[str, str] = {}

        def run_first():
            try:
                with transaction.atomic():
                    commands[first]()
                    holds.set()
                    may_commit.wait(10)
                outcomes[first] = "done"
            finally:
                connections.close_all()

        def run_second():
            try:
                holds.wait(10)
                commands[second]()
                outcomes[second] = "done"
            except CheckError as exc:
                outcomes[second] = str(exc)
            finally:
                connections.close_all()

        threads = [threading.Thread(target=run_first), threading.Thread(target=run_second)]
        for t in threads:
            t.start()
        holds.wait(10)
        time.sleep(0.5)
        assert second not in outcomes  # it waits for the check's lock
        may_commit.set()
        for t in threads:
            t.join(20)
        check.refresh_from_db()
        assert outcomes[first] == "done"
        if first == "approve":
            assert check.status == Disbursement.Status.ISSUED
            assert outcomes["void"].endswith(
                "a posted check is not voided. Reverse its transaction on the ledger, with your reason."
            )
        else:
            assert check.status == Disbursement.Status.VOID
            assert outcomes["approve"] == (
                "Check #1001 to Casino for $5,000.00 was voided on Nov 29, 2026 by treas: Refused. "
                "There is nothing to approve."
            )
            assert not Transaction.objects.filter(kind=Transaction.Kind.CHECK).exists()


# --- The /finance/ button for the checks awaiting approval: WCAG AA contrast ---


def luminance(hex_colour: str) -> float:
    """WCAG 2.1 relative luminance of an sRGB colour such as #ffc107 (or #000)."""
    digits = hex_colour.lstrip("#")
    if len(digits) == 3:
        digits = "".join(d * 2 for d in digits)
    channels = [int(digits[i : i + 2], 16) / 255 for i in (0, 2, 4)]
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(a: str, b: str) -> float:
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def css_rule(path: Path, selector: str) -> dict[str, str]:
    """The custom properties of ``selector``'s rule in a stylesheet (the last rule of that selector)."""
    rules = re.findall(rf"(?:^|}}|\s){re.escape(selector)}\s*{{([^}}]*)}}", path.read_text())
    assert rules, f"no {selector} rule in {path}"
    return dict(re.findall(r"(--bs-btn-[a-z-]+)\s*:\s*([^;]+?)\s*(?:;|$)", rules[-1]))


STATIC = Path(settings.BASE_DIR) / "static"


def test_the_contrast_formula_gives_the_ratios_the_issue_measured():
    assert round(contrast("#ffc107", "#ffffff"), 2) == 1.63  # Bootstrap's outline warning text, as reported
    assert round(contrast("#000", "#ffffff"), 2) == 21.0
    assert round(contrast("#000", "#ffc107"), 2) == 12.88  # Bootstrap's solid warning button


def test_the_finance_page_button_for_checks_awaiting_approval_reads_at_4_5_to_1(client, books):
    treasurer, president, _ = books
    casino_check(treasurer, president)
    client.force_login(treasurer)
    html = client.get(reverse("finance:index")).content.decode()
    button = re.search(r'<a class="([^"]*)"[^>]*data-pending-checks[^>]*>([^<]*)</a>', html)
    assert button and button.group(2) == "1 check(s) awaiting approval"
    classes = button.group(1).split()
    assert "btn-warning" in classes and "btn-outline-warning" not in classes
    # Bootstrap's solid warning button: black text on #ffc107, 12.88:1; the club's stylesheet leaves it so.
    solid = css_rule(STATIC / "vendor/bootstrap/bootstrap.min.css", ".btn-warning")
    assert (solid["--bs-btn-color"], solid["--bs-btn-bg"]) == ("#000", "#ffc107")
    assert not re.search(r"\.btn-warning\s*{", (STATIC / "css/ncpc.css").read_text())
    assert contrast(solid["--bs-btn-color"], solid["--bs-btn-bg"]) >= 4.5
    assert contrast(solid["--bs-btn-hover-color"], solid["--bs-btn-hover-bg"]) >= 4.5


def test_the_outline_warning_button_is_overridden_to_read_at_4_5_to_1():
    outline = css_rule(STATIC / "css/ncpc.css", ".btn-outline-warning")
    page, card = "#f6f7f9", "#ffffff"
    assert contrast(outline["--bs-btn-color"], card) >= 4.5
    assert contrast(outline["--bs-btn-color"], page) >= 4.5
    assert contrast(outline["--bs-btn-hover-color"], outline["--bs-btn-hover-bg"]) >= 4.5
    assert contrast(outline["--bs-btn-active-color"], outline["--bs-btn-active-bg"]) >= 4.5
