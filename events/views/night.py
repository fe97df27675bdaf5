"""Tournament night pages: the clock (every member may watch, officers run it), the night page with seats,
balancing, the final table and late arrivals, and the printable seat list. Their plain forms run the night's
actions through the one registry the console and the offline replay use (``events.services.night_actions``)."""

from dataclasses import dataclass

from django.contrib import messages
from django.http import HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from events import selectors
from events.models import Attendance, Event
from events.services import night_actions
from events.services.console import night_date_note, night_overview, night_version
from events.services.late_arrival import second_hour_over
from events.services.night_clock import clock_payload
from events.views.helpers import event_view, night_act, night_form, posted_version, seats_to_list
from ncpc.core.errors import NcpcError
from ncpc.core.feedback import error_show
from ncpc.core.permissions import Action, require, user_can


@dataclass(frozen=True)
class AwayLine:
    """A player away tonight on the night page, and the event where they used the season's exemption."""

    row: Attendance
    exemption_at: Event | None


def _wants_json(request) -> bool:
    return "application/json" in request.headers.get("Accept", "")


def _to(name: str, event: Event):
    return redirect(name, season=event.season.name, number=event.number)


# ---------------------------------------------------------------------------------------------------------
# The clock


@require_GET
@require(Action.VIEW_CLUB)
@event_view
def clock(request, event):
    try:
        state = clock_payload(event=event)
    except NcpcError as exc:
        error_show(request, exc)
        return _to("events:event", event)
    return render(
        request,
        "events/night/clock.html",
        {
            "event": event,
            "season": event.season,
            "state": state,
            "time_text": _time_text(state["seconds_left"]),
            "break_text": _time_text(state["seconds_to_next_break"]),
            "can_run": user_can(request.user, Action.ENTER_RESULTS),
            "date_note": night_date_note(event=event, doing="Start the clock"),
        },
    )


def _time_text(seconds: int | None) -> str:
    if seconds is None:
        return "∞"
    hours, rest = divmod(seconds, 3600)
    return f"{hours}:{rest // 60:02d}:{rest % 60:02d}" if hours else f"{rest // 60}:{rest % 60:02d}"


@never_cache
@require_GET
@require(Action.VIEW_CLUB)
@event_view
def clock_state(request, event):
    # ``?since=<the "since" of the state the page shows>``: 204 (no body) while nothing the clock shows has
    # changed but the time; the page counts down itself and asks for the whole state at each level's end.
    since = request.GET.get("since", "")
    if since and since == night_version(event=event):
        return HttpResponse(status=204)
    try:
        return JsonResponse(clock_payload(event=event))
    except NcpcError as exc:
        return JsonResponse({"error": str(exc)}, status=409)


@require_POST
@require(Action.ENTER_RESULTS)
@event_view
def clock_action(request, event):
    payload = {"clock": request.POST.get("action", "")}
    if not _wants_json(request):
        night_act(request, event, "clock", payload, success=False)
        return _to("events:clock", event)
    # The clock page's buttons: the answer carries the refusal and the new state instead of a message.
    outcome = night_actions.attempt(
        "clock", event=event, actor=request.user, payload=payload, versions={"clock": posted_version(request)}
    )
    body = {"ok": outcome.ok, "error": outcome.error, "state": clock_payload(event=event)}
    return JsonResponse(body, status=200 if outcome.ok else 409)


# ---------------------------------------------------------------------------------------------------------
# The night page


@require_GET
@require(Action.VIEW_CLUB)
@event_view
def night(request, event):
    can_run = user_can(request.user, Action.ENTER_RESULTS)
    overview = night_overview(event=event)
    try:
        state = clock_payload(event=event)
    except NcpcError as exc:
        error_show(request, exc)
        state = None
    rows = selectors.event_attendances(event=event)
    absent = [
        AwayLine(
            row=a,
            exemption_at=selectors.exemption_used_at(membership=a.membership, exclude_event=event)
            if can_run
            else None,
        )
        for a in rows
        if a.status in Attendance.AWAY
    ]
    move = overview.next_move
    return render(
        request,
        "events/night/night.html",
        {
            "event": event,
            "season": event.season,
            "o": overview,
            "state": state,
            "absent": absent,
            "second_hour_over": second_hour_over(event=event, night=overview.night),
            "can_run": can_run,
            "final": event.status == Event.Status.FINAL,
            "seats_version": overview.night.seats_version if overview.night else 0,
            "move": move,
            "move_name": overview.move_names.get(move.player, "") if move else "",
            "field": selectors.event_field(event=event),
            "seats_to_list": seats_to_list(event=event) if can_run else 0,
            "seats_listed": bool(rows),
            "night_date_note": night_date_note(event=event, doing="Open the night"),
            "draw_note": night_date_note(event=event, doing="Draw the seats"),
            "back": "night",
        },
    )


@require_GET
@require(Action.VIEW_CLUB)
@event_view
def seats_print(request, event):
    return render(
        request,
        "events/night/seats_print.html",
        {"event": event, "season": event.season, "o": night_overview(event=event)},
    )


@require_POST
@require(Action.ENTER_RESULTS)
@event_view
def seats_draw(request, event):
    return night_form(request, event, "draw", to="events:night")


@require_POST
@require(Action.ENTER_RESULTS)
@event_view
def balance_apply(request, event):
    return night_form(request, event, "move", to="events:night")


@require_POST
@require(Action.ENTER_RESULTS)
@event_view
def button_set(request, event):
    return night_form(request, event, "button", to="events:night")


@require_POST
@require(Action.ENTER_RESULTS)
@event_view
def final_table(request, event):
    return night_form(request, event, "final", to="events:night")


@require_POST
@require(Action.ENTER_RESULTS)
@event_view
def late_arrival(request, event):
    if request.POST.get("all") == "1":
        return night_form(request, event, "remove_all", to="events:night")
    name = "called" if request.POST.get("exempt") == "1" else "remove"
    outcome = night_act(request, event, name, success=False)
    if outcome.done:
        row = outcome.done.value
        messages.success(request, f"{row.membership.person.full_name}: {row.get_status_display()}.")
    return _to("events:night", event)


@require_POST
@require(Action.ENTER_RESULTS)
@event_view
def arrived(request, event):
    """A late member is here (SPEC §15.5): absent within the first hour, or called in within the second."""
    back = request.POST.get("back") == "attendance"
    return night_form(request, event, "arrived", to="events:attendance" if back else "events:night")


@require_POST
@require(Action.ENTER_RESULTS)
@event_view
def seat_add(request, event):
    return night_form(request, event, "seat", to="events:night")
