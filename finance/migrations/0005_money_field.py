"""Every money column becomes an ``ncpc.core.fields.MoneyField`` (a ``DecimalField(max_digits=12,
decimal_places=2)``, the same numeric(12, 2) column). Only the migration state changes: the schema is
the same, so no SQL runs (SQLite would otherwise rebuild each table for the new field class, and with
it drop the ledger's append-only triggers)."""

import ncpc.core.fields
from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("finance", "0004_dues_reminder_per_event"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name="disbursement",
                    name="amount",
                    field=ncpc.core.fields.MoneyField(decimal_places=2, max_digits=12),
                ),
                migrations.AlterField(
                    model_name="duesreminder",
                    name="balance",
                    field=ncpc.core.fields.MoneyField(decimal_places=2, max_digits=12),
                ),
                migrations.AlterField(
                    model_name="duesreminder",
                    name="late_fee",
                    field=ncpc.core.fields.MoneyField(blank=True, decimal_places=2, max_digits=12, null=True),
                ),
                migrations.AlterField(
                    model_name="duesreminder",
                    name="to_play",
                    field=ncpc.core.fields.MoneyField(blank=True, decimal_places=2, max_digits=12, null=True),
                ),
                migrations.AlterField(
                    model_name="entry",
                    name="amount",
                    field=ncpc.core.fields.MoneyField(decimal_places=2, max_digits=12),
                ),
                migrations.AlterField(
                    model_name="payment",
                    name="amount",
                    field=ncpc.core.fields.MoneyField(decimal_places=2, max_digits=12),
                ),
                migrations.AlterField(
                    model_name="wsopresult",
                    name="gross",
                    field=ncpc.core.fields.MoneyField(decimal_places=2, max_digits=12),
                ),
                migrations.AlterField(
                    model_name="wsopresult",
                    name="tips",
                    field=ncpc.core.fields.MoneyField(decimal_places=2, default=0, max_digits=12),
                ),
            ],
        ),
    ]
