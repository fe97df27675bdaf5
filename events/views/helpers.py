"""What the event pages share: the event of the page address, a page open to any one of several rights, the
numbers a form posts, and the night's actions run from a plain form through the night's one registry
(``events.services.night_actions``)."""

from collections.abc import Callable, Mapping
from functools import wraps
from typing import Any

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse, HttpResponseBadRequest, JsonResponse
from django.shortcuts import redirect

from events import selectors
from events.models import Event
from events.services import night_actions
from events.services.attendance import roster_without_seat
from ncpc.core.errors import NcpcError, NotAllowed
from ncpc.core.permissions import Action, user_can


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


def require_any(*rights: Action):
    """As ``require``, for a page or action open to any one of ``rights`` (the night's attendance and door:
    the Vice President's and the Treasurer's, issue 34). Anonymous → login page; neither right → 403."""

    def decorator(view):
        @wraps(view)
        def wrapper(request, *args, **kwargs):
            if not request.user.is_authenticated:
                return redirect_to_login(request.get_full_path())
            if not any(user_can(request.user, right) for right in rights):
                raise PermissionDenied(
                    "Your role does not allow this page or action. If you think it should, ask an officer."
                )
            return view(request, *args, **kwargs)

        return wrapper

    return decorator


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
    """The version (of the results, the seats or the clock) the page showed; a form without it is treated as
    stale (-1 matches no version)."""
    return posted_int(request, name, default=-1)


def command_json(
    request,
    command: Callable[..., Any],
    *,
    status: int = 400,
    extra: Callable[[], dict] | None = None,
    **kwargs: Any,
) -> tuple[Any, JsonResponse | None]:
    """``command_run`` for a JSON endpoint: ``(result, None)``, or ``(None, answer)`` when the command refused:
    ``{"error": …}`` (with ``extra()``), ``status``, or 403 when the user or the device is not allowed."""
    try:
        return command(actor=request.user, **kwargs), None
    except NcpcError as exc:
        body = {"error": str(exc), **(extra() if extra else {})}
        return None, JsonResponse(body, status=403 if isinstance(exc, NotAllowed) else status)


def night_act(
    request, event: Event, name: str, payload: Mapping[str, Any] | None = None, *, success: bool = True
) -> night_actions.Outcome:
    """Run a night action from a plain form (the version posted is that of the part of the night it checks);
    its message, or the refusal, is shown on the next page. An unreadable request shows nothing: the view
    answers it with ``unreadable_answer``."""
    outcome = night_actions.attempt(
        name,
        event=event,
        actor=request.user,
        payload=request.POST if payload is None else payload,
        versions={night_actions.ACTIONS[name].area: posted_version(request)},
    )
    if outcome.unreadable:
        return outcome
    if outcome.conflict:
        messages.warning(request, outcome.error)
    elif outcome.error:
        messages.error(request, outcome.error)
    elif success and outcome.done:
        messages.success(request, outcome.done.message)
    return outcome


def unreadable_answer(outcome: night_actions.Outcome) -> HttpResponse:
    """400 with the reason, for a request the app's own pages never send (an undo that names no bust)."""
    return HttpResponseBadRequest(outcome.error, content_type="text/plain; charset=utf-8")


def night_form(
    request, event: Event, name: str, *, to: str, payload: Mapping[str, Any] | None = None
) -> HttpResponse:
    """``night_act``, then back to the page ``to`` (a URL name of the event), or 400 when unreadable."""
    outcome = night_act(request, event, name, payload)
    if outcome.unreadable:
        return unreadable_answer(outcome)
    return redirect(to, season=event.season.name, number=event.number)
