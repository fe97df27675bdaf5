"""The officers' checklist of signatures of the season's rules document (§2.4.3). Thin: form → service."""

from django.contrib import messages
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from events.selectors import current_season
from members import forms
from members.models import RulesSignature
from members.selectors import (
    signature_checklist,
    unsigned_before_next_event,
)
from members.services.standing import (
    rules_signature_record,
    rules_signature_withdraw,
    rules_signatures_record,
)
from members.views.common import no_season
from ncpc.core.clock import club_today
from ncpc.core.feedback import command_run
from ncpc.core.permissions import Action, require


@require(Action.RECORD_SIGNATURES)
def signatures(request):
    season = current_season()
    if season is None:
        return no_season(request)
    today = club_today()
    if request.method == "POST" and request.POST.get("bulk"):
        return _signatures_bulk(request, season=season)
    if request.method == "POST":
        form = forms.SignatureForm(request.POST, season=season)
        if form.is_valid():
            command_run(
                request,
                rules_signature_record,
                membership=form.cleaned_data["membership"],
                signed_on=form.cleaned_data["signed_on"],
                success="Recorded the signature of {result.membership.person}.",
            )
        else:
            messages.error(request, "Nothing was saved: give the date the rules document was signed.")
        return redirect("members:signatures")
    next_number, unsigned = unsigned_before_next_event(season=season, on=today)
    rows = signature_checklist(season=season)
    return render(
        request,
        "members/signatures.html",
        {
            "season": season,
            "next_number": next_number,
            "unsigned": unsigned,
            "rows": rows,
            "unsigned_count": sum(1 for _membership, signature in rows if signature is None),
            "today": today,
        },
    )


def _signatures_bulk(request, *, season):
    form = forms.SignaturesForm(request.POST, season=season)
    if not form.is_valid():
        problems = " ".join(str(e) for errors in form.errors.values() for e in errors)
        messages.error(request, f"Nothing was saved: {problems}")
        return redirect("members:signatures")
    created = command_run(
        request,
        rules_signatures_record,
        memberships=list(form.cleaned_data["membership"]),
        signed_on=form.cleaned_data["signed_on"],
    )
    if created is not None:
        messages.success(request, f"Recorded {len(created)} signature{'s' if len(created) != 1 else ''}.")
    return redirect("members:signatures")


@require_POST
@require(Action.MANAGE_MEMBERS)
def signature_withdraw(request, pk):
    signature = RulesSignature.objects.filter(pk=pk).first()
    if signature is None:  # withdrawn already: the form sent twice, or by two officers
        messages.info(request, "That signature is withdrawn already: nothing changed.")
        return redirect("members:signatures")
    reason = request.POST.get("reason", "")
    command_run(
        request,
        rules_signature_withdraw,
        signature=signature,
        reason=reason,
        success="Withdrew {result.person}'s signature: {result.person} is unsigned again.",
    )
    return redirect("members:signatures")
