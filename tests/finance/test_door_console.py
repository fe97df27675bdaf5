"""The door list inside the night console (issue 34): a tap answers in JSON with what was done and the list as
it is now, so the console records door payments with no page change; the one-time key books a tap once.
Today is Nov 29, 2026; event 5 is on Dec 12: ann owes $100 to play, cal $510 (``club`` of test_payment_entry)."""

from decimal import Decimal

import pytest
from django.urls import reverse

from finance.models import Payment
from tests.factories import once
from tests.finance import test_payment_entry

pytestmark = pytest.mark.django_db
club = test_payment_entry.club  # the fixture: ann owes $100 to play on Dec 12, cal $510


def tap(client, season, **data):
    url = reverse("finance:door_list", args=[season.name, 5])
    return client.post(url, data, HTTP_ACCEPT="application/json")


def test_a_tap_on_the_consoles_door_list_records_the_payment_and_answers_with_the_new_list(
    client,
    club,
    season,
    treasurer,
):
    client.force_login(treasurer)
    key = once()
    answer = tap(client, season, membership=club["ann"].pk, amount="100.00", once=key, next="")
    assert answer.status_code == 200
    body = answer.json()
    payment = Payment.objects.get(membership=club["ann"], amount=Decimal("100.00"), reference="door, event 5")
    assert body["ok"] and body["message"] == f"Ann Door paid $100.00 cash: receipt #{payment.pk}."
    assert body["receipt"] == f"/finance/payments/{payment.pk}/"
    assert "Record $100.00 cash" not in body["html"] and "Record $510.00 cash" in body["html"]
    assert "<html" not in body["html"]
    again = tap(client, season, membership=club["ann"].pk, amount="100.00", once=key, next="").json()
    assert (
        again["ok"]
        and again["message"] == f"Already recorded: receipt #{payment.pk} (this tap was sent before)."
    )
    assert Payment.objects.filter(membership=club["ann"]).count() == 2  # Aug 22 and tonight


def test_a_stale_or_broken_tap_answers_why_and_books_nothing(client, club, season, treasurer):
    client.force_login(treasurer)
    changed = tap(client, season, membership=club["cal"].pk, amount="400.00", once=once(), next="")
    assert changed.status_code == 400
    assert changed.json()["error"] == (
        "The amount changed: Cal Door must now pay $510.00 to play (the list said $400.00). "
        "Check the list and tap again."
    )
    broken = tap(client, season, membership="x", amount="", once="", next="")
    assert broken.status_code == 400 and broken.json()["error"].startswith("This list is out of date")
    assert not Payment.objects.filter(membership=club["cal"]).exists()


def test_a_member_cannot_tap_the_door_list(client, club, season, member):
    client.force_login(member)
    assert (
        tap(client, season, membership=club["ann"].pk, amount="100.00", once=once(), next="").status_code
        == 403
    )
