"""Issue 47, "Done when": a club starts from an empty database with README's "Start your club" as its only guide.

Lakeside Poker League (Chicago time) starts in the app on Sunday Dec 6, 2026, three nights into its first
season: the season's first event is in September, on the 4th Thursday of every month (Sep 24, Oct 22 and Nov 26
are played, Dec 24 is next). After `manage.py start_club`, everything is done in Chromium, in the order of
README's set-up checklist, from the checklist's own links:

1. the club's identity (name, short name, time zone, the rule book's name);
2. the first season (first event in September, the 4th Thursday), a venue, and the rules checked;
3. officers' terms (done after the roster: the Vice President and the Treasurer must be on record first);
4. the roster, a CSV file without dates of birth, with the tick "Every member in this file is 21 or over", and
   everyone's rules signature;
5. the opening balances, from the Aug 31 bank statement (the books' first day);
6. the nights already played: the payments file (an "IOU" row skipped at the preview), then the results of the
   three nights, oldest first; none of them e-mails anyone;
7. the invitations.

Then every e-mail the club sent is from "Lakeside Poker League <noreply@club.example>", and none is results.

The numbers, worked out from the bylaws: the dues schedule (§2.8) is due by event number, $110 by the first
event and $100 more by each of the next four, so $210 by event 2 and $310 by event 3. Five members paid $510
(the season in full) on Sep 10; Gus Petrov paid $110 in cash on Sep 10, and the $100 he wrote down as an "IOU"
on Oct 22 is no payment (skipped). So six members play Sep 24, and Gus is not in good standing (§2.16, §2.17)
on Oct 22 and Nov 26: five play those nights.
"""

import datetime as dt
import re
from decimal import Decimal
from pathlib import Path

import pytest
import time_machine
from django.core.management import call_command

from events.models import Event
from finance.models import Payment
from members.models import Person
from ncpc.core.models import MailDelivery
from tests.browser.conftest import login

pytestmark = pytest.mark.django_db(transaction=True)

README = Path(__file__).resolve().parents[2] / "README.md"
# What the test does, as README's "Start your club" says it (bold marks and line breaks left out): each page,
# choice and button the test uses is named there.
GUIDE = (
    "manage.py start_club",
    "DEFAULT_FROM_EMAIL=noreply@club.example",
    '"Lakeside Poker League <noreply@club.example>"',
    "the set-up checklist (also under Officers → Set-up)",
    "the club's identity (name, short name, time zone, the rule book's name)",
    "Season rules → Start a new season",
    "the month of its first event",
    '"The 4th of every month" and "Thursday"',
    "The venues step is ticked by a venue in use",
    "Officers → Officers' terms",
    "Officers → Spreadsheet import",
    '"Every member in this file is 21 or over"',
    "rules signatures, ticked for many members at once",
    "opening balances (the Treasurer's, from the bank statement)",
    "first the books' first day and the opening balances (step 5), then the payments members made since",
    "then the results of each night already played, oldest first, on its results page",
    "the step links the oldest one still to enter",
    "Nights entered after the fact send no e-mail",
    "Officers → Invitations",
    '"Right as it is: mark done"',
)
PASSWORD = "pw-for-tests-123"
SEASON = "2026-27"
CLUB = "Lakeside Poker League"
SENDER = "noreply@club.example"  # README's DEFAULT_FROM_EMAIL
# Dec 6, 2026 at noon in Chicago (18:00 UTC).
TODAY = dt.datetime(2026, 12, 6, 18, 0, tzinfo=dt.UTC)

