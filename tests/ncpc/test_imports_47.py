"""Issue 47: the imports a new club uses first. A roster without dates of birth (the club declares its members
21 or over, bylaws §2.1), the same e-mail twice refused unless marked as a different person, a payments row
skipped, and a check number written as the method kept on the payment."""

import datetime as dt
from decimal import Decimal

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
from ncpc.core.errors import NcpcError
from ncpc.core.models import AuditEntry
from tests.factories import MembershipFactory, PersonFactory

pytestmark = pytest.mark.django_db

# A club's roster as it keeps it: no date of birth anywhere.
ROSTER = "First Name,Last Name,Email\nAnn,Lee,ann@x.com\nBob,Ray,bob@x.com\nCarl,Diaz,\n"
NOT_DECLARED = (
    "No date of birth and no declaration that the member is 21 or over (bylaws §2.1): give the date of birth, "
    "or write yes in an over_21 column, or tick 'Every member in this file is 21 or over'."
)


def upload(client, kind, text, **extra):
    return client.post(
        "/imports/",
        {
            "kind": kind,
            "season": "2026-27",
            "file": SimpleUploadedFile("sheet.csv", text.encode(), "text/csv"),
            **extra,
        },
    )


def confirm(client, preview, **choices):
    """Press the preview's confirm button with the choices it was previewed with."""
    return client.post(
        "/imports/",
        {
            "step": "confirm",
            "token": preview.context["upload_token"] or "",
            "previewed": preview.context["sheet"].options.fingerprint,
            **choices,
        },
    )


def seated(season) -> list[str]:
    return sorted(
        Membership.objects.filter(season=season)
        .exclude(person__user__isnull=False)
        .values_list("person__key", flat=True)
    )


# --- Members: the age rule --------------------------------------------------------------------------------


def test_a_roster_without_dates_of_birth_imports_with_the_forms_tick(client, vice_president, season):
    client.force_login(vice_president)
    preview = upload(client, "members", ROSTER, adult="on")
    sheet = preview.context["sheet"]
    assert sheet.ok and sheet.to_book == 3, [(r.line, r.errors, r.refused) for r in sheet.rows]
    html = preview.content.decode()
    assert (
        "New person and seat annl (handle made from the name): Ann Lee, 21 or over (declared by the club)"
        in html
    )
    assert (
        "3 member(s) without a date of birth are declared 21 or over by the club (bylaws §2.1) for the whole "
        "file; a date of birth given is still checked."
    ) in html

    done = confirm(client, preview, adult="1")
    assert done.status_code == 302
    assert seated(season) == ["annl", "bobr", "carld"]
    assert Person.objects.get(key="annl").date_of_birth is None
    # The declaration is kept on each seat's audit row.
    ann_seat = Membership.objects.get(season=season, person__key="annl")
    entry = AuditEntry.objects.get(action="member.import", target_id=str(ann_seat.pk))
    assert entry.data == {"source": "a members spreadsheet", "age": "declared 21 or over by the club"}
    assert entry.summary == (
        "Imported Ann Lee into 2026-27 from event 1; the club declares Ann 21 or over (bylaws §2.1), "
        "no date of birth given"
    )


def test_a_roster_without_dates_of_birth_and_without_the_tick_is_refused_saying_both_ways(season, treasurer):
    sheet = members_sheet_read(text=ROSTER, season=season)
    assert [r.refused for r in sheet.rows] == [[NOT_DECLARED]] * 3
    assert not sheet.ok
    assert sheet.to_book == 0
    with pytest.raises(NcpcError, match=r"^Nothing was imported: the file has 3 problem\(s\)\.$"):
        members_sheet_write(text=ROSTER, season=season, actor=treasurer)
    assert seated(season) == []


def test_the_tick_can_be_given_at_the_preview_of_a_refused_roster(client, vice_president, season):
    client.force_login(vice_president)
    preview = upload(client, "members", ROSTER)
    html = preview.content.decode()
    assert "Confirm: import" not in html
    assert "No date of birth and no declaration that the member is 21 or over" in html
    token = preview.context["upload_token"]
    assert token  # the file is kept for the answer
    ticked = client.post("/imports/", {"step": "preview", "token": token, "adult": "1"})
    assert ticked.context["sheet"].ok
    assert "Confirm: import 3 row(s)" in ticked.content.decode()
    confirm(client, ticked, adult="1")
    assert seated(season) == ["annl", "bobr", "carld"]


