"""Login throttling and password reset limits behind the documented proxy (issue 18)."""

import datetime as dt

import pytest
import time_machine
from django.core import mail
from django.test import RequestFactory
from django.urls import reverse

from ncpc.core.client import client_address
from ncpc.core.models import MailDelivery

pytestmark = pytest.mark.django_db

PROXY = "10.0.0.2"  # nginx: every request reaches the app from this address


def _login(client, password, *, forwarded):
    return client.post(
        reverse("login"),
        {"username": "member1", "password": password},
        REMOTE_ADDR=PROXY,
        HTTP_X_FORWARDED_FOR=forwarded,
    )


def _reset(client, email, *, forwarded="198.51.100.7"):
    return client.post(
        reverse("password_reset"), {"email": email}, REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR=forwarded
    )


@pytest.mark.parametrize(
    ("proxies", "forwarded", "remote", "client"),
    [
        (0, "203.0.113.9", "10.0.0.2", "10.0.0.2"),  # no proxy trusted: the header is the client's own words
        (1, "203.0.113.9", "10.0.0.2", "203.0.113.9"),
        (1, "1.2.3.4, 203.0.113.9", "10.0.0.2", "203.0.113.9"),  # a forged entry before nginx's is ignored
        (2, "203.0.113.9, 10.0.0.7", "10.0.0.2", "203.0.113.9"),  # two proxies, each appending
        (2, "203.0.113.9", "10.0.0.2", "203.0.113.9"),  # fewer entries than proxies: the leftmost known
        (1, "", "10.0.0.2", "10.0.0.2"),
        (1, "not-an-address", "10.0.0.2", "10.0.0.2"),
    ],
)
def test_the_client_address_comes_from_the_trusted_proxies_entries(
    settings, proxies, forwarded, remote, client
):
    settings.NCPC_TRUSTED_PROXIES = proxies
    request = RequestFactory().get("/", REMOTE_ADDR=remote, HTTP_X_FORWARDED_FOR=forwarded)
    assert client_address(request) == client


def test_a_lockout_behind_the_proxy_does_not_lock_the_user_out_from_another_address(settings, client, member):
    settings.NCPC_TRUSTED_PROXIES = 1
    for _ in range(4):
        assert _login(client, "wrong", forwarded="203.0.113.9").status_code == 200
    assert _login(client, "wrong", forwarded="203.0.113.9").status_code == 429  # the attacker is locked
    assert _login(client, "pw-for-tests-123", forwarded="203.0.113.9").status_code == 429
    # Forging another address before nginx's entry does not get the attacker out.
    assert _login(client, "wrong", forwarded="192.0.2.1, 203.0.113.9").status_code == 429
    # The member, from home, through the same proxy:
    response = _login(client, "pw-for-tests-123", forwarded="198.51.100.7")
    assert response.status_code == 302
    assert response["Location"] == reverse("home")


def test_password_resets_are_limited_per_address(
    settings, client, member, django_capture_on_commit_callbacks
):
    settings.NCPC_TRUSTED_PROXIES = 1
    with django_capture_on_commit_callbacks(execute=True):
        for n in range(3):
            assert _reset(client, "member1@example.org", forwarded=f"198.51.100.{n + 1}").status_code == 302
        refused = _reset(client, "member1@example.org", forwarded="198.51.100.9")
    assert refused.status_code == 429
    assert "Too many password reset requests for this address" in refused.content.decode()
    assert len(mail.outbox) == 3
    assert MailDelivery.objects.filter(kind="password_reset").count() == 3
    # Another address is not held back, and an hour later this one may ask again.
    assert _reset(client, "someone@example.org", forwarded="198.51.100.9").status_code == 302
    with time_machine.travel(dt.datetime.now(dt.UTC) + dt.timedelta(minutes=61)):
        assert _reset(client, "member1@example.org", forwarded="198.51.100.9").status_code == 302


def test_password_resets_are_limited_per_client(settings, client, member):
    settings.NCPC_TRUSTED_PROXIES = 1
    settings.NCPC_RESET_PER_CLIENT = 4
    for n in range(4):
        assert _reset(client, f"guess{n}@example.org", forwarded="203.0.113.9").status_code == 302
    refused = _reset(client, "member1@example.org", forwarded="203.0.113.9")
    assert refused.status_code == 429
    assert "from this device" in refused.content.decode()
    assert not MailDelivery.objects.exists()
    # The member, from another address behind the same proxy, still gets the link.
    assert _reset(client, "member1@example.org", forwarded="198.51.100.7").status_code == 302
    assert MailDelivery.objects.get().to == "member1@example.org"


def test_an_unknown_address_is_counted_and_answered_like_a_known_one(client, member):
    response = _reset(client, "nobody@example.org")
    assert response.status_code == 302
    assert response["Location"] == reverse("password_reset_done")
    assert not MailDelivery.objects.exists()
