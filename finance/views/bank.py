"""The bank statements (every member reads them, SPEC §17.3) and the month's reconciliation (the Treasurer's,
SPEC §17.4): thin views over finance.services.bank_statements and finance.services.reconciliation."""

import datetime as dt

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import FileResponse, Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST, require_safe

from finance import forms_bank
from finance.models import Account, BankLine, BankStatement
from finance.services.bank_statements import bank_accounts, bank_statement_upload, bank_statements_by_month
from finance.services.reconciliation import (
    BANK_ACCOUNT_CODES,
    bank_file_import,
    bank_line_match,
    bank_line_unmatch,
    csv_columns_remembered,
    difference_record,
    hand_match_choices,
    reconciliation_months,
    reconciliation_read,
    statement_balance_record,
)
from ncpc.core.clock import club_today
from ncpc.core.feedback import command_run
from ncpc.core.money import money_display
from ncpc.core.permissions import Action, require, user_can


def _month(year: int, month: int) -> dt.date:
    if not (1 <= month <= 12 and 2000 <= year <= 2200):
        raise Http404("No such month.")
    return dt.date(year, month, 1)


def _reconcile_month(year: int, month: int) -> dt.date:
    """The month of a reconciliation page: a 404 outside the months it opens for (``reconciliation_months``)."""
    first = _month(year, month)
    earliest, latest = reconciliation_months(today=club_today())
    if not earliest <= first <= latest:
        raise Http404(f"Reconciliations open from {earliest:%B %Y} to {latest:%B %Y}.")
    return first


def _last_month() -> dt.date:
    return (club_today().replace(day=1) - dt.timedelta(days=1)).replace(day=1)


def _statements_page(request, *, month: dt.date | None, form=None):
    may_keep = user_can(request.user, Action.MANAGE_LEDGER)
    if may_keep and form is None:
        form = forms_bank.StatementUploadForm(initial={"month": month or _last_month()})
    return render(
        request,
        "finance/bank/statements.html",
        {
            "groups": bank_statements_by_month(month=month),
            "month": month,
            "form": form if may_keep else None,
            "may_reconcile": may_keep,
            "accounts": bank_accounts(),
            "last_month": _last_month(),
        },
    )


@require(Action.VIEW_CLUB)
def statements(request):
    """Every statement kept, newest month first; the Treasurer's upload form."""
    if request.method != "POST":
        return _statements_page(request, month=None)
    if not user_can(request.user, Action.MANAGE_LEDGER):
        raise PermissionDenied("Only the Treasurer keeps the bank statements.")
    form = forms_bank.StatementUploadForm(request.POST, request.FILES)
    if not form.is_valid():
        return _statements_page(request, month=None, form=form)
    data = form.cleaned_data
    upload = data["file"]
    booked = command_run(
        request,
        bank_statement_upload,
        form=form,
        code=data["account"],
        month=data["month"],
        name=upload.name or "",
        data=upload.read(),
        reason=data["reason"],
        once=data["once"],
    )
    if booked is None:
        return _statements_page(request, month=None, form=form)
    statement = booked.record
    if booked.replayed:
        messages.info(request, f"Already kept: {statement} (this form was sent before).")
    else:
        messages.success(request, f"Kept the {statement}.")
    return redirect("finance:bank_month", year=statement.month.year, month=statement.month.month)


@require(Action.VIEW_CLUB)
@require_safe
def statements_month(request, year, month):
    """One month's statements (linked from that month's report)."""
    return _statements_page(request, month=_month(year, month))


@require(Action.VIEW_CLUB)
@require_safe
def statement_file(request, pk):
    """The statement's PDF, as the bank gave it, for any member (bylaws §3.6.6)."""
    statement = get_object_or_404(BankStatement.objects.select_related("account"), pk=pk)
    try:
        handle = statement.file.open("rb")
    except (FileNotFoundError, OSError):
        raise Http404("The statement's file is missing from the storage; tell the Treasurer.") from None
    name = f"{statement.account.code}-{statement.month:%Y-%m}-statement-v{statement.version}.pdf"
    return FileResponse(handle, as_attachment=True, filename=name, content_type="application/pdf")


def _account(code: str) -> Account:
    if code not in BANK_ACCOUNT_CODES:
        raise Http404("No such bank account.")
    account = Account.objects.filter(code=code).first()
    if account is None:
        raise Http404("Nothing was ever posted to this account.")
    return account


