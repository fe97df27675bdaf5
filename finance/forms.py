import datetime as dt
from collections.abc import Sequence
from decimal import Decimal

from django import forms

from finance import hooks
from finance.models import Payment
from finance.services.checks import FROM_ACCOUNTS, TO_ACCOUNTS
from finance.services.escrow import WINNINGS_LIMIT
from finance.services.ledger import STANDARD_ACCOUNTS, TRANSFER_CODES
from finance.services.opening import NOTE_MAX
from members.models import Membership, Person
from ncpc.core.clock import club_today
from ncpc.core.forms import BooksOnceForm, ClubReferencesForm, MoneyField, form_field
from ncpc.core.money import money_str
from ncpc.core.text import PlainTextForm

DATE = forms.DateInput(attrs={"type": "date"})
ACCOUNT_NAMES = {code: name for code, name, _kind, _pos in STANDARD_ACCOUNTS}


def limit_from(form: forms.Form, season) -> None:
    """The season's largest single amount (``Season.money_limit``) for every money field of the form."""
    if season is None:
        return
    for field in form.fields.values():
        if isinstance(field, MoneyField):
            field.limit = season.money_limit
            field.limit_source = "season"


def not_after_today(day: dt.date) -> dt.date:
    if day > club_today():
        raise forms.ValidationError("The date cannot be after today.")
    return day


class PayerField(forms.ModelChoiceField):
    """A member of the season who holds a seat, by name (no payment is booked for one who left: SPEC §16.2)."""

    def label_from_instance(self, obj: Membership) -> str:
        return str(obj.person)


class MemberNameField(forms.ModelChoiceField):
    """A member of the season, by name."""

    def label_from_instance(self, obj: Membership) -> str:
        return str(obj.person)


class PaymentForm(PlainTextForm, BooksOnceForm):
    membership = PayerField(queryset=Membership.objects.none(), label="Member")
    date = forms.DateField(widget=DATE, initial=club_today)
    amount = MoneyField()
    method = forms.ChoiceField(choices=Payment.Method.choices)
    reference = forms.CharField(max_length=80, required=False, help_text="Check number or a note.")
    # The second step of an unusual payment (SPEC §16.4): shown as a tick box with the service's questions;
    # ``asked`` holds the member and amount they were about, so that a changed payment is asked about again.
    confirm = forms.BooleanField(required=False, widget=forms.HiddenInput)
    asked = forms.CharField(required=False, max_length=40, widget=forms.HiddenInput)

    def __init__(self, *args, season=None, **kwargs):
        super().__init__(*args, **kwargs)
        limit_from(self, season)
        self.questions: tuple[str, ...] = ()

        qs = Membership.objects.select_related("person").none()
        if season is not None:
            qs = Membership.objects.filter(season=season, left_after_event__isnull=True).select_related(
                "person"
            )
        form_field(self, "membership", forms.ModelChoiceField).queryset = qs

    def clean_date(self):
        return not_after_today(self.cleaned_data["date"])

    @staticmethod
    def _asked(membership, amount) -> str:
        return f"{membership.pk}:{money_str(amount)}" if membership is not None and amount is not None else ""

    def clean(self):
        super().clean()
        data = self.cleaned_data
        asked = self._asked(data.get("membership"), data.get("amount"))
        data["confirmed"] = bool(data.get("confirm")) and bool(asked) and data.get("asked") == asked
        return data

    def ask(self, questions: Sequence[str]) -> None:
        """Show the service's questions with a tick box, unticked; the officer ticks it and sends the form again
        (the same one-time key: a double click still books once)."""
        self.questions = tuple(questions)
        data = {name: value for name, value in self.data.items() if name != "confirm"}
        data["asked"] = self._asked(self.cleaned_data.get("membership"), self.cleaned_data.get("amount"))
        self.data = data
        field = self.fields["confirm"]
        field.widget = forms.CheckboxInput()
        field.label = "Yes, record it"


class DoorPaymentForm(BooksOnceForm):
    """One tap on the door list: the member and the amount the list showed (recorded only if still owed)."""

    membership = forms.IntegerField(min_value=1, widget=forms.HiddenInput)
    amount = MoneyField(widget=forms.HiddenInput)
    next = forms.CharField(required=False, max_length=300, widget=forms.HiddenInput)


class ReverseForm(PlainTextForm, forms.Form):
    """A reversal is dated today (SPEC §15.6): it shows in the month it happens. ``overdraws``: what the page
    warns of, when the reversal would take an account below zero (``reversal_overdraws``): the officer ticks
    that it is to be booked all the same."""

    reason = forms.CharField(max_length=500, widget=forms.Textarea(attrs={"rows": 2}))

    def __init__(self, *args, overdraws: Sequence[str] = (), **kwargs):
        super().__init__(*args, **kwargs)
        self.overdraws = tuple(overdraws)
        if self.overdraws:
            self.fields["confirm_overdraw"] = forms.BooleanField(
                label="Yes, reverse it all the same: the account goes below zero",
                error_messages={
                    "required": "Tick the box to reverse it although the account goes below zero."
                },
            )


