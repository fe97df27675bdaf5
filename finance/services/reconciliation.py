"""The books against the bank (SPEC §17.4): the bank's transaction file of a month (OFX/QFX, or CSV with its
columns mapped once), each bank line matched to a posting of the account, the rest listed on both sides, and
the month's reconciliation: the statement's closing balance against the books' balance less the items not yet
cleared (checks outstanding, deposits in transit), or the difference the Treasurer recorded with a reason.

The file readers and the matching rule are pure (``ofx_read``, ``csv_read``, ``bank_matches``); the reads
(``reconciliation_read``, ``reconciliation_close_problems``) and the commands (``bank_file_import``,
``bank_line_match``, ``bank_line_unmatch``, ``statement_balance_record``, ``difference_record``) use the ORM.

This module does not import ``finance.services.ledger``: ``finance.services.month_closing.month_close`` asks it
whether a month's bank accounts are reconciled.
"""

import csv
import datetime as dt
import hashlib
import io
import logging
import re
import unicodedata
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation

from django.db import IntegrityError, transaction
from django.db.models import Sum

from finance.models import (
    Account,
    BankCsvColumns,
    BankImport,
    BankLine,
    BankReconciliation,
    BankStatement,
    ClosedMonth,
    Entry,
    Transaction,
)
from finance.services.opening import EARLIEST
from ncpc.core.audit import Actor, actor_signed_in, audit_record
from ncpc.core.clock import club_today
from ncpc.core.errors import NcpcError
from ncpc.core.money import ZERO, money_display, parse_money, quantize
from ncpc.core.results import Booked
from ncpc.core.text import DIRECTION_CONTROLS

# ofxtools logs every element it converts at INFO: a line per tag of every file, in the server's log.
logging.getLogger("ofxtools").setLevel(logging.WARNING)

# The club's accounts held at a bank (the cash box is counted, not reconciled).
BANK_ACCOUNT_CODES = (Account.CHECKING, Account.ESCROW)
# SPEC §17.4: a bank line and a posting of the same amount match when their dates are at most this far apart.
MATCH_DAYS = 5
# The largest bank file read (a month of a club's account is a few kilobytes).
FILE_MAX_BYTES = 2 * 1024 * 1024
# The largest amount a money column holds (numeric(12, 2)): a bank line or balance beyond it is a broken file.
BANK_AMOUNT_MAX = Decimal("9999999999.99")
# Postings that are the bank's own balance (the opening balance read from a statement): never outstanding.
_NEVER_OUTSTANDING = (Transaction.Kind.OPENING,)


class ReconciliationError(NcpcError):
    pass


class BankFileError(ReconciliationError):
    """The bank's file cannot be read (not OFX/QFX, a CSV without the mapped columns, a bad date or amount)."""


# --- pure: reading the bank's files ---


@dataclass(frozen=True)
class BankRow:
    """One line of the bank's file: money in (positive) or out (negative) of the account."""

    date: dt.date
    amount: Decimal
    check_number: str = ""
    description: str = ""
    bank_id: str = ""


@dataclass(frozen=True)
class BankFile:
    rows: tuple[BankRow, ...]
    # The balance the bank gives at the end of the file (OFX LEDGERBAL), when it gives one.
    closing_balance: Decimal | None = None
    closing_date: dt.date | None = None


@dataclass(frozen=True)
class CsvColumns:
    """Which column of the bank's CSV holds what (SPEC §17.4: mapped once per account, remembered)."""

    date: str
    amount: str
    description: str = ""
    check_number: str = ""
    date_format: str = "%m/%d/%Y"


_CHECK_NUMBER = re.compile(
    r"^\s*(?:(?:check|cheque|chk|ck)\.?\s*)?(?:no\.?|number|#)?\s*#?\s*(\d{1,20})\s*$", re.I
)


def check_number_from(text: str) -> str:
    """The check number in a reference as people write it ("1043", "#1043", "Chk #1043", "Check no. 1043"), or
    "" when the text is something else (a note, a receipt). Pure."""
    match = _CHECK_NUMBER.match(text or "")
    return match[1].lstrip("0") or "0" if match else ""


def _text(value: object, limit: int) -> str:
    """The bank's words on one line, without the characters a page or the database cannot take as they are:
    a control character (PostgreSQL refuses a NUL) or a direction control (it turns round the lines after it)."""
    words = " ".join(str(value or "").split())
    shown = "".join(c for c in words if c not in DIRECTION_CONTROLS and unicodedata.category(c) != "Cc")
    return shown[:limit]


