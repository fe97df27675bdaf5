"""Standings listen to events' signals (events does not import standings)."""

from django.dispatch import receiver

from events.signals import results_final
from standings.services.notices import results_email_send


@receiver(results_final, dispatch_uid="standings_results_email")
def results_final_email(sender, event, **kwargs):
    results_email_send(event=event)
