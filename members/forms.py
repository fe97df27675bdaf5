from django import forms

from members.models import Membership, Person, Removal
from ncpc.core.forms import form_field
from ncpc.core.text import PlainTextForm


class DateInput(forms.DateInput):
    input_type = "date"


def _member_label(membership: Membership) -> str:
    return membership.person.full_name


class MembershipChoiceField(forms.ModelChoiceField):
    def label_from_instance(self, obj):
        return _member_label(obj)


class PersonForm(PlainTextForm, forms.ModelForm):
    class Meta:
        model = Person
        fields = (
            "first_name",
            "last_name",
            "key",
            "email",
            "phone",
            "address",
            "date_of_birth",
            "is_professional",
        )
        widgets = {"date_of_birth": DateInput()}
        labels = {"key": "Key (short handle, e.g. 'ann')", "is_professional": "Professional gambler"}


class PersonEditForm(PlainTextForm, forms.Form):
    """A person's details as officers correct them (the service checks the key and the date of birth)."""

    first_name = forms.CharField(max_length=60)
    last_name = forms.CharField(max_length=60)
    key = forms.CharField(
        max_length=40,
        label="Key (handle)",
        help_text="Lower-case letters, digits, - or _. Spreadsheets and season files name the person by it.",
    )
    email = forms.EmailField(required=False, label="E-mail")
    phone = forms.CharField(max_length=30, required=False)
    address = forms.CharField(max_length=200, required=False)
    date_of_birth = forms.DateField(required=False, widget=DateInput())

    def __init__(self, *args, email_locked: str = "", **kwargs):
        """``email_locked``: why this editor may not change the e-mail (SPEC §17.6); the field is then shown
        and not taken from the form."""
        super().__init__(*args, **kwargs)
        if email_locked:
            self.fields["email"].disabled = True
            self.fields["email"].help_text = email_locked


class OwnEmailForm(forms.Form):
    """A member changes the e-mail of their own login: their password again, as a session left open on a shared
    computer must not hand the login over."""

    email = forms.EmailField(label="New e-mail")
    password = forms.CharField(
        label="Your password",
        strip=False,
        max_length=128,
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
    )

    def __init__(self, *args, user, **kwargs):
        super().__init__(*args, **kwargs)
        self.user = user

    def clean_password(self) -> str:
        password = self.cleaned_data["password"]
        if not self.user.check_password(password):
            raise forms.ValidationError("That is not your password.")
        return password


class VoteFields(forms.Form):
    held_on = forms.DateField(label="Vote held on", widget=DateInput())
    yes = forms.IntegerField(min_value=0, label="Yes")
    no = forms.IntegerField(min_value=0, initial=0, label="No")
    abstain = forms.IntegerField(min_value=0, initial=0, label="Abstained")


class AdmissionForm(VoteFields):
    person = forms.ModelChoiceField(queryset=Person.objects.none())
    on = forms.DateField(label="Admission date", widget=DateInput())
    sponsor = forms.ModelChoiceField(queryset=Person.objects.none(), required=False)
    # Not required here: the service reports a missing statement together with every other unmet condition.
    declared_not_professional = forms.BooleanField(
        required=False,
        label="The person states they are not a professional gambler (primary vocation poker player)",
    )
    reason = forms.CharField(required=False, label="Notes")

    field_order = ("person", "on", "sponsor", "held_on", "yes", "no", "abstain", "declared_not_professional")

    def __init__(self, *args, season, **kwargs):
        super().__init__(*args, **kwargs)
        form_field(self, "person", forms.ModelChoiceField).queryset = Person.objects.exclude(
            memberships__season=season
        )
        form_field(self, "sponsor", forms.ModelChoiceField).queryset = Person.objects.filter(
            memberships__season=season, memberships__left_after_event__isnull=True
        )


class WaitingListAddForm(PlainTextForm, forms.Form):
    person = forms.ModelChoiceField(queryset=Person.objects.none())
    sponsor = forms.ModelChoiceField(queryset=Person.objects.none(), required=False)
    notes = forms.CharField(required=False, max_length=300)

    def __init__(self, *args, season, **kwargs):
        super().__init__(*args, **kwargs)
        form_field(self, "person", forms.ModelChoiceField).queryset = Person.objects.exclude(
            memberships__season=season, memberships__left_after_event__isnull=True
        ).exclude(waiting_list_entries__status="waiting")
        form_field(self, "sponsor", forms.ModelChoiceField).queryset = Person.objects.filter(
            memberships__season=season, memberships__left_after_event__isnull=True
        )


def _active_memberships(season):
    return Membership.objects.filter(season=season, left_after_event__isnull=True).select_related("person")


class ConfirmField(forms.BooleanField):
    def __init__(self, label):
        super().__init__(required=True, label=label)


