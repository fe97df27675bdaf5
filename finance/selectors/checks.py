"""Checks (disbursements) waiting for an officer's approval."""

from finance.models import Disbursement
from members.models import Person


def checks_awaiting(*, person: Person | None) -> list[Disbursement]:
    """Checks waiting for approvals that this officer has not given yet (their home page)."""
    if person is None:
        return []
    return list(
        Disbursement.objects.filter(status=Disbursement.Status.PENDING)
        .exclude(approvals__officer=person)
        .select_related("from_account", "to_account", "signer_1", "signer_2")
        .prefetch_related("approvals__officer")
        .order_by("date", "pk")
    )
