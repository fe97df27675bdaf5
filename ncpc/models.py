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
