"""A GET never writes (STYLE, issue 14): every page of the project, opened by every role, runs no INSERT,
UPDATE or DELETE. Preparing a night's seats, creating the ledger's accounts, refreshing a status: a POST
command or a migration, never a side effect of looking."""

from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.test_permission_matrix import PAGES, ROLES, _clients, club_data, project_url_names  # noqa: F401

WRITES = ("INSERT", "UPDATE", "DELETE")


def writes_of(queries) -> list[str]:
    return [q["sql"] for q in queries if q["sql"].lstrip().upper().startswith(WRITES)]


def test_writes_of_sees_inserts_updates_and_deletes_only():
    queries = [
        {"sql": s} for s in ("SELECT 1", ' INSERT INTO "a"', 'update "b"', 'DELETE FROM "c"', "SAVEPOINT x")
    ]
    assert writes_of(queries) == [' INSERT INTO "a"', 'update "b"', 'DELETE FROM "c"']


# The night pages of the demo's next event (Dec 12), whose seats are not listed yet.
NOT_OPENED = ("events:event", "events:attendance", "events:results", "events:night", "events:clock")


def test_no_page_writes_when_opened(club_data):  # noqa: F811
    from events.models import Attendance

    assert not Attendance.objects.filter(event__number=5, event__season__name=club_data["season"]).exists()
    clients = _clients()
    wrote: list[str] = []
    urls = [
        (name, reverse(name, kwargs=PAGES[name].kwargs(club_data)))
        for name in sorted(project_url_names() & set(PAGES))
    ]
    urls += [
        (name, reverse(name, kwargs={"season": club_data["season"], "number": 5})) for name in NOT_OPENED
    ]
    for name, url in urls:
        for role in ROLES:
            with CaptureQueriesContext(connection) as captured:
                clients[role].get(url)
            wrote += [f"GET {name} as {role}: {sql[:120]}" for sql in writes_of(captured.captured_queries)]
    assert not wrote, "\n".join(wrote)
