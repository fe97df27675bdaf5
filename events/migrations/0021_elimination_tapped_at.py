"""SPEC §17.8: the night's order is the order of the taps. Each elimination gets the time its bust was tapped;
the busts recorded before this change were recorded as they were tapped, so their tap time is the time they were
recorded (``created_at``), which keeps their order."""

import django.utils.timezone
from django.db import migrations, models
from django.db.models import F


def tapped_when_recorded(apps, schema_editor):
    Elimination = apps.get_model("events", "Elimination")
    Elimination.objects.filter(tapped_at__isnull=True).update(tapped_at=F("created_at"))


class Migration(migrations.Migration):
    dependencies = [
        ("events", "0020_remove_season_rules_stamp"),
    ]

    operations = [
        migrations.AddField(
            model_name="elimination",
            name="tapped_at",
            field=models.DateTimeField(null=True),
        ),
        migrations.RunPython(tapped_when_recorded, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="elimination",
            name="tapped_at",
            field=models.DateTimeField(
                default=django.utils.timezone.now,
                help_text="When the bust was tapped: the server's time for one recorded online; for one "
                "recorded offline, the device's tap corrected by its clock (SPEC §17.8). Places follow these "
                "times.",
            ),
        ),
        migrations.AlterModelOptions(
            name="elimination",
            options={"ordering": ("event", "tapped_at", "hand", "pk")},
        ),
    ]
