"""Safe defaults (issue 18): debug off unless set, and gunicorn's Server header names no version."""

import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _env(**changes):
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("DJANGO_DEBUG", "SECRET_KEY", "DJANGO_SETTINGS_MODULE")
    }
    env.update(changes)
    return env


def _settings(env):
    return subprocess.run(
        [
            sys.executable,
            "-c",
            "import django, os; os.environ['DJANGO_SETTINGS_MODULE'] = 'ncpc.settings'; "
            "from django.conf import settings; print(settings.DEBUG)",
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_debug_is_off_unless_set_and_then_a_secret_key_is_required():
    unset = _settings(_env())
    assert unset.returncode != 0
    assert "SECRET_KEY is not set" in unset.stderr
    production = _settings(_env(SECRET_KEY="x" * 50, ALLOWED_HOSTS="ncpc.example"))
    assert production.stdout.strip() == "False"
    local = _settings(_env(DJANGO_DEBUG="1"))
    assert local.stdout.strip() == "True"


def test_make_run_listens_on_this_machine_only_unless_told():
    makefile = (ROOT / "Makefile").read_text()
    assert "HOST ?= 127.0.0.1" in makefile
    assert "runserver $(HOST):$(PORT)" in makefile
    assert "0.0.0.0:$(PORT)" not in makefile


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_gunicorns_server_header_names_no_version(tmp_path):
    port = _free_port()
    gunicorn = Path(sys.executable).parent / "gunicorn"
    if not gunicorn.exists():
        pytest.skip("gunicorn is not installed beside this Python")
    env = _env(DJANGO_DEBUG="1", DATABASE_URL=f"sqlite:///{tmp_path}/db.sqlite3")
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "-v0"], cwd=ROOT, env=env, check=True, timeout=300
    )
    server = subprocess.Popen(
        [str(gunicorn), "ncpc.wsgi", "--workers", "1", "--bind", f"127.0.0.1:{port}"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=5) as response:  # noqa: S310
                    header = response.headers["Server"]
                    body = response.read()
                break
            except OSError:
                if time.monotonic() > deadline or server.poll() is not None:
                    raise
                time.sleep(0.2)
    finally:
        server.terminate()
        server.wait(timeout=30)
    assert body == b"ok"
    assert header == "gunicorn"
    assert not any(ch.isdigit() for ch in header)
