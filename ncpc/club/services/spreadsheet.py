"""Bringing the club's spreadsheets in: members and payments from CSV files (issue 8, SPEC §16.10).

Reading checks every row (CSV text in, rows with errors, warnings and what confirming does out); writing goes
through the members and finance services, all rows or none.

Headers are matched ignoring case, spaces and punctuation, with the names clubs use ("First Name", "DOB",
"Email address", "Sponsored by"); other columns are listed as ignored. Dates are 2026-08-22 or US 8/22/2026.

Members columns: ``first_name, last_name`` (or one ``name`` column), and optionally ``key`` (the handle; made
from the name when blank), ``email, phone, address, date_of_birth, first_event`` (default 1), ``sponsor`` (a
name or handle of someone on record or in the file), ``over_21`` (yes/no) and ``different_person`` (yes/no).
Each row becomes a person (the key names the same person across seasons) holding a seat in the chosen season:
the club's existing roster, so no admission vote is recorded; the Vice President still records each rules
signature. The bylaws' age rule (§2.1) is met by a date of birth (checked), or by the club's declaration that
the member is of the season's minimum age: ``over_21`` yes on the row, or the import form's tick for the whole
file; a row with neither is refused until one is given. A row whose e-mail is someone else's on record or an
earlier row's (case ignored) is refused unless marked as a different person (``different_person`` yes, or the
preview's tick on that row).

Payments columns: ``member`` (handle or name), ``date``, ``amount`` (like 110.00), ``method`` (cash, check, or
the club's word for it: Venmo, Zelle, money order…) and optionally ``reference``. A row matching a payment
recorded already is not booked again unless ticked. A check number written as the method ("Chk #1043") is a
check, and the number is kept on the payment. Any row may be skipped at the preview (nothing is booked for it;
the result and the audit name it), and so may every row of a method word the app does not know.
"""

import csv
import datetime as dt
import io
import json
import re
import secrets
import zipfile
from collections import Counter
from collections.abc import Collection, Iterator
from dataclasses import dataclass, field
from decimal import Decimal

import openpyxl
from django.db import models, transaction
from django.utils import timezone
from openpyxl.utils.exceptions import InvalidFileException

from events.models import Season
from events.rules import SeasonRules
from events.selectors import season_rules
from events.services.seasons import season_opening
from finance.models import Payment
from finance.services.ledger import books_start_day
from finance.services.payments_import import (
    PaymentKey,
    PaymentLine,
    closed_months,
    method_check_number,
    method_read,
    method_reference,
    method_word_form,
    payment_key,
    payment_line_problem,
    payments_record_many,
    payments_recorded,
    payments_recorded_by,
)
from members.models import Membership, Person
from members.services.admission import age_on
from members.services.names import name_compare_form, name_tidy, name_untidy, person_key_make
from members.services.people import date_of_birth_problem
from members.services.roster_import import RosterLine, roster_import
from ncpc.club.services.season_file import KEY_RE
from ncpc.core.audit import Actor, actor_signed_in
from ncpc.core.clock import club_today
from ncpc.core.errors import NcpcError
from ncpc.core.mail import email_problem
from ncpc.core.models import SheetImport
from ncpc.core.money import parse_money
from ncpc.core.text import DIRECTION_CONTROLS

MAX_BYTES = 1_000_000
# A workbook larger than this once unpacked is refused from its zip directory, before a cell is read (SPEC §17.7):
# 300 KB of zip can unpack to gigabytes, and the reader holds what it unpacks.
MAX_XLSX_UNPACKED = 20_000_000
# Control characters a cell may not hold (tab, line feed and carriage return are a CSV's own).
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
# A direction control left open in a name turns round every name the pages list after it (``ncpc.core.text``).
_DIRECTION = re.compile("[" + "".join(sorted(DIRECTION_CONTROLS)) + "]")
# The largest amount a money column holds (max_digits with two places): 10 ** (12 - 2).
PAYMENT_LIMIT = Decimal(10) ** (Payment._meta.get_field("amount").max_digits - 2)
MEMBER_COLUMNS = (
    "key",
    "first_name",
    "last_name",
    "email",
    "phone",
    "address",
    "date_of_birth",
    "first_event",
    "sponsor",
    "over_21",
    "different_person",
)
MEMBER_REQUIRED = ("first_name", "last_name")
PAYMENT_COLUMNS = ("member", "date", "amount", "method", "reference")
PAYMENT_REQUIRED = ("member", "date", "amount", "method")
FULL_NAME = (
    "name"  # a members column holding "First Last" (or "Last, First"), used when neither name column is
)

# The club's own header names (SPEC §16.10), in ``header_form`` (case, spaces and punctuation ignored): each
# column's own name, and the words spreadsheets commonly use for it.
_MEMBER_ALIASES = {
    "key": ("key", "handle", "nickname", "nick", "username", "memberkey", "login"),
    "first_name": ("firstname", "first", "givenname", "forename", "fname"),
    "last_name": ("lastname", "last", "surname", "familyname", "lname"),
    "email": ("email", "emailaddress", "mail", "emailaddr"),
    "phone": (
        "phone",
        "phonenumber",
        "phoneno",
        "telephone",
        "tel",
        "mobile",
        "cell",
        "cellphone",
        "mobilephone",
    ),
    "address": ("address", "streetaddress", "mailingaddress", "homeaddress"),
    "date_of_birth": ("dateofbirth", "dob", "birthdate", "birthday", "born", "birth"),
    "first_event": ("firstevent", "fromevent", "startingevent"),
    "sponsor": ("sponsor", "sponsoredby", "sponsorname", "sponsors"),
    "over_21": ("over21", "21orover", "21plus", "age21", "adult", "ofage"),
    "different_person": ("differentperson", "notaduplicate", "notduplicate", "differentmember"),
    FULL_NAME: ("name", "fullname", "membername"),
}
_PAYMENT_ALIASES = {
    "member": (
        "member",
        "key",
        "handle",
        "nickname",
        "name",
        "membername",
        "fullname",
        "who",
        "payer",
        "player",
    ),
    "date": ("date", "paidon", "datepaid", "paymentdate", "when", "day"),
    "amount": ("amount", "amountpaid", "paid", "sum", "total", "payment", "dollars"),
    "method": (
        "method",
        "paymentmethod",
        "how",
        "howpaid",
        "type",
        "paymenttype",
        "via",
        "paidby",
        "paidwith",
    ),
    "reference": (
        "reference",
        "ref",
        "checknumber",
        "checkno",
        "check",
        "memo",
        "note",
        "notes",
        "receipt",
        "comment",
        "comments",
    ),
}
HEADER_ALIASES: dict[str, dict[str, str]] = {
    kind: {alias: column for column, aliases in table.items() for alias in aliases}
    for kind, table in (("members", _MEMBER_ALIASES), ("payments", _PAYMENT_ALIASES))
}

