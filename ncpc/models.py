from django.conf import settings
from django.db import models


class AuditEntry(models.Model):
    """Who changed what, when and why: one row per change to members, results, money or rules.

    Rows are only ever added. Commands write them inside their own transaction, so a change and its audit
    row land together or not at all.
    """

    at = models.DateTimeField(auto_now_add=True)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    action = models.CharField(max_length=80)
    target_type = models.CharField(max_length=80, blank=True)
    target_id = models.CharField(max_length=64, blank=True)
    summary = models.CharField(max_length=300)
    reason = models.TextField(blank=True)
    data = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ("-at", "-pk")
        verbose_name_plural = "audit entries"
        indexes = [models.Index(fields=["target_type", "target_id"], name="ncpc_audit_target_idx")]

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M} {self.action}: {self.summary}"


class DataVersion(models.Model):
    """One row (id 1) whose number moves on with every committed change to the club's data.

    Computed pages are cached under it (ncpc/cache.py). It is bumped inside the writing transaction, as its
    last statement before COMMIT, so readers see the new number only together with the new data.
    """

    id = models.PositiveSmallIntegerField(primary_key=True, default=1)
    n = models.BigIntegerField(default=0)

    class Meta:
        constraints = [models.CheckConstraint(condition=models.Q(id=1), name="ncpc_dataversion_one_row")]

    def __str__(self) -> str:
        return f"data version {self.n}"

    @classmethod
    def bump(cls, *, using: str) -> None:
        """``n = n + 1`` in the caller's transaction; the row lock makes writers commit one after the other."""
        rows = cls.objects.using(using).filter(pk=1)
        if not rows.update(n=models.F("n") + 1):
            # The row went missing (a test database is flushed between transactional tests).
            cls.objects.using(using).create(pk=1, n=1)
