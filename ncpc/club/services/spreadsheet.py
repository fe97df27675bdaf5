"""Bringing the club's spreadsheets in: members and payments from CSV files (issue 8).

Reading is pure (CSV text in, rows and per-line errors out); writing goes through the members and finance
services, all rows or none.

Members CSV columns (header row required; order free): ``key, first_name, last_name, email, phone, address,
date_of_birth`` (YYYY-MM-DD) and optionally ``first_event`` (default 1). Each row becomes a person (the key
names the same person across seasons) holding a seat in the chosen season: the club's existing roster, so no
admission vote is recorded; the Vice President still records each rules signature.

Payments CSV columns: ``member`` (key), ``date`` (YYYY-MM-DD), ``amount`` (like 110.00), ``method`` (cash or
check) and optionally ``reference``.
"""

import csv
import datetime as dt
import io
import secrets
from collections.abc import Collection
from dataclasses import dataclass, field
from decimal import Decimal

from django.db import models, transaction
from django.utils import timezone

from events.models import Season
from events.selectors import season_rules
from finance.models import Payment
from finance.services.ledger import books_start_day
from finance.services.payments_import import (
    PaymentLine,
    closed_months,
    payment_line_problem,
    payments_record_many,
)
from members.models import Membership, Person
from members.services.admission import age_on
from members.services.people import date_of_birth_problem
from members.services.roster_import import RosterLine, roster_import
from ncpc.club.services.season_file import KEY_RE
from ncpc.core.audit import Actor, actor_signed_in
from ncpc.core.clock import club_today
from ncpc.core.errors import NcpcError
from ncpc.core.mail import email_problem
from ncpc.core.models import SheetImport
from ncpc.core.money import parse_money

MAX_BYTES = 1_000_000
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
)
MEMBER_REQUIRED = ("key", "first_name", "last_name", "date_of_birth")
# The longest text each members column may hold (the person's fields).
PAYMENT_COLUMNS = ("member", "date", "amount", "method", "reference")
PAYMENT_REQUIRED = ("member", "date", "amount", "method")


@dataclass
class SheetRow:
    line: int
    values: dict[str, str]
    errors: list[str] = field(default_factory=list)
    action: str = ""  # what confirming will do with this row


@dataclass
class Sheet:
    kind: str  # "members" or "payments"
    rows: list[SheetRow]
    errors: list[str]  # problems with the file as a whole

    @property
    def ok(self) -> bool:
        return not self.errors and all(not r.errors for r in self.rows) and bool(self.rows)

    @property
    def error_count(self) -> int:
        return len(self.errors) + sum(len(r.errors) for r in self.rows)


def _read_csv(
    text: str, *, columns: tuple[str, ...], required: tuple[str, ...]
) -> tuple[list[SheetRow], list[str]]:
    if len(text.encode("utf-8")) > MAX_BYTES:
        return [], [f"The file is larger than {MAX_BYTES // 1000} KB; split it."]
    reader = csv.DictReader(io.StringIO(text.lstrip("\ufeff")))
    try:
        return _read_rows(reader, columns=columns, required=required)
    except csv.Error as exc:  # e.g. a cell longer than the csv module's field limit (131,072 characters)
        return [], [f"The file is not a CSV table the app can read (line {reader.line_num}: {exc})."]


def _read_rows(
    reader: csv.DictReader, *, columns: tuple[str, ...], required: tuple[str, ...]
) -> tuple[list[SheetRow], list[str]]:
    header = [h.strip().lower() for h in (reader.fieldnames or [])]
    missing = [c for c in required if c not in header]
    if missing:
        return [], [
            f"The header row must name the columns {', '.join(required)}; missing: {', '.join(missing)}."
        ]
    unknown = [h for h in header if h and h not in columns]
    problems = [f"Unknown column(s): {', '.join(unknown)}. Known: {', '.join(columns)}."] if unknown else []
    reader.fieldnames = header
    rows = []
    for number, raw in enumerate(reader, start=2):
        values = {k: (v or "").strip() for k, v in raw.items() if k in columns}
        if not any(values.values()):
            continue
        rows.append(SheetRow(line=number, values=values))
    if not rows and not problems:
        problems.append("The file has no rows below the header.")
    return rows, problems


