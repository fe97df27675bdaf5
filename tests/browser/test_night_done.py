"""Issue 19's "done when", in one run on the real clock: three members answer from their phones (one coming,
one late — the §5.2.4 call-in —, one sending a substitute); the Vice President opens the night (the answers
become seats) and draws the seats; the Vice President's laptop and the President's phone both show the
console; a bust on one shows on the other within 2 seconds; the balancing move appears where the bust was
entered and, once confirmed, on both seatings; the member who called in arrives within the window and plays;
the event sheet prints on one page and its PDF downloads; a bust with a table move costs no page load."""

import io
import re

import pytest
from pypdf import PdfReader

from events.models import Attendance, Event, NightSeat, NightTable
from events.services.seating import Table, forbidden_seats
from ncpc.core.clock import club_now, club_today
from tests.browser.conftest import PHONE, login
from tests.factories import MembershipFactory, PersonFactory, member_user, season_make

pytestmark = pytest.mark.django_db(transaction=True)

OTHERS = "defghijklmn"  # eleven more members: 16 on the roster, two tables of eight


@pytest.fixture
def tonight(db, monkeypatch):
    """An event dated today on the real clock (the browser and the server keep real time): answers are taken
    until the night opens, and busts only from its day on (SPEC §15.11)."""
    now = club_now()
    if (now.hour, now.minute) >= (23, 40):
        # Seen in CI at 23:58 club time: the club's day turned during the test and the event was yesterday's.
        pytest.skip("the club's day ends during this test (real clock): run it after midnight")
    monkeypatch.setattr("events.hooks.good_standing.answer", lambda *, membership, on: True)
    monkeypatch.setattr("events.hooks.rules_signed.answer", lambda *, membership: True)
    today = club_today()
    season = season_make(today.year if today.month >= 8 else today.year - 1)
    event = (
        season.events.filter(date=today).first()
        or season.events.filter(date__gt=today).order_by("date").first()
        or season.events.order_by("-date").first()
    )
    Event.objects.filter(pk=event.pk).update(date=today)  # the night is tonight
    for name in ("ann", "bea", "cy"):
        member_user(season=season, username=name)
    member_user(season=season, username="vp", office="vice_president")
    member_user(season=season, username="pres", office="president")
    for key in OTHERS:
        MembershipFactory(
            person=PersonFactory(key=key, first_name=key.upper(), last_name="Player"), season=season
        )
    event.refresh_from_db()
    return event


def calculator_table(number: int, event: Event) -> Table:
    row = NightTable.objects.get(event=event, number=number)
    seats = {
        s.seat: str(s.attendance_id)
        for s in NightSeat.objects.filter(table=row, attendance__elimination__isnull=True)
    }
    return Table(number=number, seats=seats, button=row.button, seat_count=row.seat_count)


def two_to_bust(event: Event, table: int, away: int) -> list[int]:
    """Two players of ``table`` whose seats, once empty, a moved player may take (not between the button and
    the small blind, §6.6): the last players before the button, counter-clockwise."""
    t = calculator_table(table, event)
    order = [(t.button - k - 1) % t.seat_count + 1 for k in range(1, t.seat_count)]
    picked = [int(t.seats[s]) for s in order if s in t.seats and int(t.seats[s]) != away][:2]
    assert not {s for s, p in t.seats.items() if int(p) in picked} & forbidden_seats(t)
    return picked


