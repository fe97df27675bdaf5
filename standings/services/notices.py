"""The e-mail to members after a night: places, payouts and the new standings (sent once per event)."""

import logging

from django.conf import settings
from django.core.mail import EmailMessage, get_connection
from django.db import IntegrityError, transaction
from django.template.loader import render_to_string

from events import selectors as event_selectors
from events.models import Event
from finance import selectors as finance_selectors
from members import selectors as member_selectors
from ncpc.errors import NcpcError
from standings.models import ResultsNotice
from standings.selectors import season_standings

logger = logging.getLogger(__name__)


def results_email_send(*, event: Event) -> int:
    """Send the night's results to every member of that event who has an e-mail address.

    Returns the number of e-mails sent; 0 when the season turned the e-mail off or it was sent already.
    """
    season = event.season
    if not season.results_email:
        return 0
    try:
        with transaction.atomic():
            notice = ResultsNotice.objects.create(event=event)
    except IntegrityError:
        return 0  # already sent for this event
    roster = member_selectors.roster_for_event(season=season, event_number=event.number)
    names = {m.pk: m.person.full_name for m in roster}
    placings = event_selectors.event_placings(event=event)
    try:
        payouts = {line.place: line for line in finance_selectors.event_payout_lines(event=event)}
    except NcpcError:  # no payout row for this member count: the e-mail still carries places and standings
        payouts = {}
    standings = season_standings(season=season, through=None)
    places = [
        {
            "place": p.place,
            "name": names.get(p.membership_id, p.member_key),
            "substitute": p.substitute_name,
            "payout": payouts.get(p.place),
        }
        for p in placings
    ]
    messages = []
    for membership in roster:
        if not membership.person.email:
            continue
        body = render_to_string(
            "standings/email/results.txt",
            {
                "event": event,
                "season": season,
                "person": membership.person,
                "places": places,
                "standings": standings,
                "mine": standings.row_for(membership.pk),
            },
        )
        subject = f"NCPC results: event {event.number} of {season} ({event.date:%b %-d})"
        messages.append(EmailMessage(subject, body, settings.DEFAULT_FROM_EMAIL, [membership.person.email]))
    try:
        sent = get_connection().send_messages(messages) if messages else 0
    except Exception:  # the results are final already: a mail server failure must not turn into a 500
        logger.exception("Results e-mail for %s could not be sent; it will be tried again", event)
        notice.delete()
        return 0
    notice.recipients = sent or 0
    notice.save(update_fields=["recipients"])
    logger.info("Results e-mail for %s sent to %s members", event, notice.recipients)
    return notice.recipients
