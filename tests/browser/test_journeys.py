"""Three whole journeys in Chromium, each on data made by the app's own services (issue 9).

1. The Vice President enters a night's results, a same-hand double bust included, and the standings change.
2. The Treasurer records a payment, sees the receipt and finds it in the printable monthly report.
3. A member on a phone sees the standings with their own row marked, their own dues, and nobody else's.

Dues per the bylaws (§2.8): $110 charged at event 1, then $100 at each of events 2–5, so $410 is due by
event 4 (Nov 14, 2026), the last event before the tests' frozen today (Nov 29, 2026), and $510 pays the
whole season. Points (§10.1): 1st 10, 2nd 9, 3rd 8, …
"""

import datetime as dt
from decimal import Decimal

import pytest

from events.services.attendance import attendance_prepare
from events.services.results import bust_record, results_finish
from finance.services.payments import payment_record
from members.models import Membership
from members.services.standing import rules_signature_record
from tests.browser.conftest import login
from tests.factories import member_user

pytestmark = pytest.mark.django_db(transaction=True)

SEASON_PAID = Decimal("510.00")  # $110 + 4 × $100 (§2.8)


def seat(user, *, first: str, last: str, paid: Decimal | None = SEASON_PAID) -> Membership:
    """The user's seat this season, renamed, with the rules signed and (unless ``paid`` is None) dues paid."""
    membership = Membership.objects.select_related("person", "season").get(person__user=user)
    person = membership.person
    person.first_name, person.last_name = first, last
    person.save(update_fields=["first_name", "last_name"])
    rules_signature_record(membership=membership, signed_on=dt.date(2026, 8, 1), actor=None)
    if paid is not None:
        payment_record(
            membership=membership, date=dt.date(2026, 8, 1), amount=paid, method="cash", actor=None
        )
    return membership


def night_play(event, *, order_out: list[Membership]) -> None:
    """Results of a night through the services: the seats go out one by one in ``order_out``; the last wins."""
    attendance_prepare(event=event, actor=None)
    for membership in order_out:
        event.refresh_from_db()
        row = event.attendances.get(membership=membership)
        bust_record(event=event, attendance_ids=[row.pk], version=event.results_version, actor=None)
    event.refresh_from_db()
    results_finish(event=event, version=event.results_version, actor=None)


def standings_points(page, name: str) -> str:
    row = page.locator("table.standings-table tbody tr").filter(has_text=name)
    return row.locator("td").nth(2).inner_text().strip()


def test_the_vice_president_enters_a_night_with_a_double_bust_and_the_standings_change(
    page, live_server, season, vice_president
):
    from playwright.sync_api import expect

    players = {"vp": ("Vera", "Vice")}
    users = {"vp": vice_president}
    for username, first, last in [
        ("ann", "Ann", "Able"),
        ("bob", "Bob", "Baker"),
        ("cat", "Cat", "Cole"),
        ("dan", "Dan", "Dale"),
        ("eve", "Eve", "Este"),
    ]:
        users[username] = member_user(season=season, username=username)
        players[username] = (first, last)
    names = {}
    for username, (first, last) in players.items():
        seat(users[username], first=first, last=last)
        names[username] = f"{first} {last}"
    page.on("dialog", lambda dialog: dialog.accept())

    login(page, live_server, "vp")
    page.goto(f"{live_server.url}/events/{season.name}/1/")
    page.get_by_role("link", name="Enter results").click()
    page.wait_for_url(f"{live_server.url}/events/{season.name}/1/results/")
    # Opening the page lists nobody (a GET never writes): the officer opens the night, on a phone.
    page.set_viewport_size({"width": 375, "height": 740})
    open_night = page.get_by_role("button", name="Open the night: list the seats from the roster")
    expect(open_night).to_be_visible()
    box = open_night.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 375
    open_night.click()
    expect(page.get_by_text("Seats listed: 6 members from the roster.")).to_be_visible()
    expect(open_night).to_have_count(0)
    page.set_viewport_size({"width": 1280, "height": 720})
    expect(page.get_by_text("6 left")).to_be_visible()

    def tap_out(username: str) -> None:
        page.get_by_role("button", name=names[username], exact=True).click()
        expect(page.get_by_text(f"Out: {names[username]}.")).to_be_visible()

    tap_out("eve")  # 6th
    tap_out("dan")  # 5th
    # Bob and Cat go out on the same hand; Bob started it with more chips, so Bob places better (§6.5).
    page.get_by_text("Several out on the same hand").click()
    page.get_by_label(names["bob"], exact=True).check()
    page.get_by_label(f"Chips of {names['bob']}").fill("3,000")
    page.get_by_label(names["cat"], exact=True).check()
    page.get_by_label(f"Chips of {names['cat']}").fill("1500")
    page.get_by_role("button", name="Record the hand").click()
    expect(page.get_by_text(f"Out: {names['bob']}, {names['cat']}.")).to_be_visible()
    expect(page.get_by_text("2 left")).to_be_visible()
    out = page.locator("ul.list-group li")
    expect(out.filter(has_text=names["bob"])).to_contain_text("3.")
    expect(out.filter(has_text=names["cat"])).to_contain_text("4.")
    expect(out.filter(has_text=names["bob"])).to_contain_text("3,000")
    tap_out("ann")  # 2nd
    expect(page.get_by_text(f"Winner: {names['vp']}")).to_be_visible()
    page.get_by_role("button", name="Finish: places 1–6").click()
    page.wait_for_url(f"{live_server.url}/events/{season.name}/1/")
    expect(page.get_by_text(f"Results final. Winner: {names['vp']}.")).to_be_visible()

    page.goto(f"{live_server.url}/standings/{season.name}/")
    expect(page.get_by_text("After event 1 (Aug 22) · 9 of 10 events left")).to_be_visible()
    expected = {"vp": "10", "ann": "9", "bob": "8", "cat": "7", "dan": "6", "eve": "5"}
    assert {u: standings_points(page, names[u]) for u in expected} == expected
    assert page.locator("tr.row-me").inner_text().startswith("1")


