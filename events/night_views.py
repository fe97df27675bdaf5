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
from events.views_results import _event, _int
from ncpc.errors import ConcurrentChange, NcpcError
from ncpc.permissions import Action, require, user_can


def _wants_json(request) -> bool:
    return "application/json" in request.headers.get("Accept", "")


def _run(request, command, **kwargs):
    try:
        return command(actor=request.user, **kwargs), None
    except ConcurrentChange as exc:
        messages.warning(request, str(exc))
        return None, exc
    except NcpcError as exc:
        messages.error(request, str(exc))
        return None, exc


def _to(name: str, event: Event):
    return redirect(name, season=event.season.name, number=event.number)


# ---------------------------------------------------------------------------------------------------------
# The clock


@require_GET
@require(Action.VIEW_CLUB)
def clock(request, season, number):
    event = _event(season, number)
    try:
        state = night_services.clock_payload(event=event)
    except NcpcError as exc:
        messages.error(request, str(exc))
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
def clock_state(request, season, number):
    event = _event(season, number)
    try:
        return JsonResponse(night_services.clock_payload(event=event))
    except NcpcError as exc:
        return JsonResponse({"error": str(exc)}, status=409)


@require_POST
@require(Action.ENTER_RESULTS)
def clock_action(request, season, number):
    event = _event(season, number)
    _, error = _run(
        request,
        night_services.clock_command,
        event=event,
        action=request.POST.get("action", ""),
        version=_int(request.POST.get("version")) if request.POST.get("version") else -1,
    )
    if _wants_json(request):
        list(messages.get_messages(request))  # shown in the JSON answer instead
        body = {"ok": error is None, "error": str(error) if error else ""}
        body["state"] = night_services.clock_payload(event=event)
        return JsonResponse(body, status=200 if error is None else 409)
    return _to("events:clock", event)


# ---------------------------------------------------------------------------------------------------------
# The night page


@require_GET
@require(Action.VIEW_CLUB)
def night(request, season, number):
    event = _event(season, number)
    can_run = user_can(request.user, Action.ENTER_RESULTS)
    if can_run and event.status == Event.Status.SCHEDULED and not event.attendances.exists():
        attendance_services.attendance_prepare(event=event, actor=request.user)
        event.refresh_from_db()
    overview = night_services.night_overview(event=event)
    try:
        state = night_services.clock_payload(event=event)
    except NcpcError as exc:
        messages.error(request, str(exc))
        state = None
    absent = [a for a in selectors.event_attendances(event=event) if a.status == Attendance.Status.ABSENT]
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
            "can_run": can_run,
            "final": event.status == Event.Status.FINAL,
            "seats_version": overview.night.seats_version if overview.night else 0,
            "move": move,
            "move_name": overview.move_names.get(move.player, "") if move else "",
            "field": selectors.event_field(event=event),
        },
    )


@require_GET
@require(Action.VIEW_CLUB)
def seats_print(request, season, number):
    event = _event(season, number)
    return render(
        request,
        "events/night/seats_print.html",
        {"event": event, "season": event.season, "o": night_services.night_overview(event=event)},
    )


@require_POST
@require(Action.ENTER_RESULTS)
def seats_draw(request, season, number):
    event = _event(season, number)
    tables, _ = _run(
        request,
        night_services.seats_draw,
        event=event,
        version=_int(request.POST.get("version")),
        confirm_redraw=request.POST.get("confirm") == "1",
    )
    if tables:
        messages.success(request, f"Seats drawn: {len(tables)} table(s).")
    return _to("events:night", event)


@require_POST
@require(Action.ENTER_RESULTS)
def balance_apply(request, season, number):
    event = _event(season, number)
    row, _ = _run(
        request,
        night_services.balance_apply,
        event=event,
        player=_int(request.POST.get("player")),
        to_table=_int(request.POST.get("to_table")),
        to_seat=_int(request.POST.get("to_seat")),
        version=_int(request.POST.get("version")),
    )
    if row:
        messages.success(
            request, f"{row.attendance.player_name} now sits at table {row.table.number}, seat {row.seat}."
        )
    return _to("events:night", event)


@require_POST
@require(Action.ENTER_RESULTS)
def button_set(request, season, number):
    event = _event(season, number)
    table, _ = _run(
        request,
        night_services.button_set,
        event=event,
        table_number=_int(request.POST.get("table")),
        seat=_int(request.POST.get("seat")),
        version=_int(request.POST.get("version")),
    )
    if table:
        messages.success(request, f"Button at table {table.number}: seat {table.button}.")
    return _to("events:night", event)


@require_POST
@require(Action.ENTER_RESULTS)
def final_table(request, season, number):
    event = _event(season, number)
    table, _ = _run(
        request, night_services.final_table_make, event=event, version=_int(request.POST.get("version"))
    )
    if table:
        messages.success(request, f"Final table drawn: button at seat {table.button}.")
    return _to("events:night", event)


@require_POST
@require(Action.ENTER_RESULTS)
def late_arrival(request, season, number):
    event = _event(season, number)
    version = _int(request.POST.get("version")) if request.POST.get("version") else -1
    if request.POST.get("all") == "1":
        done, _ = _run(request, night_services.late_arrivals_remove_all, event=event, version=version)
        if done is not None:
            messages.success(request, f"Chips removed: {done} absent player(s).")
    else:
        row, _ = _run(
            request,
            night_services.late_arrival_settle,
            event=event,
            attendance_id=_int(request.POST.get("attendance")),
            use_exemption=request.POST.get("exempt") == "1",
            version=version,
        )
        if row:
            messages.success(request, f"{row.membership.person.full_name}: {row.get_status_display()}.")
    return _to("events:night", event)


@require_POST
@require(Action.ENTER_RESULTS)
def seat_add(request, season, number):
    event = _event(season, number)
    seat, _ = _run(
        request,
        night_services.seat_add,
        event=event,
        attendance_id=_int(request.POST.get("attendance")),
        version=_int(request.POST.get("version")),
    )
    if seat:
        messages.success(
            request, f"{seat.attendance.player_name}: table {seat.table.number}, seat {seat.seat}."
        )
    return _to("events:night", event)