def _bank_amount(value: object, *, where: str) -> Decimal:
    """An amount of the bank's file to the cent, or a BankFileError naming the line when it is none the books
    could hold (NaN, Infinity, 1E+30, more than ten digits of dollars)."""
    try:
        amount = quantize(Decimal(str(value)))
    except (InvalidOperation, ValueError):
        amount = None
    if amount is None or not amount.is_finite() or abs(amount) > BANK_AMOUNT_MAX:
        raise BankFileError(f"{where}: {str(value)[:40]!r} is not an amount of money.", field="file")
    return amount


def ofx_read(*, data: bytes) -> BankFile:
    """The lines of an OFX or QFX file (``ofxtools``): date posted, amount, check number, payee and memo, and
    the bank's id of each line (FITID); the ledger balance when the file gives one. One account per file."""
    # Imported here, not at the top: the parser loads its whole OFX schema, which only this command needs.
    from ofxtools.models import CCSTMTRS, STMTRS
    from ofxtools.Parser import OFXTree

    tree = OFXTree()
    try:
        tree.parse(io.BytesIO(data))
        ofx = tree.convert()
        statements = list(ofx.statements)
    except Exception as exc:  # ofxtools raises many kinds (header, SGML, schema) for a file it cannot read
        raise BankFileError(
            f"This is not an OFX or QFX file the app can read ({type(exc).__name__}). Download the month's "
            "transactions from the bank again as OFX, QFX or CSV."
        ) from None
    if len(statements) != 1:
        raise BankFileError(
            f"The file holds {len(statements)} account statements; download one account's transactions at a time."
        )
    statement = statements[0]
    if not isinstance(statement, (STMTRS, CCSTMTRS)):
        raise BankFileError(
            "The file is an investment account's statement, not a bank account's: download the bank account's "
            "transactions as OFX, QFX or CSV.",
            field="file",
        )
    rows: list[BankRow] = []
    by_id: dict[str, BankRow] = {}
    # A month with no line has no transaction list at all: only its balance.
    for trn in statement.transactions or ():
        if trn.trnamt is None or trn.dtposted is None:
            continue
        amount = _bank_amount(trn.trnamt, where=f"The line {str(trn.fitid)[:40]!r}")
        if amount == 0:
            continue
        words = [w for w in (trn.name, trn.memo) if w]
        row = BankRow(
            date=trn.dtposted.date(),
            amount=amount,
            check_number=check_number_from(str(trn.checknum or "")),
            description=_text(" · ".join(dict.fromkeys(str(w) for w in words)), 200),
            bank_id=_text(f"ofx:{trn.fitid}", 255),
        )
        # The bank's id names one line: the same line twice is kept once, two different lines under one id
        # cannot both be kept (nor one chosen).
        seen = by_id.setdefault(row.bank_id, row)
        if seen is not row:
            if seen != row:
                raise BankFileError(
                    f"The file gives two different lines the same bank id {str(trn.fitid)[:40]!r}; download "
                    "the month's transactions from the bank again.",
                    field="file",
                )
            continue
        rows.append(row)
    ledger = getattr(statement, "ledgerbal", None)
    closing = (
        _bank_amount(ledger.balamt, where="The closing balance")
        if ledger is not None and ledger.balamt is not None
        else None
    )
    closing_date = ledger.dtasof.date() if ledger is not None and ledger.dtasof is not None else None
    return BankFile(rows=tuple(rows), closing_balance=closing, closing_date=closing_date)


def csv_headers(*, data: bytes) -> list[str]:
    """The column names of a CSV file (its first row), for the mapping form."""
    reader = csv.reader(io.StringIO(_csv_text(data)))
    try:
        return [h.strip() for h in next(reader, [])]
    except csv.Error as exc:
        raise BankFileError(f"This is not a CSV file the app can read ({exc}).", field="file") from None


def _csv_text(data: bytes) -> str:
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("cp1252", errors="replace")


def _csv_amount(text: str) -> Decimal:
    """An amount as banks write it in a CSV: 1,234.50, -120.00, (120.00), $120.00."""
    cleaned = text.strip()
    negative = cleaned.startswith("(") and cleaned.endswith(")")
    if negative:
        cleaned = cleaned[1:-1]
    amount = parse_money(cleaned.replace("$-", "-$"))
    return -amount if negative else amount


