import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def run_django(env_overrides: dict[str, str], *args: str) -> subprocess.CompletedProcess:
    dropped = {"SECRET_KEY", "DJANGO_DEBUG", "ALLOWED_HOSTS", "DJANGO_ALLOW_ASYNC_UNSAFE"}
    env = {k: v for k, v in os.environ.items() if k not in dropped}
    env.update(env_overrides)
    return subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )


def test_production_refuses_to_start_without_secret_key():
    result = run_django({"DJANGO_DEBUG": "0"}, "check")
    assert result.returncode != 0
    assert "SECRET_KEY is not set" in result.stderr


def test_malformed_debug_flag_names_the_variable():
    result = run_django({"DJANGO_DEBUG": "maybe"}, "check")
    assert result.returncode != 0
    assert "DJANGO_DEBUG must be one of" in result.stderr


def test_deploy_check_is_clean_with_production_settings():
    result = run_django(
        {
            "DJANGO_DEBUG": "0",
            "SECRET_KEY": "x" * 30 + "-Long-And-Random-Enough-0123456789",
            "ALLOWED_HOSTS": "ncpc.example",
        },
        "check",
        "--deploy",
        "--fail-level",
        "WARNING",
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout
