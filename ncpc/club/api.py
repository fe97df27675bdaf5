"""/api/v1/: the season report as JSON for logged-in members (SPEC §13, §14)."""

import datetime as dt

from django.contrib.auth.decorators import login_not_required
from django.http import JsonResponse
from django.views.decorators.http import require_GET

from events.selectors import season_named
from ncpc.club.services.season_report import season_report
from ncpc.core.permissions import Action, user_can, user_person


def report_for_viewer(report: dict, *, user) -> dict:
    """SPEC §15.12: officers see every member's dues row; a member only their own (the club's totals stay)."""
    if user_can(user, Action.VIEW_PERSONAL_DATA):
        return report
    person = user_person(user)
    own = person.key if person is not None else None
    return {**report, "dues": [row for row in report.get("dues", []) if row.get("member") == own]}


@login_not_required
@require_GET
def season_report_json(request, season):
    if not request.user.is_authenticated:
        response = JsonResponse({"error": "Log in to read the season report."}, status=401)
        response["WWW-Authenticate"] = 'Session realm="ncpc"'
        return response
    if not user_can(request.user, Action.VIEW_CLUB):
        return JsonResponse({"error": "The season report is for club members."}, status=403)
    found = season_named(season)
    if found is None:
        return JsonResponse({"error": f"No season named {season!r}."}, status=404)
    as_of = None
    if request.GET.get("as_of"):
        try:
            as_of = dt.date.fromisoformat(request.GET["as_of"])
        except ValueError:
            return JsonResponse({"error": "as_of must be a date like 2027-07-31."}, status=400)
    report = report_for_viewer(season_report(season=found, as_of=as_of), user=request.user)
    return JsonResponse(report, json_dumps_params={"ensure_ascii": False})
