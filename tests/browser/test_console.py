"""The night console with two officers' screens open (issue 19): a bust on one shows on the other within
2 seconds; the balancing move appears where the bust was entered and, once confirmed, on both seatings; a
member who called in arrives within the window and plays; no page load for a bust with a table move; the
event sheet opens. Screenshots of the console at 390 px and 1280 px go to test-artifacts/."""

import pytest

from events.models import Attendance
from events.services import night_clock
from tests.browser.conftest import ARTIFACTS, PHONE, login
from tests.events.factories import night_make
from tests.events.test_night import place

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def night(monkeypatch, season, vice_president, president):
    monkeypatch.setattr("events.hooks.good_standing.answer", lambda *, membership, on: True)
    monkeypatch.setattr("events.hooks.rules_signed.answer", lambda *, membership: True)
    event, seats = night_make(season=season, players=14)
    # The two officers do not play tonight; n is not here yet (seated, posted and folded).
    Attendance.objects.filter(event=event, membership__person__key__in=["vp", "pres"]).update(
        status=Attendance.Status.NOT_SIGNED
    )
    seats["n"].status = Attendance.Status.ABSENT
    seats["n"].save()
    place(
        event,
        {1: dict(zip(range(1, 8), "abcdefg")), 2: dict(zip(range(1, 8), "hijklmn"))},
        seats,
        buttons={1: 1, 2: 1},
    )
    night_clock.clock_command(event=event, action="start", version=0, actor=None)
    return event, seats


def test_two_officers_run_the_night_on_one_live_console(browser, page, live_server, night):
    from playwright.sync_api import expect

    event, seats = night
    base = f"{live_server.url}/events/{event.season.name}/{event.number}"
    other_context = browser.new_context(viewport=PHONE)
    try:
        phone = other_context.new_page()
        phone.set_default_timeout(10_000)
        login(page, live_server, "vp")
        login(phone, live_server, "pres")
        for screen in (page, phone):
            screen.on("dialog", lambda dialog: dialog.accept())
            screen.goto(f"{base}/console/")
            expect(screen.locator('[data-clock="level"]')).to_have_text("Level 1")
        loads = []
        page.on("framenavigated", lambda frame: loads.append(frame.url) if frame == page.main_frame else None)

        # A bust on the laptop shows on the phone within 2 s.
        page.click(f'[data-bust="{seats["l"].pk}"]')
        expect(page.locator("[data-flash]")).to_contain_text("Out: L Player.")
        expect(phone.locator(f'[data-bust="{seats["l"].pk}"]')).to_have_count(0, timeout=2_000)
        expect(phone.locator('[data-part="busts"]')).to_contain_text("L Player", timeout=2_000)

        # The second bust at table 2 puts the tables 7 v 5: the move shows where the bust was entered.
        page.click(f'[data-bust="{seats["m"].pk}"]')
        move = page.locator("[data-move]")
        expect(move).to_be_visible()
        expect(move).to_contain_text("table 1 seat")
        state = page.evaluate("window.ncpcConsole.state()")
        proposal = state["move"]
        assert (proposal["from_table"], proposal["to_table"]) == (1, 2)
        move.locator("button").click()
        expect(page.locator("[data-flash]")).to_contain_text(
            f"now sits at table 2, seat {proposal['to_seat']}"
        )
        seat = f'[data-seat="2-{proposal["to_seat"]}"]'
        for screen in (page, phone):
            expect(screen.locator(seat)).to_contain_text(proposal["name"], timeout=2_000)
            expect(screen.locator("[data-move]")).to_have_count(0, timeout=2_000)
        assert loads == []  # two busts and a table move: no page load

        # n called in (the exemption) and arrives within the window: n plays (a bust button at their seat).
        away = page.locator(f'[data-away="{seats["n"].pk}"]')
        away.locator("button", has_text="Called in").click()
        expect(phone.locator(f'[data-away="{seats["n"].pk}"]')).to_contain_text("called in", timeout=2_000)
        page.locator(f'[data-away="{seats["n"].pk}"]').locator("button", has_text="Arrived").click()
        expect(page.locator("[data-flash]")).to_contain_text("N Player arrived and plays.")
        expect(phone.locator(f'[data-bust="{seats["n"].pk}"]')).to_have_count(1, timeout=2_000)

        # Undo the first bust from the phone: L is back in on the laptop.
        phone.locator('[data-part="busts"] li:has-text("L Player") button').click()
        expect(page.locator(f'[data-bust="{seats["l"].pk}"]')).to_have_count(1, timeout=2_000)

        # The same bust from a page that missed a change is refused, and that page catches up.
        answer = phone.evaluate(
            "player => window.ncpcConsole.send({action: 'bust', player: player, version: '0.0.0'})",
            seats["a"].pk,
        )
        assert answer["conflict"] and "out of date" in answer["error"]

        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "console-1280.png"), full_page=True)
        phone.screenshot(path=str(ARTIFACTS / "console-390.png"), full_page=True)
        width = phone.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE["width"], f"the console scrolls sideways on a phone ({width}px)"

        # The printable event sheet (which links its PDF) and the printable seats open from the console.
        href = page.locator("a", has_text="Event sheet").get_attribute("href")
        sheet = page.request.get(f"{live_server.url}{href}")
        assert sheet.status == 200 and sheet.headers["content-type"].startswith("text/html")
        assert "sheet.pdf" in sheet.text()
        page.click("a:has-text('Print seats')")
        expect(page.locator("body")).to_contain_text("Table 1")
    finally:
        other_context.close()
