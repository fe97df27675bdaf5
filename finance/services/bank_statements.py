"""The bank statements (bylaws §3.6.6, SPEC §17.3): the Treasurer keeps each month's statement of each bank
account, the bank's PDF, through Django's storage API (the file system by default, S3-compatible storage
through django-storages when configured); every logged-in member reads and downloads them. None is deleted:
a replacement is a new version, with its reason, audited."""

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass

from django.core.files.base import ContentFile
from django.db import IntegrityError, transaction

from finance.models import Account, BankStatement
from finance.services.opening import EARLIEST
from finance.services.reconciliation import BANK_ACCOUNT_CODES, month_first
from ncpc.core.audit import Actor, actor_signed_in, audit_record
from ncpc.core.clock import club_today
from ncpc.core.errors import NcpcError
from ncpc.core.results import Booked

# A bank's monthly statement is a few hundred kilobytes; this leaves room for scanned pages.
STATEMENT_MAX_BYTES = 20 * 1024 * 1024
REASON_MAX = 500


class BankStatementError(NcpcError):
    pass


def statement_problem(*, data: bytes) -> str | None:
    """Why the upload is not a statement the club keeps, or None: empty, too large, or not a PDF. Pure."""
    if not data:
        return "The file is empty."
    if len(data) > STATEMENT_MAX_BYTES:
        return "The file is larger than 20 MB."
    if not data[:1024].lstrip().startswith(b"%PDF-"):
        return "The statement must be the bank's PDF (this file is not a PDF)."
    return None


@transaction.atomic
def bank_statement_upload(
    *,
    code: str,
    month: dt.date,
    name: str,
    data: bytes,
    reason: str = "",
    actor: Actor,
    once: str | None = None,
) -> Booked[BankStatement]:
    """Keep the month's statement of a bank account; the first is version 1, a replacement the next version
    and needs a reason. Only a month that is over has a statement. ``once``: the form's one-time key (the same
    form sent again keeps nothing and returns the first)."""
    if once and (replayed := _statement_replayed(once=once)) is not None:
        return replayed
    first, reason = _upload_checked(code=code, month=month, data=data, reason=reason)
    # The account's row, locked: two uploads for one account take consecutive versions.
    account = Account.objects.select_for_update().filter(code=code).first()
    if account is None:
        raise BankStatementError("Nothing was ever posted to this account yet.", field="account")
    if once and (replayed := _statement_replayed(once=once)) is not None:
        return replayed
    last = _version_last(account=account, first=first, reason=reason)
    statement = BankStatement(
        account=account,
        month=first,
        version=(last or 0) + 1,
        original_name=" ".join(name.split())[:200] or "statement.pdf",
        size=len(data),
        reason=reason if last is not None else "",
        form_key=once or None,
        uploaded_by=actor_signed_in(actor),
    )
    # The file is written before the row; a row that then fails leaves an unused file behind, never a row
    # without its file. The storage never overwrites: a taken name gets a suffix.
    statement.file.save(statement.original_name, ContentFile(data), save=False)
    try:
        with transaction.atomic():
            statement.save()
    except IntegrityError:
        statement.file.delete(save=False)
        found = BankStatement.objects.filter(form_key=once).first() if once else None
        if found is None:
            raise
        return Booked(found, replayed=True)
    audit_record(
        actor=actor,
        action="finance.bank.statement",
        summary=(
            f"Kept the statement of {account} for {first:%B %Y} (version {statement.version}, "
            f"{statement.original_name}, {statement.size} bytes)"
        ),
        target=statement,
        reason=statement.reason,
    )
    return Booked(statement)


def _statement_replayed(*, once: str) -> Booked[BankStatement] | None:
    """The statement this form already kept (the same form sent again); None when there is none."""
    found = BankStatement.objects.filter(form_key=once).first()
    if found is not None:
        return Booked(found, replayed=True)
    return None


def _upload_checked(*, code: str, month: dt.date, data: bytes, reason: str) -> tuple[dt.date, str]:
    """The month's first day and the reason, tidied, once the account, the month, the file and the reason
    are right; a BankStatementError names the field that is not."""
    if code not in BANK_ACCOUNT_CODES:
        raise BankStatementError("Pick a bank account: club checking or the WSOP escrow.", field="account")
    first = month_first(month)
    if first >= month_first(club_today()):
        raise BankStatementError(
            f"{first:%B %Y} is not over yet: its statement comes once it is.", field="month"
        )
    if first < EARLIEST:
        # The month's page and its reconciliation start there too: a statement before would have no page.
        raise BankStatementError(
            f"Statements are kept from {EARLIEST:%B %Y} on (the reports start there).", field="month"
        )
    problem = statement_problem(data=data)
    if problem:
        raise BankStatementError(problem, field="file")
    reason = " ".join((reason or "").split())
    if len(reason) > REASON_MAX:
        raise BankStatementError(f"The reason is longer than {REASON_MAX} characters.", field="reason")
    return first, reason


def _version_last(*, account: Account, first: dt.date, reason: str) -> int | None:
    """The month's last statement version of the account (None for the first); a replacement needs a reason."""
    last = (
        BankStatement.objects.filter(account=account, month=first)
        .order_by("-version")
        .values_list("version", flat=True)
        .first()
    )
    if last is not None and not reason:
        raise BankStatementError(
            f"{account} has a statement for {first:%B %Y} already (version {last}): say why this one "
            "replaces it (the earlier version is kept).",
            field="reason",
        )
    return last


@dataclass(frozen=True)
class StatementMonth:
    """One month's statement of one account: the current version first, then the earlier ones."""

    account: Account
    month: dt.date
    versions: tuple[BankStatement, ...]

    @property
    def current(self) -> BankStatement:
        return self.versions[0]


def bank_statements_by_month(*, month: dt.date | None = None) -> list[StatementMonth]:
    """Every statement kept (or those of one month), newest month first, each account's versions together."""
    statements = BankStatement.objects.select_related("account", "uploaded_by")
    if month is not None:
        statements = statements.filter(month=month_first(month))
    groups: dict[tuple[dt.date, int], list[BankStatement]] = {}
    for statement in statements.order_by("-month", "account__position", "account_id", "-version"):
        groups.setdefault((statement.month, statement.account_id), []).append(statement)
    return [
        StatementMonth(account=versions[0].account, month=month_key, versions=tuple(versions))
        for (month_key, _account), versions in groups.items()
    ]


def bank_accounts() -> Sequence[Account]:
    """The club's bank accounts that exist (something was posted to them)."""
    return list(Account.objects.filter(code__in=BANK_ACCOUNT_CODES).order_by("position", "pk"))
