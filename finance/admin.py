"""Finance records in the Django admin, read-only: money changes only through the club's pages and commands
(which audit them), and the ledger is append-only in the database as well (finance migration 0003)."""

from django.contrib import admin

from finance.models import (
    Account,
    ClosedMonth,
    Disbursement,
    DisbursementApproval,
    DuesReminder,
    Entry,
    LateFeeWaiver,
    OpeningBalance,
    Payment,
    Transaction,
    WsopResult,
)
from ncpc.core.admin_read_only import ReadOnlyAdmin, ReadOnlyTabularInline


class EntryInline(ReadOnlyTabularInline):
    model = Entry
    fields = ("account", "amount", "membership", "memo")
    readonly_fields = fields


@admin.register(Transaction)
class TransactionAdmin(ReadOnlyAdmin):
    list_display = ("pk", "date", "kind", "memo", "reverses", "created_by", "created_at")
    list_filter = ("kind",)
    search_fields = ("memo", "key")
    date_hierarchy = "date"
    inlines = [EntryInline]


@admin.register(Entry)
class EntryAdmin(ReadOnlyAdmin):
    list_display = ("transaction", "account", "amount", "membership", "memo")
    list_filter = ("account",)
    list_select_related = ("transaction", "account", "membership__person")


@admin.register(OpeningBalance)
class OpeningBalanceAdmin(ReadOnlyAdmin):
    list_display = ("account", "date", "amount", "note", "transaction", "recorded_by", "corrected_on")
    list_select_related = ("account", "transaction", "recorded_by")


@admin.register(Payment)
class PaymentAdmin(ReadOnlyAdmin):
    list_display = ("pk", "date", "membership", "amount", "method", "reference", "transaction")
    list_select_related = ("membership__person", "membership__season", "transaction")
    date_hierarchy = "date"


class ApprovalInline(ReadOnlyTabularInline):
    model = DisbursementApproval
    fields = ("officer", "office", "user", "at")
    readonly_fields = fields


@admin.register(Disbursement)
class DisbursementAdmin(ReadOnlyAdmin):
    list_display = ("date", "check_number", "payee", "amount", "from_account", "to_account", "status")
    list_filter = ("status", "from_account")
    inlines = [ApprovalInline]


admin.site.register(Account, ReadOnlyAdmin)
admin.site.register(ClosedMonth, ReadOnlyAdmin)
admin.site.register(LateFeeWaiver, ReadOnlyAdmin)
admin.site.register(WsopResult, ReadOnlyAdmin)
admin.site.register(DuesReminder, ReadOnlyAdmin)