# The club's roster as its spreadsheet has it: names, e-mails and phones, no date of birth. The President (made
# by start_club with the same name and e-mail) is on it: her row gives her a seat.
ROSTER = """First Name,Last Name,Email,Phone
Rosa,Alvarez,rosa.alvarez@example.org,312-555-0100
Tom,Becker,tom.becker@example.org,312-555-0101
Dana,Cho,dana.cho@example.org,312-555-0102
Eli,Novak,eli.novak@example.org,312-555-0103
Fran,Ortiz,fran.ortiz@example.org,312-555-0104
Gus,Petrov,gus.petrov@example.org,312-555-0105
"""
# Lines 2-8 (the header is line 1): line 8 is the IOU, skipped at the preview.
PAYMENTS = """Member,Date,Amount,Method,Check #
Rosa Alvarez,9/10/2026,510.00,Cash,
Tom Becker,9/10/2026,510.00,Chk #1043,
Dana Cho,9/10/2026,510.00,Check,1044
Eli Novak,9/10/2026,510.00,Check,1045
Fran Ortiz,9/10/2026,$510.00,Cash,
Gus Petrov,9/10/2026,110.00,Cash,
Gus Petrov,10/22/2026,100.00,IOU,
"""
OPENING = {"Cash box": "200.00", "Club checking": "1,850.00", "WSOP escrow": "600.00"}
# The 4th Thursday of each month from September 2026 (Sep 1 is a Tuesday, Oct 1 a Thursday, Nov 1 a Sunday...).
NIGHTS_PLAYED = [
    (1, "Thu Sep 24", "Sep 24, 2026", 6),
    (2, "Thu Oct 22", "Oct 22, 2026", 5),
    (3, "Thu Nov 26", "Nov 26, 2026", 5),
]
EVENT_DATES = [
    dt.date(2026, 9, 24),
    dt.date(2026, 10, 22),
    dt.date(2026, 11, 26),
    dt.date(2026, 12, 24),
    dt.date(2027, 1, 28),
    dt.date(2027, 2, 25),
    dt.date(2027, 3, 25),
    dt.date(2027, 4, 22),
    dt.date(2027, 5, 27),
    dt.date(2027, 6, 24),
]


def _start_your_club() -> str:
    """README's "Start your club", as it reads (no bold marks, one space between words)."""
    text = README.read_text(encoding="utf-8")
    section = text.split("\n## Start your club\n", 1)[1].split("\n## ", 1)[0]
    return " ".join(section.replace("**", "").split())


def test_readme_start_your_club_names_every_step_the_browser_test_takes():
    guide = _start_your_club()
    assert [words for words in GUIDE if words not in guide] == []


def _step(page, title: str):
    """The checklist's item of one step."""
    return page.locator("ol.list-group > li").filter(has=page.get_by_role("link", name=title, exact=True))


def _setup_step_open(page, live_server, title: str) -> None:
    """Open a step's page from the set-up checklist, as README says (Officers → Set-up)."""
    page.goto(f"{live_server.url}/setup/")
    page.get_by_role("link", name=title, exact=True).click()
    page.wait_for_load_state("load")


def _sheet_upload(page, *, kind: str, path, adult: bool = False) -> None:
    """Upload a file on the spreadsheet import page and wait for its preview."""
    page.get_by_label("Kind").select_option(label=kind)
    page.get_by_label("Season").select_option(SEASON)
    page.locator("input[type=file][name=file]").set_input_files(str(path))
    if adult:
        page.get_by_label("Every member in this file is 21 or over", exact=True).check()
    page.get_by_role("button", name="Preview", exact=True).click()
    page.get_by_role("heading", name=re.compile(r"^Preview: ")).wait_for()