_ISO_DATE = re.compile(r"^(\d{4})-(\d{1,2})-(\d{1,2})$")
_US_DATE = re.compile(r"^(\d{1,2})([/.-])(\d{1,2})\2(\d{4}|\d{2})$")
_TIME_TAIL = re.compile(r"[ T]+\d{1,2}:\d{2}(:\d{2})?( ?[AaPp][Mm])?$")  # "8/22/2026 0:00" from a spreadsheet


def upload_text(*, name: str, raw: bytes) -> str:
    """The CSV text of an uploaded file: a CSV file as it is (UTF-8), or the first sheet of an Excel workbook
    (.xlsx) written as CSV, its date cells as 2026-08-22. Kept as text until the confirmation."""
    if raw[:2] == b"PK" or name.lower().endswith(".xlsx"):
        text = _xlsx_text(raw)
    else:
        try:
            text = raw.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise NcpcError(
                "The file is not UTF-8 text. Save it from your spreadsheet as 'CSV UTF-8' or as an Excel "
                "workbook (.xlsx)."
            ) from None
    control_problem(text)
    return text


def control_problem(text: str) -> None:
    """Refuse a file with a NUL or another control character in a cell (SPEC §17.7), naming its line: no
    name, date or amount holds one, and PostgreSQL refuses a NUL in any text."""
    for pattern, what, why in (
        (_CONTROL, "a control character (code {:#04x})", "which no cell may hold"),
        (
            _DIRECTION,
            "a direction control (code U+{:04X})",
            "which would turn round the names shown after it",
        ),
    ):
        found = pattern.search(text)
        if found is not None:
            line = text.count("\n", 0, found.start()) + 1
            raise NcpcError(
                f"Line {line} of the file holds {what.format(ord(found.group()))}, {why}: remove it, or save the "
                "file again from the spreadsheet."
            )


def _xlsx_unpacked_problem(raw: bytes) -> str:
    """Why a workbook is refused from its zip directory alone ("" when it is not): more than
    ``MAX_XLSX_UNPACKED`` bytes unpacked. The sizes are those the directory declares, and the zip reader never
    unpacks more than a member declares."""
    with zipfile.ZipFile(io.BytesIO(raw)) as archive:
        unpacked = sum(info.file_size for info in archive.infolist())
    if unpacked > MAX_XLSX_UNPACKED:
        return (
            f"The workbook unpacks to {unpacked / 1_000_000:,.0f} MB, more than the "
            f"{MAX_XLSX_UNPACKED // 1_000_000} MB a members or payments list needs: save its sheet as "
            "'CSV UTF-8'."
        )
    return ""


def _xlsx_text(raw: bytes) -> str:
    unreadable = "The file is not an Excel workbook the app can read (.xlsx): save it as 'CSV UTF-8'."
    try:
        if problem := _xlsx_unpacked_problem(raw):
            raise NcpcError(problem)
        book = openpyxl.load_workbook(io.BytesIO(raw), read_only=True, data_only=True)
    except (zipfile.BadZipFile, InvalidFileException, KeyError, ValueError, TypeError, OSError, EOFError):
        raise NcpcError(unreadable) from None
    if not book.worksheets:
        book.close()
        raise NcpcError("The workbook lists no sheet: save the members or payments sheet as 'CSV UTF-8'.")
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    try:
        for row in book.worksheets[0].iter_rows(values_only=True):
            writer.writerow([_xlsx_cell(value) for value in row])
            if out.tell() > MAX_BYTES:  # refused as too large by the reading that follows
                break
    except (zipfile.BadZipFile, KeyError, ValueError, TypeError, OSError):
        raise NcpcError("The workbook's first sheet cannot be read: save it as 'CSV UTF-8'.") from None
    finally:
        book.close()
    return out.getvalue()


def _xlsx_cell(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, dt.datetime):
        return value.date().isoformat()
    if isinstance(value, dt.date):
        return value.isoformat()
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def header_form(name: str) -> str:
    """A header however it was typed: "First Name", "first_name" and "FIRST-NAME" are one name."""
    return re.sub(r"[^a-z0-9]", "", name.lower())


@dataclass
class SheetRow:
    line: int
    values: dict[str, str]
    errors: list[str] = field(default_factory=list)
    action: str = ""  # what confirming will do with this row
    warnings: list[str] = field(default_factory=list)  # likely duplicates: shown, not refused
    recorded: bool = False  # a payment recorded already (SPEC §16.10)
    book: bool = True  # confirming writes this row (a recorded payment only when ticked)
    ask: str = ""  # a payment method word the officer is asked about (not yet answered)
    # Refused until the officer answers at the preview: no age given (tick the declaration), an e-mail someone
    # else has (tick "a different person").
    refused: list[str] = field(default_factory=list)
    same_email: bool = False  # a members row whose e-mail is someone else's: the preview offers the tick
    skipped: bool = False  # a payments row the officer chose not to book


@dataclass(frozen=True)
class SheetOptions:
    """The officer's choices at preview, sent again with the confirmation."""

    tidy: bool = False  # capitalise names typed all in lower or upper case
    # (method word in method_word_form, "cash", "check" or "skip": every row of that word left out)
    methods: tuple[tuple[str, str], ...] = ()
    record: frozenset[int] = frozenset()  # lines of payments recorded already, to book again all the same
    adult: bool = False  # the club declares every member in the file of the season's minimum age (§2.1)
    different: frozenset[int] = frozenset()  # members lines marked as a different person (same e-mail)
    skip: frozenset[int] = frozenset()  # payments lines left out

    @property
    def fingerprint(self) -> str:
        return json.dumps(
            [
                self.tidy,
                sorted(self.methods),
                sorted(self.record),
                self.adult,
                sorted(self.different),
                sorted(self.skip),
            ]
        )


