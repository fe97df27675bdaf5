"""Issue 33, "Done when" (first bullet): from an empty database to the first night, in the app alone.

The first command makes the President's login; then, in Chromium and never in /admin/, the President follows
the set-up checklist: the club's identity, the first season and a rule of its own, the roster and the payments
from the club's own spreadsheets (the payments file imported twice books nothing the second time), officers'
terms, opening balances, an invitation accepted in another browser, a first night's results, and the monthly
report opening with the balances entered. Once the club is renamed, no page names the old club.

The club's today is Nov 29, 2026 (as in the other tests): the 2026-27 season started on Aug 1 and its first
event (Aug 22) is past, the payments file's last payment is dated Oct 24.
"""

import datetime as dt
import re
from pathlib import Path

import pytest
import time_machine
from django.core.management import call_command

from finance.models import Payment
from tests.browser.conftest import login

pytestmark = pytest.mark.django_db(transaction=True)

DATA = Path(__file__).resolve().parents[1] / "ncpc" / "data"
ROSTER = DATA / "club_roster.csv"
PAYMENTS = DATA / "club_payments.csv"
PASSWORD = "pw-for-tests-123"
SEASON = "2026-27"
OPENING = {"Cash box": "150.00", "Club checking": "2,345.67", "WSOP escrow": "1,200.00"}
OLD_NAMES = ("NCPC", "Northern Cincinnati")


class Pages:
    """The text of every page visited after the rename, to check that none names the old club."""

    def __init__(self) -> None:
        self.texts: list[tuple[str, str]] = []

    def seen(self, page) -> None:
        page.wait_for_load_state("load")
        self.texts.append((page.url, page.title() + "\n" + page.locator("body").inner_text()))

    def naming_the_old_club(self) -> list[str]:
        return [url for url, text in self.texts if any(old in text for old in OLD_NAMES)]


def _import(page, live_server, pages, *, kind: str, path: Path, tidy: bool = False) -> None:
    """Upload a file on the imports page and wait for its preview."""
    page.goto(f"{live_server.url}/imports/")
    page.get_by_label("Kind").select_option(label=kind)
    page.get_by_label("Season").select_option(SEASON)
    page.locator("#id_file").set_input_files(str(path))
    if tidy:
        page.get_by_label("Tidy names", exact=True).check()
    page.get_by_role("button", name="Preview", exact=True).click()
    page.get_by_role("heading", name=re.compile(r"^Preview: ")).wait_for()
    pages.seen(page)


