"""The ledger: its transactions, their reversal, transfers between the club's accounts."""

from django.contrib import messages
from django.core.paginator import Paginator
from django.shortcuts import get_object_or_404, redirect, render

from events.selectors import current_season
from finance import forms
from finance.models import (
    Disbursement,
    Transaction,
)
from finance.selectors.ledger import account_balances
from finance.services.ledger import (
    AlreadyReversed,
    ReversalOverdraws,
    reversal_overdraws,
    transaction_reverse,
    transfer_post,
)
from finance.services.payments import reversal_of, reversed_already_text
from ncpc.core.clock import club_today
from ncpc.core.feedback import command_run
from ncpc.core.money import money_display
from ncpc.core.permissions import Action, require


@require(Action.MANAGE_LEDGER)
def ledger(request):
    txns = Transaction.objects.select_related("created_by", "reverses").prefetch_related(
        "entries__account", "reversed_by"
    )
    page = Paginator(txns, 25).get_page(request.GET.get("page"))
    return render(request, "finance/ledger.html", {"page": page, "balances": account_balances()})


@require(Action.MANAGE_LEDGER)
def transaction_detail(request, pk):
    """A transaction, and the form that reverses it. A reversal that would take an account below zero says so
    before it is booked, and the officer ticks that it is to be booked all the same."""
    txn = get_object_or_404(Transaction.objects.select_related("created_by", "reverses"), pk=pk)
    today = club_today()
    reversed_by = Transaction.objects.filter(reverses=txn).first()
    reversible = reversed_by is None and txn.reverses_id is None
    overdraws = reversal_overdraws(txn=txn, date=today) if reversible else []
    form = forms.ReverseForm(request.POST or None, overdraws=overdraws)
    if request.method == "POST" and form.is_valid():
        reversed_before = []
        overdrawn_since = []

        def refused(exc):
            if isinstance(exc, AlreadyReversed):
                reversed_before.append(exc)
                # The form sent twice, or a second officer: who reversed it and when, nothing more booked.
                messages.info(
                    request,
                    reversed_already_text(what=f"Transaction #{txn.pk}", reversal=reversal_of(txn=txn)),
                )
            elif isinstance(exc, ReversalOverdraws):
                overdrawn_since.append(exc)  # the money left the account since the page was shown
            else:
                messages.error(request, str(exc))

        reversal = command_run(
            request,
            transaction_reverse,
            success="Posted reversal #{result.pk}.",
            refused=refused,
            txn=txn,
            date=today,
            reason=form.cleaned_data["reason"],
            overdraw_confirmed=bool(form.cleaned_data.get("confirm_overdraw")),
        )
        # The reversal's page, or this transaction's when it was reversed before; any other refusal stays here.
        if reversal is not None or reversed_before:
            return redirect("finance:transaction", pk=(reversal or txn).pk)
        if overdrawn_since:
            overdraws = reversal_overdraws(txn=txn, date=today)
            form = forms.ReverseForm(request.POST, overdraws=overdraws)
            form.is_valid()  # the box to tick, and what it answers
    return render(
        request,
        "finance/transaction.html",
        {
            "txn": txn,
            "entries": txn.entries.select_related("account", "membership__person"),
            "form": form,
            "reversed_by": reversed_by,
            "today": today,
            "overdraws": overdraws,
            # The check this transaction issued: the day written on it may be earlier than the day it was
            # posted (its last approval), and the page says both, as the checks list does.
            "check": Disbursement.objects.filter(transaction=txn).first(),
        },
    )


@require(Action.MANAGE_LEDGER)
def transfer(request):
    form = forms.TransferForm(request.POST or None, season=current_season())
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        booked = command_run(
            request,
            transfer_post,
            form=form,
            date=data["date"],
            from_code=data["from_account"],
            to_code=data["to_account"],
            amount=data["amount"],
            memo=data["memo"],
            once=data["once"],
        )
        if booked is not None:
            txn = booked.record
            if booked.replayed:
                messages.info(request, f"Already recorded: #{txn.pk} (this form was sent before).")
            else:
                messages.success(request, f"Posted #{txn.pk}: {money_display(data['amount'])}.")
            return redirect("finance:transaction", pk=txn.pk)
    return render(request, "finance/transfer.html", {"form": form})
