"""The monthly report's page shows the Event payouts table its files have (the bylaws' treasurer's report).

Event 4 (Nov 14, 2026) has 13 members on its roster: twelve play (Ann … Lu) and the Treasurer's seat is absent.
Lu is out first … Bob last, so Ann is 1st, Bob 2nd, Cy 3rd and Di 4th. The bylaws' payout table (§6.2) pays 13
members $175, $105, $85 and $65: $430 in all. October's event 3 is corrected on Nov 20 (SPEC §17.2): Eve is
owed $65 more, paid from the cash box, a "correction" row of November's table; the table's total is then
$430 + $65 = $495, what the payouts account moved in November.

A closed month's page is built from the report its closing kept (SPEC §17.1): renamed members keep the names
the month closed with, on the page as in the CSV and the PDF.
"""

import csv
import datetime as dt
import io
from decimal import Decimal
from html.parser import HTMLParser

import pytest
import time_machine
from django.urls import reverse
from pypdf import PdfReader

from events.services.attendance import attendance_prepare
from events.services.results import bust_record, results_finish
from finance.models import Account, Transaction
from finance.selectors.payouts import payout_correction_prefix
from finance.services.event_payouts import event_payout_post
from finance.services.ledger import EntryLine, next_key, transaction_post
from finance.services.month_closing import month_close
from members.models import Person
from tests.factories import MembershipFactory, PersonFactory, UserFactory
from tests.finance.factories import opening_balance

pytestmark = pytest.mark.django_db
D = Decimal
NAMES = ["Ann", "Bob", "Cy", "Di", "Eve", "Flo", "Gus", "Hal", "Ida", "Jo", "Kim", "Lu"]

# Bylaws §6.2, the row for 13 club members: 1st $175, 2nd $105, 3rd $85, 4th $65.
PLACES = [
    ["4", "Nov 14, 2026", "1", "Ann Test", "$175.00"],
    ["4", "Nov 14, 2026", "2", "Bob Test", "$105.00"],
    ["4", "Nov 14, 2026", "3", "Cy Test", "$85.00"],
    ["4", "Nov 14, 2026", "4", "Di Test", "$65.00"],
]
CORRECTION = ["3", "Nov 20, 2026", "correction", "Eve Test", "$65.00"]


@pytest.fixture(autouse=True)
def everyone_eligible(monkeypatch):
    monkeypatch.setattr("events.hooks.good_standing.answer", lambda *, membership, on: True)
    monkeypatch.setattr("events.hooks.rules_signed.answer", lambda *, membership: True)


@pytest.fixture
def november(season, treasurer, today):
    """Event 4 played and paid out; event 3's payout corrected on Nov 20 (Eve +$65 from the cash box)."""
    opening_balance(code=Account.CASH, amount="1000.00", day="2026-08-01", actor=treasurer)
    for name in NAMES:
        MembershipFactory(
            season=season, person=PersonFactory(key=name.lower(), first_name=name, last_name="Test")
        )
    event = season.events.get(number=4)
    assert event.date == dt.date(2026, 11, 14)
    attendance_prepare(event=event)
    seats = {a.membership.person.key: a for a in event.attendances.select_related("membership__person")}
    with time_machine.travel(dt.datetime(2026, 11, 14, 23, 0, tzinfo=dt.UTC), tick=False):
        treasurer_seat = event.attendances.get(membership__person__user=treasurer)
        treasurer_seat.status = treasurer_seat.Status.ABSENT
        treasurer_seat.save(update_fields=["status"])
        for name in reversed(NAMES[1:]):  # Lu out first … Bob out last: Ann wins
            event.refresh_from_db()
            bust_record(
                event=event,
                attendance_ids=[seats[name.lower()].pk],
                version=event.results_version,
                actor=None,
            )
        event.refresh_from_db()
        results_finish(event=event, version=event.results_version, actor=treasurer)
        event_payout_post(event=event, actor=treasurer)
    october_event = season.events.get(number=3)
    transaction_post(
        date=dt.date(2026, 11, 20),
        kind=Transaction.Kind.PAYOUT,
        memo="Correction of event 3 payouts",
        lines=[
            EntryLine(Account.PAYOUTS, D("65.00"), membership_id=seats["eve"].membership_id, memo="Place 3"),
            EntryLine(Account.CASH, D("-65.00"), memo="Payout correction, event 3"),
        ],
        actor=treasurer,
        key=next_key(prefix=payout_correction_prefix(event=october_event)),
    )
    return event


class _Tables(HTMLParser):
    """Each table of a page by its region's (or its own) aria-label: its rows as lists of cell texts, and the
    classes of each money cell."""

    def __init__(self) -> None:
        super().__init__()
        self.tables: dict[str, list[list[str]]] = {}
        self.regions: dict[str, str] = {}
        self.cells: dict[str, list[str]] = {}
        self._label = ""
        self._row: list[str] | None = None
        self._text: list[str] | None = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "div" and a.get("role") == "region":
            self._label = a.get("aria-label", "")
            self.regions[self._label] = a.get("class", "")
        elif tag == "table":
            self._label = a.get("aria-label", self._label)
            self.tables[self._label] = []
        elif tag == "tr":
            self._row = []
        elif tag in ("td", "th") and self._row is not None:
            self._text = []
            self.cells.setdefault(self._label, []).append(a.get("class") or "")

    def handle_data(self, data):
        if self._text is not None:
            self._text.append(data)

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self._row is not None and self._text is not None:
            self._row.append(" ".join("".join(self._text).split()))
            self._text = None
        elif tag == "tr" and self._row is not None:
            self.tables[self._label].append(self._row)
            self._row = None


