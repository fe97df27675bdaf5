from decimal import Decimal

from django import template

from ncpc.core.money import percent_str

register = template.Library()


@register.filter
def dollars(value) -> str:
    """An amount in a sentence: Decimal('1500.00') → '$1,500', Decimal('12.50') → '$12.50'."""
    try:
        amount = Decimal(value)
    except (TypeError, ArithmeticError, ValueError):
        return ""
    return f"${amount:,.0f}" if amount == amount.to_integral_value() else f"${amount:,.2f}"


@register.filter
def percent(value) -> str:
    """A rule's percentage: Decimal('1.00') → '1%', Decimal('2.50') → '2.5%'."""
    try:
        return percent_str(value)
    except (TypeError, ArithmeticError, ValueError):
        return ""


@register.filter
def thousands(value) -> str:
    """12500 → '12,500' (chip counts)."""
    try:
        return f"{int(value):,}"
    except (TypeError, ValueError):
        return ""
