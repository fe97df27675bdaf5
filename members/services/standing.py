"""Suspensions and rules-document signatures (commands); ``members.selectors`` reads them."""

import datetime as dt

from django.db import IntegrityError, transaction

from members.models import Membership, RulesSignature, Suspension
from ncpc.audit import audit_record
from ncpc.errors import NcpcError


@transaction.atomic
def suspension_create(
    *, membership: Membership, start: dt.date, end: dt.date, reason: str, actor=None
) -> Suspension:
    """A dated suspension (both days included): the member is not in good standing meanwhile (§2.16)."""
    if end < start:
        raise NcpcError("A suspension cannot end before it starts.")
    if not reason.strip():
        raise NcpcError("Give the reason for the suspension.")
    user = actor if getattr(actor, "is_authenticated", False) else None
    suspension = Suspension.objects.create(
        membership=membership, start=start, end=end, reason=reason.strip(), recorded_by=user
    )
    audit_record(
        actor=actor,
        action="member.suspend",
        target=suspension,
        summary=f"Suspended {membership.person} from {start} to {end}",
        reason=reason,
    )
    return suspension


@transaction.atomic
def rules_signature_record(*, membership: Membership, signed_on: dt.date, actor=None) -> RulesSignature:
    """The Vice President records that the member signed the season's rules document (§2.4, §3.5.5)."""
    if signed_on > membership.season.end:
        raise NcpcError(f"{signed_on:%b %-d, %Y} is after season {membership.season}.")
    user = actor if getattr(actor, "is_authenticated", False) else None
    try:
        with transaction.atomic():
            signature = RulesSignature.objects.create(
                membership=membership, signed_on=signed_on, recorded_by=user
            )
    except IntegrityError as exc:
        raise NcpcError(f"{membership.person} has signed the rules of {membership.season} already.") from exc
    audit_record(
        actor=actor,
        action="member.sign_rules",
        target=signature,
        summary=f"{membership.person} signed the rules document of {membership.season} on {signed_on}",
    )
    return signature
