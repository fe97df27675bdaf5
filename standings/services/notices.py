"""The e-mail to members after a night: places, payouts and the new standings (once per finish; corrected
results after a reopening are e-mailed again)."""

import logging

from django.db import IntegrityError, transaction
from django.template.loader import render_to_string
from django.urls import reverse

from events import selectors as event_selectors
from events.models import Event
from finance.selectors import payouts as finance_payouts
from members import selectors as member_selectors
from ncpc.core.errors import NcpcError
from ncpc.core.identity import club_identity
from ncpc.core.mail import Mail, mail_queue, site_link
from ncpc.core.models import MailDelivery
from standings.models import ResultsNotice
from standings.selectors import season_standings

logger = logging.getLogger(__name__)


def results_email_send(*, event: Event) -> int:
    """Queue the night's results for every member of that event who has an e-mail address, one message each
    (the task worker sends them after this commits; a request never waits on the mail server).

    Once per finish: the same finish announced twice queues nothing more; a finish after the results were
    reopened queues the corrected results. Returns the number of messages queued (0 when the season turned
    the e-mail off or this finish was e-mailed already).
    """
    season = event.season
    if not season.results_email:
        return 0
    with transaction.atomic():
        locked = Event.objects.select_for_update().get(pk=event.pk)
        if locked.status != Event.Status.FINAL:
            return 0  # reopened again before this ran: the next finish sends the corrected results
        corrected = ResultsNotice.objects.filter(event=locked).exists()
        try:
            with transaction.atomic():
                notice = ResultsNotice.objects.create(
                    event=locked, results_version=locked.results_version, corrected=corrected
                )
        except IntegrityError:
            return 0  # this finish was e-mailed already
        messages = _results_messages(event=locked, corrected=corrected)
        mail_queue(
            kind=MailDelivery.Kind.RESULTS_CORRECTED if corrected else MailDelivery.Kind.RESULTS,
            messages=messages,
            reference=f"event:{locked.pk}",
        )
        notice.recipients = len(messages)
        notice.save(update_fields=["recipients"])
    logger.info("Results e-mail for %s queued for %s members", event, notice.recipients)
    return notice.recipients


def _results_messages(*, event: Event, corrected: bool) -> list[Mail]:
    season = event.season
    roster = member_selectors.roster_for_event(season=season, event_number=event.number)
    names = {m.pk: m.person.full_name for m in roster}
    placings = event_selectors.event_placings(event=event)
    try:
        payouts = {line.place: line for line in finance_payouts.event_payout_lines(event=event)}
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
    subject = f"{club_identity().short_name} {'corrected ' if corrected else ''}results: event {event.number} of {season} ({event.date:%b %-d})"
    messages = []
    link = site_link(reverse("standings:current"))
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
                "corrected": corrected,
                "link": link,
                "club": club_identity(),
            },
        )
        messages.append(Mail(to=membership.person.email, subject=subject, body=body))
    return messages
