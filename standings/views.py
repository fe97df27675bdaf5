import calendar
import datetime as dt

from django.contrib import messages
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.safestring import SafeString
from django.views.decorators.http import require_POST

from events.models import Season
from events.selectors import current_season, season_named, seasons_all
from members.models import Person
from ncpc.core.clock import club_today
from ncpc.core.errors import NcpcError
from ncpc.core.permissions import Action, club_page, require, user_can, user_person
from standings import report_files, selectors
from standings.badges import RACE_BADGES, WSOP_BADGES
from standings.forms import DeclineForm, TieBreakForm, WithdrawDeclineForm
from standings.models import WsopDecline
from standings.services.chart import cumulative_chart
from standings.services.tie_breaks import tie_break_record, wsop_decline_record, wsop_decline_withdraw


def _season(name: str) -> Season:
    season = season_named(name)
    if season is None:
        raise Http404("No such season.")
    return season


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


def _decorate(rows):
    for row in rows:
        row.wsop_badge = WSOP_BADGES.get(row.wsop, WSOP_BADGES["none"])
        row.race_badge = RACE_BADGES.get(row.race) if row.race else None
    return rows


@club_page
def current(request):
    season = current_season()
    if season is None:
        return render(request, "standings/season.html", {"season": None})
    return redirect("standings:season", season=season.name)


def _standings_body(*, season: Season, me_id: int | None, can_record: bool, standings, seasons) -> SafeString:
    """The page's content for one viewer (their row marked) (standings/partials/season_body.html)."""
    me = standings.row_for(me_id) if me_id is not None else None
    _decorate(standings.rows)
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
    season = _season(season)
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
            "rows": _decorate(standings.rows),
            "month_start": first,
            "month_events": [e for e in standings.events if e.date >= first],
            "months": [dt.date(y, m, 1) for y, m in months],
            "me": standings.row_for_user(request.user.pk),
            "chart": _chart(standings),
        },
    )


@require(Action.RECORD_TIE_BREAKS)
def tie_breaks(request, season):
    season = _season(season)
    standings = selectors.season_standings(season=season)
    forms = {
        group[0].rank: TieBreakForm(
            request.POST
            if request.method == "POST" and request.POST.get("group") == str(group[0].rank)
            else None,
            group=group,
            prefix=f"g{group[0].rank}",
        )
        for group in standings.tied_groups
    }
    if request.method == "POST":
        group_key = request.POST.get("group", "")
        form = forms.get(int(group_key)) if group_key.isascii() and group_key.isdigit() else None
        if form is None:
            messages.error(
                request, "That tie no longer exists (the standings changed). Nothing was recorded."
            )
            return redirect("standings:tie_breaks", season=season.name)
        if form.is_valid():
            try:
                tie_break_record(
                    season=season,
                    order=form.ordered_memberships(),
                    how=form.cleaned_data["how"],
                    note=form.cleaned_data["note"],
                    actor=request.user,
                )
            except NcpcError as exc:
                messages.error(request, str(exc))
            else:
                messages.success(request, "Recorded the tie-break; the standings now order those members.")
                return redirect("standings:tie_breaks", season=season.name)
        else:
            messages.error(request, "Nothing was recorded: please correct the fields marked below.")
    recorded = season.tie_breaks.prefetch_related("entries__membership__person").select_related("recorded_by")
    return render(
        request,
        "standings/tie_breaks.html",
        {
            "season": season,
            "groups": [(group, forms[group[0].rank]) for group in standings.tied_groups],
            "recorded": recorded,
        },
    )


@require(Action.RECORD_TIE_BREAKS)
def declines(request, season):
    season = _season(season)
    standings = selectors.season_standings(season=season)
    form = DeclineForm(request.POST or None, representatives=standings.representatives)
    if request.method == "POST":
        if form.is_valid():
            membership = form.representatives[form.cleaned_data["membership"]]
            try:
                wsop_decline_record(
                    season=season, membership=membership, note=form.cleaned_data["note"], actor=request.user
                )
            except NcpcError as exc:
                messages.error(request, str(exc))
            else:
                messages.success(request, f"Recorded that {membership.person} cannot attend the WSOP.")
                return redirect("standings:declines", season=season.name)
        else:
            messages.error(request, "Nothing was recorded: please correct the fields marked below.")
    recorded = WsopDecline.objects.filter(season=season).select_related("membership__person", "recorded_by")
    return render(
        request,
        "standings/declines.html",
        {
            "season": season,
            "standings": standings,
            "representatives": _decorate(standings.representatives),
            "form": form,
            "recorded": [(d, WithdrawDeclineForm(prefix=f"w{d.pk}")) for d in recorded],
        },
    )


@require_POST
@require(Action.RECORD_TIE_BREAKS)
def decline_withdraw(request, season, pk):
    season = _season(season)
    decline = get_object_or_404(WsopDecline, pk=pk, season=season)
    form = WithdrawDeclineForm(request.POST, prefix=f"w{decline.pk}")
    if not form.is_valid():
        messages.error(request, "Give a reason for withdrawing the decline.")
    else:
        try:
            wsop_decline_withdraw(decline=decline, reason=form.cleaned_data["reason"], actor=request.user)
        except NcpcError as exc:
            messages.error(request, str(exc))
        else:
            messages.success(request, "Withdrew the decline.")
    return redirect("standings:declines", season=season.name)


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
