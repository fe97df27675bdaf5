"""Dues reminders: one action e-mails every member who owes money their statement, and keeps a record."""

import datetime as dt
import functools

from django.conf import settings
from django.core.mail import send_mail
from django.db import transaction
from django.template.loader import render_to_string

from events.models import Season
from finance.models import DuesReminder
from finance.selectors import season_dues_accounts
from ncpc.audit import Actor, actor_signed_in, audit_record


@transaction.atomic
def dues_reminders_send(*, season: Season, on: dt.date, actor: Actor) -> list[DuesReminder]:
    """Send (after commit) and record one reminder per seat with a balance on ``on``; members without an
    e-mail address are skipped."""
    sent: list[DuesReminder] = []
    for account in season_dues_accounts(season=season):
        holder = account.holder
        if holder.left_after_event is not None:
            continue
        status = account.status(on=on)
        if status.balance <= 0 or not holder.person.email:
            continue
        body = render_to_string(
            "finance/email/dues_reminder.txt",
            {"person": holder.person, "season": season, "status": status, "lines": account.statement(on=on)},
        )
        reminder = DuesReminder.objects.create(
            membership=holder,
            email=holder.person.email,
            balance=status.balance,
            body=body,
            sent_by=actor_signed_in(actor),
        )
        subject = f"NCPC dues: {status.balance} due as of {on:%b %-d, %Y}"
        transaction.on_commit(
            functools.partial(send_mail, subject, body, settings.DEFAULT_FROM_EMAIL, [holder.person.email])
        )
        sent.append(reminder)
    audit_record(
        actor=actor,
        action="finance.dues_reminders",
        summary=f"Dues reminders sent to {len(sent)} member(s) for {season}",
        data={"to": [r.email for r in sent]},
    )
    return sent
