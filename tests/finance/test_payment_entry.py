"""Payment entry and the door list (issue 17, part 5), on the bylaws' dues and dates: $110 at event 1 (Aug 22),
$100 at events 2–5 (Sep 26, Oct 24, Nov 14, Dec 12); a $25 late fee on Dec 12 if dues stay unpaid that day.
Today is Sunday, Nov 29, 2026 (the ``today`` fixture); the next event is event 5 on Dec 12."""

import datetime as dt
import re
from decimal import Decimal

import pytest
import time_machine
from django.urls import reverse

from events.models import Event
from finance.models import Payment, Transaction
from finance.selectors.door import event_door_list
from finance.selectors.dues import dues_account
from finance.services.door import door_payment_record
from finance.services.payments import PaymentError
from members.models import Suspension
from tests.factories import MembershipFactory, PersonFactory, once
from tests.finance.factories import pay

D = Decimal


@pytest.fixture
def club(db, season, today, treasurer):
    """ann paid $410 (owes $100 to play on Dec 12), bob paid $510 (nothing), cal paid nothing ($510)."""
    seats = {}
    for key, paid in (("ann", "410.00"), ("bob", "510.00"), ("cal", None)):
        person = PersonFactory(key=key, first_name=key.title(), last_name="Door")
        seats[key] = MembershipFactory(season=season, person=person)
        if paid:
            pay(membership=seats[key], day="2026-08-22", amount=paid, actor=treasurer)
    # The treasurer's own seat: paid up for the season, so that it stays off the lists.
    pay(membership=treasurer.person.memberships.get(), day="2026-08-22", amount="510.00", actor=treasurer)
    return seats


def december(season):
    return Event.objects.get(season=season, number=5)


# --- the payment form ---------------------------------------------------------------------------------------


def test_choosing_a_member_shows_what_they_owe_and_fills_in_the_amount_to_play(client, club, treasurer):
    client.force_login(treasurer)
    page = client.get(reverse("finance:payments"), {"member": club["ann"].pk}).content.decode()
    panel = re.sub(r"\s+", " ", page)
    assert "Ann Door" in panel and "as of Nov 29, 2026" in panel
    assert "Owes now</dt> <dd" in panel and "nothing</dd>" in panel  # $410 charged by Nov 29, $410 paid
    assert "To play Dec 12</dt>" in panel and "<strong>$100.00</strong>" in panel
    assert "$25.00 on Dec 12 unless $100.00 is paid" in panel
    assert 'name="amount" value="100.00"' in page
    assert f'<option value="{club["ann"].pk}" selected>Ann Door</option>' in page


def test_the_outlook_endpoint_gives_the_panel_and_the_amount_to_play(client, club, treasurer):
    client.force_login(treasurer)
    data = client.get(reverse("finance:payment_outlook", args=[club["cal"].pk])).json()
    assert data["to_play"] == "510.00"  # $110 + 4 × $100 by Dec 12
    assert data["balance"] == "410.00"  # charged by Nov 29
    assert (data["late_fee"], data["late_fee_date"], data["avoid_late_fee"]) == (
        "25.00",
        "2026-12-12",
        "510.00",
    )
    assert "$410.00" in data["html"] and "<strong>$510.00</strong>" in data["html"]
    bob = client.get(reverse("finance:payment_outlook", args=[club["bob"].pk])).json()
    assert bob["to_play"] == "0.00" and "nothing more" in bob["html"]


def test_a_member_who_paid_ahead_shows_a_credit(client, club, treasurer):
    pay(membership=club["bob"], day="2026-11-29", amount="40.00", actor=treasurer)
    client.force_login(treasurer)
    data = client.get(reverse("finance:payment_outlook", args=[club["bob"].pk])).json()
    # $550 paid, $410 charged by Nov 29.
    assert "credit $140.00" in data["html"] and "−" not in data["html"]


def test_a_member_may_not_read_anothers_outlook(client, club, member):
    client.force_login(member)
    assert client.get(reverse("finance:payment_outlook", args=[club["ann"].pk])).status_code == 403


