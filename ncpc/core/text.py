"""Words people type that other members then read: names, a substitute's name, a suggestion, a ruling.

A right-to-left override (U+202E) or another direction control left open in one name turns round everything
the page shows after it ("Ann Lee, Eve Marsh" reads "hsraM evE ,eeL nnA"), and a control character ends a
line of an e-mail or a calendar entry. Forms whose words are shown to others refuse both (``PlainTextForm``).
"""

import unicodedata
from typing import Any

from django import forms

# Embeddings, overrides and isolates (Unicode's bidirectional algorithm): each opens a direction that runs on
# past the text it was typed in. The plain marks (U+200E, U+200F), which open nothing, are allowed.
DIRECTION_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def text_problem(value: str, *, lines: bool = False) -> str:
    """Why ``value`` cannot be shown to other members as typed ("" when it can). ``lines``: line breaks and
    tabs are allowed (a text area)."""
    for char in value:
        if char in DIRECTION_CONTROLS:
            return (
                f"This holds a direction control (code U+{ord(char):04X}) that would turn round the text shown "
                "after it: write it without."
            )
        if unicodedata.category(char) == "Cc" and not (lines and char in "\r\n\t"):
            return f"This holds a control character (code {ord(char):#04x}): write it with letters, digits and punctuation."
    return ""


class PlainTextForm(forms.BaseForm):
    """Every text field of the form refuses what ``text_problem`` names. Put it first among a form's bases."""

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        for name, field in self.fields.items():
            value = data.get(name)
            if isinstance(value, str) and isinstance(field, forms.CharField):
                lines = isinstance(field.widget, forms.Textarea)
                if problem := text_problem(value, lines=lines):
                    self.add_error(name, problem)
        return data
