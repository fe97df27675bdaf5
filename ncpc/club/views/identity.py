"""The club identity page (SPEC §16.7): the President sets the club's name, short name, time zone, the rule
book's name and how the rule book numbers the rules the pages mention."""

import unicodedata
import zoneinfo

from django import forms
from django.contrib import messages
from django.core.exceptions import ValidationError
from django.shortcuts import redirect, render

from ncpc.core.forms import form_field
from ncpc.core.identity import (
    FIXED,
    REFERENCES,
    IdentityValues,
    club_identity,
    club_identity_update,
    club_references_reset,
    reference_default,
    reference_text,
)
from ncpc.core.mail import mail_from_address
from ncpc.core.models import ClubIdentity
from ncpc.core.permissions import Action, require


def _field_name(key: str) -> str:
    return "ref_" + key.replace(".", "_")


def control_character_problem(value: str) -> str:
    """Why ``value`` cannot be part of the club's identity ("" when it can), SPEC §17.7: a line break or another
    control character would end a subject line in every e-mail and a line of the calendar feed."""
    for char in value:
        if unicodedata.category(char) in ("Cc", "Zl", "Zp"):
            what = (
                "a line break"
                if char in "\r\n\u2028\u2029"
                else f"a control character (code {ord(char):#04x})"
            )
            return f"This holds {what}: write it on one line, with letters, digits and punctuation."
    return ""


class ClubIdentityForm(forms.Form):
    name = forms.CharField(label="Club's name", max_length=100)
    short_name = forms.CharField(
        label="Short name", max_length=20, help_text=ClubIdentity._meta.get_field("short_name").help_text
    )
    time_zone = forms.ChoiceField(
        label="Time zone", help_text=ClubIdentity._meta.get_field("time_zone").help_text
    )
    rule_book = forms.CharField(
        label="Rule book's name", max_length=60, help_text=ClubIdentity._meta.get_field("rule_book").help_text
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        form_field(self, "time_zone", forms.ChoiceField).choices = [
            (z, z) for z in sorted(zoneinfo.available_timezones())
        ]
        for key, about in REFERENCES.items():
            self.fields[_field_name(key)] = forms.CharField(
                label=about,
                max_length=30,
                required=False,
                help_text=f"Default {reference_default(key)}; empty shows none.",
            )

    def clean_name(self):
        return self._not_blank("name")

    def clean_short_name(self):
        return self._not_blank("short_name")

    def clean_rule_book(self):
        return self._not_blank("rule_book")

    def _not_blank(self, field: str) -> str:
        value = self.cleaned_data[field].strip()
        if not value:
            raise ValidationError("This cannot be only spaces.")
        return value

    def clean(self) -> dict:
        data = super().clean() or {}
        for name in self.fields:
            if isinstance(data.get(name), str) and (problem := control_character_problem(data[name])):
                self.add_error(name, problem)
        return data

    def reference_fields(self):
        return [self[_field_name(key)] for key in REFERENCES]

    def values(self) -> IdentityValues:
        data = self.cleaned_data
        return IdentityValues(
            name=data["name"],
            short_name=data["short_name"],
            time_zone=data["time_zone"],
            rule_book=data["rule_book"],
            references={key: data[_field_name(key)] for key in REFERENCES},
        )


def _initial() -> dict[str, str]:
    identity = club_identity()
    initial = {
        "name": identity.name,
        "short_name": identity.short_name,
        "time_zone": identity.time_zone,
        "rule_book": identity.rule_book,
    }
    initial |= {_field_name(key): reference_text(key) for key in REFERENCES}
    return initial


# The two buttons that set every reference at once: what each does, as its confirmation says it.
REFERENCES_ALL = {
    "blank": "Clear every reference: the pages show no section number beside any rule.",
    "bylaws": "Set every reference back to the bylaws' numbering (§2.12 and so on).",
}


def _page(request, form: ClubIdentityForm, *, confirm: str = ""):
    return render(
        request,
        "club_identity.html",
        {
            "form": form,
            "mail_address": mail_from_address(),
            "fixed": [(reference_default(key), about) for key, about in FIXED.items()],
            "references_all": REFERENCES_ALL,
            "confirm": confirm,
            "confirm_text": REFERENCES_ALL.get(confirm, ""),
        },
    )


def _references_all(request, *, to: str):
    """Both buttons ask first: the page shows what will change, and "Yes" sends it again, confirmed."""
    if request.POST.get("confirmed") != "yes":
        return _page(request, ClubIdentityForm(initial=_initial()), confirm=to)
    if not club_references_reset(blank=to == "blank", actor=request.user):
        messages.info(
            request,
            "Nothing changed: every reference to the rule book was cleared already."
            if to == "blank"
            else "Nothing changed: every reference to the rule book follows the bylaws' numbering already.",
        )
    else:
        messages.success(
            request,
            "Cleared every reference to the rule book."
            if to == "blank"
            else "Every reference to the rule book follows the bylaws' numbering again.",
        )
    return redirect("club_identity")


@require(Action.EDIT_CLUB_IDENTITY)
def club_identity_page(request):
    to = request.POST.get("references_all", "")
    if request.method == "POST" and to in REFERENCES_ALL:
        return _references_all(request, to=to)
    form = ClubIdentityForm(request.POST or None, initial=_initial())
    if request.method == "POST" and form.is_valid():
        try:
            changed = club_identity_update(values=form.values(), actor=request.user)
        except ValidationError as exc:
            for field, errors in exc.message_dict.items():
                form.add_error(field if field in form.fields else None, errors)
        else:
            if changed:
                messages.success(request, "Saved the club's identity: every page shows it from now on.")
            else:
                messages.info(request, "Nothing changed: the club's identity is as it was.")
            return redirect("club_identity")
    return _page(request, form)
