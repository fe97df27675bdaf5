"""A tournament night that keeps running when the host's Wi-Fi drops (issue 20), in Chromium's offline mode:
the clock page installs the service worker, keeps its plan, and runs past a level with no server."""

import datetime as dt
import re
import zoneinfo

import pytest
from django.utils import timezone

from events.services import night_clock
from tests.browser.conftest import login

pytestmark = pytest.mark.django_db(transaction=True)

PLAN_KEPT = "Object.keys(localStorage).some(k => k.startsWith('ncpc-clock:') && (JSON.parse(localStorage[k]).plan || {}).structure)"


def test_the_clock_runs_past_a_level_offline_and_opens_again_with_no_network(
    browser, live_server, season, vice_president
):
    from playwright.sync_api import expect

    event = season.events.get(number=4)
    # Level 1 (30 minutes, 25/50) has 8 seconds left.
    night_clock.clock_command(
        event=event,
        action="start",
        version=0,
        actor=None,
        now=timezone.now() - dt.timedelta(minutes=29, seconds=52),
    )
    clock_url = f"{live_server.url}/events/{season.name}/{event.number}/clock/"
    # The phone is set to Berlin's time: "last heard" is still the club's (New York's).
    context = browser.new_context(viewport={"width": 390, "height": 844}, timezone_id="Europe/Berlin")
    try:
        page = context.new_page()
        page.set_default_timeout(10_000)
        login(page, live_server, "vp")
        page.goto(clock_url)
        expect(page.locator('[data-field="level"]')).to_have_text("Level 1")
        assert page.evaluate("navigator.serviceWorker.ready.then(r => !!r.active)")
        page.wait_for_function(PLAN_KEPT)
        page.reload()  # now under the worker's control: the page is kept for offline use
        expect(page.locator('[data-field="level"]')).to_have_text("Level 1")

        context.set_offline(True)
        expect(page.locator('[data-field="connection"]')).to_contain_text(
            "Offline: the clock runs on this device", timeout=8_000
        )
        expect(page.locator('[data-field="level"]')).to_have_text("Level 2", timeout=15_000)
        expect(page.locator('[data-field="blinds"]')).to_have_text("50 / 100")
        assert page.locator('[data-field="time"]').inner_text().startswith(("29:", "30:"))

        # Opened again with no network: the worker's copy of the page, the clock computed on the device.
        page.reload()
        expect(page.locator('[data-field="level"]')).to_have_text("Level 2", timeout=8_000)
        expect(page.locator('[data-field="connection"]')).to_contain_text("last heard")
        heard = re.search(r"last heard (\d\d):(\d\d)", page.locator('[data-field="connection"]').inner_text())
        assert heard
        now = dt.datetime.fromtimestamp(
            page.evaluate("Date.now()") / 1000, tz=zoneinfo.ZoneInfo("America/New_York")
        )
        before = now - dt.timedelta(minutes=1)
        assert (int(heard[1]), int(heard[2])) in {(now.hour, now.minute), (before.hour, before.minute)}
    finally:
        context.close()
