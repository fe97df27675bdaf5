"""Django's ``date`` and ``time`` template filters, faster for the formats the club's pages use.

Loaded as a template builtin after Django's own (settings ``TEMPLATES`` ``builtins``), so ``{{ day|date:"M j, Y" }}``
everywhere comes here. Django's filters look the format up among the localized ones and build every month and
day name through the translation machinery: about 120 Python calls per date shown, and the monthly report shows
a dozen. The site is in English (``LANGUAGE_CODE``), so for a format made only of the letters below (and
punctuation) the text is put together here, the same as Django gives (``tests/ncpc/test_fast_dates.py``
compares them); any other format, a value that is not a date, a backslash escape or another language goes to
Django's filter.
"""

import datetime as dt
import re

from django import template
from django.template import defaultfilters
from django.utils.translation import get_language

register = template.Library()

_MONTHS = (
    "January", "February", "March", "April", "May", "June",
    "July", "August", "September", "October", "November", "December",
)  # fmt: skip
_DAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")

_DATE_PARTS = {
    "Y": lambda d: f"{d.year:04d}",
    "m": lambda d: f"{d.month:02d}",
    "n": lambda d: str(d.month),
    "d": lambda d: f"{d.day:02d}",
    "j": lambda d: str(d.day),
    "M": lambda d: _MONTHS[d.month - 1][:3],
    "F": lambda d: _MONTHS[d.month - 1],
    "D": lambda d: _DAYS[d.weekday()][:3],
    "l": lambda d: _DAYS[d.weekday()],
}
_TIME_PARTS = {
    "H": lambda t: f"{t.hour:02d}",
    "i": lambda t: f"{t.minute:02d}",
    "s": lambda t: f"{t.second:02d}",
    "g": lambda t: str(t.hour % 12 or 12),
    "A": lambda t: "PM" if t.hour >= 12 else "AM",
    "a": lambda t: "p.m." if t.hour >= 12 else "a.m.",
}
_LETTER = re.compile(r"[A-Za-z]")
# A format's pieces (a function of the value, or the text itself), or None when a letter is not handled here;
# per format and kind of value.
_COMPILED: dict[tuple[str, int], list | None] = {}


def _compile(fmt: str, parts: dict) -> list | None:
    if "\\" in fmt:
        return None
    pieces = []
    for char in fmt:
        if _LETTER.match(char):
            if char not in parts:
                return None
            pieces.append(parts[char])
        else:
            pieces.append(char)
    return pieces


def _fast(value, fmt, parts) -> str | None:
    """The formatted text, or None when this format or value is not one handled here."""
    if not isinstance(fmt, str) or not get_language().startswith("en"):
        return None
    key = (fmt, id(parts))
    if key not in _COMPILED:
        _COMPILED[key] = _compile(fmt, parts)
    pieces = _COMPILED[key]
    if pieces is None:
        return None
    return "".join([piece if isinstance(piece, str) else piece(value) for piece in pieces])


@register.filter(expects_localtime=True, is_safe=False)
def date(value, arg=None):
    """Django's ``date`` filter (the same text)."""
    if isinstance(value, dt.datetime):
        text = _fast(value, arg, _DATETIME_PARTS)
    elif isinstance(value, dt.date):
        text = _fast(value, arg, _DATE_PARTS)
    else:
        text = None
    return defaultfilters.date(value, arg) if text is None else text


@register.filter(expects_localtime=True, is_safe=False)
def time(value, arg=None):
    """Django's ``time`` filter (the same text)."""
    text = _fast(value, arg, _TIME_PARTS) if isinstance(value, dt.datetime | dt.time) else None
    return defaultfilters.time(value, arg) if text is None else text


_DATETIME_PARTS = {**_DATE_PARTS, **_TIME_PARTS}
