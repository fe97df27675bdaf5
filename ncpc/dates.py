"""English dates and times as the pages show them, from Django's date-format letters (``"M j, Y"``, ``"g:i A"``),
without Django's translation machinery: the text Django's ``date``/``time`` filters give for the letters below
(``tests/ncpc/test_fast_dates.py`` compares them). The template filters (``ncpc.templatetags.fast_dates``) and
the HTML built in Python (``events.html``, ``finance.html``) use it, so a date is written one way everywhere.
"""

import datetime as dt
import re

from django.utils import dateformat
from django.utils.translation import get_language

_MONTHS = (
    "January", "February", "March", "April", "May", "June",
    "July", "August", "September", "October", "November", "December",
)  # fmt: skip
_DAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")

DATE_PARTS = {
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
TIME_PARTS = {
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


def fast_format(value, fmt, parts) -> str | None:
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


DATETIME_PARTS = {**DATE_PARTS, **TIME_PARTS}


def date_text(value: dt.date | dt.time, fmt: str) -> str:
    """``value`` (a date, a datetime already in the club's time zone, or a time) in the format ``fmt``."""
    parts = (
        DATETIME_PARTS
        if isinstance(value, dt.datetime)
        else DATE_PARTS
        if isinstance(value, dt.date)
        else TIME_PARTS
    )
    text = fast_format(value, fmt, parts)
    if text is not None:
        return text
    return dateformat.time_format(value, fmt) if isinstance(value, dt.time) else dateformat.format(value, fmt)
