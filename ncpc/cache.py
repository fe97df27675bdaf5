"""A cache for what pages compute from a season's data (standings, dues accounts, reports).

Every change to members, results, money or rules writes an audit row in its own transaction (house style),
so the newest audit row's id (with the newest Django-admin change) is a version of all the club's data,
shared by every process. Computed values
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
from django.contrib.admin.models import LogEntry
from django.core.cache import cache
from django.db import connection

from ncpc.clock import club_today
from ncpc.models import AuditEntry

_version: contextvars.ContextVar[str | None] = contextvars.ContextVar("ncpc_data_version", default=None)


def data_version() -> str:
    """The newest audit row and the newest Django-admin change (admin edits bypass the services), one query."""
    version = _version.get()
    if version is None:
        audit, admin_log = AuditEntry._meta.db_table, LogEntry._meta.db_table
        with connection.cursor() as cursor:
            # Table names come from the models, not from input.
            sql = f"SELECT (SELECT MAX(id) FROM {audit}), (SELECT MAX(id) FROM {admin_log})"  # noqa: S608  # nosec B608
            cursor.execute(sql)
            row = cursor.fetchone()
        version = f"{row[0] or 0}.{row[1] or 0}"
        _version.set(version)
    return version


def data_version_forget() -> None:
    """Read the version again next time (a new request began, or this one just changed something)."""
    _version.set(None)
    reads_forget()


# Reads shared by the parts of one page: the home page's panels, the navigation and the reports each need the
# season's events, memberships and rules, and read them once. Only while a GET (or HEAD) request runs; any
# change (``audit_record`` calls ``data_version_forget``) drops them, and outside a request every call reads.
_reads: contextvars.ContextVar[dict | None] = contextvars.ContextVar("ncpc_reads", default=None)


def read_once(key: str, read: Callable[[], Any]) -> Any:
    """``read()``, or what it returned the first time this request asked for ``key``. Callers must not change
    what they get (copy a list before sorting it)."""
    reads = _reads.get()
    if reads is None:
        return read()
    if key not in reads:
        reads[key] = read()
    return reads[key]


def season_rows_once(name: str, season, read: Callable[[], list]) -> list:
    """``read_once`` for a list of one season's rows (its events, its memberships): each row gets the caller's
    season instance, so that nothing reads the season again, and each caller gets a list of its own."""
    rows = read_once(f"{name}:{season.pk}", read)
    for row in rows:
        row.season = season
    return list(rows)


def reads_forget() -> None:
    reads = _reads.get()
    if reads:
        reads.clear()


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
    """Each request reads the data version once, when it first needs it; a GET shares its reads (``read_once``)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        data_version_forget()
        token = _reads.set({} if request.method in ("GET", "HEAD") else None)
        try:
            return self.get_response(request)
        finally:
            _reads.reset(token)
            data_version_forget()
