"""SPEC §16.10: the club's own spreadsheets — its header names, US dates, sponsors, handles made from names,
its words for payment methods, tidy names, likely duplicates, and payments never booked twice."""

import datetime as dt
from decimal import Decimal
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from finance.models import Payment
from members.models import Membership, Person
from ncpc.club.services.spreadsheet import (
    members_sheet_read,
    members_sheet_write,
    payments_sheet_read,
    payments_sheet_write,
    sheet_options,
)
from ncpc.core.models import AuditEntry
from tests.factories import MembershipFactory, PersonFactory

pytestmark = pytest.mark.django_db

DATA = Path(__file__).parent / "data"
ROSTER = (DATA / "club_roster.csv").read_text()
PAYMENTS = (DATA / "club_payments.csv").read_text()


def upload(client, kind, text, season="2026-27", **extra):
    return client.post(
        "/imports/",
        {
            "kind": kind,
            "season": season,
            "file": SimpleUploadedFile("sheet.csv", text.encode(), "text/csv"),
            **extra,
        },
    )


def confirm(client, preview, **choices):
    """Press the preview's confirm button with the choices it was previewed with."""
    sheet = preview.context["sheet"]
    return client.post(
        "/imports/",
        {
            "step": "confirm",
            "token": preview.context["upload_token"] or "",
            "previewed": sheet.options.fingerprint,
            **choices,
        },
    )


# --- Members ------------------------------------------------------------------------------------------------


def test_the_clubs_18_member_roster_with_its_own_headers_and_us_dates_imports(client, vice_president, season):
    client.force_login(vice_president)
    preview = upload(client, "members", ROSTER, tidy="on")
    sheet = preview.context["sheet"]
    assert sheet.ok, [(r.line, r.errors) for r in sheet.rows] + sheet.errors
    assert sheet.ignored == ["Notes"]
    html = preview.content.decode()
    assert (
        "Dates in column date_of_birth were read as month/day/year (18 row(s); 3/7/1981 is March 7, 1981)."
        in html
    )
    assert "Ignored column(s): Notes." in html
    assert "18 handle(s) made from the names" in html
    assert (
        "New person and seat lindao (handle made from the name): Linda O&#x27;Brien, born Nov 23, 1975"
        in html
    )

    confirm(client, preview, tidy="1")
    seats = Membership.objects.filter(season=season).exclude(person__user=vice_president)
    assert seats.count() == 18
    linda = Person.objects.get(key="lindao")
    assert (linda.first_name, linda.last_name, linda.date_of_birth) == (
        "Linda",
        "O'Brien",
        dt.date(1975, 11, 23),
    )
    assert linda.email == "linda.obrien@example.org"
    assert Person.objects.get(key="jamesm").full_name == "James McDonald"
    assert Person.objects.get(key="mikes").date_of_birth == dt.date(1981, 3, 7)
    sponsors = {
        m.person.key: m.sponsor.key if m.sponsor else "" for m in seats.select_related("person", "sponsor")
    }
    assert sponsors["lindao"] == "mikes"
    assert sponsors["sarahj"] == "lindao"  # named "Linda O'Brien", typed "linda o'brien" in the file
    assert sponsors["lisam"] == "thomasm"
    assert sponsors["mikes"] == ""


def test_headers_are_matched_ignoring_case_spaces_and_punctuation_with_the_common_names(season):
    text = "FIRST_NAME,Last,Date of Birth,E-mail,Phone Number,Handle,Sponsored by,Favourite game\nZoe,Park,1985-03-01,zoe@example.org,513,zoe,,Omaha\n"
    sheet = members_sheet_read(text=text, season=season)
    assert sheet.ok
    assert sheet.ignored == ["Favourite game"]
    assert sheet.rows[0].values == {
        "first_name": "Zoe",
        "last_name": "Park",
        "date_of_birth": "1985-03-01",
        "email": "zoe@example.org",
        "phone": "513",
        "key": "zoe",
        "sponsor": "",
    }