def _lengths(row: SheetRow, model: type[models.Model], names: tuple[str, ...]) -> None:
    """Cells longer than the field that stores them are refused here, not by the database at confirm."""
    for name in names:
        limit = getattr(model._meta.get_field(name), "max_length", None)
        if limit and len(row.values.get(name, "")) > limit:
            row.errors.append(f"{name} is longer than {limit} characters.")


def _date(row: SheetRow, name: str) -> dt.date | None:
    text = row.values.get(name, "")
    try:
        return dt.date.fromisoformat(text)
    except ValueError:
        row.errors.append(f"{name} {text!r} is not a date like 2026-08-22.")
        return None


def members_sheet_read(*, text: str, season: Season) -> Sheet:
    rules = season_rules(season)
    rows, problems = _read_csv(text, columns=MEMBER_COLUMNS, required=MEMBER_REQUIRED)
    seen: dict[str, int] = {}
    seated = set(Membership.objects.filter(season=season).values_list("person__key", flat=True))
    existing = set(Person.objects.values_list("key", flat=True))
    for row in rows:
        v = row.values
        key = v.get("key", "").lower()
        v["key"] = key
        if not KEY_RE.match(key):
            row.errors.append(f"key {key!r} must be lower-case letters, digits, - or _.")
        elif key in seen:
            row.errors.append(f"key {key!r} is also on line {seen[key]}.")
        else:
            seen[key] = row.line
        for name in ("first_name", "last_name"):
            if not v.get(name):
                row.errors.append(f"{name} is missing.")
        if v.get("email") and email_problem(v["email"]):
            row.errors.append(f"email {v['email']!r} is not a valid e-mail address.")
        born = _date(row, "date_of_birth")
        if born and (problem := date_of_birth_problem(born=born, on=club_today())):
            row.errors.append(problem)
        elif born and age_on(born=born, on=season.start) < rules.minimum_age:
            row.errors.append(f"born {born}: under {rules.minimum_age} when the season starts.")
        _lengths(row, Person, ("key", "first_name", "last_name", "email", "phone", "address"))
        first = v.get("first_event") or "1"
        if not (first.isascii() and first.isdigit()) or not 1 <= int(first) <= rules.events_per_season:
            row.errors.append(f"first_event {first!r} must be a number from 1 to {rules.events_per_season}.")
        if key in seated:
            row.errors.append(f"{key!r} already holds a seat in {season}.")
        if not row.errors:
            row.action = ("Seat for existing person " if key in existing else "New person and seat ") + key
    total = len(seated) + sum(1 for r in rows if not r.errors)
    if total > rules.max_members:
        problems.append(f"{total} seats would be held in {season}; the club allows {rules.max_members}.")
    return Sheet(kind="members", rows=rows, errors=problems)


def payments_sheet_read(*, text: str, season: Season) -> Sheet:
    rows, problems = _read_csv(text, columns=PAYMENT_COLUMNS, required=PAYMENT_REQUIRED)
    seats = {
        m.person.key: m for m in Membership.objects.filter(season=season).select_related("person", "season")
    }
    closed, start = closed_months(), books_start_day()
    for row in rows:
        v = row.values
        if v.get("member") not in seats:
            row.errors.append(f"member {v.get('member')!r} holds no seat in {season}.")
        day = _date(row, "date")
        if day and not season.start <= day <= season.end:
            row.errors.append(f"date {day} is outside {season}.")
        try:
            amount = parse_money(v.get("amount", ""))
            if amount <= 0:
                row.errors.append("amount must be more than zero.")
            elif amount >= PAYMENT_LIMIT:
                row.errors.append(f"amount must be less than {PAYMENT_LIMIT:,}.")
        except ValueError as exc:
            row.errors.append(str(exc) + ".")
        _lengths(row, Payment, ("reference",))
        if v.get("method", "").lower() not in ("cash", "check"):
            row.errors.append(f"method {v.get('method')!r} must be cash or check.")
        if not row.errors and day is not None:
            # The rules a payment recorded by hand follows (season limit, not after today, no closed month).
            problem = payment_line_problem(
                line=PaymentLine(
                    membership=seats[v["member"]],
                    date=day,
                    amount=amount,
                    method=v["method"].lower(),
                ),
                closed=closed,
                start=start,
            )
            if problem:
                row.errors.append(problem)
        if not row.errors:
            row.action = f"Payment of {v['amount']} from {v['member']} on {v['date']}"
    return Sheet(kind="payments", rows=rows, errors=problems)