def csv_read(*, data: bytes, columns: CsvColumns) -> BankFile:
    """The lines of a bank's CSV file with its columns mapped: the date (in ``columns.date_format``), the signed
    amount, and optionally a description and a check number. Two equal rows stay two lines."""
    try:
        return _csv_rows(text=_csv_text(data), columns=columns)
    except csv.Error as exc:  # a field over the csv module's limit, a NUL in a quoted field, …
        raise BankFileError(f"This is not a CSV file the app can read ({exc}).", field="file") from None


def _csv_rows(*, text: str, columns: CsvColumns) -> BankFile:
    reader = csv.DictReader(io.StringIO(text))
    headers = [h.strip() for h in reader.fieldnames or []]
    reader.fieldnames = headers
    for name, what in ((columns.date, "date"), (columns.amount, "amount")):
        if name not in headers:
            raise BankFileError(
                f"The file has no column {name!r} for the {what} (its columns: {', '.join(headers) or 'none'})."
            )
    for name in (columns.description, columns.check_number):
        if name and name not in headers:
            raise BankFileError(f"The file has no column {name!r} (its columns: {', '.join(headers)}).")
    rows: list[BankRow] = []
    seen: Counter[tuple] = Counter()
    for number, record in enumerate(reader, start=2):
        date_text = (record.get(columns.date) or "").strip()
        amount_text = (record.get(columns.amount) or "").strip()
        if not date_text and not amount_text:
            continue
        try:
            day = dt.datetime.strptime(date_text, columns.date_format).date()
        except ValueError:
            raise BankFileError(
                f"Line {number}: {date_text!r} is not a date written as {columns.date_format}."
            ) from None
        try:
            amount = _csv_amount(amount_text)
        except ValueError:
            raise BankFileError(f"Line {number}: {amount_text!r} is not an amount.") from None
        amount = _bank_amount(amount, where=f"Line {number}")
        if amount == 0:
            continue
        description = _text(record.get(columns.description), 200) if columns.description else ""
        check = check_number_from(record.get(columns.check_number) or "") if columns.check_number else ""
        same = (day, amount, check, description)
        seen[same] += 1
        digest = hashlib.sha256(repr((*same, seen[same])).encode()).hexdigest()[:40]
        rows.append(
            BankRow(
                date=day, amount=amount, check_number=check, description=description, bank_id=f"csv:{digest}"
            )
        )
    return BankFile(rows=tuple(rows))


# --- pure: the matching rule ---


@dataclass(frozen=True)
class Posting:
    """A posting of the account that a bank line may match: its entry, date, amount and check number."""

    entry_id: int
    date: dt.date
    amount: Decimal
    check_number: str = ""


@dataclass(frozen=True)
class LineToMatch:
    key: int
    date: dt.date
    amount: Decimal
    check_number: str = ""


def posting_fits(*, line: LineToMatch, posting: Posting) -> bool:
    """SPEC §17.4: the same amount; the same check number where both carry one; the dates at most five days
    apart. A check known by its number may clear later than that (a payee deposits it when he likes): with
    equal check numbers, only a line dated more than five days before the check was written is refused."""
    if line.amount != posting.amount:
        return False
    gap = (line.date - posting.date).days
    if line.check_number and posting.check_number:
        return line.check_number == posting.check_number and gap >= -MATCH_DAYS
    return abs(gap) <= MATCH_DAYS


def bank_matches(*, lines: Sequence[LineToMatch], postings: Sequence[Posting]) -> dict[int, int]:
    """Each line's posting (``line.key`` → ``entry_id``), one each way. A line with a check number is matched
    first to the posting of that number; then the lines in date order take the fitting posting of the
    nearest date (the earlier one on a tie). Pure."""
    free = list(postings)
    found: dict[int, int] = {}
    ordered = sorted(lines, key=lambda ln: (not ln.check_number, ln.date, ln.key))
    for line in ordered:
        fits = [p for p in free if posting_fits(line=line, posting=p)]
        if not fits:
            continue
        best = min(
            fits,
            key=lambda p: (
                not (line.check_number and p.check_number == line.check_number),
                abs((line.date - p.date).days),
                p.date,
                p.entry_id,
            ),
        )
        found[line.key] = best.entry_id
        free.remove(best)
    return found


# --- reads ---


def month_first(day: dt.date) -> dt.date:
    return day.replace(day=1)


def reconciliation_months(*, today: dt.date) -> tuple[dt.date, dt.date]:
    """Pure: the first and the last month whose reconciliation page opens: from January 2000 (where the
    statements and the reports start, ``EARLIEST``) to the month after ``today``'s, which may be looked at ahead
    (nothing is recorded for it until it begins)."""
    return month_first(EARLIEST), month_first(month_first(today) + dt.timedelta(days=32))