def test_one_name_column_is_split_into_first_and_last_name(season):
    text = 'Name,DOB\nMike Smith,3/7/1981\n"Park, Zoe Ann",4/1/1985\n'
    rows = members_sheet_read(text=text, season=season).rows
    assert [(r.values["first_name"], r.values["last_name"], r.values["key"]) for r in rows] == [
        ("Mike", "Smith", "mikes"),
        ("Zoe Ann", "Park", "zoeannp"),
    ]


def test_dates_mixing_day_first_and_month_first_are_refused_clearly(season):
    text = "first name,last name,dob\nAl,Ray,8/22/1980\nBo,Ray,22/8/1980\n"
    sheet = members_sheet_read(text=text, season=season)
    assert sheet.errors == [
        "Some dates put the day first (line 3: 22/8/1980) and others month first (line 2: 8/22/1980). The app "
        "reads dates as month/day/year (8/22/2026) or year-month-day (2026-08-22): save the dates in one of "
        "those and upload again."
    ]
    assert not sheet.ok


def test_day_first_dates_alone_are_refused_too(season):
    sheet = members_sheet_read(text="first name,last name,dob\nBo,Ray,22/8/1980\n", season=season)
    assert sheet.errors[0].startswith("Some dates put the day first (line 2: 22/8/1980). The app reads")


@pytest.mark.parametrize(
    ("typed", "read"),
    [
        ("3/7/1981", "1981-03-07"),
        ("03/07/1981", "1981-03-07"),
        ("3-7-1981", "1981-03-07"),
        ("3/7/81", "1981-03-07"),
        ("3/7/05", "2005-03-07"),
        ("3/7/1981 0:00", "1981-03-07"),
        ("1981-03-07", "1981-03-07"),
    ],
)
def test_us_iso_and_two_digit_year_dates_are_read(season, today, typed, read):
    sheet = members_sheet_read(text=f"first name,last name,dob\nAl,Ray,{typed}\n", season=season)
    assert sheet.rows[0].values["date_of_birth"] == read


def test_a_date_that_is_no_day_names_the_row(season):
    rows = members_sheet_read(
        text="first name,last name,dob\nAl,Ray,2/30/1980\nBo,Ray,soon\n", season=season
    ).rows
    assert rows[0].errors == ["date_of_birth '2/30/1980' is not a date (no such day)."]
    assert rows[1].errors == ["date_of_birth 'soon' is not a date like 8/22/2026 or 2026-08-22."]


def test_an_unknown_sponsor_is_an_error_for_that_row(season):
    text = "first name,last name,dob,sponsor\nAl,Ray,1/2/1980,Nobody Known\nBo,Ray,1/2/1980,Al Ray\n"
    rows = members_sheet_read(text=text, season=season).rows
    assert rows[0].errors == [
        "sponsor 'Nobody Known' is no one on record or in this file (give a name or a handle)."
    ]
    assert rows[1].errors == []
    assert rows[1].values["sponsor"] == "alr"


def test_a_sponsor_on_record_is_found_by_handle_or_by_name(season, vice_president):
    PersonFactory(key="ann", first_name="Ann", last_name="Lee")
    text = "first name,last name,dob,sponsor\nAl,Ray,1/2/1980,ann\nBo,Ray,1/2/1980,ANN LEE\n"
    sheet = members_sheet_read(text=text, season=season)
    assert [r.values["sponsor"] for r in sheet.rows] == ["ann", "ann"]
    members_sheet_write(text=text, season=season, actor=vice_president)
    assert Membership.objects.get(person__key="alr").sponsor.key == "ann"


