"""A cache for what pages compute from a season's data (standings, dues accounts, reports).

The data version is a counter in one row (``ncpc.core.models.DataVersion``), bumped by every transaction that
changes the club's data, in that transaction: by ``audit_record`` (every command writes an audit row), and as
a safety net by any save or delete of a model of the project's apps or of a Django-admin change. The bump is
the transaction's last statement before COMMIT (``ncpc/db/base.py``), so readers see the new number only
together with the new data, in commit order; the newest audit row's id would not do, as ids are handed out
when a row is written, not when it is committed. Computed values are cached under the version and the club's
date; any change makes a new version and the old entries are never read again (they expire). One extra query
a request reads the version.

Not seen by the safety net: ``QuerySet.update()``, ``bulk_create`` and ``bulk_update`` send no signals, so code
using them must write an audit row or call ``data_version_bump()`` in the same transaction.

Not used inside a transaction (a command reading what it is about to change always computes afresh), and
off when ``NCPC_COMPUTED_CACHE`` is False (the tests turn it off, except those that test it).
"""

import contextvars
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable
from functools import wraps
from typing import Any, ParamSpec, TypeVar

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.db import DEFAULT_DB_ALIAS, connection, connections, models
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models.signals import post_delete, post_save
from django.http import HttpRequest, HttpResponseBase

from ncpc.core.clock import club_today
from ncpc.core.db.base import DataVersionOnCommit, before_commit
from ncpc.core.models import DataVersion

P = ParamSpec("P")
R = TypeVar("R")

_version: contextvars.ContextVar[str | None] = contextvars.ContextVar("ncpc_data_version", default=None)
_roster: contextvars.ContextVar[str | None] = contextvars.ContextVar("ncpc_roster_version", default=None)
_request_values: contextvars.ContextVar[dict[str, Any] | None] = contextvars.ContextVar(
    "ncpc_request_values", default=None
)


def data_version() -> str:
    """The committed counter, one query; kept for the rest of the request once read."""
    version = _version.get()
    if version is None:
        found = DataVersion.objects.filter(pk=1).values_list("n", "roster").first() or (0, 0)
        version = str(found[0])
        _version.set(version)
        _roster.set(str(found[1]))
    return version


def roster_version() -> str:
    """The counter's value at the last change of a season's roster or schedule (read with the data version)."""
    roster = _roster.get()
    if roster is None:
        data_version()
        roster = _roster.get()
    return roster or "0"


def data_version_bump(*, using: str = DEFAULT_DB_ALIAS, roster: bool = False) -> None:
    """The club's data changed: move the version on as the transaction's last statement before COMMIT (at
    once, outside a transaction: after the write, which is what matters). Once per transaction, however
    often it is called. ``roster``: see ``roster_bump``."""
    db = connections[using]
    if not isinstance(db, DataVersionOnCommit):
        raise ImproperlyConfigured(
            f"Database {using!r} must use an ncpc.core.db engine (see ncpc/settings.py)."
        )
    data_version_forget()
    if db.get_autocommit():
        DataVersion.bump(using=using, roster=roster)
    else:
        db.data_changed = True
        db.roster_changed = db.roster_changed or roster


def roster_bump(*, using: str = DEFAULT_DB_ALIAS) -> None:
    """A season's memberships, their people, its events or their venues changed: the data version moves on as
    for any change, and the roster version with it (``roster_kept``). Every save or delete of those models
    calls it (``roster_watch``); code writing them with ``update()``, ``bulk_create`` or ``bulk_update`` must
    call it itself, in the same transaction."""
    data_version_bump(using=using, roster=True)


def _bump_before_commit(sender: object, connection: BaseDatabaseWrapper, **kwargs: object) -> None:
    DataVersion.bump(using=connection.alias, roster=getattr(connection, "roster_changed", False))
    # Anything read meanwhile in this transaction is the version before it: read it again after COMMIT.
    data_version_forget()


before_commit.connect(_bump_before_commit, dispatch_uid="ncpc.data_version")


# The models whose saves and deletes move the roster version too (``roster_watch``).
_roster_models: set[type[models.Model]] = set()


def _model_changed(sender: type[models.Model], using: str, **kwargs: object) -> None:
    data_version_bump(using=using, roster=sender in _roster_models)


def data_version_watch(model_classes: Iterable[type[models.Model]]) -> None:
    """Bump the version on every save and delete of these models (``ncpc.apps`` passes the project's own)."""
    for model in model_classes:
        uid = f"ncpc.data_version:{model._meta.label}"
        post_save.connect(_model_changed, sender=model, dispatch_uid=uid)
        post_delete.connect(_model_changed, sender=model, dispatch_uid=uid)


def roster_watch(model_classes: Iterable[type[models.Model]]) -> None:
    """Move the roster version too on every save and delete of these models (``events.apps``,
    ``members.apps``): one bump of the one counter row, whichever app connected first."""
    model_classes = list(model_classes)
    _roster_models.update(model_classes)
    data_version_watch(model_classes)


def data_version_forget() -> None:
    """Read the version again next time (a new request began, or this one just changed something)."""
    _version.set(None)
    _roster.set(None)
    _request_values.set(None)


