"""The night console (issue 19): attendance, seats and tables, the clock and bust entry on one screen for the
officers running the night, kept live on every open phone and laptop.

- ``console``: the page (works without JavaScript: every button is a plain form posting to ``console_act``).
- ``console_state``: the state as JSON with the rendered parts; ``?since=<version>`` answers 204 (no body)
  while the night's version (``events.services.console.night_version``) is unchanged.
- ``console_act``: every command of the console, one POST each, with the version the page showed. With
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

from events.models import Attendance, Event
from events.services import attendance as attendance_services
from events.services import console as console_services
from events.services import night as night_services
from events.services import results as results_services
from events.services.late_arrival import call_time_read
from events.view_helpers import as_int, event_view, posted_int, seats_to_list
from ncpc.errors import ConcurrentChange, NcpcError
from ncpc.permissions import Action, require, user_can

PARTS = ("clock", "attendance", "tables", "busts")


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
        "seats_to_list": seats_to_list(event=event),
        "seats_listed": bool(state["listed"]),
    }


def _parts(request, event: Event, state: dict) -> dict[str, str]:
    context = _context(request, event, state)
    return {
        part: render_to_string(f"events/night/console/{part}.html", context, request=request)
        for part in PARTS
    }


def _state_json(request, event: Event) -> dict:
    state = console_services.console_state(event=event)
    return {**state, "html": _parts(request, event, state)}


@require_GET
@require(Action.ENTER_RESULTS)
@event_view
def console(request, event):
    state = console_services.console_state(event=event)
    return render(
        request,
        "events/night/console.html",
        {
            **_context(request, event, state),
            "state_json": state,
            # Only for those who may open the door list (the Treasurer's): others would be refused every poll.
            "door_url": _door_url(event) if user_can(request.user, Action.RECORD_PAYMENTS) else "",
        },
    )


@never_cache
@require_GET
@require(Action.ENTER_RESULTS)
@event_view
def console_state(request, event):
    since = request.GET.get("since", "")
    if since and since == console_services.night_version(event=event):
        return HttpResponse(status=204)
    return JsonResponse(_state_json(request, event))


def _run(request, event: Event, action: str) -> str:
    """Run one console command; returns the message for the officer. Raises NcpcError when refused."""
    results_v, clock_v, seats_v = _versions(request.POST.get("version", ""))
    actor = request.user
    pk = posted_int(request, "player") or posted_int(request, "attendance")
    if action == "bust":
        made = results_services.bust_record(event=event, attendance_ids=[pk], version=results_v, actor=actor)
        return f"Out: {', '.join(e.attendance.player_name for e in made)}."
    if action == "undo":
        done = console_services.bust_undo(
            event=event, hand=posted_int(request, "hand"), version=results_v, actor=actor
        )
        return "Undone: " + "; ".join(done) + "."
    if action == "move":
        row = night_services.balance_apply(
            event=event,
            player=pk,
            to_table=posted_int(request, "to_table"),
            to_seat=posted_int(request, "to_seat"),
            version=seats_v,
            actor=actor,
        )
        return f"{row.attendance.player_name} now sits at table {row.table.number}, seat {row.seat}."
    if action == "final":
        table = night_services.final_table_make(event=event, version=seats_v, actor=actor)
        return f"Final table drawn: button at seat {table.button}."
    if action == "draw":
        tables = night_services.seats_draw(
            event=event, version=seats_v, actor=actor, confirm_redraw=request.POST.get("confirm") == "1"
        )
        return f"Seats drawn: {len(tables)} table(s)."
    if action == "button":
        table = night_services.button_set(
            event=event,
            table_number=posted_int(request, "table"),
            seat=posted_int(request, "seat"),
            version=seats_v,
            actor=actor,
        )
        return f"Button at table {table.number}: seat {table.button}."
    if action == "seat":
        seat = night_services.seat_add(event=event, attendance_id=pk, version=seats_v, actor=actor)
        return f"{seat.attendance.player_name}: table {seat.table.number}, seat {seat.seat}."
    if action.startswith("clock."):
        night_services.clock_command(event=event, action=action[6:], version=clock_v, actor=actor)
        return {"start": "Clock started.", "pause": "Clock paused.", "resume": "Clock running."}.get(
            action[6:], "Clock changed."
        )
    if action == "arrived":
        row = attendance_services.attendance_set(
            event=event, attendance_id=pk, status=Attendance.Status.EXPECTED, version=results_v, actor=actor
        )
        return f"{row.membership.person.full_name} arrived and plays."
    if action == "called":
        called_at = call_time_read(request.POST.get("called_at", ""), event=event)
        if called_at is False:
            raise NcpcError("Give the time of the call as HH:MM (e.g. 19:40), or leave it empty for now.")
        row = night_services.late_arrival_settle(
            event=event,
            attendance_id=pk,
            use_exemption=True,
            called_at=called_at or None,
            version=results_v,
            actor=actor,
        )
        when = f" at {timezone.localtime(row.called_in_at):%H:%M}" if row.called_in_at else ""
        return f"{row.membership.person.full_name} called in{when}: the exemption of the season is used."
    if action == "remove":
        row = night_services.late_arrival_settle(
            event=event, attendance_id=pk, use_exemption=False, version=results_v, actor=actor
        )
        return f"{row.membership.person.full_name}: chips removed."
    if action == "finish":
        done = results_services.results_finish(event=event, version=results_v, actor=actor)
        return f"Results final. Winner: {done[0].player_name}." if done else "Results final."
    raise NcpcError("Unknown action.")


@require_POST
@require(Action.ENTER_RESULTS)
@event_view
def console_act(request, event):
    action = request.POST.get("action", "")
    wants_json = "application/json" in request.headers.get("Accept", "")
    message, error, conflict = "", "", False
    try:
        message = _run(request, event, action)
    except ConcurrentChange:
        conflict = True
        error = (
            "Not recorded: the page was out of date (another officer changed the night, or this was recorded "
            "already). The screen now shows the night as it is: check, and try again if still needed."
        )
    except NcpcError as exc:
        error = str(exc)
    if wants_json:
        body = {
            "ok": not error,
            "message": message,
            "error": error,
            "conflict": conflict,
            "state": _state_json(request, event),
        }
        return JsonResponse(body, status=409 if conflict else (400 if error else 200))
    if error:
        messages.error(request, error)
    else:
        messages.success(request, message)
    anchor = {"bust": "#tables", "undo": "#busts", "move": "#tables", "final": "#tables"}.get(action, "")
    url = reverse("events:console", kwargs={"season": event.season.name, "number": event.number})
    return redirect(url + anchor)
