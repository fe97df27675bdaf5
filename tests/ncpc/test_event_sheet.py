"""The event sheet (SPEC §11): the night's seating, blind structure and payouts, as a PDF any member can print."""

import io

import pytest
from pypdf import PdfReader

from events.services.night import seats_draw
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