@dataclass
class Sheet:
    kind: str  # "members" or "payments"
    rows: list[SheetRow]
    errors: list[str]  # problems with the file as a whole
    notices: list[str] = field(default_factory=list)  # how the file was read (columns, dates, names)
    ignored: list[str] = field(default_factory=list)  # headers of columns the import does not use
    asks: dict[str, list[int]] = field(default_factory=dict)  # method word → its lines, not yet answered
    options: SheetOptions = field(default_factory=SheetOptions)
    # Payment method words the app does not know: (as typed, method_word_form, the officer's answer or "").
    choices: list[tuple[str, str, str]] = field(default_factory=list)
    minimum_age: int = 0  # members: the season's minimum age (bylaws §2.1), named by the declaration

    @property
    def readable(self) -> bool:
        """No problem but questions the preview answers: the file is kept for the officer's answers. A payments
        row with a problem may be skipped there, so only a problem of the file as a whole makes one unreadable."""
        if self.errors or not self.rows:
            return False
        return self.kind == "payments" or all(not r.errors for r in self.rows)

    @property
    def ok(self) -> bool:
        return (
            self.readable
            and not self.asks
            and all(r.skipped or not (r.errors or r.refused) for r in self.rows)
        )

    @property
    def error_count(self) -> int:
        """The problems and unanswered refusals (of the rows not skipped)."""
        return len(self.errors) + sum(len(r.errors) + len(r.refused) for r in self.rows if not r.skipped)

    @property
    def to_book(self) -> int:
        return sum(1 for r in self.rows if r.book and not r.errors and not r.refused and not r.skipped)

    @property
    def skipped(self) -> list[int]:
        return [r.line for r in self.rows if r.skipped]

    @property
    def recorded(self) -> list[SheetRow]:
        return [r for r in self.rows if r.recorded]


def _read_csv(
    text: str, *, kind: str, required: tuple[str, ...]
) -> tuple[list[SheetRow], list[str], list[str]]:
    """The rows (values under the import's column names), the file's problems and the ignored headers."""
    if len(text.encode("utf-8")) > MAX_BYTES:
        return [], [f"The file is larger than {MAX_BYTES // 1000} KB; split it."], []
    reader = csv.reader(io.StringIO(text.lstrip("\ufeff")))
    try:
        return _read_rows(reader, kind=kind, required=required)
    except csv.Error as exc:  # e.g. a cell longer than the csv module's field limit (131,072 characters)
        return [], [f"The file is not a CSV table the app can read (line {reader.line_num}: {exc})."], []


def _read_rows(
    reader: Iterator[list[str]], *, kind: str, required: tuple[str, ...]
) -> tuple[list[SheetRow], list[str], list[str]]:
    aliases = HEADER_ALIASES[kind]
    header = next(reader, [])
    columns: dict[int, str] = {}
    ignored: list[str] = []
    problems: list[str] = []
    named: dict[str, str] = {}
    for index, title in enumerate(header):
        column = aliases.get(header_form(title))
        if column is None:
            if title.strip():
                ignored.append(title.strip())
            continue
        if column in named:  # the first column of that meaning is read ("Phone", then "Cell")
            ignored.append(f"{title.strip()} (the {column} is read from {named[column]!r})")
            continue
        named[column] = title.strip()
        columns[index] = column
    if kind == "members" and FULL_NAME in named:
        if "first_name" in named or "last_name" in named:
            ignored.append(named.pop(FULL_NAME))
            columns = {i: c for i, c in columns.items() if c != FULL_NAME}
        else:  # one "Name" column: split into first and last name below
            named |= {"first_name": named[FULL_NAME], "last_name": named[FULL_NAME]}
    missing = [c for c in required if c not in named]
    if missing:
        return (
            [],
            [
                f"The header row must name the columns {', '.join(required)}; missing: {', '.join(missing)}. "
                "(Columns may be named as the club names them, e.g. 'First Name', 'DOB', 'Email address'.)"
            ],
            ignored,
        )
    rows = []
    for number, cells in enumerate(reader, start=2):
        values = {column: cells[i].strip() for i, column in columns.items() if i < len(cells)}
        if not any(values.values()):
            continue
        if FULL_NAME in values:
            values["first_name"], values["last_name"] = _name_split(values.pop(FULL_NAME))
        rows.append(SheetRow(line=number, values=values))
    if not rows:
        problems.append("The file has no rows below the header.")
    return rows, problems, ignored


def _name_split(name: str) -> tuple[str, str]:
    """ "Smith, Mike" and "Mike Smith" → ("Mike", "Smith")."""
    if "," in name:
        last, _, first = name.partition(",")
        return first.strip(), last.strip()
    first, _, last = " ".join(name.split()).rpartition(" ")
    return (first, last) if first else (last, "")


def _lengths(row: SheetRow, model: type[models.Model], names: tuple[str, ...]) -> None:
    """Cells longer than the field that stores them are refused here, not by the database at confirm."""
    for name in names:
        limit = getattr(model._meta.get_field(name), "max_length", None)
        if limit and len(row.values.get(name, "")) > limit:
            row.errors.append(f"{name} is longer than {limit} characters.")


def _dates_read(
    rows: list[SheetRow], name: str, problems: list[str], notices: list[str]
) -> dict[int, dt.date]:
    """Every date of column ``name``, by line: written 2026-08-22 (ISO) or 8/22/2026 (US month/day/year; also
    8/22/26, a two-digit year being the latest such year not after this one). A file whose dates can only be
    day/month (22/8/2026) is refused as a whole: the app does not guess. Each row's value becomes ISO; the
    notice says how the dates were read (SPEC §16.10)."""
    this_year = club_today().year
    found: dict[int, dt.date] = {}
    iso = us = short = 0
    us_example = day_first = month_first = None
    for row in rows:
        text = _TIME_TAIL.sub("", row.values.get(name, ""))
        if not text:
            continue
        if m := _ISO_DATE.match(text):
            parts, iso = (int(m[1]), int(m[2]), int(m[3])), iso + 1
        elif m := _US_DATE.match(text):
            month, day, year = int(m[1]), int(m[3]), int(m[4])
            if month > 12 and day <= 12:
                day_first = day_first or (row.line, text)
                continue
            if day > 12:
                month_first = month_first or (row.line, text)
            if len(m[4]) == 2:
                year += 2000 if 2000 + year <= this_year else 1900
                short += 1
            parts, us = (year, month, day), us + 1
        else:
            row.errors.append(f"{name} {row.values.get(name)!r} is not a date like 8/22/2026 or 2026-08-22.")
            continue
        try:
            found[row.line] = dt.date(*parts)
        except ValueError:
            row.errors.append(f"{name} {row.values.get(name)!r} is not a date (no such day).")
            continue
        if not _ISO_DATE.match(text):
            us_example = us_example or (text, found[row.line])
        row.values[name] = found[row.line].isoformat()
    if day_first:
        line, text = day_first
        mix = f" and others month first (line {month_first[0]}: {month_first[1]})" if month_first else ""
        problems.append(
            f"Some dates put the day first (line {line}: {text}){mix}. The app reads dates as month/day/year "
            "(8/22/2026) or year-month-day (2026-08-22): save the dates in one of those and upload again."
        )
        return {}
    read = []
    if us and us_example:
        text, example = us_example
        read.append(
            f"month/day/year ({us} row(s); {text} is {example:%B %-d, %Y}"
            + (", two-digit years as the latest such year not after this one" if short else "")
            + ")"
        )
    if iso:
        read.append(f"year-month-day ({iso} row(s))")
    if read:
        notices.append(f"Dates in column {name} were read as " + " and ".join(read) + ".")
    return found


