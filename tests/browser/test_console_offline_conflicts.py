"""Offline conflicts only where they are real (SPEC §16.13, issue 34), on two phones: the Vice President's
phone, offline, records L out, M out, A moved to L's seat and the clock paused; the President meanwhile
records L out online. Back online, M's bust and the pause are applied, L's bust waits as a conflict, and A's
move, which followed that bust, waits with it instead of leaving the tables uneven."""

import pytest

from events.models import Night, NightChange
from tests.browser.conftest import ARTIFACTS, PHONE, login
from tests.browser.test_console_offline import night_of, out_in_order, rules, seat_of, today  # noqa: F401

pytestmark = pytest.mark.django_db(transaction=True)

STATUS = "[data-connection]"


def test_only_the_real_conflict_waits_and_the_move_after_it_waits_with_it(
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
    vp_context = browser.new_context(viewport=PHONE)
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

        vp_context.set_offline(True)
        expect(vp.locator(STATUS)).to_have_text("Offline — 0 changes waiting")
        vp.click(f'[data-bust="{seats["l"].pk}"]')  # Ann
        vp.click(f'[data-bust="{seats["m"].pk}"]')  # Max
        expect(vp.locator(STATUS)).to_have_text("Offline — 2 changes waiting")
        move = vp.locator("[data-offline-move]")  # Kim: A from table 1 seat 1 to L's seat
        move.locator("select[name=player]").select_option(str(seats["a"].pk))
        move.locator("select[name=seat]").select_option("2-5")
        move.locator("button").click()
        expect(vp.locator(STATUS)).to_have_text("Offline — 3 changes waiting")
        vp.locator('[data-part="clock"] button', has_text="Pause").click()
        expect(vp.locator(STATUS)).to_have_text("Offline — 4 changes waiting")

        # Meanwhile the President records Ann out online.
        other.click(f'[data-bust="{seats["l"].pk}"]')
        expect(other.locator("[data-flash]")).to_contain_text("Out: L Player.")

        vp_context.set_offline(False)
        expect(vp.locator(STATUS)).to_have_text("Live", timeout=10_000)
        expect(vp.locator("[data-flash]")).to_contain_text(
            "Sent 4 changes recorded offline: 2 applied, 2 wait for the Vice President"
        )
        assert list(
            NightChange.objects.filter(event=event).order_by("sequence").values_list("action", "status")
        ) == [("bust", "conflict"), ("bust", "applied"), ("move", "conflict"), ("clock", "applied")]
        assert out_in_order(event) == [(1, "l"), (2, "m")]  # Ann once (the President's), then Max
        assert seat_of(seats["a"]) == (1, 1)  # Kim's move waits: tables not left at 5 and 7
        assert Night.objects.get(event=event).paused_at is not None
        expect(vp.locator('[data-seat="1-1"]')).to_contain_text("A Player")

        panel = vp.locator("[data-conflicts-panel]")
        expect(panel).to_be_visible()
        panel.locator("a", has_text="Resolve them").click()
        bust = NightChange.objects.get(event=event, sequence=1)
        moved = NightChange.objects.get(event=event, sequence=3)
        expect(vp.locator(f'[data-conflict="{bust.pk}"]')).to_contain_text(
            "L Player was recorded out on another screen meanwhile"
        )
        row = vp.locator(f'[data-conflict="{moved.pk}"]')
        expect(row).to_contain_text("Move: A Player to table 2 seat 5")
        expect(row).to_contain_text("Follows “Bust: L Player” (#1), which waits too: it is parked with it.")
        expect(row).to_contain_text("Can be applied once “Bust: L Player” is settled.")
        expect(vp.locator("[data-conflict]")).to_have_count(2)
        ARTIFACTS.mkdir(exist_ok=True)
        vp.screenshot(path=str(ARTIFACTS / "conflicts-parked-390.png"), full_page=True)
        width = vp.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE["width"], f"the conflicts page scrolls sideways on a phone ({width}px)"

        # Keep mine on the move first is refused with the reason; after keep theirs on the bust, it applies.
        row.locator("button", has_text="Keep mine").click()
        expect(vp.locator("body")).to_contain_text("which still waits: settle that one first")
        vp.locator(f'[data-conflict="{bust.pk}"] button', has_text="Keep theirs").click()
        vp.locator(f'[data-conflict="{moved.pk}"] button', has_text="Keep mine").click()
        expect(vp.locator("body")).to_contain_text("Nothing waiting")
        assert seat_of(seats["a"]) == (2, 5)
    finally:
        vp_context.close()
        other_context.close()
