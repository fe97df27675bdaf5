"""Issue 46, the night's third pass, tap by tap on phones (390 px): the taps of the night are at least 44 px
tall; the yellow seats have a legend; "last heard the server" is club time on a phone set to another zone; a
change parked by a sync shows on another officer's console within the ≈1 s poll; the time to the break agrees
with the time left; the Treasurer's console opens on the door list, whose names are not links, asks for no
conflicts, and shows a payment another officer took before the night was opened; the event sheet fits."""

import datetime as dt
import re
import uuid
import zoneinfo
from decimal import Decimal

import pytest

from events.models import Event, NightChange
from events.services import night_sync
from finance.services.door import door_payment_record
from tests.browser.conftest import ARTIFACTS, PHONE, login
from tests.browser.test_console_offline import night_of, rules, today  # noqa: F401
from tests.browser.test_journeys import seat
from tests.factories import member_user

pytestmark = pytest.mark.django_db(transaction=True)

STATUS = "[data-connection]"
NEW_YORK = zoneinfo.ZoneInfo("America/New_York")


def height(page, selector: str) -> float:
    box = page.locator(selector).first.bounding_box()
    assert box is not None, f"{selector} is not on the screen"
    return box["height"]


def test_a_night_tap_by_tap_on_two_phones(
    browser,
    live_server,
    season,
    vice_president,
    president,
    rules,  # noqa: F811
    today,  # noqa: F811
):
    from playwright.sync_api import expect

    event, seats = night_of(season, seconds_left=20 * 60)
    console_url = f"{live_server.url}/events/{season.name}/{event.number}/console/"
    # The Vice President's phone is set to Berlin's time: the console still speaks the club's (New York).
    vp_context = browser.new_context(viewport=PHONE, timezone_id="Europe/Berlin")
    other_context = browser.new_context(viewport=PHONE)
    try:
        vp = vp_context.new_page()
        other = other_context.new_page()
        for screen, who in ((vp, "vp"), (other, "pres")):
            screen.set_default_timeout(10_000)
            screen.on("dialog", lambda dialog: dialog.accept())
            login(screen, live_server, who)
            screen.goto(console_url)
            expect(screen.locator(STATUS)).to_have_text("Live")

        heard = vp.locator("[data-heard]").text_content() or ""
        shown = re.search(r"last heard the server (\d\d):(\d\d)", heard)
        assert shown, heard
        # The browser's own clock (the server's is the suite's), read in New York: not Berlin's hour.
        now = dt.datetime.fromtimestamp(vp.evaluate("Date.now()") / 1000, tz=NEW_YORK)
        before = now - dt.timedelta(minutes=1)
        assert (int(shown[1]), int(shown[2])) in {(now.hour, now.minute), (before.hour, before.minute)}

        # The taps of the night: at least 44 px tall at 390 px.
        l_player = f'[data-bust="{seats["l"].pk}"]'
        assert height(vp, l_player) >= 44
        assert height(vp, '[data-part="clock"] button:has-text("Skip")') >= 44
        assert height(vp, '[data-part="tables"] form button:has-text("Set")') >= 44
        assert height(vp, '.console-links a:has-text("TV clock")') >= 44
        assert height(vp, '[data-part="clock"] a:has-text("TV clock")') >= 44
        expect(vp.locator("[data-seat-legend]")).to_contain_text(
            "Yellow seat: between the button and the small blind"
        )

        # The time to the break counts like the time left (both from the server's exact seconds).
        vp.evaluate(
            """() => {
              const s = JSON.parse(JSON.stringify(window.ncpcConsole.state()));
              s.clock.running = false; s.clock.paused = true;
              s.clock.seconds_left = 1229; s.clock.seconds_left_exact = 1229.4;
              s.clock.seconds_to_next_break = 1229;
              window.ncpcConsole.render(s);
            }"""
        )
        expect(vp.locator('[data-clock="time"]')).to_have_text("20:30")
        expect(vp.locator('[data-clock="next-break"]')).to_have_text("20:30")
        vp.evaluate("window.ncpcConsole.poll(true)")

        vp.click(l_player)
        expect(vp.locator("[data-flash]")).to_contain_text("Out: L Player")
        assert height(vp, '[data-part="busts"] button:has-text("Undo")') >= 44

        # A phone offline had recorded L out too: its change waits, and the President's console says so
        # within the poll (≈1 s), not at the 10 s refresh.
        vp.wait_for_timeout(300)
        seen = night_sync.night_versions(event=event)
        seen["results"] -= 1
        _, parsed = night_sync.changes_parse(
            data={
                "device": "phone-b",
                "changes": [
                    {
                        "sequence": 1,
                        "action": "bust",
                        "players": [seats["l"].pk],
                        "happened_at": int(dt.datetime.now(dt.UTC).timestamp() * 1000) - 5000,
                        "seen": seen,
                    }
                ],
            },
            now=dt.datetime.now(dt.UTC),
        )
        (outcome,) = night_sync.changes_sync(
            event=event, device="phone-b", changes=parsed, actor=vice_president
        )
        assert outcome.status == NightChange.Status.CONFLICT
        panel = other.locator("[data-conflicts-panel]")
        expect(panel).to_be_visible(timeout=2500)
        expect(panel).to_contain_text("1 change recorded offline waits for the Vice President")

        # The President opens it: who recorded each side, and no "Keep mine" for another officer's change.
        panel.locator("a", has_text="Resolve them").click()
        row = other.locator("[data-conflict]")
        expect(row).to_contain_text("Bust: L Player")
        expect(row.locator("[data-side=theirs]")).to_contain_text("Out: L Player")
        expect(row.locator("button", has_text="Apply this change")).to_be_visible()
        expect(row.locator("button", has_text="Keep what the server has")).to_be_visible()
        expect(row).not_to_contain_text("Keep mine")
        expect(row).not_to_contain_text("phone-b")
        width = other.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE["width"], f"the conflicts page scrolls sideways on a phone ({width}px)"
        ARTIFACTS.mkdir(exist_ok=True)
        other.screenshot(path=str(ARTIFACTS / "conflicts-two-sides-390.png"), full_page=True)

        # The event sheet at 390 px: its blind table fits.
        vp.goto(f"{live_server.url}/events/{season.name}/{event.number}/sheet/")
        blinds = vp.locator("#blinds table").bounding_box()
        assert blinds is not None and blinds["x"] + blinds["width"] <= PHONE["width"] - blinds["x"], blinds
        assert vp.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    finally:
        vp_context.close()
        other_context.close()


