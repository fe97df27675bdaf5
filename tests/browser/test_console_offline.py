"""The night console when the host's Wi-Fi drops (issue 20), in Chromium's offline mode: the clock runs past a
level on the device, two busts and a table move are kept on the device in order (also through a reload with no
network) and reach the server in that order when the network is back; a bust another officer recorded
meanwhile comes back as a conflict that the Vice President settles on the conflicts page."""

import datetime as dt

import pytest
import time_machine
from django.db.models import F
from django.utils import timezone

from events.models import Attendance, Elimination, Night, NightChange, NightSeat
from events.services import night_clock
from tests.browser.conftest import ARTIFACTS, PHONE, login
from tests.events.factories import night_make
from tests.events.test_night import place

pytestmark = pytest.mark.django_db(transaction=True)

STATUS = "[data-connection]"
PLAN_KEPT = "version => Object.keys(localStorage).some(k => k.startsWith('ncpc-console:') && k.endsWith(':plan') && (JSON.parse(localStorage[k]) || {}).version === version)"


def night_of(season, *, seconds_left: int):
    """Event 4: a-g at table 1 and h-n at table 2 (seats 1-7 of 10); level 1 (30 minutes, 25/50) has
    ``seconds_left`` seconds to go."""
    event, seats = night_make(season=season, players=14)
    Attendance.objects.filter(event=event, membership__person__key__in=["vp", "pres"]).update(
        status=Attendance.Status.NOT_SIGNED
    )
    place(
        event,
        {1: dict(zip(range(1, 8), "abcdefg")), 2: dict(zip(range(1, 8), "hijklmn"))},
        seats,
        buttons={1: 1, 2: 1},
    )
    night_clock.clock_command(
        event=event,
        action="start",
        version=0,
        actor=None,
        now=timezone.now() - dt.timedelta(minutes=30) + dt.timedelta(seconds=seconds_left),
    )
    return event, seats


@pytest.fixture
def today():
    """The suite's day, with the server's clock running (not frozen): the times the device recorded offline
    are compared with the server's."""
    with time_machine.travel(dt.datetime(2026, 11, 29, 12, 0, tzinfo=dt.UTC), tick=True):
        yield dt.date(2026, 11, 29)


@pytest.fixture
def rules(monkeypatch):
    monkeypatch.setattr("events.hooks.good_standing.answer", lambda *, membership, on: True)
    monkeypatch.setattr("events.hooks.rules_signed.answer", lambda *, membership: True)


def out_in_order(event):
    return [
        (e.hand, e.attendance.membership.person.key)
        for e in Elimination.objects.filter(event=event).order_by("hand", "pk")
    ]


def seat_of(attendance):
    row = NightSeat.objects.select_related("table").get(attendance=attendance)
    return row.table.number, row.seat


