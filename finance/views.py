"""Money pages: thin views over finance.services and finance.selectors."""

import datetime as dt
import re
from functools import wraps

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.http import Http404, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.html import format_html
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_POST, require_safe

from events.models import Event
from events.selectors import current_season, season_rules
from finance import forms, report_files
from finance.models import (
    Disbursement,
    DuesReminder,
    LateFeeWaiver,
    OpeningBalance,
    Payment,
    Transaction,
    WsopResult,
)
from finance.selectors.door import event_door_list
from finance.selectors.dues import (
    account_outlook,
    dues_account,
    good_standing,
    membership_payments,
    season_dues_accounts,
)
from finance.selectors.ledger import account_balances, money_total, opening_balance_rows
from finance.selectors.monthly_report import monthly_report
from finance.selectors.payouts import event_payout_lines, payout_member_names
from finance.services.checks import (
    approval_requests_sent,
    approvals_left_text,
    approvals_needed,
    disbursement_approve,
    disbursement_create,
)
from finance.services.door import door_payment_record
from finance.services.dues import LATE_FEE
from finance.services.escrow import (
    escrow_key,
    season_wsop_allocation,
    wsop_escrow_move,
    wsop_result_record,
    wsop_result_split,
)
from finance.services.event_payouts import event_payout_key, event_payout_post
from finance.services.ledger import (
    ASSET_CODES,
    AlreadyReversed,
    books_start_day,
    month_close,
    months_open_before,
    posted_under_key,
    transaction_reverse,
    transfer_post,
)
from finance.services.night_list import event_reminders
from finance.services.opening import opening_balance_check, opening_balance_record
from finance.services.opening import opening_balance_correct as correct_opening_balance
from finance.services.payments import PaymentUnconfirmed, late_fee_waive, payment_record
from finance.services.payments import payment_reverse as reverse_payment
from finance.services.reminders import dues_reminders_plan, dues_reminders_send
from members.models import Membership
from members.selectors import officer_holders
from ncpc.core.clock import club_today
from ncpc.core.errors import NcpcError
from ncpc.core.feedback import error_show
from ncpc.core.forms import once_key_new
from ncpc.core.mail import deliveries_by_reference
from ncpc.core.money import money_display, money_str
from ncpc.core.permissions import Action, require, user_can, user_offices, user_person


def officer_required(view):
    """Any officer in office (checks need two officers' approvals, §4.7; all three sign)."""

    @wraps(view)
    def wrapper(request, *args, **kwargs):
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        if not (request.user.is_superuser or user_offices(request.user)):
            raise PermissionDenied("Only an officer in office may do this.")
        return view(request, *args, **kwargs)

    return wrapper


def _own_membership(request, season):
    person = user_person(request.user)
    if person is None or season is None:
        return None
    return person.memberships.filter(season=season).select_related("person", "season").first()


def _may_see_member(request, membership) -> bool:
    if user_can(request.user, Action.RECORD_PAYMENTS):
        return True
    person = user_person(request.user)
    return person is not None and membership.person_id == person.pk


# --- landing page and statements ---


@require(Action.VIEW_CLUB)
def index(request):
    if not user_can(request.user, Action.MANAGE_LEDGER):
        return redirect("finance:me")
    season = current_season()
    today = club_today()
    balances = account_balances()
    recent = Transaction.objects.select_related("created_by").prefetch_related("entries__account")[:10]
    pending_checks = Disbursement.objects.filter(status=Disbursement.Status.PENDING).count()
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
        "own": _own_membership(request, membership.season) == membership,
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
    membership = _own_membership(request, current_season())
    if membership is None:
        return render(request, "finance/no_seat.html", {"season": current_season()})
    return _statement(request, membership)


