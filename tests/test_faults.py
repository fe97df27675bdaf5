"""Faults: the database connection dies between two requests, and the next request still succeeds.

With a persistent connection (CONN_MAX_AGE) and CONN_HEALTH_CHECKS on (both set from DATABASE_URL), Django
checks a reused connection at its first query of a request and opens a new one when it is dead. Django's
test client does not send the request_started signal handler that closes old connections, so the tests call
``close_old_connections()`` themselves, exactly where a real request would. A control test shows that the
same fault breaks the next request when health checks are off: the health check is what recovers.
"""

import pytest
from django.db import InterfaceError, OperationalError, close_old_connections, connection

pytestmark = pytest.mark.django_db(transaction=True)


def _terminate_backend() -> None:
    """Kill this process's PostgreSQL connection from a second connection, as a database restart would."""
    import psycopg2

    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        (pid,) = cursor.fetchone()
    other = psycopg2.connect(**connection.get_connection_params())
    other.autocommit = True
    try:
        with other.cursor() as cursor:
            cursor.execute("SELECT pg_terminate_backend(%s)", [pid])
    finally:
        other.close()


needs_server = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="needs a database server to kill the backend"
)


@pytest.fixture
def persistent_connection(monkeypatch):
    """A persistent connection as in production (CONN_MAX_AGE); ``set(health_checks)`` reconnects with
    CONN_HEALTH_CHECKS on or off (Django reads it when it connects)."""

    def reconnect(*, health_checks: bool) -> None:
        monkeypatch.setitem(connection.settings_dict, "CONN_HEALTH_CHECKS", health_checks)
        monkeypatch.setitem(connection.settings_dict, "CONN_MAX_AGE", None)
        connection.close()
        connection.ensure_connection()
        assert connection.health_check_enabled is health_checks

    yield reconnect
    connection.close()  # the next test connects afresh, with the usual settings


@needs_server
def test_the_next_request_succeeds_after_the_database_kills_the_connection(
    member_client, persistent_connection
):
    persistent_connection(health_checks=True)
    assert member_client.get("/").status_code == 200
    _terminate_backend()
    close_old_connections()  # what request_started does before the next request
    assert member_client.get("/standings/2026-27/").status_code == 200
    assert member_client.get("/healthz").content == b"ok"


@needs_server
def test_without_health_checks_the_same_fault_breaks_the_next_request(member_client, persistent_connection):
    """The control: what recovers above is the health check, not luck (production sets it from DATABASE_URL)."""
    persistent_connection(health_checks=False)
    assert member_client.get("/").status_code == 200
    _terminate_backend()
    close_old_connections()
    try:
        with pytest.raises((OperationalError, InterfaceError)):
            member_client.get("/standings/2026-27/")
    finally:
        connection.close()  # a fresh connection for the test's own clean-up


def test_the_next_request_succeeds_after_the_connection_is_closed_between_requests(member_client):
    assert member_client.get("/").status_code == 200
    connection.close()
    close_old_connections()
    assert member_client.get("/").status_code == 200
    assert member_client.get("/healthz").content == b"ok"