def test_a_whole_night_from_the_phones_answers_to_the_printed_event_sheet(browser, live_server, tonight):
    from playwright.sync_api import expect

    event = tonight
    season = event.season
    base = f"{live_server.url}/events/{season.name}/{event.number}"
    contexts = []
    try:
        screens = {}
        for name in ("ann", "bea", "cy", "pres"):
            context = browser.new_context(viewport=PHONE)
            contexts.append(context)
            screens[name] = context.new_page()
        laptop = browser.new_context(viewport={"width": 1280, "height": 900})
        contexts.append(laptop)
        screens["vp"] = laptop.new_page()
        for name, screen in screens.items():
            screen.set_default_timeout(10_000)
            screen.on("dialog", lambda dialog: dialog.accept())
            login(screen, live_server, name)

        # Three members answer on the event page from their phones.
        ann, bea, cy = screens["ann"], screens["bea"], screens["cy"]
        for screen in (ann, bea, cy):
            screen.goto(f"{base}/")
        ann.locator("#rsvp [data-rsvp] button[value=coming]").click()
        expect(ann.locator("[data-rsvp-answer]")).to_have_text("Coming")
        bea.locator("#rsvp summary", has_text="Coming late").click()
        bea.locator("#rsvp input[name=exemption]").check()
        bea.locator("[data-rsvp-late]").click()
        expect(bea.locator("[data-rsvp-answer]")).to_have_text("Coming late")
        cy.locator("#rsvp summary", has_text="Sending a substitute").click()
        cy.locator("#rsvp input[name=substitute_name]").fill("Carl Guest")
        cy.locator("#rsvp input[name=prize_to][value=member]").check()
        cy.locator("#rsvp input[name=not_professional]").check()
        cy.locator("[data-rsvp-substitute]").click()
        expect(cy.locator("[data-rsvp-answer]")).to_have_text("Sending a substitute")

        # The Vice President opens the night from the console (the answers become seats) and draws the seats.
        vp, pres = screens["vp"], screens["pres"]
        vp.goto(f"{base}/console/")
        vp.locator("#open-night button").click()
        expect(vp.locator("body")).to_contain_text("Answers applied to the seats: 3")
        vp.locator("button", has_text="Draw the seats").click()
        expect(vp.locator("[data-table]")).to_have_count(2)
        seats = {
            a.membership.person.key: a
            for a in Attendance.objects.filter(event=event).select_related("membership__person")
        }
        assert seats["bea"].status == Attendance.Status.CALLED_IN
        assert seats["cy"].substitute_name == "Carl Guest"
        expect(vp.locator(f'[data-away="{seats["bea"].pk}"]')).to_contain_text("called in")
        vp.locator("button", has_text="Start the clock").click()
        expect(vp.locator('[data-clock="level"]')).to_have_text("Level 1")

        # The sheet marks the seat waiting for the member who called in.
        sheet_html = vp.request.get(f"{base}/sheet/").text()
        assert re.search(r"— called in late \d\d:\d\d", sheet_html)

        # The President's phone shows the same console.
        pres.goto(f"{base}/console/")
        expect(pres.locator('[data-clock="level"]')).to_have_text("Level 1")
        expect(pres.locator("[data-table]")).to_have_count(2)

        loads = []
        vp.on("framenavigated", lambda frame: loads.append(frame.url) if frame == vp.main_frame else None)
        table = NightSeat.objects.get(attendance=seats["ann"]).table.number
        first, second = two_to_bust(event, table, away=seats["bea"].pk)

        # A bust on the laptop shows on the phone within 2 s.
        vp.click(f'[data-bust="{first}"]')
        expect(vp.locator("[data-flash]")).to_contain_text("Out:")
        expect(pres.locator(f'[data-bust="{first}"]')).to_have_count(0, timeout=2_000)
        name = Attendance.objects.get(pk=first).player_name
        expect(pres.locator('[data-part="busts"]')).to_contain_text(name, timeout=2_000)

        # The second at the same table leaves it two short: the move shows where the bust was entered.
        vp.click(f'[data-bust="{second}"]')
        move = vp.locator("[data-move]")
        expect(move).to_be_visible()
        proposal = vp.evaluate("window.ncpcConsole.state()")["move"]
        assert proposal["to_table"] == table and proposal["from_table"] != table
        move.locator("button").click()
        expect(vp.locator("[data-flash]")).to_contain_text(
            f"now sits at table {table}, seat {proposal['to_seat']}"
        )
        # The move reaches both screens without a page load (the other phone at its next poll: the 2 s above is
        # for a bust; on a busy CI machine a poll can come late, so the move is given 5 s).
        for screen in (vp, pres):
            seat = screen.locator(f'[data-seat="{table}-{proposal["to_seat"]}"]')
            expect(seat).to_contain_text(proposal["name"], timeout=5_000)
            expect(screen.locator("[data-move]")).to_have_count(0, timeout=5_000)
        assert loads == []  # two busts and the table move: not one page load

        # Bea called in this afternoon and arrives within the window: she plays (a bust button at her seat).
        vp.locator(f'[data-away="{seats["bea"].pk}"]').locator("button", has_text="Arrived").click()
        expect(vp.locator("[data-flash]")).to_contain_text("arrived and plays.")
        expect(pres.locator(f'[data-bust="{seats["bea"].pk}"]')).to_have_count(1, timeout=2_000)
        assert NightSeat.objects.filter(attendance=seats["bea"]).exists()

        # The event sheet: the page (from the event page) prints on one sheet; its PDF downloads.
        vp.goto(f"{base}/")
        vp.click("a:has-text('Event sheet (print)')")
        expect(vp.locator("#seating")).to_contain_text("Table 1")
        expect(vp.locator("#payouts")).to_contain_text("16 members on the roster")
        for prize in ("$145.00", "$95.00", "$70.00", "$50.00", "$360.00"):  # §6.2, 16 members
            expect(vp.locator("#payouts")).to_contain_text(prize)
        expect(vp.locator("#blinds")).to_contain_text("Remove $25 chips")
        printed = PdfReader(io.BytesIO(vp.pdf(format="Letter")))
        assert len(printed.pages) == 1, f"the event sheet prints on {len(printed.pages)} pages"
        with vp.expect_download() as download:
            vp.evaluate(
                "href => { const a = document.createElement('a'); a.href = href; a.download = ''; "
                "document.body.appendChild(a); a.click(); }",
                vp.locator("a", has_text="PDF").first.get_attribute("href"),
            )
        assert download.value.suggested_filename.endswith(".pdf")
    finally:
        for context in contexts:
            context.close()
