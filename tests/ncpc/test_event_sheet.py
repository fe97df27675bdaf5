"""The event sheet (SPEC §11): the night's seating, blind structure and payouts, as a PDF any member can print."""

import io

import pytest
from pypdf import PdfReader

from events.services.night_seating import seats_draw
from tests.events.factories import night_make

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def everyone_eligible(monkeypatch):
    """Everyone has paid and signed: the night seats them all."""
    monkeypatch.setattr("events.hooks.good_standing.answer", lambda *, membership, on: True)
    monkeypatch.setattr("events.hooks.rules_signed.answer", lambda *, membership: True)


def sheet_text(client, event) -> str:
    response = client.get(f"/events/{event.season.name}/{event.number}/sheet.pdf")
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(response.content)).pages)


def test_section_11_the_event_sheet_has_the_seats_the_blinds_and_the_nights_prizes(
    member_client, season, today
):
    # Twelve players and the logged-in member: 13 members on the roster → $175, $105, $85, $65 (§6.2).
    event, _seats = night_make(season=season, players=12)
    seats_draw(event=event, version=0, actor=None)
    text = sheet_text(member_client, event)
    assert f"Event sheet · event {event.number} of {season.name}" in text
    assert "Table 1" in text and "Table 2" in text and "A Player" in text and "L Player" in text
    assert "Small blind" in text and "25" in text and "50" in text  # level 1 of the bylaws' structure
    assert "13 members on the roster" in text
    for prize in ("$175.00", "$105.00", "$85.00", "$65.00", "$430.00"):
        assert prize in text
    page = member_client.get(f"/events/{season.name}/{event.number}/").content.decode()
    assert f'href="/events/{season.name}/{event.number}/sheet.pdf"' in page


def test_the_event_sheet_before_the_draw_says_so_and_an_unknown_event_is_404(member_client, season, today):
    event = season.events.get(number=5)
    assert "The seats are not drawn yet." in sheet_text(member_client, event)
    assert member_client.get(f"/events/{season.name}/99/sheet.pdf").status_code == 404
    assert member_client.get("/events/no-such-season/1/sheet.pdf").status_code == 404


def test_an_anonymous_visitor_gets_no_event_sheet(client, season):
    response = client.get(f"/events/{season.name}/1/sheet.pdf")
    assert response.status_code in (302, 401, 403)


# ---------------------------------------------------------------------------------------------------------
# The page that prints on one sheet (issue 19, item 5)


def sheet_page(client, event) -> str:
    response = client.get(f"/events/{event.season.name}/{event.number}/sheet/")
    assert response.status_code == 200
    return response.content.decode()


def cells(html: str, section: str) -> list[list[str]]:
    """The rows of the tables in one section of the page, as lists of cell texts (tags stripped)."""
    import re

    part = html[html.index(f'id="{section}"') :]
    part = part[: part.index("</section>")]
    rows = []
    for row in re.findall(r"<tr[^>]*>(.*?)</tr>", part, flags=re.S):
        texts = [
            re.sub(r"<[^>]+>", "", c).strip() for c in re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", row, re.S)
        ]
        rows.append([" ".join(t.split()) for t in texts])
    return rows


def test_the_printable_event_sheet_pays_the_places_of_the_bylaws_row_for_sixteen_members(
    member_client, season, today
):
    # Fifteen players and the logged-in member: 16 members on the roster → $145, $95, $70, $50 (§6.2).
    event, _seats = night_make(season=season, players=15)
    seats_draw(event=event, version=0, actor=None)
    html = sheet_page(member_client, event)
    assert "16 members on the roster on the event's date (§6.2)." in html
    assert cells(html, "payouts") == [
        ["Place", "Prize", "Paid to"],
        ["1", "$145.00", ""],
        ["2", "$95.00", ""],
        ["3", "$70.00", ""],
        ["4", "$50.00", ""],
        ["Total", "$360.00", ""],
    ]


def test_the_printable_event_sheet_pays_three_places_for_ten_members(member_client, season, today):
    event, _seats = night_make(season=season, players=9)  # and the member: 10 → $140, $85, $55 (§6.2)
    html = sheet_page(member_client, event)
    assert cells(html, "payouts")[1:] == [
        ["1", "$140.00", ""],
        ["2", "$85.00", ""],
        ["3", "$55.00", ""],
        ["Total", "$280.00", ""],
    ]
    assert "The seats are not drawn yet." in html


