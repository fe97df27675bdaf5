"""SPEC §16.11: results, nights and who's-coming answers are never deleted with their event (or a seat's
answers with the seat): PROTECT instead of CASCADE. Django enforces ``on_delete`` itself, so no SQL runs."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("events", "0015_money_field"),
        ("members", "0005_vote_form_key"),
    ]

    operations = [
        migrations.AlterField(
            model_name="attendance",
            name="event",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.PROTECT, related_name="attendances", to="events.event"
            ),
        ),
        migrations.AlterField(
            model_name="elimination",
            name="attendance",
            field=models.OneToOneField(
                on_delete=django.db.models.deletion.PROTECT,
                related_name="elimination",
                to="events.attendance",
            ),
        ),
        migrations.AlterField(
            model_name="elimination",
            name="event",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.PROTECT, related_name="eliminations", to="events.event"
            ),
        ),
        migrations.AlterField(
            model_name="night",
            name="event",
            field=models.OneToOneField(
                on_delete=django.db.models.deletion.PROTECT, related_name="night", to="events.event"
            ),
        ),
        migrations.AlterField(
            model_name="nightchange",
            name="event",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.PROTECT, related_name="night_changes", to="events.event"
            ),
        ),
        migrations.AlterField(
            model_name="nightmove",
            name="attendance",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="night_moves",
                to="events.attendance",
            ),
        ),
        migrations.AlterField(
            model_name="nightmove",
            name="event",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.PROTECT, related_name="night_moves", to="events.event"
            ),
        ),
        migrations.AlterField(
            model_name="nightseat",
            name="attendance",
            field=models.OneToOneField(
                on_delete=django.db.models.deletion.PROTECT, related_name="night_seat", to="events.attendance"
            ),
        ),
        migrations.AlterField(
            model_name="nighttable",
            name="event",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.PROTECT, related_name="night_tables", to="events.event"
            ),
        ),
        migrations.AlterField(
            model_name="rsvp",
            name="event",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.PROTECT, related_name="rsvps", to="events.event"
            ),
        ),
        migrations.AlterField(
            model_name="rsvp",
            name="membership",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.PROTECT, related_name="rsvps", to="members.membership"
            ),
        ),
    ]
