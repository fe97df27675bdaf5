"""Whether finishing a night's results e-mails the members (issue 47): not for a night entered after the fact.

A club that starts in the app mid-season back-enters the nights it already played; each of them, finished
today, would e-mail every member results weeks old. So the results e-mail goes out only for a night whose
results first became final by the club day after its date (a night that ends after midnight still mails). A
correction follows the first finish: the corrected results of a night that was e-mailed are e-mailed again,
those of a night entered after the fact are not. Standings sends the e-mail and asks here; the results pages
say it before and after finishing.
"""

import datetime as dt

from django.utils import timezone

from events.models import Event
from ncpc.core.clock import club_today
from ncpc.core.models import AuditEntry

# Results final on the event's date or the next club day are "tonight's"; later ones are entered after the fact.
MAIL_DAYS_AFTER = 1


def results_first_final_on(*, event: Event) -> dt.date | None:
    """The club day the results of ``event`` first became final (None: never finished in the app)."""
    first = (
        AuditEntry.objects.filter(
            action="results.finish", target_type="events.event", target_id=str(event.pk)
        )
        .order_by("at", "pk")
        .values_list("at", flat=True)
        .first()
    )
    return timezone.localtime(first).date() if first is not None else None


def results_entered_late(*, event_date: dt.date, final_on: dt.date) -> bool:
    """Results made final more than ``MAIL_DAYS_AFTER`` club days after the night: entered after the fact."""
    return (final_on - event_date).days > MAIL_DAYS_AFTER


def results_mail_withheld(*, event: Event, today: dt.date | None = None) -> str:
    """Why finishing ``event`` sends (or sent) no results e-mail, as the pages say it ("" when the e-mail goes,
    or when the season does not e-mail results at all). Before the first finish, finishing today counts; after
    it (a correction too), the day of the first finish."""
    if not event.season.results_email:
        return ""
    first = results_first_final_on(event=event)
    final_on = first or today or club_today()
    if not results_entered_late(event_date=event.date, final_on=final_on):
        return ""
    return (
        ("No results e-mail was sent" if first is not None else "Finishing sends no results e-mail")
        + f": event {event.number} was played on {event.date:%b %-d, %Y} and its results "
        + ("became" if first is not None else "become")
        + f" final on {final_on:%b %-d, %Y}, more than a day after the night. A night entered after the fact "
        "is not e-mailed to the members; results made final on the night or the day after are."
    )