def month_last(first: dt.date) -> dt.date:
    return (first + dt.timedelta(days=32)).replace(day=1) - dt.timedelta(days=1)


@dataclass(frozen=True)
class OpenItem:
    """A posting of the account not yet cleared by the bank at the month's end."""

    entry_id: int
    transaction_id: int
    date: dt.date
    amount: Decimal
    memo: str
    check_number: str = ""


@dataclass(frozen=True)
class Reconciliation:
    account: Account
    month: dt.date
    end: dt.date
    book_balance: Decimal
    checks_outstanding: tuple[OpenItem, ...]
    deposits_in_transit: tuple[OpenItem, ...]
    matched: tuple[BankLine, ...]
    bank_only: tuple[BankLine, ...]  # the bank's lines of the month not matched to a posting
    statement_balance: Decimal | None
    record: BankReconciliation | None
    statement: BankStatement | None  # the current version of the month's statement
    imports: tuple[BankImport, ...] = field(default=())

    @property
    def outstanding_total(self) -> Decimal:
        return sum((i.amount for i in self.checks_outstanding), ZERO)

    @property
    def in_transit_total(self) -> Decimal:
        return sum((i.amount for i in self.deposits_in_transit), ZERO)

    @property
    def adjusted_balance(self) -> Decimal:
        """The books' balance less the items not yet cleared: what the statement should say."""
        return self.book_balance - self.in_transit_total - self.outstanding_total

    @property
    def difference(self) -> Decimal | None:
        """The statement's closing balance less the adjusted balance (None while the statement's is unknown)."""
        if self.statement_balance is None:
            return None
        return self.statement_balance - self.adjusted_balance

    @property
    def explained(self) -> bool:
        """A difference the Treasurer recorded with a reason, and it is still the difference."""
        return (
            self.record is not None
            and self.record.difference is not None
            and self.difference is not None
            and self.record.difference == self.difference
        )

    @property
    def agrees(self) -> bool:
        return self.difference == 0

    @property
    def started(self) -> bool:
        """Anything kept for the month: a statement, a bank file, a statement balance."""
        return bool(self.statement or self.imports or self.statement_balance is not None)

    @property
    def state(self) -> str:
        if self.statement_balance is None:
            return "no statement balance"
        if self.agrees:
            return "reconciled"
        return "difference explained" if self.explained else "not reconciled"


def _check_numbers(entry_ids: Iterable[int]) -> dict[int, str]:
    """The check number of each posting that has one: a check the club wrote, or a member's check paid in."""
    numbers: dict[int, str] = {}
    rows = Entry.objects.filter(pk__in=list(entry_ids)).values_list(
        "pk",
        "transaction__disbursement__check_number",
        "transaction__payment__check_number",
        "transaction__payment__method",
        "transaction__payment__reference",
    )
    for pk, written, paid, method, reference in rows:
        # A payment recorded before payments kept a check number: its reference, when it is one ("Chk #1043").
        by_reference = check_number_from(reference or "") if method == "check" else ""
        number = check_number_from(written or "") or check_number_from(paid or "") or by_reference
        if number:
            numbers[pk] = number
    return numbers


def reconciliation_started(*, account: Account) -> dt.date | None:
    """The first month with a bank file imported for the account: the postings before it were cleared in
    months nobody reconciled in the app, so they are never listed as outstanding (they may still be matched)."""
    return (
        BankImport.objects.filter(account=account).order_by("month").values_list("month", flat=True).first()
    )


