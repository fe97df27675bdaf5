"""Every e-mail the app sends: queued in the caller's transaction, sent by the task worker after it commits.

A request never talks to the mail server: ``mail_queue`` records one ``MailDelivery`` per recipient and
enqueues a task for each once the transaction commits (``manage.py db_worker`` runs them). The task sends the
one message with ``EMAIL_TIMEOUT``; a temporary failure (no answer, connection refused, a 4xx reply) is
tried again after a growing wait, a permanent one (an address the server refuses with a 5xx reply) is
recorded with the server's reason and never blocks the other recipients. Officers see what was not delivered
on the "Mail deliveries" page and can send it again.

A worker that stops while sending (killed, the machine lost) leaves its delivery claimed: a sweep, queued by
every claim to run once the claim is over twice ``EMAIL_TIMEOUT`` old, puts it back in the queue with the
attempt counted (SPEC §16.12), and marks the stopped task as failed. Such a message may go out twice (at
least once is the promise), but as the same message: its Message-ID is fixed when it is queued (SPEC §17.9).
"""

import datetime as dt
import functools
import logging
import smtplib
from collections.abc import Sequence
from dataclasses import dataclass
from email.utils import formataddr, parseaddr

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.mail import EmailMessage, get_connection, make_msgid
from django.core.validators import validate_email
from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django_tasks import TaskResultStatus, task
from django_tasks_db.models import DBTaskResult

from ncpc.core.identity import club_identity
from ncpc.core.models import MailDelivery

logger = logging.getLogger(__name__)

# Password reset links are not kept once the message is settled: the link opens the account.
NOT_KEPT = "(not kept: it held a password reset link)"


def site_link(path: str) -> str:
    """The address of a page of the site for an e-mail: ``SITE_URL`` + the path (the path alone when unset)."""
    return f"{settings.SITE_URL}{path}"


@dataclass(frozen=True)
class Mail:
    to: str
    subject: str
    body: str


def email_problem(address: str) -> str | None:
    """Why ``address`` cannot be mailed, or None when it looks deliverable (Django's EmailValidator)."""
    try:
        validate_email(address)
    except ValidationError:
        return f"{address!r} is not a valid e-mail address."
    return None


def mail_from_address() -> str:
    """The address every e-mail is sent from: ``DEFAULT_FROM_EMAIL`` (set by whoever runs the server; a name
    written there is not used)."""
    return parseaddr(settings.DEFAULT_FROM_EMAIL)[1]


def mail_domain() -> str:
    """The domain of the sender's address: the club's own on the internet (Message-IDs, calendar UIDs)."""
    return mail_from_address().rpartition("@")[2].lower() or "club.invalid"


def mail_from() -> str:
    """The From of every e-mail: the club's name (its identity page) and the configured address, quoted and
    encoded as RFC 5322 wants ('"Smith, Jones & Co" <noreply@club.example>', a non-ASCII name as =?utf-8?...)."""
    return formataddr((club_identity().name, mail_from_address()))


def message_id_make() -> str:
    """A new Message-ID, under the domain of ``DEFAULT_FROM_EMAIL`` (not the machine's name, which Django would
    look up in the DNS)."""
    return make_msgid(domain=mail_domain())


def mail_queue(*, kind: str, messages: Sequence[Mail], reference: str = "") -> list[MailDelivery]:
    """Record one delivery per message, each with its Message-ID, and send each after the current transaction
    commits.

    An address that is not valid is recorded as not delivered at once (its reason says so); the others go.
    """
    rows = []
    for message in messages:
        problem = email_problem(message.to)
        rows.append(
            MailDelivery(
                kind=kind,
                to=message.to[:254],
                subject=message.subject[:200],
                body=message.body,
                reference=reference[:80],
                status=MailDelivery.Status.FAILED if problem else MailDelivery.Status.QUEUED,
                error=problem or "",
                message_id=message_id_make(),
            )
        )
    created = MailDelivery.objects.bulk_create(rows)
    for row in created:
        if row.status == MailDelivery.Status.QUEUED:
            transaction.on_commit(functools.partial(_enqueue, delivery_id=row.pk))
    return created


def _enqueue(*, delivery_id: int, run_after: dt.datetime | None = None) -> None:
    try:
        if run_after is None:
            mail_deliver.enqueue(delivery_id=delivery_id)
        else:
            mail_deliver.using(run_after=run_after).enqueue(delivery_id=delivery_id)
    except Exception:  # the delivery stays "waiting": officers see it and can send it again
        logger.exception("Could not queue mail delivery %s", delivery_id)


def _permanent(exc: Exception) -> bool:
    """A 5xx reply refuses for good (bad address, message refused); anything else may pass later."""
    if isinstance(exc, smtplib.SMTPRecipientsRefused):
        return all(code >= 500 for code, _ in exc.recipients.values())
    if isinstance(exc, smtplib.SMTPResponseException):
        return exc.smtp_code >= 500
    return False


