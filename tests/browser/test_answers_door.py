"""Answers survive the door (SPEC §16.5, issue 34 "Done when"), on phones: Ann answers late with the exemption
and Bob sends Sam Jones; the Vice President opens the night while neither has paid to play; the Treasurer takes
their money at the door on the night console; the seats then show Ann's call at the time she answered and Sam
Jones in Bob's seat. The night is dated Dec 12: opening it on Nov 29 asks first, and the officers confirm.

Dues per the bylaws (§2.8): $510 in all by event 5 (Dec 12, 2026). Ann and Bob paid $410 and must pay $100 to
play. The clock is frozen on Nov 29, 2026 at 12:00 UTC (7:00 am in New York) for the answers; the night is
opened and the money taken at 12:25 UTC (7:25 am), so the call-in time shown is the answer's, not the tap's.
"""

import datetime as dt
from decimal import Decimal

import pytest
import time_machine

from events.models import Attendance, Event
from tests.browser.conftest import PHONE, login
from tests.browser.test_journeys import seat
from tests.factories import member_user

pytestmark = pytest.mark.django_db(transaction=True)

LATER = dt.datetime(2026, 11, 29, 12, 25, tzinfo=dt.UTC)
ANSWERED = dt.datetime(2026, 11, 29, 12, 0, tzinfo=dt.UTC)


def test_answers_of_members_who_pay_at_the_door_reach_their_seats(
    browser, live_server, season, today, treasurer, vice_president
):
    from playwright.sync_api import expect

    seat(treasurer, first="Tom", last="Till")
    seat(vice_president, first="Vera", last="Vance")
    ann = seat(member_user(season=season, username="ann"), first="Ann", last="Able", paid=Decimal("410.00"))
    bob = seat(member_user(season=season, username="bob"), first="Bob", last="Best", paid=Decimal("410.00"))
    event_url = f"{live_server.url}/events/{season.name}/5/"
    contexts = []
    try:
        phones = {}
        for name in ("ann", "bob", "vp", "treas"):
            context = browser.new_context(viewport=PHONE)
            contexts.append(context)
            phones[name] = context.new_page()
            phones[name].set_default_timeout(10_000)
            phones[name].on("dialog", lambda dialog: dialog.accept())
            login(phones[name], live_server, name)

        # Ann: late, with the exemption, from the home card.
        a = phones["ann"]
        a.locator("[data-rsvp] summary", has_text="Coming late").click()
        a.locator("[data-rsvp] input[name=exemption]").check()
        a.locator("[data-rsvp-late]").click()
        expect(a.locator("[data-rsvp]")).to_contain_text("Called in Nov 29, 7:00 a.m. · exemption asked for")

        # Bob: Sam Jones plays his seat, from the event page.
        b = phones["bob"]
        b.goto(event_url)
        b.locator("#rsvp summary", has_text="Sending a substitute").click()
        expect(b.locator("[data-rsvp-substitutes]")).to_have_text(
            "Substitutes this season: 0 of 3 at other nights, so this one makes 1 of 3."
        )
        b.locator("#rsvp input[name=substitute_name]").fill("Sam Jones")
        b.locator("#rsvp input[name=not_professional]").check()
        b.locator("[data-rsvp-substitute]").click()
        expect(b.locator("#rsvp")).to_contain_text("Sam Jones plays your seat · prize to the member")

        with time_machine.travel(LATER, tick=False):
            # The Vice President opens the night: neither Ann nor Bob may play yet; their answers are kept.
            vp = phones["vp"]
            vp.goto(f"{event_url}attendance/")
            vp.locator("#open-night button").click()
            expect(vp.locator("body")).to_contain_text("Answers kept on 2 seats that cannot play yet")
            vp.goto(event_url)
            expect(vp.locator("[data-rsvp-kept]")).to_have_count(2)

            # The Treasurer takes their money at the door, in the night console's door panel.
            t = phones["treas"]
            t.goto(f"{event_url}console/")
            door = t.locator("[data-door]")
            for who in ("Ann Able", "Bob Best"):
                door.locator("[data-door-row]", has_text=who).get_by_role(
                    "button", name="Record $100.00 cash"
                ).click()
                expect(t.locator("[data-flash]")).to_contain_text(f"{who} paid $100.00 cash")

            # The seats: Ann called in at 7:00 (her answer), Sam Jones in Bob's seat.
            vp.goto(f"{event_url}attendance/")
            expect(vp.locator("body")).to_contain_text("Substitute: Sam Jones · prize to the member")
            expect(vp.get_by_role("button", name="Arrived (called at 07:00)")).to_be_visible()
            assert vp.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    finally:
        for context in contexts:
            context.close()

    event = Event.objects.get(season=season, number=5)
    rows = {r.membership_id: r for r in Attendance.objects.filter(event=event)}
    assert (rows[ann.pk].status, rows[ann.pk].called_in_at) == ("called_in", ANSWERED)
    assert (rows[bob.pk].status, rows[bob.pk].substitute_name) == ("expected", "Sam Jones")
