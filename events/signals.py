"""Signals other apps listen to, so events does not import them."""

from django.dispatch import Signal

# Sent (from transaction.on_commit) when an event's results become final: kwargs ``event``.
results_final = Signal()

# Sent inside ``season_create``'s transaction when a season is created: kwargs ``season``, ``rules_copied``
# (True when its rules were copied from the season before rather than given) and ``actor``.
season_created = Signal()
