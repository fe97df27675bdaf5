"""Many payments at once (the treasurer's spreadsheet): the same postings as ``payment_record``, written in a
few statements in one transaction, so thousands of rows take seconds rather than minutes."""

import datetime as dt
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from decimal import Decimal

from django.contrib.auth.models import User
from django.db import transaction
from django.utils.timezone import localtime

from events.services.attendance import attendance_after_payment
from finance.models import Account, ClosedMonth, Entry, Payment, Transaction
from finance.services.ledger import (
    accounts_ensure,
    books_start_day,
    books_start_problem,
    closed_month_problem,
)
from finance.services.payments import (
    METHOD_ACCOUNT,
    PaymentError,
    payment_check_number,
    payment_terms_problem,
)
from finance.services.reconciliation import check_number_from
from members.models import Membership
from ncpc.core.audit import Actor, actor_user, audit_record, audit_record_many
from ncpc.core.money import quantize

BATCH = 1000

# The words a club's spreadsheet uses for how a member paid, and the ledger's method each one is booked as
# (SPEC §16.10, docs/architecture.md): coins and notes go to the cash box; everything that lands in the bank —
# a check, a money order, an app or a transfer — to checking. Keys are in ``method_word_form``; another word
# is asked at preview.
METHOD_WORDS: dict[str, str] = {
    **dict.fromkeys(("cash", "cashatdoor", "cashatthedoor", "currency"), "cash"),
    **dict.fromkeys(
        (
            "check",
            "cheque",
            "chk",
            "ck",
            "personalcheck",
            "cashierscheck",
            "certifiedcheck",
            "bankcheck",
            "moneyorder",
            "venmo",
            "zelle",
            "paypal",
            "cashapp",
            "squarecash",
            "applepay",
            "applecash",
            "googlepay",
            "gpay",
            "banktransfer",
            "transfer",
            "etransfer",
            "ach",
            "wire",
            "wiretransfer",
            "directdeposit",
            "online",
            "card",
            "creditcard",
            "debitcard",
            "square",
        ),
        "check",
    ),
}


def method_word_form(word: str) -> str:
    """A method word however it was typed: "Cash App", "cash-app" and "CASHAPP" are one word."""
    return re.sub(r"[^a-z0-9]", "", word.lower())


def method_read(*, word: str, answers: Mapping[str, str] | None = None) -> str | None:
    """The ledger's method ("cash" or "check") a spreadsheet's word is booked as, or None when the word is
    unknown and not answered. A check number written as the method ("Chk #1043", "check 1043", "#1043") is a
    check. ``answers``: the officer's choice per unknown word (in ``method_word_form``)."""
    form = method_word_form(word)
    if form not in METHOD_WORDS and method_check_number(word=word):
        return "check"
    method = METHOD_WORDS.get(form) or (answers or {}).get(form)
    return method if method in METHOD_ACCOUNT else None


def method_check_number(*, word: str) -> str:
    """The check number a method cell holds ("Chk #1043", "check 1043", "#1043" → "1043"), or "". Pure."""
    return check_number_from(word)


def method_reference(*, word: str, reference: str) -> str:
    """The payment's reference: the file's, or the club's word for the method when it says more than cash or
    check ("Venmo"), so the ledger still shows how the money came."""
    if reference or method_word_form(word) in ("cash", "check"):
        return reference
    return " ".join(word.split())


PaymentKey = tuple[int, dt.date, Decimal, str, str]


def payment_key(
    *, membership_id: int, date: dt.date, amount: Decimal, method: str, reference: str
) -> PaymentKey:
    """What makes two payments the same one (SPEC §16.10): member, date, amount, method and reference (case and
    spaces ignored)."""
    return (membership_id, date, quantize(amount), method, " ".join(reference.lower().split()))


def payments_recorded(*, membership_ids: Iterable[int]) -> Counter[PaymentKey]:
    """How many payments (not reversed) are recorded per ``payment_key``, for these seats."""
    rows = Payment.objects.filter(
        membership_id__in=list(membership_ids), transaction__reversed_by__isnull=True
    ).values_list("membership_id", "date", "amount", "method", "reference")
    return Counter(
        payment_key(membership_id=m, date=d, amount=a, method=k, reference=r) for m, d, a, k, r in rows
    )


