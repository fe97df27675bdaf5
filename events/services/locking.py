"""Optimistic concurrency for an event's results (two officers entering at once)."""

from events.models import Event
from ncpc.core.errors import ConcurrentChange, NcpcError


def event_lock(*, event: Event, version: int | None) -> Event:
    """Lock the event row and check the results version the officer's page showed.

    ``version=None`` skips the check (only for commands that merely add what is missing).
    """
    locked = Event.objects.select_for_update().select_related("season").get(pk=event.pk)
    if version is not None and locked.results_version != version:
        raise ConcurrentChange(
            f"The results of event {locked.number} changed meanwhile (another officer entered something). "
            "Reload the page, check, and try again."
        )
    return locked


def event_lock_open(*, event: Event, version: int) -> Event:
    """``event_lock``, refusing an event whose results are final (a correction reopens them first)."""
    locked = event_lock(event=event, version=version)
    if locked.status == Event.Status.FINAL:
        raise NcpcError(
            "The results of this event are final. Reopen them for a correction (with a reason) first."
        )
    return locked


def event_bump(*, event: Event) -> None:
    event.results_version += 1
    event.save(update_fields=["results_version", "status"])
