"""In-process timing of the main pages (no web server, no load generator): each page's mean time per
request, split into database (cursor.execute), SQL compilation (the ORM's as_sql), template rendering and the
rest, and its queries. A quick look at where a page spends its time while working on speed; `bench/run` gives
the figures README shows. `/reports/` (the layout and the login alone) comes first, as what every page pays.

Usage, on a database prepared as bench/run prepares it (e.g. DATABASE_URL=postgres://…/ncpc_bench, after
`manage.py collectstatic`):
  .venv/bin/python bench/pages.py [rounds, default 30]
  .venv/bin/python bench/pages.py [rounds] --profile /standings/2026-27/   (cProfile)
  .venv/bin/python bench/pages.py [rounds] --cpu

--cpu: each page's CPU time per request instead, split between this process (Python, the driver) and the
database server's process for this connection (read from /proc: PostgreSQL on this machine). On a machine that
runs the server beside the workers (bench/run's), throughput is bounded by that sum rather than by the time a
request takes.
"""

import cProfile
import logging
import os
import pstats
import sys
import time
from typing import Any

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ncpc.settings")
os.environ.setdefault("DJANGO_DEBUG", "0")
os.environ.setdefault("SECRET_KEY", "bench-only-not-secret")
os.environ.setdefault("ALLOWED_HOSTS", "testserver")
os.environ.setdefault("SECURE_SSL_REDIRECT", "0")
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import django  # noqa: E402

django.setup()

from django.db import connection  # noqa: E402
from django.db.models.sql import compiler  # noqa: E402
from django.template.backends.django import Template  # noqa: E402
from django.test import Client  # noqa: E402

from events.models import Event  # noqa: E402
from events.selectors import current_season  # noqa: E402
from ncpc.core.clock import club_today  # noqa: E402

spent = {"compile": 0.0, "db": 0.0, "render": 0.0, "queries": 0.0}
depth = {"compile": 0, "render": 0}


def timed(kind: str, method: Any) -> Any:
    """``method`` that adds its own time to ``spent[kind]`` (the outermost call only: both nest)."""

    def wrapper(*args: Any, **kwargs: Any) -> Any:
        depth[kind] += 1
        start = time.perf_counter()
        try:
            return method(*args, **kwargs)
        finally:
            depth[kind] -= 1
            if depth[kind] == 0:
                spent[kind] += time.perf_counter() - start

    return wrapper


def db_timer(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
    start = time.perf_counter()
    try:
        return execute(sql, params, many, context)
    finally:
        spent["db"] += time.perf_counter() - start
        spent["queries"] += 1


def measured_pages() -> list[str]:
    """/reports/ (the layout and the login alone), /about/ and the main pages (bench/instructions's too)."""
    season = current_season()
    if season is None:
        raise SystemExit("bench: no season (prepare the database as bench/run does)")
    final = season.events.filter(status=Event.Status.FINAL).order_by("-number").first()
    today = club_today()
    return [
        "/reports/",
        "/about/",
        "/",
        f"/standings/{season.name}/",
        f"/events/{season.name}/",
        f"/events/{season.name}/{final.number if final else 1}/",
        f"/finance/reports/{today.year}/{today.month}/",
        f"/api/v1/seasons/{season.name}/report",
    ]


def main() -> None:
    logging.getLogger("axes").setLevel(logging.ERROR)
    args = sys.argv[1:]
    profile = None
    if "--profile" in args:
        i = args.index("--profile")
        profile = args[i + 1]
        del args[i : i + 2]
    cpu = "--cpu" in args
    if cpu:
        args.remove("--cpu")
    rounds = int(args[0]) if args else 30
    pages = measured_pages()
    client = Client()
    client.post("/accounts/login/", {"username": "ann", "password": "ncpc-demo-2026"})
    if profile:
        for _ in range(5):
            client.get(profile)
        prof = cProfile.Profile()
        prof.enable()
        for _ in range(rounds):
            client.get(profile)
        prof.disable()
        stats = pstats.Stats(prof).sort_stats(os.environ.get("SORT", "cumulative"))
        stats.print_stats(int(os.environ.get("TOP", "45")))
        return
    if cpu:
        cpu_split(client, pages, rounds)
        return
    compiler.SQLCompiler.as_sql = timed("compile", compiler.SQLCompiler.as_sql)  # type: ignore[method-assign]
    Template.render = timed("render", Template.render)  # type: ignore[method-assign]
    print(f"{'page':40} {'ms':>6} {'db':>6} {'sql':>6} {'tmpl':>6} {'rest':>6} queries")
    for page in pages:
        for _ in range(3):
            response = client.get(page)
            if response.status_code != 200:
                raise SystemExit(f"{page} answered {response.status_code}")
    # Round-robin, one request of each page per round, so that the machine's drift (other work, a slower
    # moment) falls on every page alike.
    totals = {page: dict.fromkeys([*spent, "total"], 0.0) for page in pages}
    with connection.execute_wrapper(db_timer):
        for _ in range(rounds):
            for page in pages:
                for kind in spent:
                    spent[kind] = 0.0
                start = time.perf_counter()
                client.get(page)
                totals[page]["total"] += time.perf_counter() - start
                for kind, value in spent.items():
                    totals[page][kind] += value
    for page in pages:
        part = {kind: value / rounds * 1000 for kind, value in totals[page].items()}
        rest = part["total"] - part["db"] - part["compile"] - part["render"]
        print(
            f"{page:40} {part['total']:6.2f} {part['db']:6.2f} {part['compile']:6.2f} {part['render']:6.2f} "
            f"{rest:6.2f} {round(part['queries'] / 1000):7}"
        )


def cpu_split(client: Client, pages: list[str], rounds: int) -> None:
    """Per page: CPU ms per request of this process and of the database server's process for this connection
    (``--cpu``). Each page runs ``rounds`` requests at a time, three times over, the pages taking turns."""
    for page in pages:
        for _ in range(3):
            client.get(page)
    if connection.vendor != "postgresql":
        raise SystemExit("--cpu reads the database server's process: PostgreSQL on this machine")
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        backend = cursor.fetchone()[0]
    ticks = os.sysconf("SC_CLK_TCK")

    def server_cpu() -> float:
        # /proc/PID/stat: utime and stime are fields 14 and 15, counted after the command's closing parenthesis.
        with open(f"/proc/{backend}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / ticks

    spent_cpu = {page: [0.0, 0.0] for page in pages}
    for _ in range(3):
        for page in pages:
            own, server = time.process_time(), server_cpu()
            for _ in range(rounds):
                client.get(page)
            spent_cpu[page][0] += time.process_time() - own
            spent_cpu[page][1] += server_cpu() - server
    count = 3 * rounds
    print(f"{'page':40} {'python':>7} {'server':>7} {'sum':>7}   (CPU ms per request)")
    for page in pages:
        own, server = spent_cpu[page]
        print(
            f"{page:40} {own / count * 1000:7.2f} {server / count * 1000:7.2f} "
            f"{(own + server) / count * 1000:7.2f}"
        )


if __name__ == "__main__":
    main()
