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
_SEASON_SAMPLE = "0000-00"
_NUMBER_SAMPLE = 987_654_321  # the first number's; the next ones count up from it


def _samples(kinds: tuple[type, ...]) -> list[object]:
    numbers = iter(range(_NUMBER_SAMPLE, _NUMBER_SAMPLE + len(kinds)))
    return [_SEASON_SAMPLE if kind is str else next(numbers) for kind in kinds]


@functools.lru_cache(maxsize=512)
def _pattern(prefix: str, name: str, kinds: tuple[type, ...]) -> tuple[str, re.Pattern] | None:
    """The view's address for the samples and a pattern that finds them in it, or None when a sample does not
    appear in it exactly once. ``prefix`` (the script prefix) is only part of the key: reverse() reads it."""
    samples = [str(sample) for sample in _samples(kinds)]
    address = reverse(name, args=samples)
    if any(address.count(sample) != 1 for sample in samples):
        return None
    return address, re.compile("|".join(re.escape(sample) for sample in samples))


def address(name: str, *args: object) -> str:
    """``reverse(name, args=args)``, for arguments that are a season name and whole numbers."""
    kinds = tuple(type(arg) for arg in args)
    if kinds.count(str) <= 1 and all(
        (kind is str and _SEASON_NAME.fullmatch(arg)) or (kind is int and arg >= 0)  # type: ignore[arg-type, operator]
        for kind, arg in zip(kinds, args, strict=True)
    ):
        found = _pattern(get_script_prefix(), name, kinds)
        if found is not None:
            pattern, samples = found
            if not args:
                return pattern
            values = {str(sample): str(arg) for sample, arg in zip(_samples(kinds), args, strict=True)}
            # One pass: a value put in is never taken for another sample.
            return samples.sub(lambda match: values[match.group()], pattern)
    return reverse(name, args=args)
