from django import template
from django.utils.safestring import SafeString

from finance.html import outlook_html, standing_badge_html
from finance.services.forecast import DuesOutlook
from ncpc.permissions import Action, user_can

register = template.Library()


@register.filter
def may_record_payments(user) -> bool:
    """For links to the payment pages (the door list) on other apps' pages."""
    return bool(user and user_can(user, Action.RECORD_PAYMENTS))


@register.simple_tag
def dues_outlook(outlook: DuesOutlook) -> SafeString:
    """What the member owes next (``finance.html.outlook_html``)."""
    return outlook_html(outlook)


@register.simple_tag
def standing_badge(ok: bool) -> SafeString:
    """The "Good standing" / "Not in good standing" badge."""
    return standing_badge_html(bool(ok))
