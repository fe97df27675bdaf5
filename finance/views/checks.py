"""Checks: written by the treasurer, approved by the officers (§4.7), voided (before they are issued) with a
reason by those who write them."""

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from events.selectors import current_season
from finance import forms
from finance.models import (
    Disbursement,
)
from finance.services.checks import (
    approvals_left_text,
    approvals_needed,
    check_void_text,
    check_written_text,
    disbursement_approve,
    disbursement_create,
    disbursement_void,
)
from finance.views.access import officer_required
from members.selectors import officer_holders
from ncpc.core.clock import club_today
from ncpc.core.feedback import command_run
from ncpc.core.permissions import Action, require, user_can, user_person


@officer_required
def checks(request):
    today = club_today()
    may_write = user_can(request.user, Action.MANAGE_LEDGER)
    officers = list({p.pk: p for p in officer_holders(on=today).values()}.values())
    form = (
        forms.CheckForm(request.POST or None, season=current_season(), officers=officers)
        if may_write
        else None
    )
    if request.method == "POST":
        if form is None:  # built only for a user who may write checks
            raise PermissionDenied("Only the treasurer writes checks.")
        if form.is_valid():
            data = form.cleaned_data
            booked = command_run(
                request,
                disbursement_create,
                form=form,
                date=data["date"],
                payee=data["payee"],
                amount=data["amount"],
                memo=data["memo"],
                from_code=data["from_account"],
                to_code=data["to_account"],
                check_number=data["check_number"],
                signers=(data["signer_1"], data["signer_2"]),
                once=data["once"],
                on=today,
            )
            if booked is not None:
                check = booked.record
                if booked.replayed:
                    messages.info(request, f"Already recorded: {check} (this form was sent before).")
                else:
                    messages.success(request, check_written_text(check=check))
                return redirect("finance:checks")
    items = list(
        Disbursement.objects.select_related(
            "from_account", "to_account", "signer_1", "signer_2", "transaction__reversed_by", "voided_by"
        ).prefetch_related("approvals__officer")
    )
    person = user_person(request.user)
    approved_by_me = {
        c.pk
        for c in items
        if person is not None and any(a.officer_id == person.pk for a in c.approvals.all())
    }
    return render(
        request,
        "finance/checks.html",
        {
            "form": form,
            "checks": items,
            "me": person,
            "approved_by_me": approved_by_me,
            "needed": approvals_needed(on=today),
            "may_void": may_write,
        },
    )


@require_POST
@officer_required
def check_approve(request, pk):
    check = get_object_or_404(Disbursement, pk=pk)
    before = check.approvals.count()
    approved = command_run(request, disbursement_approve, disbursement=check, on=club_today())
    if approved is not None:
        check = approved
        approvals = check.approvals.count()
        needed = approvals_needed(on=check.date)
        if check.status == Disbursement.Status.ISSUED and approvals > before:
            messages.success(request, f"Approved: {check} is issued.")
        elif approvals == before:
            messages.info(request, "Your approval of this check is recorded already.")
        else:
            left = approvals_left_text(approved=approvals, needed=needed)
            messages.success(
                request, f"You approved {check} ({approvals} of {needed}); it is issued once {left}."
            )
    return redirect("finance:checks")


def _check_row(check: Disbursement) -> str:
    return f"{reverse('finance:checks')}#check-{check.pk}"


@require(Action.MANAGE_LEDGER)
def check_void(request, pk):
    """Void a check not yet issued: a confirmation page with the reason to give; an issued or voided check's
    page says what became of it instead."""
    check = get_object_or_404(
        Disbursement.objects.select_related(
            "from_account", "to_account", "signer_1", "signer_2", "transaction", "voided_by"
        ),
        pk=pk,
    )
    form = forms.CheckVoidForm(request.POST or None)
    if request.method == "POST" and check.status == Disbursement.Status.PENDING and form.is_valid():
        booked = command_run(
            request,
            disbursement_void,
            form=form,
            disbursement=check,
            reason=form.cleaned_data["reason"],
            on=club_today(),
        )
        if booked is not None:
            if booked.replayed:
                messages.info(request, f"Already voided: {check_void_text(check=booked.record)}")
            else:
                messages.success(
                    request, f"{check_void_text(check=booked.record)} It waits for no approvals."
                )
            return redirect(_check_row(booked.record))
    return render(
        request,
        "finance/check_void.html",
        {
            "check": check,
            "form": form,
            "approvals": check.approvals.select_related("officer"),
            "needed": approvals_needed(on=check.date),
            "voided": check_void_text(check=check) if check.status == Disbursement.Status.VOID else "",
        },
    )
