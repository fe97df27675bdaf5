"""python manage.py send_dues_reminders [--date YYYY-MM-DD]: run daily from cron (docs in README).

Sends the dues reminders that are due on the date (default: the club's today): to every member who must pay
to play at the season's next event, once the season's ``dues_reminder_days_ahead`` window before it is open,
once per member and event. Running it again the same day, or every day, sends nothing twice."""

import datetime as dt

from django.core.management.base import BaseCommand, CommandError

from events.selectors import season_for_date
from finance.services.reminders import dues_reminders_send
from ncpc.core.clock import club_today
from ncpc.core.identity import club_time_zone_activate


class Command(BaseCommand):
    help = "Queue the dues reminders due today (members who must pay to play at the next event)."

    def add_arguments(self, parser):
        parser.add_argument("--date", dest="on", help="The day to send for (YYYY-MM-DD); default today.")

    def handle(self, *args, on=None, **options):
        club_time_zone_activate()  # the club's today and the times in the e-mails
        day = club_today()
        if on:
            try:
                day = dt.date.fromisoformat(on)
            except ValueError:
                raise CommandError(f"--date {on!r} is not a date like 2026-12-05.") from None
        season = season_for_date(day)
        if season is None:
            self.stdout.write(f"No season on {day:%Y-%m-%d}: nothing to send.")
            return
        sent = dues_reminders_send(season=season, on=day, actor=None)
        self.stdout.write(f"{day:%Y-%m-%d}: queued {len(sent)} dues reminder(s).")
