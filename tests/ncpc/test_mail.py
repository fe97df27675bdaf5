"""Mail through the task queue (issue 18): a silent mail server never holds a page, every message is one
recipient's, recorded, retried, and officers see what was not delivered."""

import datetime as dt
import threading
import time
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.core import mail
from django.core.management import call_command
from django.utils import timezone

from ncpc.core.mail import Mail, mail_deliver, mail_queue
from ncpc.core.models import MailDelivery
from tests.factories import member_user
from tests.ncpc.smtp import SilentServer, WorkingServer

DATABASE_TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend", "QUEUES": ["default"]}}


def smtp_settings(settings, port):
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST = "127.0.0.1"
    settings.EMAIL_PORT = port
    settings.EMAIL_USE_TLS = False
    settings.EMAIL_HOST_USER = ""
    settings.EMAIL_TIMEOUT = 1


def run_worker():
    """What `manage.py db_worker` does, until no task is ready (then it returns)."""
    call_command("db_worker", batch=True, reload=False, startup_delay=False, interval=0, verbosity=0)


def worker_loop():
    """The same worker loop in a thread (a management command sets signal handlers: main thread only)."""
    from django_tasks_db.management.commands.db_worker import Worker

    try:
        Worker(
            queue_names=["default"],
            interval=0,
            batch=True,
            backend_name="default",
            startup_delay=False,
            max_tasks=None,
            worker_id="test-thread",
            excluded_queue_names=[],
        ).run()
    finally:
        from django.db import connection

        connection.close()


def timed(fn):
    start = time.monotonic()
    result = fn()
    return result, time.monotonic() - start


@pytest.mark.django_db(transaction=True)
def test_a_mail_server_that_never_answers_holds_no_page_and_the_mail_goes_when_a_server_returns(
    settings, client, season
):
    """Issue 18's done-when: /healthz and the pages answer at once while mail waits; delivered later."""
    settings.TASKS = DATABASE_TASKS
    user = member_user(season=season, username="rick")
    silent = SilentServer()
    working = None
    try:
        smtp_settings(settings, silent.port)
        response, took = timed(
            lambda: client.post("/accounts/password_reset/", {"email": "rick@example.org"})
        )
        assert response.status_code == 302
        assert took < 1.0
        delivery = MailDelivery.objects.get()
        assert (delivery.kind, delivery.to, delivery.status) == (
            "password_reset",
            "rick@example.org",
            "queued",
        )
        assert "/accounts/reset/" in delivery.body

        # The worker is stuck on the silent server (EMAIL_TIMEOUT) while the site goes on answering.
        worker = threading.Thread(target=worker_loop)
        worker.start()
        time.sleep(0.2)
        health, took = timed(lambda: client.get("/healthz"))
        assert (health.status_code, health.content, took < 0.5) == (200, b"ok", True)
        client.force_login(user)
        page, took = timed(lambda: client.get("/"))
        assert (page.status_code, took < 1.0) == (200, True)
        worker.join(timeout=30)
        assert not worker.is_alive()

        delivery.refresh_from_db()
        assert delivery.status == "retrying"
        assert delivery.attempts == 1
        assert delivery.error == "the mail server did not answer in time"
        assert delivery.next_attempt_at > timezone.now()

        # A working server is back; the retry (queued for later) runs when its time comes.
        working = WorkingServer()
        smtp_settings(settings, working.port)
        run_worker()  # nothing is due yet
        assert working.received == []
        with time_machine.travel(delivery.next_attempt_at + dt.timedelta(seconds=1), tick=True):
            run_worker()
        delivery.refresh_from_db()
        assert (delivery.status, delivery.attempts, delivery.error) == ("sent", 2, "")
        assert delivery.body == "(not kept: it held a password reset link)"
        [(sender, recipients, message)] = working.received
        assert recipients == ["rick@example.org"]
        assert "/accounts/reset/" in message.get_payload()
    finally:
        silent.close()
        if working:
            working.close()