@require(Action.VIEW_CLUB)
def statement(request, membership_id):
    membership = get_object_or_404(Membership.objects.select_related("person", "season"), pk=membership_id)
    if not _may_see_member(request, membership):
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
        try:
            late_fee_waive(
                membership=membership,
                fee_date=form.cleaned_data["fee_date"],
                on=club_today(),
                reason=form.cleaned_data["reason"],
                actor=request.user,
            )
        except NcpcError as exc:
            messages.error(request, str(exc))
        else:
            messages.success(request, "The late fee is waived.")
    else:
        messages.error(request, "Pick a late fee and give a reason.")
    return redirect("finance:statement", membership_id=membership.pk)


# --- payments ---


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
        try:
            booked = payment_record(
                membership=data["membership"],
                date=data["date"],
                amount=data["amount"],
                method=data["method"],
                reference=data["reference"],
                actor=request.user,
                once=data["once"],
                ask=True,
                confirmed=data["confirmed"],
            )
        except PaymentUnconfirmed as exc:
            form.ask(exc.questions)
        except NcpcError as exc:
            error_show(request, exc, form=form)
        else:
            payment = booked.record
            if booked.replayed:
                messages.info(
                    request, f"Already recorded: receipt #{payment.pk} (this form was sent before)."
                )
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
            # A blank form for the next member, the receipt linked above it.
            return redirect(f"{reverse('finance:payments')}?receipt={payment.pk}")
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


# --- the door list of an event night ---


def _door_event(season, number):
    return get_object_or_404(Event.objects.select_related("season"), season__name=season, number=number)


@require(Action.RECORD_PAYMENTS)
def door_list(request, season, number):
    event = _door_event(season, number)
    here = reverse("finance:door_list", args=[event.season.name, event.number])
    if request.method == "POST" and "application/json" in request.headers.get("Accept", ""):
        return _door_pay_json(request, event)
    if request.method == "POST":
        form = forms.DoorPaymentForm(request.POST)
        back = here
        if form.is_valid():
            data = form.cleaned_data
            if data["next"] and url_has_allowed_host_and_scheme(
                data["next"], allowed_hosts={request.get_host()}, require_https=request.is_secure()
            ):
                back = data["next"]
            membership = Membership.objects.filter(pk=data["membership"]).select_related("person").first()
            if membership is None:
                messages.error(request, "No such member: reload the list.")
                return redirect(back)
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
                messages.error(request, str(exc))
            else:
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
        else:
            messages.error(request, "This list is out of date: reload it and tap again.")
        return redirect(back)
    context = door_context(event=event, today=club_today(), next_url=here)
    if request.GET.get("fragment") == "1":
        return render(request, "finance/partials/door_list.html", context)
    return render(request, "finance/door_list.html", context)


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


@require(Action.VIEW_CLUB)
def receipt(request, pk):
    payment = get_object_or_404(
        Payment.objects.select_related("membership__person", "membership__season", "transaction__created_by"),
        pk=pk,
    )
    if not _may_see_member(request, payment.membership):
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
    payment = get_object_or_404(Payment.objects.select_related("membership__person", "transaction"), pk=pk)
    form = forms.ReverseForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            reverse_payment(
                payment=payment, date=club_today(), reason=form.cleaned_data["reason"], actor=request.user
            )
        except AlreadyReversed:
            messages.info(request, f"Already reversed: receipt #{payment.pk} is marked reversed.")
        except NcpcError as exc:
            messages.error(request, str(exc))
        else:
            messages.success(request, "The payment is reversed (dated today); both stay in the books.")
        return redirect("finance:receipt", pk=payment.pk)
    return render(
        request,
        "finance/reverse_confirm.html",
        {
            "form": form,
            "what": f"the payment of {money_display(payment.amount)} from {payment.membership.person} on {payment.date}",
            "today": club_today(),
        },
    )


# --- ledger ---


@require(Action.MANAGE_LEDGER)
def ledger(request):
    txns = Transaction.objects.select_related("created_by", "reverses").prefetch_related(
        "entries__account", "reversed_by"
    )
    page = Paginator(txns, 25).get_page(request.GET.get("page"))
    return render(request, "finance/ledger.html", {"page": page, "balances": account_balances()})


