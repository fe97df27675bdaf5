"""Dues reminders from the forecast (§2.6–2.10, SPEC §7), on the bylaws' dues and dates: $110 at event 1
(Aug 22), $100 at events 2–5 (Sep 26, Oct 24, Nov 14, Dec 12); a $25 late fee on the December event's date and
the same day of each following month while dues stay unpaid; the next events Jan 23 and Feb 27, 2027.

A member who must pay to play at the next event gets one e-mail, the season's ``dues_reminder_days_ahead``
(7 unless changed) days before it, at most once per member and event."""

import datetime as dt
from decimal import Decimal

import pytest
from django.core.management import call_command
from django.db import IntegrityError, transaction

from events.models import Event, Season
from finance.models import DuesReminder
from finance.services.reminders import dues_reminders_plan, dues_reminders_send, reminder_window_open
from ncpc.core.models import MailDelivery
from tests.factories import MembershipFactory, PersonFactory, UserFactory
from tests.finance.factories import pay

D = Decimal
DEC_EVENT = dt.date(2026, 12, 12)


def day(text):
    return dt.date.fromisoformat(text)


@pytest.fixture
def members(db, season):
    """ann paid $410 (events 1–4), bob $510 (all dues), cal nothing, dee $450, eve nothing and has no e-mail."""
    actor = UserFactory(username="treasurer-bot")
    seats = {}
    for key, paid in (("ann", "410.00"), ("bob", "510.00"), ("cal", None), ("dee", "450.00"), ("eve", None)):
        person = PersonFactory(
            key=key, first_name=key.title(), last_name="Member", email=f"{key}@example.org"
        )
        if key == "eve":
            person.email = ""
            person.save()
        seats[key] = MembershipFactory(season=season, person=person)
        if paid:
            pay(membership=seats[key], day="2026-08-22", amount=paid, actor=actor)
    return seats


def sent_to_play():
    return {
        r.membership.person.key: r.to_play for r in DuesReminder.objects.select_related("membership__person")
    }


@pytest.mark.parametrize(
    ("on", "days_ahead", "open_"),
    [
        ("2026-12-04", 7, False),
        ("2026-12-05", 7, True),
        ("2026-12-11", 7, True),
        ("2026-12-12", 7, False),  # the event's day: the door list says it
        ("2026-12-08", 3, False),
        ("2026-12-09", 3, True),
    ],
)
def test_the_reminder_window_opens_days_ahead_and_closes_the_day_before(on, days_ahead, open_):
    assert reminder_window_open(event_date=DEC_EVENT, on=day(on), days_ahead=days_ahead) is open_


def test_seven_days_before_december_every_member_who_must_pay_to_play_gets_one(
    season, members, django_capture_on_commit_callbacks, mailoutbox, settings
):
    settings.SITE_URL = "https://ncpc.example"
    assert dues_reminders_send(season=season, on=day("2026-12-04"), actor=None) == []
    with django_capture_on_commit_callbacks(execute=True):
        sent = dues_reminders_send(season=season, on=day("2026-12-05"), actor=None)
    # ann: $510 of dues by Dec 12 less $410 paid; cal: all $510; dee: $510 less $450. bob is paid up; eve has
    # no e-mail address.
    assert sent_to_play() == {"ann": D("100.00"), "cal": D("510.00"), "dee": D("60.00")}
    assert len(sent) == 3
    ann = DuesReminder.objects.get(membership=members["ann"])
    assert ann.event.date == DEC_EVENT and ann.sent_by is None
    assert (ann.late_fee, ann.late_fee_date, ann.balance) == (D("25.00"), DEC_EVENT, D("0.00"))

    mail = {m.to[0]: m for m in mailoutbox}
    assert set(mail) == {"ann@example.org", "cal@example.org", "dee@example.org"}
    assert mail["ann@example.org"].subject == "NCPC dues: pay $100.00 to play on Dec 12"
    body = mail["ann@example.org"].body
    assert (
        f"Your statement on the club site: https://ncpc.example/finance/members/{members['ann'].pk}/" in body
    )
    assert "To play at the club's event on Saturday, December 12, 2026, please pay $100.00 by then" in body
    assert (
        "If $100.00 is not paid by December 12, 2026, a late fee of $25.00 will be charged that day" in body
    )
    assert "paid up" in body
    assert "If $510.00 is not paid by December 12, 2026" in mail["cal@example.org"].body
    dee = mail["dee@example.org"].body
    assert "please pay $60.00" in dee and "credit $40.00" in dee and "-40" not in dee and "−$40" not in dee
    assert MailDelivery.objects.filter(kind="dues_reminder").count() == 3


def test_a_member_is_reminded_once_per_event_however_often_it_runs(season, members):
    dues_reminders_send(season=season, on=day("2026-12-05"), actor=None)
    assert dues_reminders_send(season=season, on=day("2026-12-05"), actor=None) == []
    assert dues_reminders_send(season=season, on=day("2026-12-10"), actor=None) == []
    assert DuesReminder.objects.count() == 3
    assert MailDelivery.objects.filter(kind="dues_reminder").count() == 3
    first = DuesReminder.objects.first()
    with pytest.raises(IntegrityError), transaction.atomic():
        DuesReminder.objects.create(
            membership=first.membership, event=first.event, email="x@example.org", balance=0, body="again"
        )


