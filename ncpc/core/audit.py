"""Writing the audit trail. Call inside the command's transaction."""

from collections.abc import Sequence
from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import AnonymousUser, User
from django.db import models

from ncpc.core.models import AuditEntry

# Who did it: the signed-in user of a request, an anonymous visitor, or nobody (a command run by the system).
Actor = AbstractBaseUser | AnonymousUser | None


def actor_user(actor: Actor) -> User | None:
    """The signed-in user, or None for a visitor or the system (only a signed-in user is recorded)."""
    return actor if isinstance(actor, User) and actor.is_authenticated else None


def actor_signed_in(actor: Actor) -> User:
    """The signed-in user a record must name (its foreign key is not null): no one else can do this."""
    user = actor_user(actor)
    if user is None:
        raise ValueError(f"A signed-in user must do this, not {actor!r}.")
    return user


def audit_record(
    *,
    actor: Actor,
    action: str,
    summary: str,
    target: models.Model | None = None,
    reason: str = "",
    data: dict[str, Any] | None = None,
) -> AuditEntry:
    user = actor_user(actor)
    return AuditEntry.objects.create(
        actor=user,
        action=action,
        target_type=target._meta.label_lower if target is not None else "",
        target_id=str(target.pk) if target is not None else "",
        summary=summary[:300],
        reason=reason,
        data=data or {},
    )


def audit_record_many(
    *,
    actor: Actor,
    action: str,
    entries: Sequence[tuple[models.Model, str]],
    data: dict[str, Any] | None = None,
) -> int:
    """One audit row per (target, summary), written in one statement: what a bulk command (a spreadsheet of
    thousands of rows) writes instead of ``audit_record`` per row. Call inside the command's transaction."""
    if not entries:
        return 0
    user = actor_user(actor)
    AuditEntry.objects.bulk_create(
        (
            AuditEntry(
                actor=user,
                action=action,
                target_type=target._meta.label_lower,
                target_id=str(target.pk),
                summary=summary[:300],
                data=data or {},
            )
            for target, summary in entries
        ),
        batch_size=1000,
    )
    return len(entries)
