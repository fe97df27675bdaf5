"""Times the spreadsheet import (issue 18: a 5,000-row payments or members CSV previews and imports within
a few seconds): upload and preview, then confirm, through the officers' page, for payments and for members.

Usage: .venv/bin/python bench/import_sheets.py [rows, default 5000]
Uses a throw-away SQLite database in a temporary folder unless DATABASE_URL is set (then that database is
migrated and written to: give it an empty one, e.g. postgres://postgres@127.0.0.1:5432/ncpc_bench_import).
"""

import os
import re
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_DEBUG", "1")
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ncpc.settings")
WORK = tempfile.mkdtemp(prefix="ncpc-bench-import-")
os.environ.setdefault("DATABASE_URL", f"sqlite:///{WORK}/bench.sqlite3")

import django  # noqa: E402

django.setup()

from django.core.files.uploadedfile import SimpleUploadedFile  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.test import Client  # noqa: E402

from finance.models import Payment  # noqa: E402
from tests.factories import MembershipFactory, member_user, season_make  # noqa: E402
from tests.ncpc.sheets import members_csv, payments_csv  # noqa: E402


def timed(label, fn):
    start = time.perf_counter()
    response = fn()
    took = time.perf_counter() - start
    print(f"{label:<32} {took:6.2f} s  (HTTP {response.status_code})")
    return response, took


def main(rows: int) -> int:
    call_command("migrate", verbosity=0)
    season = season_make(2026)
    officer = member_user(season=season, username="bench-president", office="president")
    keys = [MembershipFactory(season=season).person.key for _ in range(19)]
    client = Client()
    client.force_login(officer)
    worst = 0.0
    sheets = {
        "payments": payments_csv(keys=keys, rows=rows, start=season.start),
        # A season whose rules allow that many members (the bylaws allow 20): only to time the writing.
        "members": members_csv(rows=rows),
    }
    big = season_make(2027)
    big.max_members = rows + 1
    big.save()
    for kind, text in sheets.items():
        target = season if kind == "payments" else big
        print(f"== {kind}: {rows} rows, {len(text.encode()) // 1000} KB")
        upload = SimpleUploadedFile(f"{kind}.csv", text.encode(), "text/csv")
        form = {"kind": kind, "season": target.name, "file": upload}
        preview, took_preview = timed("upload and preview", lambda form=form: client.post("/imports/", form))
        found = re.search(r'name="token" value="([0-9a-f]+)"', preview.content.decode())
        if not found:
            print("the preview offers no confirmation: the file has problems")
            return 1
        confirm_form = {"step": "confirm", "token": found.group(1)}
        _, took_confirm = timed(
            "confirm (write all rows)", lambda f=confirm_form: client.post("/imports/", f)
        )
        written = (
            Payment.objects.filter(membership__season=season) if kind == "payments" else big.memberships
        ).count()
        print(f"{'rows written':<32} {written}")
        if written < rows:
            print("not every row was written")
            return 1
        worst = max(worst, took_preview, took_confirm)
    verdict = "met" if worst < 10 else "NOT met"
    print(f"slowest step {worst:.2f} s: target under 10 s {verdict}")
    return 0 if worst < 10 else 1


if __name__ == "__main__":
    sys.exit(main(int(sys.argv[1]) if len(sys.argv) > 1 else 5000))
