import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


def _login(client, password, address="10.0.0.1"):
    return client.post(reverse("login"), {"username": "member1", "password": password}, REMOTE_ADDR=address)


def test_five_wrong_passwords_lock_that_username_from_that_address(client, member):
    for _ in range(4):
        assert _login(client, "wrong").status_code == 200
    assert _login(client, "wrong").status_code == 429  # the fifth failure locks
    locked = _login(client, "pw-for-tests-123")
    assert locked.status_code == 429
    assert "Too many failed log-ins" in locked.content.decode()


def test_a_lockout_does_not_lock_the_member_out_from_another_address(client, member):
    for _ in range(5):
        _login(client, "wrong", address="10.0.0.66")
    response = _login(client, "pw-for-tests-123", address="10.0.0.1")
    assert response.status_code == 302
    assert response["Location"] == reverse("home")


def test_pages_carry_a_content_security_policy_that_allows_only_the_site_itself(member_client):
    policy = member_client.get("/")["Content-Security-Policy"]
    assert "default-src 'self'" in policy
    assert "script-src 'self'" in policy
    assert "unsafe-inline" not in policy
    assert "frame-ancestors 'none'" in policy


def test_forms_carry_a_csrf_token(client):
    assert "csrfmiddlewaretoken" in client.get(reverse("login")).content.decode()


def test_password_validators_refuse_a_short_common_password(member_client):
    response = member_client.post(
        reverse("password_change"),
        {"old_password": "pw-for-tests-123", "new_password1": "poker", "new_password2": "poker"},
    )
    assert response.status_code == 200
    assert "too short" in response.content.decode()


def test_no_template_has_inline_scripts_handlers_or_styles_that_the_policy_would_block():
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    pattern = re.compile(r"""\son[a-z]+\s*=|\sstyle\s*=|<script(?![^>]*\bsrc=)[^>]*>|<style""", re.IGNORECASE)
    offenders = []
    for path in [*root.glob("templates/**/*.html"), *root.glob("*/templates/**/*.html")]:
        if ".venv" in path.parts:
            continue
        for number, line in enumerate(path.read_text().splitlines(), start=1):
            if pattern.search(line):
                offenders.append(f"{path.relative_to(root)}:{number}: {line.strip()[:80]}")
    assert offenders == [], "Move these to static files (CSP forbids inline code):\n" + "\n".join(offenders)
