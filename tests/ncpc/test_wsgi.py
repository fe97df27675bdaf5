"""The WSGI module gunicorn loads: the application, and what it loads at start kept out of the garbage
collector's generations (gc.freeze), so a full collection in a worker stays short."""

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

PROBE = """
import gc, json, sys
import ncpc.wsgi
print(json.dumps({
    "frozen": gc.get_freeze_count(),
    "views_loaded": all(m in sys.modules for m in ("finance.views", "events.views", "standings.views")),
    "callable": callable(ncpc.wsgi.application),
}))
"""


def test_a_worker_freezes_what_it_loaded_at_start_with_the_url_map_and_its_views(tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    env.update(DJANGO_DEBUG="1", DATABASE_URL=f"sqlite:///{tmp_path}/db.sqlite3")
    out = subprocess.run(
        [sys.executable, "-c", PROBE],
        cwd=ROOT,
        env=env,
        check=True,
        timeout=120,
        capture_output=True,
        text=True,
    )
    seen = json.loads(out.stdout.strip().splitlines()[-1])
    assert seen["callable"]
    assert seen["views_loaded"]
    # Django and the apps alone are tens of thousands of objects; an unfrozen process reports 0.
    assert seen["frozen"] > 50_000