def payments_recorded_by(*, membership_ids: Iterable[int]) -> dict[PaymentKey, list[str]]:
    """Per ``payment_key``, when and by whom each payment (not reversed) was recorded, oldest first: "on Nov 29,
    2026 by Tom Hill", for a preview row that matches one (SPEC §17.5: a second upload of a file names what
    the first booked)."""
    rows = (
        Payment.objects.filter(membership_id__in=list(membership_ids), transaction__reversed_by__isnull=True)
        .order_by("transaction__created_at", "pk")
        .values_list(
            "membership_id",
            "date",
            "amount",
            "method",
            "reference",
            "transaction__created_at",
            "transaction__created_by__username",
            "transaction__created_by__person__first_name",
            "transaction__created_by__person__last_name",
        )
    )
    found: dict[PaymentKey, list[str]] = {}
    for m, d, a, k, r, at, username, first, last in rows:
        who = f"{first} {last}" if first or last else username or "the app"
        key = payment_key(membership_id=m, date=d, amount=a, method=k, reference=r)
        found.setdefault(key, []).append(f"on {localtime(at):%b %-d, %Y} by {who}")
    return found


@dataclass(frozen=True)
class PaymentLine:
    membership: Membership  # with its person and season loaded
    date: dt.date
    amount: Decimal
    method: str
    reference: str = ""
    line: int = 0  # the spreadsheet's line, named in a refusal
    check_number: str = ""  # the member's check (else read from a reference such as "Chk #1043")


def closed_months() -> set[dt.date]:
    """The first days of the months whose report was closed (read once for a whole file)."""
    return set(ClosedMonth.objects.values_list("month", flat=True))


# ``payment_line_problem(start=…)`` not given: the books' start day is read for the line.
_READ = object()


def payment_line_problem(
    *,
    line: PaymentLine,
    closed: set[dt.date] | None = None,
    today: dt.date | None = None,
    start: dt.date | None | object = _READ,
) -> str | None:
    """What ``payment_record`` would refuse in this payment, or None: the form's own terms
    (``payment_terms_problem``: the method, a member who had not left by then, a date in the season and not
    after today, the amount; SPEC §16.2, §17.5), then the ledger's rules the form meets when it posts: not
    before the books start and not in or before a closed month (SPEC §15.6, §16.1, §16.6). ``closed``:
    ``closed_months()``, ``today``: ``club_today()`` and ``start``: ``books_start_day()``, when the caller
    checks many lines."""
    terms = payment_terms_problem(
        membership=line.membership, date=line.date, amount=line.amount, method=line.method, today=today
    )
    if terms is not None:
        return str(terms)
    # The ledger's rules: nothing before the books start (``books_start_check``, SPEC §16.6), nothing in or
    # before a closed month (``month_open_check``, SPEC §16.1).
    books_from = books_start_day() if start is _READ else start
    before_start = books_start_problem(
        day=line.date, start=books_from if isinstance(books_from, dt.date) else None
    )
    if before_start:
        return before_start
    return closed_month_problem(day=line.date, closed=closed if closed is not None else closed_months())


@transaction.atomic
def payments_record_many(
    *, lines: Sequence[PaymentLine], actor: Actor, source: str, skipped: Sequence[int] = ()
) -> list[Payment]:
    """Record every payment or none: each a ledger transaction (cash box or checking against dues received),
    a payment and an audit row, as ``payment_record`` writes them; then each member's seats at open events
    are checked again once (a payment may restore good standing). ``source`` names the file in the audit;
    ``skipped``: the file's lines the officer chose not to book, named in the audit."""
    closed, start = closed_months(), books_start_day()
    _lines_locked_checked(lines=lines, closed=closed, start=start)
    if not lines:
        if skipped:
            audit_record(
                actor=actor,
                action="finance.payments_import",
                summary=f"Imported no payment from {source}: {_skipped_text(skipped)}",
                data={"payments": 0, "total": "0.00", "skipped": list(skipped)},
            )
        return []
    accounts = accounts_ensure()
    user = actor_user(actor)
    txns = _payment_transactions(lines=lines, user=user)
    # Again after the INSERT, as transaction_post does: a month closed since the check above is seen now.
    closed_now = closed_months()
    for line in lines:
        problem = closed_month_problem(day=line.date, closed=closed_now)
        if problem:
            raise PaymentError(f"Line {line.line}: {problem}")
    Entry.objects.bulk_create(_payment_entries(lines=lines, txns=txns, accounts=accounts), batch_size=BATCH)
    payments = _payments_create(lines=lines, txns=txns)
    _payments_audit(lines=lines, payments=payments, actor=actor, source=source, skipped=skipped)
    seen: set[int] = set()
    for line in lines:
        if line.membership.pk not in seen:
            seen.add(line.membership.pk)
            attendance_after_payment(membership=line.membership, actor=actor)
    return payments


