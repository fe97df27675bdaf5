"""Django's ``date`` and ``time`` template filters, faster for the formats the club's pages use.

Loaded as a template builtin after Django's own (settings ``TEMPLATES`` ``builtins``), so ``{{ day|date:"M j, Y" }}``
everywhere comes here. Django's filters look the format up among the localized ones and build every month and
day name through the translation machinery: about 120 Python calls per date shown, and the monthly report shows
a dozen. The site is in English (``LANGUAGE_CODE``), so for a format made only of the letters below (and
punctuation) the text is put together by ``ncpc.dates``, the same as Django gives (``tests/ncpc/test_fast_dates.py``
compares them); any other format, a value that is not a date, a backslash escape or another language goes to
Django's filter.
"""

import datetime as dt

from django import template
from django.template import defaultfilters

from ncpc.dates import DATE_PARTS, DATETIME_PARTS, TIME_PARTS, fast_format

register = template.Library()


@register.filter(expects_localtime=True, is_safe=False)
def date(value, arg=None):
    """Django's ``date`` filter (the same text)."""
    if isinstance(value, dt.datetime):
        text = fast_format(value, arg, DATETIME_PARTS)
    elif isinstance(value, dt.date):
        text = fast_format(value, arg, DATE_PARTS)
    else:
        text = None
    return defaultfilters.date(value, arg) if text is None else text


@register.filter(expects_localtime=True, is_safe=False)
def time(value, arg=None):
    """Django's ``time`` filter (the same text)."""
    text = fast_format(value, arg, TIME_PARTS) if isinstance(value, dt.datetime | dt.time) else None
    return defaultfilters.time(value, arg) if text is None else text
