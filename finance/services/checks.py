"""Checks (bylaws §4.7): a disbursement counts as issued once two different officers approved it."""

import datetime as dt
from decimal import Decimal

from django.db import IntegrityError, transaction

from finance.models import Account, Disbursement, DisbursementApproval, Transaction
from finance.services.ledger import EntryLine, account_get, transaction_post
from members.selectors import offices_held
from ncpc.audit import Actor, actor_signed_in, audit_record
from ncpc.errors import NcpcError, NotAllowed
from ncpc.money import quantize
from ncpc.permissions import user_person

APPROVALS_NEEDED = 2
FROM_ACCOUNTS = (Account.CHECKING, Account.ESCROW)
TO_ACCOUNTS = (Account.SUPPLIES, Account.WSOP_EXPENSES, Account.CASH)


class CheckError(NcpcError):
    pass


@transaction.atomic
def disbursement_create(
    *,
    date: dt.date,
    payee: str,
    amount: Decimal,
    memo: str,
    from_code: str,
    to_code: str,
    check_number: str = "",
    actor: Actor,
) -> Disbursement:
    if amount is None or amount <= 0 or quantize(amount) != amount:
        raise CheckError("A check is for a positive amount in cents.", field="amount")
    if from_code not in FROM_ACCOUNTS or to_code not in TO_ACCOUNTS:
        raise CheckError("Checks are drawn on club checking or the WSOP escrow account.")
    if not payee.strip():
        raise CheckError("Name the payee.", field="payee")
    check = Disbursement.objects.create(
        date=date,
        payee=payee.strip(),
        amount=amount,
        memo=memo,
        check_number=check_number,
        from_account=account_get(from_code),
        to_account=account_get(to_code),
        created_by=actor_signed_in(actor),
    )
    audit_record(actor=actor, action="finance.check.create", summary=f"{check} ({memo})", target=check)
    return check


@transaction.atomic
def disbursement_approve(*, disbursement: Disbursement, actor: Actor, on: dt.date) -> Disbursement:
    """Record the officer's approval; the second different officer's approval issues the check (posts it).

    The same officer approving twice changes nothing.
    """
    person = user_person(actor)
    offices = sorted(offices_held(person=person, on=on)) if person is not None else []
    if not offices:
        raise NotAllowed("Only an officer in office may approve a check.")
    check = Disbursement.objects.select_for_update().get(pk=disbursement.pk)
    if check.status == Disbursement.Status.ISSUED:
        return check
    if check.approvals.filter(officer=person).exists():
        return check
    try:
        with transaction.atomic():
            DisbursementApproval.objects.create(
                disbursement=check, officer=person, office=offices[0], user=actor_signed_in(actor)
            )
    except IntegrityError:
        return check
    audit_record(actor=actor, action="finance.check.approve", summary=f"Approved {check}", target=check)
    if check.approvals.values("officer").distinct().count() >= APPROVALS_NEEDED:
        txn = transaction_post(
            date=check.date,
            kind=Transaction.Kind.CHECK,
            memo=f"Check{' ' + check.check_number if check.check_number else ''} to {check.payee}: {check.memo}",
            lines=[
                EntryLine(check.to_account.code, check.amount, memo=check.payee),
                EntryLine(check.from_account.code, -check.amount),
            ],
            actor=actor,
            key=f"check:{check.pk}:",
        )
        check.status = Disbursement.Status.ISSUED
        check.transaction = txn
        check.save(update_fields=["status", "transaction"])
    return check
