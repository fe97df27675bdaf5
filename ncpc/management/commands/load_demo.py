"""Fill the database with a believable club for local use. Safe to run again: it adds only what is missing."""

from django.core.management.base import BaseCommand
from django.db import transaction

DEMO_LOADERS = (
    # Each app adds its loader here, in dependency order; each takes and returns the demo context dict.
    "events.demo.demo_context_season",
    "members.demo.demo_context_people",
)


class Command(BaseCommand):
    help = "Load demo data: the current season, venues, 16 members with logins, and what later apps add."

    @transaction.atomic
    def handle(self, *args, **options):
        from django.utils.module_loading import import_string

        context: dict = {}
        for path in DEMO_LOADERS:
            import_string(path)(context)
        season = context["season"]
        self.stdout.write(
            self.style.SUCCESS(f"Demo data ready: season {season}, {len(context['people'])} members.")
        )
        self.stdout.write(
            "Logins (local use only): rick (President), vera (Vice President), tom (Treasurer),"
        )
        self.stdout.write("ann … ned (members); password for all: ncpc-demo-2026")
