"""A member's dues outlook, good-standing badge and home-page dues panel as HTML, built in Python.

The home page shows them to every member on every visit, recomputed after every payment: as templates (three,
two of them included) they cost a cold home page about 1,000 Python calls, these functions about 100. The
statement page shows the outlook and the badge too, through the template tags of ``finance_tags``. Nothing here
comes from what a person typed (amounts and dates only), and what could is escaped all the same.
"""

from django.utils.safestring import SafeString, mark_safe

from events.addresses import address
from finance.services.dues import DuesStatus
from finance.services.forecast import DuesOutlook
from ncpc.dates import date_text
from ncpc.money import credit_display, money_display


def outlook_html(outlook: DuesOutlook) -> SafeString:
    """What the member owes next: to play at the next event, and the next late fee."""
    items = []
    if outlook.next_event:
        when = date_text(outlook.next_event, "M j")
        if outlook.to_play > 0:
            text = (
                f"To play on <strong>{when}</strong>: pay <strong>{money_display(outlook.to_play)}</strong> "
                "by then (at the door counts)."
            )
        else:
            text = f"You may play on <strong>{when}</strong>: nothing more to pay by then."
        if outlook.due_at_next_event > 0:
            text += f' <span class="text-muted">{money_display(outlook.due_at_next_event)} falls due that day.</span>'
        items.append(f"<li>{text}</li>")
    if outlook.late_fee > 0 and outlook.late_fee_date is not None:
        items.append(
            f'<li class="text-danger">A {money_display(outlook.late_fee)} late fee is charged on '
            f"{date_text(outlook.late_fee_date, 'M j')} unless {money_display(outlook.avoid_late_fee)} is paid by then "
            "(§2.10).</li>"
        )
    return mark_safe('<ul class="list-unstyled mb-0 outlook">\n' + "\n".join(items) + "\n</ul>")  # noqa: S308  # nosec B308 B703: amounts and dates only


def standing_badge_html(ok: bool) -> SafeString:
    if ok:
        return SafeString('<span class="badge text-bg-success">Good standing</span>')
    return SafeString('<span class="badge text-bg-danger">Not in good standing</span>')


def dues_panel_html(*, status: DuesStatus | None, outlook: DuesOutlook, good_standing: bool) -> SafeString:
    """The home page's "My dues" panel: what is due (or the credit), as of when, the badge and the outlook."""
    if status is None:
        return SafeString('<p class="text-muted mb-0">You hold no seat this season.</p>')
    if outlook.balance > 0:
        owed = f'{money_display(outlook.balance)} <small class="text-muted fs-6">due</small>'
    elif outlook.balance < 0:
        owed = credit_display(outlook.credit)
    else:
        owed = "Paid up"
    on = outlook.on
    return mark_safe(  # noqa: S308  # nosec B308 B703: amounts and dates only
        f'<p class="fs-4 mb-1 tabular">{owed}</p>\n'
        f'<p class="small text-muted mb-1">As of {date_text(on, "M j, Y")}</p>\n'
        f'<p class="mb-2">{standing_badge_html(good_standing)}</p>\n'
        f'<div class="small mb-2">{outlook_html(outlook)}</div>\n'
        f'<a href="{address("finance:me")}" class="small">My statement</a>'
    )
