"""Writing the audit trail. Call inside the command's transaction: the data version moves on when it commits."""

from typing import Any

from django.db import models

from ncpc.cache import data_version_bump
from ncpc.models import AuditEntry


def audit_record(
    *,
    actor,
    action: str,
    summary: str,
    target: models.Model | None = None,
    reason: str = "",
    data: dict[str, Any] | None = None,
) -> AuditEntry:
    data_version_bump()
    user = actor if getattr(actor, "is_authenticated", False) else None
    return AuditEntry.objects.create(
        actor=user,
        action=action,
        target_type=target._meta.label_lower if target is not None else "",
        target_id=str(target.pk) if target is not None else "",
        summary=summary[:300],
        reason=reason,
        data=data or {},
    )
