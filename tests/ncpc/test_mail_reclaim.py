"""Mail is never lost (SPEC §16.12, issue 32 part 6): a delivery claimed longer than twice ``EMAIL_TIMEOUT`` goes
back to the queue with the attempt counted, whatever stopped the worker; a real worker killed mid-send."""

import datetime as dt
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import time_machine
from django.utils import timezone
from django_tasks import TaskResultStatus
from django_tasks_db.models import DBTaskResult

from ncpc.core.mail import STOPPED, mail_deliver, mail_reclaim, mail_reclaim_task
from ncpc.core.models import MailDelivery
from tests.ncpc.smtp import SilentServer, WorkingServer

DATABASE_TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend", "QUEUES": ["default"]}}
MANAGE = Path(__file__).resolve().parents[2] / "manage.py"
TASKS_TABLE = DBTaskResult._meta.db_table


def claimed(*, seconds_ago: float, attempts: int = 1, **fields) -> MailDelivery:
    """A delivery a worker claimed (``sending``) that many seconds ago."""
    with time_machine.travel(timezone.now() - dt.timedelta(seconds=seconds_ago), tick=False):
        return MailDelivery.objects.create(
            kind=fields.pop("kind", MailDelivery.Kind.RESULTS),
            to=fields.pop("to", "ann@example.org"),
            subject="Results of event 4",
            body="body",
            status=MailDelivery.Status.SENDING,
            attempts=attempts,
        )


def queued_deliveries() -> list[int]:
    return sorted(
        row.args_kwargs["kwargs"]["delivery_id"]
        for row in DBTaskResult.objects.filter(
            task_path=mail_deliver.module_path, status=TaskResultStatus.READY
        )
    )


def test_a_delivery_claimed_longer_than_twice_the_timeout_goes_back_to_the_queue_with_the_attempt_counted(
    settings, db
):
    settings.TASKS = DATABASE_TASKS
    settings.EMAIL_TIMEOUT = 20
    stuck = claimed(seconds_ago=41, attempts=2)
    sending = claimed(seconds_ago=39, to="bob@example.org")  # its worker may still be waiting on the server
    assert mail_reclaim() == [stuck.pk]
    stuck.refresh_from_db()
    assert (stuck.status, stuck.attempts, stuck.error) == ("retrying", 2, STOPPED)
    assert queued_deliveries() == [stuck.pk]
    sending.refresh_from_db()
    assert (sending.status, sending.attempts) == ("sending", 1)
    assert mail_reclaim() == []  # put back once


def test_a_stopped_last_attempt_is_listed_as_not_delivered(settings, db):
    settings.TASKS = DATABASE_TASKS
    settings.NCPC_MAIL_ATTEMPTS = 3
    last = claimed(seconds_ago=3600, attempts=3, kind=MailDelivery.Kind.PASSWORD_RESET)
    assert mail_reclaim() == []
    last.refresh_from_db()
    assert (last.status, last.error) == ("failed", f"gave up after 3 attempts: {STOPPED}")
    assert last.body == "(not kept: it held a password reset link)"
    assert queued_deliveries() == []


def test_each_send_queues_a_sweep_for_when_its_claim_would_be_stale(settings, db):
    settings.TASKS = DATABASE_TASKS
    settings.EMAIL_TIMEOUT = 20
    delivery = MailDelivery.objects.create(kind="results", to="ann@example.org", subject="s", body="b")
    mail_deliver.call(delivery_id=delivery.pk)
    mail_deliver.call(delivery_id=delivery.pk)  # one sweep waits, however many sends
    [sweep] = DBTaskResult.objects.filter(task_path=mail_reclaim_task.module_path)
    assert sweep.status == TaskResultStatus.READY
    assert sweep.run_after - sweep.enqueued_at >= dt.timedelta(seconds=40)


# --- a real worker, killed while it waits on the mail server --------------------------------------------------


