from django.urls import path

from finance import views, views_bank

app_name = "finance"

urlpatterns = [
    path("", views.index, name="index"),
    path("me/", views.me, name="me"),
    path("members/<int:membership_id>/", views.statement, name="statement"),
    path("members/<int:membership_id>/waive/", views.waive, name="waive"),
    path("payments/", views.payments, name="payments"),
    path("payments/outlook/<int:membership_id>/", views.payment_outlook, name="payment_outlook"),
    path("payments/<int:pk>/", views.receipt, name="receipt"),
    path("payments/<int:pk>/reverse/", views.payment_reverse, name="payment_reverse"),
    path("ledger/", views.ledger, name="ledger"),
    path("ledger/<int:pk>/", views.transaction_detail, name="transaction"),
    path("ledger/transfer/", views.transfer, name="transfer"),
    path("opening-balances/", views.opening_balances, name="opening_balances"),
    path("opening-balances/<int:pk>/correct/", views.opening_balance_correct, name="opening_balance_correct"),
    path("payouts/", views.payouts, name="payouts"),
    path("payouts/<int:event_id>/pay/", views.payout_post, name="payout_post"),
    path("wsop/", views.wsop, name="wsop"),
    path("wsop/escrow/", views.wsop_escrow, name="wsop_escrow"),
    path("wsop/winnings/", views.wsop_result, name="wsop_result"),
    path("checks/", views.checks, name="checks"),
    path("checks/<int:pk>/approve/", views.check_approve, name="check_approve"),
    path("door/<str:season>/<int:number>/", views.door_list, name="door_list"),
    path("reminders/", views.reminders, name="reminders"),
    path("reports/", views.report_current, name="report_current"),
    path("reports/<int:year>/<int:month>/", views.report, name="report"),
    path("reports/<int:year>/<int:month>/close/", views.report_close, name="report_close"),
    # Bank statements (SPEC §17.3) and the reconciliation (SPEC §17.4).
    path("bank/", views_bank.statements, name="bank_statements"),
    path("bank/<int:year>/<int:month>/", views_bank.statements_month, name="bank_month"),
    path("bank/statements/<int:pk>/file/", views_bank.statement_file, name="bank_statement_file"),
    path("bank/<slug:code>/<int:year>/<int:month>/", views_bank.reconcile, name="reconcile"),
    path(
        "bank/<slug:code>/<int:year>/<int:month>/import/",
        views_bank.reconcile_import,
        name="reconcile_import",
    ),
    path(
        "bank/<slug:code>/<int:year>/<int:month>/balance/",
        views_bank.reconcile_balance,
        name="reconcile_balance",
    ),
    path(
        "bank/<slug:code>/<int:year>/<int:month>/difference/",
        views_bank.reconcile_difference,
        name="reconcile_difference",
    ),
    path("bank/lines/<int:pk>/match/", views_bank.line_match, name="bank_line_match"),
    path("bank/lines/<int:pk>/unmatch/", views_bank.line_unmatch, name="bank_line_unmatch"),
]
