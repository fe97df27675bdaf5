"""Opening balances of the asset accounts (SPEC §16.6): recorded once, corrected by a reversal."""

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render

from events.selectors import current_season
from finance import forms
from finance.models import (
    OpeningBalance,
)
from finance.selectors.ledger import opening_balance_rows
from finance.services.ledger import (
    ASSET_CODES,
    AlreadyReversed,
    books_start_day,
)
from finance.services.opening import opening_balance_check, opening_balance_record
from finance.services.opening import opening_balance_correct as correct_opening_balance
from ncpc.core.clock import club_today
from ncpc.core.errors import NcpcError
from ncpc.core.feedback import command_run, error_show
from ncpc.core.money import money_display
from ncpc.core.permissions import Action, require


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
    if not data["confirm"]:
        return _opening_confirm(request, form=form, code=code)
    booked = command_run(
        request,
        opening_balance_record,
        form=form,
        code=code,
        date=data["date"],
        amount=data["amount"],
        note=data["note"],
        once=data["once"],
    )
    if booked is None:
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


def _opening_confirm(request, *, form, code):
    """The first step: the service's checks (a read: nothing is booked), then what will be booked, to confirm;
    a check that fails shows the form again with its error."""
    data = form.cleaned_data
    try:
        account = opening_balance_check(code=code, day=data["date"], amount=data["amount"], note=data["note"])
    except NcpcError as exc:
        error_show(request, exc, form=form)
        return _opening_page(request, posted=(code, form))
    return render(
        request,
        "finance/opening_balance_confirm.html",
        {"form": form, "account": account, "code": code, "data": data, "start": books_start_day()},
    )


@require(Action.MANAGE_LEDGER)
def opening_balance_correct(request, pk):
    opening = get_object_or_404(OpeningBalance.objects.select_related("account", "transaction"), pk=pk)
    form = forms.ReverseForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        corrected = command_run(
            request,
            correct_opening_balance,
            refused=lambda exc: (
                messages.info(request, str(exc))
                if isinstance(exc, AlreadyReversed)
                else messages.error(request, str(exc))
            ),
            opening=opening,
            on=club_today(),
            reason=form.cleaned_data["reason"],
        )
        if corrected is not None:
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
