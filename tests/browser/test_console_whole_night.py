"""The whole night on the console at a phone's width (issue 34): several players out on one hand from the
console (tick them, their chips, one confirmation), and the Treasurer taking door payments in the console's
door panel with no page load. Screenshots at 390 × 844 go to test-artifacts/."""

from decimal import Decimal

import pytest

from events.models import Elimination
from finance.models import Payment
from tests.browser.conftest import ARTIFACTS, login
from tests.browser.test_journeys import seat
from tests.events.factories import night_make
from tests.events.test_night import place
from tests.factories import member_user

pytestmark = pytest.mark.django_db(transaction=True)


def test_several_players_out_on_one_hand_from_the_console_on_a_phone(
    phone, live_server, monkeypatch, season, vice_president, today
):
    from playwright.sync_api import expect

    monkeypatch.setattr("events.hooks.good_standing.answer", lambda *, membership, on: True)
    monkeypatch.setattr("events.hooks.rules_signed.answer", lambda *, membership: True)
    event, seats = night_make(season=season, number=4, players=5)  # Nov 14: results may be entered
    place(event, {1: dict(zip(range(1, 7), ["a", "b", "c", "d", "e", "vp"]))}, seats, buttons={1: 1})
    page = phone
    page.on("dialog", lambda dialog: dialog.accept())
    login(page, live_server, "vp")
    page.goto(f"{live_server.url}/events/{season.name}/4/console/")
    loads = []
    page.on("framenavigated", lambda frame: loads.append(frame.url) if frame == page.main_frame else None)
    page.get_by_text("Several players out on one hand").click()
    hand = page.locator("[data-hand-form]")
    hand.locator(f"#hand-{seats['a'].pk}").check()
    hand.locator(f"#hand-{seats['b'].pk}").check()
    hand.locator(f'[data-hand-chips="{seats["a"].pk}"]').fill("3000")
    hand.locator(f'[data-hand-chips="{seats["b"].pk}"]').fill("5,000")
    assert hand.get_attribute("data-confirm") == (
        "Out on one hand: B Player (5,000 chips), A Player (3,000 chips)? More chips at the start of the hand, "
        "better place."
    )
    page.screenshot(path=str(ARTIFACTS / "console-hand-390.png"), full_page=True)
    hand.get_by_role("button", name="Out on one hand").click()
    expect(page.locator("[data-flash]")).to_contain_text("Out: ")
    # Six in, two out on one hand: places 5 (more chips) and 6.
    busts = page.locator('[data-part="busts"]')
    expect(busts).to_contain_text("5th B Player")
    expect(busts).to_contain_text("6th A Player")
    expect(page.locator('[data-table="1"] [data-players]')).to_have_text("4 players")
    assert loads == []
    assert sorted(Elimination.objects.values_list("start_chips", flat=True)) == [3000, 5000]
    page.screenshot(path=str(ARTIFACTS / "console-hand-done-390.png"), full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


def test_the_treasurer_takes_door_payments_on_the_console_without_a_page_load(
    phone, live_server, season, treasurer, today
):
    from playwright.sync_api import expect

    seat(treasurer, first="Tom", last="Till")
    seat(member_user(season=season, username="ann"), first="Ann", last="Able", paid=Decimal("410.00"))
    seat(member_user(season=season, username="cal"), first="Cal", last="Cole", paid=None)
    page = phone
    page.on("dialog", lambda dialog: dialog.accept())
    login(page, live_server, "treas")
    page.goto(f"{live_server.url}/events/{season.name}/5/console/")  # Dec 12; today is Nov 29
    door = page.locator("[data-door]")
    expect(door.locator("[data-door-row]")).to_have_count(2)
    expect(page.locator("[data-bust]")).to_have_count(0)
    loads = []
    page.on("framenavigated", lambda frame: loads.append(frame.url) if frame == page.main_frame else None)
    door.get_by_role("button", name="Record $100.00 cash").click()
    expect(page.locator("[data-flash]")).to_contain_text("Ann Able paid $100.00 cash: receipt #")
    expect(door.locator("[data-door-row]")).to_have_count(1)
    page.screenshot(path=str(ARTIFACTS / "console-door-treasurer-390.png"), full_page=True)
    door.get_by_role("button", name="Record $510.00 cash").click()
    expect(page.locator("[data-flash]")).to_contain_text("Cal Cole paid $510.00 cash")
    expect(door).to_contain_text("Nobody needs to pay anything to play")
    assert loads == []
    assert sorted(Payment.objects.filter(reference="door, event 5").values_list("amount", flat=True)) == [
        Decimal("100.00"),
        Decimal("510.00"),
    ]
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


def test_after_the_finish_the_console_has_no_leftovers(
    phone, live_server, monkeypatch, season, vice_president, today
):
    from playwright.sync_api import expect

    from events.services import night_clock
    from events.services import results as results_services

    monkeypatch.setattr("events.hooks.good_standing.answer", lambda *, membership, on: True)
    monkeypatch.setattr("events.hooks.rules_signed.answer", lambda *, membership: True)
    event, seats = night_make(season=season, number=4, players=2)
    place(event, {1: {1: "a", 2: "b", 3: "vp"}}, seats, buttons={1: 1})
    night_clock.clock_command(event=event, action="start", version=0, actor=None)
    for key in ("a", "b"):
        event.refresh_from_db()
        results_services.bust_record(
            event=event, attendance_ids=[seats[key].pk], version=event.results_version, actor=None
        )
    page = phone
    page.on("dialog", lambda dialog: dialog.accept())
    login(page, live_server, "vp")
    page.goto(f"{live_server.url}/events/{season.name}/4/console/")
    expect(page.locator('[data-table="1"] [data-players]')).to_have_text("1 player")
    page.locator("[data-finish] button").click()
    expect(page.locator('[data-clock="status"]')).to_have_text("Results final")
    expect(page.locator('[data-part="tables"]')).not_to_contain_text("tap a player who is out")
    expect(page.locator("[data-flash] .alert")).to_have_count(0, timeout=10_000)  # the message went by itself
    page.screenshot(path=str(ARTIFACTS / "console-final-390.png"), full_page=True)