@dataclass(frozen=True)
class _OnRecord:
    """The people on record, as a members sheet is checked against them."""

    seated: set[str]  # keys holding a seat in the season
    keys: set[str]
    by_name: dict[str, list[tuple[str, str]]]  # name_compare_form → (key, full name)
    by_email: dict[str, list[tuple[str, str]]]  # lower-case e-mail → (key, full name)
    born: dict[str, dt.date | None]
    emails: dict[str, str]  # key → lower-case e-mail ("" for none)


def _on_record(*, season: Season) -> _OnRecord:
    seated = set(Membership.objects.filter(season=season).values_list("person__key", flat=True))
    people = list(Person.objects.values_list("key", "first_name", "last_name", "email", "date_of_birth"))
    by_name: dict[str, list[tuple[str, str]]] = {}
    by_email: dict[str, list[tuple[str, str]]] = {}
    for key, first, last, email, _born in people:
        by_name.setdefault(name_compare_form(first, last), []).append((key, f"{first} {last}"))
        if email:
            by_email.setdefault(email.lower(), []).append((key, f"{first} {last}"))
    return _OnRecord(
        seated=seated,
        keys={key for key, *_ in people},
        by_name=by_name,
        by_email=by_email,
        born={key: born for key, *_, born in people},
        emails={key: (email or "").lower() for key, _first, _last, email, _born in people},
    )


def _names_tidy(rows: list[SheetRow], *, tidy: bool) -> list[str]:
    """Spaces tidied in every name, and capitals too when ``tidy``; the names typed all in lower or upper case
    left as they are (``line n: name``), to suggest tidying."""
    untidy = []
    for row in rows:
        v = row.values
        if not tidy and any(name_untidy(v.get(name, "")) for name in ("first_name", "last_name")):
            full = " ".join((v.get("first_name", "") + " " + v.get("last_name", "")).split())
            untidy.append(f"line {row.line}: {full}")
        for name in ("first_name", "last_name"):
            typed = v.get(name, "")
            v[name] = name_tidy(typed) if tidy else " ".join(typed.split())
    return untidy


def _returning(key: str, *, row: SheetRow, record: _OnRecord, born: dt.date | None) -> bool:
    """Whether a person on record with the row's name is the row's member: the same date of birth, or, when
    either date is not known, the same e-mail (case ignored)."""
    on_record = record.born.get(key)
    if born and on_record:
        return born == on_record
    email = row.values.get("email", "").lower()
    return bool(email) and record.emails.get(key) == email


def _keys_give(rows: list[SheetRow], *, record: _OnRecord, born_on: dict[int, dt.date]) -> set[int]:
    """Handles: as given, or the one of a person on record with the same name and date of birth or e-mail (a
    returning member), or one made from the name, never taken by anyone on record or in the file. The lines
    whose handle was made."""
    given = {v["key"].lower() for r in rows if (v := r.values).get("key")}
    taken = record.keys | given
    made: set[int] = set()
    for row in rows:
        v = row.values
        if v.get("key"):
            v["key"] = v["key"].lower()
            continue
        form = name_compare_form(v.get("first_name", ""), v.get("last_name", ""))
        same = [
            key
            for key, _ in record.by_name.get(form, [])
            if _returning(key, row=row, record=record, born=born_on.get(row.line))
        ]
        if len(same) == 1 and same[0] not in given:
            v["key"] = same[0]
            given.add(same[0])
        elif v.get("first_name") or v.get("last_name"):
            v["key"] = person_key_make(
                first_name=v.get("first_name", ""), last_name=v.get("last_name", ""), taken=taken
            )
            taken.add(v["key"])
            made.add(row.line)
    return made


_YES = ("yes", "y", "true", "x", "1")
_NO = ("no", "n", "false", "0")


def _yes_no(row: SheetRow, name: str) -> None:
    """A yes/no column as "yes", "no" or "" (blank); another word is a row error."""
    if name not in row.values:  # the file has no such column
        return
    typed = row.values[name]
    word = typed.lower()
    row.values[name] = "yes" if word in _YES else "no" if word in _NO else ""
    if word and word not in _YES + _NO:
        row.errors.append(f"{name} {typed!r} must be yes or no.")


def _member_age_check(
    row: SheetRow, *, born: dt.date | None, season: Season, rules: SeasonRules, today: dt.date, adult: bool
) -> None:
    """The bylaws' age rule (§2.1): a date of birth given is checked; without one, the club's declaration
    (``over_21`` yes, or the form's tick for the whole file) stands for it. A row saying ``over_21`` no is
    refused; a row with neither is refused until one is given."""
    v = row.values
    age = rules.minimum_age
    _yes_no(row, "over_21")
    declared = v.get("over_21", "")
    if declared == "no":
        row.errors.append(f"over_21 is no: a member must be {age} or over (bylaws §2.1).")
    elif v.get("date_of_birth"):
        if born and (problem := date_of_birth_problem(born=born, on=today)):
            row.errors.append(problem)
        elif born and age_on(born=born, on=season.start) < age:
            row.errors.append(f"born {born}: under {age} when the season starts.")
    elif declared != "yes" and not adult:
        row.refused.append(
            f"No date of birth and no declaration that the member is {age} or over (bylaws §2.1): give the "
            f"date of birth, or write yes in an over_21 column, or tick 'Every member in this file is {age} "
            "or over'."
        )


