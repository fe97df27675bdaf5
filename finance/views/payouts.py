"""Event payouts from the cash box, and the season's WSOP money (escrow, winnings)."""

from django.contrib import messages
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from events.models import Event
from events.selectors import current_season, season_rules
from finance import forms
from finance.models import (
    WsopResult,
)
from finance.selectors.payouts import event_payout_lines, payout_member_names
from finance.services.escrow import (
    escrow_key,
    season_wsop_allocation,
    wsop_escrow_move,
    wsop_result_record,
    wsop_result_split,
)
from finance.services.event_payouts import event_payout_key, event_payout_post
from finance.services.ledger import (
    posted_under_key,
)
from finance.services.night_list import event_reminders
from finance.services.payout_corrections import (
    event_month_closed,
    payout_correction_post,
    payout_correction_view,
)
from ncpc.core.clock import club_today
from ncpc.core.errors import NcpcError
from ncpc.core.feedback import command_run
from ncpc.core.permissions import Action, require, user_can


@require(Action.MANAGE_LEDGER)
def payouts(request):
    season = current_season()
    rows = []
    if season is not None:
        events = list(season.events.all())
        last = max((e.number for e in events), default=0)
        names = payout_member_names(season=season)
        for event in events:
            try:
                lines, error = event_payout_lines(event=event), ""
            except NcpcError as exc:
                lines, error = [], str(exc)
            posted = posted_under_key(prefix=event_payout_key(event=event))
            rows.append(
                {
                    "event": event,
                    "lines": lines,
                    "error": error,
                    "posted": posted,
                    "total": sum(line.amount for line in lines),
                    "reminders": event_reminders(event_number=event.number, last_event_number=last),
                    "pairs": [(line, names.get(line.membership_id or 0, line.member_key)) for line in lines],
                    **payout_correction_view(event=event),
                }
            )
    return render(request, "finance/payouts.html", {"season": season, "rows": rows})


@require_POST
@require(Action.MANAGE_LEDGER)
def payout_post(request, event_id):
    event = get_object_or_404(Event, pk=event_id)
    if event_month_closed(event=event):  # SPEC §17.2: the payout of a closed month's event is corrected today
        booked = command_run(request, payout_correction_post, event=event)
        if booked is not None:
            messages.success(
                request, f"The correction of event {event.number}'s payouts is posted (#{booked.record.pk})."
            )
        return redirect("finance:payouts")
    booked = command_run(request, event_payout_post, event=event)
    if booked is not None:
        txn = booked.record
        if booked.replayed:
            messages.info(request, f"Event {event.number} was paid out already (#{txn.pk}).")
        else:
            messages.success(request, f"Event {event.number} paid out from the cash box (#{txn.pk}).")
    return redirect("finance:payouts")


@require(Action.VIEW_CLUB)
def wsop(request):
    season = current_season()
    if season is None:
        raise Http404("No season.")
    try:
        allocation, error = season_wsop_allocation(season=season), ""
    except NcpcError as exc:
        allocation, error = None, str(exc)
    results = []
    for result in WsopResult.objects.filter(season=season).select_related(
        "representative__person", "declined__person"
    ):
        results.append((result, wsop_result_split(result=result)))
    manage = user_can(request.user, Action.MANAGE_LEDGER)
    return render(
        request,
        "finance/wsop.html",
        {
            "season": season,
            "rules": season_rules(season),
            "allocation": allocation,
            "error": error,
            "posted": posted_under_key(prefix=escrow_key(season=season)),
            "results": results,
            "manage": manage,
            "form": forms.WsopResultForm(season=season) if manage else None,
        },
    )


@require_POST
@require(Action.MANAGE_LEDGER)
def wsop_escrow(request):
    season = current_season()
    if season is None:
        raise Http404("No season.")
    txn = command_run(request, wsop_escrow_move, season=season, date=club_today())
    if txn is not None:
        messages.success(request, f"The WSOP money of {season} is in escrow (#{txn.pk}).")
    return redirect("finance:wsop")


@require_POST
@require(Action.MANAGE_LEDGER)
def wsop_result(request):
    season = current_season()
    if season is None:
        raise Http404("No season.")
    form = forms.WsopResultForm(request.POST, season=season)
    if form.is_valid():
        data = form.cleaned_data
        booked = command_run(
            request,
            wsop_result_record,
            season=season,
            representative=data["representative"],
            gross=data["gross"],
            tips=data["tips"],
            declined=data["declined"],
            once=data["once"],
        )
        if booked is not None and booked.replayed:
            messages.info(request, "Already recorded: these winnings were recorded before.")
        elif booked is not None:
            messages.success(request, "Winnings recorded.")
    else:
        problems = "; ".join(str(e) for errors in form.errors.values() for e in errors)
        messages.error(request, f"Please give the representative, gross winnings and tips. {problems}")
    return redirect("finance:wsop")
