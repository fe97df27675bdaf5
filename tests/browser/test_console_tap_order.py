"""The night's order is the order of the taps (SPEC §17.8, issue 46), on two phones in Chromium's offline mode:
phone B taps Hal out, phone A taps Max out a moment later, and A's network comes back first. Hal is placed
below Max all the same, and the balancing move due after both busts is the one the consoles offer. A phone that
comes back after the results are final has its bust parked for the officers, the final places untouched.

Run on PostgreSQL as the issue asks: ``DATABASE_URL=postgres://… pytest tests/browser/test_console_tap_order.py``."""

import datetime as dt

import pytest
import time_machine
from django.utils import timezone

from events.models import Attendance, Elimination, Event, NightChange, NightMove
from events.services import night_clock
from tests.browser.conftest import PHONE, login
from tests.events.factories import night_make
from tests.events.test_night import place

pytestmark = pytest.mark.django_db(transaction=True)

STATUS = "[data-connection]"


@pytest.fixture
def today():
    """The suite's day, with the server's clock running: the phones' taps are compared with it."""
    with time_machine.travel(dt.datetime(2026, 11, 29, 12, 0, tzinfo=dt.UTC), tick=True):
        yield dt.date(2026, 11, 29)


@pytest.fixture
def rules(monkeypatch):
    monkeypatch.setattr("events.hooks.good_standing.answer", lambda *, membership, on: True)
    monkeypatch.setattr("events.hooks.rules_signed.answer", lambda *, membership: True)


def night_of(season, layout: dict[int, str]):
    """Event 4 (Nov 14) with a player for each letter of ``layout`` ({table: "abc…"}, seats 1, 2, … of 10,
    buttons at seat 1); the officers do not play; the clock runs."""
    players = sum(len(keys) for keys in layout.values())
    event, seats = night_make(season=season, players=players)
    Attendance.objects.filter(event=event, membership__person__key__in=["vp", "pres"]).update(
        status=Attendance.Status.NOT_SIGNED
    )
    place(
        event,
        {table: dict(zip(range(1, len(keys) + 1), keys)) for table, keys in layout.items()},
        seats,
        buttons=dict.fromkeys(layout, 1),
    )
    night_clock.clock_command(
        event=event, action="start", version=0, actor=None, now=timezone.now() - dt.timedelta(minutes=5)
    )
    return event, seats


def places(event):
    return dict(
        Attendance.objects.filter(event=event, place__isnull=False).values_list(
            "membership__person__key", "place"
        )
    )


def phones(browser, live_server, console_url):
    """Phone A (the Vice President's) and phone B (the President's), both showing the console, live."""
    from playwright.sync_api import expect

    contexts = [browser.new_context(viewport=PHONE), browser.new_context(viewport=PHONE)]
    pages = []
    for context, who in zip(contexts, ("vp", "pres"), strict=True):
        page = context.new_page()
        page.set_default_timeout(10_000)
        page.on("dialog", lambda dialog: dialog.accept())
        login(page, live_server, who)
        page.goto(console_url)
        expect(page.locator(STATUS)).to_have_text("Live")
        pages.append(page)
    return contexts, pages


