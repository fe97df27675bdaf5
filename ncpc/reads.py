"""Reads built and compiled once: a page's hot queries without the ORM's per-request work.

Building a queryset (``filter``, ``annotate``, joins) and compiling it to SQL costs more Python time than the
database spends answering it: on the demo club, about two fifths of a cold home page went to the ORM building
and compiling the same dozen queries on every request (`bench/pages.py --profile /`). A ``Read`` builds its
queryset once per process and database, with stand-ins for the values that change between calls, keeps the
SQL, and from then on only swaps the values in, runs the SQL and turns the rows into what the queryset would
have given: model instances (``select_related`` included), dicts for ``values()``, tuples or flat values for
``values_list()``. The database's converters (decimals and dates on SQLite) are applied as the ORM applies
them, so the results are the same objects the queryset gives.

    events_of = Read(lambda season_id: Event.objects.filter(season_id=season_id).order_by("number"))
    events = events_of(season_id=season.pk)

A parameter is an ``int``, a ``str`` or a ``datetime.date`` (a date, not a datetime), compared for equality
(an ``int`` beyond 64 bits matches no row): the stand-in must come out of compilation unchanged (or, for a
date, as the backend's form of a date), so a parameter cannot be used inside a transform (``__year``) or
arithmetic. A parameter that the compiled SQL does not carry is a mistake in the builder and raises
``ImproperlyConfigured`` on first use.

On PostgreSQL a Read is a prepared statement (PREPARE once per database session, then EXECUTE with the
values): the server parses it once and, after a few runs, plans it once, where the SQL sent as text is parsed
and planned on every request. For the club's small tables that was about two fifths of what the server spent
on a page's reads.

``plain_union`` builds the other shape these reads take: several tables' rows as one query of plain values.
"""

import datetime as dt
import inspect
import logging
import re
import threading
from collections.abc import Callable, Sequence
from decimal import Decimal
from typing import Any

from django.conf import settings
from django.core.exceptions import EmptyResultSet, FullResultSet, ImproperlyConfigured
from django.db import DatabaseError, connections, transaction
from django.db.models import Model, QuerySet, signals
from django.db.models.base import ModelState
from django.db.models.query import (
    FlatValuesListIterable,
    ModelIterable,
    NamedValuesListIterable,
    ValuesIterable,
    ValuesListIterable,
    get_related_populators,
)

logger = logging.getLogger(__name__)

_INT64_MIN, _INT64_MAX = -(2**63), 2**63 - 1


def _stand_in(kind: type, index: int, round_: int) -> Any:
    """Two rounds of stand-ins, each a value of its type that no query here compares against: an int within
    every integer column's range (Django refuses an out-of-range comparison before it reaches SQL), a date long
    before the club, a str from Unicode's private-use area."""
    if kind is int:
        return 31_000 + 500 * round_ + index
    if kind is dt.date:
        return dt.date(1901 + round_, 1, 1) + dt.timedelta(days=index)
    if kind is str:
        return f"\ue000ncpc-read-{round_}-{index}"
    raise ImproperlyConfigured(f"Read: a parameter is an int, a str or a date, not {kind.__name__}")


class _Pattern:
    """A LIKE pattern that holds a str parameter's stand-in."""

    def __init__(self, template: str, stand_in: str) -> None:
        self.template = template
        self.stand_in = stand_in