def _text(value: bytes | str) -> str:
    return value.decode(errors="replace") if isinstance(value, bytes) else value


def _reason(exc: Exception) -> str:
    if isinstance(exc, smtplib.SMTPRecipientsRefused):
        code, text = next(iter(exc.recipients.values()))
        return f"refused by the mail server: {code} {_text(text)}"
    if isinstance(exc, smtplib.SMTPResponseException):
        return f"refused by the mail server: {exc.smtp_code} {_text(exc.smtp_error)}"
    if isinstance(exc, TimeoutError) or str(exc).endswith("timed out"):
        return "the mail server did not answer in time"
    return f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__


def _settle(
    *, delivery: MailDelivery, status: str, error: str = "", retry_at: dt.datetime | None = None
) -> None:
    delivery.status = status
    delivery.error = error[:500]
    delivery.next_attempt_at = retry_at
    fields = ["status", "error", "next_attempt_at", "updated_at"]
    if status == MailDelivery.Status.SENT:
        delivery.sent_at = timezone.now()
        fields.append("sent_at")
    if delivery.kind == MailDelivery.Kind.PASSWORD_RESET and status in (
        MailDelivery.Status.SENT,
        MailDelivery.Status.FAILED,
    ):
        delivery.body = NOT_KEPT
        fields.append("body")
    delivery.save(update_fields=fields)


@task()
def mail_deliver(*, delivery_id: int) -> str:
    """Send one recorded message (the worker runs this). Returns the delivery's status."""
    # Before claiming: should this worker stop while sending, the sweep will put the delivery back.
    _sweep_schedule(after=timezone.now())
    # Claim it with one UPDATE, outside any long transaction: the mail server may take EMAIL_TIMEOUT seconds,
    # and no lock is held meanwhile. A delivery already sent, failed or claimed by another worker is left.
    claimed = MailDelivery.objects.filter(
        pk=delivery_id, status__in=(MailDelivery.Status.QUEUED, MailDelivery.Status.RETRYING)
    ).update(status=MailDelivery.Status.SENDING, attempts=F("attempts") + 1, updated_at=timezone.now())
    delivery = MailDelivery.objects.filter(pk=delivery_id).first()
    if not claimed or delivery is None:
        return delivery.status if delivery else "missing"
    if (
        not delivery.message_id
    ):  # queued before deliveries had one: fixed at its first attempt (it is claimed)
        delivery.message_id = message_id_make()
        MailDelivery.objects.filter(pk=delivery.pk).update(message_id=delivery.message_id)
    message = EmailMessage(
        delivery.subject,
        delivery.body,
        mail_from(),  # the club's name as it is when the message leaves
        [delivery.to],
        connection=get_connection(timeout=settings.EMAIL_TIMEOUT),
        headers={"Message-ID": delivery.message_id},
    )
    try:
        message.send()
    except Exception as exc:  # every failure is recorded on the delivery; none reaches a page
        reason = _reason(exc)
        if _permanent(exc):
            _settle(delivery=delivery, status=MailDelivery.Status.FAILED, error=reason)
        elif delivery.attempts >= settings.NCPC_MAIL_ATTEMPTS:
            _settle(
                delivery=delivery,
                status=MailDelivery.Status.FAILED,
                error=f"gave up after {delivery.attempts} attempts: {reason}",
            )
        else:
            waits = settings.NCPC_MAIL_BACKOFF_MINUTES
            wait = dt.timedelta(minutes=waits[min(delivery.attempts, len(waits)) - 1])
            retry_at = timezone.now() + wait
            _settle(delivery=delivery, status=MailDelivery.Status.RETRYING, error=reason, retry_at=retry_at)
            if mail_deliver.get_backend().supports_defer:
                _enqueue(delivery_id=delivery.pk, run_after=retry_at)
        logger.warning("Mail delivery %s to %s: %s", delivery.pk, delivery.to, reason)
        return delivery.status
    _settle(delivery=delivery, status=MailDelivery.Status.SENT)
    return delivery.status


# --- Claims of a stopped worker (SPEC §16.12) ---

STOPPED = "the mail worker stopped while sending"
# A sweep runs a moment after the claims it looks after become stale, not at the very instant.
_SWEEP_MARGIN = dt.timedelta(seconds=1)


class MailWorkerStopped(RuntimeError):
    """Recorded on the task of a delivery whose worker stopped while sending it."""


def _claim_limit() -> dt.timedelta:
    """How long a delivery may stay claimed: a worker gives up on the server after ``EMAIL_TIMEOUT`` seconds
    without an answer; twice that, and the worker itself stopped."""
    return dt.timedelta(seconds=2 * settings.EMAIL_TIMEOUT)


