"""The monthly report's bank block (SPEC §17.3, §17.4): the month's statements and each bank account's
reconciliation, with a recorded difference and its reason. A tag, so that the report's view is not widened."""

import datetime as dt

from django import template

from finance.services.bank_statements import StatementMonth, bank_statements_by_month
from finance.services.reconciliation import Reconciliation, reconciliations_of_month
from ncpc.core.audit import Actor
from ncpc.core.permissions import Action, user_can

register = template.Library()


@register.simple_tag
def bank_month(month: dt.date, user: Actor) -> dict[str, object]:
    """``{% bank_month report.start request.user as bank %}``: ``bank.statements``, ``bank.reconciliations``
    and ``bank.may_reconcile`` (the Treasurer's link to each reconciliation)."""
    statements: list[StatementMonth] = bank_statements_by_month(month=month)
    reconciliations: list[Reconciliation] = reconciliations_of_month(month=month)
    return {
        "statements": statements,
        "reconciliations": reconciliations,
        "may_reconcile": user_can(user, Action.MANAGE_LEDGER),
    }
