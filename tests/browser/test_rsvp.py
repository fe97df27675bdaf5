"""Who's coming on phones (issue 19): three members answer for the next night on 390-px pages — one coming from
the home card, one late with the exemption, one sending a substitute from the event page — and the Vice
President sees the count and who has not answered."""

import pytest

from events.models import Attendance, Rsvp
from events.selectors import next_event
from ncpc.core.clock import club_today
from tests.browser.conftest import PHONE, login
from tests.factories import member_user, season_make

pytestmark = pytest.mark.django_db(transaction=True)


def fits_the_phone(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


@pytest.fixture
def season(db):
    """The season whose next event is still ahead on the real date (the browser keeps real time)."""
    today = club_today()
    found = season_make(today.year if today.month >= 8 else today.year - 1)
    if not found.events.filter(date__gte=today).exists():
        found = season_make(found.start.year + 1)
    return found


def test_three_members_answer_from_their_phones_and_the_officer_sees_the_count(
    browser, live_server, season, monkeypatch
):
    from playwright.sync_api import expect

    # Everyone paid and signed (finance and members decide; their own tests cover it).
    monkeypatch.setattr("events.hooks.good_standing.answer", lambda *, membership, on: True)
    monkeypatch.setattr("events.hooks.rules_signed.answer", lambda *, membership: True)

    for name in ("ann", "bea", "cy"):
        member_user(season=season, username=name)
    member_user(season=season, username="vp", office="vice_president")
    event = next_event()
    assert event is not None and event.season == season
    event_url = f"{live_server.url}/events/{season.name}/{event.number}/"
    contexts = []
    try:
        phones = {}
        for name in ("ann", "bea", "cy", "vp"):
            context = browser.new_context(viewport=PHONE)
            contexts.append(context)
            phones[name] = context.new_page()
            phones[name].set_default_timeout(10_000)
            login(phones[name], live_server, name)

        # Ann: "Coming" from the home page's next-event card.
        ann = phones["ann"]
        expect(ann.locator("[data-rsvp]")).to_contain_text("Are you coming?")
        assert fits_the_phone(ann)
        ann.locator("[data-rsvp] button[value=coming]").click()
        expect(ann.locator("[data-rsvp-answer]")).to_have_text("Coming")

        # Bea: late, with the exemption, also from the home card (the call-in time is recorded).
        bea = phones["bea"]
        bea.locator("[data-rsvp] summary", has_text="Coming late").click()
        bea.locator("[data-rsvp] input[name=exemption]").check()
        bea.locator("[data-rsvp-late]").click()
        expect(bea.locator("[data-rsvp-answer]")).to_have_text("Coming late")
        expect(bea.locator("[data-rsvp]")).to_contain_text("exemption asked for")
        assert fits_the_phone(bea)

        # Cy: a substitute, from the event page.
        cy = phones["cy"]
        cy.goto(event_url)
        cy.locator("#rsvp summary", has_text="Sending a substitute").click()
        cy.locator("#rsvp input[name=substitute_name]").fill("Carl Guest")
        cy.locator("#rsvp input[name=prize_to][value=substitute]").check()
        cy.locator("#rsvp input[name=not_professional]").check()
        cy.locator("[data-rsvp-substitute]").click()
        expect(cy.locator("[data-rsvp-answer]")).to_have_text("Sending a substitute")
        expect(cy.locator("#rsvp")).to_contain_text("Carl Guest plays your seat · prize to the substitute")
        assert fits_the_phone(cy)

        # The Vice President: the count per answer and who has not answered.
        vp = phones["vp"]
        vp.goto(event_url)
        expect(vp.locator('[data-rsvp-count="coming"]')).to_have_text("Coming: 1")
        expect(vp.locator('[data-rsvp-count="late"]')).to_have_text("Coming late: 1")
        expect(vp.locator('[data-rsvp-count="substitute"]')).to_have_text("Sending a substitute: 1")
        expect(vp.locator('[data-rsvp-count="none"]')).to_have_text("No answer: 1")
        expect(vp.locator("[data-rsvp-summary]")).to_contain_text("Not answered yet:")
        expect(vp.locator('[data-rsvp-line="substitute"]')).to_contain_text(
            "Carl Guest, prize to the substitute"
        )
        assert fits_the_phone(vp)

        # Opening the night turns the answers into seats (the night is dated Dec 12: the officer confirms
        # opening it before its date).
        vp.on("dialog", lambda dialog: dialog.accept())
        vp.goto(f"{event_url}attendance/")
        vp.locator("#open-night button").click()
        expect(vp.locator("body")).to_contain_text("Answers applied to the seats: 3")
    finally:
        for context in contexts:
            context.close()

    assert Rsvp.objects.filter(event=event).count() == 3
    statuses = {
        a.membership.person.key: (a.status, a.substitute_name)
        for a in Attendance.objects.filter(event=event).select_related("membership__person")
    }
    assert statuses == {
        "ann": ("expected", ""),
        "bea": ("called_in", ""),
        "cy": ("expected", "Carl Guest"),
        "vp": ("expected", ""),
    }