def test_a_generated_handle_never_takes_one_on_record_or_in_the_file(season):
    PersonFactory(key="mikes", first_name="Mikes", last_name="Other")
    text = "first name,last name,dob,key\nMike,Smith,1/2/1980,\nMike,Sanders,1/2/1981,\nZed,Ray,1/2/1980,mikesa\n"
    keys = [r.values["key"] for r in members_sheet_read(text=text, season=season).rows]
    assert keys == ["mikesm", "mikesan", "mikesa"]


def test_a_returning_member_is_matched_by_name_and_date_of_birth_not_given_a_second_record(season):
    PersonFactory(key="mike", first_name="Mike", last_name="Smith", date_of_birth=dt.date(1981, 3, 7))
    text = "first name,last name,dob\nmike,smith,3/7/1981\nMike,Smith,3/8/1981\n"
    rows = members_sheet_read(text=text, season=season).rows
    assert rows[0].values["key"] == "mike"
    assert rows[0].action.startswith("Seat for existing person mike")
    assert rows[1].values["key"] == "mikes"  # another date of birth: someone else (flagged)
    assert rows[1].warnings[0] == "Same name as Mike Smith (mike), who is on record."


def test_tidy_names_capitalises_only_when_asked(season):
    text = (
        "first name,last name,dob\nlinda,o'brien,1/2/1980\nMIKE,SMITH,1/2/1981\nDeShawn,van Dyke,1/2/1982\n"
    )
    plain = members_sheet_read(text=text, season=season)
    assert [(r.values["first_name"], r.values["last_name"]) for r in plain.rows][:2] == [
        ("linda", "o'brien"),
        ("MIKE", "SMITH"),
    ]
    assert plain.notices[1] == (
        "2 name(s) are typed all in lower or upper case (line 2: linda o'brien; line 3: MIKE SMITH): "
        "tick 'Tidy names' to capitalise them."
    )
    tidy = members_sheet_read(text=text, season=season, options=sheet_options(tidy=True))
    assert [(r.values["first_name"], r.values["last_name"]) for r in tidy.rows] == [
        ("Linda", "O'Brien"),
        ("Mike", "Smith"),
        ("DeShawn", "van Dyke"),
    ]


def test_likely_duplicates_are_flagged_at_preview_on_record_and_in_the_file(season):
    MembershipFactory(
        season=season,
        person__key="msmith",
        person__first_name="Mike",
        person__last_name="Smith",
        person__email="ms@example.org",
    )
    text = (
        "first name,last name,dob,email\n"
        "MIKE,SMITH,1/2/1980,\n"
        "Ann,Lee,1/2/1980,MS@example.org\n"
        "Ann ,Lee,1/2/1981,ann@example.org\n"
    )
    rows = members_sheet_read(text=text, season=season).rows
    assert rows[0].warnings == ["Same name as Mike Smith (msmith), who holds a seat in 2026-27."]
    # The same e-mail is the same person: refused unless marked as a different person (issue 47).
    assert rows[1].refused == [
        "Same e-mail as Mike Smith (msmith), on record: the same person is not imported twice. If this is a "
        "different person, tick 'A different person' on this row (or write yes in a different_person column)."
    ]
    assert rows[2].warnings == ["Same name as line 3."]
    assert all(not r.errors for r in rows)  # the same name is a flag, not a refusal


def test_the_preview_shows_duplicate_flags(client, vice_president, season):
    MembershipFactory(
        season=season, person__key="msmith", person__first_name="Mike", person__last_name="Smith"
    )
    client.force_login(vice_president)
    html = upload(client, "members", "first name,last name,dob\nMIKE,SMITH,1/2/1980\n").content.decode()
    assert "Likely duplicate: Same name as Mike Smith (msmith), who holds a seat in 2026-27." in html


# --- Payments -----------------------------------------------------------------------------------------------


@pytest.fixture
def roster(season, treasurer):
    members_sheet_write(text=ROSTER, season=season, actor=treasurer, options=sheet_options(tidy=True))


