"""Forms for the governance pages."""

from django import forms

from events.models import Event
from members.models import OfficerTerm, Person, Vote
from members.services.disputes import OFFICE_ORDER
from members.services.rule_changes import rule_choices
from ncpc.core.forms import BooksOnceForm, form_field
from ncpc.core.text import PlainTextForm


class DateInput(forms.DateInput):
    input_type = "date"


# Words a member or an officer writes that every member may read: long enough for any real one, short enough
# that a page listing them stays a page.
SUGGESTION_MAX = 2000
RULING_MAX = 4000


def _season_people(season):
    return Person.objects.filter(
        memberships__season=season, memberships__left_after_event__isnull=True
    ).order_by("last_name", "first_name", "pk")


class NominationForm(forms.Form):
    office = forms.ChoiceField(choices=OfficerTerm.Office.choices)
    person = forms.ModelChoiceField(queryset=Person.objects.none(), label="Nominee")
    nominated_by = forms.ModelChoiceField(queryset=Person.objects.none(), required=False)
    on = forms.DateField(label="Nominated on (the March event)", widget=DateInput())

    def __init__(self, *args, season, **kwargs):
        super().__init__(*args, **kwargs)
        form_field(self, "person", forms.ModelChoiceField).queryset = _season_people(season)
        form_field(self, "nominated_by", forms.ModelChoiceField).queryset = _season_people(season)


class TieForm(PlainTextForm, forms.Form):
    winner = forms.ModelChoiceField(queryset=Person.objects.none(), label="Winner, as the club decided")
    note = forms.CharField(label="Note: how the club decided (e.g. a second vote)", max_length=300)

    def __init__(self, *args, question, **kwargs):
        super().__init__(*args, **kwargs)
        form_field(self, "winner", forms.ModelChoiceField).queryset = Person.objects.filter(
            nominations__question=question
        )


class SuggestionForm(PlainTextForm, forms.Form):
    suggestion = forms.CharField(
        max_length=SUGGESTION_MAX,
        widget=forms.Textarea(attrs={"rows": 3}),
        label="Your suggestion",
        help_text="Which rule, what it should say, and why.",
    )


class AcceptForm(PlainTextForm, forms.Form):
    title = forms.CharField(max_length=200, label="Wording on the ballot")
    rule_field = forms.ChoiceField(required=False, label="Rule number it changes")
    new_value = forms.CharField(
        required=False,
        label="New value",
        help_text=(
            "Amounts like 60.00; a time 19:30; lists 10, 9, 8; a schedule 8-4, 9-4 (month-nth day of the season's weekday); "
            "a payout row '16: 145, 95, 70, 50'; a WSOP row '15-17: 2'. Leave both empty for a change in words."
        ),
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        form_field(self, "rule_field", forms.ChoiceField).choices = [
            ("", "— none (a change in words) —"),
            *rule_choices(),
        ]

    def clean(self):
        super().clean()
        data = self.cleaned_data
        if data.get("new_value") and not data.get("rule_field"):
            self.add_error("rule_field", "Say which rule number the new value is for.")
        return data


class DeclineForm(PlainTextForm, forms.Form):
    reason = forms.CharField(max_length=300)


class ClubVoteForm(BooksOnceForm):
    kind = forms.ChoiceField(
        choices=[
            (Vote.Kind.TWO_EVENTS.value, Vote.Kind.TWO_EVENTS.label),
            (Vote.Kind.OTHER.value, "Other question"),
        ]
    )
    subject = forms.CharField(
        max_length=200, help_text="E.g. “Hold the April event on 17 April, with 3 April”."
    )
    held_on = forms.DateField(widget=DateInput())
    yes = forms.IntegerField(min_value=0)
    no = forms.IntegerField(min_value=0, initial=0)
    abstain = forms.IntegerField(min_value=0, initial=0, label="Abstained")


OFFICE_CHOICES = [(o, dict(OfficerTerm.Office.choices)[o]) for o in OFFICE_ORDER]


class WhoRulesForm(forms.Form):
    present = forms.MultipleChoiceField(
        choices=OFFICE_CHOICES, required=False, widget=forms.CheckboxSelectMultiple, label="Officers present"
    )
    involved = forms.MultipleChoiceField(
        choices=OFFICE_CHOICES,
        required=False,
        widget=forms.CheckboxSelectMultiple,
        label="Officers involved in the dispute",
    )


class RulingForm(PlainTextForm, WhoRulesForm):
    event = forms.ModelChoiceField(queryset=Event.objects.none())
    hand = forms.CharField(max_length=120, help_text="Level, table and what was happening.")
    parties = forms.CharField(max_length=200, label="Players in the dispute")
    dispute = forms.CharField(max_length=RULING_MAX, widget=forms.Textarea(attrs={"rows": 2}))
    ruling = forms.CharField(max_length=RULING_MAX, widget=forms.Textarea(attrs={"rows": 2}))
    independent_player = forms.CharField(
        max_length=120, required=False, help_text="Only when no officer present was free to rule."
    )
    field_order = (
        "event",
        "hand",
        "parties",
        "dispute",
        "present",
        "involved",
        "ruling",
        "independent_player",
    )

    def __init__(self, *args, season, **kwargs):
        super().__init__(*args, **kwargs)
        form_field(self, "event", forms.ModelChoiceField).queryset = Event.objects.filter(
            season=season
        ).order_by("number")
