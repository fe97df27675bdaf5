"""One phone, two officers (SPEC §16.13: a device id belongs to the login that first used it): each login on
the phone keeps its own queue and device id, so the second officer's offline changes are sent and applied under
their own login instead of being refused as another login's device."""

import pytest

from events.models import NightChange
from tests.browser.conftest import PHONE, login
from tests.browser.test_console_offline import night_of, out_in_order, rules, today  # noqa: F401

pytestmark = pytest.mark.django_db(transaction=True)

STATUS = "[data-connection]"
DEVICE = "() => window.ncpcNightQueue.device()"


def test_two_officers_on_one_phone_each_send_their_own_offline_changes(
    browser,
    live_server,
    season,
    vice_president,
    president,
    rules,  # noqa: F811
):
    from playwright.sync_api import expect

    event, seats = night_of(season, seconds_left=20 * 60)
    console_url = f"{live_server.url}/events/{season.name}/{event.number}/console/"
    phone = browser.new_context(viewport=PHONE)
    try:
        screen = phone.new_page()
        screen.set_default_timeout(10_000)
        screen.on("dialog", lambda dialog: dialog.accept())

        # The Vice President records a bust offline, then hands the phone over (signed out, online again
        # only after the President has signed in: the change stays on the phone, hers).
        login(screen, live_server, "vp")
        screen.goto(console_url)
        expect(screen.locator(STATUS)).to_have_text("Live")
        vp_device = screen.evaluate(DEVICE)
        phone.set_offline(True)
        expect(screen.locator(STATUS)).to_have_text("Offline — 0 changes waiting")
        screen.click(f'[data-bust="{seats["l"].pk}"]')
        expect(screen.locator(STATUS)).to_have_text("Offline — 1 change waiting")
        phone.clear_cookies()
        phone.set_offline(False)

        login(screen, live_server, "pres")
        screen.goto(console_url)
        expect(screen.locator(STATUS)).to_have_text("Live")
        pres_device = screen.evaluate(DEVICE)
        assert pres_device != vp_device

        phone.set_offline(True)
        expect(screen.locator(STATUS)).to_have_text("Offline — 0 changes waiting")
        screen.click(f'[data-bust="{seats["m"].pk}"]')
        expect(screen.locator(STATUS)).to_have_text("Offline — 1 change waiting")
        phone.set_offline(False)
        expect(screen.locator(STATUS)).to_have_text("Live", timeout=10_000)

        # The President's bust went in under the President's own device; the Vice President's still waits on
        # the phone for her next sign-in, and nothing was refused.
        assert list(NightChange.objects.filter(event=event).values_list("device", "status")) == [
            (pres_device, "applied")
        ]
        assert out_in_order(event) == [(1, "m")]
    finally:
        phone.close()