@pytest.mark.django_db(transaction=True)
def test_dues_reminders_and_a_finish_return_at_once_with_a_silent_mail_server(
    settings, client, season, today, monkeypatch
):
    from events.services.results import bust_record, results_finish
    from finance.models import DuesReminder
    from tests.events.factories import night_make

    settings.TASKS = DATABASE_TASKS
    treasurer = member_user(season=season, username="tom", office="treasurer")
    silent = SilentServer()
    try:
        smtp_settings(settings, silent.port)
        client.force_login(treasurer)
        response, took = timed(lambda: client.post("/finance/reminders/"))
        assert response.status_code == 302
        assert took < 2.0
        reminders = DuesReminder.objects.count()
        assert reminders >= 1
        assert MailDelivery.objects.filter(kind="dues_reminder", status="queued").count() == reminders

        monkeypatch.setattr("events.hooks.good_standing.answer", lambda *, membership, on: True)
        monkeypatch.setattr("events.hooks.rules_signed.answer", lambda *, membership: True)
        event, seats = night_make(season=season, number=1, players=3)
        for key in [k for k in seats if k != "a"]:
            event.refresh_from_db()
            bust_record(
                event=event, attendance_ids=[seats[key].pk], version=event.results_version, actor=None
            )
        event.refresh_from_db()
        # Made final on event 1's night (Aug 22): a night entered later is not e-mailed (issue 47).
        night = dt.datetime(2026, 8, 22, 23, 0, tzinfo=ZoneInfo("America/New_York"))
        with time_machine.travel(night, tick=False):
            _, took = timed(lambda: results_finish(event=event, version=event.results_version, actor=None))
        assert took < 2.0
        queued = MailDelivery.objects.filter(kind="results", status="queued")
        assert queued.count() == event.season.memberships.exclude(person__email="").count()
    finally:
        silent.close()


def test_one_refused_recipient_does_not_stop_the_others(settings, db, django_capture_on_commit_callbacks):
    server = WorkingServer(refuse={"gone@example.org"})
    try:
        smtp_settings(settings, server.port)
        with django_capture_on_commit_callbacks(execute=True):
            mail_queue(
                kind=MailDelivery.Kind.RESULTS,
                messages=[
                    Mail(to=address, subject="NCPC results", body="Places")
                    for address in ("ann@example.org", "gone@example.org", "bob@example.org")
                ],
            )
        by_address = {d.to: d for d in MailDelivery.objects.all()}
        assert by_address["ann@example.org"].status == "sent"
        assert by_address["bob@example.org"].status == "sent"
        refused = by_address["gone@example.org"]
        assert refused.status == "failed"
        assert refused.error == "refused by the mail server: 550 5.1.1 No such mailbox here"
        assert refused.next_attempt_at is None  # refused for good: not tried again
        assert sorted(r for _, recipients, _ in server.received for r in recipients) == [
            "ann@example.org",
            "bob@example.org",
        ]
    finally:
        server.close()