def _member_row_errors(
    row: SheetRow,
    *,
    born: dt.date | None,
    seen: dict[str, int],
    seated: set[str],
    season: Season,
    rules: SeasonRules,
    today: dt.date,
    adult: bool,
) -> None:
    """The row's own problems: its handle, names, e-mail, age, lengths, first event, a seat held."""
    v = row.values
    key = v.get("key", "")
    if key and not KEY_RE.match(key):
        row.errors.append(f"key {key!r} must be lower-case letters, digits, - or _.")
    elif key and key in seen:
        row.errors.append(f"key {key!r} is also on line {seen[key]}.")
    else:
        seen[key] = row.line
    for name in ("first_name", "last_name"):
        if not v.get(name):
            row.errors.append(f"{name} is missing.")
    if v.get("email") and email_problem(v["email"]):
        row.errors.append(f"email {v['email']!r} is not a valid e-mail address.")
    _member_age_check(row, born=born, season=season, rules=rules, today=today, adult=adult)
    _yes_no(row, "different_person")
    _lengths(row, Person, ("key", "first_name", "last_name", "email", "phone", "address"))
    first = v.get("first_event") or "1"
    if not (first.isascii() and first.isdigit()) or not 1 <= int(first) <= rules.events_per_season:
        row.errors.append(f"first_event {first!r} must be a number from 1 to {rules.events_per_season}.")
    if key in seated:
        row.errors.append(f"{key!r} already holds a seat in {season}.")


def _member_row_warnings(
    row: SheetRow,
    *,
    form: str,
    record: _OnRecord,
    season: Season,
    seen_name: dict[str, int],
    seen_email: dict[str, int],
    different: bool,
) -> None:
    """Likely duplicates (SPEC §16.10): the same name as someone else on record or in the file is flagged; the
    same e-mail (case ignored) is the same person, so the row is refused unless marked as a different person
    (``different``: the row's ``different_person`` yes, or the preview's tick)."""
    key = row.values.get("key", "")
    for other_key, other in record.by_name.get(form, []):
        if other_key != key:
            where = f"holds a seat in {season}" if other_key in record.seated else "is on record"
            row.warnings.append(f"Same name as {other} ({other_key}), who {where}.")
    email = row.values.get("email", "").lower()
    same = [
        f"{other} ({other_key}), on record"
        for other_key, other in (record.by_email.get(email, []) if email else [])
        if other_key != key
    ]
    if email and email in seen_email:
        same.append(f"line {seen_email[email]}")
    for who in same:
        if different:
            row.warnings.append(f"Same e-mail as {who}: marked as a different person.")
        else:
            row.refused.append(
                f"Same e-mail as {who}: the same person is not imported twice. If this is a different "
                "person, tick 'A different person' on this row (or write yes in a different_person column)."
            )
    row.same_email = bool(same)
    if form and form in seen_name:
        row.warnings.append(f"Same name as line {seen_name[form]}.")
    seen_name.setdefault(form, row.line)
    if email:
        seen_email.setdefault(email, row.line)


def _member_row_action(
    v: dict[str, str], *, known: bool, made: bool, born: dt.date | None, minimum_age: int
) -> str:
    """What confirming does with a members row without problems."""
    sponsor = v["sponsor"]
    return (
        ("Seat for existing person " if known else "New person and seat ")
        + v["key"]
        + (" (handle made from the name)" if made else "")
        + f": {v['first_name']} {v['last_name']}"
        + (f", born {born:%b %-d, %Y}" if born else f", {minimum_age} or over (declared by the club)")
        + (f", sponsored by {sponsor}" if sponsor else "")
    )


def _names_notices(*, untidy: list[str], tidy: bool, made: int) -> list[str]:
    """How the names were read: typed all in lower or upper case, tidied, handles made from them."""
    notices = []
    if untidy:
        notices.append(
            f"{len(untidy)} name(s) are typed all in lower or upper case ({'; '.join(untidy[:3])}"
            + ("; …" if len(untidy) > 3 else "")
            + "): tick 'Tidy names' to capitalise them."
        )
    if tidy:
        notices.append("Names typed all in lower or upper case are capitalised ('Tidy names').")
    if made:
        notices.append(f"{made} handle(s) made from the names (the file gives none for them).")
    return notices


def members_sheet_read(*, text: str, season: Season, options: SheetOptions | None = None) -> Sheet:
    options = options or SheetOptions()
    rules = season_rules(season)
    rows, problems, ignored = _read_csv(text, kind="members", required=MEMBER_REQUIRED)
    notices: list[str] = []
    born_on = _dates_read(rows, "date_of_birth", problems, notices)
    today = club_today()
    record = _on_record(season=season)
    untidy = _names_tidy(rows, tidy=options.tidy)
    made = _keys_give(rows, record=record, born_on=born_on)
    file_keys = {r.values.get("key", "") for r in rows} - {""}
    name_forms = {
        row.line: name_compare_form(row.values.get("first_name", ""), row.values.get("last_name", ""))
        for row in rows
    }
    in_file_names: dict[str, list[tuple[str, str]]] = {}
    for row in rows:
        in_file_names.setdefault(name_forms[row.line], []).append(
            (row.values.get("key", ""), f"line {row.line}")
        )
    seen: dict[str, int] = {}
    seen_name: dict[str, int] = {}
    seen_email: dict[str, int] = {}
    for row in rows:
        v = row.values
        key = v.get("key", "")
        born = born_on.get(row.line)
        _member_row_errors(
            row,
            born=born,
            seen=seen,
            seated=record.seated,
            season=season,
            rules=rules,
            today=today,
            adult=options.adult,
        )
        sponsor = _sponsor_find(
            v.get("sponsor", ""),
            row=row,
            existing=record.keys,
            by_name=record.by_name,
            in_file=in_file_names,
            file_keys=file_keys,
        )
        _member_row_warnings(
            row,
            form=name_forms[row.line],
            record=record,
            season=season,
            seen_name=seen_name,
            seen_email=seen_email,
            different=v.get("different_person") == "yes" or row.line in options.different,
        )
        if not row.errors and not row.refused:
            v["sponsor"] = sponsor
            row.action = _member_row_action(
                v, known=key in record.keys, made=row.line in made, born=born, minimum_age=rules.minimum_age
            )
    notices += _names_notices(untidy=untidy, tidy=options.tidy, made=len(made))
    notices += _age_notices(rows=rows, adult=options.adult, minimum_age=rules.minimum_age)
    _opening_notice(season=season, notices=notices, problems=problems)
    total = len(record.seated) + sum(1 for r in rows if not r.errors)
    if total > rules.max_members:
        problems.append(f"{total} seats would be held in {season}; the club allows {rules.max_members}.")
    return Sheet(
        kind="members",
        rows=rows,
        errors=problems,
        notices=notices,
        ignored=ignored,
        options=options,
        minimum_age=rules.minimum_age,
    )


