"""Page addresses of seasons and events (``/events/2026-27/3/``) without a ``reverse()`` for each.

Django's ``reverse()`` costs about 100 Python calls; an event page links to up to ten addresses of its event,
the season menus to one per season. The address of a view for a season name and event number differs from
the address for other ones only in those values, so each view's address is reversed once per process with
sample values, and the real values put in their place. Anything else (another kind of argument, a name that
is not a season's, a sample that would not stand out) goes through ``reverse()``.
"""

import functools
import re

from django.urls import get_script_prefix, reverse

from events.converters import SeasonConverter

_SEASON_NAME = re.compile(SeasonConverter.regex)
_SAMPLES = {str: "0000-00", int: 987_654_321}


@functools.lru_cache(maxsize=512)
def _pattern(prefix: str, name: str, kinds: tuple[type, ...]) -> str | None:
    """The view's address for the samples, or None when a sample does not appear in it exactly once. ``prefix``
    (the script prefix) is only part of the key: reverse() reads it itself."""
    samples = [_SAMPLES[kind] for kind in kinds]
    address = reverse(name, args=samples)
    if any(address.count(str(sample)) != 1 for sample in samples):
        return None
    return address


def address(name: str, *args: object) -> str:
    """``reverse(name, args=args)``, for arguments that are season names and whole numbers."""
    kinds = tuple(type(arg) for arg in args)
    if len(set(kinds)) == len(kinds) and all(
        (kind is str and _SEASON_NAME.fullmatch(arg)) or (kind is int and arg >= 0)  # type: ignore[arg-type, operator]
        for kind, arg in zip(kinds, args, strict=True)
    ):
        pattern = _pattern(get_script_prefix(), name, kinds)
        if pattern is not None:
            for kind, arg in zip(kinds, args, strict=True):
                pattern = pattern.replace(str(_SAMPLES[kind]), str(arg))
            return pattern
    return reverse(name, args=args)
