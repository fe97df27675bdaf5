from django.contrib import admin

from ncpc.core.admin_read_only import ReadOnlyAdmin
from ncpc.core.models import AuditEntry


# The audit trail is written by the club's commands only: the admin shows it and neither adds (a forged row),
# changes nor deletes one.
@admin.register(AuditEntry)
class AuditEntryAdmin(ReadOnlyAdmin):
    list_display = ("at", "actor", "action", "summary")
    list_filter = ("action",)
    search_fields = ("summary", "reason")
