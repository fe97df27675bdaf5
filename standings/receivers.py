"""Standings listen to events' signals (events does not import standings)."""

import logging

from django.dispatch import receiver

from events.services.results_mail_late import results_mail_withheld
from events.signals import results_final
from standings.services.notices import results_email_send

logger = logging.getLogger(__name__)


@receiver(results_final, dispatch_uid="standings_results_email")
def results_final_email(sender, event, **kwargs):
    # A night entered after the fact (a club starting mid-season) is not e-mailed: its members saw it played.
    if withheld := results_mail_withheld(event=event):
        logger.info("Results of %s not e-mailed: %s", event, withheld)
        return
    results_email_send(event=event)
