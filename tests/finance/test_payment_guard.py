"""Overpayment and repeat guard (SPEC §16.4, issue 32 part 5), on the bylaws' dues: $110 at event 1, $100 at
events 2–5 ($510 for the season). Ned paid $310 on Aug 22, so he owes $200 for the rest of the season. Today is
Sunday, Nov 29, 2026 (the ``today`` fixture); the club's clock is New York's."""

import datetime as dt
import re
import threading
from decimal import Decimal
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.db import connection, connections
from django.urls import reverse

from events.models import Event
from finance.models import Payment
from finance.services.door import door_payment_record
from finance.services.dues import ADMIN_FEE, DUES, LATE_FEE, WAIVER, Charge, MoneyIn
from finance.services.payments import (
    PaymentUnconfirmed,
    payment_record,
    payment_reverse,
    season_rest_owed,
)
from tests.factories import MembershipFactory, PersonFactory, member_user, once, season_make
from tests.finance.factories import pay

D = Decimal
NOV_29 = dt.date(2026, 11, 29)
OVER = "$1,000.00 is more than Ned Guard owes for the rest of the season ($200.00). Record it anyway?"


def club_time(hour: int, minute: int, second: int = 0) -> dt.datetime:
    """That time on Nov 29, 2026 on the club's clock."""
    return dt.datetime(2026, 11, 29, hour, minute, second, tzinfo=ZoneInfo("America/New_York"))


@pytest.fixture
def ned(db, season, today, treasurer):
    person = PersonFactory(key="ned", first_name="Ned", last_name="Guard")
    membership = MembershipFactory(season=season, person=person)
    pay(membership=membership, day="2026-08-22", amount="310.00", actor=treasurer)
    return membership


def form_data(membership, amount: str, **extra) -> dict:
    return {
        "membership": membership.pk,
        "date": "2026-11-29",
        "amount": amount,
        "method": "cash",
        "once": once(),
        **extra,
    }


def page_text(response) -> str:
    return re.sub(r"\s+", " ", response.content.decode())


def asked_value(response) -> str:
    return re.search(r'name="asked" value="([^"]+)"', response.content.decode())[1]


def payments_of(membership) -> list[Decimal]:
    return list(Payment.objects.filter(membership=membership).order_by("pk").values_list("amount", flat=True))


# --- the rule, in the service -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("on", "owed"),
    [
        # $510 of installments and fees for the season, $310 paid: late fees are not charged yet on Nov 29.
        (dt.date(2026, 11, 29), D("200.00")),
        # By Dec 12 the $25 late fee is charged too (the dues of Dec 12 were unpaid that day); waived Jan 12.
        (dt.date(2026, 12, 12), D("225.00")),
        (dt.date(2027, 1, 12), D("200.00")),
    ],
)
def test_what_a_member_owes_for_the_rest_of_the_season_counts_all_dues_and_the_late_fees_charged_so_far(
    on, owed
):
    charges = [
        Charge(dt.date(2026, 8, 22), ADMIN_FEE, D("10.00"), "admin fee"),
        Charge(dt.date(2026, 8, 22), DUES, D("100.00"), "dues"),
        *(Charge(day, DUES, D("100.00"), "dues") for day in (dt.date(2026, 9, 26), dt.date(2026, 12, 12))),
        Charge(dt.date(2027, 3, 13), DUES, D("200.00"), "dues"),
        Charge(dt.date(2026, 12, 12), LATE_FEE, D("25.00"), "late fee"),
        Charge(dt.date(2027, 1, 12), WAIVER, D("-25.00"), "waived"),
    ]
    payments = [MoneyIn(dt.date(2026, 8, 22), D("350.00")), MoneyIn(dt.date(2026, 9, 1), D("-40.00"))]
    assert season_rest_owed(charges=charges, payments=payments, on=on) == owed


def test_paid_ahead_owes_nothing_for_the_rest_of_the_season():
    charges = [Charge(dt.date(2026, 8, 22), DUES, D("110.00"), "dues")]
    payments = [MoneyIn(dt.date(2026, 8, 22), D("150.00"))]
    assert season_rest_owed(charges=charges, payments=payments, on=NOV_29) == D("0.00")


def test_the_service_asks_before_booking_an_overpayment_and_books_it_when_confirmed(ned, treasurer):
    values = {"membership": ned, "date": NOV_29, "amount": D("1000.00"), "method": "cash", "actor": treasurer}
    with pytest.raises(PaymentUnconfirmed) as refused:
        payment_record(**values, ask=True)
    assert refused.value.questions == (OVER,)
    assert payments_of(ned) == [D("310.00")]
    booked = payment_record(**values, ask=True, confirmed=True)
    assert booked.record.amount == D("1000.00") and not booked.replayed
    assert payments_of(ned) == [D("310.00"), D("1000.00")]


def test_what_the_member_owes_exactly_is_booked_without_a_question(ned, treasurer):
    booked = payment_record(
        membership=ned, date=NOV_29, amount=D("200.00"), method="cash", actor=treasurer, ask=True
    )
    assert booked.record.amount == D("200.00")


def test_a_reversed_payment_is_not_asked_about_again(ned, treasurer):
    first = payment_record(membership=ned, date=NOV_29, amount=D("50.00"), method="cash", actor=treasurer)
    payment_reverse(payment=first.record, date=NOV_29, reason="typed for the wrong member", actor=treasurer)
    again = payment_record(
        membership=ned, date=NOV_29, amount=D("50.00"), method="cash", actor=treasurer, ask=True
    )
    assert again.record.amount == D("50.00")


# --- the officer's payment form ------------------------------------------------------------------------------