def test_the_days_ahead_are_the_seasons_rule(season, members):
    Season.objects.filter(pk=season.pk).update(dues_reminder_days_ahead=3)
    season.refresh_from_db()
    assert dues_reminders_send(season=season, on=day("2026-12-08"), actor=None) == []
    assert len(dues_reminders_send(season=season, on=day("2026-12-09"), actor=None)) == 3


def test_after_december_the_reminder_names_the_late_fees_and_the_february_one(
    season, members, django_capture_on_commit_callbacks, mailoutbox
):
    dues_reminders_send(season=season, on=day("2026-12-05"), actor=None)
    with django_capture_on_commit_callbacks(execute=True):
        sent = dues_reminders_send(season=season, on=day("2027-01-16"), actor=None)
    january = Event.objects.get(season=season, date=dt.date(2027, 1, 23))
    assert {r.event for r in sent} == {january}
    ann = next(r for r in sent if r.membership == members["ann"])
    # $100 of dues unpaid since Dec 12, the late fees of Dec 12 and Jan 12: $150 to play on Jan 23; the next
    # $25 on Feb 12 unless the $100 of dues is paid.
    assert (ann.to_play, ann.late_fee, ann.late_fee_date) == (D("150.00"), D("25.00"), dt.date(2027, 2, 12))
    assert ann.balance == D("150.00")
    body = next(m.body for m in mailoutbox if m.to == ["ann@example.org"])
    assert "please pay $150.00" in body
    assert (
        "If $100.00 is not paid by February 12, 2027, a late fee of $25.00 will be charged that day" in body
    )
    # dee paid $450: $60 of dues and the two late fees.
    dee = next(r for r in sent if r.membership == members["dee"])
    assert dee.to_play == D("110.00")


def test_the_plan_lists_who_would_get_one_before_the_window_opens(season, members):
    plan = dues_reminders_plan(season=season, on=day("2026-11-29"))
    assert plan.event.date == DEC_EVENT and plan.opens_on == dt.date(2026, 12, 5) and not plan.window_open
    assert {d.membership.person.key: d.outlook.to_play for d in plan.due} == {
        "ann": D("100.00"),
        "cal": D("510.00"),
        "dee": D("60.00"),
        "eve": D("510.00"),
    }
    assert {d.membership.person.key for d in plan.to_send} == {"ann", "cal", "dee"}


def test_the_daily_command_sends_what_is_due_and_nothing_twice(season, members, capsys):
    call_command("send_dues_reminders", "--date", "2026-12-04")
    assert "queued 0 dues reminder(s)" in capsys.readouterr().out
    call_command("send_dues_reminders", "--date", "2026-12-05")
    assert "2026-12-05: queued 3 dues reminder(s)" in capsys.readouterr().out
    call_command("send_dues_reminders", "--date", "2026-12-06")
    assert "queued 0 dues reminder(s)" in capsys.readouterr().out
    assert DuesReminder.objects.count() == 3


def test_the_command_refuses_a_date_it_cannot_read(db):
    from django.core.management.base import CommandError

    with pytest.raises(CommandError, match="not a date"):
        call_command("send_dues_reminders", "--date", "5 Dec")


def test_the_reminders_page_shows_who_would_get_one_and_sends_now_once(client, season, members, treasurer):
    client.force_login(treasurer)
    page = client.get("/finance/reminders/").content.decode()
    assert "Event 5 · Saturday, Dec 12, 2026" in page
    assert "$510.00" in page and "$60.00" in page and "no e-mail address" in page
    assert "$25.00 on Dec 12 unless $100.00 is paid" in page
    # The treasurer's own seat owes $510 too: four would get one now.
    assert "Send 4 reminders now" in page
    response = client.post("/finance/reminders/", follow=True)
    assert "Queued 4 reminder(s)" in response.content.decode()
    # Each sent reminder is listed with how its e-mail went.
    assert (
        response.content.decode().count('<span class="badge text-bg-secondary">waiting to be sent</span>')
        == 4
    )
    again = client.post("/finance/reminders/", follow=True)
    assert "Nothing to send" in again.content.decode()
    assert DuesReminder.objects.count() == 4
    assert set(DuesReminder.objects.values_list("sent_by", flat=True)) == {treasurer.pk}


def test_the_reminder_greets_then_starts_a_sentence_and_ends_with_one_line_break(
    season, members, django_capture_on_commit_callbacks, mailoutbox, settings
):
    settings.SITE_URL = "https://ncpc.example"
    with django_capture_on_commit_callbacks(execute=True):
        dues_reminders_send(season=season, on=day("2026-12-05"), actor=None)
    body = next(m.body for m in mailoutbox if m.to == ["ann@example.org"])
    assert body.startswith(
        "Hello Ann,\n\nThis is a reminder from the NCPC treasurer.\n\n"
        "To play at the club's event on Saturday, December 12, 2026, please pay $100.00 by then"
    )
    assert body.endswith(
        f"Your statement on the club site: https://ncpc.example/finance/members/{members['ann'].pk}/\n\n"
        "Please pay the treasurer in cash or by check. A payment on or before an event's date counts for that "
        "event.\n\nThank you!\n"
    )
    assert "\n\n\n" not in body
