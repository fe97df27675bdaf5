"""The queries of each page and endpoint bench/night.py requests, counted in one process (Django's test client)
on bench/run's database, as the login that requests it there (a page's second request: the first loads its
templates). Prints one line per page, then the most of the main pages and the most of the night's endpoints,
each ``met`` or ``NOT met`` for "at most 15 queries"; that the counts stay the same for more members and more
seasons of history is what tests/test_query_counts.py pins (bench/run runs it too).

Usage (bench/run calls it): DATABASE_URL=… .venv/bin/python bench/queries.py SEASON NIGHT FINAL YYYY/M
"""

import logging
import os
import sys

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ncpc.settings")
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import django  # noqa: E402

django.setup()

from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402

from events.models import Event  # noqa: E402
from events.services.console import night_version  # noqa: E402

PASSWORD = "ncpc-demo-2026"  # noqa: S105  (the demo's logins: members/demo.py)
TARGET = 15


def main() -> None:
    logging.getLogger("axes").setLevel(logging.ERROR)
    logging.getLogger("django.request").setLevel(logging.CRITICAL)  # the Treasurer's refused conflicts list
    season, night, final, month = sys.argv[1:5]
    event = Event.objects.get(season__name=season, number=int(night))
    base = f"/events/{season}/{night}/"
    json_accept = {"HTTP_ACCEPT": "application/json"}
    # (login, path, headers): the main pages, then the night's endpoints (what phones poll)
    requests = [
        ("ann", "/", {}),
        ("ann", f"/standings/{season}/", {}),
        ("ann", f"/events/{season}/", {}),
        ("ann", base, {}),
        ("ann", f"/events/{season}/{final}/", {}),
        ("ann", "/finance/me/", {}),
        ("ann", f"/finance/reports/{month}/", {}),
        ("tom", f"/finance/reports/{month}/", {}),
        ("ann", f"/api/v1/seasons/{season}/report", {}),
        ("ann", f"{base}clock/state/", json_accept),
        ("vera", f"{base}console/state/", json_accept),
        ("vera", f"{base}console/state/?since={night_version(event=event)}", json_accept),
        ("vera", f"{base}night/conflicts/", json_accept),
        ("tom", f"/finance/door/{season}/{night}/?fragment=1", {}),
    ]
    night_paths = ("clock/state/", "console/state/", "night/conflicts/", "/finance/door/")
    clients: dict[str, Client] = {}
    most = {"main pages": (0, ""), "night endpoints": (0, "")}
    print(f"{'login':6} {'page or endpoint':58} {'status':>6} queries")
    for username, path, headers in requests:
        if username not in clients:
            clients[username] = Client()
            clients[username].post("/accounts/login/", {"username": username, "password": PASSWORD})
        client = clients[username]
        client.get(path, **headers)  # the first request of a page in a process loads its templates
        with CaptureQueriesContext(connection) as queries:
            response = client.get(path, **headers)
        if response.status_code not in (200, 204):
            raise SystemExit(f"bench: {path} answered {response.status_code} to {username}")
        kind = "night endpoints" if any(part in path for part in night_paths) else "main pages"
        if len(queries) > most[kind][0]:
            most[kind] = (len(queries), path)
        print(f"{username:6} {path:58} {response.status_code:6d} {len(queries):7d}")
    for kind, (count, path) in most.items():
        print(f"most of the {kind}: {count} ({path}): {'met' if count <= TARGET else 'NOT met'}")


if __name__ == "__main__":
    main()