@require(Action.MANAGE_LEDGER)
def transaction_detail(request, pk):
    txn = get_object_or_404(Transaction.objects.select_related("created_by", "reverses"), pk=pk)
    form = forms.ReverseForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            reversal = transaction_reverse(
                txn=txn, date=club_today(), reason=form.cleaned_data["reason"], actor=request.user
            )
        except AlreadyReversed:
            messages.info(request, f"Already reversed: #{txn.pk} was reversed before.")
            return redirect("finance:transaction", pk=txn.pk)
        except NcpcError as exc:
            messages.error(request, str(exc))
        else:
            messages.success(request, f"Posted reversal #{reversal.pk}.")
            return redirect("finance:transaction", pk=reversal.pk)
    reversed_by = Transaction.objects.filter(reverses=txn).first()
    return render(
        request,
        "finance/transaction.html",
        {
            "txn": txn,
            "entries": txn.entries.select_related("account", "membership__person"),
            "form": form,
            "reversed_by": reversed_by,
            "today": club_today(),
        },
    )


@require(Action.MANAGE_LEDGER)
def transfer(request):
    form = forms.TransferForm(request.POST or None, season=current_season())
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            booked = transfer_post(
                date=data["date"],
                from_code=data["from_account"],
                to_code=data["to_account"],
                amount=data["amount"],
                memo=data["memo"],
                actor=request.user,
                once=data["once"],
            )
        except NcpcError as exc:
            error_show(request, exc, form=form)
        else:
            txn = booked.record
            if booked.replayed:
                messages.info(request, f"Already recorded: #{txn.pk} (this form was sent before).")
            else:
                messages.success(request, f"Posted #{txn.pk}: {money_display(data['amount'])}.")
            return redirect("finance:transaction", pk=txn.pk)
    return render(request, "finance/transfer.html", {"form": form})


# --- opening balances (SPEC §16.6) ---


def _opening_page(request, *, posted=None):
    """The opening balances page: each asset account with its recorded balance, or a form to record it
    (``posted``: (code, bound form) of the form just sent, shown with its errors)."""
    season = current_season()
    rows = []
    for row in opening_balance_rows():
        form = None
        if row.recorded is None:
            if posted is not None and posted[0] == row.account.code:
                form = posted[1]
            else:
                form = forms.OpeningBalanceForm(prefix=row.account.code, season=season)
        rows.append((row, form))
    return render(
        request,
        "finance/opening_balances.html",
        {"rows": rows, "start": books_start_day(), "today": club_today()},
    )


@require(Action.MANAGE_LEDGER)
def opening_balances(request):
    if request.method != "POST":
        return _opening_page(request)
    code = request.POST.get("account", "")
    if code not in ASSET_CODES:
        messages.error(request, "Pick the account the balance is for (reload the page).")
        return redirect("finance:opening_balances")
    form = forms.OpeningBalanceForm(request.POST, prefix=code, season=current_season())
    if not form.is_valid() or "edit" in request.POST:
        return _opening_page(request, posted=(code, form))
    data = form.cleaned_data
    try:
        if not data["confirm"]:
            # The first step: the service's checks, then what will be booked, to confirm.
            account = opening_balance_check(
                code=code, day=data["date"], amount=data["amount"], note=data["note"]
            )
            return render(
                request,
                "finance/opening_balance_confirm.html",
                {"form": form, "account": account, "code": code, "data": data, "start": books_start_day()},
            )
        booked = opening_balance_record(
            code=code,
            date=data["date"],
            amount=data["amount"],
            note=data["note"],
            actor=request.user,
            once=data["once"],
        )
    except NcpcError as exc:
        error_show(request, exc, form=form)
        return _opening_page(request, posted=(code, form))
    opening = booked.record
    if booked.replayed:
        messages.info(
            request,
            f"Already recorded: the opening balance of {opening.account} (this form was sent before).",
        )
    else:
        messages.success(
            request,
            f"Recorded the opening balance of {opening.account}: {money_display(opening.amount)} on "
            f"{opening.date:%b %-d, %Y}.",
        )
    return redirect("finance:opening_balances")