def test_after_recording_the_form_is_blank_with_the_receipt_linked_and_a_resend_books_once(
    client, club, treasurer
):
    client.force_login(treasurer)
    data = {
        "membership": club["ann"].pk,
        "date": "2026-11-29",
        "amount": "100.00",
        "method": "cash",
        "once": once(),
    }
    first = client.post(reverse("finance:payments"), data)
    payment = Payment.objects.get(membership=club["ann"], date=dt.date(2026, 11, 29))
    assert first["Location"] == f"{reverse('finance:payments')}?receipt={payment.pk}"
    page = client.get(first["Location"]).content.decode()
    assert f"Receipt #{payment.pk} recorded: $100.00 from Ann Door." in page
    assert f'href="{reverse("finance:receipt", args=[payment.pk])}"' in page
    assert "Recorded $100.00 from Ann Door." in page
    assert 'name="amount" value="100.00"' not in page  # blank for the next member
    again = client.post(reverse("finance:payments"), data, follow=True)
    assert f"Already recorded: receipt #{payment.pk}" in again.content.decode()
    assert Payment.objects.filter(membership=club["ann"]).count() == 2  # Aug 22 and this one
    assert dues_account(membership=club["ann"]).status(on=dt.date(2026, 12, 12)).balance == D("0.00")


@pytest.mark.parametrize("value", ["", "x", "999999", "-1", "1e3"])
def test_an_odd_member_in_the_address_shows_the_blank_form(client, club, treasurer, value):
    client.force_login(treasurer)
    response = client.get(reverse("finance:payments"), {"member": value, "receipt": value})
    assert response.status_code == 200 and "as of" not in response.content.decode()


# --- the door list ------------------------------------------------------------------------------------------


def test_the_door_list_names_every_member_who_must_pay_to_play_with_the_amount(club, season):
    rows = event_door_list(event=december(season))
    assert {r.membership.person.key: r.amount for r in rows} == {"ann": D("100.00"), "cal": D("510.00")}


def test_one_tap_records_the_usual_amount_in_cash_and_the_member_drops_off(client, club, season, treasurer):
    client.force_login(treasurer)
    url = reverse("finance:door_list", args=[season.name, 5])
    page = client.get(url).content.decode()
    assert "Record $100.00 cash" in page and "Record $510.00 cash" in page and "$610.00</span> in all" in page
    key = once()
    tap = {"membership": club["ann"].pk, "amount": "100.00", "once": key, "next": url}
    response = client.post(url, tap, follow=True)
    html = response.content.decode()
    payment = Payment.objects.get(membership=club["ann"], date=dt.date(2026, 11, 29))
    assert (payment.amount, payment.method, payment.reference) == (D("100.00"), "cash", "door, event 5")
    assert (
        f'Ann Door paid $100.00 cash: <a href="/finance/payments/{payment.pk}/">receipt #{payment.pk}</a>'
        in html
    )
    assert "Record $100.00 cash" not in html and "Record $510.00 cash" in html
    # The same tap again (a double tap, a retry) books nothing more.
    again = client.post(url, tap, follow=True).content.decode()
    assert f'Already recorded: <a href="/finance/payments/{payment.pk}/">receipt #{payment.pk}</a>' in again
    assert Payment.objects.filter(membership=club["ann"]).count() == 2
    assert event_door_list(event=december(season))[0].membership == club["cal"]


def test_a_tap_with_an_amount_that_changed_meanwhile_books_nothing_and_says_so(
    client, club, season, treasurer
):
    client.force_login(treasurer)
    url = reverse("finance:door_list", args=[season.name, 5])
    pay(
        membership=club["cal"], day="2026-11-29", amount="10.00", actor=treasurer
    )  # paid at the form meanwhile
    response = client.post(
        url, {"membership": club["cal"].pk, "amount": "510.00", "once": once()}, follow=True
    )
    assert "The amount changed: Cal Door must now pay $500.00 to play (the list said $510.00)" in (
        response.content.decode()
    )
    assert Payment.objects.filter(membership=club["cal"]).count() == 1
    other_phone = client.post(
        url, {"membership": club["bob"].pk, "amount": "100.00", "once": once()}, follow=True
    )
    assert "Bob Door has nothing more to pay to play on Dec 12." in other_phone.content.decode()


def test_the_door_command_refuses_a_past_event_and_another_seasons_member(club, season, treasurer):
    november = Event.objects.get(season=season, number=4)
    with pytest.raises(PaymentError, match="record a later payment"):
        door_payment_record(
            event=november,
            membership=club["cal"],
            expected=D("410.00"),
            on=dt.date(2026, 11, 29),
            actor=treasurer,
            once=once(),
        )
    assert Transaction.objects.filter(memo__contains="Cal").count() == 0


def test_the_fragment_is_just_the_list_for_the_night_console(client, club, season, treasurer):
    client.force_login(treasurer)
    fragment = client.get(reverse("finance:door_list", args=[season.name, 5]), {"fragment": "1"})
    html = fragment.content.decode()
    assert "<html" not in html and 'id="door-list"' in html and "Record $510.00 cash" in html
    assert f'name="next" value="/finance/door/{season.name}/5/"' in html


