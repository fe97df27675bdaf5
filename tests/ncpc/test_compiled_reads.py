"""ncpc.reads.Read: a queryset built and compiled once gives, for any values, what the queryset gives."""

import datetime as dt
from decimal import Decimal

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.db import connection, transaction
from django.db.models import Count, F, Value
from django.test.utils import CaptureQueriesContext

from events.models import Event, Season, Venue
from members.models import Membership, Person
from ncpc.reads import Read, _stand_in
from tests.factories import MembershipFactory, PersonFactory, season_make

pytestmark = pytest.mark.django_db


def test_models_with_their_related_rows_are_what_the_queryset_gives(season):
    other = season_make(2027)
    read = Read(lambda season_id: Event.objects.filter(season_id=season_id).select_related("venue", "season"))
    for s in (season, other, season):
        expected = list(Event.objects.filter(season=s).select_related("venue", "season"))
        got = read(season_id=s.pk)
        assert [(e.pk, e.number, e.date, e.status) for e in got] == [
            (e.pk, e.number, e.date, e.status) for e in expected
        ]
        assert {e.season.name for e in got} == {s.name}  # select_related filled in, no query more
    with CaptureQueriesContext(connection) as queries:
        [e.season.name for e in read(season_id=season.pk)]
    assert len(queries) == 1


def test_instances_are_built_as_the_orm_builds_them_and_listeners_still_hear_of_them(season):
    read = Read(lambda season_id: Event.objects.filter(season_id=season_id).select_related("season"))
    expected = {e.pk: e for e in Event.objects.filter(season=season).select_related("season")}
    got = read(season_id=season.pk)
    for event in got:
        orm = expected[event.pk]
        assert {f.attname: getattr(event, f.attname) for f in Event._meta.concrete_fields} == {
            f.attname: getattr(orm, f.attname) for f in Event._meta.concrete_fields
        }
        assert (event._state.adding, event._state.db) == (False, "default")
        assert event == orm and hash(event) == hash(orm)
        assert event.season._state.db == "default" and event.season.events.count() == len(expected)
    # A model something listens on post_init for goes through Django's __init__ (and the listener hears).
    heard = []

    def listener(sender, instance, **kwargs):
        heard.append(instance.pk)

    from django.db.models.signals import post_init

    post_init.connect(listener, sender=Event)
    try:
        fresh = Read(lambda season_id: Event.objects.filter(season_id=season_id).order_by("number"))
        assert sorted(heard) == [] and sorted(e.pk for e in fresh(season_id=season.pk)) == sorted(heard)
    finally:
        post_init.disconnect(listener, sender=Event)
    assert len(heard) == len(expected)


def test_dates_decimals_and_annotations_come_back_typed(season):
    """On SQLite the database gives dates and decimals as text: the ORM's converters are applied."""
    read = Read(
        lambda season_id, on: (
            Event.objects.filter(season_id=season_id, date__gte=on)
            .annotate(label=Value("x"), twice=F("number") * 2)
            .order_by("number")
            .values("number", "date", "label", "twice")
        ),
        on=dt.date,
    )
    rows = read(season_id=season.pk, on=dt.date(2027, 1, 1))
    assert rows == list(
        Event.objects.filter(season=season, date__gte=dt.date(2027, 1, 1))
        .annotate(label=Value("x"), twice=F("number") * 2)
        .order_by("number")
        .values("number", "date", "label", "twice")
    )
    assert rows and all(isinstance(r["date"], dt.date) for r in rows)
    assert all(r["date"] >= dt.date(2027, 1, 1) for r in rows)
    dues = Read(lambda season_id: Season.objects.filter(pk=season_id).values_list("admin_fee", flat=True))
    (fee,) = dues(season_id=season.pk)
    assert isinstance(fee, Decimal) and fee == season.admin_fee


def test_a_value_in_a_startswith_pattern_is_escaped_as_the_lookup_escapes_it(db):
    for name in ("50% off", "50_ off", "Back room", "Back room 2"):
        Venue.objects.create(name=name)
    read = Read(lambda prefix: Venue.objects.filter(name__startswith=prefix).order_by("name"), prefix=str)
    assert [v.name for v in read(prefix="50%")] == ["50% off"]  # % is a character, not "anything"
    assert [v.name for v in read(prefix="50_")] == ["50_ off"]
    assert [v.name for v in read(prefix="Back")] == ["Back room", "Back room 2"]
    assert read(prefix="Nowhere") == []