def test_the_clubs_payments_with_us_dates_and_venmo_import_and_the_second_import_books_nothing(
    client, treasurer, season, roster
):
    client.force_login(treasurer)
    preview = upload(client, "payments", PAYMENTS)
    sheet = preview.context["sheet"]
    assert sheet.ok and sheet.to_book == 9, [(r.line, r.errors) for r in sheet.rows]
    html = preview.content.decode()
    assert (
        "Dates in column date were read as month/day/year (9 row(s); 8/22/2026 is August 22, 2026)." in html
    )
    assert "Payment of 110.00 from mikes on 2026-08-22 (check Venmo)" in html
    confirm(client, preview)
    payments = Payment.objects.filter(membership__season=season)
    assert payments.count() == 9
    assert sum(p.amount for p in payments) == Decimal("940.00")
    venmo = payments.get(membership__person__key="mikes", date=dt.date(2026, 8, 22))
    assert (venmo.method, venmo.reference, venmo.transaction.entries.get(amount__gt=0).account.code) == (
        "check",
        "Venmo",
        "checking",
    )
    assert payments.get(membership__person__key="jamesm").method == "cash"
    assert payments.get(membership__person__key="mariag").reference == "MO-5521"

    again = upload(client, "payments", PAYMENTS)
    sheet = again.context["sheet"]
    assert [r.recorded for r in sheet.rows] == [True] * 9
    assert sheet.to_book == 0
    html = again.content.decode()
    assert "9 row(s) match a payment recorded already" in html
    assert "Nothing to import: every row is recorded already." in html
    assert "Confirm: import" not in html
    confirm(client, again)
    assert Payment.objects.filter(membership__season=season).count() == 9


def test_a_recorded_payment_is_booked_again_only_when_ticked(client, treasurer, season, roster):
    client.force_login(treasurer)
    confirm(client, upload(client, "payments", PAYMENTS))
    again = upload(client, "payments", PAYMENTS)
    ticked = client.post(
        "/imports/", {"step": "preview", "token": again.context["upload_token"], "record": ["2"]}
    )
    sheet = ticked.context["sheet"]
    assert sheet.to_book == 1
    assert sheet.rows[0].action == "Record again: payment of 110.00 from mikes on 2026-08-22 (check Venmo)"
    assert "Confirm: import 1 row(s)" in ticked.content.decode()
    confirm(client, ticked, record="2")
    assert Payment.objects.filter(membership__person__key="mikes", date=dt.date(2026, 8, 22)).count() == 2


def test_two_identical_rows_match_two_recorded_payments_one_by_one(season, treasurer, roster):
    text = "member,date,amount,method\nmikes,8/22/2026,50,cash\nmikes,8/22/2026,50,cash\n"
    payments_sheet_write(text=text, season=season, actor=treasurer)
    longer = text + "mikes,8/22/2026,50,cash\n"
    sheet = payments_sheet_read(text=longer, season=season)
    assert [r.recorded for r in sheet.rows] == [True, True, False]
    assert sheet.rows[2].warnings == ["Same member, date, amount, method and reference as line 2."]
    assert payments_sheet_write(text=longer, season=season, actor=treasurer) == 1


def test_a_payment_recorded_by_hand_matches_a_row_by_the_files_own_reference(season, treasurer, roster):
    from finance.services.payments import payment_record

    seat = Membership.objects.get(season=season, person__key="mikes")
    payment_record(
        membership=seat, amount=Decimal("110.00"), method="check", date=dt.date(2026, 8, 22), actor=treasurer
    )
    sheet = payments_sheet_read(
        text="member,date,amount,method\nMike Smith,8/22/2026,110,Venmo\n", season=season
    )
    assert sheet.rows[0].recorded and sheet.to_book == 0


