"""Opening balances (SPEC §16.6): what each asset account held on the day the club's books start in the app.

The Treasurer (or the President) records one per asset account (cash box, club checking, WSOP escrow) from the
bank statement (or the cash counted) of a day, posted against the Opening balances account. The earliest of
their dates is the day the books start (``ledger.books_start_day``): nothing is dated before it. A correction
reverses the recorded balance with a reason; the right one can then be recorded.

``opening_date_problem`` is the pure rule for the date; ``opening_balance_check`` reads what it needs and
refuses (also for the confirmation step, before anything is written); ``opening_balance_record`` and
``opening_balance_correct`` are the commands.
"""

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal

from django.db import IntegrityError, transaction

from finance.models import Account, OpeningBalance, Transaction
from finance.services.ledger import (
    ASSET_CODES,
    AlreadyReversed,
    EntryLine,
    LedgerError,
    accounts_ensure,
    books_start_day,
    date_not_future_check,
    money_limit_on,
    month_open_check,
    transaction_post,
    transaction_reverse,
)
from ncpc.core.audit import Actor, actor_user, audit_record
from ncpc.core.money import money_display, quantize
from ncpc.core.results import Booked

NOTE_MAX = 200
# The earliest statement date: the first month the monthly reports show (``finance.views.reports.report``).
EARLIEST = dt.date(2000, 1, 1)


class OpeningBalanceError(LedgerError):
    pass


class OpeningBalanceRecorded(OpeningBalanceError):
    """The account has its opening balance already: a second is refused (correct the first)."""


@dataclass(frozen=True)
class Posted:
    """A posting of the books that is not an opening balance (nor its correction): what a date is checked
    against."""

    pk: int
    date: dt.date
    memo: str


def opening_date_problem(
    *,
    day: dt.date,
    account_name: str,
    start: dt.date | None,
    first_posting: Posted | None,
    first_account_posting: Posted | None,
    correcting: bool,
) -> str | None:
    """Why an opening balance of an account cannot be dated ``day``, or None. Pure.

    ``start``: the day the books start (None: no opening balance yet); ``first_posting``: the earliest posting of
    the books that is not an opening balance, ``first_account_posting`` the earliest one touching this account;
    ``correcting``: this account's earlier opening balance was corrected (this one replaces it).

    - The books cannot start after a posting: an opening balance that would be the books' first day (none
      yet, or dated before the others) is refused while anything is dated before it.
    - The statement of ``day`` already counts the account's money of that day and before: an account's first
      opening balance is refused when postings to the account are dated on or before it (they would count
      twice). A replacement after a correction is not: its reversal and it correct the balance from then on.
    """
    if (start is None or day < start) and first_posting is not None and first_posting.date < day:
        return (
            f"The books already hold postings dated before {day:%b %-d, %Y} (the first: #{first_posting.pk} on "
            f"{first_posting.date:%b %-d, %Y}, {first_posting.memo}), and nothing can be dated before the day "
            f"the books start. Record the balance of a statement dated no later than "
            f"{first_posting.date:%b %-d, %Y}."
        )
    if not correcting and first_account_posting is not None and first_account_posting.date <= day:
        return (
            f"{account_name} already has postings dated on or before {day:%b %-d, %Y} (the first: "
            f"#{first_account_posting.pk} on {first_account_posting.date:%b %-d, %Y}, "
            f"{first_account_posting.memo}); a statement of that day counts them already. Record the balance "
            f"of a statement dated before {first_account_posting.date:%b %-d, %Y}."
        )
    return None


def _first_posting(*, account: Account | None = None) -> Posted | None:
    postings = Transaction.objects.exclude(kind=Transaction.Kind.OPENING).exclude(
        kind=Transaction.Kind.REVERSAL, reverses__kind=Transaction.Kind.OPENING
    )
    if account is not None:
        postings = postings.filter(entries__account=account)
    row = postings.order_by("date", "pk").values("pk", "date", "memo").first()
    return Posted(**row) if row is not None else None


def opening_balance_standing(*, account: Account) -> OpeningBalance | None:
    """The account's recorded opening balance (not corrected), if any."""
    return (
        OpeningBalance.objects.filter(account=account, corrected_on__isnull=True)
        .select_related("recorded_by")
        .first()
    )