def test_the_treasurer_records_a_payment_and_finds_it_in_the_monthly_report(
    page, live_server, season, treasurer, member
):
    from playwright.sync_api import expect

    seat(member, first="Ned", last="Nolan", paid=None)
    seat(treasurer, first="Tom", last="Till")

    login(page, live_server, "treas")
    page.goto(f"{live_server.url}/finance/payments/")
    page.get_by_label("Member").select_option(label="Ned Nolan")
    # What Ned owes shows above the form once the server answers: wait for it, so the form does not move
    # under the officer's tap (on a slow machine the click landed beside the button).
    expect(page.locator(".payment-outlook")).to_contain_text("Ned Nolan")
    expect(page.get_by_label("Date")).to_have_value("2026-11-29")  # today, by the club's clock
    page.get_by_label("Amount").fill("410.00")
    page.get_by_label("Method").select_option(label="Check")
    page.get_by_label("Reference").fill("1234")
    page.get_by_role("button", name="Record payment").click()

    # The form comes back blank for the next member, the receipt linked above it.
    page.wait_for_url(f"{live_server.url}/finance/payments/?receipt=*")
    expect(page.get_by_text("Recorded $410.00 from Ned Nolan.")).to_be_visible()
    expect(page.get_by_label("Amount")).to_have_value("")
    page.get_by_role("link", name="View receipt #").click()
    expect(page.get_by_role("heading", name="Receipt #")).to_be_visible()
    receipt = page.locator("dl")
    expect(receipt).to_contain_text("Ned Nolan")
    expect(receipt).to_contain_text("November 29, 2026")
    expect(receipt).to_contain_text("$410.00")
    expect(receipt).to_contain_text("Check (1234)")

    page.goto(f"{live_server.url}/finance/reports/2026/11/")
    expect(page.get_by_role("heading", name="Treasurer's report · November 2026")).to_be_visible()
    # Charged by Nov 29: events 1–4, $110 + 3 × $100, and this payment paid it all: Ned owes nothing, and the
    # month's income is his $10 admin fee and $400 of dues (§3.6.3).
    expect(page.locator("tr").filter(has_text="Ned Nolan")).to_have_count(0)
    dues = [
        c.strip() for c in page.locator("tr").filter(has_text="Dues").first.locator("td").all_inner_texts()
    ]
    admin = [
        c.strip() for c in page.locator("tr").filter(has_text="Admin fees").locator("td").all_inner_texts()
    ]
    assert dues[:2] == ["Dues", "$400.00"] and admin[:2] == ["Admin fees", "$10.00"]


def test_a_member_on_a_phone_sees_the_standings_and_their_own_dues_but_not_anothers(
    phone, live_server, season, member, vice_president
):
    from playwright.sync_api import expect

    seat(member, first="Ann", last="Able", paid=Decimal("410.00"))
    other = seat(vice_president, first="Vera", last="Vice")
    night_play(season.events.get(number=1), order_out=[other])  # Ann wins, Vera is 2nd

    login(phone, live_server, "member1")
    # Home page: $410 paid covers events 1–4; the next installment is $100 at event 5 (Dec 12), and unpaid that
    # day it brings the $25 late fee (§2.10).
    dues = phone.locator(".card").filter(has=phone.get_by_text("My dues", exact=True))
    expect(dues).to_contain_text("Paid up")
    expect(dues).to_contain_text("To play on Dec 12: pay $100.00 by then")
    expect(dues).to_contain_text("A $25.00 late fee is charged on Dec 12 unless $100.00 is paid by then")

    phone.goto(f"{live_server.url}/standings/{season.name}/")
    me = phone.locator("tr.row-me")
    expect(me).to_have_count(1)
    expect(me).to_contain_text("Ann Able")
    expect(me).to_have_attribute("aria-current", "true")
    expect(me.locator("td").nth(2)).to_have_text("10")  # won event 1: 10 points (§10.1)
    expect(phone.locator("#my-line")).to_be_visible()
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390  # no sideways scrolling

    phone.goto(f"{live_server.url}/finance/me/")
    expect(phone.get_by_role("heading", name="My dues")).to_be_visible()
    expect(phone.locator(".card-body").filter(has=phone.get_by_text("Paid", exact=True))).to_contain_text(
        "$410.00"
    )
    expect(phone.get_by_role("listitem").filter(has_text="Aug 1, 2026")).to_contain_text("410.00 (Cash)")
    response = phone.goto(f"{live_server.url}/finance/members/{other.pk}/")
    assert response.status == 403
    assert "Vera Vice" not in phone.content()
