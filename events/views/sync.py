"""The offline queue of the night (issue 20): a device sends the changes it recorded offline, officers see the
conflicts and settle them. Thin views over ``events.services.night_sync``; the sync answers JSON only."""

from functools import wraps

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied, RequestDataTooBig
from django.http import JsonResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST
from django.views.defaults import permission_denied

from events.services import night_clock, night_sync
from events.services.night_conflicts import conflicts_view
from events.views.helpers import command_json, event_view
from ncpc.core.feedback import command_run
from ncpc.core.jsonread import JsonReadError, json_read
from ncpc.core.permissions import Action, require, user_can

NOT_YOURS = "Only the Vice President settles the changes recorded offline."


def _wants_json(request) -> bool:
    return "application/json" in request.headers.get("Accept", "")


def _state(event) -> dict:
    return {
        "versions": night_sync.night_versions(event=event),
        "open": len(night_sync.changes_open(event=event)),
        "server_time": int(timezone.now().timestamp() * 1000),
    }


@require_POST
@require(Action.ENTER_RESULTS)
@event_view
def night_sync_view(request, event):
    """POST ``{"device": "…", "changes": [{"sequence": 1, "happened_at": 1764619200000, "action": "bust",
    "players": [12], "seen": {"results": 4, "seats": 2, "clock": 3}}, …]}`` → one outcome per change."""
    if request.content_type != "application/json":  # a form's body is read already (by the CSRF check)
        return JsonResponse(
            {"error": "Send the changes as JSON (Content-Type: application/json)."}, status=400
        )
    try:
        data = json_read(request.body or b"null", what="The body")
    except JsonReadError as exc:
        return JsonResponse({"error": str(exc)}, status=400)
    except RequestDataTooBig:  # Django's DATA_UPLOAD_MAX_MEMORY_SIZE: answered in JSON like every refusal
        return JsonResponse(
            {"error": "The batch is too large: send the changes in several smaller batches."}, status=400
        )
    outcomes, refused = command_json(request, night_sync.batch_sync, event=event, data=data)
    if refused is not None:
        return refused
    return JsonResponse(
        {
            "outcomes": [
                {
                    "sequence": o.sequence,
                    "status": o.status,
                    "message": o.message,
                    "duplicate": o.duplicate,
                    "change": o.change_id,
                }
                for o in outcomes
            ],
            **_state(event),
        }
    )


def _settlers_only(view):
    """As ``require(Action.ENTER_RESULTS)``, but the refusal is a plain 403 answer (JSON to the console), not
    an exception: a console that asks by mistake fills no log with tracebacks."""

    @wraps(view)
    def wrapper(request, *args, **kwargs):
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        if not user_can(request.user, Action.ENTER_RESULTS):
            if _wants_json(request):
                return JsonResponse({"error": NOT_YOURS}, status=403)
            return permission_denied(request, PermissionDenied(NOT_YOURS))
        return view(request, *args, **kwargs)

    return wrapper


@never_cache
@require_GET
@_settlers_only
@event_view
def night_conflicts(request, event):
    """Conflicts and refused offline changes waiting to be settled (JSON for the console, a page otherwise):
    both sides of each, in words (``events.services.night_conflicts``)."""
    rows = night_sync.changes_open(event=event)
    if _wants_json(request):
        return JsonResponse({"conflicts": [night_sync.change_json(change=r) for r in rows], **_state(event)})
    lines = conflicts_view(event=event, rows=rows, viewer=request.user)
    return render(
        request,
        "events/night/conflicts.html",
        {"event": event, "season": event.season, "rows": lines},
    )


@require_POST
@require(Action.ENTER_RESULTS)
@event_view
def night_conflict_resolve(request, event, pk: int):
    fields = {"event": event, "change_id": pk, "choice": request.POST.get("choice", "")}
    if _wants_json(request):
        extra = lambda: {"ok": False, **_state(event)}  # noqa: E731
        row, refused = command_json(request, night_sync.change_resolve, status=409, extra=extra, **fields)
        if refused is not None:
            return refused
        return JsonResponse({"ok": True, "change": night_sync.change_json(change=row), **_state(event)})
    row = command_run(request, night_sync.change_resolve, **fields)
    if row is not None:
        messages.success(request, f"{night_sync.change_describe(change=row)}: {row.get_status_display()}.")
    return redirect("events:night_conflicts", season=event.season.name, number=event.number)


@never_cache
@require_GET
@require(Action.VIEW_CLUB)
@event_view
def clock_plan(request, event):
    """The blind structure and the clock's start, pauses and skips: the clock page keeps them and runs on
    when the server cannot be reached."""
    return JsonResponse(night_clock.clock_plan(event=event))
