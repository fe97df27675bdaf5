"""Every money column becomes an ``ncpc.core.fields.MoneyField`` (a ``DecimalField(max_digits=12,
decimal_places=2)``, the same numeric(12, 2) column). Only the migration state changes: the schema is
the same, so no SQL runs (SQLite would otherwise rebuild each table for the new field class, and with
it drop the ledger's append-only triggers)."""

import django.core.validators
import ncpc.core.fields
from decimal import Decimal
from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("events", "0014_nightmove"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name="duesinstallment",
                    name="amount",
                    field=ncpc.core.fields.MoneyField(decimal_places=2, max_digits=12),
                ),
                migrations.AlterField(
                    model_name="payoutrow",
                    name="first",
                    field=ncpc.core.fields.MoneyField(decimal_places=2, max_digits=12),
                ),
                migrations.AlterField(
                    model_name="payoutrow",
                    name="fourth",
                    field=ncpc.core.fields.MoneyField(blank=True, decimal_places=2, max_digits=12, null=True),
                ),
                migrations.AlterField(
                    model_name="payoutrow",
                    name="second",
                    field=ncpc.core.fields.MoneyField(decimal_places=2, max_digits=12),
                ),
                migrations.AlterField(
                    model_name="payoutrow",
                    name="third",
                    field=ncpc.core.fields.MoneyField(decimal_places=2, max_digits=12),
                ),
                migrations.AlterField(
                    model_name="season",
                    name="admin_fee",
                    field=ncpc.core.fields.MoneyField(
                        decimal_places=2,
                        help_text="Charged once a season with the first dues (§2.7).",
                        max_digits=12,
                        verbose_name="annual admin fee ($)",
                    ),
                ),
                migrations.AlterField(
                    model_name="season",
                    name="dues_per_event",
                    field=ncpc.core.fields.MoneyField(
                        decimal_places=2,
                        help_text="Dues for each event (§2.6).",
                        max_digits=12,
                        verbose_name="dues per event ($)",
                    ),
                ),
                migrations.AlterField(
                    model_name="season",
                    name="late_fee",
                    field=ncpc.core.fields.MoneyField(
                        decimal_places=2,
                        help_text="Charged monthly from the December event while a member is not paid in full (§2.10).",
                        max_digits=12,
                        verbose_name="late fee per month ($)",
                    ),
                ),
                migrations.AlterField(
                    model_name="season",
                    name="money_limit",
                    field=ncpc.core.fields.MoneyField(
                        decimal_places=2,
                        default=Decimal("10000.00"),
                        help_text="Not a bylaws number: the largest amount one payment, transfer or check may be, so that a slip of the keyboard cannot book a fortune.",
                        max_digits=12,
                        validators=[django.core.validators.MinValueValidator(Decimal("0.01"))],
                        verbose_name="largest single amount ($)",
                    ),
                ),
                migrations.AlterField(
                    model_name="season",
                    name="winnings_threshold",
                    field=ncpc.core.fields.MoneyField(
                        decimal_places=2,
                        help_text="A representative's gross WSOP winnings above this are shared with the club (§9.2).",
                        max_digits=12,
                        verbose_name="WSOP winnings shared above ($)",
                    ),
                ),
                migrations.AlterField(
                    model_name="season",
                    name="wsop_entry",
                    field=ncpc.core.fields.MoneyField(
                        decimal_places=2,
                        help_text="The buy-in of the WSOP event paid for each WSOP seat (§8.1).",
                        max_digits=12,
                        verbose_name="WSOP entry ($)",
                    ),
                ),
                migrations.AlterField(
                    model_name="season",
                    name="wsop_expenses",
                    field=ncpc.core.fields.MoneyField(
                        decimal_places=2,
                        help_text="Expenses paid with each WSOP seat (§8.1).",
                        max_digits=12,
                        verbose_name="WSOP expenses ($)",
                    ),
                ),
            ],
        ),
    ]