def test_a_fixed_number_equal_to_a_stand_in_stays_fixed(season):
    """The SQL is compiled twice with different stand-ins: a constant of the query that equals one of them is
    the same both times, so it is never mistaken for the parameter."""
    read = Read(
        lambda season_id: Event.objects.filter(season_id=season_id, number__lt=31_000).values_list(
            "number", flat=True
        )
    )
    assert sorted(read(season_id=season.pk)) == sorted(season.events.values_list("number", flat=True))
    fixed = Read(lambda season_id: Event.objects.filter(season_id=season_id, number=31_000).values_list("pk"))
    assert fixed(season_id=season.pk) == []


def test_aggregates_and_unions(season):
    m1 = MembershipFactory(season=season)
    MembershipFactory(season=season, person=PersonFactory(last_name="Zed"))
    counts = Read(
        lambda season_id: (
            Season.objects.filter(pk=season_id)
            .annotate(seats=Count("memberships"))
            .values_list("name", "seats")
        )
    )
    assert counts(season_id=season.pk) == [(season.name, 2)]
    both = Read(
        lambda person_id, season_id: (
            Person.objects.filter(pk=person_id)
            .order_by()
            .values_list("pk")
            .union(
                Membership.objects.filter(season_id=season_id).order_by().values_list("person_id"), all=True
            )
        )
    )
    assert sorted(both(person_id=m1.person_id, season_id=season.pk)) == sorted(
        [(m1.person_id,)] + list(Membership.objects.filter(season=season).values_list("person_id"))
    )


def test_mistakes_in_a_read_are_told_at_once(season):
    with pytest.raises(TypeError):
        Read(lambda season_id: Event.objects.filter(season_id=season_id))()
    with pytest.raises(TypeError):
        Read(lambda season_id: Event.objects.filter(season_id=season_id))(season_id=None)
    # A value the query transforms (a year into the dates it spans) cannot be swapped in.
    with pytest.raises(ImproperlyConfigured):
        Read(lambda year: Event.objects.filter(date__year=year))(year=2026)
    # A parameter the builder does not use.
    with pytest.raises(ImproperlyConfigured):
        Read(lambda season_id, number: Event.objects.filter(season_id=season_id))(
            season_id=season.pk, number=1
        )
    with pytest.raises(ImproperlyConfigured):
        Read(lambda when: Event.objects.filter(starts_at=when), when=float)(when=1.0)


def test_every_read_of_the_app_compiles_on_this_database(db):
    """The app's Reads are built and compiled here (on SQLite by `make test`, on PostgreSQL by CI), so a Read
    that a rarely opened page uses cannot fail on its first visit."""
    import ncpc.urls  # noqa: F401  # every view, and through them every selector and service

    reads = [
        read
        for read in Read.made
        if read.build.__module__.split(".")[0] in {"ncpc", "events", "members", "finance", "standings"}
    ]
    assert len(reads) >= 20
    for read in reads:
        read.compile()
        # And run once with stand-in values: on PostgreSQL that prepares it, so a statement the server would
        # not prepare shows here too.
        read(**{name: _stand_in(read.types.get(name, int), i, 0) for i, name in enumerate(read.names)})
        if connection.vendor == "postgresql":
            assert read._for("default").statement.forms is not None, read.build
    # The season's rule tables: plain SQL, prepared the same way.
    from events.selectors import _rule_tables, _rule_tables_statement

    assert _rule_tables(season_id=31_000) == {"dues": [], "payout": [], "wsop": [], "blind": []}
    assert (_rule_tables_statement().forms is not None) == (connection.vendor == "postgresql")


def _statements() -> set[str]:
    with connection.cursor() as cursor:
        cursor.execute("SELECT name FROM pg_prepared_statements")
        return {name for (name,) in cursor.fetchall()}