def test_a_new_club_starts_from_an_empty_database_to_its_first_night_without_the_admin(
    browser, page, live_server, mailoutbox
):
    from playwright.sync_api import expect

    pages = Pages()
    page.on("dialog", lambda dialog: dialog.accept())
    with time_machine.travel(dt.datetime(2026, 11, 29, 15, 0, tzinfo=dt.UTC), tick=True):
        call_command(
            "start_club",
            "--no-input",
            "--username=paula",
            "--email=paula@example.org",
            "--first-name=Paula",
            "--last-name=Park",
            f"--password={PASSWORD}",
        )

        # 1. The President logs in: the home page shows the set-up checklist.
        login(page, live_server, "paula", PASSWORD)
        expect(
            page.get_by_role("heading", name=re.compile(r"^Set up the club: 0 of \d+ done"))
        ).to_be_visible()
        expect(page.locator("nav")).to_contain_text(
            "NCPC"
        )  # the default name, until the President changes it
        page.get_by_role("link", name="Set-up page").click()
        page.wait_for_url(f"{live_server.url}/setup/")
        expect(page.get_by_role("heading", name="Set-up")).to_be_visible()

        # 2. The club's identity, from the checklist.
        page.get_by_role("link", name="Club identity").click()
        page.wait_for_url(f"{live_server.url}/club/")
        page.get_by_label("Club's name").fill("Eastside Card Club")
        page.get_by_label("Short name").fill("ECC")
        page.get_by_role("button", name="Save").click()
        page.wait_for_load_state("load")
        expect(page.get_by_label("Club's name")).to_have_value("Eastside Card Club")
        expect(page.locator("nav")).to_contain_text("ECC")
        pages.seen(page)

        # 3. The first season, then a rule of the club's own: a $30 late fee instead of the bylaws' $25.
        page.goto(f"{live_server.url}/setup/")
        pages.seen(page)
        page.get_by_role("link", name="The first season").click()
        page.wait_for_url(f"{live_server.url}/events/rules/")
        pages.seen(page)
        page.get_by_label("Start year").fill("2026")
        page.get_by_role("button", name="Create season").click()
        page.wait_for_url(f"{live_server.url}/events/rules/{SEASON}/")
        expect(page.get_by_role("heading", name=f"Season rules · {SEASON}")).to_be_visible()
        pages.seen(page)
        late_fee = page.get_by_label("Late fee per month ($)")
        expect(late_fee).to_have_value(re.compile(r"^25(\.00)?$"))
        late_fee.fill("30.00")
        page.get_by_label("Why (the vote that changed it)").fill("Founding meeting, item 2")
        page.get_by_label(re.compile("^I confirm: these rules change")).check()
        page.get_by_role("button", name="Save the rules").click()
        page.wait_for_url(f"{live_server.url}/events/rules/{SEASON}/")
        expect(page.get_by_text(f"Saved the rules of {SEASON}.")).to_be_visible()
        expect(page.get_by_label("Late fee per month ($)")).to_have_value(re.compile(r"^30(\.00)?$"))
        pages.seen(page)

        # 5. The club's roster (18 members), names tidied.
        _import(page, live_server, pages, kind="Members", path=ROSTER, tidy=True)
        expect(page.get_by_role("heading", name="Preview: 18 row(s) of members")).to_be_visible()
        page.get_by_role("button", name="Confirm: import 18 row(s)").click()
        page.wait_for_load_state("load")
        pages.seen(page)
        page.goto(f"{live_server.url}/members/")
        expect(page.locator("body")).to_contain_text("Linda O'Brien")
        expect(page.locator("body")).to_contain_text("James McDonald")
        pages.seen(page)

        # 4. Officers' terms, now that the roster is in: a Vice President and a Treasurer from today.
        for office, name in [("Vice President", "Linda O'Brien"), ("Treasurer", "James McDonald")]:
            page.goto(f"{live_server.url}/members/officers/terms/")
            page.get_by_label("Office").select_option(label=office)
            page.get_by_label("Person").select_option(label=name)
            page.get_by_role("button", name="Add the term").click()
            page.wait_for_load_state("load")
            expect(page.locator("table").first.locator("tr").filter(has_text=name)).to_contain_text(office)
            pages.seen(page)
        expect(page.get_by_text("No holder today")).to_have_count(0)

        # 5 (continued). The payments, the methods the preview asks about booked as check.
        before = Payment.objects.count()
        _import(page, live_server, pages, kind="Payments", path=PAYMENTS)
        expect(page.get_by_role("heading", name="Preview: 9 row(s) of payments")).to_be_visible()
        questions = page.locator('select[name^="method:"]')
        if questions.count():
            for i in range(questions.count()):
                questions.nth(i).select_option("check")
            page.get_by_role("button", name="Preview again with these choices").click()
            page.get_by_role("heading", name="Preview: 9 row(s) of payments").wait_for()
            pages.seen(page)
        page.get_by_role("button", name="Confirm: import 9 row(s)").click()
        page.wait_for_load_state("load")
        pages.seen(page)
        assert Payment.objects.count() == before + 9

        # The same file again: every row is already recorded, and confirming books nothing.
        _import(page, live_server, pages, kind="Payments", path=PAYMENTS)
        expect(page.get_by_text("Already recorded.")).to_have_count(9)
        expect(page.get_by_text("Nothing to import: every row is recorded already.")).to_be_visible()
        expect(page.get_by_role("button", name=re.compile("^Confirm: import"))).to_have_count(0)
        # Confirm anyway, as the form would with its confirm button.
        with page.expect_navigation() as confirmed:
            page.evaluate(
                """() => {
                const form = document.getElementById('sheet-choices');
                const step = document.createElement('input');
                step.type = 'hidden'; step.name = 'step'; step.value = 'confirm';
                form.appendChild(step); form.submit();
            }"""
            )
        assert confirmed.value is not None and confirmed.value.ok
        pages.seen(page)
        assert Payment.objects.count() == before + 9

        # 6. Opening balances of the three asset accounts, dated the day before the season starts.
        for account, amount in OPENING.items():
            page.goto(f"{live_server.url}/finance/opening-balances/")
            card = page.locator(".card").filter(has=page.get_by_role("heading", name=account, exact=True))
            card.get_by_label("Statement date").fill("2026-07-31")
            card.get_by_label("Balance on that day").fill(amount)
            card.get_by_role("button", name="Check and confirm…").click()
            expect(page.get_by_role("heading", name="Book this opening balance?")).to_be_visible()
            expect(page.locator("dl")).to_contain_text(f"${amount}")
            pages.seen(page)
            page.get_by_role("button", name="Book it").click()
            page.wait_for_url(f"{live_server.url}/finance/opening-balances/")
            card = page.locator(".card").filter(has=page.get_by_role("heading", name=account, exact=True))
            expect(card).to_contain_text(f"${amount}")
            expect(card).to_contain_text("on Jul 31, 2026")
            pages.seen(page)

        # 7. An invitation to Mike Smith, accepted in a browser of his own.
        page.goto(f"{live_server.url}/members/officers/invitations/")
        pages.seen(page)
        sent = len(mailoutbox)
        page.get_by_label("Invite Mike Smith").check()
        page.get_by_role("button", name="Invite the ticked members").click()
        expect(page.get_by_text(re.compile("Invitation queued for Mike Smith"))).to_be_visible()
        pages.seen(page)
        # The delivery is sent at once and its record keeps no link (ncpc.core.mail): read the sent message.
        [message] = mailoutbox[sent:]
        assert message.to == ["mike.smith@example.org"]
        assert "Eastside Card Club" in message.subject
        body = message.body
        link = re.search(r"/members/invitation/[\w-]+/", body)
        assert link is not None, body
        mike = browser.new_context(viewport={"width": 390, "height": 844})
        try:
            phone = mike.new_page()
            phone.set_default_timeout(10_000)
            phone.goto(f"{live_server.url}{link.group(0)}")
            pages.seen(phone)
            phone.get_by_label("Username").fill("mike")
            phone.locator("input[name=password1]").fill("deal-me-in-2026")
            phone.locator("input[name=password2]").fill("deal-me-in-2026")
            phone.get_by_role("button", name="Create my login").click()
            phone.wait_for_url(re.compile(r"^(?!.*/invitation/).*$"))
            pages.seen(phone)
            phone.context.clear_cookies()
            login(phone, live_server, "mike", "deal-me-in-2026")
            expect(phone.locator("body")).to_contain_text("Mike")
            pages.seen(phone)
        finally:
            mike.close()

        # 8. The first night (Aug 22): everyone signed the rules on Aug 1; the night is opened from the roster
        # and played out to a winner.
        page.goto(f"{live_server.url}/members/officers/signatures/")
        page.get_by_label("Tick every unsigned member").check()
        page.get_by_label("Signed on").fill("2026-08-01")
        page.get_by_role("button", name="Record the ticked signatures").click()
        page.wait_for_load_state("load")
        pages.seen(page)
        page.goto(f"{live_server.url}/events/{SEASON}/1/")
        pages.seen(page)
        page.get_by_role("link", name="Enter results").click()
        page.wait_for_url(f"{live_server.url}/events/{SEASON}/1/results/")
        page.get_by_role("button", name="Open the night: list the seats from the roster").click()
        expect(page.get_by_text(re.compile(r"Seats listed: \d+ members? from the roster\."))).to_be_visible()
        pages.seen(page)
        busts = page.locator('form[action$="/results/bust/"] button')
        assert busts.count() >= 2, page.locator("body").inner_text()
        while busts.count() > 1:
            name = busts.first.inner_text().strip()
            busts.first.click()
            expect(page.get_by_text(f"Out: {name}.")).to_be_visible()
        winner = page.get_by_text(re.compile(r"^Winner: "))
        expect(winner).to_be_visible()
        page.get_by_role("button", name=re.compile(r"^Finish: places 1–\d+")).click()
        page.wait_for_url(f"{live_server.url}/events/{SEASON}/1/")
        expect(page.get_by_text(re.compile(r"Results final\. Winner: "))).to_be_visible()
        pages.seen(page)

        # 9. August's report opens with the balances entered.
        page.goto(f"{live_server.url}/finance/reports/2026/8/")
        pages.seen(page)
        for account, amount in OPENING.items():
            row = page.locator("tr").filter(has=page.get_by_text(account, exact=True)).first
            assert row.locator("th").inner_text().strip() == account
            assert row.locator("td").first.inner_text().strip() == f"${amount}"  # the Opening column

        page.goto(f"{live_server.url}/setup/")
        pages.seen(page)
        steps = page.locator("ol.list-group > li")
        for title in [
            "Club identity",
            "The first season",
            "The season's rules",
            "Officers' terms",
            "The roster",
            "Rules signatures",
            "Opening balances",
        ]:
            expect(steps.filter(has=page.get_by_role("link", name=title, exact=True))).to_contain_text("done")
        # One member of 18 was invited: the invitations step stays to do, as the venues one (none added).
        expect(steps.filter(has=page.get_by_role("link", name="Invitations", exact=True))).to_contain_text(
            "to do"
        )
        page.goto(f"{live_server.url}/")
        pages.seen(page)

    assert len(pages.texts) >= 30
    assert pages.naming_the_old_club() == []
