"""The club-wide pages: home, the health check, about, the reports index, the audit trail and the login."""

import calendar

from django import forms
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_not_required
from django.contrib.auth.forms import AuthenticationForm
from django.core.paginator import Paginator
from django.core.validators import MaxLengthValidator
from django.db import connection
from django.http import HttpResponse
from django.shortcuts import render
from django.urls import NoReverseMatch, reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from events.bylaws import BYLAWS_RULES
from events.selectors import current_season, season_rules
from events.services.schedule import schedule_words
from ncpc.club.home import home_page, night_to_run
from ncpc.club.services.setup import setup_checklist_for_home
from ncpc.core.forms import form_field
from ncpc.core.identity import reference_rewrite
from ncpc.core.models import AuditEntry
from ncpc.core.permissions import Action, require, user_can, user_person

# Reports offered on /reports/: (title, description, url name, action). Each app adds its own here.
REPORTS = (
    (
        "Treasurer's monthly report",
        "Account balances, receipts and payments, outstanding fees (§3.6.3).",
        "finance:report_current",
        Action.VIEW_CLUB,
    ),
    (
        "Points report",
        "Standings after the month's events, points per event (§3.5.7).",
        "standings:points_report_current",
        Action.VIEW_CLUB,
    ),
    (
        "Season files",
        "Each season as a file the app reads back: what it carries (rules, members, results, dues) and what "
        "only the database backup keeps (opening balances, payouts, the club's identity).",
        "season_files",
        Action.VIEW_PERSONAL_DATA,
    ),
)


@login_not_required
@never_cache
@require_GET
def healthz(request):
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()
    return HttpResponse("ok", content_type="text/plain")


def home(request):
    season = current_season()
    context = {
        "season": season,
        "person": user_person(request.user),
        **home_page(request=request, season=season),
    }
    context["run_night"] = night_to_run(request=request, season=season, next_event=context["next_event"])
    context["can_edit_rules"] = user_can(request.user, Action.EDIT_RULES)
    if context["can_edit_rules"]:
        context["setup"] = setup_checklist_for_home()
    return render(request, "home.html", context)


def about(request):
    """The club in a few lines, with the current season's rules (the bylaws' before the first season). Also the
    benchmark's logged-in floor: the base template, the season and its dues schedule."""
    season = current_season()
    rules = season_rules(season) if season else BYLAWS_RULES
    months = [calendar.month_name[month] for month, _n in rules.schedule]
    last_dues = max((number for number, _amount in rules.dues_schedule), default=None)
    return render(
        request,
        "about.html",
        {
            "rules": rules,
            "schedule": schedule_words(rules.schedule, rules.schedule_weekday),
            "first_month": months[0] if months else "",
            "last_month": months[-1] if months else "",
            "dues_month": months[last_dues - 1] if last_dues and last_dues <= len(months) else "",
        },
    )


def reports(request):
    entries = []
    for title, description, name, action in REPORTS:
        if not user_can(request.user, action):
            continue
        try:
            url = reverse(name)
        except NoReverseMatch:
            continue
        entries.append({"title": title, "description": reference_rewrite(description), "url": url})
    return render(request, "reports.html", {"reports": entries})


@require(Action.VIEW_AUDIT)
def audit(request):
    entries = AuditEntry.objects.select_related("actor")
    action = request.GET.get("action", "").strip()
    if action:
        entries = entries.filter(action__startswith=action)
    page = Paginator(entries, 50).get_page(request.GET.get("page"))
    return render(request, "audit.html", {"page": page, "action": action})


class LoginForm(AuthenticationForm):
    """Django sets the username's max_length after the field is built, so nothing checks it on the server: a
    10,000-character name reached the failed-login record (a 255-character column on PostgreSQL) and gave a
    500. The length is checked here, before anyone tries to log in with it."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        limit = form_field(self, "username", forms.CharField).max_length
        if limit:
            self.fields["username"].validators.append(MaxLengthValidator(limit))


login = login_not_required(auth_views.LoginView.as_view(authentication_form=LoginForm))
