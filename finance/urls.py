from django.urls import path

from finance.views import bank, checks, door, dues, ledger, opening_balances, payments, payouts, reports

app_name = "finance"

urlpatterns = [
    path("", dues.index, name="index"),
    path("me/", dues.me, name="me"),
    path("members/<int:membership_id>/", dues.statement, name="statement"),
    path("members/<int:membership_id>/waive/", dues.waive, name="waive"),
    path("payments/", payments.payments, name="payments"),
    path("payments/outlook/<int:membership_id>/", payments.payment_outlook, name="payment_outlook"),
    path("payments/<int:pk>/", payments.receipt, name="receipt"),
    path("payments/<int:pk>/reverse/", payments.payment_reverse, name="payment_reverse"),
    path("ledger/", ledger.ledger, name="ledger"),
    path("ledger/<int:pk>/", ledger.transaction_detail, name="transaction"),
    path("ledger/transfer/", ledger.transfer, name="transfer"),
    path("opening-balances/", opening_balances.opening_balances, name="opening_balances"),
    path(
        "opening-balances/<int:pk>/correct/",
        opening_balances.opening_balance_correct,
        name="opening_balance_correct",
    ),
    path("payouts/", payouts.payouts, name="payouts"),
    path("payouts/<int:event_id>/pay/", payouts.payout_post, name="payout_post"),
    path("wsop/", payouts.wsop, name="wsop"),
    path("wsop/escrow/", payouts.wsop_escrow, name="wsop_escrow"),
    path("wsop/winnings/", payouts.wsop_result, name="wsop_result"),
    path("checks/", checks.checks, name="checks"),
    path("checks/<int:pk>/approve/", checks.check_approve, name="check_approve"),
    path("checks/<int:pk>/void/", checks.check_void, name="check_void"),
    path("door/<str:season>/<int:number>/", door.door_list, name="door_list"),
    path("reminders/", dues.reminders, name="reminders"),
    path("reports/", reports.report_current, name="report_current"),
    path("reports/<int:year>/<int:month>/", reports.report, name="report"),
    path("reports/<int:year>/<int:month>/close/", reports.report_close, name="report_close"),
    # Bank statements (SPEC §17.3) and the reconciliation (SPEC §17.4).
    path("bank/", bank.statements, name="bank_statements"),
    path("bank/<int:year>/<int:month>/", bank.statements_month, name="bank_month"),
    path("bank/statements/<int:pk>/file/", bank.statement_file, name="bank_statement_file"),
    path("bank/<slug:code>/<int:year>/<int:month>/", bank.reconcile, name="reconcile"),
    path(
        "bank/<slug:code>/<int:year>/<int:month>/import/",
        bank.reconcile_import,
        name="reconcile_import",
    ),
    path(
        "bank/<slug:code>/<int:year>/<int:month>/balance/",
        bank.reconcile_balance,
        name="reconcile_balance",
    ),
    path(
        "bank/<slug:code>/<int:year>/<int:month>/difference/",
        bank.reconcile_difference,
        name="reconcile_difference",
    ),
    path("bank/lines/<int:pk>/match/", bank.line_match, name="bank_line_match"),
    path("bank/lines/<int:pk>/unmatch/", bank.line_unmatch, name="bank_line_unmatch"),
    # A closed month's event corrected (SPEC §17.2): its payout difference, approved like a check.
    path("payouts/corrections/", payouts.payout_corrections, name="payout_corrections"),
    path(
        "payouts/corrections/<int:pk>/approve/",
        payouts.payout_correction_approve_view,
        name="payout_correction_approve",
    ),
    path(
        "payouts/corrections/<int:pk>/void/",
        payouts.payout_correction_void_view,
        name="payout_correction_void",
    ),
]
