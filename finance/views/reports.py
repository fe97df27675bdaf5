"""The treasurer's monthly report: the page, its files, closing the month."""

import datetime as dt

from django.http import Http404
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.utils import timezone
from django.views.decorators.http import require_POST

from finance import report_files
from finance.selectors.report_record import monthly_report_read
from finance.services.ledger import months_open_between
from finance.services.month_closing import month_close
from ncpc.core.clock import club_today
from ncpc.core.feedback import command_run
from ncpc.core.permissions import Action, require, user_can


@require(Action.VIEW_CLUB)
def report_current(request):
    today = club_today()
    return redirect("finance:report", year=today.year, month=today.month)


def _months_beside(year: int, month: int) -> tuple[dt.date, dt.date]:
    """The first days of the month before and the month after."""
    first = dt.date(year, month, 1)
    return (first - dt.timedelta(days=1)).replace(day=1), (first + dt.timedelta(days=32)).replace(day=1)


def _report_parts(*, year: int, month: int, today: dt.date, viewer: int | None, data, own) -> dict[str, str]:
    """The report's heading (its links) and tables (finance/partials/report_head.html and report_body.html),
    for the officers (``viewer`` None: every seat) or for one member (their own seat): most of the page."""
    prev, nxt = _months_beside(year, month)
    full = viewer is None
    context = {"report": data, "full": full, "own_rows": own}
    return {
        "head_html": render_to_string(
            "finance/partials/report_head.html",
            {**context, "prev": prev, "next": nxt, "csv_tables": report_files.csv_tables(full=full)},
        ),
        "body_html": render_to_string("finance/partials/report_body.html", context),
    }


@require(Action.VIEW_CLUB)
def report(request, year, month):
    if not (1 <= month <= 12 and 2000 <= year <= 2200):
        raise Http404("No such month.")
    # A closed month's report is the one its closing kept (SPEC §17.1); an open month's is computed.
    data, closed_before = monthly_report_read(year=year, month=month, today=club_today())
    full = user_can(request.user, Action.TREASURER_REPORT)
    own = []
    if not full:
        # The reader's own seat: the row whose holder is this login (the report has read the people already).
        own = [row for row in data.members if row.membership.person.user_id == request.user.pk]
    fmt = request.GET.get("format")
    if fmt == "csv":
        response = report_files.report_csv(data, table=request.GET.get("table", "fees"), full=full, own=own)
        if response is None:
            raise Http404("No such table in this report.")
        return response
    if fmt == "xlsx":
        return report_files.report_xlsx(data, full=full, own=own)
    if fmt == "pdf":
        return report_files.report_pdf(data, full=full, own=own, printed=timezone.localtime())
    nxt = _months_beside(year, month)[1]
    may_close = user_can(request.user, Action.MANAGE_LEDGER) and nxt <= club_today()
    # Months close in order (SPEC §16.1): the earlier months still open, listed instead of the button; from the
    # books' first month the report read with its accounts and the closings read with the report (no query).
    open_before = (
        months_open_between(start=data.books_month, day=data.start, closed=closed_before)
        if may_close and data.closed is None
        else []
    )
    return render(
        request,
        "finance/report.html",
        {
            "report": data,
            **_report_parts(
                year=year,
                month=month,
                today=club_today(),
                viewer=None if full else request.user.pk,
                data=data,
                own=own,
            ),
            "period": report_files.report_period(data),
            "closed": data.closed,
            "may_close": may_close,
            "open_before": open_before,
            "printed": timezone.localtime(),
        },
    )


@require_POST
@require(Action.MANAGE_LEDGER)
def report_close(request, year, month):
    """The Treasurer presented the month's report: close the month (SPEC §15.6)."""
    if not (1 <= month <= 12 and 2000 <= year <= 2200):
        raise Http404("No such month.")
    first = dt.date(year, month, 1)
    command_run(
        request,
        month_close,
        success=f"{first:%B %Y} is closed: no entry can be dated in it; corrections are dated today.",
        day=first,
    )
    return redirect("finance:report", year=year, month=month)