def request_memo(key: str, compute: Callable[[], R]) -> R:
    """``compute()``, once until the data version is next forgotten (the rest of the request, or until this
    request changes something): for a value many parts of a page ask for, like the club's identity."""
    values = _request_values.get()
    if values is None:
        values = {}
        _request_values.set(values)
    if key not in values:
        values[key] = compute()
    value: R = values[key]
    return value


class _Memo:
    """The computed values of recent data versions, in this process, as the objects themselves: a warm page
    takes them without unpickling (Django's local-memory cache pickles every value it keeps, and unpickling
    the standings' rows cost a warm standings page a fifth of its time). Keyed by the data version, so never
    stale; bounded, oldest use first out; an entry also expires after ``NCPC_COMPUTED_CACHE_SECONDS``, the
    limit for a write that skipped the version (see above). Callers treat what they get as read-only: the
    next request gets the same object."""

    SIZE = 1000

    def __init__(self) -> None:
        self._entries: OrderedDict[str, tuple[float, Any]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: str) -> Any:
        with self._lock:
            entry = self._entries.get(key)
            if entry is None:
                return None
            if entry[0] < time.monotonic():
                del self._entries[key]
                return None
            self._entries.move_to_end(key)
            return entry[1]

    def put(self, key: str, value: Any) -> None:
        expires = time.monotonic() + getattr(settings, "NCPC_COMPUTED_CACHE_SECONDS", 600)
        with self._lock:
            self._entries[key] = (expires, value)
            self._entries.move_to_end(key)
            while len(self._entries) > self.SIZE:
                self._entries.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()

    def drop(self, prefix: str) -> None:
        with self._lock:
            for key in [k for k in self._entries if k.startswith(prefix)]:
                del self._entries[key]


_memo = _Memo()


def computed_forget() -> None:
    """Forget every computed value (tests start each from nothing)."""
    _memo.clear()


def computed(key: Callable[..., str]) -> Callable[[Callable[P, R]], Callable[P, R]]:
    """Decorator: cache the function's result under ``key(**kwargs)`` and the data version."""

    def decorator(func: Callable[P, R]) -> Callable[P, R]:
        @wraps(func)
        def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
            if not getattr(settings, "NCPC_COMPUTED_CACHE", False) or connection.in_atomic_block:
                return func(*args, **kwargs)
            # The version is read before computing, never after: a change committed meanwhile then leaves a
            # fresh value under the old version (harmless), never a value from before the change under the
            # new one, which every later request would be served until the entry expired.
            full = f"ncpc:{func.__module__}.{func.__qualname__}:{key(*args, **kwargs)}:{data_version()}:{club_today()}"
            value: Any = _memo.get(full)
            if value is None:
                value = func(*args, **kwargs)
                _memo.put(full, value)
            return value

        return wrapper

    return decorator


def stamped(key: str, compute: Callable[[], R]) -> R:
    """``compute()``, kept in this process under ``key``, which names a stamp that changes whenever the value
    would (a season's rules: ``Season.rules_stamp``), not the data version: a payment or a result leaves it
    where it is. Like ``computed``, not used inside a transaction, and off when ``NCPC_STAMPED_CACHE`` is
    False (the tests, which change rows behind a season object they hold, turn it off)."""
    if not _stamped_on():
        return compute()
    full = f"ncpc:stamped:{key}"
    value: Any = _memo.get(full)
    if value is None:
        value = compute()
        _memo.put(full, value)
    return value


def roster_kept(key: str, compute: Callable[[], R]) -> R:
    """``compute()``, kept in this process under ``key`` and the roster version (``roster_bump``): for a
    season's memberships or events, which a payment leaves as they are (a result moves it: a bust saves its event). Like ``stamped``, not
    used inside a transaction and off when ``NCPC_STAMPED_CACHE`` is False. The version is read before
    computing, as in ``computed``: a change committed meanwhile leaves fresh rows under the old version."""
    if not _stamped_on():
        return compute()
    return stamped(f"roster:{key}:{roster_version()}", compute)


def _stamped_on() -> bool:
    """Values are kept (``stamped``, ``roster_kept``) only outside a transaction, and only when
    ``NCPC_STAMPED_CACHE`` is on (the tests, which change rows behind a season object they hold, turn it off)."""
    return bool(getattr(settings, "NCPC_STAMPED_CACHE", False)) and not connection.in_atomic_block


def stamped_forget(prefix: str) -> None:
    """Forget this process's values kept under keys that start with ``prefix`` (``stamped``): the stamp they
    are kept under is about to change. Other processes read the new stamp with the new rows; this one may
    still hold an object read before its own change (a season read at the start of the request) and must not
    find the old values under its old stamp."""
    _memo.drop(f"ncpc:stamped:{prefix}")


class DataVersionMiddleware:
    """Each request reads the data version once."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        data_version_forget()
        reading = request.method in ("GET", "HEAD")
        if reading and getattr(settings, "NCPC_COMPUTED_CACHE", False):
            # First, before the view reads anything: rows it reads (its season, say) feed values cached under
            # this version, so they must be no older than it.
            data_version()
        try:
            return self.get_response(request)
        finally:
            data_version_forget()
