"""The money pages' landing page, members' dues statements, late-fee waivers and dues reminders."""

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from events.selectors import current_season
from finance import forms
from finance.models import (
    Disbursement,
    DuesReminder,
    LateFeeWaiver,
    PayoutCorrectionProposal,
    Transaction,
)
from finance.selectors.dues import (
    account_outlook,
    dues_account,
    good_standing,
    membership_payments,
    season_dues_accounts,
)
from finance.selectors.ledger import account_balances
from finance.services.dues import LATE_FEE
from finance.services.payments import late_fee_waive
from finance.services.reminders import dues_reminders_plan, dues_reminders_send
from finance.views.access import may_see_member, own_membership
from members.models import Membership
from ncpc.core.clock import club_today
from ncpc.core.feedback import command_run
from ncpc.core.mail import deliveries_by_reference
from ncpc.core.permissions import Action, require, user_can


@require(Action.VIEW_CLUB)
def index(request):
    if not user_can(request.user, Action.MANAGE_LEDGER):
        return redirect("finance:me")
    season = current_season()
    today = club_today()
    balances = account_balances()
    recent = Transaction.objects.select_related("created_by").prefetch_related("entries__account")[:10]
    pending_checks = Disbursement.objects.filter(status=Disbursement.Status.PENDING).count()
    pending_corrections = PayoutCorrectionProposal.objects.filter(status="pending").count()
    accounts = []
    door_event = None
    if season is not None:
        for account in season_dues_accounts(season=season):
            accounts.append((account, account.status(on=today)))
        door_event = season.events.filter(date__gte=today).order_by("date", "number").first()
    return render(
        request,
        "finance/index.html",
        {
            "season": season,
            "today": today,
            "balances": balances,
            "recent": recent,
            "pending_checks": pending_checks,
            "pending_corrections": pending_corrections,
            "accounts": accounts,
            "door_event": door_event,
        },
    )


def _statement(request, membership):
    today = club_today()
    on = min(today, membership.season.end)
    account = dues_account(membership=membership)

    context = {
        "membership": membership,
        "account": account,
        "status": account.status(on=on),
        "outlook": account_outlook(account=account, on=on, membership=membership),
        "on": on,
        "lines": account.statement(on=on),
        "upcoming": [c for c in account.charges if c.date > on and c.kind != LATE_FEE],
        "good_standing": good_standing(membership=membership, on=on, account=account),
        "payments": membership_payments(memberships=account.holders),
        "own": own_membership(request, membership.season) == membership,
        "can_record": user_can(request.user, Action.RECORD_PAYMENTS),
    }
    if user_can(request.user, Action.WAIVE_LATE_FEES):
        waived = set(
            LateFeeWaiver.objects.filter(membership__in=account.holders).values_list("fee_date", flat=True)
        )
        fee_dates = [
            c.date for c in account.charges if c.kind == LATE_FEE and c.date <= on and c.date not in waived
        ]
        context["waiver_form"] = forms.WaiverForm(fee_dates=fee_dates) if fee_dates else None
    return render(request, "finance/statement.html", context)


@require(Action.VIEW_CLUB)
def me(request):
    membership = own_membership(request, current_season())
    if membership is None:
        return render(request, "finance/no_seat.html", {"season": current_season()})
    return _statement(request, membership)


@require(Action.VIEW_CLUB)
def statement(request, membership_id):
    membership = get_object_or_404(Membership.objects.select_related("person", "season"), pk=membership_id)
    if not may_see_member(request, membership):
        raise PermissionDenied("You may see only your own dues.")
    return _statement(request, membership)


@require_POST
@require(Action.WAIVE_LATE_FEES)
def waive(request, membership_id):
    membership = get_object_or_404(Membership, pk=membership_id)
    account = dues_account(membership=membership)
    fee_dates = [c.date for c in account.charges if c.kind == LATE_FEE]
    form = forms.WaiverForm(request.POST, fee_dates=fee_dates)
    if form.is_valid():
        command_run(
            request,
            late_fee_waive,
            success="The late fee is waived.",
            membership=membership,
            fee_date=form.cleaned_data["fee_date"],
            on=club_today(),
            reason=form.cleaned_data["reason"],
        )
    else:
        messages.error(request, "Pick a late fee and give a reason.")
    return redirect("finance:statement", membership_id=membership.pk)


@require(Action.RECORD_PAYMENTS)
def reminders(request):
    season = current_season()
    today = club_today()
    if request.method == "POST":
        if season is None:
            messages.error(request, "There is no season to send reminders for.")
            return redirect("finance:reminders")
        sent = command_run(request, dues_reminders_send, season=season, on=today, window=False)
        if sent:
            messages.success(
                request,
                f"Queued {len(sent)} reminder(s): they are e-mailed in the background "
                "(the Delivery column says how it went).",
            )
        elif sent is not None:
            messages.info(request, "Nothing to send: everyone listed was reminded for this event already.")
        return redirect("finance:reminders")
    plan = dues_reminders_plan(season=season, on=today) if season is not None else None
    reminders = DuesReminder.objects.select_related("membership__person", "sent_by", "event")
    page = Paginator(reminders, 30).get_page(request.GET.get("page"))
    delivered = deliveries_by_reference(references=[f"reminder:{r.pk}" for r in page])
    rows = [(r, delivered.get(f"reminder:{r.pk}")) for r in page]
    return render(
        request, "finance/reminders.html", {"page": page, "rows": rows, "season": season, "plan": plan}
    )
