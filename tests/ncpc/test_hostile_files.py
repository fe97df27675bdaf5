"""SPEC §17.7 (issue 43): no file or text takes the site down. A workbook is refused from its zip directory
before a cell is read when it unpacks to more than 20 MB or lists no sheet; a NUL byte or another control
character in a file's cell or in the club's identity is a message or a form error, never a 500."""

import io
import re
import zipfile

import openpyxl
import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from members.models import Person
from ncpc.club.services import spreadsheet
from ncpc.core.identity import club_identity
from ncpc.core.models import ClubIdentity, SheetImport

pytestmark = pytest.mark.django_db

HEADER = "key,first_name,last_name,date_of_birth\n"


def workbook(rows) -> bytes:
    book = openpyxl.Workbook()
    for row in rows:
        book.active.append(row)
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def rewritten(raw: bytes, name: str, change) -> bytes:
    """The workbook with one of its parts changed (``change``: bytes -> bytes), compressed as Excel does."""
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(raw)) as source, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as copy:
        for info in source.infolist():
            data = source.read(info.filename)
            copy.writestr(info.filename, change(data) if info.filename == name else data)
    return out.getvalue()


def bomb() -> bytes:
    """About 30 KB of workbook whose one cell unpacks to 25 MB."""
    cell = b'<c r="A2" t="inlineStr"><is><t>' + b"A" * 25_000_000 + b"</t></is></c>"
    return rewritten(
        workbook([["key", "first_name"], ["x", "y"]]),
        "xl/worksheets/sheet1.xml",
        lambda xml: re.sub(rb"<row r=\"2\".*?</row>", b'<row r="2">' + cell + b"</row>", xml),
    )


def upload(client, raw: bytes, name: str):
    return client.post(
        "/imports/",
        {"kind": "members", "season": "2026-27", "file": SimpleUploadedFile(name, raw)},
        follow=True,
    )


def messages_of(response) -> list[str]:
    return [str(m) for m in response.context["messages"]]


def test_a_workbook_that_unpacks_past_20_mb_is_refused_before_any_cell_is_read(
    client, vice_president, season, monkeypatch
):
    raw = bomb()
    assert len(raw) < 100_000
    opened = []
    monkeypatch.setattr(spreadsheet.openpyxl, "load_workbook", lambda *a, **k: opened.append(a))
    client.force_login(vice_president)
    response = upload(client, raw, "roster.xlsx")
    assert response.status_code == 200
    assert messages_of(response) == [
        "The workbook unpacks to 25 MB, more than the 20 MB a members or payments list needs: save its sheet "
        "as 'CSV UTF-8'."
    ]
    assert opened == []  # refused from the zip directory: the workbook was never opened
    assert not SheetImport.objects.exists()


def test_a_workbook_that_lists_no_sheet_is_refused_with_a_message(client, vice_president, season):
    raw = rewritten(
        workbook([["key", "first_name"]]),
        "xl/workbook.xml",
        lambda xml: re.sub(rb"<sheets>.*</sheets>", b"<sheets/>", xml),
    )
    client.force_login(vice_president)
    response = upload(client, raw, "roster.xlsx")
    assert response.status_code == 200
    assert messages_of(response) == [
        "The workbook lists no sheet: save the members or payments sheet as 'CSV UTF-8'."
    ]


def test_a_csv_with_a_nul_byte_is_refused_naming_its_line(client, vice_president, season):
    text = HEADER + "ann,Ann,Lee,1970-01-01\nbob,B\x00ob,Ray,1971-02-02\n"
    client.force_login(vice_president)
    response = upload(client, text.encode(), "roster.csv")
    assert response.status_code == 200
    assert messages_of(response) == [
        "Line 3 of the file holds a control character (code 0x00), which no cell may hold: remove it, or save "
        "the file again from the spreadsheet."
    ]
    assert not SheetImport.objects.exists()
    assert not Person.objects.filter(key__in=["ann", "bob"]).exists()


@pytest.mark.parametrize("char", ["\u202e", "\u2067"])
def test_a_name_with_a_direction_control_in_the_roster_file_is_refused_naming_its_line(
    client, vice_president, season, char
):
    # A right-to-left override left open in Bob's name would turn round every name listed after his.
    text = HEADER + f"ann,Ann,Lee,1970-01-01\nbob,{char}Bob,Ray,1971-02-02\n"
    client.force_login(vice_president)
    response = upload(client, text.encode(), "roster.csv")
    assert response.status_code == 200
    assert messages_of(response) == [
        f"Line 3 of the file holds a direction control (code U+{ord(char):04X}), which would turn round the "
        "names shown after it: remove it, or save the file again from the spreadsheet."
    ]
    assert not SheetImport.objects.exists()
    assert not Person.objects.filter(key__in=["ann", "bob"]).exists()


def test_a_right_to_left_name_with_its_plain_marks_imports():
    # Hebrew or Arabic names may carry the plain direction marks (U+200F), which open nothing.
    text = spreadsheet.upload_text(
        name="a.csv", raw=(HEADER + "dov,\u05d3\u05d1\u200f,Lee,1970-01-01\n").encode()
    )
    assert "\u200f" in text


@pytest.mark.parametrize("char", ["\x00", "\x07", "\x1b", "\x7f"])
def test_a_control_character_in_a_cell_is_refused_and_tab_and_line_breaks_are_not(char):
    with pytest.raises(spreadsheet.NcpcError) as refused:
        spreadsheet.upload_text(name="a.csv", raw=(HEADER + f"ann,A{char}nn,Lee,1970-01-01\n").encode())
    assert str(refused.value).startswith(
        f"Line 2 of the file holds a control character (code {ord(char):#04x})"
    )
    kept = HEADER + 'ann,"Ann\r\nMarie",Lee\t,1970-01-01\r\n'
    assert spreadsheet.upload_text(name="a.csv", raw=kept.encode()) == kept


IDENTITY = {
    "name": "Northern Cincinnati Poker Club",
    "short_name": "NCPC",
    "time_zone": "America/New_York",
    "rule_book": "the bylaws",
}


@pytest.mark.parametrize(
    ("field", "typed", "error"),
    [
        (
            "name",
            "Evil\nClub",
            "This holds a line break: write it on one line, with letters, digits and punctuation.",
        ),
        (
            "short_name",
            "EC\r\nBcc: x",
            "This holds a line break: write it on one line, with letters, digits and punctuation.",
        ),
        (
            "rule_book",
            "the\u2028bylaws",
            "This holds a line break: write it on one line, with letters, digits and punctuation.",
        ),
        (
            "short_name",
            "EC\x1b[2J",
            "This holds a control character (code 0x1b): write it on one line, with letters, digits and punctuation.",
        ),
        (
            "ref_2_12",
            "Art.\t7",
            "This holds a control character (code 0x09): write it on one line, with letters, digits and punctuation.",
        ),
    ],
)
def test_a_line_break_or_control_character_in_the_clubs_identity_is_a_form_error(
    client, president, field, typed, error
):
    client.force_login(president)
    response = client.post("/club/", IDENTITY | {field: typed})
    assert response.status_code == 200
    assert response.context["form"].errors[field] == [error]
    assert not ClubIdentity.objects.exists()
    assert "\n" not in club_identity().short_name
    # The season's calendar feed and the club's mail subjects keep working: nothing was saved.
    assert client.get("/events/2026-27.ics").status_code == 200