def test_a_past_events_door_list_has_no_taps(client, club, season, treasurer):
    client.force_login(treasurer)
    html = client.get(reverse("finance:door_list", args=[season.name, 4])).content.decode()
    assert "Event 4 is over" in html and "Paid $" not in html


def test_only_officers_who_record_payments_see_the_door_list_and_its_links(
    client, club, season, treasurer, member
):
    client.force_login(member)
    assert client.get(reverse("finance:door_list", args=[season.name, 5])).status_code == 403
    assert "Door list" not in client.get(f"/events/{season.name}/5/").content.decode()
    client.force_login(treasurer)
    assert (
        f'href="/finance/door/{season.name}/5/"' in client.get(f"/events/{season.name}/5/").content.decode()
    )
    assert f'href="/finance/door/{season.name}/5/"' in client.get("/finance/").content.decode()
    assert client.get(reverse("finance:door_list", args=[season.name, 99])).status_code == 404


@pytest.mark.django_db(transaction=True)
def test_two_taps_at_once_with_one_form_book_once(season, treasurer):
    """The row lock and the one-time key: the second tap waits for the first and finds its payment."""
    import threading

    from django.db import connection

    if connection.vendor != "postgresql":
        pytest.skip("select_for_update is a no-op on SQLite (it serializes writers itself)")
    seat = MembershipFactory(
        season=season, person=PersonFactory(key="dan", first_name="Dan", last_name="Door")
    )
    pay(membership=seat, day="2026-08-22", amount="410.00", actor=treasurer)
    event = december(season)
    key = once()
    results, errors = [], []

    def tap():
        try:
            with time_machine.travel(dt.datetime(2026, 12, 12, 20, 0, tzinfo=dt.UTC), tick=False):
                results.append(
                    door_payment_record(
                        event=event,
                        membership=seat,
                        expected=D("100.00"),
                        on=dt.date(2026, 12, 12),
                        actor=treasurer,
                        once=key,
                    ).record
                )
        except Exception as exc:  # noqa: BLE001  (reported below)
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=tap) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert len({p.pk for p in results}) == 1
    assert Payment.objects.filter(membership=seat, date=dt.date(2026, 12, 12)).count() == 1


# --- money shown one way (issue 17, part 4) -----------------------------------------------------------------


def test_money_is_shown_one_way_on_the_finance_pages(client, club, treasurer, member):
    # bob paid $510 and now $1,234.50 more; $410 is charged by Nov 29: a credit of $1,334.50, never negative.
    pay(membership=club["bob"], day="2026-11-29", amount="1234.50", actor=treasurer)
    client.force_login(treasurer)
    profile = client.get("/members/people/bob/").content.decode()
    assert 'Balance <strong class="tabular">credit $1,334.50</strong>' in profile
    assert "paid $1,744.50" in profile and "-1334" not in profile and "−$1,334.50" not in profile
    ledger = client.get(reverse("finance:ledger")).content.decode()
    payments = client.get(reverse("finance:payments")).content.decode()
    overview = client.get(reverse("finance:index")).content.decode()
    for page in (ledger, payments, overview):
        assert "$1,234.50" in page
    assert "credit $1,334.50" in overview
    payment = Payment.objects.get(amount=D("1234.50"))
    confirm = client.get(reverse("finance:payment_reverse", args=[payment.pk])).content.decode()
    assert "the payment of $1,234.50 from Bob Door" in confirm
    txn = client.get(reverse("finance:transaction", args=[payment.transaction_id])).content.decode()
    assert txn.count("$1,234.50") >= 2  # debit and credit


def test_a_member_suspended_on_the_night_is_listed_as_unable_to_play_even_if_paid(
    client, club, season, treasurer
):
    Suspension.objects.create(
        membership=club["cal"], start=dt.date(2026, 12, 1), end=dt.date(2026, 12, 31), reason="§2.11"
    )
    rows = {r.membership.person.key: r for r in event_door_list(event=december(season))}
    assert (rows["cal"].amount, rows["cal"].suspended) == (D("510.00"), True)
    assert (rows["ann"].amount, rows["ann"].suspended) == (D("100.00"), False)
    client.force_login(treasurer)
    html = client.get(reverse("finance:door_list", args=[season.name, 5])).content.decode()
    assert html.count("cannot play, even if paid") == 1
    assert "suspended on Dec 12: cannot play, even if paid" in html
