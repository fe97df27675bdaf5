"""The officers' records that settle the standings: tie-breaks (§3.5.7) and members who cannot attend the WSOP."""

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from ncpc.core.feedback import command_run
from ncpc.core.permissions import Action, require
from standings import selectors
from standings.forms import DeclineForm, TieBreakForm, WithdrawDeclineForm
from standings.models import WsopDecline
from standings.services.tie_breaks import tie_break_record, wsop_decline_record, wsop_decline_withdraw
from standings.views.common import rows_with_badges, season_or_404


@require(Action.RECORD_TIE_BREAKS)
def tie_breaks(request, season):
    season = season_or_404(season)
    standings = selectors.season_standings(season=season)
    forms = {
        group[0].rank: TieBreakForm(
            request.POST
            if request.method == "POST" and request.POST.get("group") == str(group[0].rank)
            else None,
            group=group,
            prefix=f"g{group[0].rank}",
        )
        for group in standings.tied_groups
    }
    if request.method == "POST":
        group_key = request.POST.get("group", "")
        form = forms.get(int(group_key)) if group_key.isascii() and group_key.isdigit() else None
        if form is None:
            messages.error(
                request, "That tie no longer exists (the standings changed). Nothing was recorded."
            )
            return redirect("standings:tie_breaks", season=season.name)
        if form.is_valid():
            if command_run(
                request,
                tie_break_record,
                season=season,
                order=form.ordered_memberships(),
                how=form.cleaned_data["how"],
                note=form.cleaned_data["note"],
                success="Recorded the tie-break; the standings now order those members.",
            ):
                return redirect("standings:tie_breaks", season=season.name)
        else:
            messages.error(request, "Nothing was recorded: please correct the fields marked below.")
    recorded = season.tie_breaks.prefetch_related("entries__membership__person").select_related("recorded_by")
    return render(
        request,
        "standings/tie_breaks.html",
        {
            "season": season,
            "groups": [(group, forms[group[0].rank]) for group in standings.tied_groups],
            "recorded": recorded,
        },
    )


@require(Action.RECORD_TIE_BREAKS)
def declines(request, season):
    season = season_or_404(season)
    standings = selectors.season_standings(season=season)
    form = DeclineForm(request.POST or None, representatives=standings.representatives)
    if request.method == "POST":
        if form.is_valid():
            membership = form.representatives[form.cleaned_data["membership"]]
            if command_run(
                request,
                wsop_decline_record,
                season=season,
                membership=membership,
                note=form.cleaned_data["note"],
                success="Recorded that {result.membership.person} cannot attend the WSOP.",
            ):
                return redirect("standings:declines", season=season.name)
        else:
            messages.error(request, "Nothing was recorded: please correct the fields marked below.")
    recorded = WsopDecline.objects.filter(season=season).select_related("membership__person", "recorded_by")
    return render(
        request,
        "standings/declines.html",
        {
            "season": season,
            "standings": standings,
            "representatives": rows_with_badges(standings.representatives),
            "form": form,
            "recorded": [(d, WithdrawDeclineForm(prefix=f"w{d.pk}")) for d in recorded],
        },
    )


@require_POST
@require(Action.RECORD_TIE_BREAKS)
def decline_withdraw(request, season, pk):
    season = season_or_404(season)
    decline = get_object_or_404(WsopDecline, pk=pk, season=season)
    form = WithdrawDeclineForm(request.POST, prefix=f"w{decline.pk}")
    if not form.is_valid():
        messages.error(request, "Give a reason for withdrawing the decline.")
    else:
        command_run(
            request,
            wsop_decline_withdraw,
            decline=decline,
            reason=form.cleaned_data["reason"],
            success="Withdrew the decline.",
        )
    return redirect("standings:declines", season=season.name)