def _sweep_schedule(*, after: dt.datetime) -> None:
    """Make sure a sweep will run once a delivery claimed at ``after`` is stale (a sweep already waiting runs
    before that, and queues the next one itself). Nothing with a backend that runs tasks at once: no worker."""
    if not mail_reclaim_task.get_backend().supports_defer:
        return
    if DBTaskResult.objects.filter(
        task_path=mail_reclaim_task.module_path, status=TaskResultStatus.READY
    ).exists():
        return
    run_after = after + _claim_limit() + _SWEEP_MARGIN
    try:
        mail_reclaim_task.using(run_after=run_after).enqueue()
    except Exception:  # the claim goes on; the next delivery queues a sweep again
        logger.exception("Could not queue the mail sweep")


def _task_stopped(*, delivery_ids: Sequence[int]) -> None:
    """The tasks still "running" that sent these deliveries: their worker stopped; record them as failed."""
    wanted = set(delivery_ids)
    running = DBTaskResult.objects.filter(task_path=mail_deliver.module_path, status=TaskResultStatus.RUNNING)
    for row in running:
        kwargs = (row.args_kwargs or {}).get("kwargs") or {}
        if kwargs.get("delivery_id") in wanted:
            row.set_failed(MailWorkerStopped(STOPPED))


def mail_reclaim() -> list[int]:
    """Put back in the queue every delivery claimed longer than twice ``EMAIL_TIMEOUT`` (its worker stopped,
    whatever stopped it), the attempt counted: retried at once, or given up when it was the last attempt.
    Returns the deliveries queued again. Safe to run in several workers at once: each delivery goes back once."""
    now = timezone.now()
    stale = list(
        MailDelivery.objects.filter(
            status=MailDelivery.Status.SENDING, updated_at__lt=now - _claim_limit()
        ).values_list("pk", "attempts", "kind", "updated_at")
    )
    queued: list[int] = []
    for pk, attempts, kind, claimed_at in stale:
        gave_up = attempts >= settings.NCPC_MAIL_ATTEMPTS
        status = MailDelivery.Status.FAILED if gave_up else MailDelivery.Status.RETRYING
        changes: dict[str, object] = {
            "status": status,
            "error": f"gave up after {attempts} attempts: {STOPPED}" if gave_up else STOPPED,
            "next_attempt_at": None if gave_up else now,
            "updated_at": now,
        }
        if gave_up and kind == MailDelivery.Kind.PASSWORD_RESET:
            changes["body"] = NOT_KEPT
        # Only if still that claim: another sweep, or the worker finishing after all, wins.
        if MailDelivery.objects.filter(
            pk=pk, status=MailDelivery.Status.SENDING, updated_at=claimed_at
        ).update(**changes):
            logger.warning("Mail delivery %s: %s (attempt %s)", pk, STOPPED, attempts)
            if not gave_up:
                queued.append(pk)
    if stale:
        _task_stopped(delivery_ids=[pk for pk, *_ in stale])
    for pk in queued:
        _enqueue(delivery_id=pk)
    return queued


@task()
def mail_reclaim_task() -> int:
    """The sweep the worker runs (queued by ``mail_deliver``): ``mail_reclaim``, then the next sweep while a
    delivery is still being sent. Returns how many deliveries went back to the queue."""
    queued = mail_reclaim()
    oldest = (
        MailDelivery.objects.filter(status=MailDelivery.Status.SENDING)
        .order_by("updated_at")
        .values_list("updated_at", flat=True)
        .first()
    )
    if oldest is not None:
        _sweep_schedule(after=oldest)
    return len(queued)


@transaction.atomic
def mail_send_again(*, delivery: MailDelivery) -> bool:
    """An officer sends a message again (the address was fixed, the server is back). Password resets are not
    sent again: their link is not kept, and the member can ask for a new one. Returns whether it was queued."""
    locked = MailDelivery.objects.select_for_update().get(pk=delivery.pk)
    if locked.kind == MailDelivery.Kind.PASSWORD_RESET or locked.status == MailDelivery.Status.SENT:
        return False
    problem = email_problem(locked.to)
    if problem:
        return False
    locked.status = MailDelivery.Status.QUEUED
    locked.error = ""
    locked.next_attempt_at = None
    locked.attempts = 0
    locked.save(update_fields=["status", "error", "next_attempt_at", "attempts", "updated_at"])
    transaction.on_commit(functools.partial(_enqueue, delivery_id=locked.pk))
    return True


def deliveries_by_reference(*, references: Sequence[str]) -> dict[str, MailDelivery]:
    """The latest delivery for each reference (a page showing what it sent and how it went)."""
    found: dict[str, MailDelivery] = {}
    for row in MailDelivery.objects.filter(reference__in=list(references)).order_by("created_at", "pk"):
        found[row.reference] = row
    return found