class _Compiled:
    """One Read's SQL on one database, and how to turn its rows into results.

    The queryset is built and compiled twice, with two sets of stand-ins: the parameters that differ between
    the two are the slots of the Read's values (a fixed value of the query that happens to equal a stand-in
    is the same in both, so it is never taken for one)."""

    def __init__(
        self, build: Callable[..., QuerySet], types: dict[str, type], alias: str, statement: str
    ) -> None:
        connection = connections[alias]
        rounds = []
        for round_ in (0, 1):
            stand_ins = {
                name: _stand_in(kind, index, round_) for index, (name, kind) in enumerate(types.items())
            }
            try:
                queryset = build(**stand_ins)
                compiler = queryset.query.get_compiler(using=alias)
                sql, params = compiler.as_sql()
            except (ValueError, TypeError, EmptyResultSet, FullResultSet) as exc:
                raise ImproperlyConfigured(f"Read: the query does not take a stand-in value ({exc})") from exc
            rounds.append((stand_ins, queryset, compiler, sql, list(params)))
        (stand_ins, queryset, compiler, self.sql, self.params), (_, _, _, other_sql, other_params) = rounds
        if other_sql != self.sql or len(other_params) != len(self.params):
            raise ImproperlyConfigured("Read: the query's SQL depends on its values")
        self.alias = alias
        self.compiler = compiler
        adapted = {
            name: connection.ops.adapt_datefield_value(value) if types[name] is dt.date else value
            for name, value in stand_ins.items()
        }
        self.slots: list[tuple[int, str, Any]] = []
        for position, (param, other) in enumerate(zip(self.params, other_params, strict=True)):
            if param == other:
                continue
            for name, value in adapted.items():
                if type(param) is type(value) and param == value:
                    self.slots.append((position, name, types[name]))
                    break
                if types[name] is str and isinstance(param, str) and value in param:
                    # A pattern made of the value (``__startswith``, ``__contains``): the value goes in
                    # escaped as the lookup escapes it.
                    self.slots.append((position, name, _Pattern(param, value)))
                    break
            else:
                raise ImproperlyConfigured(f"Read: parameter {position} is a value transformed by the query")
        missing = set(types) - {name for _, name, _ in self.slots}
        if missing:
            raise ImproperlyConfigured(f"Read: the compiled SQL does not carry {', '.join(sorted(missing))}")
        self.date_adapter = connection.ops.adapt_datefield_value
        fields = [s[0] for s in compiler.select[0 : compiler.col_count]]
        self.converters = compiler.get_converters(fields)
        self.iterable = queryset._iterable_class
        query = queryset.query
        if self.iterable is ModelIterable:
            klass_info = compiler.klass_info
            if queryset._known_related_objects or klass_info is None:
                raise ImproperlyConfigured("Read: a queryset of models is read without known related objects")
            self.model = klass_info["model"]
            select_fields = klass_info["select_fields"]
            self.model_slice = slice(select_fields[0], select_fields[-1] + 1)
            self.init_list = [f[0].target.attname for f in compiler.select[self.model_slice]]
            self.populators = get_related_populators(klass_info, compiler.select, alias)
            self.models = [self.model, *_related_models(self.populators)]
            self.annotation_col_map = compiler.annotation_col_map
        else:
            names = [*query.extra_select, *query.values_select, *query.annotation_select]
            fields = list(queryset._fields or names)
            if self.iterable in (ValuesListIterable, FlatValuesListIterable, NamedValuesListIterable) and (
                fields != names
            ):
                raise ImproperlyConfigured("Read: values_list() names its columns in the query's own order")
            self.names = names
            if self.iterable is NamedValuesListIterable:
                self.row_class = NamedValuesListIterable.create_namedtuple_class(*names)
        # The prepared statement's name also says what it reads, for a query log.
        statement = f"{statement}_{re.sub(r'[^a-z0-9_]', '', queryset.model._meta.db_table.lower())}"[:63]
        self.statement = Statement(statement, self.sql, self.params, alias=alias)

    def run(self, values: dict[str, Any]) -> list[Any]:
        params = list(self.params)
        for position, name, kind in self.slots:
            value = values[name]
            if kind is dt.date:
                value = self.date_adapter(value)
            elif isinstance(kind, _Pattern):
                value = kind.template.replace(
                    kind.stand_in, connections[self.alias].ops.prep_for_like_query(value)
                )
            params[position] = value
        rows: Any = self.statement.rows(params)
        if self.converters:
            rows = self.compiler.apply_converters(rows, self.converters)
        iterable = self.iterable
        if iterable is ModelIterable:
            return self._models(rows)
        if iterable is ValuesIterable:
            names = self.names
            return [dict(zip(names, row, strict=True)) for row in rows]
        if iterable is FlatValuesListIterable:
            return [row[0] for row in rows]
        if iterable is NamedValuesListIterable:
            return [self.row_class(*row) for row in rows]
        return [tuple(row) for row in rows]

    def _models(self, rows: Any) -> list[Any]:
        model, alias, init_list, part = self.model, self.alias, self.init_list, self.model_slice
        populators, annotations = self.populators, self.annotation_col_map
        # Asked once per read, not per row (a listener may be connected at any time, tests do).
        plain = {m: _plain(m) for m in self.models}
        objects = []
        for row in rows:
            obj = _from_db(model, alias, init_list, row[part], plain)
            for populator in populators:
                _populate(populator, row, obj, plain)
            for attr, position in annotations.items():
                setattr(obj, attr, row[position])
            objects.append(obj)
        return objects


def _related_models(populators: list[Any]) -> list[type]:
    """The models of ``select_related`` populators, theirs included."""
    return [m for p in populators for m in (p.model_cls, *_related_models(p.related_populators))]


