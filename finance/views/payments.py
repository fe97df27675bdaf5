"""Recording payments, their receipts and their reversal."""

import re

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.http import JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.views.decorators.http import require_safe

from events.selectors import current_season
from finance import forms
from finance.models import (
    Payment,
    Transaction,
)
from finance.selectors.dues import (
    account_outlook,
    dues_account,
)
from finance.services.ledger import (
    ReversalOverdraws,
    reversal_overdraws,
)
from finance.services.payments import (
    PaymentReversedAlready,
    PaymentUnconfirmed,
    payment_record,
    reversal_of,
    reversed_already_text,
)
from finance.services.payments import payment_reverse as reverse_payment
from finance.views.access import may_see_member
from members.models import Membership
from ncpc.core.clock import club_today
from ncpc.core.feedback import command_run, error_show
from ncpc.core.money import money_display, money_str
from ncpc.core.permissions import Action, require, user_can

_ID = re.compile(r"[0-9]{1,9}")


def _payment_member(season, value):
    """The season's membership named by ``?member=<id>`` (None for anything else)."""
    if season is None or not _ID.fullmatch(str(value or "")):
        return None
    return Membership.objects.filter(season=season, pk=int(value)).select_related("person", "season").first()


def _member_outlook(membership):
    """What the member owes now, to play at the next event, and the next late fee (the payment form's panel)."""
    on = min(club_today(), membership.season.end)
    return account_outlook(account=dues_account(membership=membership), on=on, membership=membership)


@require(Action.RECORD_PAYMENTS)
def payments(request):
    season = current_season()
    chosen = _payment_member(season, request.GET.get("member")) if request.method == "GET" else None
    outlook = None
    initial: dict[str, object] = {}
    if chosen is not None:
        outlook = _member_outlook(chosen)
        initial["membership"] = chosen.pk
        if outlook.to_play > 0:
            initial["amount"] = outlook.to_play
    form = forms.PaymentForm(request.POST or None, season=season, initial=initial)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data

        def refused(exc):
            if isinstance(exc, PaymentUnconfirmed):
                form.ask(exc.questions)  # nothing booked: the form asks, the officer confirms and sends again
            else:
                error_show(request, exc, form=form)

        booked = command_run(
            request,
            payment_record,
            refused=refused,
            membership=data["membership"],
            date=data["date"],
            amount=data["amount"],
            method=data["method"],
            reference=data["reference"],
            once=data["once"],
            ask=True,
            confirmed=data["confirmed"],
        )
        if booked is not None:
            _payment_booked_tell(request, booked)
            # A blank form for the next member, the receipt linked above it.
            return redirect(f"{reverse('finance:payments')}?receipt={booked.record.pk}")
    return _payments_page(request, form=form, season=season, chosen=chosen, outlook=outlook)


def _payment_booked_tell(request, booked):
    """What the officer is told of a payment booked (or found booked already), and of the seats it changed."""
    payment = booked.record
    if booked.replayed:
        messages.info(request, f"Already recorded: receipt #{payment.pk} (this form was sent before).")
    else:
        messages.success(
            request, f"Recorded {money_display(payment.amount)} from {payment.membership.person}."
        )
    for seat in booked.seats_changed:
        messages.info(
            request,
            f"Seat list of event {seat.event.number} ({seat.event.date:%b %-d}): "
            f"{payment.membership.person} is now “{seat.get_status_display()}”.",
        )


def _payments_page(request, *, form, season, chosen, outlook):
    """The payments page: the form, the receipt just recorded (``?receipt=``), the recent payments by page."""
    recorded = None
    if _ID.fullmatch(str(request.GET.get("receipt", ""))):
        recorded = (
            Payment.objects.select_related("membership__person")
            .filter(pk=int(request.GET["receipt"]))
            .first()
        )
    recent = Payment.objects.select_related("membership__person", "transaction").prefetch_related(
        "transaction__reversed_by"
    )
    page = Paginator(recent, 30).get_page(request.GET.get("page"))
    return render(
        request,
        "finance/payments.html",
        {
            "form": form,
            "page": page,
            "season": season,
            "chosen": chosen,
            "outlook": outlook,
            "recorded": recorded,
        },
    )