def _opening_notice(*, season: Season, notices: list[str], problems: list[str]) -> None:
    """When the seats take effect if the season's first day is in or before a closed month (SPEC §17.2,
    ``season_opening``, as ``roster_import`` does): said in the notices; a season with every month closed
    cannot take any seat, so the file is refused before it is confirmed."""
    opening = season_opening(start_year=season.start.year)
    if not opening.moved:
        return
    if opening.seats_on is None:
        problems.append(
            f"Every month of {season} is closed (the books are closed up to {opening.closed_until:%B %Y}): no "
            "seat can take effect in it."
        )
        return
    notices.append(
        f"The seats take effect on {opening.seats_on:%b %-d, %Y}: the months up to {opening.closed_until:%B %Y} "
        "are closed. A member whose first event is later takes effect on that event's date."
    )


def _age_notices(*, rows: list[SheetRow], adult: bool, minimum_age: int) -> list[str]:
    """How the bylaws' age rule (§2.1) is met: the declaration for the whole file, or the rows without any."""
    declared = sum(1 for r in rows if not r.values.get("date_of_birth") and not r.errors and not r.refused)
    unproven = sum(1 for r in rows if not r.values.get("date_of_birth") and not r.values.get("over_21"))
    notices = []
    if declared:
        notices.append(
            f"{declared} member(s) without a date of birth are declared {minimum_age} or over by the club "
            f"(bylaws §2.1){' for the whole file' if adult else ' in the over_21 column'}; a date of birth "
            "given is still checked."
        )
    if unproven and not adult:
        notices.append(
            f"{unproven} row(s) give no date of birth and no declaration: tick 'Every member in this file is "
            f"{minimum_age} or over' and preview again, or add an over_21 column (yes) or the dates of birth."
        )
    return notices


def _sponsor_find(
    text: str,
    *,
    row: SheetRow,
    existing: set[str],
    by_name: dict[str, list[tuple[str, str]]],
    in_file: dict[str, list[tuple[str, str]]],
    file_keys: set[str],
) -> str:
    """The key of the sponsor a row names (a handle, or a name, of someone on record or in the file); "" for
    none; a row error when no one or more than one person has that name."""
    if not text:
        return ""
    key = text.strip().lower()
    if key in existing or key in file_keys:
        found = {key}
    else:
        form = name_compare_form(text)
        found = {k for k, _ in by_name.get(form, [])} | {k for k, _ in in_file.get(form, []) if k}
    if not found:
        row.errors.append(f"sponsor {text!r} is no one on record or in this file (give a name or a handle).")
        return ""
    if len(found) > 1:
        row.errors.append(f"sponsor {text!r} could be {', '.join(sorted(found))}: give the handle.")
        return ""
    sponsor = found.pop()
    if sponsor == row.values.get("key"):
        row.errors.append("A member cannot be their own sponsor.")
        return ""
    return sponsor


def _seat_find(
    text: str, *, seats: dict[str, Membership], by_name: dict[str, list[Membership]]
) -> tuple[Membership | None, str]:
    """The seat a payment row names by handle or by name, or (None, why)."""
    seat = seats.get(text.strip().lower())
    if seat is not None:
        return seat, ""
    found = by_name.get(name_compare_form(text), [])
    if len(found) == 1:
        return found[0], ""
    if len(found) > 1:
        return (
            None,
            f"member {text!r} could be {', '.join(sorted(m.person.key for m in found))}: give the handle.",
        )
    return None, ""


@dataclass(frozen=True)
class _PaymentRead:
    """A payments row's values as read: what is None could not be read (the row has an error then)."""

    seat: Membership | None
    day: dt.date | None
    amount: Decimal | None
    method: str | None
    reference: str  # as it is booked
    file_reference: str  # as the file gives it


def _payment_row_read(
    row: SheetRow,
    *,
    season: Season,
    day: dt.date | None,
    seats: dict[str, Membership],
    by_name: dict[str, list[Membership]],
    answers: dict[str, str],
) -> _PaymentRead:
    """The row's member, date, amount, method and reference, each problem a row error."""
    v = row.values
    seat, why = _seat_find(v.get("member", ""), seats=seats, by_name=by_name)
    if seat is None:
        row.errors.append(why or f"member {v.get('member')!r} holds no seat in {season}.")
    if not v.get("date"):
        row.errors.append("date is missing.")
    if day and not season.start <= day <= season.end:
        row.errors.append(f"date {day} is outside {season}.")
    amount = None
    try:
        amount = parse_money(v.get("amount", ""))
        if amount <= 0:
            row.errors.append("amount must be more than zero.")
        elif amount >= PAYMENT_LIMIT:
            row.errors.append(f"amount must be less than {PAYMENT_LIMIT:,}.")
    except ValueError as exc:
        row.errors.append(str(exc) + ".")
    word = v["method_word"] = " ".join(v.get("method", "").split())
    method = method_read(word=word, answers=answers)
    v["check_number"] = method_check_number(word=word) if method == "check" else ""
    if not word:
        row.errors.append("method is missing: cash or check.")
    elif method is None and not row.skipped:
        row.ask = word
    file_reference = " ".join(v.get("reference", "").split())
    reference = v["reference"] = method_reference(word=word, reference=file_reference)
    _lengths(row, Payment, ("reference",))
    return _PaymentRead(seat, day, amount, method, reference, file_reference)