def reconciliation_read(*, account: Account, month: dt.date) -> Reconciliation:
    """The account's month against the bank: the books' balance at the month's end, the postings not yet
    cleared then (dated in the month or before, since reconciling started, not matched to a bank line of the
    month or before), the bank's lines of the month, matched or not, and what the Treasurer recorded."""
    first = month_first(month)
    end = month_last(first)
    book = quantize(
        Entry.objects.filter(account=account, transaction__date__lte=end).aggregate(total=Sum("amount"))[
            "total"
        ]
    )
    started = reconciliation_started(account=account) or first
    open_rows = list(
        Entry.objects.filter(account=account, transaction__date__lte=end, transaction__date__gte=started)
        .exclude(transaction__kind__in=_NEVER_OUTSTANDING)
        .exclude(bank_line__date__lte=end)
        .values_list("pk", "transaction_id", "transaction__date", "amount", "transaction__memo")
        .order_by("transaction__date", "pk")
    )
    numbers = _check_numbers(row[0] for row in open_rows)
    items = [
        OpenItem(
            entry_id=pk,
            transaction_id=txn,
            date=day,
            amount=quantize(amount),
            memo=memo,
            check_number=numbers.get(pk, ""),
        )
        for pk, txn, day, amount, memo in open_rows
    ]
    lines = list(
        BankLine.objects.filter(account=account, month=first)
        .select_related("entry__transaction")
        .order_by("date", "pk")
    )
    record = BankReconciliation.objects.filter(account=account, month=first).first()
    statement = BankStatement.objects.filter(account=account, month=first).order_by("-version").first()
    return Reconciliation(
        account=account,
        month=first,
        end=end,
        book_balance=book,
        checks_outstanding=tuple(i for i in items if i.amount < 0),
        deposits_in_transit=tuple(i for i in items if i.amount > 0),
        matched=tuple(ln for ln in lines if ln.entry_id is not None),
        bank_only=tuple(ln for ln in lines if ln.entry_id is None),
        statement_balance=record.statement_balance if record is not None else None,
        record=record,
        statement=statement,
        imports=tuple(BankImport.objects.filter(account=account, month=first).order_by("imported_at", "pk")),
    )


def hand_match_choices(*, account: Account, line: BankLine) -> list[OpenItem]:
    """The postings a bank line may be matched to by hand: the account's postings not matched yet, of the same
    amount, dated by the month's end."""
    end = month_last(line.month)
    rows = list(
        Entry.objects.filter(
            account=account, amount=line.amount, transaction__date__lte=end, bank_line__isnull=True
        )
        .exclude(transaction__kind__in=_NEVER_OUTSTANDING)
        .values_list("pk", "transaction_id", "transaction__date", "amount", "transaction__memo")
        .order_by("-transaction__date", "-pk")[:50]
    )
    numbers = _check_numbers(row[0] for row in rows)
    return [
        OpenItem(
            entry_id=pk,
            transaction_id=t,
            date=d,
            amount=quantize(a),
            memo=m,
            check_number=numbers.get(pk, ""),
        )
        for pk, t, d, a, m in rows
    ]


def reconciliation_close_problems(*, month: dt.date) -> list[str]:
    """What stops the month from closing (SPEC §17.4), one sentence per bank account: an account with a
    statement or a bank file kept for the month closes only when the statement's closing balance equals the
    books' balance less the items not yet cleared, or the difference is recorded with a reason. An account
    with neither kept for the month asks nothing (the club did not reconcile it that month)."""
    first = month_first(month)
    problems = []
    kept = set(BankStatement.objects.filter(month=first).values_list("account__code", flat=True)) | set(
        BankImport.objects.filter(month=first).values_list("account__code", flat=True)
    )
    for account in Account.objects.filter(code__in=sorted(kept)).order_by("position", "pk"):
        rec = reconciliation_read(account=account, month=first)
        name = f"{account} for {first:%B %Y}"
        if rec.statement_balance is None:
            problems.append(
                f"{name} is not reconciled: enter the statement's closing balance on its reconciliation page."
            )
        elif not (rec.agrees or rec.explained):
            problems.append(
                f"{name} is not reconciled: the statement says {money_display(rec.statement_balance)}, the books "
                f"less the items not yet cleared {money_display(rec.adjusted_balance)} (difference "
                f"{money_display(rec.difference)}). Match the bank's lines, or record the difference with a reason."
            )
    return problems


# --- commands ---


def _bank_account(code: str) -> Account:
    """The bank account, locked: imports, matches and records of one account (and a month closing) wait for
    each other."""
    if code not in BANK_ACCOUNT_CODES:
        raise ReconciliationError("Pick a bank account: club checking or the WSOP escrow.", field="account")
    account = Account.objects.select_for_update().filter(code=code).first()
    if account is None:
        raise ReconciliationError("Nothing was ever posted to this account; there is nothing to reconcile.")
    return account


def _month_open(first: dt.date) -> None:
    """The month's reconciliation changes only while the month is open, and only once it has begun."""
    if first > month_first(club_today()):
        raise ReconciliationError(f"{first:%B %Y} has not begun.", field="month")
    if ClosedMonth.objects.filter(month__gte=first).exists():
        closed = (
            ClosedMonth.objects.filter(month__gte=first).order_by("month").values_list("month", flat=True)[0]
        )
        raise ReconciliationError(
            f"{closed:%B %Y} is closed (its report was presented): {first:%B %Y}'s reconciliation cannot change."
        )


