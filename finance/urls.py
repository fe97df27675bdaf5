from django.urls import path

from finance import views

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
]
