"""Months closed before closing kept the report (SPEC §17.1) get their record now, computed from the data as it
stands at this migration: from here on, every closed month's page and files are built from its record.

The report is computed by the app's own code (finance.selectors.report_record), which reads the models as they
are at this migration; on a database with no closed month left without a record (a new one among them) it is
never called."""

from django.db import migrations


def closed_months_recorded(apps, schema_editor):
    ClosedMonth = apps.get_model("finance", "ClosedMonth")
    months = list(
        ClosedMonth.objects.filter(report__isnull=True).select_related("closed_by").order_by("month")
    )
    if not months:
        return
    from finance.selectors.report_record import closer_record, month_report_complete, report_record
    from ncpc.core.clock import club_today

    today = club_today()
    for closed in months:
        record = report_record(
            month_report_complete(year=closed.month.year, month=closed.month.month, today=today)
        )
        record["closed_by"] = closer_record(closed.closed_by)
        ClosedMonth.objects.filter(pk=closed.pk).update(report=record)


class Migration(migrations.Migration):
    dependencies = [("finance", "0008_closed_month_report")]

    operations = [migrations.RunPython(closed_months_recorded, migrations.RunPython.noop)]
