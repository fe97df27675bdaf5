from decimal import Decimal, InvalidOperation

from django import template

from ncpc.core.money import credit_display, money_display

register = template.Library()


@register.filter
def money(value) -> str:
    """$1,234.50 (−$12.00 when negative); empty for no amount."""
    if value is None or value == "":
        return ""
    try:
        return money_display(Decimal(value))
    except (InvalidOperation, TypeError, ValueError):
        return ""


@register.filter
def credit(value) -> str:
    """A credit on an account, given as the positive amount paid ahead: "credit $100.00"."""
    return credit_display(Decimal(value)) if money(value) else ""
