"""Two screens on the tournament clock agree, and a pause on one reaches the other (SPEC §4)."""

import re

import pytest

from events.services import night_clock
from tests.browser.conftest import PHONE, login

pytestmark = pytest.mark.django_db(transaction=True)


def seconds(text: str) -> int:
    parts = [int(p) for p in text.split(":")]
    return sum(p * 60**i for i, p in enumerate(reversed(parts)))


def test_two_screens_show_the_same_level_and_time_and_a_pause_on_one_pauses_both(
    browser, page, live_server, season, vice_president, member
):
    from playwright.sync_api import expect

    event = season.events.get(number=4)
    night_clock.clock_command(event=event, action="start", version=0, actor=None)
    clock_url = f"{live_server.url}/events/{season.name}/{event.number}/clock/"
    other_context = browser.new_context(viewport=PHONE)
    try:
        tv = other_context.new_page()
        tv.set_default_timeout(10_000)
        login(page, live_server, "vp")
        login(tv, live_server, "member1")
        page.goto(clock_url)
        tv.goto(clock_url)
        for screen in (page, tv):
            expect(screen.locator('[data-field="level"]')).to_have_text("Level 1")
            expect(screen.locator('[data-field="blinds"]')).to_have_text("25 / 50")
        times = [seconds(s.locator('[data-field="time"]').inner_text()) for s in (page, tv)]
        assert abs(times[0] - times[1]) <= 1
        assert tv.locator("[data-clock-action]").count() == 0  # a member only watches

        page.click('button[data-clock-action="pause"]')
        expect(page.locator('[data-field="status"]')).to_have_text("Paused")
        expect(tv.locator('[data-field="status"]')).to_have_text("Paused", timeout=6_000)
        expect(page.locator('button[data-clock-action="resume"]')).to_be_visible()
        paused = [s.locator('[data-field="time"]').inner_text() for s in (page, tv)]
        assert paused[0] == paused[1] and re.fullmatch(r"\d+:\d\d", paused[0])
        tv.wait_for_timeout(1_200)
        assert tv.locator('[data-field="time"]').inner_text() == paused[1]  # stopped

        page.click('button[data-clock-action="resume"]')
        expect(tv.locator('[data-field="status"]')).to_have_text("", timeout=6_000)
    finally:
        other_context.close()
