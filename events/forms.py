import calendar

from django import forms
from django.forms import inlineformset_factory

from events import hooks
from events.models import BlindLevel, DuesInstallment, PayoutRow, Season, Venue, WsopRow
from events.rules import BlindLevelData, PayoutRowData, SeasonRules, WsopRowData
from ncpc.core.forms import ClubReferencesForm, MoneyField, form_field
from ncpc.core.identity import club_identity
from ncpc.core.text import PlainTextForm

# The season's rules that are amounts of money: typed like every amount in the app (``ncpc.core.forms.MoneyField``).
MONEY_RULES = (
    "dues_per_event",
    "admin_fee",
    "late_fee",
    "wsop_entry",
    "wsop_expenses",
    "winnings_threshold",
    "money_limit",
)


class _JsonAsText(forms.CharField):
    """A rule kept in a ``JSONField`` but typed as text: the model field's form field, so that it keeps the
    field's label and help text. The JSON encoder and decoder the model field hands it are not needed for text."""

    def __init__(self, *, encoder=None, decoder=None, **kwargs):
        super().__init__(**kwargs)


class IntListField(_JsonAsText):
    """A list of whole numbers typed as '10, 9, 8'."""

    def prepare_value(self, value):
        if isinstance(value, list | tuple):
            return ", ".join(str(v) for v in value)
        return value

    def to_python(self, value):
        value = super().to_python(value)
        try:
            numbers = [int(part) for part in value.replace(" ", "").split(",") if part]
        except ValueError:
            raise forms.ValidationError("Enter whole numbers separated by commas.") from None
        if any(n < 0 for n in numbers):
            raise forms.ValidationError("Numbers cannot be negative.")
        return numbers


class ScheduleField(_JsonAsText):
    """The schedule typed as 'month/nth day' pairs: '8/4, 9/4, 10/4, 11/2, …' (the day of the week is a rule of
    its own)."""

    def prepare_value(self, value):
        if isinstance(value, list | tuple):
            return ", ".join(f"{m}/{n}" for m, n in value)
        return value

    def to_python(self, value):
        value = super().to_python(value)
        pairs = []
        for part in value.replace(" ", "").split(","):
            if not part:
                continue
            try:
                month, nth = (int(x) for x in part.split("/"))
            except ValueError:
                raise forms.ValidationError(f"'{part}' is not month/nth day, like 11/2.") from None
            if not (1 <= month <= 12 and 1 <= nth <= 5):
                raise forms.ValidationError(f"'{part}': month must be 1–12 and the day 1–5.")
            pairs.append([month, nth])
        if not pairs:
            raise forms.ValidationError("The schedule needs at least one event.")
        return pairs


class SeasonRulesForm(ClubReferencesForm, forms.ModelForm):
    """Every scalar rule of the season; labels and help texts are the ``Season`` fields' own."""

    class Meta:
        model = Season
        fields = (*SeasonRules.SCALAR_FIELDS, "results_email")
        field_classes = {
            "points_table": IntListField,
            "schedule": ScheduleField,
            **dict.fromkeys(MONEY_RULES, MoneyField),
        }
        widgets = {"event_start_time": forms.TimeInput(attrs={"type": "time"}, format="%H:%M")}


