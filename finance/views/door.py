"""The door list of an event night: one tap records a member's cash payment."""

from django.contrib import messages
from django.http import JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.html import format_html
from django.utils.http import url_has_allowed_host_and_scheme

from events.models import Event
from finance import forms
from finance.selectors.door import event_door_list
from finance.selectors.ledger import money_total
from finance.services.door import door_payment_record
from members.models import Membership
from ncpc.core.clock import club_today
from ncpc.core.errors import NcpcError
from ncpc.core.feedback import command_run
from ncpc.core.forms import once_key_new
from ncpc.core.money import money_display
from ncpc.core.permissions import Action, require


def _door_event(season, number):
    return get_object_or_404(Event.objects.select_related("season"), season__name=season, number=number)


@require(Action.RECORD_PAYMENTS)
def door_list(request, season, number):
    event = _door_event(season, number)
    here = reverse("finance:door_list", args=[event.season.name, event.number])
    if request.method == "POST" and "application/json" in request.headers.get("Accept", ""):
        return _door_pay_json(request, event)
    if request.method == "POST":
        return _door_pay_form(request, event, here=here)
    context = door_context(event=event, today=club_today(), next_url=here)
    if request.GET.get("fragment") == "1":
        return render(request, "finance/partials/door_list.html", context)
    return render(request, "finance/door_list.html", context)


def _door_pay_form(request, event, *, here):
    """A tap on the door list's page: record the member's cash payment, say so, and go back to the list (or to
    the page the form names, on this site)."""
    form = forms.DoorPaymentForm(request.POST)
    if not form.is_valid():
        messages.error(request, "This list is out of date: reload it and tap again.")
        return redirect(here)
    data = form.cleaned_data
    back = here
    # Only a path on this site: redirect() would take any other word for the name of a URL (a 500).
    if data["next"].startswith("/") and url_has_allowed_host_and_scheme(
        data["next"], allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        back = data["next"]
    membership = Membership.objects.filter(pk=data["membership"]).select_related("person").first()
    if membership is None:
        messages.error(request, "No such member: reload the list.")
        return redirect(back)
    booked = command_run(
        request,
        door_payment_record,
        event=event,
        membership=membership,
        expected=data["amount"],
        on=club_today(),
        once=data["once"],
    )
    if booked is not None:
        payment = booked.record
        receipt = reverse("finance:receipt", args=[payment.pk])
        if booked.replayed:
            messages.info(
                request,
                format_html(
                    'Already recorded: <a href="{}">receipt #{}</a> (this tap was sent before).',
                    receipt,
                    payment.pk,
                ),
            )
        else:
            messages.success(
                request,
                format_html(
                    '{} paid {} cash: <a href="{}">receipt #{}</a>.',
                    str(membership.person),
                    money_display(payment.amount),
                    receipt,
                    payment.pk,
                ),
            )
    return redirect(back)


def _door_pay_json(request, event):
    """The door list inside the night console (issue 34): one tap records the payment with no page change; the
    answer says what was done (or why not) and brings the list as it is now, with fresh one-time keys."""
    form = forms.DoorPaymentForm(request.POST)
    message, error, receipt = "", "", ""
    if not form.is_valid():
        error = "This list is out of date: it is shown again, tap again."
    else:
        data = form.cleaned_data
        membership = Membership.objects.filter(pk=data["membership"]).select_related("person").first()
        if membership is None:
            error = "No such member: the list is shown again."
        else:
            # Not command_run: a refusal is this answer's error, which the console shows, not a message left in the
            # session for the next page.
            try:
                booked = door_payment_record(
                    event=event,
                    membership=membership,
                    expected=data["amount"],
                    on=club_today(),
                    actor=request.user,
                    once=data["once"],
                )
            except NcpcError as exc:
                error = str(exc)
            else:
                payment = booked.record
                receipt = reverse("finance:receipt", args=[payment.pk])
                message = (
                    f"Already recorded: receipt #{payment.pk} (this tap was sent before)."
                    if booked.replayed
                    else f"{membership.person} paid {money_display(payment.amount)} cash: receipt #{payment.pk}."
                )
    here = reverse("finance:door_list", args=[event.season.name, event.number])
    html = render_to_string(
        "finance/partials/door_list.html",
        door_context(event=event, today=club_today(), next_url=here),
        request=request,
    )
    body = {"ok": not error, "message": message, "error": error, "receipt": receipt, "html": html}
    return JsonResponse(body, status=400 if error else 200)


def door_context(*, event, today, next_url):
    """What the door list partial needs (the tournament-night console can render it with the same)."""
    rows = event_door_list(event=event)
    return {
        "event": event,
        "season": event.season,
        "door_rows": [(row, once_key_new()) for row in rows],
        "door_total": money_total(row.amount for row in rows),
        "door_open": today <= event.date,
        "door_next": next_url,
    }
