"""The Vice President's points report (§3.5.7) as a PDF for the meeting and as one CSV table."""

import io

import pytest
from django.urls import reverse
from pypdf import PdfReader

from tests.standings.factories import seats

pytestmark = pytest.mark.django_db


def test_section_3_5_7_the_points_report_pdf_lists_the_standings_on_a_landscape_letter_page(
    member_client, season, results
):
    people = seats(season, 10)
    results.set(1, people)  # Aug 22: m01 first (10 points), m10 last (1 point)
    url = reverse("standings:points_report", kwargs={"season": season.name, "year": 2026, "month": 8})
    response = member_client.get(url + "?format=pdf")
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    reader = PdfReader(io.BytesIO(response.content))
    width, height = (round(float(v)) for v in reader.pages[0].mediabox.upper_right)
    assert (width, height) == (792, 612)  # Letter, landscape
    text = reader.pages[0].extract_text()
    assert "Points report, August 2026" in text and "Northern Cincinnati Poker Club" in text
    assert "M01 Test" in text and "M10 Test" in text
    assert "Page 1 of 1" in text
    assert 'href="?format=pdf"' in member_client.get(url).content.decode()


def test_the_points_csv_is_one_table_with_a_bom_and_formula_names_neutralized(member_client, season, results):
    people = seats(season, 3)
    person = people[0].person
    person.first_name, person.last_name = "=cmd|'/c calc'!A0", "X"
    person.save()
    results.set(1, people)
    url = reverse("standings:points_report", kwargs={"season": season.name, "year": 2026, "month": 8})
    body = member_client.get(url + "?format=csv").content.decode("utf-8")
    assert body.startswith("\ufeffrank,member,name,event 1,points,events played,wsop")
    assert "\n1,m01,'=cmd|'/c calc'!A0 X,10,10,1," in body.replace("\r\n", "\n")