def test_the_treasurers_console_opens_on_the_door_and_shows_another_officers_payment(
    phone,
    live_server,
    season,
    treasurer,
    vice_president,
    today,  # noqa: F811
):
    from playwright.sync_api import expect

    seat(treasurer, first="Tom", last="Till")
    seat(vice_president, first="Vic", last="Vale")
    seat(member_user(season=season, username="ann"), first="Ann", last="Able", paid=Decimal("410.00"))
    cal = seat(member_user(season=season, username="cal"), first="Cal", last="Cole", paid=None)
    asked = []
    phone.on("request", lambda request: asked.append(request.url))
    login(phone, live_server, "treas")
    phone.goto(f"{live_server.url}/events/{season.name}/5/console/")
    rows = phone.locator("[data-door-row]")
    expect(rows).to_have_count(2)
    door = phone.locator("[data-door]").bounding_box()
    assert door is not None and door["y"] < PHONE["height"], (
        f"the door list starts below the first screen: {door}"
    )
    expect(phone.locator("[data-door-row] a", has_text="Cal Cole")).to_have_count(0)
    expect(phone.locator("[data-door-row]", has_text="Cal Cole")).to_be_visible()

    # The Vice President takes Cal's $510 at the door on another phone; the night is not opened yet.
    event = Event.objects.get(season=season, number=5)
    door_payment_record(
        event=event,
        membership=cal,
        expected=Decimal("510.00"),
        on=today,
        actor=vice_president,
        once=uuid.uuid4().hex,
    )
    expect(rows).to_have_count(1, timeout=15_000)
    expect(phone.locator("[data-door-row]", has_text="Cal Cole")).to_have_count(0)
    assert not [url for url in asked if "/night/conflicts/" in url]
