"""SPEC §16.10: the club's words for how a member paid, booked as cash or check; a payment's identity."""

import datetime as dt
from decimal import Decimal

import pytest

from finance.services.payments_import import method_read, method_reference, payment_key


@pytest.mark.parametrize(
    ("word", "method"),
    [
        ("cash", "cash"),
        ("CASH", "cash"),
        ("Check", "check"),
        ("cheque", "check"),
        ("Money Order", "check"),
        ("money-order", "check"),
        ("Venmo", "check"),
        ("Zelle", "check"),
        ("PayPal", "check"),
        ("Cash App", "check"),
        ("cashapp", "check"),
        ("bank transfer", "check"),
        ("IOU", None),
        ("", None),
    ],
)
def test_method_words_map_to_cash_or_check(word, method):
    assert method_read(word=word) == method


def test_an_unknown_word_is_booked_as_the_officer_answered():
    assert method_read(word="IOU jar", answers={"ioujar": "cash"}) == "cash"
    assert method_read(word="IOU jar", answers={"ioujar": "bitcoin"}) is None


def test_the_reference_keeps_the_clubs_word_when_the_file_gives_none():
    assert method_reference(word="Venmo", reference="") == "Venmo"
    assert method_reference(word="Venmo", reference="@mike-s") == "@mike-s"
    assert method_reference(word="check", reference="") == ""
    assert method_reference(word=" Cash ", reference="") == ""


def test_a_payment_is_the_same_one_whatever_the_case_and_spaces_of_its_reference():
    one = payment_key(
        membership_id=1, date=dt.date(2026, 8, 22), amount=Decimal("110"), method="check", reference="#1041 "
    )
    two = payment_key(
        membership_id=1,
        date=dt.date(2026, 8, 22),
        amount=Decimal("110.00"),
        method="check",
        reference="#1041",
    )
    assert one == two