@pytest.mark.skipif(connection.vendor != "postgresql", reason="prepared statements are PostgreSQL's")
@pytest.mark.django_db(transaction=True)  # it closes the connection
def test_on_postgresql_a_read_is_prepared_once_per_database_session(season):
    numbers = list(Event.objects.filter(season=season).order_by("number").values_list("number", flat=True))
    assert len(numbers) == 10
    read = Read(lambda season_id: Event.objects.filter(season_id=season_id).order_by("number"))
    with CaptureQueriesContext(connection) as queries:
        first = read(season_id=season.pk)
        second = read(season_id=season.pk)
    assert [e.number for e in first] == [e.number for e in second] == numbers
    sent = [q["sql"] for q in queries.captured_queries]
    assert len(sent) == 3
    assert sent[0].startswith("PREPARE ncpc_read_") and sent[1].startswith("EXECUTE ncpc_read_")
    assert sent[2] == sent[1]
    name = sent[1].split()[1]
    assert name.endswith("_events_event") and name in _statements()
    # A new connection is a new session, without the statement: it is prepared again there.
    connection.close()
    assert name not in _statements()
    assert [e.number for e in read(season_id=season.pk)] == numbers
    assert name in _statements()


@pytest.mark.skipif(connection.vendor != "postgresql", reason="prepared statements are PostgreSQL's")
def test_a_prepare_the_server_refuses_leaves_the_transaction_usable_and_the_read_runs_plain(season, caplog):
    numbers = list(Event.objects.filter(season=season).order_by("number").values_list("number", flat=True))
    read = Read(lambda season_id: Event.objects.filter(season_id=season_id).order_by("number"))
    compiled = read._for("default")
    _, execute = compiled.statement.forms
    compiled.statement.forms = ("PREPARE broken AS SELECT * FROM no_such_table", execute)
    with transaction.atomic():  # (in the test's own transaction: a savepoint)
        assert [e.number for e in read(season_id=season.pk)] == numbers
        assert Season.objects.filter(pk=season.pk).exists()  # the transaction was not aborted
    assert compiled.statement.forms is None
    assert "refused to prepare" in caplog.text


def test_a_number_beyond_64_bits_matches_nothing(season, client, member):
    read = Read(lambda number: Event.objects.filter(number=number))
    assert read(number=2**70) == []
    client.force_login(member)
    assert client.get(f"/events/{season.name}/{2**70}/").status_code == 404


def test_with_prepared_reads_off_a_read_runs_its_plain_sql(season, settings):
    settings.NCPC_PREPARED_READS = False
    read = Read(lambda season_id: Event.objects.filter(season_id=season_id).order_by("number"))
    with CaptureQueriesContext(connection) as queries:
        got = [e.number for e in read(season_id=season.pk)]
    assert got == list(
        Event.objects.filter(season=season).order_by("number").values_list("number", flat=True)
    )
    assert read._for("default").statement.forms is None
    assert [q["sql"].split()[0] for q in queries.captured_queries] == ["SELECT"]


def test_without_a_query_log_a_read_makes_the_checks_djangos_cursor_makes(season):
    """A read runs on the backend's own cursor when nothing logs queries (as in production): the same rows,
    an error as Django's, a broken transaction refused, and an execute wrapper still sees the read."""
    from django.db import DatabaseError
    from django.db.transaction import TransactionManagementError

    from ncpc.reads import Statement

    assert not connection.queries_logged
    read = Read(lambda season_id: Event.objects.filter(season_id=season_id).order_by("number"))
    numbers = list(Event.objects.filter(season=season).order_by("number").values_list("number", flat=True))
    assert [e.number for e in read(season_id=season.pk)] == numbers

    seen: list[str] = []

    def wrapper(execute, sql, params, many, context):
        seen.append(sql)
        return execute(sql, params, many, context)

    with connection.execute_wrapper(wrapper):
        assert [e.number for e in read(season_id=season.pk)] == numbers
    assert len(seen) == 1 and ("events_event" in seen[0] or seen[0].startswith("EXECUTE ncpc_read_"))

    with pytest.raises(DatabaseError):  # django.db's, not the driver's
        with transaction.atomic():
            Statement("ncpc_test_missing", "SELECT n FROM no_such_table", []).rows([])
    with transaction.atomic():
        with pytest.raises(DatabaseError):
            with transaction.atomic(savepoint=False):  # leaves the outer block marked for rollback
                Season.objects.filter(pk=season.pk).update(name=None)
        with pytest.raises(TransactionManagementError):  # the transaction is broken: no read runs in it
            read(season_id=season.pk)