@require(Action.RECORD_PAYMENTS)
@require_safe
def payment_outlook(request, membership_id):
    """JSON for the payment form's script: the member's panel (as the page renders it) and the amount to play."""
    membership = get_object_or_404(Membership.objects.select_related("person", "season"), pk=membership_id)
    outlook = _member_outlook(membership)
    html = render_to_string(
        "finance/partials/payment_outlook.html", {"chosen": membership, "outlook": outlook}, request=request
    )
    return JsonResponse(
        {
            "membership": membership.pk,
            "balance": money_str(outlook.balance),
            "to_play": money_str(outlook.to_play),
            "next_event": outlook.next_event.isoformat() if outlook.next_event else None,
            "late_fee": money_str(outlook.late_fee),
            "late_fee_date": outlook.late_fee_date.isoformat() if outlook.late_fee_date else None,
            "avoid_late_fee": money_str(outlook.avoid_late_fee),
            "html": html,
        }
    )


@require(Action.VIEW_CLUB)
def receipt(request, pk):
    payment = get_object_or_404(
        Payment.objects.select_related("membership__person", "membership__season", "transaction__created_by"),
        pk=pk,
    )
    if not may_see_member(request, payment.membership):
        raise PermissionDenied("You may see only your own receipts.")
    reversal = Transaction.objects.filter(reverses=payment.transaction).first()
    return render(
        request,
        "finance/receipt.html",
        {
            "payment": payment,
            "reversal": reversal,
            "perms_record": user_can(request.user, Action.RECORD_PAYMENTS),
        },
    )


@require(Action.RECORD_PAYMENTS)
def payment_reverse(request, pk):
    """The reversal's confirm page. A payment reversed already (the form sent twice, two officers) shows who
    reversed it and when in place of the form, and books nothing more."""
    payment = get_object_or_404(Payment.objects.select_related("membership__person", "transaction"), pk=pk)
    what = (
        f"the payment of {money_display(payment.amount)} from {payment.membership.person} on {payment.date}"
    )
    reversal = reversal_of(txn=payment.transaction)
    if reversal is not None:
        return _reversed_already_page(
            request, payment=payment, what=what, reversed_already=_reversed_text(payment, reversal)
        )
    overdraws = reversal_overdraws(txn=payment.transaction, date=club_today())
    # Below zero, the officer ticks that it is reversed all the same, as on the ledger's page.
    form = forms.ReverseForm(request.POST or None, overdraws=overdraws)
    if request.method == "POST" and form.is_valid():
        overdrawn_since = []
        reversed_since: list[PaymentReversedAlready] = []

        def refused(exc):
            if isinstance(exc, PaymentReversedAlready):
                reversed_since.append(exc)  # reversed meanwhile: this form sent before, or another officer
            elif isinstance(exc, ReversalOverdraws):
                overdrawn_since.append(exc)  # the money left the account since the page was shown
            else:
                messages.error(request, str(exc))

        command_run(
            request,
            reverse_payment,
            success="The payment is reversed (dated today); both stay in the books.",
            refused=refused,
            payment=payment,
            date=club_today(),
            reason=form.cleaned_data["reason"],
            overdraw_confirmed=bool(form.cleaned_data.get("confirm_overdraw")),
        )
        if reversed_since:
            return _reversed_already_page(
                request, payment=payment, what=what, reversed_already=str(reversed_since[0])
            )
        if not overdrawn_since:
            return redirect("finance:receipt", pk=payment.pk)
        overdraws = reversal_overdraws(txn=payment.transaction, date=club_today())
        form = forms.ReverseForm(request.POST, overdraws=overdraws)
        form.is_valid()  # the box to tick, and what it answers
    return render(
        request,
        "finance/reverse_confirm.html",
        {"form": form, "what": what, "today": club_today(), "overdraws": overdraws},
    )


def _reversed_text(payment, reversal):
    return reversed_already_text(what=f"Receipt #{payment.pk}", reversal=reversal)


def _reversed_already_page(request, *, payment, what, reversed_already):
    """The confirm page without its form: who reversed the payment and when, and a link to its receipt."""
    return render(
        request,
        "finance/reverse_confirm.html",
        {"what": what, "today": club_today(), "reversed_already": reversed_already, "payment": payment},
    )