def _payment_row_booking(
    row: SheetRow,
    *,
    seat: Membership,
    day: dt.date,
    amount: Decimal,
    method: str,
    reference: str,
    file_reference: str,
    in_file: dict[PaymentKey, int],
    recorded: Counter[PaymentKey],
    recorded_by: dict[PaymentKey, list[str]],
    options: SheetOptions,
    closed: set[dt.date],
    today: dt.date,
    start: dt.date | None,
) -> None:
    """Whether a readable row is booked, and what confirming does with it: a row like another in the file is
    flagged; one matching a payment recorded already is not booked unless ticked; one booked follows the rules
    of a payment recorded by hand."""
    row.values["member"], row.values["method"] = seat.person.key, method
    same = payment_key(membership_id=seat.pk, date=day, amount=amount, method=method, reference=reference)
    if same in in_file:
        row.warnings.append(f"Same member, date, amount, method and reference as line {in_file[same]}.")
    in_file.setdefault(same, row.line)
    # A row matching a recorded payment (by the file's reference, or the one it is booked with) is not
    # booked again unless ticked; two identical rows match two recorded payments (SPEC §16.10), each named by
    # when and by whom it was recorded (SPEC §17.5).
    when = ""
    for ref in dict.fromkeys((reference, file_reference)):
        key = payment_key(membership_id=seat.pk, date=day, amount=amount, method=method, reference=ref)
        if recorded[key] > 0:
            recorded[key] -= 1
            names = recorded_by.get(key) or [""]
            when = names.pop(0)
            row.recorded = True
            row.book = row.line in options.record
            break
    if row.book:
        # The rules a payment recorded by hand follows (season limit, not after today, no closed month).
        problem = payment_line_problem(
            line=PaymentLine(membership=seat, date=day, amount=amount, method=method),
            closed=closed,
            today=today,
            start=start,
        )
        if problem:
            row.errors.append(problem)
            return
    number = row.values.get("check_number", "")
    what = (
        f"payment of {amount} from {seat.person.key} on {day} ({method}{' ' + reference if reference else ''}"
        + (f", check no. {number}" if number and number not in reference else "")
        + ")"
    )
    if row.recorded and not row.book:
        row.action = (
            f"Nothing: already recorded{' ' + when if when else ''} ({what}); tick to record it again"
        )
    elif row.recorded:
        row.action = f"Record again: {what}"
    else:
        row.action = what[0].upper() + what[1:]


def _payments_notices(*, rows: list[SheetRow], asks: dict[str, list[int]]) -> list[str]:
    """The questions the preview asks (payment methods not known) and the rows recorded already."""
    notices = []
    if asks:
        notices.append(
            "Choose how to book each payment method the app does not know ("
            + ", ".join(f"{w!r} on {len(lines)} row(s)" for w, lines in asks.items())
            + "): cash (the cash box) or check (the checking account), or skip those rows."
        )
    skipped = [r.line for r in rows if r.skipped]
    if skipped:
        notices.append(
            f"{len(skipped)} row(s) skipped (line {', '.join(map(str, skipped))}): nothing is booked for them."
        )
    if any(r.recorded for r in rows):
        notices.append(
            f"{sum(1 for r in rows if r.recorded)} row(s) match a payment recorded already (member, date, amount, "
            "method and reference) and are not booked again unless ticked."
        )
    return notices


def payments_sheet_read(*, text: str, season: Season, options: SheetOptions | None = None) -> Sheet:
    options = options or SheetOptions()
    answers = dict(options.methods)
    rows, problems, ignored = _read_csv(text, kind="payments", required=PAYMENT_REQUIRED)
    notices: list[str] = []
    days = _dates_read(rows, "date", problems, notices)
    seats = {
        m.person.key: m for m in Membership.objects.filter(season=season).select_related("person", "season")
    }
    by_name: dict[str, list[Membership]] = {}
    for held in seats.values():
        by_name.setdefault(name_compare_form(held.person.first_name, held.person.last_name), []).append(held)
    recorded = payments_recorded(membership_ids=[m.pk for m in seats.values()]) if seats else Counter()
    recorded_by = payments_recorded_by(membership_ids=[m.pk for m in seats.values()]) if seats else {}
    closed, today, start = closed_months(), club_today(), books_start_day()
    in_file: dict[PaymentKey, int] = {}
    asks: dict[str, list[int]] = {}
    words: dict[str, str] = {}
    for row in rows:
        word = " ".join(row.values.get("method", "").split())
        row.skipped = row.line in options.skip or (
            bool(word) and answers.get(method_word_form(word)) == "skip"
        )
        read = _payment_row_read(
            row, season=season, day=days.get(row.line), seats=seats, by_name=by_name, answers=answers
        )
        if row.ask:
            asks.setdefault(word, []).append(row.line)
        if word and method_read(word=word) is None:
            words.setdefault(method_word_form(word), word)
        seat, day, amount, method = read.seat, read.day, read.amount, read.method
        if row.skipped:
            row.book = False
            row.action = "Skipped: nothing is booked for this row"
            continue
        if row.errors or seat is None or day is None or amount is None or method is None:
            continue
        _payment_row_booking(
            row,
            seat=seat,
            day=day,
            amount=amount,
            method=method,
            reference=read.reference,
            file_reference=read.file_reference,
            in_file=in_file,
            recorded=recorded,
            recorded_by=recorded_by,
            options=options,
            closed=closed,
            today=today,
            start=start,
        )
    notices += _payments_notices(rows=rows, asks=asks)
    return Sheet(
        kind="payments",
        rows=rows,
        errors=problems,
        notices=notices,
        ignored=ignored,
        asks=asks,
        options=options,
        choices=sorted((word, form, answers.get(form, "")) for form, word in words.items()),
    )


@transaction.atomic
def members_sheet_write(
    *, text: str, season: Season, actor: Actor, options: SheetOptions | None = None
) -> int:
    """Every row or none, checked again as in the preview; written in bulk (thousands of rows in seconds)."""
    sheet = members_sheet_read(text=text, season=season, options=options)
    if not sheet.ok:
        raise NcpcError(f"Nothing was imported: the file has {sheet.error_count} problem(s).")
    lines = [
        RosterLine(
            key=row.values["key"],
            first_name=row.values["first_name"],
            last_name=row.values["last_name"],
            date_of_birth=(
                dt.date.fromisoformat(row.values["date_of_birth"])
                if row.values.get("date_of_birth")
                else None
            ),
            first_event=int(row.values.get("first_event") or 1),
            email=row.values.get("email", ""),
            phone=row.values.get("phone", ""),
            address=row.values.get("address", ""),
            sponsor=row.values.get("sponsor", ""),
            age_declared=not row.values.get("date_of_birth"),
        )
        for row in sheet.rows
    ]
    return len(roster_import(season=season, lines=lines, actor=actor, source="a members spreadsheet"))