class TransferForm(VoteFields):
    """A seat sold or ceded: the buyer is a new member (SPEC §15.2), so the admission's sponsor, vote and
    statement are asked as on the admission page."""

    seller = MembershipChoiceField(queryset=Membership.objects.none(), label="Seat of (seller)")
    buyer = forms.ModelChoiceField(queryset=Person.objects.none(), label="Buyer")
    how = forms.ChoiceField(
        choices=[(Membership.HowLeft.SOLD, "Sold"), (Membership.HowLeft.CEDED, "Ceded")], label="The seat is"
    )
    on = forms.DateField(label="Date", widget=DateInput())
    sponsor = forms.ModelChoiceField(
        queryset=Person.objects.none(), required=False, help_text="A current member; the seller may sponsor."
    )
    # Not required here: the service reports a missing statement together with every other unmet condition.
    declared_not_professional = forms.BooleanField(
        required=False,
        label="The buyer states they are not a professional gambler (primary vocation poker player)",
    )
    reason = forms.CharField(required=False, max_length=300, label="Notes")
    confirm = ConfirmField(
        "I confirm: the seller leaves the club and keeps their points; the buyer takes the seat"
    )

    field_order = (
        "seller",
        "buyer",
        "how",
        "on",
        "sponsor",
        "held_on",
        "yes",
        "no",
        "abstain",
        "declared_not_professional",
        "reason",
        "confirm",
    )

    def __init__(self, *args, season, **kwargs):
        super().__init__(*args, **kwargs)
        form_field(self, "seller", forms.ModelChoiceField).queryset = _active_memberships(season)
        form_field(self, "buyer", forms.ModelChoiceField).queryset = Person.objects.exclude(
            memberships__season=season
        )
        form_field(self, "sponsor", forms.ModelChoiceField).queryset = Person.objects.filter(
            memberships__season=season, memberships__left_after_event__isnull=True
        )


class WithdrawForm(forms.Form):
    membership = MembershipChoiceField(queryset=Membership.objects.none(), label="Member")
    on = forms.DateField(label="Date", widget=DateInput())
    reason = forms.CharField(required=False, label="Notes")
    confirm = ConfirmField("I confirm: the member gives up the seat (not sold or ceded)")

    def __init__(self, *args, season, **kwargs):
        super().__init__(*args, **kwargs)
        form_field(self, "membership", forms.ModelChoiceField).queryset = _active_memberships(season)


class RemovalForm(VoteFields):
    membership = MembershipChoiceField(queryset=Membership.objects.none(), label="Member")
    grounds = forms.ChoiceField(choices=Removal.Grounds.choices)
    nominated_by = forms.ModelChoiceField(
        queryset=Person.objects.none(), required=False, label="Nominated by (abuse)"
    )
    notes = forms.CharField(required=False, widget=forms.Textarea(attrs={"rows": 2}))
    confirm = ConfirmField("I confirm: the member is removed and forfeits all money paid")

    field_order = ("membership", "grounds", "nominated_by", "held_on", "yes", "no", "abstain", "notes")

    def __init__(self, *args, season, **kwargs):
        super().__init__(*args, **kwargs)
        form_field(self, "membership", forms.ModelChoiceField).queryset = _active_memberships(season)
        form_field(self, "nominated_by", forms.ModelChoiceField).queryset = Person.objects.filter(
            memberships__season=season, memberships__left_after_event__isnull=True
        )


class SuspensionEndForm(forms.Form):
    last_day = forms.DateField(widget=DateInput(), help_text="The new last day (still included).")
    reason = forms.CharField(max_length=300)


class SuspensionForm(forms.Form):
    membership = MembershipChoiceField(queryset=Membership.objects.none(), label="Member")
    start = forms.DateField(widget=DateInput())
    end = forms.DateField(widget=DateInput(), help_text="Last day of the suspension (included).")
    reason = forms.CharField(max_length=300)

    def __init__(self, *args, season, **kwargs):
        super().__init__(*args, **kwargs)
        form_field(self, "membership", forms.ModelChoiceField).queryset = _active_memberships(season)


class SignatureForm(forms.Form):
    membership = forms.ModelChoiceField(queryset=Membership.objects.none(), widget=forms.HiddenInput)
    signed_on = forms.DateField(widget=DateInput())

    def __init__(self, *args, season, **kwargs):
        super().__init__(*args, **kwargs)
        form_field(self, "membership", forms.ModelChoiceField).queryset = Membership.objects.filter(
            season=season
        )


class SignaturesForm(forms.Form):
    """Many members' signatures at once (the ticked rows of the checklist), one date."""

    membership = forms.ModelMultipleChoiceField(
        queryset=Membership.objects.none(),
        error_messages={"required": "Tick the members who signed.", "invalid_choice": "Reload the page."},
    )
    signed_on = forms.DateField(widget=DateInput())

    def __init__(self, *args, season, **kwargs):
        super().__init__(*args, **kwargs)
        form_field(self, "membership", forms.ModelMultipleChoiceField).queryset = Membership.objects.filter(
            season=season
        )


class TurnedProForm(forms.Form):
    on = forms.DateField(label="Turned professional on", widget=DateInput())
    reason = forms.CharField(required=False, label="Notes")
