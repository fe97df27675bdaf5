"""The standings pages: the season's table and chart, the monthly points report, past seasons and careers."""

import calendar
import datetime as dt

from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.safestring import SafeString

from events.models import Season
from events.selectors import current_season, seasons_all
from members.models import Person
from ncpc.core.clock import club_today
from ncpc.core.permissions import Action, club_page, user_can, user_person
from standings import report_files, selectors
from standings.services.chart import cumulative_chart
from standings.views.common import rows_with_badges, season_or_404


def _chart(standings, *, me=None):
    if not standings.events:
        return None
    leaders = [row.person.full_name for row in standings.rows[:5]]
    highlight = ([me.person.full_name] if me else []) + [
        n for n in leaders if not me or n != me.person.full_name
    ]
    return cumulative_chart(
        series=[(row.person.full_name, row.cumulative) for row in standings.rows],
        event_numbers=standings.event_numbers,
        highlight=highlight,
    )


@club_page
def current(request):
    season = current_season()
    if season is None:
        return render(request, "standings/season.html", {"season": None})
    return redirect("standings:season", season=season.name)


def _standings_body(*, season: Season, me_id: int | None, can_record: bool, standings, seasons) -> SafeString:
    """The page's content for one viewer (their row marked) (standings/partials/season_body.html)."""
    me = standings.row_for(me_id) if me_id is not None else None
    rows_with_badges(standings.rows)
    return render_to_string(
        "standings/partials/season_body.html",
        {
            "season": season,
            "standings": standings,
            "me": me,
            "chart": _chart(standings, me=me),
            "seasons": seasons,
            "can_record": can_record,
            "report_month": _report_month(season),
        },
    )


@club_page
def season(request, season):
    seasons = seasons_all()  # for the season menu; also finds this season without a query more
    season = next((s for s in seasons if s.name == season), None)
    if season is None:
        raise Http404("No such season.")
    standings = selectors.season_standings(season=season)
    me = standings.row_for_user(request.user.pk)
    body = _standings_body(
        season=season,
        me_id=me.membership.pk if me else None,
        can_record=user_can(request.user, Action.RECORD_TIE_BREAKS),
        standings=standings,
        seasons=seasons,
    )
    return render(request, "standings/season.html", {"season": season, "body_html": body})


def _report_month(season: Season) -> tuple[int, int]:
    """The month the points report opens on: this month, clipped to the season."""
    day = min(max(club_today(), season.start), season.end)
    return day.year, day.month


@club_page
def points_report_current(request):
    season = current_season()
    if season is None:
        raise Http404("No season exists yet.")
    year, month = _report_month(season)
    return redirect("standings:points_report", season=season.name, year=year, month=month)


@club_page
def points_report(request, season, year, month):
    season = season_or_404(season)
    if not 1 <= month <= 12 or not dt.MINYEAR <= year <= dt.MAXYEAR:
        raise Http404("No such month.")
    first = dt.date(year, month, 1)
    last = dt.date(year, month, calendar.monthrange(year, month)[1])
    if last < season.start or first > season.end:
        raise Http404("That month is not in the season.")
    standings = selectors.season_standings(season=season, through=last)
    if request.GET.get("format") == "csv":
        return report_files.points_csv(standings, year=year, month=month)
    if request.GET.get("format") == "pdf":
        return report_files.points_pdf(standings, year=year, month=month, printed=timezone.localtime())
    months = []
    day = season.start
    while day <= season.end:
        months.append((day.year, day.month))
        day = (day.replace(day=28) + dt.timedelta(days=4)).replace(day=1)
    return render(
        request,
        "standings/points_report.html",
        {
            "season": season,
            "standings": standings,
            "rows": rows_with_badges(standings.rows),
            "month_start": first,
            "month_events": [e for e in standings.events if e.date >= first],
            "months": [dt.date(y, m, 1) for y, m in months],
            "me": standings.row_for_user(request.user.pk),
            "chart": _chart(standings),
        },
    )


@club_page
def history(request):
    today = club_today()
    past = []
    for s in Season.objects.filter(end__lt=today).order_by("-start", "-pk"):
        standings = selectors.season_standings(season=s)
        past.append({"season": s, "podium": standings.rows[:3], "representatives": standings.representatives})
    return render(
        request,
        "standings/history.html",
        {"past": past, "careers": selectors.career_table(), "me": user_person(request.user)},
    )


@club_page
def career(request, key):
    person = get_object_or_404(Person, key=key)
    stats, seasons = selectors.person_career(person=person)
    return render(
        request,
        "standings/career.html",
        {"person": person, "stats": stats, "seasons": seasons},
    )
