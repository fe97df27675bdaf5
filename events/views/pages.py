import calendar
from decimal import Decimal

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, redirect, render

from events import hooks
from events.bylaws import BYLAWS_RULES
from events.forms import FORMSETS, SeasonCreateForm, SeasonRulesForm, formset_data_with_rows, formset_rows
from events.models import Season
from events.rules import SeasonRules
from events.selectors import current_season, season_rules
from events.services.rules_check import rules_problems
from events.services.rules_edit import (
    night_under_way,
    reschedule_moves_waiting,
    rules_dues_key,
    rules_tables_proposed,
    season_frozen_by,
    season_rules_save,
)
from events.services.schedule import schedule_words
from events.services.seasons import (
    events_reschedule,
    events_reschedule_plan,
    season_first_month_offered,
    season_next_opening,
)
from events.templatetags import events_tags
from ncpc.core.clock import club_today
from ncpc.core.errors import NcpcError
from ncpc.core.feedback import command_run
from ncpc.core.identity import reference_rewrite
from ncpc.core.permissions import Action, require, user_can


@require(Action.VIEW_CLUB)
def rules_current(request):
    season = current_season()
    if season is None:
        if not user_can(request.user, Action.EDIT_RULES):
            return render(request, "events/rules_view.html", {"season": None})
        words = schedule_words(BYLAWS_RULES.schedule, BYLAWS_RULES.schedule_weekday)
        return render(
            request,
            "events/rules.html",
            {"season": None, "create_form": SeasonCreateForm(schedule_words=words)},
        )
    return redirect("events:rules", season=season.name)


def _rule_value(name: str, value, rules: SeasonRules) -> str:
    if name == "schedule":
        return schedule_words(value, rules.schedule_weekday)
    if name == "schedule_weekday":
        return calendar.day_name[value]
    if name == "points_table":
        return ", ".join(str(p) for p in value)
    if name == "event_start_time":
        return value.strftime("%-I:%M %p")
    if name.endswith("_pct"):
        return events_tags.percent(value)
    if isinstance(value, Decimal):
        return events_tags.dollars(value)
    return events_tags.thousands(value) if isinstance(value, int) else str(value)


def _numbered_levels(structure) -> list[tuple[int | None, object]]:
    """Each row of the blind structure with its level number (breaks have none)."""
    out: list[tuple[int | None, object]] = []
    number = 0
    for level in structure:
        if level.kind == "break":
            out.append((None, level))
        else:
            number += 1
            out.append((number, level))
    return out


def rules_read_only(request, season):
    """Issue 15, item 11: every member may read the season's rules (the blind structure, the payout table, …)."""
    rules = season_rules(season)
    return render(
        request,
        "events/rules_view.html",
        {
            "season": season,
            "seasons": Season.objects.all(),
            "rules": rules,
            "numbers": [
                (
                    reference_rewrite(Season.rule_label(name)),
                    _rule_value(name, getattr(rules, name), rules),
                    reference_rewrite(Season.rule_help_text(name)),
                )
                for name in SeasonRules.SCALAR_FIELDS
            ],
            "titles": {name: reference_rewrite(Season.rule_label(name)) for name in SeasonRules.TABLE_FIELDS},
            "blinds": _numbered_levels(rules.blind_structure),
            "frozen_by": season_frozen_by(season=season),
        },
    )