def _rows(path: Path, sql: str) -> list[tuple]:
    with sqlite3.connect(path, timeout=20) as conn:
        return conn.execute(sql).fetchall()


def _wait_for(what: str, check, *, seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.05)


def test_a_worker_killed_mid_send_leaves_its_delivery_to_the_sweep_and_a_new_worker_delivers_it(tmp_path):
    """`manage.py db_worker` against a SQLite file: the first worker hangs on a mail server that never answers
    and is killed (SIGKILL); the delivery stays `sending`, its task `RUNNING`. A second worker runs the sweep
    once the claim is twice EMAIL_TIMEOUT old: the delivery goes back to the queue and is sent (attempt 2)."""
    database = tmp_path / "mail.sqlite3"
    silent, working = SilentServer(), WorkingServer()
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "ncpc.settings",
        "DJANGO_DEBUG": "1",
        "DATABASE_URL": f"sqlite:///{database}",
        "EMAIL_HOST": "127.0.0.1",
        "EMAIL_PORT": str(silent.port),
        "EMAIL_USE_TLS": "0",
        "EMAIL_HOST_USER": "",
        "EMAIL_HOST_PASSWORD": "",
        "EMAIL_TIMEOUT": "3",
    }
    manage = [sys.executable, str(MANAGE)]
    worker_command = [*manage, "db_worker", "--no-reload", "--no-startup-delay", "--interval", "0.1"]
    workers: list[subprocess.Popen] = []
    try:
        subprocess.run([*manage, "migrate", "--noinput", "-v", "0"], env=env, check=True, timeout=300)
        queue = (
            "from django.db import transaction\n"
            "from ncpc.core.mail import Mail, mail_queue\n"
            "with transaction.atomic():\n"
            "    mail_queue(kind='results', messages=[Mail(to='ann@example.org', subject='Event 4', body='Hi')])\n"
        )
        subprocess.run([*manage, "shell", "-c", queue], env=env, check=True, timeout=60)

        log = (tmp_path / "worker-1.log").open("w")
        workers.append(subprocess.Popen(worker_command, env=env, stdout=log, stderr=subprocess.STDOUT))
        delivery = "SELECT status, attempts, error FROM ncpc_maildelivery"
        _wait_for(
            "the claim", lambda: _rows(database, delivery)[0][0] == "sending" and silent.held, seconds=30
        )
        workers[0].send_signal(signal.SIGKILL)
        workers[0].wait(timeout=10)
        tasks = f"SELECT task_path, status FROM {TASKS_TABLE} ORDER BY enqueued_at"
        assert _rows(database, delivery) == [("sending", 1, "")]
        assert (mail_deliver.module_path, "RUNNING") in _rows(database, tasks)

        log = (tmp_path / "worker-2.log").open("w")
        workers.append(
            subprocess.Popen(
                worker_command,
                env={**env, "EMAIL_PORT": str(working.port)},
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        )
        _wait_for("the delivery", lambda: _rows(database, delivery)[0][0] == "sent", seconds=60)
        assert _rows(database, delivery) == [("sent", 2, "")]
        [(_sender, recipients, message)] = working.received
        assert (recipients, message["Subject"]) == (["ann@example.org"], "Event 4")
        [(failed, traceback)] = _rows(
            database,
            f"SELECT exception_class_path, traceback FROM {TASKS_TABLE} "
            f"WHERE task_path = '{mail_deliver.module_path}' AND status = 'FAILED'",
        )
        assert failed == "ncpc.core.mail.MailWorkerStopped" and STOPPED in traceback
        workers[1].send_signal(signal.SIGTERM)  # stops once its task is done
        workers[1].wait(timeout=30)
        assert "RUNNING" not in [status for _path, status in _rows(database, tasks)]
    finally:
        for worker in workers:
            if worker.poll() is None:
                worker.kill()
                worker.wait(timeout=10)
        silent.close()
        working.close()