@require(Action.MANAGE_LEDGER)
def opening_balance_correct(request, pk):
    opening = get_object_or_404(OpeningBalance.objects.select_related("account", "transaction"), pk=pk)
    form = forms.ReverseForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            correct_opening_balance(
                opening=opening, on=club_today(), reason=form.cleaned_data["reason"], actor=request.user
            )
        except AlreadyReversed as exc:
            messages.info(request, str(exc))
        except NcpcError as exc:
            messages.error(request, str(exc))
        else:
            messages.success(
                request,
                f"The opening balance of {opening.account} is corrected (reversed, dated today); record the right "
                "one below.",
            )
        return redirect("finance:opening_balances")
    return render(
        request,
        "finance/opening_balance_correct.html",
        {"form": form, "opening": opening, "today": club_today()},
    )


# --- event payouts and WSOP ---


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
                }
            )
    return render(request, "finance/payouts.html", {"season": season, "rows": rows})


@require_POST
@require(Action.MANAGE_LEDGER)
def payout_post(request, event_id):
    event = get_object_or_404(Event, pk=event_id)
    try:
        booked = event_payout_post(event=event, actor=request.user)
    except NcpcError as exc:
        messages.error(request, str(exc))
    else:
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
    try:
        txn = wsop_escrow_move(season=season, date=club_today(), actor=request.user)
    except NcpcError as exc:
        messages.error(request, str(exc))
    else:
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
        try:
            booked = wsop_result_record(
                season=season,
                representative=data["representative"],
                gross=data["gross"],
                tips=data["tips"],
                declined=data["declined"],
                actor=request.user,
                once=data["once"],
            )
        except NcpcError as exc:
            messages.error(request, str(exc))
        else:
            if booked.replayed:
                messages.info(request, "Already recorded: these winnings were recorded before.")
            else:
                messages.success(request, "Winnings recorded.")
    else:
        problems = "; ".join(str(e) for errors in form.errors.values() for e in errors)
        messages.error(request, f"Please give the representative, gross winnings and tips. {problems}")
    return redirect("finance:wsop")


# --- checks ---


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
            try:
                booked = disbursement_create(
                    date=data["date"],
                    payee=data["payee"],
                    amount=data["amount"],
                    memo=data["memo"],
                    from_code=data["from_account"],
                    to_code=data["to_account"],
                    check_number=data["check_number"],
                    signers=(data["signer_1"], data["signer_2"]),
                    actor=request.user,
                    once=data["once"],
                    on=today,
                )
            except NcpcError as exc:
                error_show(request, exc, form=form)
            else:
                check = booked.record
                if booked.replayed:
                    messages.info(request, f"Already recorded: {check} (this form was sent before).")
                else:
                    messages.success(request, _check_written_text(check=check))
                return redirect("finance:checks")
    items = list(
        Disbursement.objects.select_related(
            "from_account", "to_account", "signer_1", "signer_2", "transaction"
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
        },
    )


def _check_written_text(*, check: Disbursement) -> str:
    needed = approvals_needed(on=check.date)
    approved = check.approvals.count()
    asked = approval_requests_sent(check=check)
    text = f"{check} written"
    if approved:
        text += f" with your approval ({approved} of {needed})"
    text += f"; it is issued once {approvals_left_text(approved=approved, needed=needed)}."
    if asked:
        text += f" {asked} officer{'s were' if asked != 1 else ' was'} e-mailed a link to approve it."
    return text


@require_POST
@officer_required
def check_approve(request, pk):
    check = get_object_or_404(Disbursement, pk=pk)
    before = check.approvals.count()
    try:
        check = disbursement_approve(disbursement=check, actor=request.user, on=club_today())
    except NcpcError as exc:
        messages.error(request, str(exc))
    else:
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