def opening_balance_check(*, code: str, day: dt.date, amount: Decimal | None, note: str = "") -> Account:
    """Refuse an opening balance that cannot be recorded (the account, the amount, the date, a second one);
    return the account. Writes nothing except the standard accounts on first use; the confirmation step runs
    it before it shows what will be booked, the command again under its lock."""
    if code not in ASSET_CODES:
        raise OpeningBalanceError(
            "An opening balance is recorded for the cash box, club checking or the WSOP escrow.",
            field="account",
        )
    if amount is None or not isinstance(amount, Decimal) or not amount.is_finite():
        raise OpeningBalanceError("The balance must be an amount of money.", field="amount")
    if amount < 0 or quantize(amount) != amount:
        raise OpeningBalanceError(
            "The balance must be an amount in cents, zero or more (the club's accounts never go below zero).",
            field="amount",
        )
    limit = money_limit_on(day=day)
    if amount > limit:
        raise OpeningBalanceError(
            f"{money_display(amount)} is more than the club's limit of {money_display(limit)} for one amount.",
            field="amount",
        )
    if len(note.strip()) > NOTE_MAX:
        raise OpeningBalanceError(f"The note is longer than {NOTE_MAX} characters.", field="note")
    date_not_future_check(day=day)
    if day < EARLIEST:
        raise OpeningBalanceError(
            f"The statement's date must be {EARLIEST:%b %-d, %Y} or later (the reports start there).",
            field="date",
        )
    account = accounts_ensure()[code]
    standing = opening_balance_standing(account=account)
    if standing is not None:
        raise OpeningBalanceRecorded(
            f"{account} has its opening balance already: {money_display(standing.amount)} on "
            f"{standing.date:%b %-d, %Y}, recorded on {standing.recorded_at:%b %-d, %Y}. An account has one "
            "opening balance. If it is wrong, correct it on the opening balances page (it is reversed, with "
            "your reason), then record the right one."
        )
    problem = opening_date_problem(
        day=day,
        account_name=str(account),
        start=books_start_day(),
        first_posting=_first_posting(),
        first_account_posting=_first_posting(account=account),
        correcting=OpeningBalance.objects.filter(account=account).exists(),
    )
    if problem is not None:
        raise OpeningBalanceError(problem, field="date")
    month_open_check(day=day)
    return account


@transaction.atomic
def opening_balance_record(
    *, code: str, date: dt.date, amount: Decimal, note: str = "", actor: Actor, once: str | None = None
) -> Booked[OpeningBalance]:
    """Record what the account held on ``date`` (its statement's date), posted against Opening balances
    (nothing is posted for a balance of zero), audited. ``once``: the form's one-time key; the same form sent
    again returns the first record, ``replayed``."""
    accounts_ensure()
    # One officer at a time per account: the second waits, then finds the first's balance (or, sent under the
    # same key, the first's record).
    Account.objects.select_for_update().filter(code=code).first()
    if once:
        existing = OpeningBalance.objects.filter(form_key=once).first()
        if existing is not None:
            return Booked(existing, replayed=True)
    account = opening_balance_check(code=code, day=date, amount=amount, note=note)
    note = note.strip()
    memo = f"Opening balance of {account} on {date:%b %-d, %Y}" + (f": {note}" if note else "")
    txn = None
    if amount:
        txn = transaction_post(
            date=date,
            kind=Transaction.Kind.OPENING,
            memo=memo,
            lines=[EntryLine(code, amount), EntryLine(Account.OPENING, -amount)],
            actor=actor,
        )
    try:
        with transaction.atomic():
            opening = OpeningBalance.objects.create(
                account=account,
                date=date,
                amount=amount,
                note=note,
                transaction=txn,
                form_key=once or None,
                recorded_by=actor_user(actor),
            )
    except IntegrityError:
        # A parallel request under the same key committed first (on PostgreSQL the insert waited for it).
        replay = OpeningBalance.objects.filter(form_key=once).first() if once else None
        if replay is None:
            raise OpeningBalanceRecorded(
                f"{account} has its opening balance already (another officer recorded it a moment ago); reload "
                "the page."
            ) from None
        transaction.set_rollback(True)
        return Booked(replay, replayed=True)
    audit_record(
        actor=actor,
        action="finance.opening_balance.record",
        summary=f"Opening balance of {account}: {money_display(amount)} on {date:%b %-d, %Y}",
        target=opening,
        data={"account": code, "amount": str(amount), "date": date.isoformat(), "note": note},
    )
    return Booked(opening)


@transaction.atomic
def opening_balance_correct(
    *, opening: OpeningBalance, on: dt.date, reason: str, actor: Actor
) -> OpeningBalance:
    """Correct a recorded opening balance: its posting is reversed (dated ``on``, today on the page) with the
    reason, and the account may then be given the right one. Correcting twice is refused."""
    reason = (reason or "").strip()
    if not reason:
        raise OpeningBalanceError("Say why the opening balance is corrected.", field="reason")
    opening = OpeningBalance.objects.select_for_update().select_related("account").get(pk=opening.pk)
    if opening.corrected_on is not None:
        raise AlreadyReversed(
            f"The opening balance of {opening.account} of {opening.date:%b %-d, %Y} was corrected already on "
            f"{opening.corrected_on:%b %-d, %Y}."
        )
    reversal = None
    if opening.transaction_id is not None:
        reversal = transaction_reverse(
            txn=Transaction.objects.get(pk=opening.transaction_id),
            date=on,
            reason=reason,
            actor=actor,
            opening_correction=True,
        )
    else:
        month_open_check(day=on)
    opening.corrected_on = on
    opening.correction_reason = reason
    opening.corrected_by = actor_user(actor)
    opening.reversal = reversal
    opening.save(update_fields=["corrected_on", "correction_reason", "corrected_by", "reversal"])
    audit_record(
        actor=actor,
        action="finance.opening_balance.correct",
        summary=(
            f"Corrected the opening balance of {opening.account} ({money_display(opening.amount)} on "
            f"{opening.date:%b %-d, %Y})" + (f": reversal #{reversal.pk}" if reversal is not None else "")
        ),
        target=opening,
        reason=reason,
    )
    return opening
