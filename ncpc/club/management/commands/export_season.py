"""python manage.py export_season SEASON [--as-of DATE] [--format report|season-file] (SPEC §13)."""

import datetime as dt
import json

from django.core.management.base import BaseCommand, CommandError

from events.models import Season
from ncpc.club.services.season_export import season_file_export
from ncpc.club.services.season_report import season_report
from ncpc.core.identity import club_time_zone_activate


class Command(BaseCommand):
    help = "Print a season as JSON: the computed report (default) or a season file for backup and re-import."

    def add_arguments(self, parser):
        parser.add_argument("season", help="Season name, like 2026-27.")
        parser.add_argument(
            "--as-of", dest="as_of", help="Date (YYYY-MM-DD) for dues and standings; default today."
        )
        parser.add_argument("--format", choices=("report", "season-file"), default="report")

    def handle(self, *args, season, as_of, format, **options):
        found = Season.objects.filter(name=season).first()
        if found is None:
            raise CommandError(f"No season named {season!r}.")
        club_time_zone_activate()  # "today" is the club's date, not the server's nor UTC's
        day = None
        if as_of:
            try:
                day = dt.date.fromisoformat(as_of)
            except ValueError:
                raise CommandError(f"--as-of {as_of!r} is not a date like 2027-07-31.") from None
        data = (
            season_file_export(season=found)
            if format == "season-file"
            else season_report(season=found, as_of=day)
        )
        self.stdout.write(json.dumps(data, indent=2, ensure_ascii=False))