def test_the_printable_event_sheet_lists_the_bylaws_blind_structure_with_its_breaks_and_chip_notes(
    member_client, season, today
):
    event, _seats = night_make(season=season, players=9)
    rows = cells(sheet_page(member_client, event), "blinds")
    assert rows[0] == ["Level", "Small blind", "Big blind", "Ante", "Minutes", "Note"]
    # §6.1: 20 levels and 4 breaks; the second and third breaks take chips off the table.
    assert len(rows) == 1 + 24
    assert rows[1] == ["1", "25", "50", "", "30", ""]
    assert rows[4] == ["Break", "", "", "", "10", ""]
    assert rows[6] == ["5", "200", "400", "50", "20", ""]
    assert rows[8] == ["Break", "", "", "", "10", "Remove $25 chips"]
    assert rows[15] == ["Break", "", "", "", "10", "Remove $100 chips"]
    assert rows[-1] == ["20", "10,000", "20,000", "3,000", "no limit", ""]


def test_the_printable_event_sheet_seats_everyone_and_marks_the_late_and_the_absent(
    member_client, season, today
):
    import datetime as dt

    from django.utils import timezone

    from events.models import Attendance
    from events.services.attendance import attendance_set

    event, seats = night_make(season=season, players=12)
    called = timezone.make_aware(dt.datetime(2026, 11, 14, 18, 40))
    attendance_set(
        event=event,
        attendance_id=seats["c"].pk,
        status=Attendance.Status.CALLED_IN,
        called_at=called,
        version=event.results_version,
        actor=None,
    )
    event.refresh_from_db()
    attendance_set(
        event=event,
        attendance_id=seats["d"].pk,
        status=Attendance.Status.ABSENT,
        version=event.results_version,
        actor=None,
    )
    seats_draw(event=event, version=0, actor=None)
    html = sheet_page(member_client, event)
    seating = [row for row in cells(html, "seating") if len(row) == 2]
    names = {row[1] for row in seating}
    assert len(seating) == 12 + 1  # the logged-in member has a seat too
    marks = {name.split(" ")[0] + " Player": name.partition("— ")[2] for name in names if "— " in name}
    assert marks == {"C Player": "called in late 18:40", "D Player": "absent"}  # the button may sit anywhere
    assert "Table 1" in html and "Table 2" in html
    assert f'href="/events/{season.name}/{event.number}/sheet.pdf"' in html  # the PDF beside it
    pdf = sheet_text(member_client, event)
    assert "called in late 18:40" in pdf and "absent" in pdf


def test_the_event_page_and_the_night_page_link_the_printable_sheet(member_client, season, today):
    event = season.events.get(number=5)
    url = f'href="/events/{season.name}/5/sheet/"'
    assert url in member_client.get(f"/events/{season.name}/5/").content.decode()
    assert url in member_client.get(f"/events/{season.name}/5/night/").content.decode()
    assert member_client.get(f"/events/{season.name}/99/sheet/").status_code == 404
    assert event.status == "scheduled"


def test_the_event_sheet_of_final_results_shows_places_points_and_prizes(member_client, season, today):
    # Nine players and the logged-in member: 10 members → $140, $85, $55 (§6.2); points 10, 9, 8, … (§10.1).
    from events.services import results as results_services

    event, seats = night_make(season=season, players=9)
    order = "abcdefghi"  # a out first … i wins; the member's own seat goes out before them all
    member_seat = event.attendances.exclude(
        pk__in=[s.pk for s in seats.values() if s.membership.person.key in order]
    )
    for pk in [*member_seat.values_list("pk", flat=True), *(seats[k].pk for k in order[:-1])]:
        event.refresh_from_db()
        results_services.bust_record(
            event=event, attendance_ids=[pk], version=event.results_version, actor=None
        )
    html = sheet_page(member_client, event)
    assert 'id="results"' not in html  # not final yet: no places on the sheet
    event.refresh_from_db()
    results_services.results_finish(event=event, version=event.results_version, actor=None)
    html = sheet_page(member_client, event)
    assert cells(html, "results")[:5] == [
        ["Place", "Player", "Points", "Prize"],
        ["1", "I Player", "10", "$140.00"],
        ["2", "H Player", "9", "$85.00"],
        ["3", "G Player", "8", "$55.00"],
        ["4", "F Player", "7", ""],
    ]
    assert cells(html, "results")[-1][0] == "10" and cells(html, "results")[-1][2] == "1"
    text = sheet_text(member_client, event)
    assert "Results" in text and "I Player" in text and "$140.00" in text
