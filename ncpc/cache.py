"""A cache for what pages compute from a season's data (standings, dues accounts, reports).

Every change to members, results, money or rules writes an audit row in its own transaction (house style),
so the newest audit row's id is a version of all the club's data, shared by every process. Computed values
are cached under that version and the club's date; any change makes a new version and the old entries are
never read again (they expire). One extra query a request reads the version.

Not used inside a transaction (a command reading what it is about to change always computes afresh), and
off when ``NCPC_COMPUTED_CACHE`` is False (the tests turn it off, except those that test it).
"""

import contextvars
from collections.abc import Callable
from functools import wraps
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db import connection

from ncpc.clock import club_today

_version: contextvars.ContextVar[int | None] = contextvars.ContextVar("ncpc_data_version", default=None)


def data_version() -> int:
    version = _version.get()
    if version is None:
        from ncpc.models import AuditEntry

        last = AuditEntry.objects.order_by("-pk").values_list("pk", flat=True).first()
        version = last or 0
        _version.set(version)
    return version


def data_version_forget() -> None:
    """Read the version again next time (a new request began, or this one just changed something)."""
    _version.set(None)


def computed(key: Callable[..., str]):
    """Decorator: cache the function's result under ``key(**kwargs)`` and the data version."""

    def decorator(func):
        @wraps(func)
        def wrapper(*args, **kwargs):
            if not getattr(settings, "NCPC_COMPUTED_CACHE", False) or connection.in_atomic_block:
                return func(*args, **kwargs)
            full = f"ncpc:{func.__module__}.{func.__qualname__}:{key(*args, **kwargs)}:{data_version()}:{club_today()}"
            value: Any = cache.get(full)
            if value is None:
                value = func(*args, **kwargs)
                cache.set(full, value, getattr(settings, "NCPC_COMPUTED_CACHE_SECONDS", 600))
            return value

        return wrapper

    return decorator


class DataVersionMiddleware:
    """Each request reads the data version once, when it first needs it."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        data_version_forget()
        try:
            return self.get_response(request)
        finally:
            data_version_forget()
