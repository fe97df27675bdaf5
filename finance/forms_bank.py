"""Forms of the bank statements and the reconciliation (SPEC §17.3, §17.4)."""

from decimal import Decimal

from django import forms

from finance.services.bank_statements import REASON_MAX
from finance.services.ledger import STANDARD_ACCOUNTS
from finance.services.reconciliation import BANK_ACCOUNT_CODES, BANK_AMOUNT_MAX, CsvColumns
from ncpc.core.forms import BooksOnceForm, MoneyField
from ncpc.core.text import PlainTextForm

ACCOUNT_CHOICES = [
    (code, name) for code, name, _kind, _pos in STANDARD_ACCOUNTS if code in BANK_ACCOUNT_CODES
]
MONTH = forms.DateInput(attrs={"type": "month"}, format="%Y-%m")


class MonthField(forms.DateField):
    """A month as the browser's month picker sends it (2026-11), as its first day."""

    widget = MONTH
    input_formats = ["%Y-%m", "%Y-%m-%d"]

    def to_python(self, value):
        day = super().to_python(value)
        return day.replace(day=1) if day is not None else None


class StatementUploadForm(PlainTextForm, BooksOnceForm):
    account = forms.ChoiceField(choices=ACCOUNT_CHOICES)
    month = MonthField(help_text="The month the statement covers.")
    file = forms.FileField(
        label="Statement (the bank's PDF)",
        widget=forms.ClearableFileInput(attrs={"accept": ".pdf,application/pdf"}),
    )
    reason = forms.CharField(
        max_length=REASON_MAX,
        required=False,
        label="Why it replaces the one kept (a replacement only)",
    )


class BankFileForm(BooksOnceForm):
    """The bank's transaction file of the month: OFX/QFX, or CSV with its columns named (remembered per
    account: the form comes filled in with the last file's)."""

    file = forms.FileField(
        label="Bank file (OFX, QFX or CSV)",
        widget=forms.ClearableFileInput(attrs={"accept": ".ofx,.qfx,.csv,text/csv"}),
    )
    date_column = forms.CharField(max_length=80, required=False, label="CSV: date column")
    amount_column = forms.CharField(
        max_length=80,
        required=False,
        label="CSV: amount column",
        help_text="Deposits positive, withdrawals negative.",
    )
    description_column = forms.CharField(max_length=80, required=False, label="CSV: description column")
    check_column = forms.CharField(max_length=80, required=False, label="CSV: check number column")
    date_format = forms.ChoiceField(
        choices=[
            ("%m/%d/%Y", "12/31/2026"),
            ("%Y-%m-%d", "2026-12-31"),
            ("%d/%m/%Y", "31/12/2026"),
            ("%m/%d/%y", "12/31/26"),
        ],
        required=False,
        label="CSV: dates written as",
    )

    def columns(self) -> CsvColumns | None:
        data = self.cleaned_data
        if not (data.get("date_column") and data.get("amount_column")):
            return None
        return CsvColumns(
            date=data["date_column"].strip(),
            amount=data["amount_column"].strip(),
            description=(data.get("description_column") or "").strip(),
            check_number=(data.get("check_column") or "").strip(),
            date_format=data.get("date_format") or "%m/%d/%Y",
        )


class StatementBalanceForm(forms.Form):
    # What the bank says the account held: not one amount the club moves, so not the season's money limit.
    balance = MoneyField(
        minimum=Decimal("0.00"),
        limit=BANK_AMOUNT_MAX,
        limit_name="a bank statement's balance can be",
        label="Closing balance on the statement",
    )


class MatchForm(forms.Form):
    entry = forms.IntegerField(min_value=1, label="Posting")


class DifferenceForm(PlainTextForm, forms.Form):
    reason = forms.CharField(
        max_length=500, widget=forms.Textarea(attrs={"rows": 2}), label="Why they differ"
    )
