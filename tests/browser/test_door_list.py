"""The Treasurer at the door on a phone (issue 17, "Done when"): two members pay to play at the December event,
one tap each, the list shrinks and their balances are right; then the monthly report downloads as a PDF whose
text has the month's total.

Dues per the bylaws (§2.8): $110 at event 1, $100 at each of events 2–5, $510 in all by event 5 (Dec 12, 2026).
Today is frozen at Nov 29, 2026 (the ``today`` fixture): Ann paid $410 and must pay $100 to play on Dec 12;
Cal paid nothing and must pay $510. Both pay in cash on Nov 29: $610 received in November.
"""

import datetime as dt
import io
from decimal import Decimal

import pytest

from finance.models import Payment
from finance.selectors.dues import dues_account
from tests.browser.conftest import login
from tests.browser.test_journeys import seat
from tests.factories import member_user

pytestmark = pytest.mark.django_db(transaction=True)
DECEMBER_EVENT = dt.date(2026, 12, 12)


def test_the_treasurer_records_payments_at_the_door_and_downloads_the_report_pdf(
    phone, live_server, season, treasurer, today
):
    from playwright.sync_api import expect
    from pypdf import PdfReader

    page = phone
    seat(treasurer, first="Tom", last="Till")  # paid for the season
    ann = seat(member_user(season=season, username="ann"), first="Ann", last="Able", paid=Decimal("410.00"))
    cal = seat(member_user(season=season, username="cal"), first="Cal", last="Cole", paid=None)

    login(page, live_server, "treas")
    page.goto(f"{live_server.url}/events/{season.name}/5/")
    page.get_by_role("link", name="Door list (dues to play)").click()
    page.wait_for_url(f"{live_server.url}/finance/door/{season.name}/5/")
    rows = page.locator("[data-door-row]")
    expect(rows).to_have_count(2)
    expect(page.get_by_text("$610.00", exact=True)).to_be_visible()
    # A phone: nothing wider than the screen.
    assert page.evaluate("document.documentElement.scrollWidth") <= 390

    page.get_by_role("button", name="Record $100.00 cash").click()
    expect(page.get_by_text("Ann Able paid $100.00 cash")).to_be_visible()
    expect(rows).to_have_count(1)
    page.get_by_role("button", name="Record $510.00 cash").click()
    expect(page.get_by_text("Cal Cole paid $510.00 cash")).to_be_visible()
    expect(rows).to_have_count(0)
    expect(page.get_by_text("Nobody needs to pay anything to play on Dec 12.")).to_be_visible()

    for membership in (ann, cal):
        assert dues_account(membership=membership).status(on=DECEMBER_EVENT).balance == Decimal("0.00")
    door = Payment.objects.filter(reference="door, event 5").order_by("pk")
    assert [(p.membership_id, p.amount, p.method) for p in door] == [
        (ann.pk, Decimal("100.00"), "cash"),
        (cal.pk, Decimal("510.00"), "cash"),
    ]

    page.goto(f"{live_server.url}/finance/reports/2026/11/")
    with page.expect_download() as info:
        page.get_by_role("link", name="PDF").click()
    path = info.value.path()
    with open(path, "rb") as handle:
        data = handle.read()
    assert data.startswith(b"%PDF")
    text = PdfReader(io.BytesIO(data)).pages[0].extract_text()
    assert "Northern Cincinnati Poker Club" in text
    assert "$610.00" in text  # received in November: $100 from Ann and $510 from Cal


def test_choosing_a_member_on_the_payment_form_shows_what_they_owe_and_fills_in_the_amount(
    page, live_server, season, treasurer, today
):
    from playwright.sync_api import expect

    seat(treasurer, first="Tom", last="Till")
    seat(member_user(season=season, username="ann"), first="Ann", last="Able", paid=Decimal("410.00"))
    seat(member_user(season=season, username="cal"), first="Cal", last="Cole", paid=None)

    login(page, live_server, "treas")
    page.goto(f"{live_server.url}/finance/payments/")
    expect(page.get_by_label("Look up dues for")).to_be_hidden()  # the script does it on the form itself
    page.get_by_label("Member").select_option(label="Ann Able")
    expect(page.locator(".payment-outlook")).to_contain_text("$100.00")
    expect(page.locator(".payment-outlook")).to_contain_text("$25.00 on Dec 12 unless $100.00 is paid")
    expect(page.get_by_label("Amount")).to_have_value("100.00")
    page.get_by_label("Member").select_option(label="Cal Cole")
    expect(page.get_by_label("Amount")).to_have_value("510.00")
    page.get_by_label("Amount").fill("200.00")  # typed by the officer: kept
    page.get_by_label("Member").select_option(label="Ann Able")
    expect(page.locator(".payment-outlook")).to_contain_text("Ann Able")
    expect(page.get_by_label("Amount")).to_have_value("200.00")
