"""Fill the database with a believable club for local use. Safe to run again: it adds only what is missing."""

from django.core.management.base import BaseCommand
from django.db import transaction
from django.test.utils import override_settings
from django.utils.module_loading import import_string

from ncpc.core.models import MailDelivery

# Each app's demo module lists its steps as DEMO_STEPS = [(order, function)]; a step takes the shared
# context dict (season, people, …) and adds what it made. Lower order runs first.
DEMO_MODULES = ("events.demo", "members.demo", "finance.demo", "standings.demo")


def demo_steps():
    steps = []
    for module in DEMO_MODULES:
        try:
            steps.extend(import_string(f"{module}.DEMO_STEPS"))
        except ImportError as exc:
            if f"No module named '{module}'" not in str(exc):
                raise
    return sorted(steps, key=lambda step: step[0])


class Command(BaseCommand):
    help = "Load demo data: the current season, venues, 16 members with logins, and what later apps add."

    def handle(self, *args, **options):
        context: dict = {}
        # The demo plays whole nights and opens ballots; their e-mails to made-up members would only flood the
        # console (and the mail worker): they are neither queued nor kept.
        with override_settings(
            EMAIL_BACKEND="django.core.mail.backends.dummy.EmailBackend",
            TASKS={"default": {"BACKEND": "django_tasks.backends.dummy.DummyBackend"}},
        ):
            before = MailDelivery.objects.order_by("-pk").values_list("pk", flat=True).first() or 0
            with transaction.atomic():
                for _order, step in demo_steps():
                    step(context)
            # After the commit: the results e-mails are queued when the nights' results are announced.
            MailDelivery.objects.filter(pk__gt=before).delete()
        count = len(context["people"])
        self.stdout.write(
            self.style.SUCCESS(f"Demo data ready: season {context['season']}, {count} members.")
        )
        self.stdout.write("Logins (local use only): rick (President), vera (Vice President),")
        self.stdout.write("tom (Treasurer), ann … ned (members); password for all: ncpc-demo-2026")