# --- reminders ---


@require(Action.RECORD_PAYMENTS)
def reminders(request):
    season = current_season()
    today = club_today()
    if request.method == "POST":
        if season is None:
            messages.error(request, "There is no season to send reminders for.")
            return redirect("finance:reminders")
        sent = dues_reminders_send(season=season, on=today, actor=request.user, window=False)
        if sent:
            messages.success(
                request,
                f"Queued {len(sent)} reminder(s): they are e-mailed in the background "
                "(the Delivery column says how it went).",
            )
        else:
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


# --- the treasurer's monthly report ---


def report_current(request):
    today = club_today()
    return redirect("finance:report", year=today.year, month=today.month)


report_current = require(Action.VIEW_CLUB)(report_current)


def _months_beside(year: int, month: int) -> tuple[dt.date, dt.date]:
    """The first days of the month before and the month after."""
    first = dt.date(year, month, 1)
    return (first - dt.timedelta(days=1)).replace(day=1), (first + dt.timedelta(days=32)).replace(day=1)


def _report_parts(*, year: int, month: int, today: dt.date, viewer: int | None, data, own) -> dict[str, str]:
    """The report's heading (its links) and tables (finance/partials/report_head.html and report_body.html),
    for the officers (``viewer`` None: every seat) or for one member (their own seat): most of the page."""
    prev, nxt = _months_beside(year, month)
    full = viewer is None
    context = {"report": data, "full": full, "own_rows": own}
    return {
        "head_html": render_to_string(
            "finance/partials/report_head.html",
            {**context, "prev": prev, "next": nxt, "csv_tables": report_files.csv_tables(full=full)},
        ),
        "body_html": render_to_string("finance/partials/report_body.html", context),
    }


@require(Action.VIEW_CLUB)
def report(request, year, month):
    if not (1 <= month <= 12 and 2000 <= year <= 2200):
        raise Http404("No such month.")
    data = monthly_report(year=year, month=month, today=club_today())
    full = user_can(request.user, Action.TREASURER_REPORT)
    own = []
    if not full:
        # The reader's own seat: the row whose holder is this login (the report has read the people already).
        own = [row for row in data.members if row.membership.person.user_id == request.user.pk]
    fmt = request.GET.get("format")
    if fmt == "csv":
        response = report_files.report_csv(data, table=request.GET.get("table", "fees"), full=full, own=own)
        if response is None:
            raise Http404("No such table in this report.")
        return response
    if fmt == "xlsx":
        return report_files.report_xlsx(data, full=full, own=own)
    if fmt == "pdf":
        return report_files.report_pdf(data, full=full, own=own, printed=timezone.localtime())
    nxt = _months_beside(year, month)[1]
    may_close = user_can(request.user, Action.MANAGE_LEDGER) and nxt <= club_today()
    # Months close in order (SPEC §16.1): the earlier months still open, listed instead of the button.
    open_before = months_open_before(day=data.start) if may_close and data.closed is None else []
    return render(
        request,
        "finance/report.html",
        {
            "report": data,
            **_report_parts(
                year=year,
                month=month,
                today=club_today(),
                viewer=None if full else request.user.pk,
                data=data,
                own=own,
            ),
            "closed": data.closed,
            "may_close": may_close,
            "open_before": open_before,
            "printed": timezone.localtime(),
        },
    )


@require_POST
@require(Action.MANAGE_LEDGER)
def report_close(request, year, month):
    """The Treasurer presented the month's report: close the month (SPEC §15.6)."""
    if not (1 <= month <= 12 and 2000 <= year <= 2200):
        raise Http404("No such month.")
    first = dt.date(year, month, 1)
    try:
        month_close(day=first, actor=request.user)
    except NcpcError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(
            request, f"{first:%B %Y} is closed: no entry can be dated in it; corrections are dated today."
        )
    return redirect("finance:report", year=year, month=month)
