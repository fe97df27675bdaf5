"""python manage.py rsvp_reminders [--on YYYY-MM-DD] — for cron, daily: remind members who have not said
whether they come to a night due within the season's ``rsvp_reminder_days`` (once per member per night)."""

import datetime as dt

from django.core.management.base import BaseCommand, CommandError

from events.services.rsvp import rsvp_reminders_send
from ncpc.core.identity import club_time_zone_activate


class Command(BaseCommand):
    help = "E-mail members who have not answered 'who's coming' for a night due within the season's reminder days."

    def add_arguments(self, parser):
        parser.add_argument(
            "--on", dest="on", help="The day to send for (YYYY-MM-DD); default the club's today."
        )

    def handle(self, *args, on, **options):
        club_time_zone_activate()  # the club's today and the times in the e-mails
        day = None
        if on:
            try:
                day = dt.date.fromisoformat(on)
            except ValueError:
                raise CommandError(f"--on {on!r} is not a date like 2026-12-09.") from None
        sent = rsvp_reminders_send(on=day)
        self.stdout.write(f"Who's-coming reminders queued: {sent} reminder(s).")