def page_tables(client, year: int, month: int) -> _Tables:
    response = client.get(reverse("finance:report", args=(year, month)))
    assert response.status_code == 200
    tables = _Tables()
    tables.feed(response.content.decode())
    return tables


def csv_rows(client, year: int, month: int) -> list[list[str]]:
    url = reverse("finance:report", args=(year, month))
    text = client.get(url, {"format": "csv", "table": "payouts"}).content.decode("utf-8-sig")
    return list(csv.reader(io.StringIO(text)))


def pdf_lines(client, year: int, month: int) -> list[str]:
    url = reverse("finance:report", args=(year, month))
    pdf = PdfReader(io.BytesIO(client.get(url, {"format": "pdf"}).content))
    return [line.strip() for page in pdf.pages for line in page.extract_text().splitlines()]


def test_the_open_months_page_pays_each_place_of_its_event_from_the_bylaws_table(november, client, treasurer):
    client.force_login(treasurer)
    tables = page_tables(client, 2026, 11)
    rows = tables.tables["Event payouts"]
    assert rows[0] == ["Event", "Date", "Place", "Paid to", "Amount"]
    assert rows[1:-1] == [*PLACES, CORRECTION]
    # $175 + $105 + $85 + $65 = $430 for the places, and the $65 correction.
    assert rows[-1] == ["Total (4 places paid, 1 correction line)", "$495.00"]
    # Scrolls sideways on a phone rather than widening the page; money right-aligned as the other tables.
    assert "table-responsive" in tables.regions["Event payouts"]
    assert [c for c in tables.cells["Event payouts"][4::5]] == ["num"] * 6
    assert tables.cells["Event payouts"][-1] == "num"


def test_a_member_reads_the_same_payouts_table(november, client):
    ann = UserFactory(username="ann")
    Person.objects.filter(key="ann").update(user=ann)
    client.force_login(ann)
    rows = page_tables(client, 2026, 11).tables["Event payouts"]
    assert rows[1:] == [*PLACES, CORRECTION, ["Total (4 places paid, 1 correction line)", "$495.00"]]


def test_a_month_without_payouts_says_so(season, client, treasurer, today):
    client.force_login(treasurer)
    response = client.get(reverse("finance:report", args=(2026, 9)))
    assert "No event payouts in September 2026." in response.content.decode()


def test_a_closed_months_page_shows_the_payouts_its_closing_kept_as_its_files_do(november, client, treasurer):
    with time_machine.travel(dt.datetime(2026, 12, 3, 17, 0, tzinfo=dt.UTC), tick=False):
        for month in (8, 9, 10, 11):
            month_close(day=dt.date(2026, month, 1), actor=treasurer)
        # Renamed after the month closed: the kept report still names her as it was.
        Person.objects.filter(key="ann").update(last_name="Renamed")
        client.force_login(treasurer)
        rows = page_tables(client, 2026, 11).tables["Event payouts"][1:]
        csv_lines = csv_rows(client, 2026, 11)
        pdf = pdf_lines(client, 2026, 11)
    assert rows == [*PLACES, CORRECTION, ["Total (4 places paid, 1 correction line)", "$495.00"]]
    # The CSV: the same rows, its dates ISO and its amounts plain.
    assert [r[:5] for r in csv_lines[1:]] == [
        ["4", "2026-11-14", "1", "Ann Test", "175.00"],
        ["4", "2026-11-14", "2", "Bob Test", "105.00"],
        ["4", "2026-11-14", "3", "Cy Test", "85.00"],
        ["4", "2026-11-14", "4", "Di Test", "65.00"],
        ["3", "2026-11-20", "correction", "Eve Test", "65.00"],
    ]
    assert {r[5] for r in csv_lines[1:]} == {"Closed on 2026-12-03"}
    # The PDF: each of the page's rows, the same text, and the same total.
    for row in rows[:-1]:
        assert " ".join(row) in pdf
    assert "Total $495.00" in pdf
    assert not any("Renamed" in line for line in pdf)


def test_the_page_with_payouts_and_a_correction_stays_within_fifteen_queries(
    november, client, treasurer, django_assert_max_num_queries
):
    client.force_login(treasurer)
    url = reverse("finance:report", args=(2026, 11))
    client.get(url)
    # The club's identity, session, user, the login's standing (4); the month's closing; seasons; the accounts;
    # the month's entries with the other entries' sums (the correction rows are among them); rules;
    # memberships; events; payments, waivers and suspensions; the month's final events' places; the bank's
    # statements and what it keeps for the month (2) = 15.
    with django_assert_max_num_queries(15):
        response = client.get(url)
    assert "Eve Test" in response.content.decode()
