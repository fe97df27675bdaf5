from django import forms

from ncpc.core.forms import form_field
from standings.models import TieBreak


class TieBreakForm(forms.Form):
    """Order one tied group: a choice of member for each position, best first."""

    how = forms.ChoiceField(choices=TieBreak.How.choices, label="How the tie was broken")
    note = forms.CharField(max_length=300, required=False, label="Note (e.g. the playoff's date)")

    def __init__(self, *args, group, **kwargs):
        super().__init__(*args, **kwargs)
        self.group = {row.membership.pk: row.membership for row in group}
        choices = [("", "—")] + [(str(pk), str(m.person)) for pk, m in self.group.items()]
        self.position_names = []
        for i in range(1, len(self.group) + 1):
            name = f"position_{i}"
            self.fields[name] = forms.TypedChoiceField(
                choices=choices, coerce=int, label=f"Place {i}" if i > 1 else "Place 1 (best)"
            )
            self.position_names.append(name)
        self.order_fields([*self.position_names, "how", "note"])

    def clean(self):
        super().clean()
        data = self.cleaned_data
        chosen = [data.get(name) for name in self.position_names]
        if None not in chosen and len(set(chosen)) != len(chosen):
            raise forms.ValidationError("Choose each member once.")
        return data

    def ordered_memberships(self):
        return [self.group[self.cleaned_data[name]] for name in self.position_names]


class DeclineForm(forms.Form):
    membership = forms.TypedChoiceField(coerce=int, label="Representative who cannot attend")
    note = forms.CharField(max_length=300, required=False, label="Note")
    confirm = forms.BooleanField(
        label="I confirm this member cannot attend; the seat passes to the next eligible finisher."
    )

    def __init__(self, *args, representatives, **kwargs):
        super().__init__(*args, **kwargs)
        self.representatives = {row.membership.pk: row.membership for row in representatives}
        form_field(self, "membership", forms.ChoiceField).choices = [
            (pk, str(m.person)) for pk, m in self.representatives.items()
        ]


class WithdrawDeclineForm(forms.Form):
    reason = forms.CharField(max_length=300, label="Why the decline is withdrawn")