def test_1000_for_a_member_owing_200_asks_naming_both_amounts_and_books_only_when_confirmed(
    client, ned, treasurer
):
    client.force_login(treasurer)
    data = form_data(ned, "1000.00")
    asked = client.post(reverse("finance:payments"), data)
    assert asked.status_code == 200
    text = page_text(asked)
    assert OVER in text and "Nothing is recorded yet" in text
    assert 'type="checkbox" name="confirm"' in text
    assert payments_of(ned) == [D("310.00")]

    # Sent again unticked: asked again, nothing booked.
    again = client.post(reverse("finance:payments"), {**data, "asked": asked_value(asked)})
    assert OVER in page_text(again)
    assert payments_of(ned) == [D("310.00")]

    confirmed = {**data, "asked": asked_value(asked), "confirm": "on"}
    response = client.post(reverse("finance:payments"), confirmed)
    payment = Payment.objects.get(membership=ned, amount=D("1000.00"))
    assert response["Location"] == f"{reverse('finance:payments')}?receipt={payment.pk}"
    # The one-time key still books once: the confirmed form sent twice shows the first receipt.
    replay = client.post(reverse("finance:payments"), confirmed, follow=True)
    assert f"Already recorded: receipt #{payment.pk}" in page_text(replay)
    assert payments_of(ned) == [D("310.00"), D("1000.00")]


def test_a_confirmation_does_not_carry_over_to_a_changed_amount(client, ned, treasurer):
    client.force_login(treasurer)
    data = form_data(ned, "1000.00")
    asked = client.post(reverse("finance:payments"), data)
    changed = client.post(
        reverse("finance:payments"),
        {**data, "amount": "2000.00", "asked": asked_value(asked), "confirm": "on"},
    )
    assert changed.status_code == 200
    assert "$2,000.00 is more than Ned Guard owes for the rest of the season ($200.00)." in page_text(changed)
    assert payments_of(ned) == [D("310.00")]


def test_the_same_payment_again_within_ten_minutes_asks_when_it_was_recorded(client, ned, treasurer):
    client.force_login(treasurer)
    with time_machine.travel(club_time(19, 42), tick=False):
        client.post(reverse("finance:payments"), form_data(ned, "50.00"))
    first = Payment.objects.get(membership=ned, amount=D("50.00"))
    # The browser's Back button: the same payment with a fresh form key, eight minutes later.
    with time_machine.travel(club_time(19, 50), tick=False):
        data = form_data(ned, "50.00")
        asked = client.post(reverse("finance:payments"), data)
        text = page_text(asked)
        assert (
            f"$50.00 from Ned Guard: recorded already at 7:42 pm (receipt #{first.pk}) — record again?"
            in text
        )
        assert "more than Ned Guard owes" not in text  # $50 of the $200 still owed
        assert payments_of(ned) == [D("310.00"), D("50.00")]
        client.post(reverse("finance:payments"), {**data, "asked": asked_value(asked), "confirm": "on"})
    assert payments_of(ned) == [D("310.00"), D("50.00"), D("50.00")]


def test_the_same_payment_after_ten_minutes_is_booked_without_a_question(client, ned, treasurer):
    client.force_login(treasurer)
    with time_machine.travel(club_time(19, 42), tick=False):
        client.post(reverse("finance:payments"), form_data(ned, "50.00"))
    with time_machine.travel(club_time(19, 52, 1), tick=False):
        response = client.post(reverse("finance:payments"), form_data(ned, "50.00"))
    assert response.status_code == 302
    assert payments_of(ned) == [D("310.00"), D("50.00"), D("50.00")]


def test_a_door_payment_just_recorded_makes_the_form_ask_before_booking_it_again(
    client, ned, treasurer, season
):
    december = Event.objects.get(season=season, number=5)
    with time_machine.travel(club_time(19, 42), tick=False):
        door = door_payment_record(
            event=december, membership=ned, expected=D("200.00"), on=NOV_29, actor=treasurer, once=once()
        )
    client.force_login(treasurer)
    with time_machine.travel(club_time(19, 45), tick=False):
        text = page_text(client.post(reverse("finance:payments"), form_data(ned, "200.00")))
    assert "$200.00 is more than Ned Guard owes for the rest of the season ($0.00). Record it anyway?" in text
    assert f"recorded already at 7:42 pm (receipt #{door.record.pk}) — record again?" in text
    assert payments_of(ned) == [D("310.00"), D("200.00")]


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif("connection.vendor != 'postgresql'", reason="parallel transactions need PostgreSQL")
def test_two_officers_recording_the_same_payment_at_once_book_it_once_and_the_second_is_asked():
    assert connection.vendor == "postgresql"
    with time_machine.travel(club_time(19, 42), tick=False):
        season = season_make(2026)
        treasurer = member_user(season=season, username="treas", office="treasurer")
        ned = MembershipFactory(
            season=season, person=PersonFactory(key="ned", first_name="Ned", last_name="Guard")
        )
        barrier = threading.Barrier(2)
        outcomes = []

        def record():
            try:
                barrier.wait()
                booked = payment_record(
                    membership=ned,
                    date=NOV_29,
                    amount=D("50.00"),
                    method="cash",
                    actor=treasurer,
                    once=once(),
                    ask=True,
                )
                outcomes.append(("booked", booked.record.pk))
            except PaymentUnconfirmed as exc:
                outcomes.append(("asked", exc.questions))
            finally:
                connections.close_all()

        threads = [threading.Thread(target=record) for _ in range(2)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        [(_, pk)] = [o for o in outcomes if o[0] == "booked"]
        [(_, questions)] = [o for o in outcomes if o[0] == "asked"]
        assert questions == (
            f"$50.00 from Ned Guard: recorded already at 7:42 pm (receipt #{pk}) — record again?",
        )
        assert payments_of(ned) == [D("50.00")]