def test_two_busts_and_a_move_recorded_offline_reach_the_server_in_order(
    browser, live_server, season, vice_president, president, rules
):
    from playwright.sync_api import expect

    event, seats = night_of(season, seconds_left=20 * 60)
    console_url = f"{live_server.url}/events/{season.name}/{event.number}/console/"
    context = browser.new_context(viewport=PHONE)
    try:
        page = context.new_page()
        page.set_default_timeout(10_000)
        page.on("dialog", lambda dialog: dialog.accept())
        login(page, live_server, "vp")
        page.goto(console_url)
        expect(page.locator('[data-clock="level"]')).to_have_text("Level 1")
        expect(page.locator(STATUS)).to_have_text("Live")
        expect(page.locator("[data-heard]")).to_contain_text("last heard the server")
        assert page.evaluate("navigator.serviceWorker.ready.then(r => !!r.active)")
        page.wait_for_function(PLAN_KEPT, arg=1)
        page.reload()  # under the worker's control now: the console is kept for offline use
        expect(page.locator(STATUS)).to_have_text("Live")
        expect(page.locator('[data-clock="level"]')).to_have_text("Level 1")
        # Another screen sets the clock back to 12 seconds before the end of level 1 (however long the
        # loading took); this console hears it and keeps the new plan.
        Night.objects.filter(event=event).update(
            started_at=timezone.now() - dt.timedelta(minutes=30) + dt.timedelta(seconds=12),
            clock_version=F("clock_version") + 1,
        )
        page.wait_for_function(PLAN_KEPT, arg=2)
        expect(page.locator('[data-clock="level"]')).to_have_text("Level 1")

        context.set_offline(True)
        expect(page.locator(STATUS)).to_have_text("Offline — 0 changes waiting")
        page.click(f'[data-bust="{seats["l"].pk}"]')
        expect(page.locator(STATUS)).to_have_text("Offline — 1 change waiting")
        expect(page.locator(f'[data-bust="{seats["l"].pk}"]')).to_contain_text("out · waiting")
        expect(page.locator(f'[data-bust="{seats["l"].pk}"]')).to_be_disabled()
        page.click(f'[data-bust="{seats["m"].pk}"]')
        expect(page.locator(STATUS)).to_have_text("Offline — 2 changes waiting")
        expect(page.locator('[data-clock="left"]')).to_have_text("12")
        # The Tournament Director moves A from table 1 seat 1 to L's empty seat at table 2.
        move = page.locator("[data-offline-move]")
        move.locator("select[name=player]").select_option(str(seats["a"].pk))
        move.locator("select[name=seat]").select_option("2-5")
        move.locator("button").click()
        expect(page.locator(STATUS)).to_have_text("Offline — 3 changes waiting")
        expect(page.locator('[data-seat="2-5"]')).to_contain_text("A Player")
        expect(page.locator('[data-seat="2-5"]')).not_to_contain_text("L Player")
        expect(page.locator('[data-seat="1-1"]')).to_contain_text("empty")
        items = page.locator("[data-offline-list] li")
        expect(items).to_have_count(3)
        assert [items.nth(i).inner_text().rsplit(" ", 1)[0] for i in range(3)] == [
            "Out: L Player",
            "Out: M Player",
            "Move: A Player to table 2 seat 5",
        ]

        # The clock runs past the level with no server.
        expect(page.locator('[data-clock="level"]')).to_have_text("Level 2", timeout=20_000)
        expect(page.locator('[data-clock="blinds"]')).to_have_text("50 / 100")
        # A clock change waits too: the clock pauses on the device.
        page.locator('[data-part="clock"] button', has_text="Pause").click()
        expect(page.locator(STATUS)).to_have_text("Offline — 4 changes waiting")
        expect(page.locator('[data-clock="status"]')).to_have_text("Paused")
        expect(page.locator('[data-part="clock"] button', has_text="Resume")).to_be_visible()
        assert Elimination.objects.filter(event=event).count() == 0  # nothing reached the server yet

        # Opened again with no network: the worker's copy of the page, the queue still on the device.
        page.reload()
        expect(page.locator(STATUS)).to_have_text("Offline — 4 changes waiting")
        expect(page.locator(f'[data-bust="{seats["m"].pk}"]')).to_contain_text("out · waiting")
        expect(page.locator('[data-clock="level"]')).to_have_text("Level 2")
        expect(page.locator('[data-clock="status"]')).to_have_text("Paused")
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "console-offline-390.png"), full_page=True)
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE["width"], f"the offline console scrolls sideways on a phone ({width}px)"

        context.set_offline(False)
        expect(page.locator(STATUS)).to_have_text("Live", timeout=10_000)
        expect(page.locator("[data-flash]")).to_contain_text("Sent 4 changes recorded offline: 4 applied")
        assert out_in_order(event) == [(1, "l"), (2, "m")]
        assert seat_of(seats["a"]) == (2, 5)
        changes = list(NightChange.objects.filter(event=event).order_by("sequence"))
        assert [(c.sequence, c.action, c.status) for c in changes] == [
            (1, "bust", "applied"),
            (2, "bust", "applied"),
            (3, "move", "applied"),
            (4, "clock", "applied"),
        ]
        assert (
            changes[0].happened_at
            <= changes[1].happened_at
            <= changes[2].happened_at
            <= changes[3].happened_at
        )
        # Paused when the officer pressed Pause, in level 2, not when the network came back.
        night = Night.objects.get(event=event)
        assert night.paused_at == changes[3].happened_at
        assert night_clock.clock_payload(event=event)["level_number"] == 2
        # The console shows the server's night again: L and M out, A at table 2 seat 5.
        expect(page.locator('[data-part="busts"]')).to_contain_text("M Player")
        expect(page.locator('[data-seat="2-5"]')).to_contain_text("A Player")
        expect(page.locator("[data-offline]")).to_be_hidden()
        # Sending again records nothing twice.
        page.evaluate("window.ncpcConsole.sync()")
        assert NightChange.objects.filter(event=event).count() == 4
    finally:
        context.close()