def _lines_locked_checked(
    *, lines: Sequence[PaymentLine], closed: set[dt.date], start: dt.date | None
) -> None:
    """Each line checked again against its seat as it is now (locked); a PaymentError names the first line
    that cannot be recorded."""
    # The seats as they are now, locked as the payment form locks one (``departed_payment_check``): a member
    # removed or withdrawn since the preview is refused, and a removal waits for the import.
    seats = {
        seat.pk: seat
        for seat in Membership.objects.select_for_update(of=("self",))
        .select_related("season", "person")
        .filter(pk__in={line.membership.pk for line in lines})
        .order_by("pk")
    }
    for line in lines:
        problem = payment_line_problem(
            line=replace(line, membership=seats[line.membership.pk]), closed=closed, start=start
        )
        if problem:
            raise PaymentError(f"Line {line.line}: {problem}")


def _payment_transactions(*, lines: Sequence[PaymentLine], user: User | None) -> list[Transaction]:
    """Each payment's ledger transaction, its memo naming the member, the amount and how they paid."""
    memos = [
        f"{line.membership.person} paid {line.amount} ({line.method}{' ' + line.reference if line.reference else ''})"
        for line in lines
    ]
    return Transaction.objects.bulk_create(
        [
            Transaction(date=line.date, kind=Transaction.Kind.PAYMENT, memo=memo[:200], created_by=user)
            for line, memo in zip(lines, memos, strict=True)
        ],
        batch_size=BATCH,
    )


def _payments_create(*, lines: Sequence[PaymentLine], txns: Sequence[Transaction]) -> list[Payment]:
    """Each line's payment, on its transaction."""
    return Payment.objects.bulk_create(
        [
            Payment(
                membership=line.membership,
                date=line.date,
                amount=line.amount,
                method=line.method,
                reference=line.reference,
                check_number=payment_check_number(
                    method=line.method, check_number=line.check_number, reference=line.reference
                ),
                transaction=txn,
            )
            for line, txn in zip(lines, txns, strict=True)
        ],
        batch_size=BATCH,
    )


def _payment_entries(
    *, lines: Sequence[PaymentLine], txns: Sequence[Transaction], accounts: dict[str, Account]
) -> list[Entry]:
    """Each payment's two entries, as ``payment_record`` posts them: into the cash box or checking, out of dues
    and fees received."""
    dues = accounts[Account.DUES]
    entries = []
    for line, txn in zip(lines, txns, strict=True):
        entries.append(
            Entry(
                transaction=txn,
                account=accounts[METHOD_ACCOUNT[line.method]],
                amount=line.amount,
                membership_id=line.membership.pk,
            )
        )
        entries.append(
            Entry(
                transaction=txn,
                account=dues,
                amount=-line.amount,
                membership_id=line.membership.pk,
                memo=f"Dues and fees, {line.membership.season}"[:200],
            )
        )
    return entries


def _skipped_text(skipped: Sequence[int]) -> str:
    return (
        f"{len(skipped)} row(s) skipped (line {', '.join(str(n) for n in skipped)}), nothing booked for them"
    )


def _payments_audit(
    *,
    lines: Sequence[PaymentLine],
    payments: Sequence[Payment],
    actor: Actor,
    source: str,
    skipped: Sequence[int] = (),
) -> None:
    """An audit row per payment, as ``payment_record`` writes it, and one for the import."""
    audit_record_many(
        actor=actor,
        action="finance.payment",
        entries=[
            (
                payment,
                f"Payment of {line.amount} from {line.membership.person} on {line.date} ({line.method})",
            )
            for line, payment in zip(lines, payments, strict=True)
        ],
        data={"source": source},
    )
    total = sum((line.amount for line in lines), Decimal("0.00"))
    audit_record(
        actor=actor,
        action="finance.payments_import",
        summary=f"Imported {len(payments)} payments totalling {total} from {source}"
        + (f"; {_skipped_text(skipped)}" if skipped else ""),
        data={
            "payments": len(payments),
            "total": str(total),
            "first": payments[0].pk,
            "last": payments[-1].pk,
            "skipped": list(skipped),
        },
    )