def test_an_over_21_column_declares_each_row_and_a_no_or_another_word_is_refused(season, treasurer):
    text = (
        "first name,last name,Over 21,dob\n"
        "Ann,Lee,yes,\n"  # declared
        "Bob,Ray,no,\n"  # the file says he is not of age
        "Carl,Diaz,maybe,\n"  # not a yes or no
        "Dan,Fox,,\n"  # neither a date nor a declaration
        "Eve,Gray,yes,1/2/2006\n"  # declared, but her date of birth is still checked: 20 on Aug 1, 2026
        "Fay,Hart,,8/1/2005\n"  # 21 on the season's first day
    )
    rows = members_sheet_read(text=text, season=season).rows
    assert [r.errors + r.refused for r in rows] == [
        [],
        ["over_21 is no: a member must be 21 or over (bylaws §2.1)."],
        ["over_21 'maybe' must be yes or no.", NOT_DECLARED],
        [NOT_DECLARED],
        ["born 2006-01-02: under 21 when the season starts."],
        [],
    ]
    fine = "first name,last name,Over 21,dob\nAnn,Lee,yes,\nFay,Hart,,8/1/2005\n"
    assert members_sheet_write(text=fine, season=season, actor=treasurer) == 2
    assert Person.objects.get(key="annl").date_of_birth is None
    assert Person.objects.get(key="fayh").date_of_birth == dt.date(2005, 8, 1)
    ages = dict(
        AuditEntry.objects.filter(action="member.import").values_list("summary", "data__age").order_by("pk")
    )
    assert ages == {
        "Imported Fay Hart into 2026-27 from event 1": "date of birth",
        "Imported Ann Lee into 2026-27 from event 1; the club declares Ann 21 or over (bylaws §2.1), no date "
        "of birth given": "declared 21 or over by the club",
    }


# --- Members: the same e-mail twice -------------------------------------------------------------------------

SAME_EMAIL = "First Name,Last Name,Email\nAnn,Lee,Ann@X.com\nAnnie,Lee,ann@x.com\n"


def test_the_same_email_in_other_capitals_later_in_the_file_is_refused(season, treasurer):
    rows = members_sheet_read(text=SAME_EMAIL, season=season, options=sheet_options(adult=True)).rows
    assert rows[0].refused == []
    assert rows[1].refused == [
        "Same e-mail as line 2: the same person is not imported twice. If this is a different person, tick "
        "'A different person' on this row (or write yes in a different_person column)."
    ]
    with pytest.raises(NcpcError, match=r"the file has 1 problem\(s\)"):
        members_sheet_write(
            text=SAME_EMAIL, season=season, actor=treasurer, options=sheet_options(adult=True)
        )
    assert seated(season) == []


def test_the_same_email_is_imported_when_marked_as_a_different_person_in_a_column(season, treasurer):
    text = "First Name,Last Name,Email,Different person\nAnn,Lee,Ann@X.com,\nAnnie,Lee,ann@x.com,yes\n"
    sheet = members_sheet_read(text=text, season=season, options=sheet_options(adult=True))
    assert sheet.ok
    assert sheet.rows[1].warnings == ["Same e-mail as line 2: marked as a different person."]
    assert (
        members_sheet_write(text=text, season=season, actor=treasurer, options=sheet_options(adult=True)) == 2
    )
    assert seated(season) == ["anniel", "annl"]


def test_the_same_email_as_someone_on_record_is_refused_unless_ticked_on_the_preview(
    client, vice_president, season
):
    PersonFactory(key="annlee", first_name="Ann", last_name="Lee", email="ann@x.com")
    client.force_login(vice_president)
    text = "First Name,Last Name,Email\nAnnie,Leigh,Ann@X.com\n"
    preview = upload(client, "members", text, adult="on")
    row = preview.context["sheet"].rows[0]
    assert row.refused == [
        "Same e-mail as Ann Lee (annlee), on record: the same person is not imported twice. If this is a "
        "different person, tick 'A different person' on this row (or write yes in a different_person column)."
    ]
    html = preview.content.decode()
    assert 'name="different" value="2"' in html
    assert "Confirm: import" not in html
    ticked = client.post(
        "/imports/",
        {"step": "preview", "token": preview.context["upload_token"], "adult": "1", "different": "2"},
    )
    assert ticked.context["sheet"].ok
    confirm(client, ticked, adult="1", different="2")
    assert seated(season) == ["anniel"]


