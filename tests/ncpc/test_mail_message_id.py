"""SPEC §17.9 (issue 43): each message has a Message-ID fixed when it is queued, so a message sent again after its
worker stopped mid-send is the same message (at least once, never two different messages)."""

import datetime as dt

import pytest
import time_machine
from django.core import mail
from django.core.mail import EmailMessage
from django.utils import timezone

from ncpc.core.mail import Mail, mail_deliver, mail_queue, mail_reclaim
from ncpc.core.models import MailDelivery

pytestmark = pytest.mark.django_db


class WorkerKilled(BaseException):
    """What a killed worker leaves behind: the message handed to the server, nothing recorded after it."""


def test_a_queued_message_keeps_one_message_id_under_the_senders_domain(
    settings, django_capture_on_commit_callbacks
):
    settings.DEFAULT_FROM_EMAIL = "NCPC <noreply@club.example>"
    with django_capture_on_commit_callbacks(execute=True):
        [delivery] = mail_queue(
            kind=MailDelivery.Kind.RESULTS, messages=[Mail(to="ann@example.org", subject="s", body="b")]
        )
    delivery.refresh_from_db()
    assert delivery.message_id.startswith("<") and delivery.message_id.endswith("@club.example>")
    [sent] = mail.outbox
    assert sent.message()["Message-ID"] == delivery.message_id


def test_a_message_sent_again_after_the_worker_was_killed_is_the_same_message(settings, monkeypatch):
    settings.EMAIL_TIMEOUT = 10
    send = EmailMessage.send

    def send_then_die(self, *args, **kwargs):
        send(self, *args, **kwargs)
        raise WorkerKilled

    [delivery] = mail_queue(
        kind=MailDelivery.Kind.RESULTS, messages=[Mail(to="ann@example.org", subject="Results", body="b")]
    )
    with monkeypatch.context() as killed:
        killed.setattr(EmailMessage, "send", send_then_die)
        with pytest.raises(WorkerKilled):
            mail_deliver.call(delivery_id=delivery.pk)
    delivery.refresh_from_db()
    assert (delivery.status, delivery.attempts) == ("sending", 1)

    # The sweep puts it back once the claim is stale; the immediate task backend sends it at once.
    with time_machine.travel(timezone.now() + dt.timedelta(seconds=21), tick=False):
        assert mail_reclaim() == [delivery.pk]
    delivery.refresh_from_db()
    assert (delivery.status, delivery.attempts) == ("sent", 2)
    first, second = mail.outbox
    assert first.message()["Message-ID"] == second.message()["Message-ID"] == delivery.message_id


def test_a_delivery_queued_before_message_ids_gets_one_kept_for_its_next_attempts():
    delivery = MailDelivery.objects.create(kind="results", to="ann@example.org", subject="s", body="b")
    assert delivery.message_id == ""
    mail_deliver.call(delivery_id=delivery.pk)
    delivery.refresh_from_db()
    assert delivery.message_id != ""
    assert mail.outbox[0].message()["Message-ID"] == delivery.message_id