def test_two_offline_phones_busts_are_placed_in_the_order_of_their_taps_whatever_order_they_come_back_in(
    browser, live_server, season, vice_president, president, rules, today
):
    from playwright.sync_api import expect

    # Hal ("H Player") and Max ("M Player") both sit at table 2.
    event, seats = night_of(season, {1: "abcdefg", 2: "hijklmn"})
    console_url = f"{live_server.url}/events/{season.name}/{event.number}/console/"
    (context_a, context_b), (phone_a, phone_b) = phones(browser, live_server, console_url)
    try:
        context_a.set_offline(True)
        context_b.set_offline(True)
        expect(phone_a.locator(STATUS)).to_have_text("Offline — 0 changes waiting")
        expect(phone_b.locator(STATUS)).to_have_text("Offline — 0 changes waiting")
        phone_b.click(f'[data-bust="{seats["h"].pk}"]')
        expect(phone_b.locator(STATUS)).to_have_text("Offline — 1 change waiting")
        phone_a.wait_for_timeout(1500)  # Max goes out a moment after Hal
        phone_a.click(f'[data-bust="{seats["m"].pk}"]')
        expect(phone_a.locator(STATUS)).to_have_text("Offline — 1 change waiting")

        # Phone A's network comes back first: Max is out, last of 14 for now.
        context_a.set_offline(False)
        expect(phone_a.locator(STATUS)).to_have_text("Live", timeout=10_000)
        expect(phone_a.locator("[data-flash]")).to_contain_text("Sent 1 change recorded offline: 1 applied")
        assert list(
            Elimination.objects.filter(event=event).values_list("attendance__membership__person__key")
        ) == [("m",)]
        busts_a = phone_a.locator('[data-part="busts"] li[data-hand]')
        expect(busts_a).to_have_count(1)
        expect(busts_a.nth(0)).to_contain_text("14th M Player")
        # Tables of 7 and 6: no move is due.
        expect(phone_a.locator("[data-move]")).to_have_count(0)

        # Then phone B's: Hal was tapped first, so Hal is 14th and Max moves up to 13th, on both phones.
        context_b.set_offline(False)
        expect(phone_b.locator(STATUS)).to_have_text("Live", timeout=10_000)
        expect(phone_b.locator("[data-flash]")).to_contain_text("Sent 1 change recorded offline: 1 applied")
        # The phone that tapped first but came back last is told what its bust changed.
        expect(phone_b.locator("[data-flash]")).to_contain_text("M Player (now 13th) moves up.")
        hal = Elimination.objects.get(attendance=seats["h"])
        max_ = Elimination.objects.get(attendance=seats["m"])
        assert (hal.hand, max_.hand) == (2, 1)  # recorded in the order the phones came back
        assert hal.tapped_at < max_.tapped_at  # tapped in the other order
        change_b = NightChange.objects.get(event=event, recorded_by=president)
        assert change_b.status == "applied"
        assert change_b.message.startswith(
            f"Out: H Player. Tapped at {timezone.localtime(hal.tapped_at):%H:%M:%S}"
        )
        assert change_b.message.endswith("(the places follow the taps): M Player (now 13th) moves up.")
        for page in (phone_a, phone_b):
            busts = page.locator('[data-part="busts"] li[data-hand]')
            expect(busts).to_have_count(2)
            expect(busts.nth(0)).to_contain_text("13th M Player")  # newest tap first
            expect(busts.nth(1)).to_contain_text("14th H Player")

        # The move that follows them: tables of 7 and 5 now, a player of table 1 moves to table 2.
        proposal = phone_a.locator("[data-move]")
        expect(proposal).to_contain_text("table 1 seat")
        expect(proposal).to_contain_text("→ table 2 seat")
        proposal.locator("button").click()
        expect(phone_a.locator("[data-flash]")).to_contain_text("now sits at table 2")
        move = NightMove.objects.get(event=event)
        assert (move.from_table, move.to_table, move.after_hand) == (1, 2, hal.hand)
        # The move is shown, and taken back by an undo, with the bust the server had just recorded: Hal's.
        expect(phone_b.locator(f'[data-part="busts"] li[data-hand="{hal.hand}"]')).to_contain_text(
            "table moves after it"
        )
        expect(phone_b.locator(f'[data-part="busts"] li[data-hand="{max_.hand}"]')).not_to_contain_text(
            "table moves after it"
        )
    finally:
        context_a.close()
        context_b.close()


def test_a_bust_a_phone_sends_after_the_final_is_parked_and_the_places_stay(
    browser, live_server, season, vice_president, president, rules, today
):
    from playwright.sync_api import expect

    event, seats = night_of(season, {1: "abcd"})
    console_url = f"{live_server.url}/events/{season.name}/{event.number}/console/"
    (context_a, context_b), (phone_a, phone_b) = phones(browser, live_server, console_url)
    try:
        context_b.set_offline(True)
        expect(phone_b.locator(STATUS)).to_have_text("Offline — 0 changes waiting")
        phone_b.click(f'[data-bust="{seats["c"].pk}"]')
        expect(phone_b.locator(STATUS)).to_have_text("Offline — 1 change waiting")

        # Phone A, online, records the night to its end: D, C and B out, the results final.
        for key in "dcb":
            phone_a.click(f'[data-bust="{seats[key].pk}"]')
            expect(phone_a.locator("[data-flash]")).to_contain_text(f"Out: {key.upper()} Player.")
        phone_a.locator("[data-finish] button").click()
        expect(phone_a.locator("[data-flash]")).to_contain_text("Results final. Winner: A Player.")
        final = {"a": 1, "b": 2, "c": 3, "d": 4}
        assert places(event) == final

        context_b.set_offline(False)
        expect(phone_b.locator(STATUS)).to_have_text("Live", timeout=10_000)
        flash = phone_b.locator("[data-flash]")
        expect(flash).to_contain_text("1 wait for the Vice President")
        expect(flash).to_contain_text("reached the server after the results of event 4 were made final")
        change = NightChange.objects.get(event=event, recorded_by=president)
        assert change.status == "conflict"
        assert change.message.endswith(
            "To count it, reopen the results for a correction, then keep it; otherwise drop it."
        )
        event.refresh_from_db()
        assert event.status == Event.Status.FINAL
        assert places(event) == final
    finally:
        context_a.close()
        context_b.close()