def _file_format(name: str, data: bytes) -> str:
    head = data[:2048].lstrip().upper()
    if name.lower().endswith((".ofx", ".qfx")) or head.startswith((b"OFXHEADER", b"<?XML", b"<OFX")):
        return BankImport.Format.OFX
    return BankImport.Format.CSV


def csv_columns_remembered(*, account: Account) -> CsvColumns | None:
    saved = BankCsvColumns.objects.filter(account=account).first()
    if saved is None:
        return None
    return CsvColumns(
        date=saved.date,
        amount=saved.amount,
        description=saved.description,
        check_number=saved.check_number,
        date_format=saved.date_format,
    )


@dataclass(frozen=True)
class ImportResult:
    bank_import: BankImport
    added: int
    already: int  # lines imported before (the same file again, or an overlapping one)
    outside: int  # lines dated outside the month, left out
    matched: int


@transaction.atomic
def bank_file_import(
    *,
    code: str,
    month: dt.date,
    name: str,
    data: bytes,
    actor: Actor,
    columns: CsvColumns | None = None,
    once: str | None = None,
) -> Booked[ImportResult]:
    """Import the bank's file of an account's month: each line dated in the month is kept once (a line
    imported before, by the bank's id, is not added again), then matched to a posting of the account
    (``bank_matches``). An OFX file's ledger balance dated at the month's end becomes the statement's closing
    balance. ``columns``: the CSV's mapping, remembered for the account's next file."""
    if once and (replayed := _import_replayed(once=once)) is not None:
        return replayed
    first = month_first(month)
    account = _bank_account(code)
    _month_open(first)
    if once and (replayed := _import_replayed(once=once)) is not None:
        # A second click waited on the account's lock for the first: show the first.
        return replayed
    kind, bank_file = _bank_file_read(account=account, name=name, data=data, columns=columns)
    end = month_last(first)
    rows = [r for r in bank_file.rows if first <= r.date <= end]
    outside = len(bank_file.rows) - len(rows)
    if not rows and bank_file.closing_balance is None:
        raise BankFileError(f"The file has no lines dated in {first:%B %Y}.", field="file")
    try:
        with transaction.atomic():
            record = BankImport.objects.create(
                account=account,
                month=first,
                format=kind,
                file_name=_text(name, 200) or "bank file",
                form_key=once or None,
                imported_by=actor_signed_in(actor),
            )
    except IntegrityError:
        found = BankImport.objects.get(form_key=once)
        return Booked(ImportResult(found, found.lines_added, 0, 0, 0), replayed=True)
    new_lines = _bank_lines_add(record=record, account=account, first=first, rows=rows)
    record.lines_added = len(new_lines)
    record.save(update_fields=["lines_added"])
    matched = _lines_auto_match(account=account, first=first, actor=actor)
    if bank_file.closing_balance is not None and bank_file.closing_date is not None:
        if month_first(bank_file.closing_date) == first:
            _record_for(account=account, first=first, statement_balance=bank_file.closing_balance)
    _import_audit(
        actor=actor,
        record=record,
        added=len(new_lines),
        already=len(rows) - len(new_lines),
        outside=outside,
        matched=matched,
    )
    return Booked(ImportResult(record, len(new_lines), len(rows) - len(new_lines), outside, matched))


def _import_audit(
    *, actor: Actor, record: BankImport, added: int, already: int, outside: int, matched: int
) -> None:
    """The audit row of a bank file's import: what it added, what was seen before, what it matched."""
    account = record.account
    first = record.month
    audit_record(
        actor=actor,
        action="finance.bank.import",
        summary=(
            f"Imported {record.file_name} for {account}, {first:%B %Y}: {added} new lines, "
            f"{already} seen before, {matched} matched"
        ),
        target=record,
        data={
            "added": added,
            "already": already,
            "outside": outside,
            "matched": matched,
        },
    )


def _import_replayed(*, once: str) -> Booked[ImportResult] | None:
    """The import this form already made (the same click sent twice), shown again; None when there is none."""
    found = BankImport.objects.filter(form_key=once).first()
    if found is not None:
        return Booked(ImportResult(found, found.lines_added, 0, 0, 0), replayed=True)
    return None