def test_a_returning_member_without_a_date_of_birth_is_matched_by_name_and_email(season, treasurer):
    PersonFactory(key="ann", first_name="Ann", last_name="Lee", email="ann@x.com", date_of_birth=None)
    text = "First Name,Last Name,Email\nAnn,Lee,ANN@x.com\n"
    sheet = members_sheet_read(text=text, season=season, options=sheet_options(adult=True))
    assert sheet.ok
    assert sheet.rows[0].action == "Seat for existing person ann: Ann Lee, 21 or over (declared by the club)"
    members_sheet_write(text=text, season=season, actor=treasurer, options=sheet_options(adult=True))
    assert seated(season) == ["ann"]
    assert Person.objects.filter(first_name="Ann", last_name="Lee").count() == 1


# --- Payments: skip a row, the check number -----------------------------------------------------------------


@pytest.fixture
def roster(season, treasurer):
    MembershipFactory(season=season, person__key="ann", person__first_name="Ann", person__last_name="Lee")
    MembershipFactory(season=season, person__key="bob", person__first_name="Bob", person__last_name="Ray")


PAYMENTS = "member,date,amount,method,reference\nann,9/1/2026,110.00,cash,\nbob,9/1/2026,50.00,IOU,\n"


def test_an_iou_row_skipped_books_nothing_for_it_and_the_audit_names_it(season, treasurer, roster):
    sheet = payments_sheet_read(text=PAYMENTS, season=season)
    assert sheet.asks == {"IOU": [3]}
    assert not sheet.ok
    skipped = sheet_options(methods={"IOU": "skip"})
    sheet = payments_sheet_read(text=PAYMENTS, season=season, options=skipped)
    assert sheet.ok and sheet.to_book == 1
    assert sheet.rows[1].action == "Skipped: nothing is booked for this row"
    assert payments_sheet_write(text=PAYMENTS, season=season, actor=treasurer, options=skipped) == 1
    assert list(Payment.objects.values_list("membership__person__key", "amount", "method")) == [
        ("ann", Decimal("110.00"), "cash")
    ]
    entry = AuditEntry.objects.get(action="finance.payments_import")
    assert entry.summary == (
        "Imported 1 payments totalling 110.00 from a payments spreadsheet; 1 row(s) skipped (line 3), nothing "
        "booked for them"
    )
    assert entry.data["skipped"] == [3]


def test_any_row_can_be_skipped_on_the_preview_even_one_with_a_problem(client, treasurer, season, roster):
    client.force_login(treasurer)
    text = PAYMENTS + "zed,9/1/2026,20.00,cash,\n"  # line 4: no seat
    preview = upload(client, "payments", text)
    html = preview.content.decode()
    assert "member &#x27;zed&#x27; holds no seat in 2026-27." in html
    assert 'name="skip" value="3"' in html and 'name="skip" value="4"' in html
    assert '<option value="skip"' in html
    assert "Confirm: import" not in html
    token = preview.context["upload_token"]
    skipped = client.post("/imports/", {"step": "preview", "token": token, "skip": ["3", "4"]})
    assert skipped.context["sheet"].ok
    assert "Confirm: import 1 row(s)" in skipped.content.decode()
    done = confirm(client, skipped, skip=["3", "4"])
    assert Payment.objects.count() == 1
    shown = [str(m) for m in done.wsgi_request._messages]
    assert shown == [
        "Imported 1 payments row(s) into 2026-27. 2 row(s) skipped (line 3, 4): nothing was booked for them."
    ]


def test_a_check_number_written_as_the_method_is_a_check_kept_on_the_payment(season, treasurer, roster):
    text = (
        "member,date,amount,method,reference\n"
        "ann,9/1/2026,110.00,Chk #1043,\n"
        "bob,9/2/2026,50.00,check 1044,September dues\n"
        "bob,9/3/2026,10.00,#1045,\n"
    )
    sheet = payments_sheet_read(text=text, season=season)
    assert sheet.ok, [(r.line, r.errors, r.ask) for r in sheet.rows]
    assert sheet.choices == []
    assert sheet.rows[1].action == (
        "Payment of 50.00 from bob on 2026-09-02 (check September dues, check no. 1044)"
    )
    assert payments_sheet_write(text=text, season=season, actor=treasurer) == 3
    booked = Payment.objects.order_by("date").values_list("method", "check_number", "reference")
    assert list(booked) == [
        ("check", "1043", "Chk #1043"),
        ("check", "1044", "September dues"),
        ("check", "1045", "#1045"),
    ]
