"""Forms of the officers' terms page and of invitations."""

from django import forms

from members.forms import DateInput
from members.models import OfficerTerm, Person
from ncpc.core.forms import form_field


class OfficerTermForm(forms.Form):
    office = forms.ChoiceField(choices=OfficerTerm.Office.choices)
    person = forms.ModelChoiceField(queryset=Person.objects.none(), empty_label="Choose the person")
    start = forms.DateField(widget=DateInput(), label="First day")
    end = forms.DateField(widget=DateInput(), label="Last day", help_text="Terms run 1 Jun – 31 May.")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        form_field(self, "person", forms.ModelChoiceField).queryset = Person.objects.order_by(
            "last_name", "first_name", "pk"
        )

    def clean(self) -> dict:
        data = super().clean() or {}
        if data.get("start") and data.get("end") and data["end"] < data["start"]:
            raise forms.ValidationError("A term cannot end before it starts.")
        return data


class OfficerTermEndForm(forms.Form):
    last_day = forms.DateField(widget=DateInput())
    reason = forms.CharField(max_length=300)


class InvitationAcceptForm(forms.Form):
    username = forms.CharField(
        max_length=150,
        help_text="Letters, digits and @ . + - _ only; you log in with it.",
        widget=forms.TextInput(attrs={"autocomplete": "username", "autocapitalize": "none"}),
    )
    password1 = forms.CharField(
        label="Password",
        max_length=128,
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
        help_text="At least 8 characters, not only digits, not like your name.",
    )
    password2 = forms.CharField(
        label="Password again",
        max_length=128,
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
    )

    def clean(self) -> dict:
        data = super().clean() or {}
        if data.get("password1") and data.get("password2") and data["password1"] != data["password2"]:
            self.add_error("password2", "The two passwords differ.")
        return data