def _plain(model: type) -> bool:
    """Can ``_from_db`` build this model's instances without ``Model.__init__``? Not when the model has its
    own ``__init__`` or ``from_db``, or something listens on ``pre_init``/``post_init`` for it."""
    return (
        model.__init__ is Model.__init__
        and model.from_db.__func__ is Model.from_db.__func__  # type: ignore[attr-defined]
        and not signals.pre_init.has_listeners(model)
        and not signals.post_init.has_listeners(model)
    )


def _from_db(
    model: Any, alias: str, attnames: list[str], values: Sequence[Any], plain: dict[type, bool]
) -> Any:
    """``model.from_db(alias, attnames, values)`` without ``Model.__init__``'s walk over every field: the values
    go straight into the instance's ``__dict__``, which is where ``__init__`` puts them (a field's descriptor,
    a foreign key's included, reads them from there; a column not read stays deferred, as with ``from_db``).
    A tenth of the Python work of a cold page was building model instances. A model that is not ``plain``
    (``_plain``) goes through Django's way."""
    if not plain[model]:
        return model.from_db(alias, attnames, values)
    obj = model.__new__(model)
    state = ModelState()
    state.adding = False
    state.db = alias
    obj.__dict__.update(zip(attnames, values, strict=True), _state=state)
    return obj


def _populate(populator: Any, row: Sequence[Any], from_obj: Any, plain: dict[type, bool]) -> None:
    """Django's ``RelatedPopulator.populate`` (a ``select_related`` row's related object), with ``_from_db``."""
    if populator.reorder_for_init:
        obj_data = populator.reorder_for_init(row)
    else:
        obj_data = row[populator.cols_start : populator.cols_end]
    if obj_data[populator.pk_idx] is None:
        obj = None
    else:
        obj = _from_db(populator.model_cls, populator.db, populator.init_list, obj_data, plain)
        for related in populator.related_populators:
            _populate(related, row, obj, plain)
    populator.local_setter(from_obj, obj)
    if obj is not None:
        populator.remote_setter(obj, from_obj)


# How a parameter's Python type is declared to PostgreSQL in a prepared statement, in the order to test
# (a bool is an int, a datetime is a date; a choice is a str).
_PG_TYPES: tuple[tuple[type, str], ...] = (
    (bool, "boolean"),
    (int, "bigint"),
    (str, "text"),
    (Decimal, "numeric"),
    (dt.datetime, "timestamptz"),
    (dt.date, "date"),
)


class Statement:
    """SQL with ``%s`` parameters, run as a prepared statement on PostgreSQL: PREPAREd once per database session
    (a statement lives as long as the session, through commits and rollbacks alike; a new connection starts
    with none), then EXECUTEd with the values. Elsewhere, or when a parameter's type has no plain declaration
    here, or should the server refuse the PREPARE, the SQL runs as it is.

    ``params`` are values of the types every call passes: their types are declared in the PREPARE (PostgreSQL
    would otherwise infer them from where they are used, and a value in a SELECT list or a UNION column gives
    it nothing to infer from)."""

    def __init__(self, name: str, sql: str, params: Sequence[Any], *, alias: str = "default") -> None:
        self.name = name
        self.sql = sql
        self.alias = alias
        self.forms: tuple[str, str] | None = None
        if connections[alias].vendor != "postgresql" or not settings.NCPC_PREPARED_READS:
            return
        types = []
        for param in params:
            pg_type = next((name for kind, name in _PG_TYPES if isinstance(param, kind)), None)
            if pg_type is None:
                return
            types.append(pg_type)
        numbers = iter(range(1, len(types) + 1))
        # psycopg2's placeholders: %s is a parameter, %% a literal percent sign.
        body = re.sub(r"%([s%])", lambda m: f"${next(numbers)}" if m.group(1) == "s" else "%", sql)
        declared = f" ({', '.join(types)})" if types else ""
        prepare = f"PREPARE {name}{declared} AS {body}".replace("%", "%%")
        execute = f"EXECUTE {name} ({', '.join(['%s'] * len(types))})" if types else f"EXECUTE {name}"
        self.forms = (prepare, execute)

    def rows(self, params: Sequence[Any]) -> list[tuple]:
        connection = connections[self.alias]
        if connection.queries_logged or connection.execute_wrappers:
            # Through Django's cursor, so that a query log (DEBUG, the tests' query counts) or an execute
            # wrapper sees the read.
            with connection.cursor() as cursor:
                sql = self.sql if self.forms is None else self._prepared(connection, cursor)
                cursor.execute(sql, params)
                return cursor.fetchall()
        # The backend's own cursor, with the checks Django's cursor makes (a failed health check, another
        # thread's connection, a transaction already broken; the driver's errors as Django's) and without its
        # wrappers: a cold page makes a dozen reads, and the wrappers were about 2 % of its Python work.
        connection.close_if_health_check_failed()
        connection.ensure_connection()
        connection.validate_thread_sharing()
        connection.validate_no_broken_transaction()
        with connection.wrap_database_errors:
            cursor = connection.create_cursor()
            try:
                sql = self.sql if self.forms is None else self._prepared(connection, cursor)
                cursor.execute(sql, params)
                return cursor.fetchall()
            finally:
                cursor.close()

    def _prepared(self, connection: Any, cursor: Any) -> str:
        """The EXECUTE, after a PREPARE if this database session has not got the statement yet."""
        prepare, execute = self.forms  # type: ignore[misc]
        session = connection.connection
        held = getattr(connection, "_ncpc_prepared", None)
        if held is None or held[0] is not session:
            # Holding the session object itself (not its id) keeps a new session from passing for the old one.
            held = (session, set())
            connection._ncpc_prepared = held
        if self.name not in held[1]:
            try:
                # (Django's errors for the driver's: the cursor may be the backend's own, ``rows``.)
                if connection.in_atomic_block:
                    # In a savepoint: a refused PREPARE must not abort the page's transaction.
                    with transaction.atomic(using=self.alias), connection.wrap_database_errors:
                        cursor.execute(prepare)
                else:
                    with connection.wrap_database_errors:
                        cursor.execute(prepare)
            except DatabaseError:
                logger.warning("PostgreSQL refused to prepare %s; its SQL runs unprepared", self.name)
                self.forms = None
                return self.sql
            held[1].add(self.name)
        return execute