@transaction.atomic
def payments_sheet_write(
    *, text: str, season: Season, actor: Actor, options: SheetOptions | None = None
) -> int:
    """Every row to book or none, checked again as in the preview; payments recorded already are left out
    unless ticked, and rows skipped; written in bulk (thousands of rows in seconds). Returns the payments
    booked."""
    return payments_sheet_book(text=text, season=season, actor=actor, options=options).rows


@dataclass(frozen=True)
class SheetBooked:
    """What confirming a file wrote: its rows written, rows left out as recorded already, lines skipped."""

    rows: int
    recorded: int = 0
    skipped: tuple[int, ...] = ()


@transaction.atomic
def payments_sheet_book(
    *, text: str, season: Season, actor: Actor, options: SheetOptions | None = None
) -> SheetBooked:
    """``payments_sheet_write``, how many rows were left out as recorded already (not ticked), and the lines
    skipped (named in the audit). The season's row is locked before the file is read again (SPEC §17.5): two
    uploads of one file confirmed at once (two tabs, two officers) take turns, and the second finds the first
    one's payments recorded and books none of those rows."""
    Season.objects.select_for_update().filter(pk=season.pk).first()
    sheet = payments_sheet_read(text=text, season=season, options=options)
    if not sheet.ok:
        raise NcpcError(f"Nothing was imported: the file has {sheet.error_count} problem(s) or question(s).")
    seats = {
        m.person.key: m for m in Membership.objects.filter(season=season).select_related("person", "season")
    }
    lines = [
        PaymentLine(
            membership=seats[row.values["member"]],
            date=dt.date.fromisoformat(row.values["date"]),
            amount=parse_money(row.values["amount"]),
            method=row.values["method"],
            reference=row.values.get("reference", ""),
            line=row.line,
            check_number=row.values.get("check_number", ""),
        )
        for row in sheet.rows
        if row.book and not row.skipped
    ]
    booked = payments_record_many(
        lines=lines, actor=actor, source="a payments spreadsheet", skipped=sheet.skipped
    )
    return SheetBooked(
        rows=len(booked),
        recorded=sum(1 for row in sheet.rows if row.recorded and not row.book),
        skipped=tuple(sheet.skipped),
    )


def members_sheet_book(
    *, text: str, season: Season, actor: Actor, options: SheetOptions | None = None
) -> SheetBooked:
    """``members_sheet_write`` as the confirmation calls it: the people written, none left out."""
    return SheetBooked(rows=members_sheet_write(text=text, season=season, actor=actor, options=options))


WRITERS = {"members": members_sheet_book, "payments": payments_sheet_book}


@dataclass(frozen=True)
class SheetConfirmed:
    upload: SheetImport
    already: bool  # confirmed before (a double click, or another tab): nothing more was written
    # Rows left out because their payment is recorded already (another upload of the file, confirmed first).
    recorded: int = 0
    skipped: tuple[int, ...] = ()  # lines the officer chose to skip: nothing was booked for them


def sheet_upload_keep(*, kind: str, season: Season, text: str, actor: Actor) -> SheetImport:
    """Keep a previewed file until it is confirmed (its token goes in the confirm form). Previews older than
    a day, never confirmed, are dropped."""
    user = actor_signed_in(actor)
    SheetImport.objects.filter(
        status=SheetImport.Status.PREVIEWED, created_at__lt=timezone.now() - dt.timedelta(days=1)
    ).delete()
    return SheetImport.objects.create(
        token=secrets.token_hex(16), kind=kind, season_name=season.name, text=text, created_by=user
    )


def sheet_options(
    *,
    tidy: bool = False,
    methods: dict[str, str] | None = None,
    record: Collection[int] = (),
    adult: bool = False,
    different: Collection[int] = (),
    skip: Collection[int] = (),
) -> SheetOptions:
    """The officer's choices as the preview's form sends them: method answers other than cash, check or skip
    are dropped."""
    return SheetOptions(
        tidy=tidy,
        methods=tuple(
            sorted(
                (method_word_form(w), m) for w, m in (methods or {}).items() if m in ("cash", "check", "skip")
            )
        ),
        record=frozenset(record),
        adult=adult,
        different=frozenset(different),
        skip=frozenset(skip),
    )


def sheet_upload_kept(*, token: str, kinds: Collection[str], actor: Actor) -> tuple[SheetImport, Season]:
    """A previewed file not yet confirmed, for the preview again with the officer's choices."""
    user = actor_signed_in(actor)
    upload = SheetImport.objects.filter(
        token=token, created_by=user, status=SheetImport.Status.PREVIEWED
    ).first()
    season = Season.objects.filter(name=upload.season_name).first() if upload else None
    if upload is None or upload.kind not in kinds or season is None:
        raise NcpcError("That preview is no longer kept: upload the file again.")
    return upload, season


@transaction.atomic
def sheet_confirm(
    *, token: str, kinds: Collection[str], actor: Actor, options: SheetOptions | None = None
) -> SheetConfirmed:
    """Import a previewed file once, with the choices made at its preview. The upload's row is locked first: a
    second confirmation (double click, two tabs, a retry) waits for the first and then finds it imported, and
    gets the first one's result."""
    user = actor_signed_in(actor)
    upload = SheetImport.objects.select_for_update().filter(token=token, created_by=user).first()
    if upload is None or upload.kind not in kinds:
        raise NcpcError("Nothing to confirm: upload the file again.")
    if upload.status == SheetImport.Status.IMPORTED:
        return SheetConfirmed(upload=upload, already=True)
    season = Season.objects.filter(name=upload.season_name).first()
    if season is None:
        raise NcpcError("That season no longer exists.")
    booked = WRITERS[upload.kind](text=upload.text, season=season, actor=actor, options=options)
    upload.rows = booked.rows
    upload.status = SheetImport.Status.IMPORTED
    upload.imported_at = timezone.now()
    upload.text = ""  # written now: the rows are in the database
    upload.save(update_fields=["rows", "status", "imported_at", "text"])
    return SheetConfirmed(upload=upload, already=False, recorded=booked.recorded, skipped=booked.skipped)