def _bank_file_read(
    *, account: Account, name: str, data: bytes, columns: CsvColumns | None
) -> tuple[str, BankFile]:
    """The file's format and its lines; a CSV's column mapping is remembered for the account's next file."""
    if not data:
        raise BankFileError("The file is empty.", field="file")
    if len(data) > FILE_MAX_BYTES:
        raise BankFileError("The file is larger than 2 MB; download one month at a time.", field="file")
    kind = _file_format(name, data)
    if kind == BankImport.Format.OFX:
        bank_file = ofx_read(data=data)
    else:
        if columns is None:
            raise BankFileError("Say which columns of the CSV hold the date and the amount.", field="file")
        bank_file = csv_read(data=data, columns=columns)
        BankCsvColumns.objects.update_or_create(
            account=account,
            defaults={
                "date": columns.date,
                "amount": columns.amount,
                "description": columns.description,
                "check_number": columns.check_number,
                "date_format": columns.date_format,
            },
        )
    return kind, bank_file


def _bank_lines_add(
    *, record: BankImport, account: Account, first: dt.date, rows: list[BankRow]
) -> list[BankLine]:
    """The file's lines the account does not have yet (by the bank's id), added under this import."""
    known = set(
        BankLine.objects.filter(account=account, bank_id__in=[r.bank_id for r in rows]).values_list(
            "bank_id", flat=True
        )
    )
    fresh = [r for r in rows if r.bank_id not in known]
    new_lines = BankLine.objects.bulk_create(
        [
            BankLine(
                bank_import=record,
                account=account,
                month=first,
                date=r.date,
                amount=r.amount,
                check_number=r.check_number[:20],
                description=r.description,
                bank_id=r.bank_id,
            )
            for r in fresh
        ]
    )
    return new_lines


def _postings_to_match(*, account: Account, first: dt.date) -> list[Posting]:
    end = month_last(first)
    rows = list(
        Entry.objects.filter(
            account=account,
            bank_line__isnull=True,
            transaction__date__lte=end,
            transaction__date__gte=first - dt.timedelta(days=366),
        )
        .exclude(transaction__kind__in=_NEVER_OUTSTANDING)
        .values_list("pk", "transaction__date", "amount")
    )
    numbers = _check_numbers(pk for pk, _d, _a in rows)
    return [
        Posting(entry_id=pk, date=d, amount=quantize(a), check_number=numbers.get(pk, ""))
        for pk, d, a in rows
    ]


def _lines_auto_match(*, account: Account, first: dt.date, actor: Actor) -> int:
    lines = list(BankLine.objects.filter(account=account, month=first, entry__isnull=True))
    found = bank_matches(
        lines=[
            LineToMatch(key=ln.pk, date=ln.date, amount=ln.amount, check_number=ln.check_number)
            for ln in lines
        ],
        postings=_postings_to_match(account=account, first=first),
    )
    for line in lines:
        entry_id = found.get(line.pk)
        if entry_id is not None:
            line.entry_id = entry_id
            line.matched = BankLine.Matched.AUTO
            line.matched_by = actor_signed_in(actor)
            line.save(update_fields=["entry", "matched", "matched_by"])
    return len(found)


def _record_for(*, account: Account, first: dt.date, statement_balance: Decimal) -> BankReconciliation:
    record, _ = BankReconciliation.objects.update_or_create(
        account=account, month=first, defaults={"statement_balance": statement_balance}
    )
    return record


def _line_locked(*, line_id: int) -> BankLine:
    line = BankLine.objects.select_related("account").filter(pk=line_id).first()
    if line is None:
        raise ReconciliationError("No such bank line (reload the page).")
    _bank_account(line.account.code)
    _month_open(line.month)
    return BankLine.objects.select_for_update().select_related("account").get(pk=line_id)


@transaction.atomic
def bank_line_match(*, line_id: int, entry_id: int, actor: Actor) -> BankLine:
    """The Treasurer matches a bank line to a posting by hand: a posting of the same account and amount, not
    matched yet, dated by the end of the line's month."""
    line = _line_locked(line_id=line_id)
    if line.entry_id is not None:
        raise ReconciliationError("This bank line is matched already; undo that first.")
    entry = Entry.objects.filter(pk=entry_id, account=line.account).select_related("transaction").first()
    if entry is None:
        raise ReconciliationError("Pick a posting of this account.", field="entry")
    if entry.amount != line.amount:
        raise ReconciliationError(
            f"The posting is {money_display(entry.amount)}, the bank's line {money_display(line.amount)}: only "
            "the same amount matches. Record the difference with a reason instead.",
            field="entry",
        )
    if entry.transaction.date > month_last(line.month):
        raise ReconciliationError(
            f"The posting is dated {entry.transaction.date:%b %-d, %Y}, after {line.month:%B %Y}.",
            field="entry",
        )
    if BankLine.objects.filter(entry=entry).exists():
        raise ReconciliationError("That posting is matched to another bank line already.", field="entry")
    line.entry = entry
    line.matched = BankLine.Matched.HAND
    line.matched_by = actor_signed_in(actor)
    try:
        with transaction.atomic():
            line.save(update_fields=["entry", "matched", "matched_by"])
    except IntegrityError:
        raise ReconciliationError(
            "That posting is matched to another bank line already.", field="entry"
        ) from None
    audit_record(
        actor=actor,
        action="finance.bank.match",
        summary=f"Matched the bank's {line.date} {line.amount} to posting #{entry.transaction_id} by hand",
        target=line,
    )
    return line


