"""The night console (issue 19): attendance, seats and tables, the clock and bust entry on one screen for the
officers running the night, kept live on every open phone and laptop.

- ``console``: the page (works without JavaScript: every button is a plain form posting to ``console_act``).
- ``console_state``: the state as JSON with the rendered parts; ``?since=<version>`` answers 204 (no body)
  while the night's version (``events.services.console.night_version``) is unchanged.
- ``console_act``: every command of the console, one POST each, with the version the page showed, run through
  the night's one registry of actions (``events.services.night_actions``). With
  ``Accept: application/json`` the answer is ``{ok, message, error, conflict, state}``; otherwise a message
  and a redirect back to the console.
"""

from django.contrib import messages
from django.http import HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from events.models import Event
from events.services import console as console_services
from events.services import night_actions
from events.views.helpers import as_int, event_view, require_any, unreadable_answer
from events.views.results import ABUSE_OFFICES
from ncpc.core.permissions import Action, user_can

PARTS = ("clock", "attendance", "tables", "busts")
# The console is the Vice President's (the results) and the Treasurer's (attendance and the door, issue 34);
# each action still checks its own right (``night_actions``).
CONSOLE_RIGHTS = (Action.ENTER_RESULTS, Action.RECORD_PAYMENTS)


def _versions(raw: str) -> tuple[int, int, int]:
    """The "results.clock.seats" version a console posted; (-1, -1, -1) when missing or unreadable (stale)."""
    parts = (raw or "").split(".")
    if len(parts) != 3:
        return (-1, -1, -1)
    results, clock, seats = (as_int(p, default=-1) for p in parts)
    return (results, clock, seats)


def _door_url(event: Event) -> str:
    """The Treasurer's door list of who must pay to play (finance), as an HTML fragment for the console."""
    kwargs = {"season": event.season.name, "number": event.number}
    return reverse("finance:door_list", kwargs=kwargs) + "?fragment=1"


def _context(request, event: Event, state: dict) -> dict:
    return {
        "event": event,
        "season": event.season,
        "s": state,
        "request": request,
        "seats_to_list": state["seats_to_list"],
        "seats_listed": bool(state["listed"]),
        # The Treasurer sees the night and runs attendance and the door; the results are the Vice President's.
        "can_results": user_can(request.user, Action.ENTER_RESULTS),
        "abuse_offices": ABUSE_OFFICES,
        "night_date_note": console_services.night_date_note(event=event, doing="Open the night"),
    }


def _parts(request, event: Event, state: dict) -> dict[str, str]:
    context = _context(request, event, state)
    return {
        part: render_to_string(f"events/night/console/{part}.html", context, request=request)
        for part in PARTS
    }


def _state_json(request, event: Event, *, fresh: bool = True) -> dict:
    state = console_services.console_state(event=event, fresh=fresh)
    return {**state, "html": _parts(request, event, state)}


@require_GET
@require_any(*CONSOLE_RIGHTS)
@event_view
def console(request, event):
    state = console_services.console_state(event=event, fresh=False)
    return render(
        request,
        "events/night/console.html",
        {
            **_context(request, event, state),
            "state_json": state,
            # Only for those who may open the door list (the Treasurer's): others would be refused every poll.
            "door_url": _door_url(event) if user_can(request.user, Action.RECORD_PAYMENTS) else "",
            # "Last heard the server" and the queued changes' times are shown in the club's time zone.
            "time_zone": timezone.get_current_timezone_name(),
        },
    )


@never_cache
@require_GET
@require_any(*CONSOLE_RIGHTS)
@event_view
def console_state(request, event):
    since = request.GET.get("since", "")
    shown = request.GET.get("conflicts")  # the count of changes waiting the console shows (absent: not asked)
    if (
        since
        and since == console_services.night_version(event=event)
        and (shown is None or shown == str(console_services.changes_waiting(event=event)))
    ):
        return HttpResponse(status=204)
    return JsonResponse(_state_json(request, event, fresh=False))


@require_POST
@require_any(*CONSOLE_RIGHTS)
@event_view
def console_act(request, event):
    action = request.POST.get("action", "")
    wants_json = "application/json" in request.headers.get("Accept", "")
    results_v, clock_v, seats_v = _versions(request.POST.get("version", ""))
    name, payload = night_actions.action_name(action, request.POST)
    outcome = night_actions.attempt(
        name,
        event=event,
        actor=request.user,
        payload=payload,
        versions={"results": results_v, "clock": clock_v, "seats": seats_v},
    )
    message = outcome.done.message if outcome.done else ""
    error, conflict = outcome.error, outcome.conflict
    if conflict:
        error = (
            "Not recorded: the page was out of date (another officer changed the night, or this was recorded "
            "already). The screen now shows the night as it is: check, and try again if still needed."
        )
    if wants_json:
        body = {
            "ok": not error,
            "message": message,
            "error": error,
            "conflict": conflict,
            "state": _state_json(request, event),
        }
        return JsonResponse(body, status=409 if conflict else (400 if error else 200))
    if outcome.unreadable:
        return unreadable_answer(outcome)
    if error:
        messages.error(request, error)
    else:
        messages.success(request, message)
    anchor = {"bust": "#tables", "undo": "#busts", "move": "#tables", "final": "#tables"}.get(action, "")
    url = reverse("events:console", kwargs={"season": event.season.name, "number": event.number})
    return redirect(url + anchor)
