"""Event payouts from the cash box, and the season's WSOP money (escrow, winnings)."""

from django.contrib import messages
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from events.models import Event
from events.selectors import current_season, season_rules
from finance import forms
from finance.models import (
    PayoutCorrectionProposal,
    WsopResult,
)
from finance.selectors.payouts import event_payout_lines, payout_member_names
from finance.services.checks import approvals_left_text, approvals_needed
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
    correction_proposed_text,
    event_month_closed,
    payout_correction_approve,
    payout_correction_propose,
    payout_correction_view,
    payout_correction_void,
    proposal_current,
    proposal_differences,
    proposal_void_text,
)
from finance.views.access import officer_required
from ncpc.core.clock import club_today
from ncpc.core.errors import NcpcError
from ncpc.core.feedback import command_run
from ncpc.core.permissions import Action, require, user_can, user_person


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
    if event_month_closed(
        event=event
    ):  # SPEC §17.2: a closed month's event is corrected, approved as a check
        booked = command_run(request, payout_correction_propose, event=event, on=club_today())
        if booked is None:
            return redirect("finance:payouts")
        proposal = booked.record
        if booked.replayed:
            messages.info(request, f"Already proposed: {proposal} awaits the officers' approvals.")
        else:
            messages.success(request, correction_proposed_text(proposal=proposal))
        return redirect(_correction_row(proposal))
    booked = command_run(request, event_payout_post, event=event)
    if booked is not None:
        txn = booked.record
        if booked.replayed:
            messages.info(request, f"Event {event.number} was paid out already (#{txn.pk}).")
        else:
            messages.success(request, f"Event {event.number} paid out from the cash box (#{txn.pk}).")
    return redirect("finance:payouts")


def _correction_row(proposal: PayoutCorrectionProposal) -> str:
    return f"{reverse('finance:payout_corrections')}#correction-{proposal.pk}"


@officer_required
def payout_corrections(request):
    """The payout corrections of closed months' events (SPEC §17.2): those awaiting approvals first, each
    officer approves them here, as checks; the Treasurer and the President void one not yet posted."""
    items = list(
        PayoutCorrectionProposal.objects.select_related("event__season", "transaction", "voided_by")
        .prefetch_related("approvals__officer")
        .order_by("-proposed_on", "-pk")
    )
    items.sort(key=lambda p: p.status != PayoutCorrectionProposal.Status.PENDING)
    person = user_person(request.user)
    rows = []
    for proposal in items:
        pending = proposal.status == PayoutCorrectionProposal.Status.PENDING
        matches = proposal_current(proposal=proposal) if pending else True
        rows.append(
            {
                "proposal": proposal,
                "differences": proposal_differences(proposal=proposal),
                "approvals": list(proposal.approvals.all()),
                "approved_by_me": person is not None
                and any(a.officer_id == person.pk for a in proposal.approvals.all()),
                "needed": approvals_needed(on=proposal.event.date),
                "matches": matches,
                "voided": proposal_void_text(proposal=proposal)
                if proposal.status == PayoutCorrectionProposal.Status.VOID
                else "",
            }
        )
    return render(
        request,
        "finance/payouts_corrections.html",
        {"rows": rows, "may_void": user_can(request.user, Action.MANAGE_LEDGER)},
    )


@require_POST
@officer_required
def payout_correction_approve_view(request, pk):
    proposal = get_object_or_404(PayoutCorrectionProposal.objects.select_related("event"), pk=pk)
    before = proposal.approvals.count()
    approved = command_run(request, payout_correction_approve, proposal=proposal, on=club_today())
    if approved is not None:
        approvals = approved.approvals.count()
        needed = approvals_needed(on=approved.event.date)
        if approved.status == PayoutCorrectionProposal.Status.POSTED and approvals > before:
            messages.success(
                request, f"Approved: {approved} is posted, dated today (#{approved.transaction_id})."
            )
        elif approvals == before:
            messages.info(request, "Your approval of this correction is recorded already.")
        else:
            left = approvals_left_text(approved=approvals, needed=needed)
            messages.success(
                request, f"You approved {approved} ({approvals} of {needed}); it is posted once {left}."
            )
    return redirect(_correction_row(proposal))


@require_POST
@require(Action.MANAGE_LEDGER)
def payout_correction_void_view(request, pk):
    proposal = get_object_or_404(PayoutCorrectionProposal.objects.select_related("event"), pk=pk)
    booked = command_run(
        request,
        payout_correction_void,
        proposal=proposal,
        reason=request.POST.get("reason", ""),
        on=club_today(),
    )
    if booked is not None:
        text = proposal_void_text(proposal=booked.record)
        if booked.replayed:
            messages.info(request, f"Already voided: {text}")
        else:
            messages.success(request, f"{text} It waits for no approvals; nothing is posted.")
    return redirect(_correction_row(proposal))


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
