from django import template

from ncpc.core.permissions import Action, user_can

register = template.Library()


@register.filter
def may_record_payments(user) -> bool:
    """For links to the payment pages (the door list) on other apps' pages."""
    return bool(user and user_can(user, Action.RECORD_PAYMENTS))
