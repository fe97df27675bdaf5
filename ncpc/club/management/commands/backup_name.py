"""python manage.py backup_name [--ext dump]: the name a backup file gets, "lakeside-2026-11-29.dump".

The club's short name and the club's date (its time zone), for the README's backup commands:
``pg_dump --format=custom --file="$(manage.py backup_name --ext dump)" "$DATABASE_URL"``. A shell's
``date +%F`` gives the server's date (UTC on most servers): after 7 PM in Chicago, already tomorrow's.
"""

from django.core.management.base import BaseCommand

from ncpc.core.identity import club_backup_name


class Command(BaseCommand):
    help = "Print the name of today's backup file: the club's short name and the club's date."

    def add_arguments(self, parser):
        parser.add_argument("--ext", default="", help="An extension to add, like dump or sqlite3.")

    def handle(self, *args, ext: str, **options):
        name = club_backup_name()
        self.stdout.write(f"{name}.{ext.lstrip('.')}" if ext.strip(".") else name)
