"""Issue 35: the monthly report and a statement on a 390 px phone, and the report printed from the browser.

The demo club (``load_demo`` under the frozen clock, Nov 29, 2026): 16 members, November's deposit and escrow
move, members who owe, and members who paid ahead (Tom, the Treasurer, paid the season up front)."""

import io

import pytest
from django.core.management import call_command

from members.models import Membership
from tests.browser.conftest import login

pytestmark = pytest.mark.django_db(transaction=True)
PASSWORD = "ncpc-demo-2026"

# Every visible element's box, outside regions that scroll on purpose (focusable and labelled), must lie
# within the viewport; those regions themselves too. Returns the offenders, described.
TOO_WIDE = """() => {
  const width = document.documentElement.clientWidth;
  const regions = Array.from(document.querySelectorAll('[role="region"][tabindex="0"][aria-label]'));
  const bad = [];
  for (const el of document.querySelectorAll('body *')) {
    const box = el.getBoundingClientRect();
    if (box.width === 0 || box.height === 0) continue;
    if (regions.some(r => r !== el && r.contains(el))) continue;
    if (box.left < -0.5 || box.right > width + 0.5) {
      bad.push(`${el.tagName.toLowerCase()}.${el.className} ${Math.round(box.left)}–${Math.round(box.right)}: ${el.textContent.trim().slice(0, 40)}`);
    }
  }
  return bad;
}"""


@pytest.fixture
def demo(db, today):
    call_command("load_demo", stdout=io.StringIO())


def fits(page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert page.evaluate(TOO_WIDE) == []


def test_the_monthly_report_and_statements_fit_a_390_px_phone(phone, live_server, demo):
    from playwright.sync_api import expect

    page = phone
    login(page, live_server, "tom", PASSWORD)
    page.goto(f"{live_server.url}/finance/reports/2026/11/")
    expect(page.get_by_text("Check: opening $3,970.00 + income $1,200.00")).to_be_visible()
    # The columns the issue found cut off are on screen: Closing, Owes, Good standing.
    expect(page.locator("td[data-label=Closing]").first).to_be_visible()
    expect(page.locator("td[data-label=Owes]").first).to_be_visible()
    expect(page.locator("td[data-label='Good standing']").first).to_be_visible()
    fits(page)
    page.goto(f"{live_server.url}/finance/reports/2026/12/")  # a month with nothing in it yet
    fits(page)

    # Tom's own statement (paid the season ahead: credits) and Gus's (stopped paying: owes).
    page.goto(f"{live_server.url}/finance/me/")
    expect(page.get_by_text("credit $", exact=False).first).to_be_visible()
    fits(page)
    gus = Membership.objects.get(person__key="gus", season__name="2026-27")
    page.goto(f"{live_server.url}/finance/members/{gus.pk}/")
    fits(page)


def test_the_monthly_report_prints_on_one_letter_page(page, live_server, demo):
    from pypdf import PdfReader

    login(page, live_server, "tom", PASSWORD)
    page.goto(f"{live_server.url}/finance/reports/2026/11/")
    pdf = page.pdf(format="Letter", print_background=False)
    assert len(PdfReader(io.BytesIO(pdf)).pages) == 1