@transaction.atomic
def members_sheet_write(*, text: str, season: Season, actor: Actor) -> int:
    """Every row or none, checked again as in the preview; written in bulk (thousands of rows in seconds)."""
    sheet = members_sheet_read(text=text, season=season)
    if not sheet.ok:
        raise NcpcError(f"Nothing was imported: the file has {sheet.error_count} problem(s).")
    lines = [
        RosterLine(
            key=row.values["key"],
            first_name=row.values["first_name"],
            last_name=row.values["last_name"],
            date_of_birth=dt.date.fromisoformat(row.values["date_of_birth"]),
            first_event=int(row.values.get("first_event") or 1),
            email=row.values.get("email", ""),
            phone=row.values.get("phone", ""),
            address=row.values.get("address", ""),
        )
        for row in sheet.rows
    ]
    return len(roster_import(season=season, lines=lines, actor=actor, source="a members spreadsheet"))


@transaction.atomic
def payments_sheet_write(*, text: str, season: Season, actor: Actor) -> int:
    """Every row or none, checked again as in the preview; written in bulk (thousands of rows in seconds)."""
    sheet = payments_sheet_read(text=text, season=season)
    if not sheet.ok:
        raise NcpcError(f"Nothing was imported: the file has {sheet.error_count} problem(s).")
    seats = {
        m.person.key: m for m in Membership.objects.filter(season=season).select_related("person", "season")
    }
    lines = [
        PaymentLine(
            membership=seats[row.values["member"]],
            date=dt.date.fromisoformat(row.values["date"]),
            amount=parse_money(row.values["amount"]),
            method=row.values["method"].lower(),
            reference=row.values.get("reference", ""),
            line=row.line,
        )
        for row in sheet.rows
    ]
    return len(payments_record_many(lines=lines, actor=actor, source="a payments spreadsheet"))


WRITERS = {"members": members_sheet_write, "payments": payments_sheet_write}


@dataclass(frozen=True)
class SheetConfirmed:
    upload: SheetImport
    already: bool  # confirmed before (a double click, or another tab): nothing more was written


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


@transaction.atomic
def sheet_confirm(*, token: str, kinds: Collection[str], actor: Actor) -> SheetConfirmed:
    """Import a previewed file once. The upload's row is locked first: a second confirmation (double click,
    two tabs, a retry) waits for the first and then finds it imported, and gets the first one's result."""
    user = actor_signed_in(actor)
    upload = SheetImport.objects.select_for_update().filter(token=token, created_by=user).first()
    if upload is None or upload.kind not in kinds:
        raise NcpcError("Nothing to confirm: upload the file again.")
    if upload.status == SheetImport.Status.IMPORTED:
        return SheetConfirmed(upload=upload, already=True)
    season = Season.objects.filter(name=upload.season_name).first()
    if season is None:
        raise NcpcError("That season no longer exists.")
    upload.rows = WRITERS[upload.kind](text=upload.text, season=season, actor=actor)
    upload.status = SheetImport.Status.IMPORTED
    upload.imported_at = timezone.now()
    upload.text = ""  # written now: the rows are in the database
    upload.save(update_fields=["rows", "status", "imported_at", "text"])
    return SheetConfirmed(upload=upload, already=False)