@require(Action.VIEW_CLUB)
def rules(request, season):
    season = get_object_or_404(Season, name=season)
    if not user_can(request.user, Action.EDIT_RULES):
        if request.method != "GET":
            raise PermissionDenied("Only officers change the season's rules.")
        return rules_read_only(request, season)
    current = season_rules(season)  # before the form, which sets what was typed on ``season``
    editing = request.method == "POST"
    data = request.POST if editing else None
    form = SeasonRulesForm(data, instance=season)
    formsets = {prefix: cls(data, instance=season, prefix=prefix) for prefix, _table, cls in FORMSETS}
    valid = editing and form.is_valid() and all(fs.is_valid() for fs in formsets.values())
    proposed = (
        rules_tables_proposed(
            season=season,
            current=current,
            changes=form.cleaned_data,
            typed={
                table: formset_rows(table=table, formset=formsets[prefix]) for prefix, table, _cls in FORMSETS
            },
            seen_for=request.POST.get("tables_for"),
        )
        if valid
        else {}
    )
    if proposed:
        data = request.POST
        for prefix, table, _cls in FORMSETS:
            if table in proposed:
                data = formset_data_with_rows(data=data, prefix=prefix, table=table, rows=proposed[table])
        formsets = {prefix: cls(data, instance=season, prefix=prefix) for prefix, _table, cls in FORMSETS}
        names = " and ".join(reference_rewrite(Season.rule_label(t)).lower() for t in proposed)
        messages.info(
            request,
            f"Nothing was saved yet: the new numbers change what the {names} must add up to, so they are filled in "
            "below, scaled from the season's (rounded as they were). Check or edit them, then save.",
        )
    elif editing and request.POST.get("confirm") != "on":
        messages.error(request, "Nothing was saved: tick the box to confirm the change of the rules.")
    elif valid:
        saved = _rules_saved(request, season=season, form=form, formsets=formsets)
        if saved is not None:
            return saved
    elif editing:
        messages.error(request, "Nothing was saved: please correct the fields marked below.")
    opening = season_next_opening(season=season)
    return render(
        request,
        "events/rules.html",
        {
            "season": season,
            "seasons": Season.objects.all(),
            "form": form,
            "formsets": [
                (prefix, reference_rewrite(Season.rule_label(table)), formsets[prefix])
                for prefix, table, _cls in FORMSETS
            ],
            "problems": rules_problems(
                rules=season_rules(season), seats_held=hooks.seats_held(season=season)
            ),
            "tables_for": rules_dues_key(values=form.cleaned_data)
            if proposed
            else request.POST.get("tables_for", ""),
            "reason": request.POST.get("reason", ""),
            "create_form": SeasonCreateForm(
                initial={
                    "start_year": season.start.year + 1,
                    "first_month": season_first_month_offered(
                        schedule=current.schedule, start_year=season.start.year + 1, opening=opening
                    ),
                },
                schedule_words=schedule_words(current.schedule, current.schedule_weekday),
            ),
            # SPEC §17.2: what opening the next season does when its first months are closed.
            "opening": opening,
            "can_edit": True,
            "frozen_by": season_frozen_by(season=season),
            "night": night_under_way(season=season),
            "moves": reschedule_moves_waiting(season=season, today=club_today(), reread=editing),
        },
    )


def _rules_saved(request, *, season: Season, form, formsets):
    """Save the rules form; the redirect to show next, or None (and the refusal shown) when refused."""
    refusals: list[NcpcError] = []
    changed = command_run(
        request,
        season_rules_save,
        refused=refusals.append,
        season=season,
        changes=form.cleaned_data,
        tables={
            table: formset_rows(table=table, formset=formsets[prefix]) for prefix, table, _cls in FORMSETS
        },
        reason=request.POST.get("reason", ""),
    )
    if refusals:
        messages.error(request, f"Nothing was saved. {refusals[0]}")
        return None
    if not changed:
        messages.info(request, "Nothing changed.")
        return redirect("events:rules", season=season.name)
    messages.success(request, f"Saved the rules of {season}.")
    if {"schedule", "schedule_weekday"} & set(changed):
        season.refresh_from_db()
        if any(not m.stays for m in events_reschedule_plan(season=season, today=club_today())):
            messages.info(
                request,
                "The new schedule puts events not yet played on other dates: check the moves below and confirm "
                "them, or leave the events where they are.",
            )
            return redirect("events:season_reschedule", season=season.name)
    return redirect("events:rules", season=season.name)


@require(Action.EDIT_RULES)
def season_reschedule(request, season):
    """Move the events not yet played to the dates of the season's schedule rule, after one confirmation."""
    season = get_object_or_404(Season, name=season)
    today = club_today()
    if request.method == "POST":
        if request.POST.get("confirm") != "on":
            messages.error(request, "Nothing was moved: tick the box to confirm the moves.")
        else:
            moved = command_run(
                request,
                events_reschedule,
                season=season,
                today=today,
                expected=request.POST.getlist("move"),
                reason=request.POST.get("reason", ""),
            )
            if moved is not None:
                messages.success(
                    request,
                    f"Moved {len(moved)} events to the dates of the schedule rule; each keeps its number and is "
                    "to be announced again.",
                )
                return redirect("events:schedule", season=season)
        return redirect("events:season_reschedule", season=season.name)
    rules = season_rules(season)
    try:
        plan = events_reschedule_plan(season=season, today=today)
    except NcpcError as exc:
        messages.error(request, str(exc))
        plan = []
    return render(
        request,
        "events/season_reschedule.html",
        {
            "season": season,
            "rule": schedule_words(rules.schedule, rules.schedule_weekday),
            "moves": [m for m in plan if not m.stays],
            "stays": [m for m in plan if m.stays],
        },
    )
