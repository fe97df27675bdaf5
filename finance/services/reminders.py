"""Dues reminders from the forecast (``finance.services.forecast``): every member who cannot play at the next
event without paying gets one e-mail saying what to pay by then and the late fee ahead, the season's
``dues_reminder_days_ahead`` days before the event, at most once per member and event (a database constraint).

``manage.py send_dues_reminders`` runs it daily from cron; the officers' Reminders page shows who would get one
and can send them at once.
"""

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal

from django.db import transaction
from django.template.loader import render_to_string
from django.urls import reverse

from events.models import Event, Season
from events.selectors import season_events, season_rules
from finance.models import DuesReminder
from finance.selectors.dues import DuesAccount, account_outlook, season_dues_accounts
from finance.services.dues import StatementLine
from finance.services.forecast import DuesOutlook
from members.models import Membership
from ncpc.core.audit import Actor, actor_user, audit_record
from ncpc.core.identity import club_identity
from ncpc.core.mail import Mail, mail_queue, site_link
from ncpc.core.models import MailDelivery
from ncpc.core.money import credit_display, money_display


def reminder_window_open(*, event_date: dt.date, on: dt.date, days_ahead: int) -> bool:
    """Pure: reminders for the event on ``event_date`` go out from ``days_ahead`` days before it up to the day
    before (on the day itself the member is told at the door)."""
    return on < event_date and (event_date - on).days <= days_ahead


def balance_text(value: Decimal) -> str:
    """Pure: a balance as the pages show it: "$410.00", a credit as "credit $40.00", zero as "$0.00"."""
    return credit_display(-value) if value < 0 else money_display(value)


def statement_text(*, lines: Sequence[StatementLine]) -> list[tuple[dt.date, str, str, str]]:
    """Pure: the statement's lines for a plain-text e-mail: date, what, amount (payments as "paid $…"), balance."""
    return [
        (
            line.date,
            line.description,
            money_display(line.charge) if line.charge is not None else f"paid {money_display(line.payment)}",
            balance_text(line.balance),
        )
        for line in lines
    ]


def reminder_subject(*, outlook: DuesOutlook, club_short_name: str) -> str:
    """Pure: the e-mail's subject, money written the one way pages write it."""
    if outlook.next_event is None:
        raise ValueError("a dues reminder needs an event ahead")
    return (
        f"{club_short_name} dues: pay {money_display(outlook.to_play)} to play on {outlook.next_event:%b %-d}"
    )


@dataclass(frozen=True)
class ReminderDue:
    """A member who must pay to play at the season's next event, and whether they were reminded already."""

    membership: Membership
    account: DuesAccount
    outlook: DuesOutlook
    event: Event
    sent: DuesReminder | None

    @property
    def email(self) -> str:
        return self.membership.person.email or ""


@dataclass(frozen=True)
class ReminderPlan:
    """Who must pay to play at the next event on ``on``, and when the reminders for it go out."""

    on: dt.date
    event: Event | None
    days_ahead: int
    due: list[ReminderDue]

    @property
    def opens_on(self) -> dt.date | None:
        return self.event.date - dt.timedelta(days=self.days_ahead) if self.event else None

    @property
    def window_open(self) -> bool:
        return self.event is not None and reminder_window_open(
            event_date=self.event.date, on=self.on, days_ahead=self.days_ahead
        )

    @property
    def to_send(self) -> list[ReminderDue]:
        return [d for d in self.due if d.sent is None and d.email]


def dues_reminders_plan(*, season: Season, on: dt.date) -> ReminderPlan:
    """Every member of the season (who has not left) whose forecast on ``on`` says they must pay to play at the
    next event, by name; with the reminder already sent for that event, if any."""
    rules = season_rules(season)
    events = list(season_events(season=season))
    upcoming = [e for e in events if e.date >= on]
    event = min(upcoming, key=lambda e: (e.date, e.number)) if upcoming else None
    if event is None:
        return ReminderPlan(on=on, event=None, days_ahead=rules.dues_reminder_days_ahead, due=[])
    sent = {r.membership_id: r for r in DuesReminder.objects.filter(event=event).select_related("sent_by")}
    due = []
    for account in season_dues_accounts(season=season, rules=rules, events=events):
        holder = account.holder
        if holder.left_after_event is not None:
            continue
        outlook = account_outlook(account=account, on=on, events=events)
        if outlook.next_event != event.date or outlook.to_play <= 0:
            continue
        due.append(
            ReminderDue(
                membership=holder, account=account, outlook=outlook, event=event, sent=sent.get(holder.pk)
            )
        )
    return ReminderPlan(on=on, event=event, days_ahead=rules.dues_reminder_days_ahead, due=due)


@transaction.atomic
def dues_reminders_send(
    *, season: Season, on: dt.date, actor: Actor, window: bool = True
) -> list[DuesReminder]:
    """Record and queue one reminder for each member who must pay to play at the next event and was not
    reminded for it yet (the task worker sends the mail after this commits; the officers' "Mail deliveries"
    page says whether it was delivered). Members without an e-mail address are skipped.

    ``window``: only inside the season's ``dues_reminder_days_ahead`` before the event (the daily command);
    an officer who presses "Send now" sends at once (``window=False``). Running it again sends nothing new."""
    plan = dues_reminders_plan(season=season, on=on)
    if plan.event is None or (window and not plan.window_open):
        return []
    # Two runs at once (cron and an officer) wait for each other here; the second sees the first's reminders.
    Event.objects.select_for_update().filter(pk=plan.event.pk).first()
    already = set(DuesReminder.objects.filter(event=plan.event).values_list("membership_id", flat=True))
    sent = [
        _reminder_send(item=item, season=season, event=plan.event, on=on, actor=actor)
        for item in plan.to_send
        if item.membership.pk not in already
    ]
    if sent:
        audit_record(
            actor=actor,
            action="finance.dues_reminders",
            summary=f"Dues reminders queued for {len(sent)} member(s) for {plan.event}",
            data={"to": [r.email for r in sent], "event": plan.event.pk},
        )
    return sent


def _reminder_send(
    *, item: ReminderDue, season: Season, event: Event, on: dt.date, actor: Actor
) -> DuesReminder:
    """Record one member's reminder for ``event`` and queue its e-mail (sent after the transaction commits)."""
    outlook = item.outlook
    body = render_to_string(
        "finance/email/dues_reminder.txt",
        {
            "person": item.membership.person,
            "season": season,
            "event": event,
            "outlook": outlook,
            "lines": statement_text(lines=item.account.statement(on=on)),
            "link": site_link(reverse("finance:statement", kwargs={"membership_id": item.membership.pk})),
            "club": club_identity(),
        },
    )
    reminder = DuesReminder.objects.create(
        membership=item.membership,
        event=event,
        email=item.email,
        balance=outlook.balance,
        to_play=outlook.to_play,
        late_fee=outlook.late_fee or None,
        late_fee_date=outlook.late_fee_date,
        body=body,
        sent_by=actor_user(actor),
    )
    mail_queue(
        kind=MailDelivery.Kind.DUES_REMINDER,
        messages=[
            Mail(
                to=item.email,
                subject=reminder_subject(outlook=outlook, club_short_name=club_identity().short_name),
                body=body,
            )
        ],
        reference=f"reminder:{reminder.pk}",
    )
    return reminder
