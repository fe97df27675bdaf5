"""Each mail delivery keeps the Message-ID it is sent with (SPEC §17.9), fixed when it is queued; a login's
e-mail changed is told to the old address (SPEC §17.6). Deliveries queued before this get theirs at their
next attempt."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("ncpc", "0008_delete_dataversion"),
    ]

    operations = [
        migrations.AddField(
            model_name="maildelivery",
            name="message_id",
            field=models.CharField(blank=True, max_length=255),
        ),
        migrations.AlterField(
            model_name="maildelivery",
            name="kind",
            field=models.CharField(
                choices=[
                    ("password_reset", "password reset"),
                    ("results", "results"),
                    ("results_corrected", "corrected results"),
                    ("dues_reminder", "dues reminder"),
                    ("ballot", "ballot"),
                    ("rsvp_reminder", "who's coming reminder"),
                    ("check_approval", "check to approve"),
                    ("login_email", "login's e-mail changed"),
                ],
                max_length=20,
            ),
        ),
    ]