class CheckVoidForm(PlainTextForm, forms.Form):
    """Voiding a check not yet issued: the reason is kept with it and shown on the checks list."""

    reason = forms.CharField(
        max_length=500,
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text="Shown with the check on the checks list, and in the audit log.",
    )


class WaiverForm(PlainTextForm, forms.Form):
    fee_date = forms.TypedChoiceField(coerce=dt.date.fromisoformat, label="Late fee of")
    reason = forms.CharField(max_length=500)

    def __init__(self, *args, fee_dates=(), **kwargs):
        super().__init__(*args, **kwargs)
        form_field(self, "fee_date", forms.ChoiceField).choices = [
            (d.isoformat(), f"{d:%b %-d, %Y}") for d in fee_dates
        ]


class TransferForm(PlainTextForm, BooksOnceForm):
    """The Treasurer's own movements: between the cash box and club checking only (SPEC §15.6)."""

    date = forms.DateField(widget=DATE, initial=club_today)
    from_account = forms.ChoiceField(choices=[(c, ACCOUNT_NAMES[c]) for c in TRANSFER_CODES], label="From")
    to_account = forms.ChoiceField(
        choices=[(c, ACCOUNT_NAMES[c]) for c in reversed(TRANSFER_CODES)], label="To"
    )
    amount = MoneyField()
    memo = forms.CharField(max_length=200, help_text="e.g. Cash box deposited at the bank")

    def __init__(self, *args, season=None, **kwargs):
        super().__init__(*args, **kwargs)
        limit_from(self, season)

    def clean_date(self):
        return not_after_today(self.cleaned_data["date"])


class CheckForm(PlainTextForm, ClubReferencesForm, BooksOnceForm):
    date = forms.DateField(widget=DATE, initial=club_today)
    check_number = forms.CharField(max_length=20)
    payee = forms.CharField(max_length=120)
    amount = MoneyField()
    memo = forms.CharField(max_length=200, label="Purpose")
    from_account = forms.ChoiceField(choices=[(c, ACCOUNT_NAMES[c]) for c in FROM_ACCOUNTS], label="Drawn on")
    to_account = forms.ChoiceField(choices=[(c, ACCOUNT_NAMES[c]) for c in TO_ACCOUNTS], label="For")
    signer_1 = forms.ModelChoiceField(queryset=Person.objects.none(), label="First signer")
    signer_2 = forms.ModelChoiceField(queryset=Person.objects.none(), label="Second signer")

    def __init__(self, *args, season=None, officers=(), **kwargs):
        super().__init__(*args, **kwargs)
        limit_from(self, season)
        pks = [p.pk for p in officers]
        for name in ("signer_1", "signer_2"):
            form_field(self, name, forms.ModelChoiceField).queryset = Person.objects.filter(pk__in=pks)

    def clean_date(self):
        return not_after_today(self.cleaned_data["date"])

    def clean(self):
        super().clean()
        data = self.cleaned_data
        if data.get("signer_1") and data.get("signer_1") == data.get("signer_2"):
            self.add_error("signer_2", "A check needs two different officers' signatures (§4.7).")
        if data.get("from_account") and data.get("from_account") == data.get("to_account"):
            self.add_error("to_account", "Pick an account other than the one the check is drawn on.")
        return data


class WsopResultForm(ClubReferencesForm, BooksOnceForm):
    representative = MemberNameField(queryset=Membership.objects.none())
    gross = MoneyField(minimum=Decimal("0.00"), limit=WINNINGS_LIMIT, limit_name="winnings can be")
    tips = MoneyField(
        minimum=Decimal("0.00"), limit=WINNINGS_LIMIT, initial=Decimal("0.00"), limit_name="tips can be"
    )
    declined = MemberNameField(
        queryset=Membership.objects.none(), required=False, label="Replaced the qualifier who declined (§8.4)"
    )

    def __init__(self, *args, season=None, **kwargs):
        super().__init__(*args, **kwargs)

        # SPEC §15.3: winnings only of a member who goes; the declined qualifier only among those who declined.
        statuses = hooks.wsop_statuses(season=season) if season is not None else {}
        qs = Membership.objects.filter(season=season).select_related("person")
        wanted = {"representative": ("qualified", "replacement"), "declined": ("declined",)}
        for name, allowed in wanted.items():
            form_field(self, name, forms.ModelChoiceField).queryset = qs.filter(
                pk__in=[pk for pk, s in statuses.items() if s in allowed]
            )


class OpeningBalanceForm(PlainTextForm, BooksOnceForm):
    """What one asset account held when the club's books start (SPEC §16.6); built with the account's code as
    its prefix (one form per account on the page). ``confirm``: the second step, after the officer saw it."""

    date = forms.DateField(
        widget=DATE,
        label="Statement date",
        help_text="The date of the bank statement (or of the cash count) the balance is read from.",
    )
    amount = MoneyField(minimum=Decimal("0.00"), label="Balance on that day")
    note = forms.CharField(
        max_length=NOTE_MAX, required=False, help_text="Optional, e.g. the statement's number or who counted."
    )
    confirm = forms.BooleanField(required=False, widget=forms.HiddenInput)

    def __init__(self, *args, season=None, **kwargs):
        super().__init__(*args, **kwargs)
        limit_from(self, season)

    def clean_date(self):
        return not_after_today(self.cleaned_data["date"])