class TableRowForm(forms.ModelForm):
    """A row of a rules table, rendered as a compact table row (labels in the header)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for field in self.fields.values():
            widget = field.widget
            if isinstance(widget, forms.CheckboxInput):
                widget.attrs.setdefault("class", "form-check-input")
            elif isinstance(widget, forms.Select):
                widget.attrs.setdefault("class", "form-select form-select-sm")
            else:
                widget.attrs.setdefault("class", "form-control form-control-sm")


PayoutFormSet = inlineformset_factory(
    Season,
    PayoutRow,
    form=TableRowForm,
    fields=("member_count", "first", "second", "third", "fourth"),
    field_classes=dict.fromkeys(("first", "second", "third", "fourth"), MoneyField),
    extra=1,
    can_delete=True,
)
WsopFormSet = inlineformset_factory(
    Season,
    WsopRow,
    form=TableRowForm,
    fields=("min_members", "max_members", "prizes"),
    extra=1,
    can_delete=True,
)
DuesFormSet = inlineformset_factory(
    Season,
    DuesInstallment,
    form=TableRowForm,
    fields=("event_number", "amount"),
    field_classes={"amount": MoneyField},
    extra=1,
    can_delete=True,
)
BlindFormSet = inlineformset_factory(
    Season,
    BlindLevel,
    form=TableRowForm,
    fields=("position", "kind", "small_blind", "big_blind", "ante", "minutes", "note"),
    extra=1,
    can_delete=True,
)

# (form prefix, the SeasonRules table it edits, formset class); the title is the table's ``Season.rule_label``.
FORMSETS = (
    ("payouts", "payout_table", PayoutFormSet),
    ("wsop", "wsop_table", WsopFormSet),
    ("dues", "dues_schedule", DuesFormSet),
    ("blinds", "blind_structure", BlindFormSet),
)


def formset_rows(*, table: str, formset) -> tuple:
    """A valid table formset's rows as ``SeasonRules`` holds the table ``table`` (deleted and empty rows left out;
    the blind structure in the order of its positions)."""
    rows = [f.cleaned_data for f in formset.forms if f.cleaned_data and not f.cleaned_data.get("DELETE")]
    if table == "dues_schedule":
        return tuple((r["event_number"], r["amount"]) for r in rows)
    if table == "payout_table":
        places = ("first", "second", "third", "fourth")
        return tuple(
            PayoutRowData(
                member_count=r["member_count"], amounts=tuple(r[p] for p in places if r[p] is not None)
            )
            for r in rows
        )
    if table == "wsop_table":
        return tuple(
            WsopRowData(min_members=r["min_members"], max_members=r["max_members"], prizes=r["prizes"])
            for r in rows
        )
    return tuple(
        BlindLevelData(
            kind=r["kind"],
            small_blind=r["small_blind"],
            big_blind=r["big_blind"],
            ante=r["ante"],
            minutes=r["minutes"],
            note=r["note"],
        )
        for r in sorted(rows, key=lambda r: r["position"])
    )


def formset_data_with_rows(*, data, prefix: str, table: str, rows: tuple) -> dict:
    """A copy of a rules form's POST ``data`` whose ``table`` formset (form prefix ``prefix``) shows ``rows``
    instead: a row is matched by its member count (payouts) or event number (dues) and gets the amounts of
    ``rows``; rows not in ``rows`` keep what was typed. Only the payout table and the dues schedule."""
    out = data.copy()
    places = ("first", "second", "third", "fourth")
    by_key = (
        {row.member_count: row.amounts for row in rows}
        if table == "payout_table"
        else {number: (amount,) for number, amount in rows}
    )
    key_field, amount_fields = (
        ("member_count", places) if table == "payout_table" else ("event_number", ("amount",))
    )
    for i in range(int(data.get(f"{prefix}-TOTAL_FORMS", 0) or 0)):
        try:
            key = int(data.get(f"{prefix}-{i}-{key_field}", ""))
        except ValueError:
            continue
        if key not in by_key or data.get(f"{prefix}-{i}-DELETE"):
            continue
        amounts = by_key[key]
        for j, name in enumerate(amount_fields):
            out[f"{prefix}-{i}-{name}"] = str(amounts[j]) if j < len(amounts) else ""
    return out


# The fiscal year's months in its order (§1.2: Aug – Jul), for the month of a season's first event.
_FISCAL_MONTHS = [(m, calendar.month_name[m]) for m in (*range(8, 13), *range(1, 8))]
_NTH_CHOICES = [
    (n, f"The {word} of every month") for n, word in ((1, "1st"), (2, "2nd"), (3, "3rd"), (4, "4th"))
]


class SeasonCreateForm(forms.Form):
    """The new season: its year, and its schedule rule (the month of its first event and the day it falls on)."""

    start_year = forms.IntegerField(
        min_value=2000,
        max_value=2100,
        help_text="The season (the fiscal year) runs from 1 August of this year to 31 July.",
    )
    first_month = forms.TypedChoiceField(
        coerce=int,
        required=False,
        empty_value=None,
        choices=_FISCAL_MONTHS,
        initial=8,
        label="First event in",
        help_text="A club that starts mid-year plays its first event in a later month.",
    )
    nth = forms.TypedChoiceField(
        coerce=int,
        required=False,
        empty_value=None,
        choices=[("", "As the season before"), *_NTH_CHOICES],
        label="Events on",
    )
    weekday = forms.TypedChoiceField(
        coerce=int,
        required=False,
        empty_value=None,
        choices=[("", "As the season before"), *enumerate(calendar.day_name)],
        label="Day of the week",
    )

    def __init__(self, *args, schedule_words: str = "", **kwargs):
        super().__init__(*args, **kwargs)
        if schedule_words:
            nth = form_field(self, "nth", forms.ChoiceField)
            nth.choices = [("", f"As the season before: {schedule_words}"), *_NTH_CHOICES]


# ---------------------------------------------------------------------------------------------------------
# Venues, events, attendance and results (issue 4)


class VenueForm(PlainTextForm, forms.Form):
    name = forms.CharField(max_length=100)
    address = forms.CharField(max_length=200, required=False)
    active = forms.BooleanField(required=False, initial=True, label="In use")


class EventMoveForm(ClubReferencesForm, forms.Form):
    date = forms.DateField(widget=forms.DateInput(attrs={"type": "date"}), label="New date")
    reason = forms.CharField(max_length=200, required=False, help_text="e.g. host unavailable (§4.4.1)")
    vote = forms.TypedChoiceField(
        coerce=int,
        required=False,
        empty_value=None,
        label="Members' vote for two events in that month",
        help_text="Needed only when the new month already has its event (§4.4.2).",
    )

    def __init__(self, *args, season, **kwargs):
        super().__init__(*args, **kwargs)
        form_field(self, "vote", forms.ChoiceField).choices = [
            ("", "— none —"),
            *hooks.month_votes(season=season),
        ]


class EventAnnounceForm(ClubReferencesForm, forms.Form):
    venue = forms.ModelChoiceField(queryset=Venue.objects.none(), empty_label=None)
    confirm_late = forms.BooleanField(
        required=False, label="Announce late anyway (less notice than the bylaws ask)"
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields[
            "confirm_late"
        ].label = f"Announce late anyway (less notice than {club_identity().rule_book} ask)"
        form_field(self, "venue", forms.ModelChoiceField).queryset = Venue.objects.filter(active=True)


class SubstituteForm(PlainTextForm, ClubReferencesForm, forms.Form):
    name = forms.CharField(max_length=120, required=False, label="Substitute's name")
    not_professional = forms.BooleanField(required=False, label="Not a professional gambler (§5.3.1)")
    prize_to = forms.ChoiceField(
        choices=(("member", "Prize to the member"), ("substitute", "Prize to the substitute")),
        initial="member",
    )


class ReasonForm(forms.Form):
    reason = forms.CharField(max_length=300)
