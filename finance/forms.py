import datetime as dt

from django import forms

from finance import hooks
from finance.models import Payment
from finance.services.checks import FROM_ACCOUNTS, TO_ACCOUNTS
from finance.services.ledger import STANDARD_ACCOUNTS
from members.models import Membership
from ncpc.clock import club_today

DATE = forms.DateInput(attrs={"type": "date"})
ACCOUNT_NAMES = {code: name for code, name, _kind, _pos in STANDARD_ACCOUNTS}


def money_field(**kwargs):
    return forms.DecimalField(max_digits=12, decimal_places=2, min_value=0.01, **kwargs)


class PaymentForm(forms.Form):
    membership = forms.ModelChoiceField(queryset=None, label="Member")
    date = forms.DateField(widget=DATE, initial=club_today)
    amount = money_field()
    method = forms.ChoiceField(choices=Payment.Method.choices)
    reference = forms.CharField(max_length=80, required=False, help_text="Check number or a note.")

    def __init__(self, *args, season=None, **kwargs):
        super().__init__(*args, **kwargs)

        qs = Membership.objects.select_related("person").none()
        if season is not None:
            qs = Membership.objects.filter(season=season).select_related("person")
        self.fields["membership"].queryset = qs
        self.fields["membership"].label_from_instance = lambda m: (
            str(m.person) + (" (left)" if m.left_after_event is not None else "")
        )


class ReverseForm(forms.Form):
    date = forms.DateField(widget=DATE, initial=club_today)
    reason = forms.CharField(max_length=500, widget=forms.Textarea(attrs={"rows": 2}))


class WaiverForm(forms.Form):
    fee_date = forms.TypedChoiceField(coerce=dt.date.fromisoformat, label="Late fee of")
    reason = forms.CharField(max_length=500)

    def __init__(self, *args, fee_dates=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["fee_date"].choices = [(d.isoformat(), f"{d:%b %-d, %Y}") for d in fee_dates]


class TransferForm(forms.Form):
    date = forms.DateField(widget=DATE, initial=club_today)
    from_account = forms.ChoiceField(choices=list(ACCOUNT_NAMES.items()), label="From")
    to_account = forms.ChoiceField(choices=list(ACCOUNT_NAMES.items()), label="To")
    amount = money_field()
    memo = forms.CharField(max_length=200, help_text="e.g. Cash box deposited at the bank")


class CheckForm(forms.Form):
    date = forms.DateField(widget=DATE, initial=club_today)
    payee = forms.CharField(max_length=120)
    amount = money_field()
    memo = forms.CharField(max_length=200)
    check_number = forms.CharField(max_length=20, required=False)
    from_account = forms.ChoiceField(choices=[(c, ACCOUNT_NAMES[c]) for c in FROM_ACCOUNTS], label="Drawn on")
    to_account = forms.ChoiceField(choices=[(c, ACCOUNT_NAMES[c]) for c in TO_ACCOUNTS], label="For")


class WsopResultForm(forms.Form):
    representative = forms.ModelChoiceField(queryset=None)
    gross = forms.DecimalField(max_digits=12, decimal_places=2, min_value=0)
    tips = forms.DecimalField(max_digits=12, decimal_places=2, min_value=0, initial=0)
    declined = forms.ModelChoiceField(
        queryset=None, required=False, label="Replaced the qualifier who declined (§8.4)"
    )

    def __init__(self, *args, season=None, **kwargs):
        super().__init__(*args, **kwargs)

        # SPEC §15.3: winnings only of a member who goes; the declined qualifier only among those who declined.
        statuses = hooks.wsop_statuses(season=season) if season is not None else {}
        qs = Membership.objects.filter(season=season).select_related("person")
        wanted = {"representative": ("qualified", "replacement"), "declined": ("declined",)}
        for name, allowed in wanted.items():
            self.fields[name].queryset = qs.filter(pk__in=[pk for pk, s in statuses.items() if s in allowed])
            self.fields[name].label_from_instance = lambda m: str(m.person)