@require(Action.MANAGE_LEDGER)
@require_safe
def reconcile(request, code, year, month):
    """The account's month against the bank: the bank's lines matched or not (with the postings each may be
    matched to by hand), the items not yet cleared, the statement's balance and the difference."""
    first = _reconcile_month(year, month)
    earliest, latest = reconciliation_months(today=club_today())
    prev = (first - dt.timedelta(days=1)).replace(day=1)
    following = (first + dt.timedelta(days=32)).replace(day=1)
    account = _account(code)
    rec = reconciliation_read(account=account, month=first)
    columns = csv_columns_remembered(account=account)
    initial = {}
    if columns is not None:
        initial = {
            "date_column": columns.date,
            "amount_column": columns.amount,
            "description_column": columns.description,
            "check_column": columns.check_number,
            "date_format": columns.date_format,
        }
    unmatched = [(line, hand_match_choices(account=account, line=line)) for line in rec.bank_only]
    return render(
        request,
        "finance/bank/reconcile.html",
        {
            "rec": rec,
            "account": account,
            "unmatched": unmatched,
            "file_form": forms_bank.BankFileForm(initial=initial),
            "balance_form": forms_bank.StatementBalanceForm(
                initial={"balance": rec.statement_balance} if rec.statement_balance is not None else None
            ),
            "difference_form": forms_bank.DifferenceForm(
                initial={"reason": rec.record.difference_reason} if rec.record else None
            ),
            "not_over": first >= club_today().replace(day=1),
            # No link to a month the page does not open for (before January 2000, after next month).
            "prev": prev if prev >= earliest else None,
            "next": following if following <= latest else None,
        },
    )


def _back(code: str, first: dt.date):
    return redirect("finance:reconcile", code=code, year=first.year, month=first.month)


def _form_errors(request, form) -> None:
    for field, errors in form.errors.items():
        label = form.fields[field].label if field in form.fields and field != "once" else ""
        for error in errors:
            messages.error(request, f"{label}: {error}" if label else error)


@require_POST
@require(Action.MANAGE_LEDGER)
def reconcile_import(request, code, year, month):
    first = _reconcile_month(year, month)
    form = forms_bank.BankFileForm(request.POST, request.FILES)
    if not form.is_valid():
        _form_errors(request, form)
        return _back(code, first)
    upload = form.cleaned_data["file"]
    booked = command_run(
        request,
        bank_file_import,
        code=code,
        month=first,
        name=upload.name or "",
        data=upload.read(),
        columns=form.columns(),
        once=form.cleaned_data["once"],
    )
    if booked is None:
        return _back(code, first)
    result = booked.record
    if booked.replayed:
        messages.info(
            request, f"Already imported: {result.bank_import.file_name} (this form was sent before)."
        )
    else:
        parts = [f"{result.added} new lines", f"{result.matched} matched"]
        if result.already:
            parts.append(f"{result.already} imported before")
        if result.outside:
            parts.append(f"{result.outside} dated outside {first:%B %Y} left out")
        messages.success(request, f"Imported {result.bank_import.file_name}: " + ", ".join(parts) + ".")
    return _back(code, first)


@require_POST
@require(Action.MANAGE_LEDGER)
def reconcile_balance(request, code, year, month):
    first = _reconcile_month(year, month)
    form = forms_bank.StatementBalanceForm(request.POST)
    if not form.is_valid():
        _form_errors(request, form)
        return _back(code, first)
    recorded = command_run(
        request, statement_balance_record, code=code, month=first, balance=form.cleaned_data["balance"]
    )
    if recorded is not None:
        messages.success(
            request, f"The statement's closing balance is {money_display(form.cleaned_data['balance'])}."
        )
    return _back(code, first)


@require_POST
@require(Action.MANAGE_LEDGER)
def reconcile_difference(request, code, year, month):
    first = _reconcile_month(year, month)
    form = forms_bank.DifferenceForm(request.POST)
    if not form.is_valid():
        _form_errors(request, form)
        return _back(code, first)
    record = command_run(
        request, difference_record, code=code, month=first, reason=form.cleaned_data["reason"]
    )
    if record is not None:
        messages.success(
            request, f"Recorded the difference of {money_display(record.difference)} with its reason."
        )
    return _back(code, first)


def _line_back(line: BankLine):
    return _back(line.account.code, line.month)


@require_POST
@require(Action.MANAGE_LEDGER)
def line_match(request, pk):
    line = get_object_or_404(BankLine.objects.select_related("account"), pk=pk)
    form = forms_bank.MatchForm(request.POST)
    if not form.is_valid():
        messages.error(request, "Pick the posting this bank line is.")
        return _line_back(line)
    if (
        command_run(request, bank_line_match, line_id=line.pk, entry_id=form.cleaned_data["entry"])
        is not None
    ):
        messages.success(request, f"Matched the bank's {line.date:%b %-d} {money_display(line.amount)}.")
    return _line_back(line)


@require_POST
@require(Action.MANAGE_LEDGER)
def line_unmatch(request, pk):
    line = get_object_or_404(BankLine.objects.select_related("account"), pk=pk)
    if command_run(request, bank_line_unmatch, line_id=line.pk) is not None:
        messages.success(request, f"The bank's {line.date:%b %-d} {money_display(line.amount)} is unmatched.")
    return _line_back(line)
