from decimal import Decimal

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from finance.models import Payment
from members.models import Membership, Person
from ncpc.services.spreadsheet import members_sheet_read, payments_sheet_read

pytestmark = pytest.mark.django_db

MEMBERS = """key,first_name,last_name,email,date_of_birth
zoe,Zoe,Park,zoe@example.org,1985-03-01
yan,Yan,Ruiz,,1979-11-30
"""


def upload(client, kind, text, season="2026-27"):
    return client.post(
        "/imports/",
        {"kind": kind, "season": season, "file": SimpleUploadedFile("sheet.csv", text.encode(), "text/csv")},
    )


def test_members_preview_then_confirm_creates_people_with_seats(officer_client, season):
    preview = upload(officer_client, "members", MEMBERS)
    assert preview.status_code == 200
    html = preview.content.decode()
    assert "New person and seat zoe" in html
    assert not Person.objects.filter(key="zoe").exists()  # nothing before confirming

    officer_client.post("/imports/", {"step": "confirm"})
    zoe = Membership.objects.get(season=season, person__key="zoe")
    assert zoe.first_event == 1
    assert str(zoe.person.date_of_birth) == "1985-03-01"


def test_errors_are_shown_per_line_and_nothing_can_be_confirmed(officer_client, season):
    text = MEMBERS + "Bad Key,Al,,,2010-01-01\nzoe,Zoe,Again,,1985-03-01\n"
    html = upload(officer_client, "members", text).content.decode()
    assert (
        "key &#x27;bad key&#x27; must be lower-case letters" in html or "must be lower-case letters" in html
    )
    assert "under 21 when the season starts" in html
    assert "key &#x27;zoe&#x27; is also on line 2" in html
    assert "Confirm: import" not in html
    officer_client.post("/imports/", {"step": "confirm"})
    assert not Person.objects.filter(key="zoe").exists()


def test_a_file_without_the_required_columns_is_refused(season):
    sheet = members_sheet_read(text="name,email\nAl,a@b.c\n", season=season)
    assert sheet.errors == [
        "The header row must name the columns key, first_name, last_name, date_of_birth; "
        "missing: key, first_name, last_name, date_of_birth."
    ]


def test_payments_import_records_each_payment_in_the_ledger(client, treasurer, season, member):
    client.force_login(treasurer)
    text = "member,date,amount,method,reference\nmember1,2026-08-20,110.00,check,#1041\nmember1,2026-09-20,100.00,cash,\n"
    assert "Payment of 110.00 from member1" in upload(client, "payments", text).content.decode()
    client.post("/imports/", {"step": "confirm"})
    amounts = sorted(p.amount for p in Payment.objects.filter(membership__person__key="member1"))
    assert amounts == [Decimal("100.00"), Decimal("110.00")]


def test_payment_rows_with_bad_values_name_the_problem(season, member):
    text = "member,date,amount,method\nnobody,2026-08-20,110.00,check\nmember1,2026-08-20,-5,card\nmember1,2025-01-01,1.005,cash\n"
    rows = payments_sheet_read(text=text, season=season).rows
    assert rows[0].errors == ["member 'nobody' holds no seat in 2026-27."]
    assert rows[1].errors == ["amount must be more than zero.", "method 'card' must be cash or check."]
    assert rows[2].errors == [
        "date 2025-01-01 is outside 2026-27.",
        "'1.005' is not an amount with at most two decimals.",
    ]


def test_the_vice_president_cannot_import_payments_and_a_member_cannot_import_at_all(
    client, vice_president, member
):
    client.force_login(vice_president)
    response = upload(client, "payments", "member,date,amount,method\n")
    assert response.status_code == 200
    assert "Select a valid choice" in response.content.decode()
    client.force_login(member)
    assert client.get("/imports/").status_code == 403