def plain_union(columns: Sequence[str], *parts: tuple[QuerySet, dict[str, Any]]) -> QuerySet:
    """Several tables' rows as one query (UNION ALL) of plain values: ``parts`` are (queryset, expressions by
    column); every part gives every column of ``columns``, in that order (a ``Value`` with its
    ``output_field`` where a table has nothing for one: PostgreSQL matches a UNION's column types pairwise).
    The rows are tuples; callers sort them (a UNION has no order of its own)."""
    selects = [
        rows.order_by().annotate(**{c: expressions[c] for c in columns}).values_list(*columns)
        for rows, expressions in parts
    ]
    return selects[0].union(*selects[1:], all=True)


class Read:
    """A queryset built once by ``build`` (called with keyword stand-ins), run with new values by calling the
    Read with the same keywords. ``types`` gives a parameter's type when it is not ``int``."""

    # Every Read made, so that a test can compile them all on each database (a mistake shows before a page
    # that uses a rare one meets it).
    made: list["Read"] = []

    def __init__(self, build: Callable[..., QuerySet], **types: type) -> None:
        Read.made.append(self)
        # The start of its prepared statement's name on PostgreSQL: its place among the Reads.
        self.statement_name = f"ncpc_read_{len(Read.made)}"
        self.build = build
        self.names = sorted(inspect.signature(build).parameters)
        self.types = types
        self._compiled: dict[tuple[str, str], _Compiled] = {}
        self._lock = threading.Lock()

    def first(self, *, using: str = "default", **values: Any) -> Any:
        """The first row for these values, or None."""
        return next(iter(self(using=using, **values)), None)

    def compile(self, *, using: str = "default") -> None:
        """Build and compile now (normally done on first use)."""
        self._for(using)

    def _for(self, alias: str) -> _Compiled:
        key = (alias, connections[alias].vendor)
        compiled = self._compiled.get(key)
        if compiled is None:
            with self._lock:
                compiled = self._compiled.get(key)
                if compiled is None:
                    types = {name: self.types.get(name, int) for name in self.names}
                    compiled = _Compiled(self.build, types, alias, self.statement_name)
                    self._compiled[key] = compiled
        return compiled

    def __call__(self, *, using: str = "default", **values: Any) -> list[Any]:
        """The rows for these values, as the built queryset would give them."""
        if sorted(values) != self.names or any(value is None for value in values.values()):
            raise TypeError(f"Read: give {', '.join(self.names)}, none of them None")
        if any(type(value) is int and not _INT64_MIN <= value <= _INT64_MAX for value in values.values()):
            # A key or number no column can hold (an address's /events/2026-27/99999999999999999999/): no row
            # has it, and SQLite could not even take it as a parameter.
            return []
        return self._for(using).run(values)