def test_a_club_starts_mid_season_from_the_readme_and_mails_only_in_its_own_name(
    page, live_server, mailoutbox, settings, tmp_path
):
    from playwright.sync_api import expect

    settings.DEFAULT_FROM_EMAIL = SENDER
    roster = tmp_path / "lakeside roster.csv"
    roster.write_text(ROSTER)
    payments = tmp_path / "lakeside payments.csv"
    payments.write_text(PAYMENTS)
    asked: list[str] = []

    def answer(dialog) -> None:
        asked.append(dialog.message)
        dialog.accept()

    page.on("dialog", answer)
    with time_machine.travel(TODAY, tick=True):
        # The first officer's login, from the command README names.
        call_command(
            "start_club",
            "--no-input",
            "--username=rosa",
            "--email=rosa.alvarez@example.org",
            "--first-name=Rosa",
            "--last-name=Alvarez",
            f"--password={PASSWORD}",
        )
        login(page, live_server, "rosa", PASSWORD)
        expect(
            page.get_by_role("heading", name=re.compile(r"^Set up the club: 0 of 10 done"))
        ).to_be_visible()

        # 1. The club's identity.
        _setup_step_open(page, live_server, "Club identity")
        page.get_by_label("Club's name").fill(CLUB)
        page.get_by_label("Short name").fill("LPL")
        page.get_by_label("Time zone").select_option("America/Chicago")
        page.get_by_label("Rule book's name").fill("the League's rules")
        page.get_by_role("button", name="Save").click()
        page.wait_for_load_state("load")
        expect(page.get_by_label("Club's name")).to_have_value(CLUB)
        expect(page.get_by_label("Time zone")).to_have_value("America/Chicago")
        expect(page.locator("nav")).to_contain_text("LPL")

        # 2. The first season: Season rules → Start a new season, its first event in September, on the 4th
        # Thursday of every month.
        _setup_step_open(page, live_server, "The first season")
        expect(page.get_by_role("heading", name="Start a new season")).to_be_visible()
        page.get_by_label("Start year").fill("2026")
        page.get_by_label("First event in").select_option(label="September")
        page.get_by_label("Events on").select_option(label="The 4th of every month")
        page.get_by_label("Day of the week").select_option(label="Thursday")
        page.get_by_role("button", name="Create season").click()
        page.wait_for_url(f"{live_server.url}/events/rules/{SEASON}/")
        expect(page.get_by_role("heading", name=f"Season rules · {SEASON}")).to_be_visible()
        assert [e.date for e in Event.objects.filter(season__name=SEASON).order_by("number")] == EVENT_DATES

        # 2 (continued). Its venue, and its rules checked: the bylaws' ten events at $50 of dues stand.
        _setup_step_open(page, live_server, "Venues and event dates")
        page.get_by_label("Name").fill("Lakeside VFW Hall")
        page.get_by_label("Address").fill("1200 W Lake St, Chicago")
        page.get_by_role("button", name="Add", exact=True).click()
        page.wait_for_load_state("load")
        expect(page.locator("table")).to_contain_text("Lakeside VFW Hall")
        _setup_step_open(page, live_server, "The season's rules")
        page.wait_for_url(f"{live_server.url}/events/rules/{SEASON}/")
        expect(page.get_by_label("Dues per event ($)")).to_have_value(re.compile(r"^50(\.00)?$"))
        expect(page.get_by_label("Events per season")).to_have_value("10")
        page.goto(f"{live_server.url}/setup/")
        _step(page, "The season's rules").get_by_role("button", name="Right as it is: mark done").click()
        page.wait_for_load_state("load")
        for title in ("Club identity", "The first season", "Venues and event dates", "The season's rules"):
            page.goto(f"{live_server.url}/setup/")
            expect(_step(page, title)).to_contain_text("done")

        # 4. The roster, without dates of birth: the club declares everyone 21 or over.
        _setup_step_open(page, live_server, "The roster")
        page.wait_for_url(f"{live_server.url}/imports/")
        _sheet_upload(page, kind="Members", path=roster, adult=True)
        expect(page.get_by_role("heading", name="Preview: 6 row(s) of members")).to_be_visible()
        expect(
            page.get_by_text(re.compile(r"^Seat for existing person \w+: Rosa Alvarez, 21 or over"))
        ).to_be_visible()
        expect(
            page.get_by_text(re.compile(r"^New person and seat .*: Gus Petrov, 21 or over"))
        ).to_be_visible()
        page.get_by_role("button", name="Confirm: import 6 row(s)").click()
        page.wait_for_load_state("load")
        assert Person.objects.count() == 6
        assert not Person.objects.filter(date_of_birth__isnull=False).exists()

        # 4 (continued). Everyone signed the rules on Sep 1, before the first event.
        _setup_step_open(page, live_server, "Rules signatures")
        page.get_by_label("Tick every unsigned member").check()
        page.get_by_label("Signed on").fill("2026-09-01")
        page.get_by_role("button", name="Record the ticked signatures").click()
        page.wait_for_load_state("load")

        # 3. Officers' terms: a Vice President and a Treasurer from today (the President's term is start_club's).
        for office, name in [("Vice President", "Tom Becker"), ("Treasurer", "Dana Cho")]:
            _setup_step_open(page, live_server, "Officers' terms")
            page.get_by_label("Office").select_option(label=office)
            page.get_by_label("Person").select_option(label=name)
            page.get_by_role("button", name="Add the term").click()
            page.wait_for_load_state("load")
            expect(page.locator("table").first.locator("tr").filter(has_text=name)).to_contain_text(office)
        expect(page.get_by_text("No holder today")).to_have_count(0)

        # 5. Opening balances from the Aug 31 statement: the books' first day.
        for account, amount in OPENING.items():
            _setup_step_open(page, live_server, "Opening balances")
            card = page.locator(".card").filter(has=page.get_by_role("heading", name=account, exact=True))
            card.get_by_label("Statement date").fill("2026-08-31")
            card.get_by_label("Balance on that day").fill(amount)
            card.get_by_role("button", name="Check and confirm…").click()
            page.get_by_role("button", name="Book it").click()
            page.wait_for_url(f"{live_server.url}/finance/opening-balances/")
            card = page.locator(".card").filter(has=page.get_by_role("heading", name=account, exact=True))
            expect(card).to_contain_text(f"${amount}")
            expect(card).to_contain_text("on Aug 31, 2026")
        expect(page.get_by_text("The books start on Aug 31, 2026")).to_be_visible()

        # 6. Nights already played: first the payments since the books' first day, the IOU skipped.
        page.goto(f"{live_server.url}/setup/")
        expect(_step(page, "Nights already played")).to_contain_text("to do")
        page.locator("nav").get_by_role("button", name="Officers").click()
        page.locator("nav").get_by_role("link", name="Spreadsheet import").click()
        page.wait_for_url(f"{live_server.url}/imports/")
        _sheet_upload(page, kind="Payments", path=payments)
        expect(page.get_by_role("heading", name="Preview: 7 row(s) of payments")).to_be_visible()
        iou = page.locator("tr").filter(has_text="Method IOU")
        expect(iou).to_have_count(1)
        expect(page.get_by_role("button", name=re.compile("^Confirm: import"))).to_have_count(0)
        iou.get_by_label("Skip this row").check()
        page.get_by_role("button", name="Preview again with these choices").click()
        page.get_by_role("heading", name="Preview: 7 row(s) of payments").wait_for()
        expect(page.get_by_text("1 row(s) skipped (line 8): nothing is booked for them.")).to_be_visible()
        page.get_by_role("button", name="Confirm: import 6 row(s)").click()
        page.wait_for_load_state("load")
        expect(
            page.get_by_text(re.compile(r"1 row\(s\) skipped \(line 8\): nothing was booked"))
        ).to_be_visible()
        booked = Payment.objects.filter(membership__season__name=SEASON)
        assert booked.count() == 6
        assert sum(p.amount for p in booked) == Decimal("2660.00")  # 5 × $510 + $110
        assert not booked.filter(amount=Decimal("100.00")).exists()

        # 6 (continued). The results of each night, oldest first, from the checklist's link; no e-mail for any.
        for number, heading_date, long_date, players in NIGHTS_PLAYED:
            _setup_step_open(page, live_server, "Nights already played")
            page.wait_for_url(f"{live_server.url}/events/{SEASON}/{number}/results/")
            expect(
                page.get_by_role("heading", name=f"Results · event {number} {heading_date}")
            ).to_be_visible()
            page.get_by_role("button", name="Open the night: list the seats from the roster").click()
            expect(page.get_by_text("Seats listed: 6 members from the roster.")).to_be_visible()
            busts = page.locator('form[action$="/results/bust/"][data-confirm] button')
            expect(busts).to_have_count(players)
            while busts.count() > 1:
                name = busts.first.inner_text().strip()
                busts.first.click()
                expect(page.get_by_text(f"Out: {name}.")).to_be_visible()
            expect(page.get_by_text(re.compile(r"^Winner: "))).to_be_visible()
            expect(
                page.get_by_text(
                    f"Finishing sends no results e-mail: event {number} was played on {long_date} and its "
                    "results become final on Dec 6, 2026, more than a day after the night."
                )
            ).to_be_visible()
            page.get_by_role("button", name=f"Finish: places 1–{players}").click()
            page.wait_for_url(f"{live_server.url}/events/{SEASON}/{number}/")
            expect(
                page.get_by_text(re.compile(r"Results final\. Winner: .*No results e-mail was sent"))
            ).to_be_visible()
            assert "No results e-mail goes to the members (a night entered after the fact)." in asked[-1]
        assert len(mailoutbox) == 0
        page.goto(f"{live_server.url}/setup/")
        expect(_step(page, "Nights already played")).to_contain_text("done")

        # 7. Invitations: each member without a login gets an e-mail (five: the President has hers).
        _setup_step_open(page, live_server, "Invitations")
        page.get_by_role("button", name="Invite all 5 without a login").click()
        page.wait_for_load_state("load")
        page.goto(f"{live_server.url}/setup/")
        expect(page.get_by_text("10 of 10 done")).to_be_visible()

    # Every e-mail of the evening went out in the club's name, and none was about results.
    assert sorted(m.to[0] for m in mailoutbox) == [
        "dana.cho@example.org",
        "eli.novak@example.org",
        "fran.ortiz@example.org",
        "gus.petrov@example.org",
        "tom.becker@example.org",
    ]
    for message in mailoutbox:
        assert message.message()["From"] == f"{CLUB} <{SENDER}>"
        assert message.from_email == f"{CLUB} <{SENDER}>"
    deliveries = MailDelivery.objects.all()
    assert deliveries.count() == 5
    assert set(deliveries.values_list("kind", flat=True)) == {MailDelivery.Kind.PASSWORD_RESET}
    assert set(deliveries.values_list("status", flat=True)) == {MailDelivery.Status.SENT}
