"""Tournament night pages: the clock (every member may watch, officers run it), the night page with seats,
balancing, the final table and late arrivals, and the printable seat list. Thin views over
``events.services.night``."""

from django.contrib import messages
from django.http import JsonResponse
from django.shortcuts import redirect, render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from events import selectors
from events.models import Attendance, Event
from events.services import attendance as attendance_services
from events.services import night as night_services
from events.services.late_arrival import call_time_read
from events.view_helpers import event_view, posted_int, posted_version, seats_to_list
from ncpc.errors import NcpcError
from ncpc.feedback import command_run, error_show
from ncpc.permissions import Action, require, user_can


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
        state = night_services.clock_payload(event=event)
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
    try:
        return JsonResponse(night_services.clock_payload(event=event))
    except NcpcError as exc:
        return JsonResponse({"error": str(exc)}, status=409)


@require_POST
@require(Action.ENTER_RESULTS)
@event_view
def clock_action(request, event):
    command = {"event": event, "action": request.POST.get("action", ""), "version": posted_version(request)}
    if not _wants_json(request):
        command_run(request, night_services.clock_command, **command)
        return _to("events:clock", event)
    # The clock page's buttons: the answer carries the refusal and the new state instead of a message.
    refusal = None
    try:
        night_services.clock_command(actor=request.user, **command)
    except NcpcError as exc:
        refusal = exc
    body = {
        "ok": refusal is None,
        "error": str(refusal) if refusal else "",
        "state": night_services.clock_payload(event=event),
    }
    return JsonResponse(body, status=200 if refusal is None else 409)


# ---------------------------------------------------------------------------------------------------------
# The night page


@require_GET
@require(Action.VIEW_CLUB)
@event_view
def night(request, event):
    can_run = user_can(request.user, Action.ENTER_RESULTS)
    overview = night_services.night_overview(event=event)
    try:
        state = night_services.clock_payload(event=event)
    except NcpcError as exc:
        error_show(request, exc)
        state = None
    rows = selectors.event_attendances(event=event)
    absent = [a for a in rows if a.status in Attendance.AWAY]
    if can_run:
        for row in absent:
            row.exemption_at = selectors.exemption_used_at(membership=row.membership, exclude_event=event)
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
            "second_hour_over": night_services.second_hour_over(event=event, night=overview.night),
            "can_run": can_run,
            "final": event.status == Event.Status.FINAL,
            "seats_version": overview.night.seats_version if overview.night else 0,
            "move": move,
            "move_name": overview.move_names.get(move.player, "") if move else "",
            "field": selectors.event_field(event=event),
            "seats_to_list": seats_to_list(event=event) if can_run else 0,
            "seats_listed": bool(rows),
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
        {"event": event, "season": event.season, "o": night_services.night_overview(event=event)},
    )


@require_POST
@require(Action.ENTER_RESULTS)
@event_view
def seats_draw(request, event):
    tables = command_run(
        request,
        night_services.seats_draw,
        event=event,
        version=posted_version(request),
        confirm_redraw=request.POST.get("confirm") == "1",
    )
    if tables:
        messages.success(request, f"Seats drawn: {len(tables)} table(s).")
    return _to("events:night", event)


@require_POST
@require(Action.ENTER_RESULTS)
@event_view
def balance_apply(request, event):
    row = command_run(
        request,
        night_services.balance_apply,
        event=event,
        player=posted_int(request, "player"),
        to_table=posted_int(request, "to_table"),
        to_seat=posted_int(request, "to_seat"),
        version=posted_version(request),
    )
    if row:
        messages.success(
            request, f"{row.attendance.player_name} now sits at table {row.table.number}, seat {row.seat}."
        )
    return _to("events:night", event)


@require_POST
@require(Action.ENTER_RESULTS)
@event_view
def button_set(request, event):
    table = command_run(
        request,
        night_services.button_set,
        event=event,
        table_number=posted_int(request, "table"),
        seat=posted_int(request, "seat"),
        version=posted_version(request),
    )
    if table:
        messages.success(request, f"Button at table {table.number}: seat {table.button}.")
    return _to("events:night", event)


@require_POST
@require(Action.ENTER_RESULTS)
@event_view
def final_table(request, event):
    table = command_run(
        request, night_services.final_table_make, event=event, version=posted_version(request)
    )
    if table:
        messages.success(request, f"Final table drawn: button at seat {table.button}.")
    return _to("events:night", event)


@require_POST
@require(Action.ENTER_RESULTS)
@event_view
def late_arrival(request, event):
    version = posted_version(request)
    if request.POST.get("all") == "1":
        done = command_run(request, night_services.late_arrivals_remove_all, event=event, version=version)
        if done is not None:
            messages.success(request, f"Chips removed: {done} absent player(s).")
    else:
        use_exemption = request.POST.get("exempt") == "1"
        called_at = call_time_read(request.POST.get("called_at", ""), event=event) if use_exemption else None
        if called_at is False:
            messages.error(
                request, "Give the time of the call as HH:MM (e.g. 19:40), or leave it empty for now."
            )
            return _to("events:night", event)
        row = command_run(
            request,
            night_services.late_arrival_settle,
            event=event,
            attendance_id=posted_int(request, "attendance"),
            use_exemption=use_exemption,
            called_at=called_at,
            version=version,
        )
        if row:
            messages.success(request, f"{row.membership.person.full_name}: {row.get_status_display()}.")
    return _to("events:night", event)


@require_POST
@require(Action.ENTER_RESULTS)
@event_view
def arrived(request, event):
    """A late member is here (SPEC §15.5): absent within the first hour, or called in within the second."""
    row = command_run(
        request,
        attendance_services.attendance_set,
        event=event,
        attendance_id=posted_int(request, "attendance"),
        status=Attendance.Status.EXPECTED,
        version=posted_version(request),
    )
    if row:
        messages.success(request, f"{row.membership.person.full_name} arrived and plays.")
    back = request.POST.get("back") == "attendance"
    return _to("events:attendance" if back else "events:night", event)


@require_POST
@require(Action.ENTER_RESULTS)
@event_view
def seat_add(request, event):
    seat = command_run(
        request,
        night_services.seat_add,
        event=event,
        attendance_id=posted_int(request, "attendance"),
        version=posted_version(request),
    )
    if seat:
        messages.success(
            request, f"{seat.attendance.player_name}: table {seat.table.number}, seat {seat.seat}."
        )
    return _to("events:night", event)
