"""Amounts as a member reads them on a statement or report (issue 35)."""

from decimal import Decimal, InvalidOperation

from django import template

from ncpc.core.money import credit_display, money_display

register = template.Library()


@register.filter
def balance(value) -> str:
    """A running balance: what is owed as $110.00, a balance below zero as "credit $910.00" (SPEC: a member
    who paid ahead shows a credit, never a negative amount); empty for no amount."""
    if value is None or value == "":
        return ""
    try:
        amount = Decimal(value)
    except (InvalidOperation, TypeError, ValueError):
        return ""
    return credit_display(-amount) if amount < 0 else money_display(amount)


@register.filter
def statement_balance(line, left_on=None) -> str:
    """A statement line's balance (``balance``); once the member has left (``left_on``), money beyond the
    charges is the club's (§2.12, SPEC §16.2), never a credit: "$910.00 kept by the club"."""
    amount = getattr(line, "balance", None)
    if amount is not None and amount < 0 and left_on and line.date >= left_on:
        return f"{money_display(-amount)} kept by the club"
    return balance(amount)
