"""Imports book exactly as the forms do (SPEC §17.5, issue 45): a departed member's payment is refused by the
same rule as the payment form's; the same rows confirmed twice, from one preview or from two uploads of one
file, one after the other or at the same time, book once.

The clock is Nov 29, 2026 (the ``today`` fixture). The file pays Bob $110.00 cash on Aug 22 and $100.00 by
check 1043 on Sep 26."""

import datetime as dt
import threading
from decimal import Decimal

import pytest
from django.db import connection

from finance.models import Payment
from finance.services.payments import PaymentError, payment_record
from finance.services.payments_import import PaymentLine, payments_record_many
from members.services.seats import member_withdraw
from ncpc.club.services.spreadsheet import (
    payments_sheet_read,
    payments_sheet_write,
    sheet_confirm,
    sheet_upload_keep,
)
from tests.factories import MembershipFactory, PersonFactory

D = Decimal
NOV_29 = dt.date(2026, 11, 29)
FILE = "member,date,amount,method,reference\nbob,2026-08-22,110.00,cash,\nbob,2026-09-26,100.00,check,1043\n"
LEFT = (
    "Ann Lee left the club on Nov 29, 2026 (withdrew): no payment is booked for a member who left. "
    "What they paid stays with the club (§2.12); money given back to them is a check."
)


@pytest.fixture
def bob(db, season, today):
    return MembershipFactory(
        season=season, person=PersonFactory(key="bob", first_name="Bob", last_name="Ray")
    )


@pytest.fixture
def ann_left(db, season, today):
    """Ann held a seat and withdrew today (Nov 29)."""
    ann = MembershipFactory(season=season, person=PersonFactory(key="ann", first_name="Ann", last_name="Lee"))
    member_withdraw(membership=ann, on=NOV_29)
    ann.refresh_from_db()
    return ann


def payments_booked() -> list[tuple[str, dt.date, Decimal, str]]:
    return sorted(
        (p.membership.person.key, p.date, p.amount, p.method)
        for p in Payment.objects.select_related("membership__person")
    )


BOB_BOOKED = [
    ("bob", dt.date(2026, 8, 22), D("110.00"), "cash"),
    ("bob", dt.date(2026, 9, 26), D("100.00"), "check"),
]


# --- a departed member: the form's rule --------------------------------------------------------------------


def test_the_payment_form_refuses_a_member_who_left(ann_left, treasurer):
    with pytest.raises(PaymentError) as refused:
        payment_record(membership=ann_left, date=NOV_29, amount=D("100.00"), method="cash", actor=treasurer)
    assert str(refused.value) == LEFT
    assert Payment.objects.count() == 0


def test_the_import_preview_refuses_a_departed_members_payment_with_the_forms_words(ann_left, season):
    sheet = payments_sheet_read(text="member,date,amount,method\nann,2026-11-29,100.00,cash\n", season=season)
    assert sheet.rows[0].errors == [LEFT]
    assert not sheet.ok


def test_the_import_books_nothing_for_a_member_who_left(ann_left, season, treasurer):
    line = PaymentLine(membership=ann_left, date=NOV_29, amount=D("100.00"), method="cash", line=2)
    with pytest.raises(PaymentError) as refused:
        payments_record_many(lines=[line], actor=treasurer, source="test.csv")
    assert str(refused.value) == f"Line 2: {LEFT}"
    assert Payment.objects.count() == 0


def test_a_member_who_left_after_the_preview_is_refused_at_the_confirmation(bob, season, treasurer):
    # The seat as the preview read it (still held), then Bob withdraws before the officer confirms.
    line = PaymentLine(membership=bob, date=NOV_29, amount=D("100.00"), method="cash", line=3)
    member_withdraw(membership=bob, on=NOV_29)
    with pytest.raises(PaymentError, match=r"^Line 3: Bob Ray left the club on Nov 29, 2026 \(withdrew\)"):
        payments_record_many(lines=[line], actor=treasurer, source="test.csv")
    assert Payment.objects.count() == 0


def test_a_departed_members_payment_dated_before_they_left_is_still_imported(ann_left, season, treasurer):
    text = "member,date,amount,method\nann,2026-11-28,100.00,cash\n"
    assert payments_sheet_write(text=text, season=season, actor=treasurer) == 1
    assert payments_booked() == [("ann", dt.date(2026, 11, 28), D("100.00"), "cash")]


@pytest.mark.parametrize(
    ("who", "date", "amount", "refused"),
    [
        ("bob", "2026-11-30", "100.00", "The date cannot be after today."),
        (
            "bob",
            "2026-11-20",
            "10000.01",
            "$10,000.01 is more than the club's limit of $10,000.00 for one amount.",
        ),
        ("ann", "2026-11-29", "100.00", LEFT),
    ],
)
def test_the_import_and_the_form_refuse_a_payment_in_the_same_words(
    ann_left, bob, season, treasurer, who, date, amount, refused
):
    with pytest.raises(PaymentError) as form:
        payment_record(
            membership={"ann": ann_left, "bob": bob}[who],
            date=dt.date.fromisoformat(date),
            amount=D(amount),
            method="cash",
            actor=treasurer,
        )
    preview = payments_sheet_read(
        text=f"member,date,amount,method\n{who},{date},{amount},cash\n", season=season
    )
    assert str(form.value) == refused
    assert preview.rows[0].errors == [refused]