def test_a_bust_another_officer_recorded_meanwhile_is_shown_as_a_conflict_to_resolve(
    browser, live_server, season, vice_president, president, rules
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
        vp.click(f'[data-bust="{seats["l"].pk}"]')
        expect(vp.locator(STATUS)).to_have_text("Offline — 1 change waiting")
        # Meanwhile the President records the same bust online.
        other.click(f'[data-bust="{seats["l"].pk}"]')
        expect(other.locator("[data-flash]")).to_contain_text("Out: L Player.")

        vp_context.set_offline(False)
        expect(vp.locator(STATUS)).to_have_text("Live", timeout=10_000)
        panel = vp.locator("[data-conflicts-panel]")
        expect(panel).to_be_visible()
        expect(panel).to_contain_text("1 change recorded offline waits for the Vice President")
        expect(vp.locator("[data-flash]")).to_contain_text("L Player was recorded out on another screen")
        change = NightChange.objects.get(event=event)
        assert change.status == "conflict"
        assert out_in_order(event) == [(1, "l")]  # recorded once

        panel.locator("a", has_text="Resolve them").click()
        row = vp.locator(f'[data-conflict="{change.pk}"]')
        expect(row).to_contain_text("Bust: L Player")
        expect(row).to_contain_text("was recorded out on another screen meanwhile")
        row.locator("button", has_text="Keep theirs").click()
        expect(vp.locator("body")).to_contain_text("Nothing waiting")
        change.refresh_from_db()
        assert change.status == "kept_theirs"
        assert out_in_order(event) == [(1, "l")]

        # Back on the console, nothing waits any more.
        vp.goto(console_url)
        expect(vp.locator(STATUS)).to_have_text("Live")
        expect(vp.locator("[data-conflicts-panel]")).to_be_hidden()

        # A session that ended is not taken for a network down: the console says to log in again.
        vp_context.clear_cookies()
        expect(vp.locator(STATUS)).to_have_text("Logged out: log in again")
    finally:
        vp_context.close()
        other_context.close()


def test_an_undo_offline_puts_the_player_back_at_once_and_on_the_server(
    browser, live_server, season, vice_president, president, rules
):
    from playwright.sync_api import expect

    event, seats = night_of(season, seconds_left=20 * 60)
    context = browser.new_context(viewport=PHONE)
    try:
        page = context.new_page()
        page.set_default_timeout(10_000)
        page.on("dialog", lambda dialog: dialog.accept())
        login(page, live_server, "vp")
        page.goto(f"{live_server.url}/events/{season.name}/{event.number}/console/")
        expect(page.locator(STATUS)).to_have_text("Live")

        context.set_offline(True)
        expect(page.locator(STATUS)).to_have_text("Offline — 0 changes waiting")
        page.click(f'[data-bust="{seats["l"].pk}"]')
        expect(page.locator(f'[data-bust="{seats["l"].pk}"]')).to_be_disabled()
        undo = page.locator("[data-offline-undo] button")
        expect(undo).to_have_text("Undo the last bust: L Player back in")
        undo.click()
        expect(page.locator(STATUS)).to_have_text("Offline — 2 changes waiting")
        expect(page.locator(f'[data-bust="{seats["l"].pk}"]')).to_be_enabled()
        expect(page.locator(f'[data-bust="{seats["l"].pk}"]')).not_to_contain_text("waiting")
        page.click(f'[data-bust="{seats["m"].pk}"]')
        expect(page.locator(STATUS)).to_have_text("Offline — 3 changes waiting")

        context.set_offline(False)
        expect(page.locator(STATUS)).to_have_text("Live", timeout=10_000)
        assert [k for _, k in out_in_order(event)] == ["m"]
        assert list(
            NightChange.objects.filter(event=event).order_by("sequence").values_list("action", "status")
        ) == [
            ("bust", "applied"),
            ("undo", "applied"),
            ("bust", "applied"),
        ]
    finally:
        context.close()
