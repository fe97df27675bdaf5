"""Signals other apps listen to, so events does not import them."""

from django.dispatch import Signal

# Sent (from transaction.on_commit) when an event's results become final: kwargs ``event``.
results_final = Signal()
