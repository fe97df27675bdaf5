"""Suspensions and rules-document signatures (commands); ``members.selectors`` reads them."""

import datetime as dt
from collections.abc import Sequence

from django.db import IntegrityError, transaction

from members.models import Membership, RulesSignature, Suspension
from members.services.closed_months import closed_month_refuse
from ncpc.core.audit import Actor, actor_user, audit_record, audit_record_many
from ncpc.core.errors import NcpcError


@transaction.atomic
def suspension_create(
    *, membership: Membership, start: dt.date, end: dt.date, reason: str, actor: Actor = None
) -> Suspension:
    """A dated suspension (both days included): the member is not in good standing meanwhile (§2.16)."""
    if end < start:
        raise NcpcError("A suspension cannot end before it starts.")
    if not reason.strip():
        raise NcpcError("Give the reason for the suspension.")
    closed_month_refuse(day=start, field="start")  # its first day (SPEC §17.2)
    # Locked so that the same form sent twice at once records one suspension (the second sees the first).
    Membership.objects.select_for_update().filter(pk=membership.pk).first()
    overlapping = Suspension.objects.filter(membership=membership, start__lte=end, end__gte=start).first()
    if overlapping is not None:
        raise NcpcError(
            f"{membership.person} is suspended already from {overlapping.start:%b %-d, %Y} to "
            f"{overlapping.end:%b %-d, %Y}: nothing was recorded. To suspend them longer, record a suspension "
            "starting the day after it ends.",
            field="start",
        )
    user = actor_user(actor)
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
def suspension_end(*, suspension: Suspension, last_day: dt.date, reason: str, actor: Actor) -> Suspension:
    """End a suspension early (the officers lift it, or it was entered too long): ``last_day`` becomes its last
    day, still included. It can only be shortened; the former end stays in the audit trail."""
    suspension = (
        Suspension.objects.select_for_update().select_related("membership__person").get(pk=suspension.pk)
    )
    if not reason.strip():
        raise NcpcError("Give the reason for ending the suspension early.")
    if last_day < suspension.start:
        raise NcpcError(
            f"The last day cannot be before the suspension starts ({suspension.start:%b %-d, %Y})."
        )
    if last_day >= suspension.end:
        raise NcpcError(
            f"The suspension already ends on {suspension.end:%b %-d, %Y}; give an earlier last day to end it early."
        )
    # What changes is the member's standing from the day after the new last day: that day must be open
    # (SPEC §17.2). A last day that is a closed month's last day is fine: the closed month keeps its days.
    closed_month_refuse(day=last_day + dt.timedelta(days=1), field="last_day")
    before = suspension.end
    suspension.end = last_day
    suspension.save(update_fields=["end"])
    audit_record(
        actor=actor,
        action="member.suspension_end",
        target=suspension,
        summary=f"Ended {suspension.membership.person}'s suspension early: last day {last_day} (was {before})",
        reason=reason.strip(),
        data={"end_before": before.isoformat(), "end_after": last_day.isoformat()},
    )
    return suspension


@transaction.atomic
def rules_signature_record(
    *, membership: Membership, signed_on: dt.date, actor: Actor = None
) -> RulesSignature:
    """The Vice President records that the member signed the season's rules document (§2.4, §3.5.5)."""
    if signed_on > membership.season.end:
        raise NcpcError(f"{signed_on:%b %-d, %Y} is after season {membership.season}.")
    user = actor_user(actor)
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


@transaction.atomic
def rules_signatures_record(
    *, memberships: Sequence[Membership], signed_on: dt.date, actor: Actor = None
) -> list[RulesSignature]:
    """Many members' signatures of their season's rules document at once (a first night, a mid-season
    start): all or nothing, one audit row each. Refused when a member has signed already or the date is
    after their season."""
    if not memberships:
        raise NcpcError("Tick the members who signed.")
    locked = list(
        Membership.objects.select_for_update()
        .select_related("person", "season")
        .filter(pk__in=[m.pk for m in memberships])
        .order_by("person__last_name", "person__first_name", "pk")
    )
    late = [m for m in locked if signed_on > m.season.end]
    if late:
        raise NcpcError(f"{signed_on:%b %-d, %Y} is after season {late[0].season}. Nothing was recorded.")
    signed = set(RulesSignature.objects.filter(membership__in=locked).values_list("membership_id", flat=True))
    if signed:
        names = ", ".join(str(m.person) for m in locked if m.pk in signed)
        raise NcpcError(f"Signed already: {names}. Nothing was recorded; untick them and send again.")
    user = actor_user(actor)
    try:
        with transaction.atomic():
            created = RulesSignature.objects.bulk_create(
                [RulesSignature(membership=m, signed_on=signed_on, recorded_by=user) for m in locked]
            )
    except IntegrityError as exc:  # recorded in another tab a moment ago
        raise NcpcError("A signature was recorded meanwhile; reload the page. Nothing was recorded.") from exc
    by_membership = {m.pk: m for m in locked}
    audit_record_many(
        actor=actor,
        action="member.sign_rules",
        entries=[
            (
                signature,
                f"{by_membership[signature.membership_id].person} signed the rules document of "
                f"{by_membership[signature.membership_id].season} on {signed_on}",
            )
            for signature in created
        ],
        data={"bulk": len(created)},
    )
    return created


@transaction.atomic
def rules_signature_withdraw(*, signature: RulesSignature, reason: str, actor: Actor) -> Membership:
    """Take back a signature recorded by mistake (the wrong member, or a document not actually signed). The member
    is unsigned again: results entry refuses them until a signature is recorded (§2.4). Results already final are
    not changed; seats already listed for an open event are asked again by "check again"."""
    locked = (
        RulesSignature.objects.select_for_update()
        .select_related("membership__person", "membership__season")
        .filter(pk=signature.pk)
        .first()
    )
    if locked is None:
        raise NcpcError("That signature has been withdrawn already.")
    signature = locked
    if not reason.strip():
        raise NcpcError("Give the reason for withdrawing the signature.")
    membership = signature.membership
    audit_record(
        actor=actor,
        action="member.rules_signature_withdrawn",
        target=membership,
        summary=f"Withdrew {membership.person}'s signature of the {membership.season} rules "
        f"(recorded as signed on {signature.signed_on})",
        reason=reason.strip(),
        data={"signed_on": signature.signed_on.isoformat()},
    )
    signature.delete()
    return membership