def test_an_address_that_is_not_valid_is_recorded_and_the_others_go(db, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        mail_queue(
            kind=MailDelivery.Kind.BALLOT,
            messages=[
                Mail(to="ann@example.org", subject="Vote", body="x"),
                Mail(to="bob@", subject="Vote", body="x"),
            ],
        )
    assert [m.to for m in mail.outbox] == [["ann@example.org"]]
    bad = MailDelivery.objects.get(to="bob@")
    assert (bad.status, bad.error, bad.attempts) == ("failed", "'bob@' is not a valid e-mail address.", 0)


def test_a_temporary_failure_is_retried_with_growing_waits_then_given_up(
    settings, db, monkeypatch, django_capture_on_commit_callbacks
):
    from django.core.mail.backends.locmem import EmailBackend

    settings.NCPC_MAIL_ATTEMPTS = 3

    def down(self, messages):
        raise ConnectionRefusedError(111, "Connection refused")

    monkeypatch.setattr(EmailBackend, "send_messages", down)
    with django_capture_on_commit_callbacks(execute=True):
        [delivery] = mail_queue(
            kind=MailDelivery.Kind.RESULTS, messages=[Mail(to="ann@example.org", subject="s", body="b")]
        )
    waits = []
    for _ in range(2):
        delivery.refresh_from_db()
        assert delivery.status == "retrying"
        waits.append(round((delivery.next_attempt_at - delivery.updated_at).total_seconds() / 60))
        mail_deliver.call(delivery_id=delivery.pk)
    delivery.refresh_from_db()
    assert waits == [1, 5]
    assert delivery.status == "failed"
    assert delivery.error.startswith("gave up after 3 attempts: ConnectionRefusedError")


def test_a_delivery_already_sent_is_not_sent_twice(db, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        [delivery] = mail_queue(
            kind=MailDelivery.Kind.RESULTS, messages=[Mail(to="a@example.org", subject="s", body="b")]
        )
    assert mail_deliver.call(delivery_id=delivery.pk) == "sent"
    assert len(mail.outbox) == 1


# --- the officers' page ---


def test_officers_see_undelivered_mail_from_the_navigation_and_send_it_again(
    client, vice_president, db, django_capture_on_commit_callbacks
):
    MailDelivery.objects.create(
        kind="results",
        to="ann@example.org",
        subject="NCPC results",
        body="b",
        status="failed",
        error="550 gone",
    )
    MailDelivery.objects.create(kind="password_reset", to="bob@example.org", subject="Reset", status="failed")
    client.force_login(vice_president)
    home = client.get("/")
    assert 'href="/mail/"' in home.content.decode()
    page = client.get("/mail/")
    text = page.content.decode()
    assert "ann@example.org" in text and "550 gone" in text and "bob@example.org" in text
    assert text.count("Send again") == 1  # a password reset is asked for again by the member
    failed = MailDelivery.objects.get(to="ann@example.org")
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(f"/mail/{failed.pk}/send-again/", {"show": "failed"})
    assert response.status_code == 302 and response["Location"] == "/mail/?show=failed"
    failed.refresh_from_db()
    assert failed.status == "sent"
    assert [m.to for m in mail.outbox] == [["ann@example.org"]]
    reset = MailDelivery.objects.get(to="bob@example.org")
    assert client.post(f"/mail/{reset.pk}/send-again/").status_code == 302
    reset.refresh_from_db()
    assert reset.status == "failed"


def test_members_do_not_see_the_mail_page(member_client):
    assert member_client.get("/mail/").status_code == 403
    assert member_client.post("/mail/1/send-again/").status_code == 403


def test_the_mail_page_shows_what_waits(client, vice_president):
    MailDelivery.objects.create(
        kind="results", to="ann@example.org", subject="s", status="retrying", error="busy"
    )
    client.force_login(vice_president)
    assert "ann@example.org" in client.get("/mail/?show=waiting").content.decode()
    assert "ann@example.org" not in client.get("/mail/").content.decode()
    assert client.get("/mail/?show=nonsense&page=x").status_code == 200


# --- ballots ---


def test_opening_a_ballot_emails_every_member_who_may_vote(
    season, president, django_capture_on_commit_callbacks, settings
):
    settings.SITE_URL = "https://ncpc.example"
    from members.models import Person
    from members.services.ballots import (
        ballot_open,
        rule_ballot_preparing,
        rule_change_accept,
        rule_change_submit,
    )

    change = rule_change_submit(
        season=season, person=Person.objects.get(user=president), suggestion="Raise the dues", on=season.start
    )
    rule_change_accept(change=change, title="Dues are $400", on=season.start, actor=president)
    ballot = rule_ballot_preparing(season=season, actor=president)
    with django_capture_on_commit_callbacks(execute=True):
        ballot_open(ballot=ballot, on=season.start, actor=president)
    assert [m.to for m in mail.outbox] == [["pres@example.org"]]
    assert mail.outbox[0].subject.startswith("NCPC vote open:")
    assert "Dues are $400" in mail.outbox[0].body
    assert f"Club votes: https://ncpc.example/members/votes/ballots/{ballot.pk}/" in mail.outbox[0].body
    assert MailDelivery.objects.get().kind == "ballot"
