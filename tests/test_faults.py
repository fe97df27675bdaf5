"""Faults: the database connection dies between two requests, and the next request still succeeds.

With a persistent connection (CONN_MAX_AGE) and CONN_HEALTH_CHECKS on (both set from DATABASE_URL), Django
checks a reused connection at its first query of a request and opens a new one when it is dead. Django's
test client does not send the request_started signal handler that closes old connections, so the tests call
``close_old_connections()`` themselves, exactly where a real request would.
"""

import pytest
from django.db import close_old_connections, connection

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


@pytest.mark.skipif(connection.vendor != "postgresql", reason="needs a database server to kill the backend")
def test_the_next_request_succeeds_after_the_database_kills_the_connection(member_client, monkeypatch):
    # A persistent connection (as in production), checked before reuse.
    monkeypatch.setitem(connection.settings_dict, "CONN_HEALTH_CHECKS", True)
    monkeypatch.setitem(connection.settings_dict, "CONN_MAX_AGE", None)
    assert member_client.get("/").status_code == 200
    connection.close_at = None
    _terminate_backend()
    close_old_connections()  # what request_started does before the next request
    assert member_client.get("/standings/2026-27/").status_code == 200
    assert member_client.get("/healthz").content == b"ok"


def test_the_next_request_succeeds_after_the_connection_is_closed_between_requests(member_client):
    assert member_client.get("/").status_code == 200
    connection.close()
    close_old_connections()
    assert member_client.get("/").status_code == 200
    assert member_client.get("/healthz").content == b"ok"
