"""Closing a month (§3.6.3, SPEC §16.1, §17.1, §17.4): a command of its own, above the ledger and the report,
because it keeps the month's report as data and the report reads the ledger."""

import datetime as dt

from django.db import connection, transaction

from finance.models import Account, ClosedMonth
from finance.selectors.report_record import closer_record, month_report_complete, report_record
from finance.services.ledger import (
    CLOSED_MONTHS_LOCK,
    LedgerError,
    month_first,
    month_name_list,
    months_open_before,
    postings_hold,
)
from finance.services.reconciliation import BANK_ACCOUNT_CODES, reconciliation_close_problems
from ncpc.core.audit import Actor, actor_signed_in, audit_record
from ncpc.core.clock import club_today


def closing_hold() -> None:
    """Until this transaction ends, no command can check the closed months (``closed_month_refusal`` waits),
    and the commands that checked and have not committed are waited for (PostgreSQL's advisory lock
    ``CLOSED_MONTHS_LOCK``, taken alone). SQLite runs one writer at a time and needs nothing."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [CLOSED_MONTHS_LOCK])


@transaction.atomic
def month_close(*, day: dt.date, actor: Actor) -> ClosedMonth:
    """The Treasurer presented the month's report (§3.6.3): close the month. Closing twice changes nothing.
    Only a month that is over can be closed, and only once every earlier month since the books started is
    closed (SPEC §16.1): months close in order."""
    first = month_first(day)
    if first >= month_first(club_today()):
        raise LedgerError(f"{first:%B %Y} is not over yet; it can be closed once it is.")
    # First, alone: the commands that asked ``closed_month_refusal`` and have not committed are waited for
    # (their writes are then in the report), and those asking from now on wait for this close and see it.
    # Before the account rows and the postings' hold: while this waits, it holds nothing a command holding the
    # lock shared could wait for (no deadlock), since those ask before they post or lock an account.
    closing_hold()
    # The bank accounts' rows, locked as the reconciliation's commands lock them (so a match cannot change
    # the month while it closes), and before the postings' hold: a check's posting locks its account first.
    list(Account.objects.select_for_update().filter(code__in=BANK_ACCOUNT_CODES).order_by("pk"))
    postings_hold()
    existing = ClosedMonth.objects.filter(month=first).first()
    if existing is not None:
        return existing
    open_before = months_open_before(day=first)
    if open_before:
        names = month_name_list(open_before)
        raise LedgerError(
            f"Months close in order: {names} is still open. Close it first, then {first:%B %Y}."
            if len(open_before) == 1
            else f"Months close in order: {names} are still open. Close them first, oldest first, then "
            f"{first:%B %Y}."
        )
    # SPEC §17.4: a bank account with a statement or a bank file for the month must be reconciled, or its
    # difference recorded with a reason.
    unreconciled = reconciliation_close_problems(month=first)
    if unreconciled:
        raise LedgerError(f"{first:%B %Y} cannot close yet. " + " ".join(unreconciled))
    # SPEC §17.1: the report as presented, and who closed it, kept as data in the same transaction; the closed
    # month's page and files are built from it from now on.
    closer = actor_signed_in(actor)
    record = report_record(month_report_complete(year=first.year, month=first.month, today=club_today()))
    record["closed_by"] = closer_record(closer)
    closed, created = ClosedMonth.objects.get_or_create(
        month=first, defaults={"closed_by": closer, "report": record}
    )
    if created:
        audit_record(
            actor=actor,
            action="finance.month.close",
            summary=f"Closed {first:%B %Y}: the treasurer's report was presented",
            target=closed,
        )
    return closed
