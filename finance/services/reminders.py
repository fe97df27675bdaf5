"""Dues reminders: one action e-mails every member who owes money their statement, and keeps a record."""

import datetime as dt

from django.db import transaction
from django.template.loader import render_to_string

from events.models import Season
from finance.models import DuesReminder
from finance.selectors import season_dues_accounts
from ncpc.audit import Actor, actor_signed_in, audit_record
from ncpc.mail import Mail, mail_queue
from ncpc.models import MailDelivery


@transaction.atomic
def dues_reminders_send(*, season: Season, on: dt.date, actor: Actor) -> list[DuesReminder]:
    """Record one reminder per seat with a balance on ``on`` and queue its e-mail (the task worker sends it
    after this commits: whether it was delivered shows on the officers' "Mail deliveries" page); members
    without an e-mail address are skipped."""
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
        mail_queue(
            kind=MailDelivery.Kind.DUES_REMINDER,
            messages=[Mail(to=holder.person.email, subject=subject, body=body)],
            reference=f"reminder:{reminder.pk}",
        )
        sent.append(reminder)
    audit_record(
        actor=actor,
        action="finance.dues_reminders",
        summary=f"Dues reminders queued for {len(sent)} member(s) for {season}",
        data={"to": [r.email for r in sent]},
    )
    return sent