@transaction.atomic
def bank_line_unmatch(*, line_id: int, actor: Actor) -> BankLine:
    """Undo a bank line's match while its month is open: it is listed again, and so is the posting."""
    line = _line_locked(line_id=line_id)
    if line.entry_id is None:
        return line
    txn = Entry.objects.filter(pk=line.entry_id).values_list("transaction_id", flat=True).first()
    line.entry = None
    line.matched = ""
    line.matched_by = None
    line.save(update_fields=["entry", "matched", "matched_by"])
    audit_record(
        actor=actor,
        action="finance.bank.unmatch",
        summary=f"Undid the match of the bank's {line.date} {line.amount} to posting #{txn}",
        target=line,
    )
    return line


@transaction.atomic
def statement_balance_record(
    *, code: str, month: dt.date, balance: Decimal, actor: Actor
) -> BankReconciliation:
    """The closing balance printed on the month's statement, typed by the Treasurer (an OFX file gives it)."""
    first = month_first(month)
    account = _bank_account(code)
    _month_open(first)
    if (
        not isinstance(balance, Decimal)
        or not balance.is_finite()
        or abs(balance) > BANK_AMOUNT_MAX
        or quantize(balance) != balance
    ):
        raise ReconciliationError("Write the balance in dollars and cents.", field="balance")
    record = _record_for(account=account, first=first, statement_balance=balance)
    audit_record(
        actor=actor,
        action="finance.bank.statement_balance",
        summary=f"Statement balance of {account} for {first:%B %Y}: {balance}",
        target=record,
    )
    return record


@transaction.atomic
def difference_record(*, code: str, month: dt.date, reason: str, actor: Actor) -> BankReconciliation:
    """The Treasurer records the month's difference between the statement and the books with a reason (SPEC
    §17.4): the month may then close, and the report shows the difference and the reason. Recorded as it is
    now: if the difference changes later (a match, a posting), it must be recorded again."""
    first = month_first(month)
    account = _bank_account(code)
    _month_open(first)
    reason = (reason or "").strip()
    if not reason:
        raise ReconciliationError("Say why the statement and the books differ.", field="reason")
    rec = reconciliation_read(account=account, month=first)
    if rec.difference is None or rec.record is None:
        raise ReconciliationError("Enter the statement's closing balance first.", field="reason")
    if rec.difference == 0:
        raise ReconciliationError("The statement and the books agree: there is no difference to record.")
    record = rec.record
    record.difference = rec.difference
    record.difference_reason = reason
    record.difference_by = actor_signed_in(actor)
    record.save(update_fields=["difference", "difference_reason", "difference_by", "updated_at"])
    audit_record(
        actor=actor,
        action="finance.bank.difference",
        summary=f"Recorded a difference of {rec.difference} for {account}, {first:%B %Y}",
        target=record,
        reason=reason,
    )
    return record


def reconciliations_of_month(*, month: dt.date) -> list[Reconciliation]:
    """The month's reconciliation of each bank account that has something kept for it (a statement, a bank
    file, a statement balance), for the monthly report: its state, and a difference with its reason. One
    query when nothing is kept."""
    first = month_first(month)
    ids = set(
        BankStatement.objects.filter(month=first)
        .order_by()
        .values_list("account_id", flat=True)
        .union(
            BankImport.objects.filter(month=first).order_by().values_list("account_id", flat=True),
            BankReconciliation.objects.filter(month=first, statement_balance__isnull=False)
            .order_by()
            .values_list("account_id", flat=True),
        )
    )
    if not ids:
        return []
    accounts = Account.objects.filter(pk__in=sorted(ids)).order_by("position", "pk")
    return [reconciliation_read(account=a, month=first) for a in accounts]
