"""The money pages attacked as a hurried Treasurer or a hostile member would: odd values in hidden fields, forms
sent twice, hostile bank files, two officers at once. Each attack ends in a refusal or a page that says what
happened, never a 500, a payment booked twice or a wrong amount.

The clock stands at Nov 29, 2026 (the ``today`` fixture); event 5 is on Dec 12, where ann owes $100 to play
(``club`` of test_payment_entry)."""

from decimal import Decimal

import pytest
from django.urls import reverse

from finance.models import Payment
from tests.factories import once
from tests.finance import test_payment_entry

pytestmark = pytest.mark.django_db
club = test_payment_entry.club  # the fixture: ann owes $100 to play on Dec 12, cal $510


# --- the door list ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("back", ["abc", "-1", "1e30", "999999", "😀", "0001-01-01"])
def test_a_door_tap_whose_next_is_not_a_path_books_once_and_goes_back_to_the_list(
    client, club, season, treasurer, back
):
    client.force_login(treasurer)
    url = reverse("finance:door_list", args=[season.name, 5])
    answer = client.post(
        url, {"membership": club["ann"].pk, "amount": "100.00", "once": once(), "next": back}
    )
    assert answer.status_code == 302 and answer.url == url
    tonight = Payment.objects.get(membership=club["ann"], reference="door, event 5")
    assert tonight.amount == Decimal("100.00")


def test_a_door_tap_may_still_go_back_to_a_page_of_this_site(client, club, season, treasurer):
    client.force_login(treasurer)
    url = reverse("finance:door_list", args=[season.name, 5])
    console = f"/events/{season.name}/5/console/"
    answer = client.post(
        url, {"membership": club["ann"].pk, "amount": "100.00", "once": once(), "next": console}
    )
    assert answer.status_code == 302 and answer.url == console
    away = client.post(
        url,
        {"membership": club["cal"].pk, "amount": "510.00", "once": once(), "next": "https://evil.example/"},
    )
    assert away.status_code == 302 and away.url == url
