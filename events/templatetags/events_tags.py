from decimal import Decimal

from django import template
from django.utils.safestring import SafeString

from events.addresses import address as _address
from events.html import rsvp_form_html
from ncpc.money import percent_str

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


@register.simple_tag(takes_context=True)
def rsvp_form(context, card, back: str) -> SafeString:
    """The member's own answer for an event as forms (``events.html.rsvp_form_html``), with the page's CSRF
    token."""
    return rsvp_form_html(card, back=back, csrf_token=context.get("csrf_token", ""))


@register.simple_tag
def address(name: str, *args) -> str:
    """``{% url %}`` for a season's and an event's pages, without a reverse() each (``events.addresses``)."""
    return _address(name, *args)