def test_an_unknown_method_is_asked_then_booked_as_the_officer_chose(client, treasurer, season, roster):
    client.force_login(treasurer)
    text = "member,date,amount,method\nmikes,9/1/2026,20.00,IOU jar\nlindao,9/1/2026,30.00,iou  JAR\n"
    preview = upload(client, "payments", text)
    sheet = preview.context["sheet"]
    assert not sheet.ok and sheet.readable
    assert sheet.asks == {"IOU jar": [2], "iou JAR": [3]}
    assert sheet.choices == [("IOU jar", "ioujar", "")]
    html = preview.content.decode()
    assert 'name="method:ioujar"' in html
    assert "Confirm: import" not in html
    # Confirming with a choice the preview did not show previews again, books nothing.
    early = confirm(client, preview, **{"method:ioujar": "cash"})
    assert early.status_code == 200 and not Payment.objects.filter(date=dt.date(2026, 9, 1)).exists()
    answered = client.post(
        "/imports/", {"step": "preview", "token": preview.context["upload_token"], "method:ioujar": "cash"}
    )
    assert answered.context["sheet"].ok
    assert "Confirm: import 2 row(s)" in answered.content.decode()
    confirm(client, answered, **{"method:ioujar": "cash"})
    booked = Payment.objects.filter(date=dt.date(2026, 9, 1)).order_by("amount")
    assert [(p.method, p.reference) for p in booked] == [("cash", "IOU jar"), ("cash", "iou JAR")]


def test_payment_headers_and_member_names_are_matched_as_the_club_writes_them(season, roster):
    text = "Name,Date Paid,Amount Paid,Payment Method,Ref\nlinda o'brien,2026-08-22,$110.00,CHEQUE,#1041\n"
    row = payments_sheet_read(text=text, season=season).rows[0]
    assert row.errors == []
    assert row.action == "Payment of 110.00 from lindao on 2026-08-22 (check #1041)"


def test_payments_in_a_file_name_the_import_in_the_audit(season, treasurer, roster):
    payments_sheet_write(text=PAYMENTS, season=season, actor=treasurer)
    assert AuditEntry.objects.get(action="finance.payments_import").summary == (
        "Imported 9 payments totalling 940.00 from a payments spreadsheet"
    )


# --- Excel workbooks ----------------------------------------------------------------------------------------


def _workbook(rows) -> bytes:
    import io

    import openpyxl

    book = openpyxl.Workbook()
    for row in rows:
        book.active.append(row)
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def test_an_excel_workbook_is_read_from_its_first_sheet_with_its_date_cells(
    client, treasurer, season, roster
):
    client.force_login(treasurer)
    raw = _workbook(
        [
            ["Member", "Date", "Amount", "Method"],
            ["Mike Smith", dt.datetime(2026, 8, 22), 110.0, "Venmo"],
            ["lindao", dt.date(2026, 9, 26), 99.5, "cash"],
        ]
    )
    preview = client.post(
        "/imports/",
        {"kind": "payments", "season": "2026-27", "file": SimpleUploadedFile("dues.xlsx", raw)},
    )
    sheet = preview.context["sheet"]
    assert sheet.ok, [r.errors for r in sheet.rows]
    assert [r.action for r in sheet.rows] == [
        "Payment of 110.00 from mikes on 2026-08-22 (check Venmo)",
        "Payment of 99.50 from lindao on 2026-09-26 (cash)",
    ]
    confirm(client, preview)
    assert sorted(p.amount for p in Payment.objects.filter(membership__season=season)) == [
        Decimal("99.50"),
        Decimal("110.00"),
    ]


def test_a_file_that_is_not_a_workbook_is_refused_with_a_message(client, treasurer, season):
    client.force_login(treasurer)
    response = client.post(
        "/imports/",
        {
            "kind": "payments",
            "season": "2026-27",
            "file": SimpleUploadedFile("dues.xlsx", b"PK\x03\x04 not a zip"),
        },
        follow=True,
    )
    assert "The file is not an Excel workbook the app can read (.xlsx)" in response.content.decode()
