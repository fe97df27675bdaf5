"""What the event pages share: the event of the page address, and the numbers a form posts."""

from functools import wraps

from django.http import Http404

from events import selectors
from events.models import Event
from events.services.attendance import roster_without_seat


def event_view(view):
    """View decorator: hand the view the event of its address (``season`` and ``number`` from the URL) as
    ``event``; 404 when the season has no such event. Put it under the permission decorators, so that only
    those allowed learn which events exist."""

    @wraps(view)
    def wrapper(request, *args, season: str, number: int, **kwargs):
        event = selectors.event_by_name(season_name=season, number=number)
        if event is None:
            raise Http404("No such event.")
        return view(request, *args, event=event, **kwargs)

    return wrapper


def seats_to_list(*, event: Event) -> int:
    """How many members on the event's roster have no seat yet ("Open the night" lists them); none once the
    results are final."""
    if event.status == Event.Status.FINAL:
        return 0
    return len(roster_without_seat(event=event))


# The largest whole number both databases store (a 64-bit signed integer); a larger one posted is no number
# of ours, and SQLite refuses even to compare with it.
INT_LIMIT = 2**63 - 1


def as_int(value, *, default: int = 0) -> int:
    """A whole number from posted text; ``default`` when it is missing, not a number or out of range."""
    try:
        number = int(value)
    except (TypeError, ValueError):
        return default
    return number if -INT_LIMIT <= number <= INT_LIMIT else default


def posted_int(request, name: str, *, default: int = 0) -> int:
    return as_int(request.POST.get(name), default=default)


def posted_version(request, name: str = "version") -> int:
    """The data version the page showed; a form without it is treated as stale (-1 matches no version)."""
    return posted_int(request, name, default=-1)
