"""What the event pages share: the event of the page address, and the numbers a form posts."""

from functools import wraps

from django.http import Http404

from events import selectors


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


def as_int(value, *, default: int = 0) -> int:
    """A whole number from posted text; ``default`` when it is missing or not a number."""
    try:
        return int(value)
    except (TypeError, ValueError):
        return default


def posted_int(request, name: str, *, default: int = 0) -> int:
    return as_int(request.POST.get(name), default=default)


def posted_version(request, name: str = "version") -> int:
    """The data version the page showed; a form without it is treated as stale (-1 matches no version)."""
    return posted_int(request, name, default=-1)
