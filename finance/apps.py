from django.apps import AppConfig


class FinanceConfig(AppConfig):
    name = "finance"

    def ready(self) -> None:
        # Finance answers the questions of the layers below it (see ncpc.core.hooks).
        from events import hooks as events_hooks
        from finance import profile  # noqa: F401  (registers the "Dues" panel of a member's profile)
        from finance.selectors import dues, payouts
        from finance.services import ledger
        from finance.services import payouts as payout_tables
        from members import hooks as members_hooks

        events_hooks.good_standing.connect(dues.good_standing)
        events_hooks.amount_owed.connect(dues.amount_owed)
        events_hooks.event_payout_lines.connect(payouts.event_payout_lines)
        events_hooks.payout_amounts.connect(payout_tables.payout_amounts)
        events_hooks.closed_month_refusal.connect(ledger.closed_month_refusal)
        members_hooks.dues_paid_up.connect(dues.dues_paid_up)
        members_hooks.last_payment_on.connect(dues.last_payment_on)