# --- the same rows confirmed twice, one after the other --------------------------------------------------


def test_one_preview_confirmed_twice_books_once(bob, season, treasurer):
    upload = sheet_upload_keep(kind="payments", season=season, text=FILE, actor=treasurer)
    first = sheet_confirm(token=upload.token, kinds=["payments"], actor=treasurer)
    second = sheet_confirm(token=upload.token, kinds=["payments"], actor=treasurer)
    assert (first.already, first.upload.rows, first.recorded) == (False, 2, 0)
    assert (second.already, second.upload.rows) == (True, 2)
    assert payments_booked() == BOB_BOOKED


def test_two_uploads_of_one_file_book_once_and_the_second_says_its_rows_were_recorded(bob, season, treasurer):
    # Two tabs: both previewed before either is confirmed, so neither preview saw the other's payments.
    tab_1 = sheet_upload_keep(kind="payments", season=season, text=FILE, actor=treasurer)
    tab_2 = sheet_upload_keep(kind="payments", season=season, text=FILE, actor=treasurer)
    first = sheet_confirm(token=tab_1.token, kinds=["payments"], actor=treasurer)
    second = sheet_confirm(token=tab_2.token, kinds=["payments"], actor=treasurer)
    assert (first.already, first.upload.rows, first.recorded) == (False, 2, 0)
    assert (second.already, second.upload.rows, second.recorded) == (False, 0, 2)
    assert payments_booked() == BOB_BOOKED


def test_the_second_uploads_confirmation_page_says_no_row_was_booked_again(client, bob, season, treasurer):
    client.force_login(treasurer)
    tokens = [
        sheet_upload_keep(kind="payments", season=season, text=FILE, actor=treasurer).token for _ in range(2)
    ]
    client.post("/imports/", {"step": "confirm", "token": tokens[0]})
    page = client.post("/imports/", {"step": "confirm", "token": tokens[1]}, follow=True)
    assert [str(m) for m in page.context["messages"]] == [
        "Imported 2 payments row(s) into 2026-27.",
        "Imported 0 payments row(s) into 2026-27. 2 row(s) were not booked: their payment is recorded already "
        "(the same file imported before, or the same payment entered by hand).",
    ]
    assert payments_booked() == BOB_BOOKED


def test_a_second_uploads_preview_names_when_and_by_whom_each_row_was_booked(bob, season, treasurer):
    treasurer.person.first_name, treasurer.person.last_name = "Tom", "Hill"
    treasurer.person.save()
    first = sheet_upload_keep(kind="payments", season=season, text=FILE, actor=treasurer)
    sheet_confirm(token=first.token, kinds=["payments"], actor=treasurer)
    again = payments_sheet_read(text=FILE, season=season)
    assert [(row.recorded, row.book, row.action) for row in again.rows] == [
        (
            True,
            False,
            "Nothing: already recorded on Nov 29, 2026 by Tom Hill (payment of 110.00 from bob on 2026-08-22 "
            "(cash)); tick to record it again",
        ),
        (
            True,
            False,
            "Nothing: already recorded on Nov 29, 2026 by Tom Hill (payment of 100.00 from bob on 2026-09-26 "
            "(check 1043)); tick to record it again",
        ),
    ]


# --- at the same time (PostgreSQL: two connections) ------------------------------------------------------


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif("connection.vendor != 'postgresql'", reason="row locks need PostgreSQL (CI runs it)")
@pytest.mark.parametrize("uploads", ["one preview", "two uploads"])
def test_the_same_file_confirmed_twice_at_the_same_time_books_once(bob, season, treasurer, uploads):
    tokens = [sheet_upload_keep(kind="payments", season=season, text=FILE, actor=treasurer).token]
    tokens.append(
        tokens[0]
        if uploads == "one preview"
        else sheet_upload_keep(kind="payments", season=season, text=FILE, actor=treasurer).token
    )
    results: list[tuple[bool, int, int] | str] = []
    start = threading.Barrier(2)

    def press(token: str) -> None:
        try:
            start.wait()
            done = sheet_confirm(token=token, kinds=["payments"], actor=treasurer)
            results.append((done.already, done.upload.rows, done.recorded))
        except Exception as exc:  # reported by the test, not lost in the thread
            results.append(repr(exc))
        finally:
            connection.close()

    threads = [threading.Thread(target=press, args=(token,)) for token in tokens]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    if uploads == "one preview":
        assert sorted(results, key=str) == [(False, 2, 0), (True, 2, 0)]
    else:
        assert sorted(results, key=str) == [(False, 0, 2), (False, 2, 0)]
    assert payments_booked() == BOB_BOOKED
